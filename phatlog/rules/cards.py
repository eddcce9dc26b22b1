"""Cards, suits and ranks: small immutable values that round-trip through their notation.

A card is written rank then suit, ``"QH"``: rank in ``23456789TJQKA``, suit in ``CDHS``. That is the
only spelling in canonical JSON. ``Card`` is an ``int`` (``suit * 13 + rank``) so that the engine can
index tables by it; there are exactly 52 instances, made once, so ``Card.parse`` is a dictionary look-up.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    """The four suits, in the order C, D, H, S (the order of hand diagrams)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
        index = "CDHS".find(text) if len(text) == 1 else -1
        if index < 0:
            raise ValueError(f"not a suit: {text!r} (a suit is one of C, D, H, S)")
        return cls(index)

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """Ranks from two (low) to ace (high): the order of every suit in every game here."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse one rank letter, ``"2"`` … ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        index = RANK_LETTERS.find(text) if len(text) == 1 else -1
        if index < 0:
            raise ValueError(f"not a rank: {text!r} (a rank is one of {RANK_LETTERS})")
        return cls(index)

    def __str__(self) -> str:
        return self.letter


RANK_LETTERS: Final = "23456789TJQKA"
SUIT_LETTERS: Final = "CDHS"


class Card(int):
    """One of the 52 cards; ``Card.parse("QH")`` and ``str(card) == "QH"``."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        """``Card("QH")`` is ``Card.parse("QH")``; ``Card(36)`` is the card with that index."""
        if isinstance(value, str):
            return cls.parse(value)
        if not 0 <= value < 52:
            raise ValueError(f"a card index is 0..51, not {value}")
        deck: tuple[Card, ...] | None = globals().get("DECK")
        return deck[value] if deck is not None else super().__new__(cls, value)

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self % 13)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return DECK[suit * 13 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the canonical spelling (``"QH"``, ``"TC"``); anything else is a ``ValueError``."""
        card = CARD_BY_TEXT.get(text)
        if card is None:
            raise ValueError(
                f"not a card: {text!r} (a card is a rank in {RANK_LETTERS} then a suit in "
                f"{SUIT_LETTERS}, e.g. 'TH' for the ten of hearts)"
            )
        return card

    @property
    def symbol(self) -> str:
        """The card for people: ``"Q♥"``."""
        return RANK_LETTERS[self % 13] + "♣♦♥♠"[self // 13]

    def __str__(self) -> str:
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card({CARD_TEXT[self]!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (CARD_TEXT[self],))


CARD_TEXT: Final[tuple[str, ...]] = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
DECK: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
CARD_BY_TEXT: Final[dict[str, Card]] = {CARD_TEXT[c]: c for c in DECK}
SUIT_OF: Final[tuple[Suit, ...]] = tuple(Suit(c // 13) for c in DECK)
RANK_OF: Final[tuple[Rank, ...]] = tuple(Rank(c % 13) for c in DECK)
CARDS_OF_SUIT: Final[tuple[frozenset[Card], ...]] = tuple(frozenset(c for c in DECK if c // 13 == s) for s in Suit)


def sort_hand(cards: list[Card] | tuple[Card, ...] | frozenset[Card] | set[Card]) -> list[Card]:
    """Cards in diagram order: by suit C, D, H, S, and within a suit from low to high."""
    return sorted(cards)
