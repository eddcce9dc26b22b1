"""The bounds at the start of a trick (phatlog/solver/search.py ``bounds``, ``bounds`` in _solve.c): they
hold the value on random endings, and the sure cards (the top of the trumps still out, held by one side)
tighten them."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conftest import counter_tables, examples, hand_masks
from hypothesis import given, settings
from hypothesis import strategies as st

import phatlog
from phatlog.rules.cards import Rank
from phatlog.solver import c_available
from phatlog.solver.position import Node
from phatlog.solver.search import Techniques, bounds, searcher
from phatlog.solver.values import _problem

PLAIN = Techniques(tt=False, equivalence=False, ordering=False, bounds=False, mtdf=False)
BOUNDS_ONLY = Techniques(tt=False, equivalence=False, ordering=False, bounds=True, mtdf=False, relative=False)

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("phat", {}),
    ("phat", {"muck_tie": "both"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}),
    ("irish_don", {}),
]


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(GAMES)])
@given(seed=st.integers(0, 10**6), left=st.integers(2, 3))
@settings(max_examples=examples(25), deadline=None)
def test_the_bounds_hold_the_value_of_random_endings(game: str, rules: dict[str, Any], seed: int, left: int) -> None:
    rng = random.Random(seed)
    state = phatlog.start(game, rules=rules, seed=seed)
    size = state.hand_size()
    while len(state.tricks) < size - left or state.trick:
        state.apply(rng.choice(state.legal_actions()))
    problem = _problem(state, None, "miss")
    tables, node = problem.tables, problem.node
    assert tables is not None
    lo, hi = bounds(tables, list(node.hands), node.g, node.flags)
    exact = searcher(tables, "python", PLAIN).value(node)
    assert lo <= exact <= hi


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_the_top_trumps_counters_are_their_sides_in_the_bounds(holder: int) -> None:
    """The king of trumps (the only counter) under the ace held by the same side is that side's for sure:
    the bounds are its value exactly (before the sure cards: -1 to 1), in Python and in the kernel (one
    node: the bounds answer a null window at the root)."""
    trump = 2
    king, ace = trump * 13 + Rank.KING, trump * 13 + Rank.ACE
    tables = counter_tables(trump, {king: 1})
    cards: list[list[int]] = [[0, 1], [13, 14], [26, 27], [39, 40]]  # low cards of every suit
    cards[holder] = [king, 5]
    cards[(holder + 2) % 4] = [ace, 6 + 13]  # the partner: the ace
    hands = hand_masks(*cards)
    sure = 1 if holder % 2 == 0 else -1
    assert bounds(tables, list(hands), 0, 0) == (sure, sure)
    node = Node(hands, (), 3, 0, 0)
    assert searcher(tables, "python", PLAIN).value(node) == sure
    if c_available():
        search = searcher(tables, "c", BOUNDS_ONLY)
        # a null window the sure counter decides: lo >= beta for side 0's, hi <= alpha for side 1's
        window = (sure - 1, sure) if sure > 0 else (sure, sure + 1)
        assert search.value(node, *window) == sure
        assert search.nodes == 1


def test_a_counter_under_the_other_sides_trump_is_not_sure() -> None:
    """The king of trumps with the ace on the other side: not sure, the bounds stay -1 to 1."""
    trump = 0
    king, ace = Rank.KING, Rank.ACE
    tables = counter_tables(trump, {king: 1})
    hands = hand_masks([king, 20], [ace, 21], [1, 22], [2, 23])
    assert bounds(tables, list(hands), 0, 0) == (-1, 1)


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
def test_the_kernels_table_serves_two_and_four_seats_in_turn() -> None:
    """Four seats keep compact entries (three key words, four in all), two seats the plain layout of as many
    words: going from one to the other and back clears the table rather than read one layout as the other
    (the values stay those of the Python search)."""
    from phatlog._native import _solve

    trump = 1
    king, ace = trump * 13 + Rank.KING, trump * 13 + Rank.ACE
    four = counter_tables(trump, {king: 1})
    two = dataclasses.replace(four, seats=2, side=(0, 1))
    rng = random.Random(5)
    for _ in range(6):
        deck = [c for c in range(52) if c not in (king, ace)]
        rng.shuffle(deck)
        for tables in (two, four, two):
            seats = tables.seats
            cards = [[*deck[k * 4 : k * 4 + 3]] for k in range(seats)]
            cards[rng.randrange(seats)].append(king)
            cards[rng.randrange(seats)].append(ace)
            size = max(len(h) for h in cards)
            spare = iter(deck[20:])
            cards = [h + [next(spare) for _ in range(size - len(h))] for h in cards]
            assert len({len(h) for h in cards}) == 1
            node = Node(hand_masks(*cards), (), 0, 0, 0)
            expected = searcher(tables, "python", PLAIN).value(node)
            assert searcher(tables, "c").value(node) == expected
            assert searcher(tables, "c").value(node) == expected  # the second time from the table
    _solve.clear()
