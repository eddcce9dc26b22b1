"""The table: seats, sides, the deal's rotation, who leads first, and the pitch that makes trump.

The seats are numbered 0 to n-1 clockwise, so the seat on a player's left is the next one; after the
last seat comes seat 0 again. Everything passes to the left: the deal, the bidding, the play.

The dealer deals one card at a time, starting with the player on their left. The player on the dealer's
left leads to the first trick (and in Oh Hell bids first); after a deal the deal passes to the left, so
the next dealer is the one on this dealer's left.

In the All Fours family four players sit in two partnerships, partners opposite: side 0 is seats 0 and
2, side 1 is seats 1 and 3. The player on the dealer's left is the pitcher, and the suit of the
pitcher's first lead is trump for the deal.

>>> left_of(3, 4), first_leader(3, 4), dealer_for(0, 4)
(0, 0, 3)
>>> [side_of(seat) for seat in range(4)]
[0, 1, 0, 1]
>>> trump_of_pitch(Card.parse("9H")).name
'HEARTS'
"""

from __future__ import annotations

from typing import Final

from phatlog.rules.cards import SUIT_OF, Card, Suit

#: The All Fours family is for four players, in two sides of two.
SEATS: Final = 4


def in_turn(seat: int, k: int, seats: int) -> int:
    """The seat ``k`` places to the left of ``seat`` (0: ``seat`` itself): the order of play, bids and deals."""
    return (seat + k) % seats


def left_of(seat: int, seats: int) -> int:
    """The seat on a seat's left: the next to play, bid or deal."""
    return (seat + 1) % seats


def right_of(seat: int, seats: int) -> int:
    """The seat on a seat's right: the one it follows."""
    return (seat - 1) % seats


def next_dealer(dealer: int, seats: int) -> int:
    """After a deal the deal passes to the left."""
    return left_of(dealer, seats)


def first_leader(dealer: int, seats: int) -> int:
    """The dealer's left leads to the first trick (the pitcher; in Oh Hell also the first to bid), and is
    dealt the first card."""
    return left_of(dealer, seats)


def dealer_for(leader: int, seats: int) -> int:
    """The dealer of a deal whose first leader is ``leader``: the seat on that player's right."""
    return right_of(leader, seats)


def pitcher(dealer: int) -> int:
    """The All Fours family's pitcher: the dealer's left."""
    return first_leader(dealer, SEATS)


def side_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat & 1


def trump_of_pitch(first_lead: Card) -> Suit:
    """The suit of the pitcher's first lead is trump."""
    return SUIT_OF[first_lead]
