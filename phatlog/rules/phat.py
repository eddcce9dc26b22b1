"""Phat's rules (rules reference A.2, B.2).

Four players in two partnerships, partners opposite. The whole pack is dealt, 13 cards each. The player
on the dealer's left is the pitcher, and the suit of the pitcher's first lead is trump for the deal.
Players must follow suit if able, otherwise play any card.

**The phat.** As soon as a trick is won, the winner's side pegs its counters: the nine of trumps ("Big
Phat") 18, every other nine 9, the five of trumps ("Little Phat") 10, every other five 5, and the ace,
king, queen and jack of trumps 4, 3, 2 and 1. That is 80 points a deal.

**The muck.** After the last trick each side counts the card points it took (80 in all). The side with
more than 40 pegs 8, and with it any 8s carried from tied mucks. On a 40-40 tie, ``muck_tie`` decides:
``none``, nobody pegs; ``carry``, the 8 is carried to the next deal's muck winner, and accumulates while
ties repeat (it is lost if the game ends first); ``both``, each side pegs 8, the pitcher's side first
(so under ``peg_out: immediate`` it wins when both 8s would reach the target).

**The end.** The first side to reach ``target`` (181, or Parlett's 121) wins.

>>> sum(phat_counters(Suit.HEARTS))
80
>>> [b.points for b in muck(40, pitcher=1, carry=0, tie="both").bonuses]
[8, 8]
>>> muck(40, pitcher=1, carry=8, tie="carry").carry
16
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Final, Literal, Protocol

from phatlog.rules.all_fours import AllFoursGame, Awards, Bonus, DealCards, PegOut
from phatlog.rules.cards import DECK, RANK_OF, SUIT_OF, Card, Rank, Suit
from phatlog.rules.table import side_of

#: What a 40-40 muck does.
MuckTie = Literal["none", "carry", "both"]

MUCK_BONUS: Final = 8
MUCK_TOTAL: Final = 80  # A K Q J T in four suits: 20 a suit
PHAT_TOTAL: Final = 80  # the counters of a whole deal
MOST_IN_A_TRICK: Final = 18 + 10 + 9 + 9  # the nine and five of trumps and two other nines

#: What each trump honour pegs.
TRUMP_HONOURS: Final[dict[Rank, int]] = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


@cache
def phat_counters(trump: Suit) -> tuple[int, ...]:
    """The phat: what each card pegs at once for the side that wins it."""

    def value(card: Card) -> int:
        rank, is_trump = RANK_OF[card], SUIT_OF[card] == trump
        if rank == Rank.NINE:
            return 18 if is_trump else 9
        if rank == Rank.FIVE:
            return 10 if is_trump else 5
        return TRUMP_HONOURS.get(rank, 0) if is_trump else 0

    return tuple(value(c) for c in DECK)


def counter_name(card: Card, trump: Suit) -> str | None:
    """The nine of trumps is Big Phat, the five of trumps Little Phat."""
    if SUIT_OF[card] == trump:
        return {Rank.NINE: "Big Phat", Rank.FIVE: "Little Phat"}.get(RANK_OF[card])
    return None


def muck(taken: int, pitcher: int, carry: int, tie: MuckTie, reasons: bool = True) -> Awards:
    """The muck, from the card points side 0 ``taken``: the side with more pegs 8 and the ``carry``; a
    40-40 tie by ``tie``. ``reasons`` False leaves a won muck's reason empty."""
    count = (taken, MUCK_TOTAL - taken)
    if count[0] != count[1]:
        side = 0 if count[0] > count[1] else 1
        reason = f"muck {count[0]}-{count[1]}" if reasons else ""
        if carry and reasons:
            reason += f", with {carry} carried from tied mucks"
        return Awards([Bonus(side, MUCK_BONUS + carry, "muck", reason)], 0, count)
    if tie == "both":
        first = side_of(pitcher)
        reason = "muck 40-40: both sides peg 8, the pitcher's side first"
        return Awards(
            [Bonus(first, MUCK_BONUS, "muck", reason), Bonus(1 - first, MUCK_BONUS, "muck", reason)], carry, count
        )
    if tie == "carry":
        carry += MUCK_BONUS
        return Awards([Bonus(None, 0, "muck", f"muck 40-40: {carry} carried to the next deal")], carry, count)
    return Awards([Bonus(None, 0, "muck", "muck 40-40: nobody pegs the 8")], carry, count)


def deal_total(carry: int, tie: MuckTie, tied: bool) -> int:
    """What a complete deal pegs in all: the 80 of the phat, and the muck's 8 with the carry; on a tied
    muck, 80, or 96 where both sides peg 8."""
    if not tied:
        return PHAT_TOTAL + MUCK_BONUS + carry
    return PHAT_TOTAL + 2 * MUCK_BONUS if tie == "both" else PHAT_TOTAL


class PhatRulesLike(Protocol):
    """Phat's rules as a record gives them."""

    @property
    def target(self) -> int: ...
    @property
    def peg_out(self) -> PegOut: ...
    @property
    def muck_tie(self) -> MuckTie: ...


@dataclass(frozen=True, slots=True)
class PhatGame(AllFoursGame):
    """Phat under its rules: ``muck_tie`` besides the family's."""

    muck_tie: MuckTie = "none"

    game: ClassVar[str] = "phat"
    hand_size: ClassVar[int] = 13
    most_in_a_trick: ClassVar[int] = MOST_IN_A_TRICK

    @classmethod
    def of(cls, rules: PhatRulesLike) -> PhatGame:
        return cls(rules.target, rules.peg_out, muck_tie=rules.muck_tie)

    def counters(self, trump: Suit) -> tuple[int, ...]:
        return phat_counters(trump)

    def awards(self, cards: DealCards, trump: int, pitcher: int, carry: int, reasons: bool = True) -> Awards:
        return muck(cards.game[0], pitcher, carry, self.muck_tie, reasons)

    def most_points(self, carry: int) -> int:
        return PHAT_TOTAL + 2 * MUCK_BONUS + carry

    def carry_after_passed(self, total: int, carry: int, reaches: bool) -> int:
        """A deal that pegged the muck's 8 with the carry took the carry; one that pegged only the phat,
        under ``muck_tie: carry``, carries 8 more. A deal that ended the game at a peg moves nothing."""
        if reaches and self.immediate:
            return carry
        if total == deal_total(carry, self.muck_tie, tied=False):
            return 0
        if total == deal_total(carry, self.muck_tie, tied=True) and self.muck_tie == "carry":
            return carry + MUCK_BONUS
        return carry
