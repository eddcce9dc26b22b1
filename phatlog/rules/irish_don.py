"""Irish Don's rules (rules reference A.4, B.3.3).

Irish Don is played as Phat, with Phat's counters, but with no muck and no bonus of any kind: the 13
tricks share out exactly 80 points a deal. All 52 cards are dealt, 13 to each of four players in two
partnerships; the suit of the pitcher's first lead is trump; players must follow suit if able.

**The first pitcher** is the player who holds the two of diamonds after the first deal; the first deal's
dealer is therefore on that player's right. From then on the deal passes to the left as usual.

**The end.** ``target`` 81 ("over 80").

>>> first_dealer(2)
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, Protocol

from phatlog.rules.all_fours import AllFoursGame, Awards, DealCards, PegOut
from phatlog.rules.cards import RANK_OF, SUIT_OF, Card, Rank, Suit
from phatlog.rules.phat import MOST_IN_A_TRICK, PHAT_TOTAL, phat_counters
from phatlog.rules.table import SEATS, dealer_for

#: The holder of this card after the first deal pitches first.
FIRST_PITCH_CARD: Final = Card.parse("2D")
DEAL_TOTAL: Final = PHAT_TOTAL  # the counters of a whole deal: Phat's phat


def first_dealer(holder: int) -> int:
    """The first deal's dealer, from the seat that holds the two of diamonds (who pitches first)."""
    return dealer_for(holder, SEATS)


def counter_name(card: Card, trump: Suit) -> str | None:
    """The nine of trumps is Big Don, the five of trumps Small Don."""
    if SUIT_OF[card] == trump:
        return {Rank.NINE: "Big Don", Rank.FIVE: "Small Don"}.get(RANK_OF[card])
    return None


class IrishDonRulesLike(Protocol):
    """Irish Don's rules as a record gives them."""

    @property
    def target(self) -> int: ...
    @property
    def peg_out(self) -> PegOut: ...


@dataclass(frozen=True, slots=True)
class IrishDonGame(AllFoursGame):
    """Irish Don under its rules: Phat's counters and nothing else."""

    game: ClassVar[str] = "irish_don"
    hand_size: ClassVar[int] = 13
    most_in_a_trick: ClassVar[int] = MOST_IN_A_TRICK

    @classmethod
    def of(cls, rules: IrishDonRulesLike) -> IrishDonGame:
        return cls(rules.target, rules.peg_out)

    def counters(self, trump: Suit) -> tuple[int, ...]:
        return phat_counters(trump)

    def awards(self, cards: DealCards, trump: int, pitcher: int, carry: int, reasons: bool = True) -> Awards:
        """No muck and no bonus."""
        return Awards([], carry, None)

    def most_points(self, carry: int) -> int:
        return DEAL_TOTAL
