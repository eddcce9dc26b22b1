"""The solver's ranges of counts (docs/analysis.md, "How it searches"): where the end-of-deal awards never
fall as side 0's count rises, a table entry's bounds hold beyond the count they were found at, and a
decided position (Phat's muck won) is keyed and moved without card points. The values must not change
(C and Python, a position at a time and a whole deal's analysis sharing one table), and the technique
must be in use where it applies and off where it does not."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import phatlog
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import State
from phatlog.rules.cards import Card
from phatlog.solver import c_available, solve
from phatlog.solver.position import Node
from phatlog.solver.search import PySearch, Techniques, _reach, _relative_of, moves, searcher
from phatlog.solver.values import _oh_hell_problem, _problem, _searchers

NO_COUNTS = Techniques(counts=False)

#: Every variant whose awards depend on the count (and Irish Don, which has none: the ranges stay off).
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("phat", {}),
    ("phat", {"muck_tie": "both"}),
    ("phat", {"muck_tie": "carry"}),
    ("nine_card_don", {}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}),
    ("nine_card_don", {"bonus": "six_high_jack", "follow": "follow_or_trump"}),
    ("irish_don", {}),
]
ENGINES = ["python", "c"] if c_available() else ["python"]


def played_to(game: str, rules: dict[str, Any], seed: int, left: int) -> State:
    """A deal (now and then a later one: Phat's carry) played at random to ``left`` tricks from its end,
    and a few cards into a trick; the first deal again where the game ended first (a peg-out)."""
    rng = random.Random(seed)
    state = phatlog.start(game, rules=rules, seed=seed)
    for _ in range(rng.randrange(2)):
        deal = state.deal_index
        while not state.is_over and state.deal_index == deal:
            state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        state = phatlog.start(game, rules=rules, seed=seed)
    size = state.hand_size()
    into = rng.randrange(state.seats)
    while len(state.tricks) < size - left or (len(state.tricks) == size - left and len(state.trick) < into):
        state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            return played_to(game, rules, seed + 1, left)
    return state


def fresh() -> None:
    """Every searcher and the C kernel's table forgotten."""
    _searchers.clear()
    if c_available():
        from phatlog._native import _solve

        _solve.clear()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("game", "rules"), GAMES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(GAMES)])
@given(seed=st.integers(0, 10**6), left=st.integers(3, 5))
@settings(max_examples=examples(10), deadline=None)
def test_counts_give_the_values_without_them(
    engine: str, game: str, rules: dict[str, Any], seed: int, left: int
) -> None:
    if engine == "python" and left > 4:
        left = 4  # the Python search is slow on longer endings
    state = played_to(game, rules, seed, left)
    fresh()
    a = solve(state, engine=engine)
    fresh()
    b = solve(state, engine=engine, techniques=NO_COUNTS)
    assert (a.value, a.cards) == (b.value, b.cards)


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
@pytest.mark.parametrize(("game", "rules"), GAMES[:5], ids=[f"{g}-{i}" for i, (g, _) in enumerate(GAMES[:5])])
@given(seed=st.integers(0, 10**6))
@settings(max_examples=examples(4), deadline=None)
def test_a_whole_deal_analysed_through_one_table_is_unchanged(game: str, rules: dict[str, Any], seed: int) -> None:
    """Every position of a deal's last tricks, solved in turn through one kept table (as ``analyse``
    does), so that entries found at one count serve positions reached at another."""
    rng = random.Random(seed)
    state = played_to(game, rules, seed, 6)
    positions = []
    deal = state.deal_index
    while not state.is_over and state.deal_index == deal and state.phase.value == "play":
        positions.append(state.copy())
        state.apply(rng.choice(state.legal_actions()))
    results = {}
    for techniques in (Techniques(), NO_COUNTS):
        fresh()
        results[techniques.counts] = [
            (s.value, s.cards) for s in (solve(p, engine="c", techniques=techniques) for p in positions)
        ]
    assert results[True] == results[False]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("game", "rules"), GAMES[:6], ids=[f"{g}-{i}" for i, (g, _) in enumerate(GAMES[:6])])
@given(seed=st.integers(0, 10**6), left=st.integers(2, 4), data=st.data())
@settings(max_examples=examples(25), deadline=None)
def test_the_same_hands_at_another_count_through_a_warm_table(
    engine: str, game: str, rules: dict[str, Any], seed: int, left: int, data: st.DataObject
) -> None:
    """The hands of one position searched at several counts in turn through one table (every probe of
    every window, as MTD(f) and the root make them), each value equal to a search from an empty table:
    a bound found at one count is used at another only where it holds there."""
    state = played_to(game, rules, seed, left)
    problem = _problem(state, None, "miss")
    tables, node = problem.tables, problem.node
    assert tables is not None
    live = 0
    for h in node.hands:
        live |= h
    for c in node.trick:
        live |= 1 << c
    top = max(tables.gmax - _reach(tables, live), 0)
    counts = data.draw(st.lists(st.integers(0, top), min_size=2, max_size=6))
    windows = data.draw(st.lists(st.integers(-40, 40), min_size=len(counts), max_size=len(counts)))
    fresh()
    warm = searcher(tables, engine)
    for g, w in zip(counts, windows, strict=True):
        at = Node(node.hands, node.trick, node.leader, g, node.flags)
        got = warm.value(at, w - 1, w)  # a null window: a bound, as MTD(f) probes
        full = warm.value(at)
        fresh()
        want = searcher(tables, engine).value(at)
        assert full == want, (g, counts)
        assert (got >= w) == (want >= w), (g, w, got, want)
        if got >= w:
            assert want >= got
        else:
            assert want <= got


@pytest.mark.parametrize(("game", "rules"), GAMES[:6], ids=[f"{g}-{i}" for i, (g, _) in enumerate(GAMES[:6])])
def test_the_leaf_rises_with_the_count_where_the_awards_do(game: str, rules: dict[str, Any]) -> None:
    """Every All Fours award with a count (the game, the muck) goes to the greater count: the tables say so,
    the jack's and the low's unreachable entries included."""
    for seed in range(4):
        tables = _problem(played_to(game, rules, seed, 8), None, "miss").tables
        assert tables is not None
        assert tables.gmax > 0
        assert _relative_of(tables).monotone


def test_counts_are_off_where_the_leaf_does_not_rise() -> None:
    """Irish Don has no count; Oh Hell's exact bid is won at one count only (more tricks can lose it)."""
    irish = _problem(played_to("irish_don", {}, 1, 8), None, "miss").tables
    assert irish is not None and not _relative_of(irish).monotone
    rng = random.Random(3)
    state = phatlog.start("oh_hell", players=4, rules={"schedule": [6]}, seed=3)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, OhHellState)
    exact = _oh_hell_problem(state, 0, "exact").tables
    assert exact is not None and exact.gmax > 0 and not _relative_of(exact).monotone


@pytest.mark.parametrize(("game", "seeds"), [("phat", range(6)), ("nine_card_don", range(6))])
def test_counts_cut_the_tree(game: str, seeds: range) -> None:
    """The technique at work: over a few fixed endings, fewer positions searched with it than without
    (Python's search, so that the figure does not depend on the C build)."""
    totals = {}
    for techniques in (Techniques(), NO_COUNTS):
        total = 0
        for seed in seeds:
            problem = _problem(played_to(game, {}, seed, 4), None, "miss")
            assert problem.tables is not None
            search = PySearch(problem.tables, techniques)
            search.value(problem.node)
            total += search.nodes
        totals[techniques.counts] = total
    assert totals[True] < totals[False]


def test_a_decided_position_moves_without_card_points() -> None:
    """Phat with the muck won (side 0's count past 40): the king and queen of a plain suit, touching,
    peg nothing at once and now count for nothing either, so they are one move; undecided, two."""
    state = played_to("phat", {}, 2, 12)
    tables = _problem(state, None, "miss").tables
    assert tables is not None
    plain = next(s for s in range(4) if s != tables.trump)
    king, queen = (int(Card.parse(f"{r}{'CDHS'[plain]}")) for r in "KQ")
    rest = [c for c in range(52) if c not in (king, queen) and tables.counter[c] == 0 and tables.gpts[c] == 0]
    hands = (
        1 << king | 1 << queen,
        1 << rest[0] | 1 << rest[1],
        1 << rest[2] | 1 << rest[3],
        1 << rest[4] | 1 << rest[5],
    )
    decided = Node(hands, (), 0, 60, 0)
    undecided = Node(hands, (), 0, 35, 0)
    assert moves(decided, tables, True, counts=True) == [queen]
    assert moves(undecided, tables, True, counts=True) == [queen, king]
    assert moves(decided, tables, True, counts=False) == [queen, king]
