"""The solver kernel's per-node bookkeeping (phatlog/_native/_solve.c): what it keeps as the tricks are
played rather than works out at each node (the cards still in play, the trick's place) gives the moves and
values of the Python search."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conftest import counter_tables, examples, hand_masks, rerun_without_bmi2
from hypothesis import given, settings
from hypothesis import strategies as st

import phatlog
from phatlog.rules.cards import Rank, Suit
from phatlog.solver import c_available
from phatlog.solver.position import Node
from phatlog.solver.search import Techniques, _pack, bounds, order_score, searcher
from phatlog.solver.values import _problem

pytestmark = pytest.mark.skipif(not c_available(), reason="the C solver is not built")

EQUIVALENCE_ONLY = Techniques(tt=False, equivalence=True, ordering=False, bounds=False, mtdf=False, relative=False)
ORDERED = Techniques(tt=False, equivalence=True, ordering=True, bounds=True, mtdf=False, relative=False)
BOUNDS_ONLY = Techniques(tt=False, equivalence=False, ordering=False, bounds=True, mtdf=False, relative=False)


def test_a_card_in_the_trick_parts_two_cards_of_a_hand() -> None:
    """The 6 of clubs led (a counter) lies between the 5 and the 7 of the second hand: they do not touch,
    so the 7 is searched and takes the counter (-1); were the trick's card left out of the cards in play,
    the 5 alone would be searched (+1)."""
    clubs = Suit.CLUBS * 13
    six, five, seven = clubs + Rank.SIX, clubs + Rank.FIVE, clubs + Rank.SEVEN
    tables = counter_tables(Suit.HEARTS, {six: 1})
    spades = Suit.SPADES * 13
    hands = hand_masks([spades + 9], [five, seven], [spades, spades + 1], [spades + 2, spades + 3])
    node = Node(hands, (six,), 0, 0, 0)
    py = searcher(tables, "python", EQUIVALENCE_ONLY)
    c = searcher(tables, "c", EQUIVALENCE_ONLY)
    assert py.value(node) == c.value(node) == -1
    assert c.nodes == py.nodes


@pytest.mark.parametrize("falling", [False, True], ids=["rising", "falling"])
@pytest.mark.parametrize("techniques", [EQUIVALENCE_ONLY, ORDERED], ids=["touching", "ordered"])
@pytest.mark.parametrize("seed", range(8))
def test_the_kernel_searches_the_pythons_nodes_from_inside_a_trick(
    seed: int, techniques: Techniques, falling: bool
) -> None:
    """Random four-card endings started at each card of the first trick: the kernel (no table, so the
    nodes are comparable) searches as many nodes as the Python search and finds its value, the tricks that
    follow each taking their own place, the moves in the same order; also where the low cards win (the
    strength falling with the rank: the kernel's strongest card no longer a suit's top)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    trump = rng.randrange(4)
    tables = counter_tables(trump, {c: rng.choice((0, 0, 1, 2, 5)) for c in range(52)})
    if falling:
        row = tables.strength
        tables = dataclasses.replace(tables, strength=tuple(row[k - k % 13 + 12 - k % 13] for k in range(4 * 52)))
    cards = [deck[k * 4 : k * 4 + 4] for k in range(4)]
    leader = rng.randrange(4)
    trick: list[int] = []
    for k in range(4):
        hands = hand_masks(*cards)
        node = Node(hands, tuple(trick), leader, 0, 0)
        py = searcher(tables, "python", techniques)
        c = searcher(tables, "c", techniques)
        assert c.value(node) == py.value(node)
        assert c.nodes == py.nodes
        seat = (leader + k) % 4
        if trick:
            led = trick[0] // 13
            follow = [x for x in cards[seat] if x // 13 == led]
            card = rng.choice(follow or cards[seat])
        else:
            card = rng.choice(cards[seat])
        cards[seat].remove(card)
        trick.append(card)


def test_a_trick_won_so_far_is_not_yet_won() -> None:
    """The partner's 10 of clubs wins so far, but the fourth hand holds the king: the third hand's ace
    (which the king cannot beat) comes before its 9 (a counter thrown to a trick the king may take); the
    second hand, over the leader's 10 with the queen and the ace and the king still to come on the
    other side, tries the ace before the queen. The kernel orders the same (the nodes of the Python
    search)."""
    clubs = Suit.CLUBS * 13
    ten, nine, ace = clubs + Rank.TEN, clubs + Rank.NINE, clubs + Rank.ACE
    king, queen, two = clubs + Rank.KING, clubs + Rank.QUEEN, clubs + Rank.TWO
    tables = counter_tables(Suit.HEARTS, {nine: 9, ten: 1})
    spades = Suit.SPADES * 13
    third = Node(hand_masks([spades], [spades + 1], [ace, nine], [king, spades + 2]), (ten, two), 0, 0, 0)
    assert third.to_play == 2
    assert order_score(ace, third, tables) > order_score(nine, third, tables)
    second = Node(hand_masks([spades], [queen, ace], [king, spades + 1], [two, spades + 2]), (ten,), 0, 0, 0)
    assert second.to_play == 1
    assert order_score(ace, second, tables) > order_score(queen, second, tables)
    for node in (third, second):
        py = searcher(tables, "python", ORDERED)
        c = searcher(tables, "c", ORDERED)
        assert c.value(node) == py.value(node)
        assert c.nodes == py.nodes


def test_a_trick_lost_so_far_is_not_yet_lost() -> None:
    """The leader's 10 of clubs wins so far and the second hand cannot beat it, but its partner, the
    fourth hand, holds the ace over the third hand's king: the second hand's 9 (a counter) comes before
    its 2; without the ace to come, the 2 first. So too over its queen, which would win so far but not
    over the king: the partner's ace takes the trick. The kernel orders the same."""
    clubs = Suit.CLUBS * 13
    ten, nine, ace = clubs + Rank.TEN, clubs + Rank.NINE, clubs + Rank.ACE
    king, two, three = clubs + Rank.KING, clubs + Rank.TWO, clubs + Rank.THREE
    tables = counter_tables(Suit.HEARTS, {nine: 9, ten: 1})
    spades = Suit.SPADES * 13
    for fourth, first in ((ace, nine), (three, two)):
        node = Node(hand_masks([spades], [nine, two], [king, spades + 1], [fourth, spades + 2]), (ten,), 0, 0, 0)
        assert node.to_play == 1
        other = two if first == nine else nine
        assert order_score(first, node, tables) > order_score(other, node, tables)
        py = searcher(tables, "python", ORDERED)
        c = searcher(tables, "c", ORDERED)
        assert c.value(node) == py.value(node)
        assert c.nodes == py.nodes
    queen = clubs + Rank.QUEEN
    node = Node(hand_masks([spades], [nine, queen], [king, spades + 1], [ace, spades + 2]), (ten,), 0, 0, 0)
    assert order_score(nine, node, tables) > order_score(queen, node, tables)
    py = searcher(tables, "python", ORDERED)
    c = searcher(tables, "c", ORDERED)
    assert c.value(node) == py.value(node)
    assert c.nodes == py.nodes


def test_the_leads_in_order_unbeatable_then_the_partners_then_the_rest() -> None:
    """A side that wants tricks leads first what the other side cannot beat (the queen of spades: it must
    follow below), then what a partner can win (hearts, the partner's ace over the king on the other side:
    the 9, a counter for it, before the 3), then the rest (clubs, the ace on the other side: the 2 before
    the king, a counter it would give away). The kernel orders the same (the nodes of the Python search)."""
    clubs, spades, hearts, diamonds = Suit.CLUBS * 13, Suit.SPADES * 13, Suit.HEARTS * 13, Suit.DIAMONDS * 13
    king_c, two_c = clubs + Rank.KING, clubs + Rank.TWO
    queen_s = spades + Rank.QUEEN
    nine_h, three_h = hearts + Rank.NINE, hearts + Rank.THREE
    tables = counter_tables(Suit.DIAMONDS, {king_c: 3, nine_h: 9})
    hands = hand_masks(
        [king_c, queen_s, two_c, nine_h, three_h],
        [clubs + Rank.ACE, spades + Rank.TWO, hearts + Rank.KING, diamonds + Rank.TWO, diamonds + Rank.THREE],
        [hearts + Rank.ACE, spades + Rank.THREE, clubs + Rank.FOUR, diamonds + Rank.FOUR, diamonds + Rank.FIVE],
        [clubs + Rank.FIVE, spades + Rank.FOUR, hearts + Rank.FIVE, diamonds + Rank.SIX, diamonds + Rank.SEVEN],
    )
    node = Node(hands, (), 0, 0, 0)
    order = [queen_s, nine_h, three_h, two_c, king_c]
    scores = [order_score(c, node, tables) for c in order]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
    py = searcher(tables, "python", ORDERED)
    c = searcher(tables, "c", ORDERED)
    assert c.value(node) == py.value(node)
    assert c.nodes == py.nodes


GAMES: list[tuple[str, dict[str, Any]]] = [
    ("phat", {}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}),
    ("irish_don", {}),
]


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=[g for g, _ in GAMES])
@given(seed=st.integers(0, 10**6), tricks=st.integers(0, 7))
@settings(max_examples=examples(20), deadline=None)
def test_the_kernels_bounds_are_the_pythons(game: str, rules: dict[str, Any], seed: int, tricks: int) -> None:
    """At a trick's start a window just above the bounds (or just below) is answered by the bounds alone,
    in one node: the kernel's bounds (its sure cards found by masks where the chain is the trumps from the
    top) are those of ``search.bounds``."""
    from phatlog._native import _solve

    rng = random.Random(seed)
    state = phatlog.start(game, rules=rules, seed=seed)
    while len(state.tricks) < tricks or state.trick:
        state.apply(rng.choice(state.legal_actions()))
    problem = _problem(state, None, "miss")
    tables, node = problem.tables, problem.node
    if tables is None:  # before the first lead: one table a trump
        assert problem.by_trump is not None
        tables = problem.by_trump[rng.randrange(4)]
    lo, hi = bounds(tables, list(node.hands), node.g, node.flags)
    packed = _pack(tables)
    bits = BOUNDS_ONLY.bits
    args = (node.hands, node.trick, node.leader, node.g, node.flags)
    # a budget of one node: a window the bounds do not answer returns None, not a whole deal's search
    assert _solve.search(packed, *args, hi, hi + 1, bits, 0, 1) == (hi, 1)
    assert _solve.search(packed, *args, lo - 1, lo, bits, 0, 1) == (lo, 1)


@pytest.mark.deep
def test_the_portable_path_searches_the_same() -> None:
    """Without BMI2 (pdep/pext) the kernel finds touching cards bit by bit: the tests above hold there too."""
    rerun_without_bmi2(__file__, "not portable")


@pytest.mark.parametrize("engine", ["c", "points"])
@pytest.mark.parametrize(
    ("game", "rules"), [("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}), ("phat", {})]
)
def test_tables_worked_out_in_a_used_place_are_those_worked_out_afresh(
    game: str, rules: dict[str, Any], engine: str
) -> None:
    """The kernel keeps the last tables' rows in the place it reuses and works out again only the suits
    whose cards differ (a single-dummy analysis's layouts: a new deal to the solver each, most suits alike).
    Deals solved one after another, in one order and then the other, each after ``clear()``: every value
    and every node count is the same whatever was worked out in that place before."""
    from phatlog._native import _solve
    from phatlog.solver.values import solve

    states = []
    for seed in range(12):  # more deals than the kernel keeps places for tables (8)
        state = phatlog.start(game, rules=rules, seed=seed)
        for _ in range(4 * (state.hand_size() - 6)):  # six tricks left
            state.apply(state.legal_actions()[seed % len(state.legal_actions())])
        states.append(state)

    def solved(order: list[int]) -> dict[int, tuple[int, dict[Any, int], int]]:
        out = {}
        for i in order:
            _solve.clear()
            s = solve(states[i], engine=engine)
            out[i] = (s.value, s.cards, s.nodes)
        return out

    forward = solved(list(range(12)))
    assert solved(list(reversed(range(12)))) == forward
    assert solved([i for i in range(12) if i % 2] + [i for i in range(12) if not i % 2]) == forward
