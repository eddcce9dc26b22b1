"""A new game on the game machine: the rules checked, the players named, the State made.

``checked_rules`` is what ``start`` and ``simulate`` check first: the rules model of the game (pydantic
refuses a value the schema refuses) and the rules checks of the game's rules object (``check_rules``: PL601
refuses rules that make no sense, PL603 warns of a parameter that does not apply).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from phatlog.diagnostics import Severity
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.pitch_state import PitchState
from phatlog.engine.state import State, Visitor
from phatlog.record.model import IrishDonRules, NineCardDonRules, OhHellRules, PhatRules
from phatlog.referee.games import ALL_FOURS
from phatlog.referee.oh_hell_driver import OhHellReferee
from phatlog.rules.cards import Card, Suit

#: Default names for players given as a count.
PLAYER_NAMES = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus")
#: The rules model of each game the machine plays.
RULES_MODELS: dict[str, type[BaseModel]] = {
    "phat": PhatRules,
    "nine_card_don": NineCardDonRules,
    "irish_don": IrishDonRules,
    "oh_hell": OhHellRules,
}


def checked_rules(game: str, rules: Mapping[str, Any] | None, players: int) -> tuple[Any, list[str]]:
    """The rules model of ``game`` for ``players`` and the engine's warnings about it (a parameter that
    does not apply, PL603). Raises pydantic's ``ValidationError`` for a value the schema refuses and
    ``ValueError`` for rules the referee refuses (PL601): what ``start`` and ``simulate`` check first."""
    # Any: which rules Protocol (``record.view``) the model meets follows from ``game``, known at run time.
    model: Any = RULES_MODELS[game].model_validate(dict(rules or {}))
    checker = OhHellReferee(model, players) if game == "oh_hell" else ALL_FOURS[game](model)
    found = checker.check_rules()
    errors = [d.message for d in found if d.severity is Severity.ERROR]
    if errors:
        raise ValueError("; ".join(errors))
    return model, [d.message for d in found if d.severity is not Severity.ERROR]


def start(
    game: str,
    players: Sequence[str] | int | None = None,
    rules: Mapping[str, Any] | None = None,
    seed: int | None = 7,
    dealer: int | None = None,
    rng: random.Random | None = None,
    visitors: Iterable[Visitor] = (),
    *,
    hands: Sequence[Iterable[Card | str]] | None = None,
    played: Iterable[int | Card | str] = (),
    turnup: Card | str | None = None,
    undealt: Iterable[Card | str] | None = None,
    totals: Sequence[int] | None = None,
    trump: Suit | str | None = None,
    leader: int | None = None,
    won: Sequence[Iterable[Card | str]] | None = None,
    taken: Sequence[int] | None = None,
) -> State:
    """A new game. ``players``: names, or a count (4 by default; Oh Hell 3 to 7). ``seed``: deals drawn
    from ``random.Random(seed)`` (``rng``: draw from this generator instead); None: give each deal with
    ``state.deal(...)``. ``dealer``: the first dealer (drawn from the seed when not given, else seat 0;
    Irish Don's first dealer follows from the hands). ``visitors`` hear every event from the start.

    A position (to search from, an ending, a problem): ``hands`` deals the first deal (by seat, as
    ``State.deal``: Oh Hell's ``turnup`` and Nine-card Don's ``undealt`` too), ``totals`` are the scores
    the game stands at before it (by side, or seat in Oh Hell), and the actions ``played`` (bids and
    cards, as ``apply`` takes them) are applied in order, each refused if the rules do not allow it
    (``IllegalAction``). With ``hands`` the later deals are drawn from ``seed`` (None: given with ``deal``).

    An ending, set by its cards alone: ``hands`` of fewer cards than the deal gives, the same number each
    (``State.deal_ending``); ``leader`` leads the next trick; the All Fours games take the ``trump`` and
    ``won``, by side, the cards each side took in the tricks before; Oh Hell the ``turnup`` and ``taken``,
    the tricks each seat took before (the bids are ``played``, as in a whole hand)."""
    if game not in RULES_MODELS:
        raise ValueError(f"phatlog plays phat, nine_card_don, irish_don and oh_hell, not {game!r}")
    if players is None:
        players = 4
    names = list(PLAYER_NAMES[:players]) if isinstance(players, int) else list(players)
    if isinstance(players, int) and not 1 <= players <= len(PLAYER_NAMES):
        raise ValueError(f"{game} is not for {players} players")
    model, _ = checked_rules(game, rules, len(names))
    if rng is None and seed is not None:
        rng = random.Random(seed)
    if hands is not None and rng is not None:
        held, rng = rng, None  # the first deal is given: the generator draws the later ones
    else:
        held = None
    state: State
    if game == "oh_hell":
        state = OhHellState(model, names, rng, dealer, list(visitors))
    else:
        state = PitchState(game, model, names, rng, dealer, list(visitors))
    if hands is None:
        return state
    if totals is not None:
        if len(totals) != state.sides:
            raise ValueError(f"{game} keeps {state.sides} totals, not {len(totals)}")
        state.totals[:] = list(totals)
    given = [list(h) for h in hands]
    if any(len(h) < state.hand_size() for h in given):
        if undealt is not None:
            raise ValueError("an ending lists no undealt cards: the cards out of play are neither held nor won")
        state.deal_ending(given, leader=leader, trump=trump, turnup=turnup, won=won, taken=taken)
    elif trump is not None or leader is not None or won is not None or taken is not None:
        raise ValueError("trump, leader, won and taken set up an ending: hands of fewer cards than the deal gives")
    else:
        state.deal(given, turnup=turnup, undealt=undealt)
    state.seed_later(held)
    for action in played:
        state.apply(action)
    return state
