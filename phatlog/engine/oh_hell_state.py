"""Oh Hell on the state engine, with every rule from ``rules.oh_hell``.

What differs from the shared machine, and only that: 3 to 7 players, each for themselves; the hand sizes
follow the schedule (``hand_sizes``); after the deal the next card is turned up and its suit is trump
(``has_trump`` says when there is none); every player bids from the dealer's left, the dealer last, and
under the hook the dealer may not make the bids add up (``legal_bids``); under simultaneous bidding the
bids are still taken in that order, but no seat sees another's bid until all have bid; ``must_trump`` is
La Podrida's follow rule (``follow_rule``); each hand scores by ``hand_score`` and the highest total
after the last hand wins, equal totals sharing the win (``winners``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from phatlog.engine.state import BidMade, IllegalAction, Phase, State, Visitor
from phatlog.rules import oh_hell
from phatlog.rules.cards import CARD_TEXT, Card
from phatlog.rules.table import first_leader, in_turn


class OhHellState(State):
    """A game of Oh Hell in progress."""

    game = "oh_hell"

    def __init__(
        self,
        rules: Any,
        names: Sequence[str],
        rng: random.Random | None,
        dealer: int | None,
        visitors: Sequence[Visitor] = (),
    ) -> None:
        if len(names) not in oh_hell.PLAYERS:
            raise ValueError(f"Oh Hell is for 3 to 7 players, not {len(names)}")
        self.sizes = oh_hell.hand_sizes(len(names), rules.schedule, rules.max_cards)
        self.follow = oh_hell.follow_rule(rules.must_trump)
        self.bids: list[int | None] = []
        self.turnup: Card | None = None
        super().__init__(rules, names, rng, dealer, visitors)
        self._draw_if_seeded()

    @property
    def sides(self) -> int:
        return self.seats

    def _index(self) -> int:
        """The hand being played, or (at a chance node) the hand about to be dealt."""
        index = self.deal_index + 1 if self.is_chance else self.deal_index
        return min(index, len(self.sizes) - 1)

    def hand_size(self) -> int:
        return self._size if not self.is_chance else self.sizes[self._index()]

    _size = 0  # the size of the hand being played, once dealt

    def _last(self, index: int) -> bool:
        return index == len(self.sizes) - 1

    def _has_trump(self) -> bool:
        """Whether the deal about to be dealt (or being played) has a turned-up card."""
        index = self._index()
        return oh_hell.has_trump(self.seats, self.sizes[index], self._last(index), self.rules.no_trump)

    def _draw(self, rng: random.Random) -> tuple[list[list[Card]], Card | None, list[Card] | None]:
        size = self.hand_size()
        pack = self._shuffled(rng)
        hands = self._dealt_from(pack, size)
        return hands, (pack[size * self.seats] if self._has_trump() else None), None

    def _check_deal(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        super()._check_deal(hands, turnup, undealt)
        if undealt is not None:
            raise IllegalAction("an Oh Hell deal lists no undealt cards")
        if self._has_trump() and turnup is None:
            raise IllegalAction("this hand has a trump: give the turned-up card (turnup=...)")
        if not self._has_trump() and turnup is not None:
            raise IllegalAction(f"this hand is played without trump: no card is turned up, not {turnup}")
        if turnup is not None and any(turnup in h for h in hands):
            raise IllegalAction(f"the turned-up card {turnup} is dealt to a player; it is the next card of the pack")

    def _begin(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        self._size = self.sizes[self.deal_index]
        self.turnup = turnup
        self.trump = oh_hell.trump_of(turnup)
        self.bids = [None] * self.seats
        self._made = 0
        self.phase = Phase.BID

    def _no_trump_why(self) -> str | None:
        """Why the hand being dealt has no trump (``no_trump_reason``), None if it has one."""
        if self.turnup is not None:
            return None
        return oh_hell.no_trump_reason(self.seats, self._size, self._last(self.deal_index), self.rules.no_trump)

    _made = 0  # bids made this hand

    def _bidder(self) -> int | None:
        return in_turn(first_leader(self.dealer, self.seats), self._made, self.seats)

    def legal_bids(self) -> list[int]:
        """0 to the hand size; under the hook (sequential bidding) the dealer may not make the bids add up."""
        before = sum(b for b in self.bids if b is not None)
        hook = oh_hell.hook_applies(self.rules.hook, self.rules.bidding)
        return oh_hell.legal_bids(self.hand_size(), before, dealer=self._bidder() == self.dealer, hook=hook)

    def _bid(self, bid: int) -> None:
        seat = self._bidder()
        assert seat is not None
        size = self.hand_size()
        who = self._who(seat)
        if not 0 <= bid <= size:
            raise IllegalAction(f"{who} may not bid {bid}: a bid is 0 to {size} in a hand of {size} card(s)", seat, bid)
        if bid not in self.legal_bids():
            raise IllegalAction(
                f"{who} (the dealer) may not bid {bid}: it makes the bids add up to the {size} trick(s) of the "
                "hand, and the hook forbids it",
                seat,
                bid,
            )
        self.bids[seat] = bid
        self._made += 1
        self._emit(BidMade(self.deal_index, seat, bid))
        if self._made == self.seats:
            self.phase = Phase.PLAY

    def _trick_done(self, ends: bool) -> None:
        size = self.hand_size()
        if len(self.tricks) < size:
            return
        for seat in range(self.seats):
            bid = self.bids[seat]
            assert bid is not None
            self.totals[seat] += oh_hell.hand_score(bid, self.taken[seat], size, self.rules.miss, self.rules.zero_bid)
        points = self._score_deal()
        self._finish_deal_data(points)
        self._after_deal()

    def _scored_taken(self) -> tuple[int, ...] | None:
        return tuple(self.taken)

    def _after_deal(self) -> None:
        if self._last(self.deal_index):
            self._game_over(oh_hell.winners(self.totals))
            return
        self._next_deal()

    def _deal_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.turnup is not None:
            extra["turnup"] = CARD_TEXT[self.turnup]
        if not self._dealt_only():
            extra["bids"] = list(self.bids)
        return extra

    def _dealt_only(self) -> bool:
        return any(b is None for b in self.bids)

    def _view_extra(self, seat: int) -> dict[str, Any]:
        hidden = self.rules.bidding == "simultaneous" and self.phase is Phase.BID
        bids = [b if (not hidden or s == seat) else None for s, b in enumerate(self.bids)]
        return {
            "hand_size": self.hand_size() if self.deal_index >= 0 else None,
            "turnup": None if self.turnup is None else CARD_TEXT[self.turnup],
            "bids": bids,
        }

    def _passed(self, points: Sequence[int]) -> None:
        for seat in range(self.seats):
            self.totals[seat] += points[seat]
        self._score_deal(passed_over=True)
        self._deals.append({"dealer": self.dealer, "score": {"points": list(points), "total": list(self.totals)}})
        self.turnup, self.bids = None, []
        self._after_deal()
