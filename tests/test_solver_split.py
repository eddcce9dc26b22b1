"""The solver's counters' game (docs/analysis.md, "How it searches"): at a trick's start the same deal
without the end-of-deal awards is searched, and its value, plus the least or the most award the cards
still out can reach, cuts the window. The values must not change (C and Python, against plain minimax
and against the search without it), and it must be on where it can cut and off where it cannot."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_counts import GAMES as COUNTED_GAMES
from test_solver_counts import fresh, played_to

import phatlog
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.solver import c_available, reference_value, solve, value
from phatlog.solver.search import Techniques, _relative_of, searcher
from phatlog.solver.values import _oh_hell_problem, _problem

#: the counters' game at every trick's start (the default waits for 12 cards in play)
EVERYWHERE = Techniques(split_from=4)
NO_SPLIT = Techniques(split=False)

GAMES = COUNTED_GAMES[:6]  # every All Fours variant with an award at the end (not Irish Don)
IDS = [f"{g}-{i}" for i, (g, _) in enumerate(GAMES)]
ENGINES = ["python", "c"] if c_available() else ["python"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("game", "rules"), GAMES, ids=IDS)
@given(seed=st.integers(0, 10**6), left=st.integers(1, 2))
@settings(max_examples=examples(20), deadline=None)
def test_the_counters_game_gives_plain_minimax(
    engine: str, game: str, rules: dict[str, Any], seed: int, left: int
) -> None:
    state = played_to(game, rules, seed, left)
    fresh()
    got = value(state, engine=engine, techniques=EVERYWHERE)
    sign = 1 if (state.current_seat or 0) % 2 == 0 else -1
    assert got == sign * reference_value(state)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("game", "rules"), GAMES, ids=IDS)
@given(seed=st.integers(0, 10**6), left=st.integers(3, 5))
@settings(max_examples=examples(10), deadline=None)
def test_the_counters_game_gives_the_values_without_it(
    engine: str, game: str, rules: dict[str, Any], seed: int, left: int
) -> None:
    if engine == "python":
        left = min(left, 4)  # the Python search is slow on longer endings
    state = played_to(game, rules, seed, left)
    fresh()
    a = solve(state, engine=engine, techniques=EVERYWHERE)
    fresh()
    b = solve(state, engine=engine, techniques=NO_SPLIT)
    assert (a.value, a.cards) == (b.value, b.cards)


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
@pytest.mark.parametrize(("game", "rules"), GAMES, ids=IDS)
@given(seed=st.integers(0, 10**6), left=st.integers(3, 4))
@settings(max_examples=examples(10), deadline=None)
def test_c_and_python_search_the_counters_game_alike(game: str, rules: dict[str, Any], seed: int, left: int) -> None:
    """The same values and the same positions searched (the C kernel's table may drop an entry the
    Python one keeps: a few more nodes, never fewer is not promised, so only the values are held)."""
    state = played_to(game, rules, seed, left)
    fresh()
    a = solve(state, engine="c", techniques=EVERYWHERE)
    b = solve(state, engine="python", techniques=EVERYWHERE)
    assert (a.value, a.cards) == (b.value, b.cards)


def test_it_is_on_where_it_can_cut() -> None:
    """Phat and Nine-card Don peg counters and award at the end; Irish Don awards nothing at the end (the
    counters' game is the game), and Oh Hell pegs no counters."""
    for game in ("phat", "nine_card_don"):
        tables = _problem(played_to(game, {}, 1, 8), None, "miss").tables
        assert tables is not None and _relative_of(tables).split_ok
    irish = _problem(played_to("irish_don", {}, 1, 8), None, "miss").tables
    assert irish is not None and not _relative_of(irish).split_ok
    state = phatlog.start("oh_hell", players=4, rules={"schedule": [6]}, seed=3)
    while state.phase.value == "bid":
        state.apply(state.legal_actions()[0])
    assert isinstance(state, OhHellState)
    exact = _oh_hell_problem(state, 0, "exact").tables
    assert exact is not None and not _relative_of(exact).split_ok


@pytest.mark.skipif(not c_available(), reason="the C solver is not built (Python is slow on such endings)")
def test_it_cuts_the_tree() -> None:
    """The technique at work: over a few fixed Phat endings of 32 cards, fewer positions searched with
    it than without (the counters' game's own positions counted)."""
    totals = {}
    for techniques in (Techniques(), NO_SPLIT):
        total = 0
        for seed in range(4):
            problem = _problem(played_to("phat", {}, seed, 8), None, "miss")
            assert problem.tables is not None
            fresh()
            search = searcher(problem.tables, "c", techniques)
            search.value(problem.node)
            total += search.nodes
        totals[techniques.split] = total
    assert totals[True] < totals[False]


def test_split_from_is_a_number_of_cards_the_kernel_can_take() -> None:
    """Both kernels read ``split_from`` alike: the C kernel takes six bits, so 0 or 64 cards is refused."""
    assert Techniques(split_from=1).bits >> 8 == 1
    assert Techniques(split_from=63).bits >> 8 == 63
    for bad in (0, 64, -1):
        with pytest.raises(ValueError, match="split_from"):
            Techniques(split_from=bad)
