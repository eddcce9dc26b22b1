"""Oh Hell on the state engine, with every rule from ``rules.oh_hell``.

What differs from the shared machine, and only that: 3 to 7 players, each for themselves; the hand sizes
follow the schedule (``hand_sizes``); after the deal the next card is turned up and its suit is trump
(``has_trump`` says when there is none); every player bids from the dealer's left, the dealer last, and
under the hook the dealer may not make the bids add up (``legal_bids``); under simultaneous bidding the
bids are still taken in that order, but no seat sees another's bid until all have bid; ``must_trump`` is
La Podrida's follow rule (``follow_rule``); each hand scores by ``hand_score`` and the highest total
after the last hand wins, equal totals sharing the win (``winners``).

The referee (``referee.oh_hell_driver``) plays every record on this machine, through the methods of
"Driven over a record": it checks and words what a record can get wrong, and the State deals, bids,
plays, scores and tells the visitors, taking the record as it stands (a wrong bid is still scored as
bid, a ruled revoke stands as played, a hand whose points cannot be worked out takes the recorded ones).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from phatlog.engine.state import (
    BidMade,
    DealBegins,
    DealScored,
    Ending,
    GameOver,
    IllegalAction,
    Phase,
    Ruled,
    State,
    Trick,
    Visitor,
    parse_card,
)
from phatlog.engine.trickplay import TrickPlay
from phatlog.rules import oh_hell
from phatlog.rules.cards import CARD_TEXT, Card, Suit
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

    def _copy_changing(self, d: dict[str, Any]) -> None:
        d["bids"] = self.bids[:]
        if self._points is not None:
            d["_points"] = self._points[:]

    def _index(self) -> int:
        """The hand of the schedule being played, or (at a chance node) the one about to be dealt."""
        index = self.deal_index + 1 if self.is_chance else self.deal_index
        return min(index - self.voided, len(self.sizes) - 1)

    voided = 0  # the misdeals so far (``misdeal``): void hands take no place in the schedule

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
        self._check_turnup(turnup, any(turnup in h for h in hands))

    def _check_turnup(self, turnup: Card | None, dealt: bool) -> None:
        """The turned-up card the hand due has (or has not, by the schedule), and ``dealt`` to nobody."""
        if self._has_trump() and turnup is None:
            raise IllegalAction("this hand has a trump: give the turned-up card (turnup=...)")
        if not self._has_trump() and turnup is not None:
            raise IllegalAction(f"this hand is played without trump: no card is turned up, not {turnup}")
        if turnup is not None and dealt:
            raise IllegalAction(f"the turned-up card {turnup} is dealt to a player; it is the next card of the pack")

    def _open_ending(self, hands: list[list[Card]], before: int, seen: set[Card], given: Ending) -> list[int]:
        """An ending of an Oh Hell hand: the turned-up card as for a whole hand (it makes trump), and
        ``taken``, the tricks each seat took before, which the hand's score counts."""
        turnup, taken = given.turnup, given.taken
        if given.trump is not None or given.won is not None:
            raise IllegalAction(
                "Oh Hell's trump is the turned-up card's (turnup=...), and `taken` gives the tricks before"
            )
        up = None if turnup is None else parse_card(turnup)
        self._check_turnup(up, up in seen)
        counts = [0] * self.seats if taken is None else list(taken)
        if len(counts) != self.seats or min(counts) < 0 or sum(counts) != before:
            raise IllegalAction(
                f"the {before} trick(s) before the ending are given by `taken`, the tricks each of the {self.seats} "
                f"players took, not {taken}"
            )
        self._open(hands, up, None)
        return [seat for seat, n in enumerate(counts) for _ in range(n)]

    def _begin(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        self._size = self.sizes[self.deal_index - self.voided]
        self.turnup = turnup
        self.trump = oh_hell.trump_of(turnup)
        self.bids = [None] * self.seats
        self._made = 0
        self.phase = Phase.BID

    def _no_trump_why(self) -> str | None:
        """Why the hand being dealt has no trump (``oh_hell.no_trump_reason``), None if it has one."""
        return oh_hell.no_trump_reason(
            self.seats, self._size, self._last(self.deal_index - self.voided), self.rules.no_trump
        )

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
        if self._last(self.deal_index - self.voided):
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

    # ------------------------------------------------------------------ driven over a record (the referee)

    _points: list[int] | None = None  # the hand's points so far (None: neither worked out nor recorded)
    _scored = False  # the hand's points are the rules' (``score``), not taken as recorded
    _settled = False  # the tricks each player took are known (all played, claimed, or as the record says)

    def deal_recorded(
        self, dealer: int, hands: Sequence[Iterable[Card]] | None, turnup: Card | None, trump: Suit | None
    ) -> None:
        """Deal the next hand of the schedule as a record has it, for a referee that has checked (and
        worded) what the record gets wrong, so nothing is refused here: ``dealer`` as recorded, ``hands``
        as dealt or inferred from the tricks (None: not known; nothing is played from them), the turned-up
        card as recorded, and ``trump`` the suit the tricks are judged with (the turn-up's, even in a hand
        that should have none). The hand is scored when the referee says (``score``, ``take_as_recorded``,
        then ``close``), never at its last trick by itself."""
        self.deal_index += 1
        self.dealer = dealer
        held = [set(h) for h in hands] if hands is not None else [set() for _ in range(self.seats)]
        self._play_of_deal = TrickPlay(held, first_leader(dealer, self.seats))
        self._dealt, self._undealt, self._legal = [], None, None
        self.tricks = []
        self._start_totals = list(self.totals)
        self._size = self.sizes[self.deal_index - self.voided]
        self.turnup, self.trump = turnup, trump
        self.bids = [None] * self.seats
        self._made = 0
        self._points, self._scored, self._settled = None, False, False
        self.phase = Phase.BID
        if self._visitors:
            shown = None if hands is None else tuple(tuple(sorted(h)) for h in held)
            why = self._no_trump_why()
            self._emit(DealBegins(self.deal_index, dealer, shown, self._size, trump, turnup, None, why))

    @property
    def hand_points(self) -> list[int] | None:
        """The points of the hand being scored, as they stand (None: neither worked out nor recorded)."""
        return None if self._points is None else list(self._points)

    def bid_recorded(self, bid: int) -> None:
        """The seat in turn bids ``bid`` as recorded (a wrong bid is the referee's to word; it is scored as bid)."""
        seat = in_turn(first_leader(self.dealer, self.seats), self._made, self.seats)
        self.bids[seat] = bid
        self._made += 1
        if self._visitors:
            self._emit(BidMade(self.deal_index, seat, bid))
        if self._made == self.seats:
            self.phase = Phase.PLAY

    def play_judged(self, cards: Sequence[Card]) -> Trick | None:
        """A trick's ``cards`` played as recorded (see ``State.play_judged``): legal cards, or a revoke a
        ruling lets stand as played. A hand whose bids are not recorded is still played."""
        self.phase = Phase.PLAY
        return super().play_judged(cards)

    def _judged_trick(self, ends: bool) -> None:
        if len(self.tricks) == self._size:
            self._settled = True  # the hand is scored when the referee asks (``score``)

    def claim(self, seat: int, text: str, settles: bool) -> None:
        """Format 1.1: ``seat`` claims (``text``, in words) before the rest of the hand is played; where the
        claim ``settles`` the hand, the claimer takes every trick not yet played."""
        if self._visitors:
            self._emit(Ruled(self.deal_index, "claim", text, len(self.tricks), seat))
        if settles:
            self.taken[seat] += self._size - len(self.tricks)
            self._settled = True

    def award(self, taken: Sequence[int] | None) -> None:
        """The tricks each player took, as the record says (a score sheet, or a claim that leaves the rest
        to the record); None: they are not known."""
        if taken is None:
            self._settled = False
            return
        self._play_of_deal.taken = list(taken)
        self._settled = True

    def score(self) -> list[int]:
        """Score the hand by the rules (``oh_hell.hand_score``) from its bids, as recorded, and the tricks
        each player took; the points are added to the totals, and returned."""
        size, rules = self._size, self.rules
        points = []
        for bid, took in zip(self.bids, self.taken, strict=True):
            assert bid is not None  # the referee scores only a hand whose bids are recorded
            points.append(oh_hell.hand_score(bid, took, size, rules.miss, rules.zero_bid))
        for seat, p in enumerate(points):
            self.totals[seat] += p
        self._points, self._scored = points, True
        return list(points)

    def take_as_recorded(self, points: Sequence[int] | None) -> None:
        """The hand's points as the record gives them, where the rules cannot work them out; None where the
        record does not give them either: the totals are not known from here on (until ``anchor``)."""
        self._scored = False
        if points is None:
            self._points = None
            self.totals_known = False
            return
        self._points = list(points)
        for seat, p in enumerate(points):
            self.totals[seat] += p

    def peg(self, kind: str, text: str, side: int, points: int, trick: int | None) -> None:
        """Format 1.1: a revoke penalty or an adjustment pegged onto the hand's points (and the totals)."""
        self.totals[side] += points
        if self._points is not None:
            self._points[side] += points
        if self._visitors:
            after = tuple(self.totals) if self.totals_known else None
            self._emit(Ruled(self.deal_index, kind, text, trick, None, side, points, after))

    def anchor(self, totals: Sequence[int]) -> None:
        """The running totals are the scorer's (recorded where they were not known): known again."""
        self.totals = list(totals)
        self.totals_known = True

    def misdeal(self, dealer: int) -> None:
        """Format 1.1: the hand due is a misdeal, void: it takes no place in the schedule and scores nothing
        but what its rulings peg (``peg``); the same dealer deals again. ``close`` it."""
        self.deal_index += 1
        self.voided += 1
        self.dealer = dealer
        self._start_totals = list(self.totals)
        self._points, self._scored, self._settled = [0] * self.seats, False, False
        if self._visitors:
            text = f"hand {self.deal_index + 1} is a misdeal: void, the same dealer deals again"
            self._emit(Ruled(self.deal_index, "misdeal", text))

    def close(self, given_up: bool = False) -> None:
        """The hand is over: tell its points, the totals after it (where known) and the tricks each player
        took (where known). ``given_up``: its play went wrong, so its points were taken as recorded."""
        if self._visitors:
            points = None if self._points is None else tuple(self._points)
            totals = tuple(self.totals) if self.totals_known else None
            taken = tuple(self.taken) if self._settled else None
            self._emit(DealScored(self.deal_index, points, totals, not self._scored, given_up, taken=taken))
        self.phase = Phase.DEAL_OVER

    def finish(self, at: int) -> list[int]:
        """The record's game is over (at its hand ``at``): the highest totals win (``oh_hell.winners``)."""
        won = oh_hell.winners(self.totals)
        self.winner = tuple(won)
        self.phase = Phase.GAME_OVER
        self._emit(GameOver(at, self.winner, tuple(self.totals)))
        return won
