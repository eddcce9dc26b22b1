"""The fast solver: alpha-beta over :class:`~phatlog.solver.position.Node`, in Python or in C.

Techniques (each can be switched off, for the benchmark's table of what each one is worth):

- alpha-beta, fail-soft, the value being side 0's points less side 1's from here to the end of the deal;
- a transposition table at the start of each trick, keyed by the hands, the leader, side 0's count and
  leaf bits, holding a lower and an upper bound and the best lead;
- relative ranks in that key: valueless cards keyed by their place among the cards still out (suit by
  suit, runs of them closed up onto the lowest valueless ranks above the valued card below), and a count
  whose every reachable value ends the deal the same keyed as the first of its run (see
  :func:`relative_key`);
- touching cards: of the cards a player may play, one that is next in rank (among the cards still in
  play, the trick's included) to another of the same suit in the same hand, and that pegs, counts and
  flags the same, is the same move, so only the lowest of such a run is searched;
- move ordering: the transposition table's lead first; then to a trick the partner is winning, the
  highest counters; otherwise the cheapest card that wins, and last the cheapest discard;
- bounds: at the start of a trick, the value lies between the leaf's least and most over what the cards
  still out can reach, less and plus every counter still out; a window outside that is cut at once. The
  sure cards are the exception: the top trumps still out held by one side, down to the other side's
  first, win their tricks for that side whatever is played, so their counters, card points and leaf
  bits are that side's (see :func:`bounds`);
- ranges of counts, where the leaf never falls as side 0's count rises (Phat's muck, Nine-card Don's
  game; not Irish Don, which has no count, nor Oh Hell's exact bid): a lower bound found at one count
  then holds at every greater one and an upper bound at every smaller one. Each search reports how far
  its bound reaches the other way (``_dn``, ``_up``: from the leaves' runs of equal values, through every
  bound it was built of), the key leaves the count out, and an entry keeps its lower bound with the
  least count it holds from and its upper bound with the greatest. A decided position (every reachable
  count ends the deal the same) is keyed by its run, and card points are no value in it: cards that only
  carried them close up in its key and are touching cards;
- the counters' game, where the deal has counters and an end-of-deal award that depends on the play
  (Phat, Nine-card Don): the value lies within that of the same deal without the awards plus the least
  and the most award the cards still out can reach, so at a trick's start of ``split_from`` cards or more
  that game (searched by its own searcher, with null windows) cuts the window where it can;
- the last trick (one card a hand) is played out at once, without a search;
- MTD(f): a full-window value is found by a series of null-window searches (each a yes-or-no question
  that cuts far more), converging on the value through the transposition table's bounds.
- iterative deepening (C kernel, positions of more than 41 cards: a 52-card deal's first tricks): MTD(f)
  first runs on searches that stop at a horizon (11, 9, then 7 cards a hand) and estimate the rest; they
  leave best leads in the table and give the exact MTD(f) its first guess (see :func:`deepened`).

``phatlog._native._solve`` (C, built where a compiler is at hand) runs the same search with the same
order; :class:`PySearch` is the fallback and the reference for it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial, wraps
from typing import Any, ParamSpec, Protocol, TypeVar

from phatlog._native import pure_python
from phatlog.solver.position import NO_TRUMP, SUIT_MASK, Node, Tables, legal

INF = 1 << 20

P = ParamSpec("P")
R = TypeVar("R")

_c_solve: Any
try:  # the optional C kernel (PHATLOG_PURE_PYTHON=1 leaves it out, as the engine's)
    from phatlog._native import _solve as _c_solve
except ImportError:  # pragma: no cover - depends on the build
    _c_solve = None
if pure_python():
    _c_solve = None


_holding = 0  # how many ``held_table`` spans are open


@contextmanager
def held_table() -> Iterator[None]:
    """Keep the compiled search's transposition table between the solves inside (one record's analysis,
    one claim's audit, a bot's game: each solve finds what the last one stored), and give its memory back
    when the outermost span ends (``_solve.clear``). Every public solve holds the table for its own span,
    so a long-lived process (a notebook, a cluster worker) keeps nothing between its solves."""
    global _holding
    _holding += 1
    try:
        yield
    finally:
        _holding -= 1
        if _holding == 0 and _c_solve is not None:
            _c_solve.clear()


def holds_table(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` runs inside :func:`held_table`."""

    @wraps(fn)
    def held(*args: P.args, **kwargs: P.kwargs) -> R:
        with held_table():
            return fn(*args, **kwargs)

    return held


def c_available() -> bool:
    """Whether the C kernel was built."""
    return _c_solve is not None


@dataclass(frozen=True, slots=True)
class Techniques:
    """Which techniques the search uses (all by default)."""

    tt: bool = True
    equivalence: bool = True
    ordering: bool = True
    bounds: bool = True
    mtdf: bool = True
    relative: bool = True
    deepening: bool = True
    counts: bool = True
    split: bool = True
    #: The counters' game is searched at a trick's start with this many cards in play or more (1 to 63).
    split_from: int = 12

    def __post_init__(self) -> None:
        if not 1 <= self.split_from <= 63:  # the kernel's six bits
            raise ValueError(f"split_from is 1 to 63 cards, not {self.split_from}")

    @property
    def bits(self) -> int:
        """The kernel's switches (MTD(f) is the driver's, not the kernel's)."""
        return (
            (1 if self.tt else 0)
            | (2 if self.equivalence else 0)
            | (4 if self.ordering else 0)
            | (8 if self.bounds else 0)
            | (16 if self.relative else 0)
            | (32 if self.counts else 0)
            | (64 if self.split else 0)
            | (self.split_from & 0x3F) << 8
        )


ALL = Techniques()


class Search(Protocol):
    """A searcher bound to one :class:`Tables`."""

    nodes: int
    budget: int | None  # the most nodes in all (None: no bound); past it, ``SearchBudget``

    def value(self, node: Node, alpha: int = -INF, beta: int = INF) -> int: ...


def moves(node: Node, tables: Tables, equivalence: bool, counts: bool = False) -> list[int]:
    """The distinct moves of the player to act: legal cards, one of each run of touching cards (with
    ``counts``, in a decided position card points do not tell them apart: the module's "ranges of
    counts")."""
    seat = node.to_play
    hand = node.hands[seat]
    allowed = legal(hand, node.trick, tables)
    out = []
    if not equivalence:
        bits = allowed
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out
    live = 0
    for h in node.hands:
        live |= h
    for c in node.trick:
        live |= 1 << c
    points_matter = not (counts and _decided(tables, node.g, live))
    bits = allowed
    while bits:
        low = bits & -bits
        c = low.bit_length() - 1
        bits ^= low
        below = live & (low - 1) & SUIT_MASK[c // 13]
        if below:
            p = below.bit_length() - 1
            if (
                (allowed >> p) & 1
                and tables.counter[p] == tables.counter[c]
                and (not points_matter or tables.gpts[p] == tables.gpts[c])
                and tables.flag[p] == tables.flag[c]
            ):
                continue
        out.append(c)
    return out


def order_score(c: int, node: Node, tables: Tables) -> int:
    """The move ordering's score of a card (higher is tried first); the C kernel scores the same way."""
    trick = node.trick
    rank = c % 13
    if wants_tricks(tables, node.g):
        if not trick:
            return lead_score(c, node, tables)
    elif not trick:
        return -rank  # a side that wants no tricks leads low
    led = trick[0] // 13
    row = tables.strength
    best, win_pos = winning_so_far(tables, trick)
    seats = tables.seats
    seat = node.to_play
    winner_seat = (node.leader + win_pos) % seats
    mine = tables.side[winner_seat] == tables.side[seat]
    value = tables.counter[c] + tables.gpts[c]
    strength = row[led * 52 + c]
    wins = strength > best
    if not wants_tricks(tables, node.g):
        return -rank  # a side that wants no tricks plays low
    top, partner = strongest_to_come(node, tables)
    if mine and top > best:
        # ours so far, but the other side can still take it: a card it cannot beat, else low
        return 2000 - (strength - top) * 4 + value if strength > top else -(value * 16) - rank
    if mine:
        return 1000 + value * 16 - (512 if wins else 0) + rank
    if partner > max(best, top, strength):
        return 1000 + value * 16 + rank  # a partner to come can take the trick: a counter for it
    if wins:
        # the cheapest card that wins, first one the other side cannot beat after it
        return (2000 if strength > top else 1500) - (strength - best) * 4 + value
    return -(value * 16) - rank


def lead_score(lead: int, node: Node, tables: Tables) -> int:
    """The move ordering of a lead by a side that wants tricks. First a lead the other side cannot beat
    (none of its players may play a stronger card to it): the trick is the side's, so its counters
    first, then high. Then one a partner can win (may play a card stronger than any the other side may):
    a counter for the partner's trick first, then low. Then the rest, which the other side may take: no
    counter first, then high. Measured: a quarter fewer nodes in Phat and Irish Don than by rank alone
    (docs/performance.md, "What makes the solver fast")."""
    row = tables.strength
    base = lead // 13 * 52
    seat = node.to_play
    side = tables.side[seat]
    over = partner = -1  # the strongest card the other side, a partner, may play to the lead's suit
    for s, hand in enumerate(node.hands):
        if s == seat:
            continue
        top = _strongest(row, base, legal(hand, (lead,), tables))
        if tables.side[s] != side:
            over = max(over, top)
        else:
            partner = max(partner, top)
    value = tables.counter[lead] + tables.gpts[lead]
    rank = lead % 13
    if row[base + lead] > over:
        return 400 + value * 4 + rank
    if partner > over:
        return 200 + value * 4 - rank
    return -value * 4 + rank


def strongest_to_come(node: Node, tables: Tables) -> tuple[int, int]:
    """The strength (for the suit led) of the strongest card the other side, and the player's own side,
    may still play to the trick after the player to act, -1 where none (move ordering: a trick won so far
    is not yet won, and one lost so far not yet lost)."""
    trick = node.trick
    led = trick[0] // 13
    seats = tables.seats
    side = tables.side[node.to_play]
    top = [-1, -1]  # the other side's, the own side's
    for k in range(len(trick) + 1, seats):
        s = (node.leader + k) % seats
        which = 1 if tables.side[s] == side else 0
        top[which] = max(top[which], _strongest(tables.strength, led * 52, legal(node.hands[s], trick, tables)))
    return top[0], top[1]


def _strongest(row: Sequence[int], base: int, cards: int) -> int:
    """The strength (``row[base + card]``, a strength table's row for the suit led) of the strongest of
    ``cards``, -1 where there are none (the kernel's ``strongest``)."""
    top = -1
    while cards:
        low = cards & -cards
        top = max(top, row[base + low.bit_length() - 1])
        cards ^= low
    return top


def wants_tricks(tables: Tables, g: int) -> bool:
    """Whether taking a trick is good for side 0 (and so worth denying to it): always in the All Fours
    family; in Oh Hell while one more trick raises the seat's leaf, or with positive ``trick_points``."""
    if tables.trick_points:
        return tables.trick_points > 0
    if tables.trick_g:
        gmax = len(tables.leaf) // 4 - 1
        return tables.leaf[min(g + 1, gmax) * 4] > tables.leaf[g * 4]
    return True


class SearchBudget(Exception):
    """A search stopped at its ``budget`` of nodes (positions searched) without a value."""


@dataclass
class PySearch:
    """The fast solver in Python (the C kernel's fallback)."""

    tables: Tables
    techniques: Techniques = ALL
    nodes: int = 0
    tt: dict[tuple[Any, ...], tuple[int, int, int, int, int]] = field(default_factory=dict)
    #: The most nodes this searcher may search in all (None: no bound); past it, ``SearchBudget``.
    budget: int | None = None
    _dn: int = 0  # how far the last search's bounds reach (the module's "ranges of counts")
    _up: int = 0
    _sub: PySearch | None = None  # the counters' game's searcher (the module's "the counters' game")

    def value(self, node: Node, alpha: int = -INF, beta: int = INF) -> int:
        """Side 0's gain over side 1 from ``node`` to the end of the deal (exact if it lies strictly inside
        (alpha, beta); else a bound on the right side of the window)."""
        if self.techniques.mtdf and self.techniques.tt and alpha <= -INF and beta >= INF:
            return mtdf(
                lambda a, b: self._search(list(node.hands), list(node.trick), node.leader, node.g, node.flags, a, b)
            )
        return self._search(list(node.hands), list(node.trick), node.leader, node.g, node.flags, alpha, beta)

    def _search(
        self, hands: list[int], trick: list[int], leader: int, g: int, flags: int, alpha: int, beta: int
    ) -> int:
        """The value (see :meth:`value`); ``_dn`` and ``_up`` then say how far its bounds reach (see the
        module's "ranges of counts")."""
        self.nodes += 1
        self._dn = self._up = 0
        if self.budget is not None and self.nodes > self.budget:
            raise SearchBudget(f"stopped after {self.budget:,} positions")
        t = self.tables
        seats = t.seats
        rel = _relative_of(t)
        counts = self.techniques.counts and rel.monotone
        key: tuple[Any, ...] | None = None
        tt_best = -1
        live = canon = gk = 0
        raised = lowered = False
        tt_dn = tt_up = lmin = lmax = 0
        alpha0, beta0 = alpha, beta
        if not trick:
            if not hands[leader]:
                self._leaf_range(rel, g, flags)
                return t.leaf[g * 4 + flags]
            if hands[leader].bit_count() == 1:  # the last trick: no choice left, played out at once
                last = [hands[(leader + i) % seats].bit_length() - 1 for i in range(seats)]
                _, points, g2, f2 = resolve_trick(t, last, leader, g, flags)
                self._leaf_range(rel, g2, f2)
                return points + t.leaf[g2 * 4 + f2]
            if self.techniques.bounds:
                lo_b, hi_b, dn_b, up_b, lmin, lmax = _bounds(t, hands, g, flags, leader)
                if hi_b <= alpha:
                    self._up = up_b if counts else 0
                    return hi_b
                if lo_b >= beta:
                    self._dn = dn_b if counts else 0
                    return lo_b
            if self.techniques.tt:
                keyed, live, canon, gk = _relative_key(t, hands, g, counts, self.techniques.relative)
                key = (*keyed, gk, leader, flags)
                entry = self.tt.get(key)
                if entry is not None:
                    lo, gl, hi, gu, tt_best = entry
                    if tt_best >= 0 and canon != live:  # the best lead was stored by its place in the key
                        tt_best = _carry(1 << tt_best, canon, live).bit_length() - 1
                    lo_ok = hi_ok = True
                    dn = up = 0
                    if counts and gk >= 0:  # decided: the same value at each count of its run
                        dn, up = g - gk, rel.run_end[g] - g - _reach(t, live)
                    elif counts:  # by monotony a lower bound holds from its count up, an upper one down
                        lo_ok, hi_ok, dn, up = g >= gl, g <= gu, g - gl, gu - g
                    if lo_ok and lo >= beta:
                        self._dn = dn
                        return lo
                    if hi_ok and hi <= alpha:
                        self._up = up
                        return hi
                    if lo_ok and hi_ok and lo == hi:
                        self._dn, self._up = dn, up
                        return lo
                    if lo_ok and lo > alpha:
                        alpha, raised, tt_dn = lo, True, dn
                    if hi_ok and hi < beta:
                        beta, lowered, tt_up = hi, True, up
            if (
                self.techniques.split
                and self.techniques.bounds
                and rel.split_ok
                and sum(h.bit_count() for h in hands) >= self.techniques.split_from
            ):
                cut = self._split(hands, leader, alpha0, beta0, lmin, lmax)
                if cut is not None:
                    self._dn = dn_b if cut >= beta0 and counts else 0
                    self._up = up_b if cut <= alpha0 and counts else 0
                    return cut
        seat = (leader + len(trick)) % seats
        node = Node(tuple(hands), tuple(trick), leader, g, flags)
        cards = moves(node, t, self.techniques.equivalence, counts)
        if self.techniques.ordering:
            cards.sort(key=lambda c: -order_score(c, node, t))
            if tt_best in cards:
                cards.remove(tt_best)
                cards.insert(0, tt_best)
        maximise = t.side[seat] == 0
        best = -INF if maximise else INF
        best_card = -1
        # how far the bounds reach: the best card's own, and the least of every card's the other way
        best_reach, all_reach = 0, INF
        a, b = alpha, beta
        for c in cards:
            hands[seat] &= ~(1 << c)
            trick.append(c)
            if len(trick) == seats:
                v = self._after_trick(hands, trick, leader, g, flags, a, b)
            else:
                v = self._search(hands, trick, leader, g, flags, a, b)
            trick.pop()
            hands[seat] |= 1 << c
            mine, other = (self._dn, self._up) if maximise else (self._up, self._dn)
            all_reach = min(all_reach, other)
            if maximise:
                if v > best:
                    best, best_card, best_reach = v, c, mine
                    a = max(a, v)
            elif v < best:
                best, best_card, best_reach = v, c, mine
                b = min(b, v)
            if a >= b:
                break
        # the bounds this result claims and how far each reaches (the C kernel's search says why)
        if maximise:
            self._dn = best_reach if best > alpha else (tt_dn if raised else 0)
            self._up = all_reach if best < beta else (tt_up if lowered else 0)
        else:
            self._up = best_reach if best < beta else (tt_up if lowered else 0)
            self._dn = all_reach if best > alpha else (tt_dn if raised else 0)
        if key is not None:
            lo, gl, hi, gu, _ = self.tt.get(key, (-INF, 0, INF, t.gmax, -1))
            if not counts or gk >= 0:  # the count is the key's, or decided: bounds of one value
                gl = gu = gk
                if best <= alpha:
                    hi = min(hi, best)
                elif best >= beta:
                    lo = max(lo, best)
                else:
                    lo = hi = best
            else:  # a bound found here replaces the entry's unless the entry's holds here and is no weaker
                if best > alpha:
                    ngl = max(0, g - self._dn)
                    if not (lo >= best and gl <= g):
                        lo, gl = best, ngl
                    elif lo == best:
                        gl = min(gl, ngl)
                if best < beta:
                    ngu = min(t.gmax, g + self._up)
                    if not (hi <= best and gu >= g):
                        hi, gu = best, ngu
                    elif hi == best:
                        gu = max(gu, ngu)
            if best_card >= 0 and canon != live:
                best_card = _carry(1 << best_card, live, canon).bit_length() - 1
            self.tt[key] = (lo, gl, hi, gu, best_card)
        return best

    def _split(self, hands: list[int], leader: int, alpha: int, beta: int, lmin: int, lmax: int) -> int | None:
        """The counters' game (the module's "the counters' game") cuts the window: a bound outside it, or
        None. ``lmin``, ``lmax``: the least and the most leaf the cards still out can reach."""
        sub = self._sub
        if sub is None:
            t = self.tables
            counters = replace(t, gpts=(0,) * 52, flag=(0,) * 52, trick_g=0, leaf=(0, 0, 0, 0))
            sub = self._sub = PySearch(counters, self.techniques)
        before = sub.nodes
        try:
            if beta < INF:  # the value reaches beta if the counters' game reaches beta - lmin
                c = sub._search(hands, [], leader, 0, 0, beta - lmin - 1, beta - lmin)
                if c >= beta - lmin:
                    return c + lmin
                if alpha > -INF and c + lmax <= alpha:
                    return c + lmax
            if alpha > -INF:  # it stays at alpha if that game stays at alpha - lmax
                c = sub._search(hands, [], leader, 0, 0, alpha - lmax, alpha - lmax + 1)
                if c <= alpha - lmax:
                    return c + lmax
            return None
        finally:
            self.nodes += sub.nodes - before
            if self.budget is not None and self.nodes > self.budget:
                raise SearchBudget(f"stopped after {self.budget:,} positions")

    def _leaf_range(self, rel: _Relative, g2: int, f: int) -> None:
        """The leaf at count ``g2`` and bits ``f`` holds as a lower bound down to its run's first count,
        as an upper bound up to its last (see the module's "ranges of counts")."""
        self._dn = g2 - rel.run_lo[g2 * 4 + f]
        self._up = rel.run_hi[g2 * 4 + f] - g2

    def _after_trick(
        self, hands: list[int], trick: list[int], leader: int, g: int, flags: int, alpha: int, beta: int
    ) -> int:
        winner, points, g2, f2 = resolve_trick(self.tables, trick, leader, g, flags)
        return points + self._search(hands, [], winner, g2, f2, alpha - points, beta - points)


@dataclass(frozen=True, slots=True)
class _Relative:
    """What :func:`relative_key` needs of a :class:`Tables`: the cards that keep their rank in the key,
    the cards with card points, and the run of counts with the same leaf row around each count."""

    fixed: int
    gpts_mask: int
    run_start: tuple[int, ...]
    run_end: tuple[int, ...]
    chain: tuple[int, ...] = ()  # the top chain (see bounds)
    canon: dict[tuple[int, int], int] = field(default_factory=dict, compare=False)
    #: Ranges of counts: the cards that keep their rank in a decided position's key (a counter or a leaf
    #: bit), the run of equal leaf values around each ``g * 4 + flags``, and whether the leaf never falls
    #: as the count rises (the ranges are used only then).
    fixed_d: int = 0
    run_lo: tuple[int, ...] = ()
    run_hi: tuple[int, ...] = ()
    monotone: bool = False
    canon_d: dict[tuple[int, int], int] = field(default_factory=dict, compare=False)
    #: Whether the counters' game can cut: an award that depends on the play, counters, no trick points.
    split_ok: bool = False
    #: Whether a player who holds the suit led must play it (the allow table).
    forced: bool = False


_relative: dict[Tables, _Relative] = {}


def _relative_of(t: Tables) -> _Relative:
    found = _relative.get(t)
    if found is not None:
        return found
    fixed = fixed_d = gpts_mask = 0
    for c in range(52):
        if t.counter[c] or t.gpts[c] or t.flag[c]:
            fixed |= 1 << c
        if t.counter[c] or t.flag[c]:
            fixed_d |= 1 << c
        if t.gpts[c]:
            gpts_mask |= 1 << c
    for s in range(4):
        for led in range(4):
            row = t.strength[led * 52 + s * 13 : led * 52 + s * 13 + 13]
            if len(set(row)) > 1 and any(row[r] <= row[r - 1] for r in range(1, 13)):
                fixed |= SUIT_MASK[s]  # not won by rank within the suit: no card of it closes up
                fixed_d |= SUIT_MASK[s]
    rows = [t.leaf[g * 4 : g * 4 + 4] for g in range(t.gmax + 1)]
    start = list(range(len(rows)))
    end = list(range(len(rows)))
    for g in range(1, len(rows)):
        if rows[g] == rows[g - 1]:
            start[g] = start[g - 1]
    for g in range(len(rows) - 2, -1, -1):
        if rows[g] == rows[g + 1]:
            end[g] = end[g + 1]
    gmax = t.gmax
    run_lo = [0] * len(t.leaf)
    run_hi = [0] * len(t.leaf)
    for f in range(4):
        for g in range(gmax + 1):
            same = g > 0 and t.leaf[g * 4 + f] == t.leaf[(g - 1) * 4 + f]
            run_lo[g * 4 + f] = run_lo[(g - 1) * 4 + f] if same else g
        for g in range(gmax, -1, -1):
            same = g < gmax and t.leaf[g * 4 + f] == t.leaf[(g + 1) * 4 + f]
            run_hi[g * 4 + f] = run_hi[(g + 1) * 4 + f] if same else g
    rising = (t.leaf[g * 4 + f] >= t.leaf[(g - 1) * 4 + f] for f in range(4) for g in range(1, gmax + 1))
    monotone = gmax > 0 and all(rising)
    found = _Relative(
        fixed,
        gpts_mask,
        tuple(start),
        tuple(end),
        _chain(t),
        fixed_d=fixed_d,
        run_lo=tuple(run_lo),
        run_hi=tuple(run_hi),
        monotone=monotone,
        split_ok=any(t.counter) and min(t.leaf) < max(t.leaf) and not t.trick_points,
        forced=_follow_forced(t),
    )
    if len(_relative) > 64:
        _relative.clear()
    _relative[t] = found
    return found


def _follow_forced(t: Tables) -> bool:
    """Whether the allow table makes a player who holds the suit led play it, whatever suit is led."""
    for led in range(4):
        for kind in range(8):
            # a hand that holds the suit led (kind's bit 2), led a trump or not as kind's bit 4 says
            if not kind & 2 or bool(kind & 4) != (led == t.trump):
                continue
            bits = t.allow[kind]
            others = (bits & 4) or (bits & 2 and t.trump != NO_TRUMP and t.trump != led)
            if others:
                return False
    return True


def _canon_suit(rel: _Relative, suit: int, live: int, decided: bool = False) -> int:
    """Where the live cards of one suit (13 bits) go in the key: valued cards stay, each run of valueless
    ones moves down to the lowest valueless ranks above the valued card below it (``decided``: card
    points are not a value, see the module's "ranges of counts")."""
    cache = rel.canon_d if decided else rel.canon
    found = cache.get((suit, live))
    if found is not None:
        return found
    fixed = ((rel.fixed_d if decided else rel.fixed) >> (13 * suit)) & 0x1FFF
    out = nxt = 0
    for r in range(13):
        if not (live >> r) & 1:
            continue
        if (fixed >> r) & 1:
            out |= 1 << r
            nxt = r + 1
        else:
            while (fixed >> nxt) & 1:
                nxt += 1
            out |= 1 << nxt
            nxt += 1
    cache[(suit, live)] = out
    return out


def _carry(x: int, src: int, dst: int) -> int:
    """The bits of ``x`` within ``src`` carried, in order, to the bits of ``dst`` (as many)."""
    out = 0
    while src:
        low_s = src & -src
        low_d = dst & -dst
        if x & low_s:
            out |= low_d
        src ^= low_s
        dst ^= low_d
    return out


def relative_key(t: Tables, hands: list[int], g: int) -> tuple[int, ...]:
    """The transposition table's key of a position at the start of a trick (the module's "relative
    ranks"), without ranges of counts: the hands with the valueless cards closed up suit by suit, and the
    count ``g``, or the first count of its run where every count the cards still out can reach has the
    same leaf row."""
    keyed, _, _, gk = _relative_key(t, hands, g, False, True)
    return (*keyed, gk)


def _reach(t: Tables, live: int) -> int:
    """What the cards ``live`` can still add to side 0's count."""
    rel = _relative_of(t)
    reach = t.trick_g * (live.bit_count() // t.seats)
    bits = live & rel.gpts_mask
    while bits:
        low = bits & -bits
        reach += t.gpts[low.bit_length() - 1]
        bits ^= low
    return reach


def _decided(t: Tables, g: int, live: int) -> bool:
    """Whether every count the cards ``live`` can still bring side 0 ends the deal as count ``g`` does."""
    return g + _reach(t, live) <= _relative_of(t).run_end[g]


def _relative_key(
    t: Tables, hands: list[int], g: int, counts: bool, relative: bool
) -> tuple[tuple[int, ...], int, int, int]:
    """The hands' part of the key (closed up with ``relative``), the cards still out, where they go in
    the key, and the count's part: with ``counts`` (the module's "ranges of counts") -1, or the run a
    decided position is decided in; else the count, or the first of its run once decided."""
    rel = _relative_of(t)
    live = 0
    for h in hands:
        live |= h
    decided = _decided(t, g, live)
    gk = (rel.run_start[g] if decided else -1) if counts else (rel.run_start[g] if decided else g)
    if not relative:
        return tuple(hands), live, live, gk if counts else g
    closing = counts and decided
    canon = 0
    for s in range(4):
        canon |= _canon_suit(rel, s, (live >> (13 * s)) & 0x1FFF, closing) << (13 * s)
    keyed = tuple(hands) if canon == live else tuple(_carry(h, live, canon) for h in hands)
    return keyed, live, canon, gk


def _chain(t: Tables) -> tuple[int, ...]:
    """The top chain: cards, highest first, each stronger than every card below it in the chain and every
    card not in it, whatever suit is led (the trumps from the top, where trumps beat every other card)."""
    rest = list(range(52))
    chain: list[int] = []
    while True:
        top = next(
            (
                c
                for c in rest
                if all(t.strength[led * 52 + c] > t.strength[led * 52 + o] for o in rest if o != c for led in range(4))
            ),
            None,
        )
        if top is None:
            return tuple(chain)
        chain.append(top)
        rest.remove(top)


def bounds(t: Tables, hands: list[int], g: int, flags: int) -> tuple[int, int]:
    """The least and the most the rest of the deal can be worth (see the module's "bounds")."""
    return _bounds(t, hands, g, flags)[:2]


def _bounds(t: Tables, hands: list[int], g: int, flags: int, leader: int = -1) -> tuple[int, int, int, int, int, int]:
    """:func:`bounds`; how far each reaches (the module's "ranges of counts"; where the leaf is monotone:
    the least holds for every count down to ``g - dn``, the most up to ``g + up``); and the least and the
    most leaf the cards still out can reach (the counters' game's cut). With the ``leader`` of the trick
    to come, where tricks count, the leader's side takes at least the leader's cashed tricks."""
    rel = _relative_of(t)
    live = 0
    for h in hands:
        live |= h
    # The sure cards: the top of the chain still out, held by one side down to the first card of the
    # other side, cannot lose a trick to the other side (whatever beats one is a higher one of the run).
    # Where tricks count, so are the tricks they fall in: one hand's cards fall in tricks of their own.
    sure = sure_g = sure_f = lost = 0
    who = -1
    held: dict[int, int] = {}  # the run's cards by the seat that holds them
    for c in rel.chain:
        bit = 1 << c
        if not live & bit:
            continue
        seat = next(s for s, h in enumerate(hands) if h & bit)
        sd = 1 if t.side[seat] else 0
        if who < 0:
            who = sd
        elif sd != who:
            break
        held[seat] = held.get(seat, 0) + 1
        if sd == 0:
            sure += t.counter[c]
            sure_g += t.gpts[c]
            sure_f |= t.flag[c]
        else:
            sure -= t.counter[c]
            lost |= bit
    taken = max(held.values(), default=0) if t.trick_g or t.trick_points else 0
    k0, k1 = (taken, 0) if who == 0 else (0, taken)  # tricks each side cannot help taking
    can = [k0, k1]  # tricks each side can make sure of taking if it will
    if leader >= 0 and (t.trick_g or t.trick_points):
        # the leader's cards that, led, are stronger than every card the others hold: each wins its trick
        # and keeps the lead (the others' cards only go)
        others = live & ~hands[leader]
        cash = 0
        for led in range(4):
            row = t.strength[led * 52 : led * 52 + 52]
            strongest = max((row[d] for d in range(52) if others >> d & 1 and row[d] > 0), default=0)
            top = sum(1 for c in range(led * 13, led * 13 + 13) if hands[leader] >> c & 1 and row[c] > strongest)
            # where every other hand must follow, once it has played the suit as often, the rest win too
            longest = max((h & SUIT_MASK[led]).bit_count() for s, h in enumerate(hands) if s != leader)
            if top and rel.forced and top >= longest:
                top = (hands[leader] & SUIT_MASK[led]).bit_count()
            cash += top
        mine = 1 if t.side[leader] else 0
        can[mine] = max(can[mine], cash)
    c0, c1 = can
    r = gr = fr = 0
    tricks = live.bit_count() // t.seats
    bits = live
    while bits:
        low = bits & -bits
        c = low.bit_length() - 1
        bits ^= low
        r += t.counter[c]
        if not lost & low:
            gr += t.gpts[c]
            fr |= t.flag[c]
    r -= abs(sure)
    tp = abs(t.trick_points)
    r += tp * tricks
    # Each sure trick moves a trick's points from one end of the range. The tricks a side cannot help
    # taking move it whatever they are worth to it; those it can take if it will, only where it wants them.
    raise_, lower = (2 * tp * c0, 2 * tp * c1) if t.trick_points > 0 else (2 * tp * k1, 2 * tp * k0)
    # the leaf: the count reaches at least side 0's sure points and tricks, at most all the rest but side
    # 1's sure tricks; the least over the counts side 0 can hold it to, the most over those side 1 can
    reach, reach_hi = g + gr + t.trick_g * (tricks - k1), g + gr + t.trick_g * (tricks - c1)
    gtop, gtop_hi = min(reach, t.gmax), min(reach_hi, t.gmax)
    low0, low_lo = g + sure_g + t.trick_g * k0, g + sure_g + t.trick_g * c0
    glow, glow_lo = min(low0, gtop), min(low_lo, gtop)
    glow = min(glow, gtop_hi)  # never lower (other tricks than side 1's cashed ones): no empty range
    need = flags | sure_f
    patterns = [f for f in range(4) if (f & need) == need and not f & ~(flags | fr)]
    values = [t.leaf[gg * 4 + f] for gg in range(glow, gtop + 1) for f in patterns]
    least = min(t.leaf[gg * 4 + f] for gg in range(glow_lo, gtop + 1) for f in patterns)
    most = max(t.leaf[gg * 4 + f] for gg in range(glow, gtop_hi + 1) for f in patterns)
    # monotone: the least is at glow_lo, the most at gtop_hi; each holds while its leaves keep their runs
    # (the most always, if the cards still out could take the count past gmax)
    dn = 0 if low_lo > gtop else min(glow_lo - rel.run_lo[glow_lo * 4 + f] for f in patterns)
    up = INF if reach_hi > t.gmax else min(rel.run_hi[gtop_hi * 4 + f] - gtop_hi for f in patterns)
    return least - r + sure + raise_, most + r + sure - lower, dn, up, min(values), max(values)


DEEPEN_CARDS = 41  # iterative deepening only where more cards than this are in play (a 52-card deal's first tricks)
HORIZONS = (11, 9, 7)  # the horizons of its estimates, in cards a hand (see deepened)
# How far above the estimates' value the exact MTD(f) of a choice among several cards starts (the solver's
# root before a 52-card deal's first lead). Above a card's value, a probe's search of it is cut the sooner
# the further above; a probe that fails leaves each card's upper bound, by which the probe that succeeds
# tries them (the likeliest first). Below, each probe that succeeds proves first, at that lower level,
# that every card tried before the one that reaches it falls short: proofs that serve no later probe. The
# estimates miss by about 14 points on average (docs/performance.md, "What makes the solver fast").
ROOT_ABOVE = 16


def _at_horizon(probe: Callable[[int, int, int], int], horizon: int, alpha: int, beta: int) -> int:
    return probe(alpha, beta, horizon)


def tricks_each(t: Tables) -> bool:
    """Whether each trick is worth the same to its taker and nothing else counts (Oh Hell's most tricks):
    iterative deepening's estimates are then no help (paired runs, Oh Hell 5 x 10, one seat's most tricks,
    20 deals: 12 % less time without them, 17 deals of 20 faster). Not the misère (each trick costing its
    taker, the fewest tricks), where they are kept: five players' fewest took as long either way on 5 x 9,
    and more deals passed the benchmark's cap without them on 5 x 10."""
    return t.trick_points > 0 and not any(t.counter) and not any(t.gpts) and len(set(t.leaf)) == 1


def deepened(probe: Callable[[int, int, int], int], cards: int, hand: int, above: int = 0) -> int:
    """The exact value by MTD(f) (``probe(alpha, beta, horizon)``; horizon 0 is the exact search), after
    iterative deepening where ``cards`` (in play) exceed DEEPEN_CARDS: MTD(f) first runs on estimates that
    stop at each of HORIZONS (cards a hand, below ``hand``, the most held now), each from the last one's
    value. They fill the transposition table's best leads (move ordering) and give the exact MTD(f) its
    first guess, ``above`` that value (for the player to act: see ROOT_ABOVE); the kernel keeps their
    bounds apart from the exact ones, so the value stays exact."""
    guess = 0
    if cards > DEEPEN_CARDS:
        for h in HORIZONS:
            if h < hand:
                guess = mtdf(partial(_at_horizon, probe, h), guess)
        guess += above
    return mtdf(lambda a, b: probe(a, b, 0), guess)


def mtdf(probe: Callable[[int, int], int], guess: int = 0) -> int:
    """The exact value by null-window probes ``probe(alpha, beta)``: Plaat's MTD(f), with steps that
    double while the probes fail the same way and bisection once the value is bracketed. Point values
    (not trick counts) move a few points a probe under plain MTD(f); a step that doubles needs fewer
    probes. Every probe's fail-soft answer is a true bound, so the result stays exact."""
    lower, upper = -INF, INF
    f = guess
    up = down = 1
    while lower < upper:
        if lower > -INF and upper < INF:
            beta = max(lower + 1, min(upper, (lower + upper + 1) // 2))
        else:
            beta = f + 1 if f == lower else f
        f = probe(beta - 1, beta)
        if f < beta:
            upper = f
            if lower == -INF:
                f = min(f, beta - down)
                down *= 2
        else:
            lower = f
            if upper == INF:
                f = max(f, beta + up)
                up *= 2
    return f


def winning_so_far(tables: Tables, trick: Sequence[int]) -> tuple[int, int]:
    """The strength of the card winning a trick so far (by the engine's strength table, for the suit led)
    and its place in the trick."""
    led = trick[0] // 13
    row = tables.strength
    best, pos = row[led * 52 + trick[0]], 0
    for i in range(1, len(trick)):
        v = row[led * 52 + trick[i]]
        if v > best:
            best, pos = v, i
    return best, pos


def resolve_trick(
    tables: Tables, trick: list[int] | tuple[int, ...], leader: int, g: int, flags: int
) -> tuple[int, int, int, int]:
    """A finished trick: its winner (by the engine's strength table), what it is worth to side 0 (the
    counters, + or -), and side 0's count and leaf bits after it."""
    pos = winning_so_far(tables, trick)[1]
    winner = (leader + pos) % tables.seats
    points = sum(tables.counter[c] for c in trick) + tables.trick_points
    if tables.side[winner] == 0:
        g2 = g + tables.trick_g + sum(tables.gpts[c] for c in trick)
        f2 = flags
        for c in trick:
            f2 |= tables.flag[c]
        return winner, points, g2, f2
    return winner, -points, g, flags


def value_after(search: Search, tables: Tables, node: Node, card: int, alpha: int = -INF, beta: int = INF) -> int:
    """The value (side 0's) once the player to act has played ``card`` (a bound outside the window)."""
    seat = node.to_play
    hands = list(node.hands)
    hands[seat] &= ~(1 << card)
    trick = (*node.trick, card)
    if len(trick) < tables.seats:
        return search.value(Node(tuple(hands), trick, node.leader, node.g, node.flags), alpha, beta)
    winner, points, g2, f2 = resolve_trick(tables, trick, node.leader, node.g, node.flags)
    if not hands[winner]:
        return points + tables.leaf[g2 * 4 + f2]
    full = alpha <= -INF and beta >= INF
    a, b = (-INF, INF) if full else (alpha - points, beta - points)
    return points + search.value(Node(tuple(hands), (), winner, g2, f2), a, b)


@dataclass
class CSearch:
    """The same search in the C kernel; the kernel keeps one transposition table, cleared whenever it is
    given other tables."""

    tables: Tables
    techniques: Techniques = ALL
    nodes: int = 0
    #: The most nodes this searcher may search in all (None: no bound); past it, ``SearchBudget``.
    budget: int | None = None

    def __post_init__(self) -> None:
        self._packed = _pack(self.tables)
        self._deepens = self.techniques.deepening and not tricks_each(self.tables)

    horizon: int = 0  # set by deepened (through the solver's root): 0 is the exact search

    def value(self, node: Node, alpha: int = -INF, beta: int = INF) -> int:
        if self.techniques.mtdf and self.techniques.tt and alpha <= -INF and beta >= INF:
            if self._deepens and self.horizon == 0:
                cards = sum(h.bit_count() for h in node.hands) + len(node.trick)
                hand = max(h.bit_count() for h in node.hands)
                return deepened(lambda a, b, h: self._probe(node, a, b, h), cards, hand)
            return mtdf(lambda a, b: self._probe(node, a, b, self.horizon))
        return self._probe(node, alpha, beta, self.horizon)

    def _probe(self, node: Node, alpha: int, beta: int, horizon: int = 0) -> int:
        assert _c_solve is not None
        found: tuple[int, int] | None = _c_solve.search(
            self._packed,
            node.hands,
            node.trick,
            node.leader,
            node.g,
            node.flags,
            alpha,
            beta,
            self.techniques.bits,
            horizon,
            _limit(self),
        )
        return _counted(self, found)  # None: the kernel forgot its table, as for an interrupt


@dataclass
class PointSearch:
    """The points kernel (``_solve.points``): the tricks kernel's target searches for the point objective,
    where the tables are four seats, must follow suit, the engine's trick strength (Phat and the Dons under
    their default follow rule, four-player Oh Hell without must_trump; see :func:`points_fit`). Its table is
    kept across calls until the solve's :func:`held_table` span ends. Same values as :class:`CSearch`, other nodes."""

    tables: Tables
    techniques: Techniques = ALL
    nodes: int = 0
    #: The most nodes this searcher may search in all (None: no bound); past it, ``SearchBudget``.
    budget: int | None = None
    horizon: int = 0  # unused: the kernel has no horizon (the root's deepening passes it over)

    def __post_init__(self) -> None:
        self._packed = _pack(self.tables)

    def value(self, node: Node, alpha: int = -INF, beta: int = INF) -> int:
        assert _c_solve is not None
        found: tuple[int, int] | None = _c_solve.points(
            self._packed, node.hands, node.trick, node.leader, node.g, node.flags, alpha, beta, _limit(self)
        )
        return _counted(self, found)


def _limit(search: CSearch | PointSearch) -> int:
    """The nodes a kernel call may search within the searcher's budget (0: no bound); SearchBudget where
    none is left."""
    if search.budget is None:
        return 0
    limit = search.budget - search.nodes
    if limit <= 0:
        raise SearchBudget(f"stopped after {search.budget:,} positions")
    return limit


def _counted(search: CSearch | PointSearch, found: tuple[int, int] | None) -> int:
    """A kernel call's value, its nodes counted; SearchBudget where it stopped at its limit (None)."""
    if found is None:
        search.nodes = search.budget or 0
        raise SearchBudget(f"stopped after {search.budget:,} positions")
    search.nodes += found[1]
    return found[0]


_fits: dict[Tables, bool] = {}


def points_fit(t: Tables) -> bool:
    """Whether the points kernel answers for these tables: four seats (two partnerships, or Oh Hell's one
    seat against three), every player bound to follow suit, the trick won as the engine's strength table
    says for a trump suit or none (the kernel's own rule: the highest trump, else the highest card of the
    suit led)."""
    fits = _fits.get(t)
    if fits is None:
        from phatlog.rules.trick import FollowRule
        from phatlog.solver.position import allow_table, strength_row

        fits = (
            t.seats == 4
            and t.allow == allow_table(FollowRule.MUST_FOLLOW, t.trump)
            and t.strength == strength_row(t.trump)
            and t.gmax < 255
        )
        if len(_fits) > 64:
            _fits.clear()
        _fits[t] = fits
    return fits


_packs: dict[Tables, bytes] = {}


def _pack(t: Tables) -> bytes:
    """The tables as one block of 32-bit integers, the layout ``_solve.c`` reads."""
    packed = _packs.get(t)
    if packed is None:
        values = [t.seats, t.trump, t.trick_g, len(t.leaf) // 4 - 1, t.trick_points]
        values += list(t.strength) + list(t.allow) + list(t.counter) + list(t.gpts) + list(t.flag)
        values += list(t.side) + [0] * (8 - t.seats) + list(t.leaf)
        packed = array("i", values).tobytes()
        if len(_packs) > 64:
            _packs.clear()
        _packs[t] = packed
    return packed


def searcher(tables: Tables, engine: str = "auto", techniques: Techniques = ALL, budget: int | None = None) -> Search:
    """A searcher for ``tables``: ``points`` (the points kernel, where :func:`points_fit`), ``c`` (the general
    kernel), ``python``, or ``auto`` (the points kernel where it fits and every technique is asked for, else
    the general kernel; Python where no C is built); ``budget``: the most nodes it may search in all, past
    which it raises :class:`SearchBudget` (None: no bound)."""
    if engine == "points" or (engine == "auto" and _c_solve is not None and techniques == ALL and points_fit(tables)):
        if _c_solve is None:
            raise RuntimeError("the C solver (phatlog._native._solve) is not built")
        if not points_fit(tables):
            raise ValueError("the points kernel is for four seats bound to follow suit")
        return PointSearch(tables, techniques, budget=budget)
    if engine == "c" or (engine == "auto" and _c_solve is not None):
        if _c_solve is None:
            raise RuntimeError("the C solver (phatlog._native._solve) is not built")
        return CSearch(tables, techniques, budget=budget)
    if engine not in ("auto", "python"):
        raise ValueError(f"the engine is auto, points, c or python, not {engine!r}")
    return PySearch(tables, techniques, budget=budget)
