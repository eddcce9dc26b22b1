"""The solver kernel's per-node bookkeeping (phatlog/analysis/_solve.c): what it keeps as the tricks are
played rather than works out at each node (the cards still in play, the trick's place) gives the moves and
values of the Python search."""

from __future__ import annotations

import random

import pytest

from phatlog.analysis import c_available
from phatlog.analysis.position import Node, Tables, allow_table, strength_row
from phatlog.analysis.search import Techniques, searcher
from phatlog.cards import Rank, Suit
from phatlog.engine.tricks import FollowRule

pytestmark = pytest.mark.skipif(not c_available(), reason="the C solver is not built")

EQUIVALENCE_ONLY = Techniques(tt=False, equivalence=True, ordering=False, bounds=False, mtdf=False, relative=False)


def _tables(trump: int, counters: dict[int, int]) -> Tables:
    """Four seats, two sides, the given counters and nothing at the end of the deal."""
    counter = [0] * 52
    for card, points in counters.items():
        counter[card] = points
    return Tables(
        4,
        trump,
        strength_row(trump),
        allow_table(FollowRule.MUST_FOLLOW, trump),
        tuple(counter),
        (0,) * 52,
        (0,) * 52,
        0,
        (0,) * 4,
        (0, 1, 0, 1),
    )


def _hands(*cards: list[int]) -> tuple[int, ...]:
    return tuple(sum(1 << c for c in h) for h in cards)


def test_a_card_in_the_trick_parts_two_cards_of_a_hand() -> None:
    """The 6 of clubs led (a counter) lies between the 5 and the 7 of the second hand: they do not touch,
    so the 7 is searched and takes the counter (-1); were the trick's card left out of the cards in play,
    the 5 alone would be searched (+1)."""
    clubs = Suit.CLUBS * 13
    six, five, seven = clubs + Rank.SIX, clubs + Rank.FIVE, clubs + Rank.SEVEN
    tables = _tables(Suit.HEARTS, {six: 1})
    spades = Suit.SPADES * 13
    hands = _hands([spades + 9], [five, seven], [spades, spades + 1], [spades + 2, spades + 3])
    node = Node(hands, (six,), 0, 0, 0)
    py = searcher(tables, "python", EQUIVALENCE_ONLY)
    c = searcher(tables, "c", EQUIVALENCE_ONLY)
    assert py.value(node) == c.value(node) == -1
    assert c.nodes == py.nodes


@pytest.mark.parametrize("seed", range(8))
def test_the_kernel_searches_the_pythons_nodes_from_inside_a_trick(seed: int) -> None:
    """Random four-card endings started at each card of the first trick: the kernel (touching cards only,
    so the nodes are comparable) searches as many nodes as the Python search and finds its value, the
    tricks that follow each taking their own place."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    trump = rng.randrange(4)
    tables = _tables(trump, {c: rng.choice((0, 0, 1, 2, 5)) for c in range(52)})
    cards = [deck[k * 4 : k * 4 + 4] for k in range(4)]
    leader = rng.randrange(4)
    trick: list[int] = []
    for k in range(4):
        hands = _hands(*cards)
        node = Node(hands, tuple(trick), leader, 0, 0)
        py = searcher(tables, "python", EQUIVALENCE_ONLY)
        c = searcher(tables, "c", EQUIVALENCE_ONLY)
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
