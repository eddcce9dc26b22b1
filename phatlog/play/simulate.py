"""Seeded random games, played legally through the game-state engine, written as records: for samples,
tests and benchmarks.

Each player plays a random legal card (and in Oh Hell bids a random legal bid): the simulator is a driver
of the engine (``phatlog.start``), which deals, follows the rules and scores; the simulator only chooses.
The same seed always gives the same games: the deals and the choices are drawn from one
``random.Random(seed)`` in a fixed order (the first dealer, then each deal's shuffle followed by that
deal's bids and cards).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phatlog.engine.state import State
from phatlog.play.start import PLAYER_NAMES, RULES_MODELS, checked_rules, start
from phatlog.record.model import OhHellRules
from phatlog.rules.cards import CARD_TEXT, DECK
from phatlog.rules.cut import cut_round
from phatlog.rules.table import SEATS, dealer_for

__all__ = ["PLAYER_NAMES", "rules_warnings", "simulate", "simulate_oh_hell", "simulate_pitch"]


def _play_out(state: State, rng: random.Random) -> dict[str, Any]:
    """Random legal actions to the end of the game; the record, marked as simulated."""
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    return {**_head(record), "event": {"source": "phatlog simulate"}, **record}


def _head(record: dict[str, Any]) -> dict[str, Any]:
    """The keys that come before ``event`` in the order phatlog writes (``model.KEY_ORDER``)."""
    return {key: record.pop(key) for key in ("phatlog", "game", "rules")}


def simulate_pitch(game: str, rng: random.Random, rules: Any, with_cut: bool = False) -> dict[str, Any]:
    """One complete game of Phat, Nine-card Don or Irish Don as a record (a JSON-ready dict)."""
    dealer: int | None = None
    cut: list[list[str | None]] | None = None
    if with_cut and game != "irish_don":
        cut, first_pitcher = _cut(rng, one_per_side=game == "nine_card_don")
        dealer = dealer_for(first_pitcher, SEATS)
    state = start(game, list(PLAYER_NAMES[:4]), rules.model_dump(exclude_defaults=True), rng=rng, dealer=dealer)
    record = _play_out(state, rng)
    if cut is None:
        return record
    deals = record.pop("deals")
    result = record.pop("result")
    return {**record, "cut": cut, "deals": deals, "result": result}


def _cut(rng: random.Random, one_per_side: bool) -> tuple[list[list[str | None]], int]:
    """Draw a cut by ``cut.cut_round``'s rule (Phat: all four, lowest pitches; Don: one of each side,
    highest pitches; ties cut again)."""
    rounds: list[list[str | None]] = []
    cutting = [rng.choice((0, 2)), rng.choice((1, 3))] if one_per_side else [0, 1, 2, 3]
    while True:
        cards = rng.sample(list(DECK), len(cutting))
        row: list[str | None] = [None] * 4
        for seat, card in zip(cutting, cards, strict=True):
            row[seat] = CARD_TEXT[card]
        rounds.append(row)
        tied = cut_round(row, highest=one_per_side)
        if len(tied) == 1:
            return rounds, tied[0]
        cutting = [rng.choice((0, 2)), rng.choice((1, 3))] if one_per_side else tied


def simulate_oh_hell(rng: random.Random, rules: OhHellRules, players: int) -> dict[str, Any]:
    """One complete game of Oh Hell as a record (a JSON-ready dict)."""
    state = start("oh_hell", list(PLAYER_NAMES[:players]), rules.model_dump(exclude_defaults=True), rng=rng)
    return _play_out(state, rng)


def rules_warnings(game: str, rules: dict[str, Any], players: int = 4) -> list[str]:
    """The warnings the engine gives for rules that ``simulate`` accepts (a parameter that does not apply)."""
    return checked_rules(game, rules, players)[1]


def simulate(game: str, seed: int, count: int, **options: Any) -> Iterator[dict[str, Any]]:
    """``count`` games from one seed, made one at a time as they are taken (any count in constant memory);
    ``rules`` (a dict), ``with_cut`` and ``players`` (Oh Hell) are passed on.

    The game, the players and the rules are checked here, before any game is made: a ``ValueError`` (or
    pydantic's ``ValidationError``) comes from this call, never from the middle of the games.
    """
    rng = random.Random(seed)
    rules = options.get("rules", {})
    if game == "oh_hell":
        players = options.get("players", 4)
        if not 3 <= players <= 7:
            raise ValueError(f"Oh Hell is for 3 to 7 players, not {players}")
        oh_rules, _ = checked_rules(game, rules, players)
        return (simulate_oh_hell(rng, oh_rules, players) for _ in range(count))
    if game not in RULES_MODELS:
        raise ValueError(f"simulate does not play {game}")
    model, _ = checked_rules(game, rules, 4)
    with_cut = options.get("with_cut", False)
    return (simulate_pitch(game, rng, model, with_cut=with_cut) for _ in range(count))
