"""Double-dummy values of a game's position: every hand known, every player playing best.

Phat, Nine-card Don and Irish Don: two partnerships, zero-sum. The value of a position is the points the
side to play gains over the other side from here to the end of the deal (the counters of the tricks still
to be played, then the end-of-deal awards by the record's rules: Phat's muck with ``muck_tie`` and the
carry brought in, Don's game and high, low and jack), with both sides playing best. Before the pitcher's
first lead the pitcher's choice of card also chooses trump. The peg-out (a game that ends in mid-deal at
the target) is not modelled: the deal is valued as played out.

Oh Hell: each player for themselves. For one seat, the others are assumed to play against it together
(the paranoid assumption). A seat's value is how close to its bid it can make sure to end: minus the
fewest tricks it can be held to missing by (0: it can force its bid exactly). :func:`trick_range` gives
the most and the fewest tricks the seat can make sure of taking.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import partial
from typing import Any

from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.pitch_state import PitchState
from phatlog.engine.state import Phase, State
from phatlog.rules.cards import CARD_TEXT, DECK, Card
from phatlog.rules.oh_hell import made
from phatlog.rules.table import side_of
from phatlog.solver.position import (
    NO_TRUMP,
    Node,
    Tables,
    mask,
    oh_hell_tables,
    pitch_node,
    pitch_tables,
)
from phatlog.solver.search import (
    ALL,
    INF,
    ROOT_ABOVE,
    CSearch,
    Search,
    Techniques,
    deepened,
    holds_table,
    moves,
    mtdf,
    order_score,
    searcher,
    value_after,
)

__all__ = ["Review", "Solution", "TrickRange", "review", "solve", "trick_range", "value"]


class CardValues:
    """What a solved choice says of its cards, from its ``value`` (the best the player's side can make
    sure of) and ``cards`` (the same after each legal card): shared by :class:`Solution` and
    ``problem.Solved``."""

    __slots__ = ()
    value: int
    cards: dict[Card, int]

    @property
    def best(self) -> list[Card]:
        """The cards that keep the value."""
        return [c for c, v in self.cards.items() if v == self.value]

    @property
    def mattered(self) -> bool:
        """True when the cards do not all come to the same (the choice mattered)."""
        return len(set(self.cards.values())) > 1

    def cost(self, card: Card | str) -> int:
        """What playing ``card`` gives away against best play (0 for a best card)."""
        return self.value - self.cards[Card.parse(card) if isinstance(card, str) else card]


@dataclass(frozen=True, slots=True)
class Solution(CardValues):
    """The player to act's choice, valued: ``value`` is the best the player's side can make sure of
    (All Fours: points over the other side to the end of the deal; Oh Hell: minus the least miss of its
    bid), ``cards`` the same after each legal card. ``nodes``: positions searched."""

    game: str
    seat: int
    value: int
    cards: dict[Card, int]
    nodes: int


@dataclass(frozen=True, slots=True)
class TrickRange:
    """Oh Hell, one seat against the rest: the most and the fewest tricks it can make sure of taking, and
    whether it can make sure of taking exactly ``bid`` (None while the seat has not bid)."""

    seat: int
    most: int
    fewest: int
    bid: int | None
    exact: bool | None


# ---------------------------------------------------------------------------- problems


@dataclass(frozen=True, slots=True)
class _Problem:
    """What to search for the player to act: the node and tables (``tables`` None before the pitcher's
    first lead, where ``by_trump`` gives them for each suit the lead may make trump)."""

    node: Node
    tables: Tables | None
    by_trump: tuple[Tables, ...] | None
    sign: int  # +1 when the player to act is on side 0


_cache: OrderedDict[tuple[Any, ...], Tables] = OrderedDict()


def _cached(key: tuple[Any, ...], make: Any) -> Tables:
    tables = _cache.get(key)
    if tables is None:
        tables = make()
        _cache[key] = tables
        if len(_cache) > 256:
            _cache.popitem(last=False)
    return tables


def _pitch_problem(state: PitchState) -> _Problem:
    dealt = [{CARD_TEXT[c] for c in h} for h in state._dealt]
    frozen = tuple(frozenset(h) for h in dealt)
    carry = state.carry
    pitcher = state.pitcher

    def tables_for(trump: int) -> Tables:
        key = ("pitch", id(state.rules_of), state.game, repr(state.rules), trump, frozen, carry, pitcher)
        return _cached(key, lambda: pitch_tables(state.rules_of, trump, dealt, carry, pitcher))

    seat = state.current_seat
    assert seat is not None
    sign = 1 if side_of(seat) == 0 else -1
    if state.trump is None:
        by_trump = tuple(tables_for(t) for t in range(4))
        node = pitch_node(state._held, state.trick, state.leader, [], by_trump[0])
        return _Problem(node, None, by_trump, sign)
    tables = tables_for(int(state.trump))
    node = pitch_node(state._held, state.trick, state.leader, state._captured[0], tables)
    return _Problem(node, tables, None, sign)


def _leaf(objective: str, size: int, bid: int | None) -> tuple[int, ...]:
    """Oh Hell's leaf table for one seat: what ending with t tricks is worth to it (4 entries for each t)."""
    values = []
    for t in range(size + 1):
        if objective == "most":
            v = t
        elif objective == "fewest":
            v = -t
        elif objective == "exact":
            assert bid is not None
            v = 1 if made(bid, t) else 0
        else:
            assert bid is not None
            v = -abs(t - bid)
        values += [v] * 4
    return tuple(values)


def _oh_hell_problem(state: OhHellState, seat: int, objective: str) -> _Problem:
    bid = state.bids[seat] if state.bids else None
    if objective in ("miss", "exact") and bid is None:
        raise ValueError(f"seat {seat} has not bid: no bid to make")
    size = state.hand_size()
    trump = NO_TRUMP if state.trump is None else int(state.trump)
    # The most and the fewest tricks are linear in the tricks taken: each trick is worth 1 (or -1) to
    # the side that takes it, and the count stays out of the positions (more of them are the same).
    linear = {"most": 1, "fewest": -1}.get(objective, 0)
    key = ("oh_hell", state.seats, trump, state.follow, seat, objective, size, bid)
    leaf = (0, 0, 0, 0) if linear else _leaf(objective, size, bid)
    tables = _cached(key, lambda: oh_hell_tables(state.seats, trump, state.follow, seat, leaf, linear))
    g = 0 if linear else state.taken[seat]
    node = Node(tuple(mask(h) for h in state._held), tuple(int(c) for c in state.trick), state.leader, g, 0)
    return _Problem(node, tables, None, 1 if state.current_seat == seat else -1)


def _problem(state: State, seat: int | None, objective: str) -> _Problem:
    if state.phase is not Phase.PLAY:
        raise ValueError(f"only a position in play can be solved; this game's phase is {state.phase.value}")
    if isinstance(state, PitchState):
        return _pitch_problem(state)
    if isinstance(state, OhHellState):
        current = state.current_seat
        assert current is not None
        return _oh_hell_problem(state, current if seat is None else seat, objective)
    raise TypeError(f"not a game state: {type(state).__name__}")


# ---------------------------------------------------------------------------- searching


_searchers: OrderedDict[tuple[Tables, str, Techniques], Search] = OrderedDict()


def _searcher(tables: Tables, engine: str, techniques: Techniques) -> Search:
    """One searcher per tables, kept while a deal is analysed (its transposition table goes on serving)."""
    key = (tables, engine, techniques)
    found = _searchers.get(key)
    if found is None:
        found = searcher(tables, engine, techniques)
        _searchers[key] = found
        if len(_searchers) > 8:
            _searchers.popitem(last=False)
    return found


def _card_values(problem: _Problem, engine: str, techniques: Techniques) -> tuple[dict[Card, int], int]:
    """Side 0's value after each legal card of the player to act, and the nodes searched."""
    node = problem.node
    seat = node.to_play
    out: dict[Card, int] = {}
    nodes = 0
    groups: list[tuple[Tables, int]] = []
    if problem.tables is not None:
        groups.append((problem.tables, -1))
    else:
        assert problem.by_trump is not None
        groups += [(problem.by_trump[t], t) for t in range(4)]
    from phatlog.solver.position import SUIT_MASK, legal

    for tables, suit in groups:
        allowed = legal(node.hands[seat], node.trick, tables)
        if suit >= 0:
            allowed &= SUIT_MASK[suit]
            if not allowed:
                continue
        search = _searcher(tables, engine, techniques)
        before = search.nodes
        reps = [c for c in moves(node, tables, techniques.equivalence) if (allowed >> c) & 1]
        rep_value = {c: value_after(search, tables, node, c) for c in reps}
        nodes += search.nodes - before
        # Each legal card takes the value of the lowest card of its run of touching cards.
        for c in sorted(rep_value):
            out[DECK[c]] = rep_value[c]
        bits = allowed
        while bits:
            low = bits & -bits
            c = low.bit_length() - 1
            bits ^= low
            if DECK[c] not in out:
                below = [r for r in rep_value if r < c and r // 13 == c // 13]
                out[DECK[c]] = rep_value[max(below)]
    return dict(sorted(out.items())), nodes


@holds_table
def solve(state: State, *, engine: str = "auto", techniques: Techniques = ALL) -> Solution:
    """The player to act's choice in ``state`` (a game in play, every hand known to the state), valued
    double dummy for that player's side (Oh Hell: for that player and its bid). ``engine``: ``auto`` (the
    C kernel where built), ``c`` or ``python``."""
    problem = _problem(state, None, "miss")
    values, nodes = _card_values(problem, engine, techniques)
    mine = {c: problem.sign * v for c, v in values.items()}
    return Solution(state.game, problem.node.to_play, max(mine.values()), mine, nodes)


@holds_table
def value(state: State, *, seat: int | None = None, engine: str = "auto", techniques: Techniques = ALL) -> int:
    """The value of ``state``, searched once: All Fours, for the player to act's side; Oh Hell, for
    ``seat`` (the player to act by default), the others playing against it."""
    problem = _problem(state, seat, "miss")
    v0 = _side0_value(problem, engine, techniques)
    return v0 if isinstance(state, OhHellState) else problem.sign * v0


def _side0_value(problem: _Problem, engine: str, techniques: Techniques) -> int:
    node = problem.node
    if problem.tables is not None:
        return _searcher(problem.tables, engine, techniques).value(node, -INF, INF)
    root = _Root(problem, engine, techniques)
    if techniques.mtdf and techniques.tt:
        if techniques.deepening and root.deepens:
            node = problem.node
            cards = sum(h.bit_count() for h in node.hands) + len(node.trick)
            hand = max(h.bit_count() for h in node.hands)
            return problem.sign * deepened(root.horizon_probe, cards, hand, ROOT_ABOVE)
        # the points kernel's probes are fail-soft target searches, and one that fails is the cheaper:
        # from above (the general kernel's from its deepening's estimate, or 0)
        return problem.sign * mtdf(root.probe, 0 if root.deepens else INF)
    best, _, _ = root.best()
    return problem.sign * best


@holds_table
def trick_range(state: OhHellState, seat: int, *, engine: str = "auto", techniques: Techniques = ALL) -> TrickRange:
    """Oh Hell: the most and the fewest tricks ``seat`` can make sure of taking from here (the others
    playing against it together), and whether it can make sure of exactly its bid."""
    if not isinstance(state, OhHellState):
        raise TypeError("trick_range is for Oh Hell")
    # v = (tricks the seat takes) - (tricks the others take) from here, or the reverse for the fewest
    left = state.hand_size() - len(state.tricks)
    taken = state.taken[seat]
    most = taken + (left + _side0_value(_oh_hell_problem(state, seat, "most"), engine, techniques)) // 2
    fewest = taken + (left - _side0_value(_oh_hell_problem(state, seat, "fewest"), engine, techniques)) // 2
    bid = state.bids[seat] if state.bids else None
    exact = None
    if bid is not None:
        exact = _side0_value(_oh_hell_problem(state, seat, "exact"), engine, techniques) == 1
    return TrickRange(seat, most, fewest, bid, exact)


@dataclass(frozen=True, slots=True)
class Review:
    """One card valued against best play, for the player who played it: ``before`` the best its side
    could make sure of, ``after`` what it could once ``card`` was played, ``best`` every card that keeps
    ``before``, ``mattered`` whether the legal cards did not all come to the same."""

    card: Card
    before: int
    after: int
    best: list[Card]
    mattered: bool
    nodes: int

    @property
    def cost(self) -> int:
        return self.before - self.after


def _order_key(card: int, node: Node, tables: Tables) -> int:
    return -order_score(card, node, tables)


class _Root:
    """The player to act's distinct cards (across the trump each may make, before the first lead), with
    exact values and null-window tests, for the player's side (``sign``)."""

    def __init__(self, problem: _Problem, engine: str, techniques: Techniques) -> None:
        from phatlog.solver.position import SUIT_MASK, legal

        self.problem, self.engine, self.techniques = problem, engine, techniques
        node = problem.node
        seat = node.to_play
        groups: list[tuple[Tables, int]] = []
        if problem.tables is not None:
            groups.append((problem.tables, -1))
        else:
            assert problem.by_trump is not None
            # the pitcher's longest suits first: the likelier trump
            order = sorted(range(4), key=lambda t: -(node.hands[seat] & SUIT_MASK[t]).bit_count())
            groups += [(problem.by_trump[t], t) for t in order]
        self.cands: list[tuple[Tables, int]] = []
        self.rep_of: dict[int, tuple[Tables, int]] = {}
        for tables, suit in groups:
            allowed = legal(node.hands[seat], node.trick, tables)
            if suit >= 0:
                allowed &= SUIT_MASK[suit]
            reps = [c for c in moves(node, tables, techniques.equivalence) if (allowed >> c) & 1]
            reps.sort(key=partial(_order_key, node=node, tables=tables))
            self.cands += [(tables, r) for r in reps]
            bits = allowed
            while bits:
                low = bits & -bits
                c = low.bit_length() - 1
                bits ^= low
                self.rep_of[c] = (tables, max(r for r in reps if r <= c and r // 13 == c // 13))
        self.nodes = 0
        # what the probes have shown of each candidate, by horizon (0: the exact search): a lower and an
        # upper bound on its value (an estimate's under a horizon), so that a later probe skips a candidate
        # already shown to fall short of it, or takes one already shown to reach it
        self._horizon = 0
        self._known: dict[int, dict[tuple[Tables, int], tuple[int, int]]] = {}

    @property
    def deepens(self) -> bool:
        """Whether iterative deepening serves the candidates' searches (the general kernel's horizons; the
        points kernel has none)."""
        return any(isinstance(_searcher(c[0], self.engine, self.techniques), CSearch) for c in self.cands)

    def exact(self, cand: tuple[Tables, int]) -> int:
        search = _searcher(cand[0], self.engine, self.techniques)
        before = search.nodes
        v = self.problem.sign * value_after(search, cand[0], self.problem.node, cand[1])
        self.nodes += search.nodes - before
        return v

    def at_least(self, cand: tuple[Tables, int], t: int) -> bool:
        search = _searcher(cand[0], self.engine, self.techniques)
        before = search.nodes
        node = self.problem.node
        if self.problem.sign == 1:
            ok = value_after(search, cand[0], node, cand[1], t - 1, t) >= t
        else:
            ok = value_after(search, cand[0], node, cand[1], -t, -t + 1) <= -t
        self.nodes += search.nodes - before
        return ok

    def horizon_probe(self, alpha: int, beta: int, horizon: int) -> int:
        """:meth:`probe` with the C kernel's searches stopping at ``horizon`` (0: exact; see ``deepened``)."""
        searches = {id(s): s for s in (_searcher(c[0], self.engine, self.techniques) for c in self.cands)}
        for s in searches.values():
            if isinstance(s, CSearch):
                s.horizon = horizon
        self._horizon = horizon
        try:
            return self.probe(alpha, beta)
        finally:
            self._horizon = 0
            for s in searches.values():
                if isinstance(s, CSearch):
                    s.horizon = 0

    def probe(self, alpha: int, beta: int) -> int:
        """A null-window probe of the best card (for the player's side): the first candidate shown to reach
        ``beta`` gives a lower bound (and is tried first from then on), else the most of the candidates'
        upper bounds is one. Every candidate keeps its transposition table between probes (the kernel's
        tables by generation), so MTD(f) over the root revisits each lead's tree, not a new one."""
        node = self.problem.node
        known = self._known.setdefault(self._horizon, {})
        # the cards with the highest upper bound so far first (the likeliest to reach this probe: every
        # card tried before the one that reaches it must be shown to fall short); a stable sort, so the
        # last card to reach a probe leads its equals
        self.cands.sort(key=lambda c: -known.get(c, (-INF, INF))[1])
        most = -INF
        for i, cand in enumerate(self.cands):
            lo, hi = known.get(cand, (-INF, INF))
            if lo >= beta:
                self.cands.insert(0, self.cands.pop(i))
                return lo
            if hi < beta:  # shown by an earlier probe to fall short of this one
                most = max(most, hi)
                continue
            search = _searcher(cand[0], self.engine, self.techniques)
            before = search.nodes
            if self.problem.sign == 1:
                v = value_after(search, cand[0], node, cand[1], alpha, beta)
            else:
                v = -value_after(search, cand[0], node, cand[1], -beta, -alpha)
            self.nodes += search.nodes - before
            if v >= beta:
                known[cand] = (max(lo, v), hi)
                self.cands.insert(0, self.cands.pop(i))
                return v
            known[cand] = (lo, min(hi, v))
            most = max(most, v)
        return most

    def best(
        self, first: tuple[Tables, int] | None = None
    ) -> tuple[int, dict[tuple[Tables, int], int], dict[tuple[Tables, int], int]]:
        """The best value, the candidates valued exactly, and the others with the value each was shown
        to be no better than."""
        head = self.cands[0] if first is None else first
        best = self.exact(head)
        known = {head: best}
        tested: dict[tuple[Tables, int], int] = {}
        for cand in self.cands:
            if cand in known:
                continue
            if self.at_least(cand, best + 1):
                best = known[cand] = self.exact(cand)
            else:
                tested[cand] = best
        return best, known, tested


@holds_table
def review(state: State, card: Card | str, *, engine: str = "auto", techniques: Techniques = ALL) -> Review:
    """Value the player to act's ``card`` against best play, with fewer full searches than :func:`solve`:
    the card's own value exactly, then for each other distinct card only whether it does better (a
    null-window test), searching it fully only when it does; and at the end whether each ties the best."""
    played = Card.parse(card) if isinstance(card, str) else card
    root = _Root(_problem(state, None, "miss"), engine, techniques)
    if int(played) not in root.rep_of:
        raise ValueError(f"{played} is not a legal card for the player to act")
    mine = root.rep_of[int(played)]
    best, known, tested = root.best(mine)
    is_best: dict[tuple[Tables, int], bool] = {}
    for cand in root.cands:
        if cand in known:
            is_best[cand] = known[cand] == best
        elif tested[cand] < best:
            is_best[cand] = False
        else:
            is_best[cand] = root.at_least(cand, best)
    best_cards = [DECK[c] for c in sorted(root.rep_of) if is_best[root.rep_of[c]]]
    return Review(played, best, known[mine], best_cards, not all(is_best.values()), root.nodes)
