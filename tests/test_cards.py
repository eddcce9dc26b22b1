"""Cards, suits and ranks: notation round trips, refusals, identity and ordering (rules reference B.1)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phatlog.rules.cards import (
    CARD_BY_TEXT,
    CARD_TEXT,
    CARDS_OF_SUIT,
    DECK,
    RANK_OF,
    SUIT_OF,
    Card,
    Rank,
    Suit,
    sort_hand,
)

RANK_ORDER = "23456789TJQKA"  # low to high (B.1.2: A K Q J 10 9 8 7 6 5 4 3 2, high to low)
SUIT_ORDER = "CDHS"  # the order of hand diagrams
ALL_TEXTS = [r + s for s in SUIT_ORDER for r in RANK_ORDER]

cards = st.sampled_from(DECK)


# ------------------------------------------------------------------------------------ the pack


def test_the_pack_is_52_distinct_cards() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert sorted(str(c) for c in DECK) == sorted(ALL_TEXTS)
    assert len(set(CARD_TEXT)) == 52


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_card_parse_str_repr_round_trip(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert repr(card) == f"Card({text!r})"
    assert Card.parse(str(card)) is card
    assert card.rank == Rank.parse(text[0])
    assert card.suit == Suit.parse(text[1])
    assert card.rank.letter + card.suit.letter == text
    assert Card.of(card.rank, card.suit) is card


def test_repr_evaluates_back_to_the_card() -> None:
    # repr(card) is written as a constructor call, Card('QH'); evaluating it must give the card back
    # (Python's convention for repr, and the "repr round trip" of the format's cards).
    for card in DECK:
        assert eval(repr(card), {"Card": Card}) is card


@given(cards)
def test_card_round_trip_over_the_deck(card: Card) -> None:
    text = str(card)
    assert len(text) == 2
    assert Card.parse(text) is card
    assert CARD_BY_TEXT[text] is card
    assert Card(int(card)) is card
    assert SUIT_OF[card] == card.suit
    assert RANK_OF[card] == card.rank
    assert card in CARDS_OF_SUIT[card.suit]
    assert card.symbol == text[0] + "♣♦♥♠"["CDHS".index(text[1])]


@given(st.sampled_from(list(Suit)), st.sampled_from(list(Rank)))
def test_card_of_rank_and_suit(suit: Suit, rank: Rank) -> None:
    card = Card.of(rank, suit)
    assert card.suit is suit
    assert card.rank is rank
    assert str(card) == rank.letter + suit.letter


def test_every_suit_holds_thirteen_cards_of_that_suit() -> None:
    for suit in Suit:
        assert len(CARDS_OF_SUIT[suit]) == 13
        assert {c.suit for c in CARDS_OF_SUIT[suit]} == {suit}
        assert {c.rank for c in CARDS_OF_SUIT[suit]} == set(Rank)


# ------------------------------------------------------------------------------------ suits and ranks


@pytest.mark.parametrize("suit", list(Suit))
def test_suit_parse_round_trip(suit: Suit) -> None:
    assert Suit.parse(str(suit)) is suit
    assert Suit.parse(suit.letter) is suit
    assert str(suit) == SUIT_ORDER[suit]


@pytest.mark.parametrize("rank", list(Rank))
def test_rank_parse_round_trip(rank: Rank) -> None:
    assert Rank.parse(str(rank)) is rank
    assert Rank.parse(rank.letter) is rank
    assert str(rank) == RANK_ORDER[rank]


def test_ranks_run_two_low_to_ace_high() -> None:
    ranks = [Rank.parse(letter) for letter in RANK_ORDER]
    assert ranks == sorted(ranks)
    assert Rank.parse("A") == max(Rank)
    assert Rank.parse("2") == min(Rank)
    assert Rank.parse("T") > Rank.parse("9")
    assert Rank.parse("J") > Rank.parse("T")


@pytest.mark.parametrize("text", ["", "c", "h", "X", "CC", " H", "H ", "♥", "1", "Hearts"])
def test_bad_suit_spellings_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Suit.parse(text)


@pytest.mark.parametrize("text", ["", "1", "10", "t", "a", "k", "0", "B", "AA", " A", "A "])
def test_bad_rank_spellings_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Rank.parse(text)


# ------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    "text",
    ["1H", "10H", "AH ", " AH", "ah", "aH", "Ah", "", "XX", "HA", "H", "A", "AHH", "TTH", "1", "♥A", "A♥", "0H", "1C"],
)
def test_bad_card_spellings_raise_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(text)


@given(st.text(max_size=4).filter(lambda s: s not in CARD_BY_TEXT))
def test_anything_else_is_not_a_card(text: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(text)


@pytest.mark.parametrize("value", [-1, 52, 53, 100])
def test_card_index_out_of_range_is_refused(value: int) -> None:
    with pytest.raises(ValueError):
        Card(value)


# ------------------------------------------------------------------------------------ identity


@given(cards)
def test_pickling_keeps_identity(card: Card) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(card, protocol=protocol))
        assert back is card
        assert type(back) is Card


def test_pickling_a_hand_keeps_every_card() -> None:
    hand = [Card.parse(t) for t in ("QH", "2C", "AS", "TD")]
    back = pickle.loads(pickle.dumps(hand))
    assert all(a is b for a, b in zip(back, hand, strict=True))
    assert copy.deepcopy(hand)[0] is hand[0]
    assert copy.copy(hand[1]) is hand[1]


@pytest.mark.parametrize("value", [*list(Suit), *list(Rank)])
def test_pickling_suits_and_ranks_keeps_identity(value: Suit | Rank) -> None:
    assert pickle.loads(pickle.dumps(value)) is value


# ------------------------------------------------------------------------------------ ordering


def _diagram_key(text: str) -> tuple[int, int]:
    return SUIT_ORDER.index(text[1]), RANK_ORDER.index(text[0])


def test_sort_hand_orders_by_suit_then_rank() -> None:
    hand = [Card.parse(t) for t in ("AS", "2C", "KD", "TD", "3H", "AC", "2S", "9D")]
    assert [str(c) for c in sort_hand(hand)] == ["2C", "AC", "9D", "TD", "KD", "3H", "2S", "AS"]


def test_sort_hand_takes_sets_and_tuples() -> None:
    hand = {Card.parse("AS"), Card.parse("2C"), Card.parse("TH")}
    assert [str(c) for c in sort_hand(hand)] == ["2C", "TH", "AS"]
    assert [str(c) for c in sort_hand(frozenset(hand))] == ["2C", "TH", "AS"]
    assert [str(c) for c in sort_hand(tuple(hand))] == ["2C", "TH", "AS"]


@given(st.lists(cards, unique=True, max_size=13))
def test_sort_hand_is_diagram_order(hand: list[Card]) -> None:
    result = sort_hand(hand)
    assert sorted(map(str, result)) == sorted(map(str, hand))
    assert [str(c) for c in result] == sorted(map(str, hand), key=_diagram_key)
    assert all(type(c) is Card for c in result)


def test_the_deck_is_in_diagram_order() -> None:
    assert [str(c) for c in DECK] == sorted(ALL_TEXTS, key=_diagram_key)
    assert sort_hand(list(reversed(DECK))) == list(DECK)
