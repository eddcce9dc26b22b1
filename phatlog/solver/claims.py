"""The claim audit (issue 11): was a claim sound, with every hand known?

A claim is about tricks, in every game: the claimer's side (Oh Hell: the claimer alone) says it takes
``claimed`` of the tricks still to be played (the trick in progress included). The audit solves the rest
of the deal exactly, double dummy, for a tricks objective: every trick is worth 1 to the side that takes
it and nothing else counts (no counters, no end-of-deal awards), so the value of a position is the
claimer's side's tricks less the other side's from here. The search is the solver's own
(:mod:`phatlog.solver.search`, the C kernel where built) over tables built from the engine's rules
(``tricks.STRENGTH`` and ``tricks.may_play``), as every other analysis: no rule is copied here.

- ``least``: the tricks the claimer's side can make sure of against any defence (its best play against
  the defence's best). The claim was **sound** when ``least >= claimed``.
- An unsound claim comes with a **line** of play that defeats it: the principal variation of that search,
  each defender playing a card that keeps the claimer's side lowest and the claimer's side its best,
  up to the trick that takes the defence past what the claim left it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, DECK
from phatlog.rules.table import side_of
from phatlog.rules.trick import FollowRule
from phatlog.solver.position import Node, Tables, legal, mask
from phatlog.solver.problem import Position, kernel_fits, solve, trick_tables
from phatlog.solver.search import (
    ALL,
    Search,
    SearchBudget,
    holds_table,
    moves,
    order_score,
    resolve_trick,
    searcher,
    value_after,
)

__all__ = ["ClaimAudit", "LinePlay", "solve_claim", "solve_claim_before_lead", "trick_tables"]


@dataclass(frozen=True, slots=True)
class LinePlay:
    """One card of a line of play: the trick (from 1, as the summaries number them), its seat, its card
    (text, as the record writes it), and the trick's winner once it is complete (else None)."""

    trick: int
    seat: int
    card: str
    winner: int | None


#: The most positions a claim's audit searches for its verdict, in C (about five seconds, at some ten
#: million a second) and in Python (the same time, at some thirty thousand): a claim made very early in
#: a 52-card deal can cost far more, and ``verify`` must not stall on one record. Past it the claim is left
#: unchecked (PL318), saying so. Claims with ten tricks left take a few million (docs/analysis.md). A
#: record's and a run's claims together have budgets too (``phatlog.referee.claim_budget``).
AUDIT_NODES: int = 50_000_000
AUDIT_NODES_PYTHON: int = 150_000


def audit_budget(engine: str = "auto") -> int:
    """The audit's budget for the search ``engine`` picks (:func:`~phatlog.solver.search.searcher`)."""
    from phatlog.solver.search import c_available

    return AUDIT_NODES if engine in ("c", "points") or (engine == "auto" and c_available()) else AUDIT_NODES_PYTHON


@dataclass(frozen=True, slots=True)
class ClaimAudit:
    """A claim audited: ``claimed`` of the ``remaining`` tricks (the one in progress included) for the
    claimer's side; ``least`` the tricks that side can make sure of against any defence; ``line`` (an
    unsound claim only) a defence that holds it below the claim; ``nodes`` positions searched and
    ``seconds`` the time taken; ``trump`` the trump suit of that line (a suit index, or None)."""

    seat: int
    claimed: int
    remaining: int
    least: int
    line: tuple[LinePlay, ...]
    nodes: int
    seconds: float
    trump: int | None = None

    @property
    def sound(self) -> bool:
        """The claimer's side takes the claimed tricks against any defence."""
        return self.least >= self.claimed

    @property
    def underclaimed(self) -> bool:
        """The claim gives the claimer's side fewer tricks than it cannot fail to take."""
        return self.least > self.claimed


@holds_table
def solve_claim(
    hands: Sequence[Iterable[str]],
    trick: Sequence[str],
    leader: int,
    trump: int | None,
    follow: FollowRule,
    seat: int,
    claimed: int,
    played: int,
    partnerships: bool,
    engine: str = "auto",
    budget: int | None = None,
) -> ClaimAudit:
    """Audit ``seat``'s claim of ``claimed`` tricks from this position: ``hands`` what each seat still
    holds (card texts), ``trick`` the cards of the trick in progress (led by ``leader``; empty: ``leader``
    leads the next), ``trump`` a suit index or None, ``follow`` the follow rule, ``played`` the tricks
    finished before, ``partnerships`` whether seats 0 and 2, 1 and 3 are sides (the All Fours family)
    or every seat is its own (Oh Hell). ``budget``: the most positions the audit may search for its
    verdict (None: no bound; ``verify`` gives :data:`AUDIT_NODES`), past which it raises
    :class:`~phatlog.solver.search.SearchBudget`; the defeating line of an unsound claim has as many
    again, and is left out (empty) where they run out."""
    began = time.perf_counter()
    seats = len(hands)
    if partnerships:
        sides = tuple(0 if side_of(s) == side_of(seat) else 1 for s in range(seats))
    else:
        sides = tuple(0 if s == seat else 1 for s in range(seats))
    tables = trick_tables(seats, trump, follow, sides)
    node = Node(
        tuple(mask(CARD_BY_TEXT[c] for c in h) for h in hands),
        tuple(int(CARD_BY_TEXT[c]) for c in trick),
        leader,
        0,
        0,
    )
    remaining = (node.cards_left + len(node.trick)) // seats
    search = searcher(tables, engine, ALL, budget)
    kernel = _kernel_value(hands, trick, leader, trump, follow, seat, remaining, partnerships, engine, budget)
    if kernel is None:
        v = _value(search, node)
        spent = 0
    else:
        v, spent = kernel
    least = (remaining + v) // 2
    line: tuple[LinePlay, ...] = ()
    if least < claimed:
        if budget is not None:
            search.budget = search.nodes + budget  # as many again for the line
        try:
            line = _line(search, tables, node, v, played, remaining - claimed + 1)
        except SearchBudget:
            line = ()
    return ClaimAudit(seat, claimed, remaining, least, line, spent + search.nodes, time.perf_counter() - began, trump)


@holds_table
def solve_claim_before_lead(
    hands: Sequence[Iterable[str]],
    pitcher: int,
    follow: FollowRule,
    seat: int,
    claimed: int,
    engine: str = "auto",
    budget: int | None = None,
) -> ClaimAudit:
    """Audit ``seat``'s claim of ``claimed`` tricks made before the first card of an All Fours deal, where
    the suit of the pitcher's first lead will be trump: the claim is solved after each card the
    ``pitcher`` may lead. Where the pitcher is on the claimer's side the pitcher chooses, so the side can
    make sure of the best of those leads; where the pitcher defends, only of the worst. The line of an
    unsound claim begins with that lead (the claimer's best, or the defence's). ``budget`` bounds the
    positions searched over every lead together (:class:`~phatlog.solver.search.SearchBudget` past it)."""
    began = time.perf_counter()
    held = [sorted(h, key=lambda c: CARD_BY_TEXT[c]) for h in hands]
    ours = side_of(pitcher) == side_of(seat)
    remaining = (sum(len(h) for h in held)) // len(held)
    spent = 0
    chosen: tuple[int, str] | None = None  # (least, lead)
    for lead in held[pitcher]:
        if chosen is not None and chosen[0] == (remaining if ours else 0):
            break  # no other lead can do better for the side that chooses it
        rest = [h if s != pitcher else [c for c in h if c != lead] for s, h in enumerate(held)]
        left = None if budget is None else budget - spent
        if left is not None and left <= 0:
            raise SearchBudget(f"the audit's budget of {budget:,} positions is spent")
        found = solve_claim(rest, [lead], pitcher, CARD_BY_TEXT[lead].suit, follow, seat, 0, 0, True, engine, left)
        spent += found.nodes
        if chosen is None or (found.least > chosen[0] if ours else found.least < chosen[0]):
            chosen = (found.least, lead)
    if chosen is None:  # the pitcher holds nothing: nothing to lead, nothing to audit
        raise ValueError("the pitcher holds no card to lead")
    least, lead = chosen
    trump = CARD_BY_TEXT[lead].suit
    line: tuple[LinePlay, ...] = ()
    if least < claimed:  # the line from the lead that decides it, with as many positions again
        rest = [h if s != pitcher else [c for c in h if c != lead] for s, h in enumerate(held)]
        try:
            line = solve_claim(rest, [lead], pitcher, trump, follow, seat, claimed, 0, True, engine, budget).line
        except SearchBudget:
            line = ()
    return ClaimAudit(seat, claimed, remaining, least, line, spent, time.perf_counter() - began, int(trump))


def _kernel_value(
    hands: Sequence[Iterable[str]],
    trick: Sequence[str],
    leader: int,
    trump: int | None,
    follow: FollowRule,
    seat: int,
    remaining: int,
    partnerships: bool,
    engine: str,
    budget: int | None,
) -> tuple[int, int] | None:
    """The claimer's side's tricks less the other side's, and the nodes searched, by the public solver's
    tricks objective (:func:`phatlog.solver.problem.solve`) where its C kernel answers the position (four
    seats in partnerships, must follow suit); None elsewhere, or for a position play cannot reach (the
    general search then says what it says of it)."""
    from phatlog.rules.cards import Suit

    if not partnerships:
        return None
    held = tuple(frozenset(CARD_BY_TEXT[c] for c in h) for h in hands)
    position = Position(
        held, tuple(CARD_BY_TEXT[c] for c in trick), leader, None if trump is None else Suit(trump), follow
    )
    if not kernel_fits(position, engine):
        return None
    try:
        position.check()
    except ValueError:
        return None
    solved = solve(position, "tricks", cards=False, limit=budget, engine=engine)
    mine = solved.value if side_of(solved.seat) == side_of(seat) else remaining - solved.value
    return 2 * mine - remaining, solved.nodes


def _value(search: Search, node: Node) -> int:
    if node.cards_left == 0:
        return 0
    return search.value(node)


def _line(search: Search, tables: Tables, node: Node, v: int, played: int, defeat: int) -> tuple[LinePlay, ...]:
    """The principal variation from ``node`` (whose value is ``v``): each card keeps the value, so each
    defender's card keeps the claimer's side lowest and the claimer's side plays its best. A card is
    found by null-window tests in move order (cheap: the transposition table already holds the bounds).
    The line stops at the trick where the defence takes its ``defeat``-th trick (the one the claim did
    not leave it)."""
    hands = list(node.hands)
    trick = list(node.trick)
    leader = node.leader
    t = played + 1
    seats = tables.seats
    out = [LinePlay(t, (leader + i) % seats, CARD_TEXT[DECK[c]], None) for i, c in enumerate(trick)]
    theirs = 0
    while theirs < defeat and any(hands):
        here = Node(tuple(hands), tuple(trick), leader, 0, 0)
        seat = here.to_play
        options = moves(here, tables, True) or _all(legal(hands[seat], here.trick, tables))
        options.sort(key=lambda c: -order_score(c, here, tables))
        if tables.side[seat] == 0:  # the claimer's side: a card that makes sure of ``v``
            card = next((c for c in options if value_after(search, tables, here, c, v - 1, v) >= v), options[-1])
        else:  # the defence: a card that holds the claimer's side to ``v``
            card = next((c for c in options if value_after(search, tables, here, c, v, v + 1) <= v), options[-1])
        hands[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) < seats:
            out.append(LinePlay(t, seat, CARD_TEXT[DECK[card]], None))
            continue
        winner, points, _, _ = resolve_trick(tables, trick, leader, 0, 0)
        out.append(LinePlay(t, seat, CARD_TEXT[DECK[card]], winner))
        v -= points  # the value of the rest, without this trick
        if tables.side[winner] == 1:
            theirs += 1
        trick, leader, t = [], winner, t + 1
    return tuple(out)


def _all(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def describe_line(line: Sequence[LinePlay], trump: int | None, names: Sequence[str]) -> str:
    """A line of play for people, trick by trick: "trick 11: Ann KH, Ben 3S (ruffs), Cal 2H, Dee 4C
    (discards), Ben wins"; cards as the record writes them, seats by name (``seat_name``)."""
    from phatlog.diagnostics import seat_name

    parts: list[str] = []
    words: list[str] = []
    led: str | None = None
    for p in line:
        if led is None:
            led = p.card[-1]
            words = [f"trick {p.trick}: {seat_name(p.seat, names)} leads {p.card}"]
        else:
            how = ""
            if p.card[-1] != led:
                how = " (ruffs)" if trump is not None and p.card[-1] == "CDHS"[trump] else " (discards)"
            words.append(f"{seat_name(p.seat, names)} {p.card}{how}")
        if p.winner is not None:
            words.append(f"{seat_name(p.winner, names)} wins")
            parts.append(", ".join(words))
            led = None
    if led is not None:
        parts.append(", ".join(words))
    return "; ".join(parts)
