"""The public Python API: read, verify, replay, play and step through games (see docs/api.md).

Everything here is exported by ``phatlog`` itself; the names are a contract.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
from pydantic import BaseModel

from phatlog.diagnostics import Diagnostic, Severity
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.pitch_state import GAMES, PitchState
from phatlog.engine.state import Action, Event, IllegalAction, Phase, State, Visitor
from phatlog.record.model import RECORD_ADAPTER, IrishDonRules, NineCardDonRules, OhHellRules, PhatRules
from phatlog.record.reader import Loaded, read_bytes, read_path
from phatlog.referee.games import referee
from phatlog.referee.oh_hell_driver import OhHell
from phatlog.rules.cards import Card

#: Default names for players given as a count.
PLAYER_NAMES = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus")
RULES_MODELS: dict[str, type[BaseModel]] = {
    "phat": PhatRules,
    "nine_card_don": NineCardDonRules,
    "irish_don": IrishDonRules,
    "oh_hell": OhHellRules,
}

Source = str | bytes | os.PathLike[str] | Mapping[str, Any] | BaseModel


class ReadError(ValueError):
    """The input is not a readable, valid record; ``diagnostics`` say why (as ``phatlog validate`` would)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0].message if self.diagnostics else "not a record"
        super().__init__(first if len(self.diagnostics) < 2 else f"{first} (and {len(self.diagnostics) - 1} more)")


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``verify`` found: clean when no diagnostic is an error; ``totals`` and ``winner`` the engine's
    (by side in the All Fours family, by seat in Oh Hell; None where the record does not let them be known)."""

    clean: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)
    totals: list[int] | None = None
    winner: list[int] | None = None


def _load(source: Source) -> Loaded:
    if isinstance(source, BaseModel):
        return Loaded("<record>", source)
    if isinstance(source, Mapping):
        return read_bytes(json.dumps(source).encode(), "<dict>")
    if isinstance(source, bytes):
        return read_bytes(source, "<bytes>")
    if isinstance(source, str) and source.lstrip()[:1] in ("{", "["):
        return read_bytes(source.encode(), "<text>")
    return read_path(source)


def read(source: Source) -> Any:
    """A record (a ``phatlog.record.model`` record: ``PhatRecord``, ``OhHellRecord``, ...) from a path (str or
    Path), bytes, JSON text, or a dict; ``ReadError`` if it is not one."""
    loaded = _load(source)
    if loaded.record is None:
        raise ReadError([d.located(()) for d in loaded.diagnostics])
    record = loaded.record
    if not isinstance(record, BaseModel):  # the reader's fast path: the same record as the models
        record = RECORD_ADAPTER.validate_python(msgspec.to_builtins(record))
    return record


def verify(source: Source, visitors: Iterable[Visitor] = ()) -> Verdict:
    """Check a record (or anything ``read`` takes) as ``phatlog verify`` does: the same diagnostics.
    ``visitors`` hear the referee's events for every deal it judges, the faulty ones too (docs/api.md)."""
    loaded = _load(source)
    found = list(loaded.diagnostics)
    if loaded.record is None:
        found = [d.located(()) for d in found]
        return Verdict(False, found)
    listeners = list(visitors)
    if not listeners:
        result = referee(loaded.record)
    else:

        def tell(event: Event) -> None:
            for listener in listeners:
                listener(event)

        result = referee(loaded.record, tell)
    found.extend(result.diagnostics)
    clean = not loaded.unreadable and not any(d.severity is Severity.ERROR for d in found)
    return Verdict(clean, found, result.totals, result.winner)


def replay(source: Source) -> dict[str, Any]:
    """The replay summary as data: what ``phatlog replay --format json`` prints."""
    from phatlog.report.summary import build

    return build(_load(source)).to_json()


def checked_rules(game: str, rules: Mapping[str, Any] | None, players: int) -> tuple[Any, list[str]]:
    """The rules model of ``game`` for ``players`` and the engine's warnings about it (a parameter that
    does not apply, PL603). Raises pydantic's ``ValidationError`` for a value the schema refuses and
    ``ValueError`` for rules the referee refuses (PL601): what ``start`` and ``simulate`` check first."""
    # Any: which rules Protocol (``engine.view``) the model meets follows from ``game``, known at run time.
    model: Any = RULES_MODELS[game].model_validate(dict(rules or {}))
    checker = OhHell(model, players) if game == "oh_hell" else GAMES[game](model)
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
) -> State:
    """A new game. ``players``: names, or a count (4 by default; Oh Hell 3 to 7). ``seed``: deals drawn
    from ``random.Random(seed)`` (``rng``: draw from this generator instead); None: give each deal with
    ``state.deal(...)``. ``dealer``: the first dealer (drawn from the seed when not given, else seat 0;
    Irish Don's first dealer follows from the hands). ``visitors`` hear every event from the start."""
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
    if game == "oh_hell":
        return OhHellState(model, names, rng, dealer, list(visitors))
    return PitchState(game, model, names, rng, dealer, list(visitors))


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a record: the ``state`` before it (live: it moves on when iteration does; copy what
    you keep), the ``action`` recorded (a bid or a :class:`~phatlog.Card`), the ``seat`` the record says
    took it, and whether it was ``legal`` (among ``state.legal_actions()``, by the seat whose turn it was)."""

    state: State
    action: Action
    seat: int
    legal: bool


def states(source: Source, visitors: Iterable[Visitor] = (), on_fault: str = "stop") -> Iterator[Step]:
    """Step through a record, action by action (pokerkit's hand-history iteration).

    Each deal is dealt as recorded (hands recorded or inferred from the tricks, the dealer, the turn-up,
    the undealt cards); then each bid and card is a :class:`Step`. At an illegal action (a card not held,
    a revoke, a forbidden bid, the wrong leader) the step's ``legal`` is False and iteration stops there.
    A score-sheet deal (no cards) is passed over as the record's points, with no step. Iteration also stops
    at a deal the engine cannot deal (not a proper deal, or points missing from a score-sheet deal), and
    when the game is over. ``visitors`` hear every event, the passed-over deals' included. Input that is not
    a record raises ``ReadError``, and rules the referee refuses (PL601) ``ValueError``, at the first step.

    ``on_fault="pass"``: after the illegal action's step, the deal is given up and passed over as its
    recorded points (its ``DealScored`` has ``given_up`` True), as the referee scores it, and iteration
    goes on with the next deal; it stops if that deal records no points."""
    if on_fault not in ("stop", "pass"):
        raise ValueError(f"on_fault is 'stop' or 'pass', not {on_fault!r}")
    record = read(source)
    names = [p.name for p in record.players]
    game = record.game
    rules = record.rules.model_dump(exclude_defaults=True)
    first = record.deals[0].dealer if record.deals else 0
    state = start(game, names, rules, seed=None, dealer=first if 0 <= first < len(names) else 0, visitors=visitors)
    for deal in record.deals:
        if state.is_over:
            return
        tricks = deal.tricks or []
        if not tricks and not deal.hands:
            points = None if deal.score is None else deal.score.points
            if points is None or len(points) != state.sides:
                return
            state._pass_over(list(points), deal.dealer)
            continue
        hands = deal.hands if deal.hands is not None else _inferred(tricks, state.seats)
        how = "faulty"
        try:
            state.deal(hands, getattr(deal, "turnup", None), getattr(deal, "undealt", None), dealer=deal.dealer)
        except IllegalAction:
            played = False
        else:
            how = yield from _play_deal(state, deal, game == "oh_hell")
            played = how == "played" and (state.is_over or state.is_chance)  # a deal stopped short is given up too
        if not played:
            points = None if deal.score is None else deal.score.points
            if on_fault != "pass" or points is None or len(points) != state.sides or state.is_over:
                return
            if how == "illegal" and state.phase is Phase.PLAY:
                # An illegal play: the recorded tricks from it on are shown, unscored (TrickShown).
                rest = tricks[len(state.tricks) :]
                state._show_unscored([(t.leader, [Card.parse(c) for c in t.cards]) for t in rest])
            state._give_up(list(points), deal.dealer)


def _play_deal(state: State, deal: Any, bidding: bool) -> Generator[Step, None, str]:
    """The steps of one dealt deal; returns "played", "illegal" at an illegal action (after its step), or
    "faulty" for missing bids or more tricks than the hand has cards (faulty before any of it is played)."""
    if len(deal.tricks or []) > state.hand_size():
        return "faulty"
    if bidding:
        if deal.bids is None or len(deal.bids) != state.seats:
            return "faulty"
        for i in range(state.seats):
            seat = (deal.dealer + 1 + i) % state.seats
            bid = deal.bids[seat]
            legal = bid in state.legal_actions()
            yield Step(state, bid, seat, legal)
            if not legal:
                return "illegal"
            state.apply(bid)
    for trick in deal.tricks or []:
        for i, text in enumerate(trick.cards):
            if state.is_over:
                return "played"
            seat = (trick.leader + i) % state.seats
            card = state._card(text)
            legal = state.may_play(seat, card)
            yield Step(state, card, seat, legal)
            if not legal:
                return "illegal"
            state.apply(card)
    return "played"


def _inferred(tricks: Sequence[Any], seats: int) -> list[list[str]]:
    """The hands as shown by the tricks: each seat's cards played."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    for trick in tricks:
        for i, text in enumerate(trick.cards):
            hands[(trick.leader + i) % seats].append(text)
    return hands
