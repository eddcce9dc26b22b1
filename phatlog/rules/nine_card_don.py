"""Nine-card Don's rules (rules reference A.3, B.3.1-B.3.2).

Four players in two partnerships, partners opposite. Each is dealt 9 cards; the other 16 are set aside.
The player on the dealer's left is the pitcher, and the suit of the pitcher's first lead is trump.
Players must follow suit if able (``follow: must_follow``), or under the old rule may trump instead even
when able to follow (``follow: follow_or_trump``).

**Counters**, pegged at once by the side that wins the trick: the five of trumps 10, every other five 5,
the nine of trumps 9 (other nines count nothing), and the ace, king, queen and jack of trumps 4, 3, 2
and 1.

**Game.** After the last trick each side counts the card points it took. The ``bonus`` scheme then
awards, in this order:

- ``game_8``: 8 to the side with the greater game count;
- ``six_high_jack``: 6 for game, 1 for high, 1 for jack;
- ``five_high_low_jack``: 5 for game, 1 for high, 1 for low, 1 for jack.

High and low are the highest and lowest trump among the cards dealt. High goes to the side that was
dealt it. Low goes to the side dealt it, or under ``low_to: capturer`` to the side that wins it in a
trick. Jack goes to the side that wins the jack of trumps; if the jack was not dealt nobody scores it.
On equal game counts nobody scores game. The bonuses come on top of the counters.

>>> sum(don_counters(Suit.SPADES))
44
>>> cards = DealCards((30, 12), (Card.parse("AS"), 1), (Card.parse("2S"), 0), 1, None)
>>> [(b.label, b.side, b.points) for b in don_awards(cards, Suit.SPADES, "five_high_low_jack", False)]
[('game', 0, 5), ('high', 1, 1), ('low', 0, 1), ('jack', None, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Final, Literal, Protocol

from phatlog.rules.all_fours import AllFoursGame, Awards, Bonus, DealCards, PegOut
from phatlog.rules.cards import CARD_TEXT, DECK, RANK_OF, SUIT_OF, Card, Rank, Suit
from phatlog.rules.table import side_of
from phatlog.rules.trick import FollowRule

#: The end-of-deal bonus schemes.
DonBonus = Literal["game_8", "six_high_jack", "five_high_low_jack"]
#: Who scores low under ``five_high_low_jack``.
LowTo = Literal["holder", "capturer"]
#: An end-of-deal award of the Don games.
DonAward = Literal["game", "high", "low", "jack"]

#: What game is worth under each scheme.
GAME_VALUE: Final[dict[str, int]] = {"game_8": 8, "six_high_jack": 6, "five_high_low_jack": 5}
MOST_IN_A_TRICK: Final = 10 + 9 + 5 + 5  # the five and nine of trumps and two other fives
COUNTERS_TOTAL: Final = 44  # every counter: trump 9 5 A K Q J and the plain fives
BONUS_TOTAL: Final = 8  # every scheme's bonuses come to 8

#: What each trump counter other than the five pegs.
TRUMP_COUNTERS: Final[dict[Rank, int]] = {Rank.NINE: 9, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


@cache
def don_counters(trump: Suit) -> tuple[int, ...]:
    """Nine-card Don's counters: what each card pegs at once for the side that wins it."""

    def value(card: Card) -> int:
        rank, is_trump = RANK_OF[card], SUIT_OF[card] == trump
        if rank == Rank.FIVE:
            return 10 if is_trump else 5
        return TRUMP_COUNTERS.get(rank, 0) if is_trump else 0

    return tuple(value(c) for c in DECK)


#: The end-of-deal awards of each bonus scheme, in the order they are pegged: game, then high, low and
#: jack as the scheme has them.
SCHEME_AWARDS: Final[dict[DonBonus, tuple[DonAward, ...]]] = {
    "game_8": ("game",),
    "six_high_jack": ("game", "high", "jack"),
    "five_high_low_jack": ("game", "high", "low", "jack"),
}
#: What high, low and jack are each worth (game's value is the scheme's, ``GAME_VALUE``).
POINT_AWARD: Final = 1


def don_awards(
    cards: DealCards, trump: int, scheme: DonBonus, low_to_capturer: bool, reasons: bool = True
) -> list[Bonus]:
    """The scheme's awards (``SCHEME_AWARDS``) in the order they are pegged. ``reasons`` False leaves the
    reasons of the awards scored empty."""
    out: list[Bonus] = []
    for award in SCHEME_AWARDS[scheme]:
        if award == "game":
            game = cards.game
            if game[0] != game[1]:
                why = f"game {game[0]}-{game[1]}" if reasons else ""
                out.append(Bonus(0 if game[0] > game[1] else 1, GAME_VALUE[scheme], "game", why))
            else:
                out.append(Bonus(None, 0, "game", f"game {game[0]}-{game[1]}: equal, nobody scores game"))
        elif award == "high":
            assert cards.high is not None  # the pitcher's lead was a trump: always one
            high, high_seat = cards.high
            why = f"high: {high}, the highest trump dealt" if reasons else ""
            out.append(Bonus(side_of(high_seat), POINT_AWARD, "high", why))
        elif award == "low":
            assert cards.low is not None  # the pitcher's lead was a trump: always one
            low, low_seat = cards.low
            if low_to_capturer:
                side = 0 if cards.low_side == 0 else 1
                why = f"low: {low}, the lowest trump dealt, to the side that won it" if reasons else ""
                out.append(Bonus(side, POINT_AWARD, "low", why))
            else:
                why = f"low: {low}, the lowest trump dealt, to its holder" if reasons else ""
                out.append(Bonus(side_of(low_seat), POINT_AWARD, "low", why))
        else:
            jack = CARD_TEXT[trump * 13 + Rank.JACK]
            if cards.jack_side is not None:
                out.append(
                    Bonus(cards.jack_side, POINT_AWARD, "jack", f"jack: {jack} won in a trick" if reasons else "")
                )
            else:
                out.append(Bonus(None, 0, "jack", f"jack: {jack} was not dealt, nobody scores it"))
    return out


class NineCardDonRulesLike(Protocol):
    """Nine-card Don's rules as a record gives them."""

    @property
    def target(self) -> int: ...
    @property
    def peg_out(self) -> PegOut: ...
    @property
    def bonus(self) -> DonBonus: ...
    @property
    def low_to(self) -> LowTo | None: ...
    @property
    def follow(self) -> Literal["must_follow", "follow_or_trump"]: ...


@dataclass(frozen=True, slots=True)
class NineCardDonGame(AllFoursGame):
    """Nine-card Don under its rules: the ``bonus`` scheme and ``low_to`` besides the family's."""

    bonus: DonBonus = "game_8"
    low_to: LowTo | None = None

    game: ClassVar[str] = "nine_card_don"
    hand_size: ClassVar[int] = 9
    reads_dealt: ClassVar[bool] = True
    leaves_undealt: ClassVar[bool] = True
    most_in_a_trick: ClassVar[int] = MOST_IN_A_TRICK

    @classmethod
    def of(cls, rules: NineCardDonRulesLike) -> NineCardDonGame:
        return cls(rules.target, rules.peg_out, FollowRule(rules.follow), bonus=rules.bonus, low_to=rules.low_to)

    @property
    def low_to_capturer(self) -> bool:
        return self.low_to == "capturer"

    def counters(self, trump: Suit) -> tuple[int, ...]:
        return don_counters(trump)

    def awards(self, cards: DealCards, trump: int, pitcher: int, carry: int, reasons: bool = True) -> Awards:
        return Awards(don_awards(cards, trump, self.bonus, self.low_to_capturer, reasons), carry, cards.game)

    def most_points(self, carry: int) -> int:
        return COUNTERS_TOTAL + BONUS_TOTAL
