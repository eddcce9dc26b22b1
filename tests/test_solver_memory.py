"""The compiled search's table is held only while solves need it: a solve gives its memory back when it
ends, and ``held_table`` keeps it across the solves inside (a bot's game, a record's analysis)."""

from __future__ import annotations

from pathlib import Path

import pytest

import phatlog
from phatlog.analysis.records import analyse
from phatlog.solver.position import Node, Tables
from phatlog.solver.search import c_available, held_table

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not c_available(), reason="the compiled search is not built")


def _table_bytes() -> int:
    from phatlog._native import _solve

    return _solve.table_bytes()


def _position() -> phatlog.State:
    state = phatlog.start("nine_card_don", seed=3)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    return state


def test_a_solve_gives_the_table_back_when_it_ends() -> None:
    state = _position()
    solved = phatlog.solve(state)
    assert _table_bytes() == 0
    assert phatlog.solve(state).cards == solved.cards  # a fresh table: the same values
    analysis = analyse(str(ROOT / "samples" / "games" / "nine-card-don-worked-6-3.json"), 1, 6)
    assert analysis.deals and _table_bytes() == 0  # a record's analysis too, once it is done


def test_held_table_keeps_it_between_solves_and_gives_it_back_at_the_end() -> None:
    state = _position()
    with held_table():
        first = phatlog.solve(state)
        held = _table_bytes()
        assert held > 0
        with held_table():
            assert phatlog.solve(state).cards == first.cards
        assert _table_bytes() == held  # an inner span ends: the outer one still holds it
    assert _table_bytes() == 0


def _oh_hell_most(players: int, cards: int, seed: int) -> tuple[Tables, Node]:
    import random

    from phatlog.engine.oh_hell_state import OhHellState
    from phatlog.solver.values import _oh_hell_problem

    rng = random.Random(seed)
    state = phatlog.start("oh_hell", players=players, rules={"schedule": [cards]}, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, OhHellState)
    problem = _oh_hell_problem(state, 0, "most")
    assert problem.tables is not None
    return problem.tables, problem.node


def test_a_small_search_keeps_a_small_table() -> None:
    """The general kernel's table starts small and grows only as a search fills it: a search of a few
    hundred thousand positions (five seats, 10 cards each) never maps the 224 MB a whole deal may need,
    which the kernel would have zeroed page by page as the search wrote it."""
    from phatlog._native import _solve
    from phatlog.solver.search import CSearch

    tables, node = _oh_hell_most(5, 10, 8)
    with held_table():
        search = CSearch(tables)
        search.value(node)
        assert search.nodes > 0 and 0 < _table_bytes() <= 16 << 20
        _solve.clear()


@pytest.mark.deep
def test_a_search_that_fills_the_table_grows_it_and_the_values_stay() -> None:
    """A search of tens of millions of positions grows the table fourfold, and again, each time placing
    its entries anew: the value is the one searched by absolute keys (other places in the table)."""
    from phatlog.solver.search import CSearch, Techniques

    tables, node = _oh_hell_most(5, 10, 13)
    with held_table():
        grown = CSearch(tables).value(node)
        assert _table_bytes() > 16 << 20
    with held_table():
        assert CSearch(tables, Techniques(relative=False)).value(node) == grown
