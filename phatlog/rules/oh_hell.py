"""Oh Hell: the rules, written once (rules reference A.5 and B.4).

**Seats.** Three to seven players, each for themselves, seated clockwise. The deal passes to the left
after each hand.

**Hand sizes.** The ``schedule`` says how many cards each player is dealt in each hand: ``up`` deals 1,
2, ... N; ``down`` N ... 1; ``up_down`` 1 ... N ... 1 and ``down_up`` N ... 1 ... N (the turning hand is
played once); or an explicit list of hand sizes, played as listed. N, the largest hand, is 15, 13, 10, 8
or 7 for 3 to 7 players, unless ``max_cards`` says otherwise (it caps a named schedule only). No hand may
deal more cards than the pack holds. The game ends when every hand of the schedule has been played.

**Trump.** After the deal the next card of the pack is turned up, and its suit is trump for the hand. A
hand that leaves no card to turn up is played without trump, and under ``no_trump: last_hand`` (the
default) so is the game's last hand; under ``never`` every other hand has a trump. Without trump the
highest card of the suit led wins every trick.

**Bidding.** Each player bids how many tricks they will take, from 0 to the hand size; nobody passes.
Bids are made in turn from the dealer's left, the dealer last (``sequential``), or all at once
(``simultaneous``). Under the ``hook`` the dealer may not bid the number that would make the bids add up
to the hand size. The hook needs a last bidder, so it does not go with simultaneous bidding: that
combination is not a game.

**Play.** The dealer's left leads to the first trick, and the winner of each trick leads the next.
Players must follow suit if able; under ``must_trump`` (La Podrida) a player who cannot follow must play
a trump if they hold one (any trump).

**Scoring.** A player who takes exactly the number of tricks bid has made the bid and scores 10 + the
tricks taken; under ``zero_bid: five_plus_cards`` a made bid of zero scores 5 + the hand size instead.
A missed bid scores 0 (``miss: zero``), one a trick taken (``tricks``), or minus the difference between
the bid and the tricks taken (``minus_diff``). The highest total after the last hand wins; equal totals
share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final, Literal, TypeAlias

from phatlog.rules.cards import DECK, Card, Suit
from phatlog.rules.trick import FollowRule

# --------------------------------------------------------------------------- the rules' parameters

Schedule: TypeAlias = Literal["up", "down", "up_down", "down_up"]
NoTrump: TypeAlias = Literal["last_hand", "never"]
Bidding: TypeAlias = Literal["sequential", "simultaneous"]
Miss: TypeAlias = Literal["zero", "tricks", "minus_diff"]
ZeroBid: TypeAlias = Literal["standard", "five_plus_cards"]

# --------------------------------------------------------------------------- seats

#: How many may play.
PLAYERS: Final = range(3, 8)

#: The cards in the pack.
PACK: Final = len(DECK)

# --------------------------------------------------------------------------- hand sizes

#: N, the largest hand of a named schedule (and its number of hands), by number of players.
DEFAULT_MAX_CARDS: Final = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}


def hand_sizes(players: int, schedule: Schedule | Sequence[int] = "up", max_cards: int | None = None) -> list[int]:
    """The number of cards dealt to each player in each hand of a complete game: a list is played as
    listed; a named schedule runs to ``max_cards``, or to N for the number of players (a ``KeyError``
    for a number of players outside 3 to 7)."""
    if not isinstance(schedule, str):
        return list(schedule)
    top = max_cards or DEFAULT_MAX_CARDS[players]
    up = list(range(1, top + 1))
    down = up[::-1]
    return {"up": up, "down": down, "up_down": up + down[1:], "down_up": down + up[1:]}[schedule]


def fits_pack(players: int, size: int) -> bool:
    """Whether the pack holds enough cards to deal ``size`` to each player."""
    return players * size <= PACK


# --------------------------------------------------------------------------- trump


def leaves_turnup(players: int, size: int) -> bool:
    """Whether a card is left to turn up after dealing ``size`` to each player."""
    return players * size < PACK


def has_trump(players: int, size: int, last: bool, no_trump: NoTrump = "last_hand") -> bool:
    """Whether a hand is played with a trump (a turned-up card): not when no card is left to turn up, nor
    in the game's last hand (``last``) under ``no_trump: last_hand``."""
    return leaves_turnup(players, size) and not (last and no_trump == "last_hand")


def no_trump_reason(players: int, size: int, last: bool, no_trump: NoTrump = "last_hand") -> str | None:
    """Why a hand has no trump (``has_trump``'s two reasons, in its order), or None if it has one."""
    if not leaves_turnup(players, size):
        return "no card is left to turn up"
    if last and no_trump == "last_hand":
        return "the game's last hand is played without trump"
    return None


def trump_of(turnup: Card | None) -> Suit | None:
    """The trump: the suit of the turned-up card (None: no card is turned up, no trump)."""
    return None if turnup is None else turnup.suit


# --------------------------------------------------------------------------- bidding


def bidding_order(dealer: int, players: int) -> list[int]:
    """The seats in the order they bid: from the dealer's left round to the dealer, who bids last."""
    return [(dealer + 1 + i) % players for i in range(players)]


def hook_applies(hook: bool, bidding: Bidding) -> bool:
    """Whether the hook binds the dealer: it forbids the last bidder one bid, so only in sequential bidding."""
    return hook and bidding == "sequential"


def hook_without_last_bidder(hook: bool, bidding: Bidding) -> bool:
    """Whether the rules ask for the hook with simultaneous bidding, which has no last bidder: not a game."""
    return hook and bidding == "simultaneous"


def forbidden_bid(bids_before: int, size: int) -> int | None:
    """The dealer's bid that the hook forbids: the one that makes the bids add up to the hand size, given
    the others' bids (``bids_before``, their sum); None where no bid from 0 to the hand size does."""
    forbidden = size - bids_before
    return forbidden if 0 <= forbidden <= size else None


def legal_bids(size: int, bids_before: int = 0, *, dealer: bool = False, hook: bool = False) -> list[int]:
    """The bids a player may make: 0 to the hand size; under the hook (``hook``: it applies, see
    ``hook_applies``) the dealer, bidding last, may not make the bids (``bids_before``: the others') add
    up to the hand size. The dealer always has a bid left."""
    bids = list(range(size + 1))
    if hook and dealer:
        forbidden = forbidden_bid(bids_before, size)
        if forbidden is not None:
            bids.remove(forbidden)
    return bids


# --------------------------------------------------------------------------- play


def first_leader(dealer: int, players: int) -> int:
    """The seat that leads to the first trick: the dealer's left."""
    return (dealer + 1) % players


def follow_rule(must_trump: bool) -> FollowRule:
    """What a player must play to a trick: follow suit if able; under ``must_trump`` (La Podrida), also
    trump if unable to follow."""
    return FollowRule.MUST_TRUMP if must_trump else FollowRule.MUST_FOLLOW


# --------------------------------------------------------------------------- scoring


def made(bid: int, took: int) -> bool:
    """Whether a player made their bid: took exactly the tricks bid."""
    return took == bid


def hand_score(bid: int, took: int, size: int, miss: Miss = "zero", zero_bid: ZeroBid = "standard") -> int:
    """What one player scores for one hand of ``size`` cards: 10 + the tricks for a made bid (5 + the hand
    size for a made zero under ``five_plus_cards``); for a missed one 0, the tricks taken, or minus the
    difference, as ``miss`` says."""
    if made(bid, took):
        if bid == 0 and zero_bid == "five_plus_cards":
            return 5 + size
        return 10 + took
    if miss == "tricks":
        return took
    if miss == "minus_diff":
        return -abs(bid - took)
    return 0


@cache
def score_table(size: int, miss: Miss = "zero", zero_bid: ZeroBid = "standard") -> tuple[tuple[int, ...], ...]:
    """``hand_score`` as a table for a hand of ``size`` cards: ``score_table(...)[bid][took]`` for every
    bid and tricks taken from 0 to the hand size."""
    return tuple(tuple(hand_score(b, t, size, miss, zero_bid) for t in range(size + 1)) for b in range(size + 1))


def winners(totals: Sequence[int]) -> list[int]:
    """The seats with the highest total after the last hand: equal totals share the win."""
    best = max(totals)
    if totals.count(best) == 1:  # (the common case, for less)
        return [totals.index(best)]
    return [seat for seat, total in enumerate(totals) if total == best]
