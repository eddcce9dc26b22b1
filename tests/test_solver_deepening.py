"""Iterative deepening (docs/analysis.md, "How the solver works"): the kernel's searches that stop at a
horizon only order moves and give MTD(f) its first guess, so the values are those of the search
without it. The driver deepens only positions of more than 41 cards; these tests lower that bar so
small endings (fast) take the same path."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_keys import GAMES, played_to

import phatlog
from phatlog.solver import c_available, solve, value
from phatlog.solver import search as search_mod
from phatlog.solver.search import INF, Techniques, _pack
from phatlog.solver.values import _problem, _searchers

pytestmark = pytest.mark.skipif(not c_available(), reason="the horizon is the C kernel's")

FLAT = Techniques(deepening=False)


@pytest.fixture
def deepen_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deepening on every position, with horizons that fit a small ending."""
    monkeypatch.setattr(search_mod, "DEEPEN_CARDS", 0)
    monkeypatch.setattr(search_mod, "HORIZONS", (5, 3, 2))


@pytest.mark.parametrize(("game", "rules", "players"), GAMES, ids=[g for g, _, _ in GAMES])
@given(seed=st.integers(0, 10**6), left=st.integers(4, 6))
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_deepening_gives_the_values_without_it(
    deepen_small: None, game: str, rules: dict[str, Any], players: int | None, seed: int, left: int
) -> None:
    state = played_to(game, rules, players, seed, left)
    a = solve(state, engine="c")
    b = solve(state, engine="c", techniques=FLAT)
    assert (a.value, a.cards) == (b.value, b.cards)
    assert value(state, engine="c") == value(state, engine="c", techniques=FLAT)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_deepening_before_the_first_lead(deepen_small: None, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The root over the pitcher's cards (each its own trump) deepens through every trump's tables."""
    monkeypatch.setattr(search_mod, "HORIZONS", (7, 5, 3))
    state = phatlog.start("nine_card_don", seed=seed)
    assert value(state) == value(state, techniques=FLAT) == solve(state, techniques=FLAT).value


def test_a_horizon_search_leaves_exact_entries_exact() -> None:
    """A search to a horizon answers with estimates (not the values), and an exact search after it in
    the same table finds the values a fresh table finds."""
    from phatlog._native import _solve

    bits = Techniques().bits
    differ = 0
    for seed in range(12):
        state = played_to("irish_don", {}, None, seed, 6)
        while state.trick:
            state.apply(state.legal_actions()[0])
        problem = _problem(state, None, "miss")
        assert problem.tables is not None
        node = problem.node
        args = (_pack(problem.tables), node.hands, (), node.leader, node.g, node.flags, -INF, INF, bits)
        _solve.clear()
        exact, _ = _solve.search(*args)
        _solve.clear()
        estimate, _ = _solve.search(*args, 3)
        after, _ = _solve.search(*args)
        again, _ = _solve.search(*args, 0)
        assert after == again == exact
        differ += estimate != exact
    _solve.clear()
    _searchers.clear()
    assert differ  # else this test could not tell estimates from values


def test_the_horizon_is_checked() -> None:
    from phatlog._native import _solve

    problem = _problem(played_to("irish_don", {}, None, 0, 5), None, "miss")
    assert problem.tables is not None
    node = problem.node
    with pytest.raises(ValueError, match="horizon"):
        _solve.search(_pack(problem.tables), node.hands, node.trick, node.leader, node.g, node.flags, -INF, INF, 31, 14)
