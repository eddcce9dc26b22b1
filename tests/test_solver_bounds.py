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


OH_HELL: list[tuple[int, dict[str, Any]]] = [
    (4, {"schedule": [6]}),  # the last hand: no trump
    (5, {"schedule": [5, 4]}),  # a turned-up trump on the first deal
    (3, {"must_trump": True, "schedule": [7, 6]}),
]


@pytest.mark.parametrize(("players", "rules"), OH_HELL, ids=[f"{p}-{i}" for i, (p, _) in enumerate(OH_HELL)])
@pytest.mark.parametrize("objective", ["most", "fewest", "exact", "miss"])
@given(seed=st.integers(0, 10**6), left=st.integers(2, 4))
@settings(max_examples=examples(25), deadline=None)
def test_the_bounds_hold_the_value_of_oh_hell_endings_with_the_leaders_tricks(
    players: int, rules: dict[str, Any], objective: str, seed: int, left: int
) -> None:
    """Where tricks count, the leader's side can take the leader's cards that no card out beats: a bound for
    the side that wants them only (the misère's or a bid's side may not), checked against plain search."""
    from phatlog.engine.oh_hell_state import OhHellState
    from phatlog.solver.search import _bounds
    from phatlog.solver.values import _oh_hell_problem

    rng = random.Random(seed)
    state = phatlog.start("oh_hell", players=players, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, OhHellState)
    size = state.hand_size()
    while len(state.tricks) < size - left or state.trick:
        state.apply(rng.choice(state.legal_actions()))
    problem = _oh_hell_problem(state, rng.randrange(players), objective)
    tables, node = problem.tables, problem.node
    assert tables is not None
    lo, hi = _bounds(tables, list(node.hands), node.g, node.flags, node.leader)[:2]
    exact = searcher(tables, "python", PLAIN).value(node)
    assert lo <= exact <= hi


def test_the_leader_counts_the_tricks_its_top_cards_take_where_it_wants_them() -> None:
    """No trump, four seats, seat 0 against the rest and on lead with the ace and king of spades over every
    spade out: it takes two tricks if it will, so its most tricks are at least two; for its fewest, it
    need not (the bound stays the plain one)."""
    from phatlog.rules.cards import Card
    from phatlog.rules.trick import FollowRule
    from phatlog.solver.position import mask, oh_hell_tables
    from phatlog.solver.search import _bounds
    from phatlog.solver.values import _leaf

    hands = [
        mask({Card.parse(c) for c in h})
        for h in (["AS", "KS", "2H"], ["QS", "3H", "4H"], ["JS", "5H", "6H"], ["TS", "7H", "8H"])
    ]
    most = oh_hell_tables(4, 4, FollowRule.MUST_FOLLOW, 0, (0, 0, 0, 0), 1)
    fewest = oh_hell_tables(4, 4, FollowRule.MUST_FOLLOW, 0, (0, 0, 0, 0), -1)
    # three tricks: the value is seat 0's tricks less the others', -3 to 3; two sure tricks make it 1 at least
    assert _bounds(most, hands, 0, 0, 0)[:2] == (1, 3)
    assert _bounds(most, hands, 0, 0, 1)[:2] == (-3, 3)  # another leads: nothing is sure
    assert _bounds(fewest, hands, 0, 0, 0)[:2] == (-3, 3)
    # by the count, a bid of 0 missed by what it takes (-t): seat 0 can make sure of two tricks or more,
    # which bounds nothing it wants; a bid of 2 missed by at most 1 (the least over two and three tricks)
    for bid, least, value in ((0, -3, -1), (2, -1, 0)):
        tables = oh_hell_tables(4, 4, FollowRule.MUST_FOLLOW, 0, _leaf("miss", 3, bid))
        assert _bounds(tables, hands, 0, 0, 0)[:2] == (least, 0)
        assert searcher(tables, "python", PLAIN).value(Node(tuple(hands), (), 0, 0, 0)) == value
