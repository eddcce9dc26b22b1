"""The solver's public face: a position and an objective in; its value and every legal card's value out.

A :class:`Position` is the hands still held, the cards of the trick in progress, who led it, the trump
suit (or none) and the follow rule; made from a game in play (:meth:`Position.of_state`, which also keeps
the game and its rules, for the points objective) or from the cards alone (:meth:`Position.of_hands`).

Two objectives:

- ``"tricks"``: each trick is worth one to the side that takes it, nothing else counts. The value is the
  tricks the side of the player to act can make sure of, of the tricks still to be played (the one in
  progress included). Sides: four seats in partnerships (seats 0 and 2 against 1 and 3), as in bridge;
  with any other number of seats (Oh Hell), the player to act against the rest together. Four seats in
  partnerships, every player bound to follow suit, trump or none, is a bridge double-dummy problem: the
  C kernel's tricks search (``_solve.tricks``) answers it, and it agrees with DDS (``bench/bench_dds.py``).
- ``"points"``: the game's own objective (:func:`phatlog.solver.solve`): the points the player's side
  gains over the other side to the end of the deal (All Fours), or minus the least miss of its bid (Oh
  Hell); needs a position made from a game (:meth:`Position.of_state`).

``limit`` bounds the positions searched: a solve that does not finish within it raises
:class:`SolveLimit`, saying so; it never returns a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from phatlog.engine.pitch_state import PitchState
from phatlog.engine.state import Phase, State
from phatlog.rules.cards import DECK, Card, Suit
from phatlog.rules.table import side_of
from phatlog.rules.trick import FollowRule
from phatlog.solver.position import NO_TRUMP, Tables, tricks_only_tables
from phatlog.solver.search import SearchBudget, holds_table
from phatlog.solver.values import CardValues, Review

__all__ = ["Position", "SolveLimit", "Solved", "kernel_fits", "review", "solve"]

Objective = Literal["points", "tricks"]


class SolveLimit(SearchBudget):
    """A solve stopped at its limit of positions searched, without a value."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position to solve: ``hands[seat]`` the cards each seat still holds, ``played`` the cards of the
    trick in progress (in order, led by ``leader``; empty: ``leader`` leads the next trick), ``trump`` the
    trump suit (None: no trump), ``follow`` the follow rule, and ``state`` the game it came from (None for
    a position made of cards alone: then only the tricks objective applies)."""

    hands: tuple[frozenset[Card], ...]
    played: tuple[Card, ...]
    leader: int
    trump: Suit | None
    follow: FollowRule = FollowRule.MUST_FOLLOW
    state: State | None = field(default=None, compare=False)

    @classmethod
    def of_hands(
        cls,
        hands: Sequence[Iterable[Card | str]],
        *,
        played: Iterable[Card | str] = (),
        leader: int = 0,
        trump: Suit | int | str | None = None,
        follow: FollowRule | str = FollowRule.MUST_FOLLOW,
    ) -> Position:
        """A position of cards alone (cards as :class:`~phatlog.Card` or text, ``"QH"``; ``trump`` a suit,
        its index 0..3 clubs to spades, or its letter)."""
        suit: Suit | None
        if trump is None or isinstance(trump, Suit):
            suit = trump
        elif isinstance(trump, str):
            suit = Suit.parse(trump)
        else:
            suit = Suit(trump)
        position = cls(
            tuple(frozenset(_card(c) for c in h) for h in hands),
            tuple(_card(c) for c in played),
            leader,
            suit,
            FollowRule(follow),
        )
        position.check()
        return position

    @classmethod
    def of_state(cls, state: State) -> Position:
        """The position of a game in play (``phatlog.start``, ``phatlog.states``), with the game kept."""
        if state.phase is not Phase.PLAY:
            raise ValueError(f"only a position in play can be solved; this game's phase is {state.phase.value}")
        return cls(
            tuple(frozenset(h) for h in state._held),
            tuple(state.trick),
            state.leader,
            state.trump,
            state.follow,
            state,
        )

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def to_play(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.played)) % self.seats

    def check(self) -> None:
        """Raise ``ValueError`` unless this is a position play can reach: 3 to 8 seats, no card twice, the
        hands as long as each other (less one for a seat that has played to the trick), a leader."""
        seats = self.seats
        if not 3 <= seats <= 8:
            raise ValueError(f"a position has 3 to 8 hands, not {seats}")
        if not 0 <= self.leader < seats:
            raise ValueError(f"the leader is a seat 0..{seats - 1}, not {self.leader}")
        if len(self.played) >= seats:
            raise ValueError("a trick in progress has fewer cards than there are seats")
        cards = [c for h in self.hands for c in h] + list(self.played)
        if len(set(cards)) != len(cards):
            raise ValueError("a card is held or played twice")
        left = len(self.hands[self.to_play])
        for i in range(seats):
            seat = (self.leader + i) % seats
            if len(self.hands[seat]) != left - (i < len(self.played)):
                raise ValueError("the hands must hold as many cards each, less one for a seat that has played")


@dataclass(frozen=True, slots=True)
class Solved(CardValues):
    """A position solved for the player to act (``seat``): ``value`` the best its side can make sure of
    (tricks or points, by ``objective``), ``cards`` the same after each legal card (empty when not asked
    for), ``nodes`` the positions searched."""

    objective: Objective
    seat: int
    value: int
    cards: dict[Card, int]
    nodes: int


@holds_table
def solve(
    position: Position | State,
    objective: Objective = "points",
    *,
    cards: bool = True,
    limit: int | None = None,
    engine: str = "auto",
) -> Solved:
    """Solve ``position`` (a :class:`Position`, or a game in play) for the player to act, by ``objective``
    (``"points"`` or ``"tricks"``): its value and, with ``cards``, every legal card's value. ``limit``: the
    most positions to search (None: no bound), past which :class:`SolveLimit` is raised. ``engine``:
    ``auto`` (the C kernels where built), ``points`` (the points kernel), ``c`` (the general kernel) or
    ``python``."""
    if isinstance(position, State):
        position = Position.of_state(position)
    if objective == "tricks":
        if position.trump is None and isinstance(position.state, PitchState):
            raise ValueError("the pitcher's first lead chooses the trump: no tricks objective before it")
        return _tricks(position, cards, limit, engine)
    if objective != "points":
        raise ValueError(f"the objective is 'points' or 'tricks', not {objective!r}")
    if position.state is None:
        raise ValueError("the points objective needs the game: make the position with Position.of_state")
    return _points(position.state, cards, limit, engine)


@holds_table
def review(
    position: Position | State, card: Card | str, objective: Objective = "points", *, engine: str = "auto"
) -> Review:
    """One card of the player to act valued against best play (a :class:`~phatlog.solver.values.Review`:
    ``before``, ``after``, ``cost``, ``best``, ``mattered``): cheaper than :func:`solve` for the points
    objective (the card's value exactly, then only whether each other card does better)."""
    from phatlog.solver import values

    if isinstance(position, State):
        position = Position.of_state(position)
    played = _card(card)
    if objective == "points":
        if position.state is None:
            raise ValueError("the points objective needs the game: make the position with Position.of_state")
        return values.review(position.state, played, engine=engine)
    solved = solve(position, objective, engine=engine)
    if played not in solved.cards:
        raise ValueError(f"{played} is not a legal card for the player to act")
    return values.Review(played, solved.value, solved.cards[played], solved.best, solved.mattered, solved.nodes)


@cache
def trick_tables(seats: int, trump: int | None, follow: FollowRule, sides: tuple[int, ...]) -> Tables:
    """The tables of a tricks objective for the general search: ``sides[seat]`` 0 for side 0, 1 for the
    others; every trick is worth 1 to the side that takes it, nothing else is counted."""
    return tricks_only_tables(seats, NO_TRUMP if trump is None else trump, follow, sides, (0, 0, 0, 0), 1)


def _card(c: Card | str) -> Card:
    return c if isinstance(c, Card) else Card.parse(c)


def _mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def kernel_fits(position: Position, engine: str = "auto") -> bool:
    """Whether the C tricks kernel answers this position: four seats in partnerships, must follow suit."""
    from phatlog.solver.search import c_available

    return (
        engine in ("auto", "c") and c_available() and position.seats == 4 and position.follow is FollowRule.MUST_FOLLOW
    )


def _tricks(position: Position, cards: bool, limit: int | None, engine: str) -> Solved:
    seat = position.to_play
    if kernel_fits(position, engine):
        from phatlog._native import _solve

        found = _solve.tricks(
            tuple(_mask(h) for h in position.hands),
            tuple(int(c) for c in position.played),
            position.leader,
            4 if position.trump is None else int(position.trump),
            cards,
            limit or 0,
        )
        if found is None:
            raise SolveLimit(f"the solve did not finish within its limit ({limit:,} positions searched)")
        value, by_card, nodes = found
        return Solved("tricks", seat, value, {DECK[c]: v for c, v in by_card}, nodes)
    return _tricks_general(position, cards, limit, engine)


def _tricks_general(position: Position, cards: bool, limit: int | None, engine: str) -> Solved:
    """The tricks objective through the general search (any seats, any follow rule)."""
    from phatlog.solver.position import Node, legal
    from phatlog.solver.search import ALL, searcher, value_after

    seat = position.to_play
    seats = position.seats
    if seats == 4:
        sides = tuple(0 if side_of(s) == side_of(seat) else 1 for s in range(seats))
    else:
        sides = tuple(0 if s == seat else 1 for s in range(seats))
    tables = trick_tables(seats, None if position.trump is None else int(position.trump), position.follow, sides)
    node = Node(tuple(_mask(h) for h in position.hands), tuple(int(c) for c in position.played), position.leader, 0, 0)
    left = len(position.hands[seat])
    search = searcher(tables, engine, ALL, limit)
    try:
        v = search.value(node) if left else 0
        by_card: dict[Card, int] = {}
        if cards and left:
            bits = legal(node.hands[seat], node.trick, tables)
            while bits:
                low = bits & -bits
                c = low.bit_length() - 1
                bits ^= low
                by_card[DECK[c]] = (left + value_after(search, tables, node, c)) // 2
    except SearchBudget as stopped:
        raise SolveLimit(f"the solve did not finish within its limit ({limit:,} positions searched)") from stopped
    return Solved("tricks", seat, (left + v) // 2, by_card, search.nodes)


def _points(state: State, cards: bool, limit: int | None, engine: str) -> Solved:
    from phatlog.solver import values

    seat = state.current_seat
    assert seat is not None
    if limit is not None:
        raise ValueError("a limit is for the tricks objective (the points search takes none yet)")
    if cards:
        s = values.solve(state, engine=engine)
        return Solved("points", seat, s.value, s.cards, s.nodes)
    v = values.value(state, engine=engine)
    return Solved("points", seat, v, {}, 0)
