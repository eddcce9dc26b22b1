"""The compiled search's table is held only while solves need it: a solve gives its memory back when it
ends, and ``held_table`` keeps it across the solves inside (a bot's game, a record's analysis)."""

from __future__ import annotations

from pathlib import Path

import pytest

import phatlog
from phatlog.analysis.records import analyse
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
