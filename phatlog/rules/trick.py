"""Trick mechanics shared by every game: following suit, and who wins a trick.

A trick is one card from each player in turn, starting with the leader; the suit of the first card is
the suit led. The highest trump in the trick wins it; if no trump was played (or there is no trump),
the highest card of the suit led wins. Cards of any other suit never win. The winner leads next.

Whether a card may be played depends on the follow rule:

- ``must_follow``: a player holding a card of the suit led must play one; a player who holds none may
  play any card.
- ``follow_or_trump``: the old Don rule; a player may always play a trump instead of following suit.
- ``must_trump``: La Podrida; as ``must_follow``, and a player who cannot follow must play a trump if
  they hold one (any trump: nobody is obliged to over-trump).

These functions are written once for 3 to 7 seats and every game uses them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import StrEnum
from typing import Final

from phatlog.rules.cards import CARDS_OF_SUIT, DECK, Card, Suit
from phatlog.rules.table import in_turn


class FollowRule(StrEnum):
    """What a player must play to a trick that someone else led."""

    MUST_FOLLOW = "must_follow"
    FOLLOW_OR_TRUMP = "follow_or_trump"
    MUST_TRUMP = "must_trump"


def seat_of(leader: int, position: int, seats: int) -> int:
    """The seat that played the card at ``position`` in a trick led by ``leader``: play passes to the left."""
    return in_turn(leader, position, seats)


def winning_position(cards: Sequence[Card], trump: Suit | None) -> int:
    """The position (0 = the lead) of the card that wins the trick."""
    led = cards[0] // 13
    best = 0
    best_key = _key(cards[0], led, trump)
    for position in range(1, len(cards)):
        key = _key(cards[position], led, trump)
        if key > best_key:
            best, best_key = position, key
    return best


def _key(card: Card, led: int, trump: Suit | None) -> int:
    """How strongly a card contends: trumps beat the suit led, which beats everything else."""
    suit = card // 13
    if suit == trump:
        return 200 + card % 13
    if suit == led:
        return 100 + card % 13
    return -1


#: ``STRENGTH[trump][led][card]``: the same order as ``_key``, as tables for the engine's hot loop.
#: ``trump`` is 0..3 or 4 for no trump.
STRENGTH: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(_key(card, led, None if trump == 4 else Suit(trump)) for card in DECK) for led in range(4))
    for trump in range(5)
)


def explain_winner(cards: Sequence[Card], trump: Suit | None, rule: FollowRule = FollowRule.MUST_FOLLOW) -> str:
    """Why the winning card wins, in words: "highest trump", "void in spades, trumped", or
    "highest heart, the suit led". (Under ``follow_or_trump`` a lone trump need not mean a void.)"""
    position = winning_position(cards, trump)
    card = cards[position]
    led = Suit(cards[0] // 13)
    if trump is not None and card // 13 == trump and led != trump:
        trumps = sum(1 for c in cards if c // 13 == trump)
        if trumps > 1:
            return f"highest trump, {led.name.lower()} led"
        if rule is FollowRule.FOLLOW_OR_TRUMP:
            return f"the only trump, {led.name.lower()} led"
        return f"void in {led.name.lower()}, trumped"
    if trump is not None and led == trump:
        return "highest trump"
    return f"highest {led.name.lower()[:-1]}, the suit led"


def holds_suit(hand: Collection[Card], suit: int) -> bool:
    """True if the hand holds at least one card of the suit."""
    return not CARDS_OF_SUIT[suit].isdisjoint(hand)


def cards_of_suit(hand: Collection[Card], suit: int) -> list[Card]:
    """The hand's cards of one suit, low to high."""
    return sorted(CARDS_OF_SUIT[suit].intersection(hand))


def may_play(card: Card, hand: Collection[Card], led: Suit | None, trump: Suit | None, rule: FollowRule) -> bool:
    """True if playing ``card`` from ``hand`` follows the rules (``led`` is None for a lead)."""
    if led is None:
        return True
    suit = card // 13
    if suit == led:
        return True
    if holds_suit(hand, led):
        return rule is FollowRule.FOLLOW_OR_TRUMP and trump is not None and suit == trump
    if rule is FollowRule.MUST_TRUMP and trump is not None and suit != trump:
        return not holds_suit(hand, trump)
    return True


def legal_plays(hand: Collection[Card], led: Suit | None, trump: Suit | None, rule: FollowRule) -> list[Card]:
    """Every card of ``hand`` that may be played, low to high."""
    return [c for c in sorted(hand) if may_play(c, hand, led, trump, rule)]


# Tables keyed by the canonical card text, for the hot loops: a record's cards are strings, and a
# dictionary look-up of a string is the cheapest way to get from the record to the rules.

#: The suit (0..3) of each card text.
SUIT_BY_TEXT: Final[dict[str, int]] = {str(c): c // 13 for c in DECK}
#: The card texts of each suit (0..3).
TEXTS_OF_SUIT: Final[tuple[frozenset[str], ...]] = tuple(
    frozenset(str(c) for c in DECK if c // 13 == suit) for suit in range(4)
)
#: The rank (0 = two .. 12 = ace) of each card text.
RANK_BY_TEXT: Final[dict[str, int]] = {str(c): c % 13 for c in DECK}
#: ``STRENGTH_BY_TEXT[trump][led][text]``: ``STRENGTH`` keyed by card text; trump 4 is no trump.
STRENGTH_BY_TEXT: Final[tuple[tuple[dict[str, int], ...], ...]] = tuple(
    tuple({str(c): STRENGTH[trump][led][c] for c in DECK} for led in range(4)) for trump in range(5)
)


def text_winning_position(cards: Sequence[str], trump: int) -> int:
    """``winning_position`` for card texts (``trump`` 0..3, or 4 for no trump), by the same ``STRENGTH``
    order: the referees' trick winner."""
    strength = STRENGTH_BY_TEXT[trump][SUIT_BY_TEXT[cards[0]]]
    keys = [strength[c] for c in cards]
    return keys.index(max(keys))
