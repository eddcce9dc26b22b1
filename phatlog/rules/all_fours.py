"""The All Fours family's rules: what Phat, Nine-card Don and Irish Don share.

Four players sit in two partnerships (``table.side_of``). The pitcher, on the dealer's left, leads to
the first trick, and the suit of that card is trump (``table.trump_of_pitch``). The trick is played by
``trick``'s rules, under the game's follow rule.

**Counters.** As soon as a trick is won, the winner's side pegs the counters in it: which cards count,
and how much, is each game's own table (``counters``).

**Card points.** After the last trick each side counts the card points of the cards it took: ace 4,
king 3, queen 2, jack 1, ten 10, in every suit, trumps included (``GAME_POINTS``: 80 in the pack). This
is Phat's muck and Nine-card Don's game.

**Awards.** The game's end-of-deal awards (Phat's muck, Don's game, high, low and jack) are worked out
from what they read of the deal's cards (``DealCards``) and pegged one by one in the order the game
gives them (``peg_bonuses``). An award to nobody, or of no points, is not pegged.

**The end.** The first side to reach the target wins. Under ``peg_out: immediate`` the game ends at the
very peg that reaches it (``peg``), in the middle of a deal if so: the rest of that deal is not played
and no award is pegged. Under ``end_of_deal`` the target is looked at only after the awards: the higher
total wins, and equal totals play on (``end_of_deal_winner``).

>>> card_points(["AS", "TH", "9C", "JD"])
15
>>> totals = [175, 90]
>>> peg(totals, 0, 6, 181, immediate=True), totals
(True, [181, 90])
>>> end_of_deal_winner([181, 181], 181), end_of_deal_winner([185, 181], 181)
(None, 0)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, NamedTuple

from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, DECK, RANK_OF, Card, Rank, Suit
from phatlog.rules.table import SEATS
from phatlog.rules.trick import SUIT_BY_TEXT, FollowRule

#: When the target is looked at: at every peg, or after the deal's awards.
PegOut = Literal["immediate", "end_of_deal"]

#: The card points of each rank that has any.
RANK_POINTS: Final[dict[Rank, int]] = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10}

#: Card points of Phat's muck and Don's game, by card text: A 4, K 3, Q 2, J 1, T 10, in every suit.
GAME_POINTS: Final[dict[str, int]] = {CARD_TEXT[c]: RANK_POINTS.get(RANK_OF[c], 0) for c in DECK}


def card_points(cards: Iterable[str]) -> int:
    """The muck (Phat) or game (Don) count of some cards."""
    return sum(map(GAME_POINTS.__getitem__, cards))


class Bonus(NamedTuple):
    """An end-of-deal award: ``points`` to ``side`` (None: nobody scores it), and why."""

    side: int | None
    points: int
    label: str
    reason: str


class DealCards(NamedTuple):
    """What the end-of-deal awards read of a played deal's cards: the game (muck) count of the cards each
    side took; the highest and lowest trump dealt, each as (card, seat dealt it), None where not asked for;
    the side that took the lowest trump and the side that took the jack of trumps (None: nobody). The C
    kernel works these out with the play; ``deal_cards`` is the reference."""

    game: tuple[int, int]
    high: tuple[Card, int] | None
    low: tuple[Card, int] | None
    low_side: int | None
    jack_side: int | None


def deal_cards(
    captured: tuple[Iterable[str], Iterable[str]], dealt: Sequence[Iterable[str]] | None, trump: int
) -> DealCards:
    """``DealCards`` from the cards each side took (card texts) and, for high and low, the hands as dealt."""
    taken = (set(captured[0]), set(captured[1]))
    game = (card_points(taken[0]), card_points(taken[1]))
    high = low = None
    if dealt is not None:
        trumps = sorted(
            (CARD_BY_TEXT[c], seat) for seat, hand in enumerate(dealt) for c in hand if SUIT_BY_TEXT[c] == trump
        )
        if trumps:
            high, low = trumps[-1], trumps[0]

    def side_taking(card: Card) -> int | None:
        text = CARD_TEXT[card]
        return 0 if text in taken[0] else (1 if text in taken[1] else None)

    jack = Card(13 * trump + Rank.JACK)
    return DealCards(game, high, low, None if low is None else side_taking(low[0]), side_taking(jack))


class Awards(NamedTuple):
    """A deal's end-of-deal awards in the order they are pegged, Phat's carried muck after them, and the
    counts they were decided on, by side (the muck, Don's game; None: the game has no count)."""

    bonuses: list[Bonus]
    carry: int
    counts: tuple[int, int] | None


def peg(totals: list[int], side: int, points: int, target: int, immediate: bool) -> bool:
    """Peg ``points`` to ``side``: True if the game ends at this peg (``peg_out: immediate`` and the side
    reaches the target), in mid-deal if so."""
    totals[side] += points
    return immediate and totals[side] >= target


def peg_bonuses(
    bonuses: Sequence[Bonus], totals: list[int], target: int, immediate: bool
) -> Iterator[tuple[Bonus, bool, bool]]:
    """Peg the end-of-deal awards in order: ``(bonus, scored, ends)`` for each, and nothing after the one
    at which the game ends (``peg``). An award to nobody, or of no points, is not pegged."""
    for bonus in bonuses:
        scored = bonus.side is not None and bonus.points > 0
        ends = scored and bonus.side is not None and peg(totals, bonus.side, bonus.points, target, immediate)
        yield bonus, scored, ends
        if ends:
            return


def end_of_deal_winner(totals: Sequence[int], target: int) -> int | None:
    """Under ``peg_out: end_of_deal``: the side that wins when the deal is over (the higher total, once a
    side has reached the target), or None (nobody has, or the totals are equal: play on)."""
    if max(totals) >= target and totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None


def passed_deal_winner(totals: Sequence[int], target: int, immediate: bool) -> int | None:
    """The winner after a deal taken by its points alone (no pegs to say who reached the target first):
    the higher total once a side has reached it, except under ``peg_out: immediate`` where both sides did
    (nobody can tell which pegged out first)."""
    winner = end_of_deal_winner(totals, target)
    return winner if winner is not None and (not immediate or min(totals) < target) else None


@dataclass(frozen=True, slots=True)
class AllFoursGame(ABC):
    """One game of the family under one set of rules: its counters, its awards and its end, as values.

    ``target``: the total that wins; ``peg_out``: when it is looked at; ``follow``: the follow rule."""

    target: int
    peg_out: PegOut = "immediate"
    follow: FollowRule = FollowRule.MUST_FOLLOW

    #: The game's name in a record.
    game: ClassVar[str]
    #: The cards dealt to each of the four players.
    hand_size: ClassVar[int]
    #: Whether the awards read the hands as dealt (Don's high and low).
    reads_dealt: ClassVar[bool] = False
    #: Whether the game leaves cards undealt (Nine-card Don's 16).
    leaves_undealt: ClassVar[bool] = False
    #: The most one trick's counters come to.
    most_in_a_trick: ClassVar[int]

    @property
    def immediate(self) -> bool:
        """``peg_out: immediate``: the game ends at the peg that reaches the target."""
        return self.peg_out == "immediate"

    @property
    def dealt(self) -> int:
        """How many cards are dealt in all."""
        return SEATS * self.hand_size

    @abstractmethod
    def counters(self, trump: Suit) -> tuple[int, ...]:
        """The points each card (by index) pegs, at once, for the side that wins the trick it is in."""

    @abstractmethod
    def awards(self, cards: DealCards, trump: int, pitcher: int, carry: int, reasons: bool = True) -> Awards:
        """The end-of-deal awards, in order, from what they read of the cards (``pitcher``: whose side
        pegs first on a shared award; ``carry``: Phat's muck carried in). ``reasons`` False leaves the
        reasons that spell out cards empty (nobody hears them)."""

    @abstractmethod
    def most_points(self, carry: int) -> int:
        """The most points one side can peg in one deal: further below the target than this, a side
        cannot win in this deal."""

    def carry_after_passed(self, total: int, carry: int, reaches: bool) -> int:
        """The carry after a deal taken by its points alone, ``total`` in all (``reaches``: a side reached
        the target in it)."""
        return carry
