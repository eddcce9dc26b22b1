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

:class:`TrickPlay` is the play of one deal's tricks, written once: the hands as they are played down,
whose turn it is, when a trick is complete, the tricks each seat has taken, and that the winner leads
next. Everything that plays tricks drives it, card by card: the State (``state.State._play``, for a
bot or ``phatlog.states``, with cards as :class:`Card`) and both referees (``deal_check.play_tricks``,
with the record's card texts). What they add is their own: the State refuses an illegal card before
playing it; the referee words what is wrong with a recorded trick, in its family's order.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from enum import StrEnum
from typing import Final, Generic, TypeVar

from phatlog.rules.cards import CARDS_OF_SUIT, DECK, Card, Suit


class FollowRule(StrEnum):
    """What a player must play to a trick that someone else led."""

    MUST_FOLLOW = "must_follow"
    FOLLOW_OR_TRUMP = "follow_or_trump"
    MUST_TRUMP = "must_trump"


def seat_of(leader: int, position: int, seats: int) -> int:
    """The seat that played the card at ``position`` in a trick led by ``leader``."""
    return (leader + position) % seats


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


#: A card as a trick's play tracks it: its text (the referees, reading a record) or a :class:`Card`.
C = TypeVar("C", bound=Hashable)


class TrickPlay(Generic[C]):
    """The tricks of one deal being played, card by card: ``held`` are the hands by seat (played down as
    the cards are played), ``leader`` leads the trick being played (``trick``, its cards so far),
    ``taken`` counts the tricks each seat has won, ``played`` the tricks finished.

    The State plays a card at a time (:meth:`play`), a referee a recorded trick at once
    (:meth:`play_cards`). The rules of a card (``may_play``) and of the winner (``winning_position``) are
    not here: a driver asks them around :meth:`play` and before :meth:`close`, so each words a fault
    its own way.
    """

    __slots__ = ("held", "leader", "played", "seats", "taken", "trick")

    def __init__(self, held: list[set[C]], leader: int) -> None:
        self.held = held
        self.seats = len(held)
        self.leader = leader
        self.trick: list[C] = []
        self.taken = [0] * self.seats
        self.played = 0

    @property
    def turn(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % self.seats

    def play(self, card: C) -> bool:
        """The seat to play plays ``card`` from its hand (which must hold it: KeyError if not); True when
        that completes the trick (then :meth:`close` it)."""
        trick = self.trick
        self.held[(self.leader + len(trick)) % self.seats].remove(card)
        trick.append(card)
        return len(trick) == self.seats

    def play_cards(self, cards: Sequence[C]) -> int:
        """Play a whole trick's cards in turn from its lead (the referees: a recorded trick), up to the
        first that its player does not hold: how many were played."""
        held, seats, leader = self.held, self.seats, self.leader
        played = 0
        for card in cards:
            try:
                held[(leader + played) % seats].remove(card)
            except KeyError:
                break
            played += 1
        self.trick.extend(cards if played == len(cards) else cards[:played])
        return played

    def close(self, position: int) -> int:
        """Finish the complete trick, won by the card at ``position`` (``winning_position``): its winner
        takes it and leads the next. Returns the winner."""
        winner = (self.leader + position) % self.seats
        self.taken[winner] += 1
        self.played += 1
        self.leader = winner
        self.trick = []
        return winner
