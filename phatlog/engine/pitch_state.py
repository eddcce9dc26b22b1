"""The All Fours family on the state engine: Phat, Nine-card Don and Irish Don.

What differs from the shared machine, and only that: four players in two partnerships; the pitcher (the
dealer's left) leads first and the suit of that lead is trump; a trick's counters are pegged at once by
the winner's side (each game's ``counters``, in ``_trick_pegs``: the trick itself is the State's shared
play); after the last trick the game's ``awards`` are pegged in order; the first side to reach the
target wins (``peg_out``: at the very peg, or after the deal). Irish Don's first pitcher holds the two
of diamonds; Nine-card Don deals 9 cards and sets 16 aside.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from phatlog.engine.state import IllegalAction, Pegged, Phase, State, Trick, Visitor
from phatlog.rules.all_fours import (
    AllFoursGame,
    Bonus,
    deal_cards,
    end_of_deal_winner,
    passed_deal_winner,
    peg,
    peg_bonuses,
)
from phatlog.rules.cards import CARD_TEXT, Card
from phatlog.rules.irish_don import FIRST_PITCH_CARD, IrishDonGame, first_dealer
from phatlog.rules.nine_card_don import NineCardDonGame
from phatlog.rules.phat import PhatGame
from phatlog.rules.table import SEATS, pitcher, side_of

#: Each game's rules, from a record's rules (a model or a view).
GAMES: dict[str, Callable[[Any], AllFoursGame]] = {
    "phat": PhatGame.of,
    "nine_card_don": NineCardDonGame.of,
    "irish_don": IrishDonGame.of,
}


def pegged(deal: int, bonus: Bonus, scored: bool, totals: Sequence[int] | None) -> Pegged:
    """The event of an end-of-deal award as ``peg_bonuses`` pegs it (``scored``), with the totals after
    it: the side None and the points 0 where nobody scores it."""
    return Pegged(
        deal,
        bonus.side if scored else None,
        bonus.points if scored else 0,
        bonus.label,
        bonus.reason,
        None if totals is None else tuple(totals),
    )


class PitchState(State):
    """A game of the All Fours family in progress."""

    def __init__(
        self,
        game: str,
        rules: Any,
        names: Sequence[str],
        rng: random.Random | None,
        dealer: int | None,
        visitors: Sequence[Visitor] = (),
    ) -> None:
        if len(names) != SEATS:
            raise ValueError(f"{game} is for four players in two partnerships, not {len(names)}")
        self.game = game
        self.rules_of: AllFoursGame = GAMES[game](rules)
        self.follow = self.rules_of.follow
        self.carry = 0  # Phat's muck 8s carried from tied mucks
        self._count: tuple[int, int] | None = None  # the count this deal's awards were decided on
        self._captured: tuple[list[str], list[str]] = ([], [])
        super().__init__(rules, names, rng, dealer, visitors)
        self._draw_if_seeded()

    @property
    def sides(self) -> int:
        return 2

    def hand_size(self) -> int:
        return self.rules_of.hand_size

    @property
    def pitcher(self) -> int:
        """The dealer's left: leads first, and that lead makes trump."""
        return pitcher(self.dealer)

    def _draw(self, rng: random.Random) -> tuple[list[list[Card]], Card | None, list[Card] | None]:
        size = self.hand_size()
        pack = self._shuffled(rng)
        hands = self._dealt_from(pack, size)
        return hands, None, (pack[4 * size :] if 4 * size < 52 else None)

    def _first_dealer(self, hands: list[list[Card]]) -> None:
        """Irish Don: the holder of the two of diamonds pitches first, so the first dealer is on their right."""
        if self.game == "irish_don" and self.deal_index == 0:
            holder = next(s for s in range(SEATS) if FIRST_PITCH_CARD in hands[s])
            self.dealer = first_dealer(holder)

    def deal(self, hands: Sequence[Any], turnup: Any = None, undealt: Any = None, dealer: int | None = None) -> None:
        """Give the next deal: four hands by seat, and (Nine-card Don) the 16 undealt cards if known.
        In Irish Don the first deal's dealer follows from the hands (the 2D's holder pitches) unless given."""
        if turnup is not None:
            raise IllegalAction(f"{self.game} turns up no card")
        self._dealer_given = dealer is not None
        super().deal(hands, None, undealt, dealer)

    _dealer_given = False

    def _begin(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        if not self._dealer_given:
            self._first_dealer(hands)
        self._dealer_given = False
        self._captured = ([], [])
        self._count = None
        self.phase = Phase.PLAY

    def _trump_from_lead(self) -> bool:
        return True

    def _captured_count(self) -> tuple[int, ...] | None:
        return self._count

    def _trick_pegs(self, trick: Trick) -> tuple[tuple[tuple[Card, int], ...], int, bool]:
        """The winner's side takes the cards and pegs the counters in them at once (``peg``)."""
        assert self.trump is not None
        side = side_of(trick.winner)
        values = self.rules_of.counters(self.trump)
        counters = tuple((c, values[c]) for c in trick.cards if values[c])
        points = sum(v for _, v in counters)
        ends = peg(self.totals, side, points, self.rules_of.target, self.rules_of.immediate)
        self._captured[side].extend(CARD_TEXT[c] for c in trick.cards)
        return counters, points, ends

    def _trick_done(self, ends: bool) -> None:
        if ends:
            self._end_deal_at_peg(side_of(self.tricks[-1].winner))
            return
        if len(self.tricks) == self.hand_size():
            self._bonuses()

    def _end_deal_at_peg(self, side: int) -> None:
        """The game ends at the peg that reaches the target, in mid-deal if so."""
        points = self._score_deal()
        self._finish_deal_data(points)
        self._game_over([side])

    def _bonuses(self) -> None:
        rules = self.rules_of
        dealt = [{CARD_TEXT[c] for c in h} for h in self._dealt] if rules.reads_dealt else None
        assert self.trump is not None
        trump = int(self.trump)
        bonuses, self.carry, count = rules.awards(
            deal_cards(self._captured, dealt, trump), trump, self.pitcher, self.carry
        )
        if count is not None:
            self._count = count
        for bonus, scored, ends in peg_bonuses(bonuses, self.totals, rules.target, rules.immediate):
            self._emit(pegged(self.deal_index, bonus, scored, self.totals))
            if ends:
                assert bonus.side is not None
                self._end_deal_at_peg(bonus.side)
                return
        points = self._score_deal()
        self._finish_deal_data(points)
        self._after_deal()

    def _after_deal(self) -> None:
        rules = self.rules_of
        winner = None if rules.immediate else end_of_deal_winner(self.totals, rules.target)
        if winner is not None:
            self._game_over([winner])
            return
        self._next_deal()

    def _passed(self, points: Sequence[int]) -> None:
        rules = self.rules_of
        pair = (points[0], points[1])
        reaches = any(self.totals[s] + pair[s] >= rules.target for s in (0, 1))
        self.carry = rules.carry_after_passed(pair[0] + pair[1], self.carry, reaches)  # Phat's carried muck
        self.totals[0] += pair[0]
        self.totals[1] += pair[1]
        self._score_deal(passed_over=True)
        self._deals.append({"dealer": self.dealer, "score": {"points": list(pair), "total": list(self.totals)}})
        winner = passed_deal_winner(self.totals, rules.target, rules.immediate)
        if winner is not None:
            self._game_over([winner])
            return
        self._next_deal()
