"""A record stepped through on the game machine, action by action (``phatlog.states``).

The loop the referee runs, in the open: each deal is dealt to the State as recorded, each recorded bid
and card is offered to it as a :class:`Step` (legal or not), and a deal the State cannot play as recorded
(a score sheet, a fault) is taken as its recorded points. Only the State's public methods are used.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from phatlog.engine.state import Action, IllegalAction, Phase, State, Visitor
from phatlog.play.start import start
from phatlog.record.load import Source, read
from phatlog.rules.cards import Card
from phatlog.rules.table import first_leader, in_turn


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
            state.pass_over(list(points), deal.dealer)
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
                state.show_unscored([(t.leader, [Card.parse(c) for c in t.cards]) for t in rest])
            state.give_up(list(points), deal.dealer)


def _play_deal(state: State, deal: Any, bidding: bool) -> Generator[Step, None, str]:
    """The steps of one dealt deal; returns "played", "illegal" at an illegal action (after its step), or
    "faulty" for missing bids or more tricks than the hand has cards (faulty before any of it is played)."""
    if len(deal.tricks or []) > state.hand_size():
        return "faulty"
    if bidding:
        if deal.bids is None or len(deal.bids) != state.seats:
            return "faulty"
        for i in range(state.seats):
            seat = in_turn(first_leader(deal.dealer, state.seats), i, state.seats)
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
            seat = in_turn(trick.leader, i, state.seats)
            card = state.card_of(text)
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
            hands[in_turn(trick.leader, i, seats)].append(text)
    return hands
