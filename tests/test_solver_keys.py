"""The solver's transposition-table key by relative ranks (docs/analysis.md, "How the solver works"):
positions that differ only in which valueless cards were played are one entry, positions that differ in
a card with a value are not, and the values do not change with the key (C and Python)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conftest import examples, rerun_without_bmi2
from hypothesis import given, settings
from hypothesis import strategies as st

import phatlog
from phatlog.engine.state import State
from phatlog.solver import c_available, solve, value
from phatlog.solver.position import strength_row
from phatlog.solver.search import INF, Techniques, _pack, relative_key
from phatlog.solver.values import _problem

ABSOLUTE = Techniques(relative=False)

GAMES: list[tuple[str, dict[str, Any], int | None]] = [
    ("phat", {}, None),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}, None),
    ("irish_don", {}, None),
    ("oh_hell", {"schedule": [6]}, 4),
    ("oh_hell", {"must_trump": True, "schedule": [7]}, 3),
]


def played_to(game: str, rules: dict[str, Any], players: int | None, seed: int, left: int) -> State:
    """A first deal played at random to ``left`` tricks from its end (and a few cards into a trick)."""
    rng = random.Random(seed)
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    size = state.hand_size()
    into = rng.randrange(state.seats)
    while len(state.tricks) < size - left or (len(state.tricks) == size - left and len(state.trick) < into):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game", "rules", "players"), GAMES, ids=[g for g, _, _ in GAMES])
@given(seed=st.integers(0, 10**6), left=st.integers(2, 3))
@settings(max_examples=examples(12), deadline=None)
def test_relative_keys_give_the_values_of_absolute_keys_python(
    game: str, rules: dict[str, Any], players: int | None, seed: int, left: int
) -> None:
    state = played_to(game, rules, players, seed, left)
    a = solve(state, engine="python")
    b = solve(state, engine="python", techniques=ABSOLUTE)
    assert (a.value, a.cards) == (b.value, b.cards)


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
@pytest.mark.parametrize(("game", "rules", "players"), GAMES, ids=[g for g, _, _ in GAMES])
@given(seed=st.integers(0, 10**6), left=st.integers(4, 6))
@settings(max_examples=examples(12), deadline=None)
def test_relative_keys_give_the_values_of_absolute_keys_c(
    game: str, rules: dict[str, Any], players: int | None, seed: int, left: int
) -> None:
    state = played_to(game, rules, players, seed, left)
    a = solve(state, engine="c")
    b = solve(state, engine="c", techniques=ABSOLUTE)
    assert (a.value, a.cards) == (b.value, b.cards)
    assert value(state, engine="c") == value(state, engine="c", techniques=Techniques(relative=False, mtdf=False))


def _swap_low(hands: tuple[int, ...], fixed: int) -> tuple[int, ...] | None:
    """The hands with one valueless live card moved to a valueless played card of its suit with no live
    card between the two (the same position by relative ranks), or None where there is none."""
    live = 0
    for h in hands:
        live |= h
    for c in range(52):
        if not (live >> c) & 1 or (fixed >> c) & 1:
            continue
        for step in (-1, 1):
            d = c + step
            while 0 <= d < 52 and d // 13 == c // 13 and not (live >> d) & 1:
                if not (fixed >> d) & 1:
                    return tuple((h & ~(1 << c)) | (1 << d) if (h >> c) & 1 else h for h in hands)
                d += step
    return None


@pytest.mark.parametrize("game", ["irish_don", "phat", "nine_card_don"])
def test_a_different_low_card_played_is_the_same_entry(game: str) -> None:
    """Irish Don, Phat, Nine-card Don four tricks from the end: moving a valueless card to a played valueless
    rank next to it keeps the key (Python) and is a hit of the kernel's table (one node), while moving a
    counter changes the key."""
    found = 0
    for seed in range(40):
        state = played_to(game, {}, None, seed, 4)
        while state.trick:
            state.apply(state.legal_actions()[0])
        problem = _problem(state, None, "miss")
        tables, node = problem.tables, problem.node
        assert tables is not None
        fixed = 0
        for c in range(52):
            if tables.counter[c] or tables.gpts[c] or tables.flag[c]:
                fixed |= 1 << c
        other = _swap_low(node.hands, fixed)
        if other is None:
            continue
        found += 1
        assert other != node.hands
        assert relative_key(tables, list(other), node.g) == relative_key(tables, list(node.hands), node.g)
        # a counter held and a played card of its suit swapped: a different position
        counters = [c for c in range(52) if tables.counter[c] and any((h >> c) & 1 for h in node.hands)]
        live = 0
        for h in node.hands:
            live |= h
        for c in counters:
            dead = [d for d in range(c // 13 * 13, c // 13 * 13 + 13) if not (live >> d) & 1]
            if dead:
                moved = tuple((h & ~(1 << c)) | (1 << dead[0]) if (h >> c) & 1 else h for h in node.hands)
                assert relative_key(tables, list(moved), node.g) != relative_key(tables, list(node.hands), node.g)
                break
        if c_available():
            from phatlog._native import _solve

            _solve.clear()
            packed = _pack(tables)
            bits = Techniques().bits
            v1, _ = _solve.search(packed, node.hands, (), node.leader, node.g, node.flags, -INF, INF, bits)
            v2, n2 = _solve.search(packed, other, (), node.leader, node.g, node.flags, -INF, INF, bits)
            assert (v2, n2) == (v1, 1)
            _solve.clear()  # by absolute ranks the two are two entries
            _solve.search(packed, node.hands, (), node.leader, node.g, node.flags, -INF, INF, ABSOLUTE.bits)
            v3, n3 = _solve.search(packed, other, (), node.leader, node.g, node.flags, -INF, INF, ABSOLUTE.bits)
            assert v3 == v1 and n3 > 1
            _solve.clear()
    assert found >= 10


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
def test_the_kernel_keeps_each_trumps_entries() -> None:
    """Going back to tables searched a moment ago (another trump in between) finds their entries (one
    node), and another trump's entries never stand in for this one's."""
    from phatlog._native import _solve

    state = played_to("irish_don", {}, None, 3, 5)
    while state.trick:
        state.apply(state.legal_actions()[0])
    problem = _problem(state, None, "miss")
    node = problem.node
    assert problem.tables is not None
    other_trump = (problem.tables.trump + 1) % 4
    other = dataclasses.replace(problem.tables, trump=other_trump, strength=strength_row(other_trump))
    bits = Techniques().bits
    args = (node.hands, (), node.leader, node.g, node.flags, -INF, INF, bits)
    _solve.clear()
    here, _ = _solve.search(_pack(problem.tables), *args)
    there, n_there = _solve.search(_pack(other), *args)
    again, n_again = _solve.search(_pack(problem.tables), *args)
    assert (again, n_again) == (here, 1)
    _solve.clear()
    fresh, n_fresh = _solve.search(_pack(other), *args)
    assert fresh == there and n_fresh == n_there > 1
    _solve.clear()


@pytest.mark.skipif(not c_available(), reason="a whole deal is slow to solve in Python")
@pytest.mark.parametrize("seed", [0, 3])
def test_value_before_the_first_lead_is_the_best_card(seed: int) -> None:
    """value() before the first lead (MTD(f) over the pitcher's cards, each its own trump) is solve()'s
    best card (each card valued on its own)."""
    state = phatlog.start("nine_card_don", seed=seed)
    assert state.trump is None
    assert value(state) == solve(state).value


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
def test_a_big_position_grows_the_table_and_the_values_stay() -> None:
    """A position of more than 40 cards lets the kernel's table grow further than a small one's: the values
    searched after it are still right (the Python search's)."""
    from phatlog._native import _solve

    big = phatlog.start("irish_don", seed=7)
    problem = _problem(big, None, "miss")
    node = problem.node
    small = played_to("irish_don", {}, None, 7, 3)
    expected = value(small, engine="python")
    assert value(small, engine="c") == expected  # an entry of the small table, then the growth
    assert problem.by_trump is not None
    # a window far outside the bounds: answered at the root, but the table grows
    found, n = _solve.search(
        _pack(problem.by_trump[0]), node.hands, node.trick, node.leader, 0, 0, 500, 501, Techniques().bits
    )
    assert found <= 500 and n == 1
    assert value(small, engine="c") == expected


@pytest.mark.deep
@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
def test_the_portable_path_of_the_kernel_keys_the_same() -> None:
    """Without BMI2 (pdep/pext) the kernel carries the hands to their keys bit by bit: the tests of the
    relative key (one entry for a different low card played; the values of absolute keys) hold there too."""
    rerun_without_bmi2(__file__, "low_card or absolute_keys_c")


PITCH_GAMES = [g for g in GAMES if g[0] != "oh_hell"] + [("phat", {"muck_tie": "both"}, None)]


@pytest.mark.parametrize(("game", "rules", "players"), PITCH_GAMES, ids=[f"{g}-{len(r)}" for g, r, _ in PITCH_GAMES])
@given(seed=st.integers(0, 10**6), trump=st.integers(0, 3), carry=st.sampled_from([0, 8]))
@settings(max_examples=examples(10), deadline=None)
def test_the_tables_a_deal_shares_with_another_are_its_own(
    game: str, rules: dict[str, Any], players: int | None, seed: int, trump: int, carry: int
) -> None:
    """``pitch_tables`` hands out one set of tables to the deals that agree on what the tables read of
    them (a single-dummy analysis's layouts): each deal's tables, taken from that store after others, are
    the ones worked out afresh for it alone, so the store's key leaves out nothing the counters, flags and
    awards depend on. The deals are one deal with cards swapped between hands (and the pack's rest)."""
    from phatlog.rules.cards import DECK
    from phatlog.solver import position

    rng = random.Random(seed)
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    first = [{str(c) for c in h} for h in state._dealt]
    rest = {str(c) for c in DECK} - set().union(*first)
    deals = []
    for _ in range(8):
        hands = [set(h) for h in first] + [set(rest)]
        for _ in range(rng.randrange(4)):
            a, b = rng.sample([i for i, h in enumerate(hands) if h], 2)
            x, y = rng.choice(sorted(hands[a])), rng.choice(sorted(hands[b]))
            hands[a] ^= {x, y}
            hands[b] ^= {x, y}
        deals.append(hands[:4])
    pitcher = rng.randrange(4)
    shared = [position.pitch_tables(state.rules_of, trump, d, carry, pitcher) for d in deals]  # type: ignore[attr-defined]
    assert len({id(t) for t in shared}) < len(deals)  # some deals shared their tables
    for d, tables in zip(deals, shared, strict=True):
        position._PITCH_TABLES.clear()
        assert position.pitch_tables(state.rules_of, trump, d, carry, pitcher) == tables  # type: ignore[attr-defined]
