"""The All Fours family on the state engine: Phat, Nine-card Don and Irish Don.

What differs from the shared machine, and only that: four players in two partnerships; the pitcher (the
dealer's left) leads first and the suit of that lead is trump; a trick's counters are pegged at once by
the winner's side (each game's ``counters``, in ``_trick_pegs``: the trick itself is the State's shared
play); after the last trick the game's ``awards`` are pegged in order; the first side to reach the
target wins (``peg_out``: at the very peg, or after the deal). Irish Don's first pitcher holds the two
of diamonds; Nine-card Don deals 9 cards and sets 16 aside.

The referee (``referee.all_fours``) drives this State over a record (``driven``): it deals the recorded
hands (``deal_recorded``), plays each card it has judged (``play_judged``), applies the rulings
(``claim``, ``adjust``, ``misdeal``), passes over the deals the rules cannot score (``undo_deal``,
``pass_recorded``) and closes each deal (``close_deal``); every peg is the State's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from phatlog.engine.state import (
    DealScored,
    Ending,
    IllegalAction,
    Pegged,
    Phase,
    Ruled,
    State,
    Trick,
    Visitor,
    parse_card,
)
from phatlog.engine.trickplay import TrickPlay
from phatlog.rules.all_fours import (
    AllFoursGame,
    Bonus,
    DealCards,
    deal_cards,
    end_of_deal_winner,
    passed_deal_winner,
    peg,
    peg_bonuses,
)
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Card, Suit
from phatlog.rules.irish_don import FIRST_PITCH_CARD, IrishDonGame, first_dealer
from phatlog.rules.nine_card_don import NineCardDonGame
from phatlog.rules.phat import PhatGame
from phatlog.rules.table import SEATS, next_dealer, pitcher, side_of

SUITS = tuple(Suit)

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
        *,
        game_rules: AllFoursGame | None = None,
        driven: bool = False,
    ) -> None:
        if len(names) != SEATS:
            raise ValueError(f"{game} is for four players in two partnerships, not {len(names)}")
        self.game = game
        self.rules_of: AllFoursGame = GAMES[game](rules) if game_rules is None else game_rules
        self.follow = self.rules_of.follow
        # Driven by a referee over a record (``referee.all_fours``): each deal is closed by ``close_deal``,
        # once the referee has pegged the deal's rulings, and the State keeps no record data of its own.
        self.driven = driven
        self.carry = 0  # Phat's muck 8s carried from tied mucks
        self._count: tuple[int, int] | None = None  # the count this deal's awards were decided on
        self._captured: tuple[list[str], list[str]] = ([], [])
        self.ended_at: tuple[int, int | None] | None = None  # (deal, trick) of the peg that ended the game
        self._ending: tuple[int, ...] | None = None  # the winner, once the game has ended, until it is told
        self._void = False  # the deal being scored is a misdeal
        self._values: tuple[int, ...] | None = None  # the deal's counters, once its trump is known
        self._summing = False  # the deal's counters are added up when its play is over (``play_over``)
        self.claim_due = False  # the deal records a claim (format 1.1): its bonuses wait for it (``claim``)
        super().__init__(rules, names, rng, dealer, visitors)
        self._draw_if_seeded()

    @property
    def sides(self) -> int:
        return 2

    def _copy_changing(self, d: dict[str, Any]) -> None:
        d["_captured"] = (self._captured[0][:], self._captured[1][:])

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

    def _open_ending(self, hands: list[list[Card]], before: int, seen: set[Card], given: Ending) -> list[int]:
        """An ending of the family: trump is given (the pitcher's first lead made it), and ``won`` the cards
        each side took in the tricks before, four a trick; they count as dealt to the side's first seat
        (seat 0 or 1), which is all the awards ask of who held them."""
        trump, won = given.trump, given.won
        if given.turnup is not None or given.taken is not None:
            raise IllegalAction(f"{self.game} turns up no card, and its tricks before an ending are given by `won`")
        if trump is None:
            raise IllegalAction(f"an ending of {self.game} gives its trump (the suit the pitcher led first)")
        suit = trump if isinstance(trump, Suit) else Suit.parse(trump)
        sides = [[parse_card(c) for c in cards] for cards in (won or ([], []))]
        if len(sides) != 2:
            raise IllegalAction(f"`won` gives the cards of each of the 2 sides, not {len(sides)}")
        for card in (c for cards in sides for c in cards):
            if card in seen:
                raise IllegalAction(f"{card} is given twice")
            seen.add(card)
        counts = [len(cards) for cards in sides]
        if any(n % SEATS for n in counts) or sum(counts) != SEATS * before:
            raise IllegalAction(
                f"the {before} trick(s) before the ending took {SEATS * before} cards, four a trick: `won` gives "
                f"{counts[0]} and {counts[1]}"
            )
        self._dealer_given = True  # (Irish Don's first dealer is the dealer given, not the 2D's holder's right)
        self._open(hands, None, None)
        self.trump = suit
        self._captured = ([CARD_TEXT[c] for c in sides[0]], [CARD_TEXT[c] for c in sides[1]])
        self._dealt = [tuple(h) + (tuple(sides[seat]) if seat < 2 else ()) for seat, h in enumerate(hands)]
        return [0] * (counts[0] // SEATS) + [1] * (counts[1] // SEATS)

    def _begin(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        if not self._dealer_given:
            self._first_dealer(hands)
        self._dealer_given = False
        self._captured = ([], [])
        self._count = None
        self.claim_due = False
        self._values = None
        # Driven with nobody listening, counters are pegged trick by trick only where a side could reach
        # the target in this deal; otherwise they are added up when the play is over (``play_over``): the
        # same totals.
        rules = self.rules_of
        self._summing = (
            self.driven and not self._visitors and max(self.totals) + rules.most_points(self.carry) < rules.target
        )
        self.phase = Phase.PLAY

    def _trump_from_lead(self) -> bool:
        return True

    def _captured_count(self) -> tuple[int, ...] | None:
        return self._count

    def _trick_pegs(self, trick: Trick) -> tuple[tuple[tuple[Card, int], ...], int, bool]:
        """The winner's side takes the cards and pegs the counters in them at once (``peg``)."""
        assert self.trump is not None
        side = side_of(trick.winner)
        cards = trick.cards
        if self._summing:
            self._captured[side].extend(map(CARD_TEXT.__getitem__, cards))
            return (), 0, False
        values = self._values
        if values is None:
            values = self._values = self.rules_of.counters(self.trump)
        points = sum(map(values.__getitem__, cards))
        # The counters one by one only for the visitors (with none, only their sum pegs).
        counters = tuple((c, values[c]) for c in cards if values[c]) if points and self._visitors else ()
        ends = peg(self.totals, side, points, self.rules_of.target, self.rules_of.immediate)
        self._captured[side].extend(map(CARD_TEXT.__getitem__, cards))
        return counters, points, ends

    def deal_recorded(self, hands: Sequence[Iterable[Card]], undealt: Iterable[Card] | None, dealer: int) -> None:
        """Give the next deal as a record has it, which a referee has checked: ``dealer`` deals, and hands
        inferred from a deal's tricks may hold fewer cards than a whole hand."""
        if not self.is_chance:
            raise IllegalAction(f"no deal is due now (the phase is {self.phase.value})")
        self.dealer = dealer
        self._dealer_given = True
        self._open([list(h) for h in hands], None, None if undealt is None else list(undealt))

    def _trick_done(self, ends: bool) -> None:
        if ends:
            self._ends(side_of(self.tricks[-1].winner), len(self.tricks) - 1)
            self._played()
        elif len(self.tricks) == self.rules_of.hand_size and not self.claim_due:
            self._bonuses()
            self._played()

    _judged_trick = _trick_done  # a driver's tricks end what ``apply``'s do

    def _ends(self, side: int | None, trick: int | None) -> None:
        """The game ends at this peg (``trick`` None: after the tricks), won by ``side`` (None: both sides
        reached the target in a deal passed over, and the record cannot show which first)."""
        self.ended_at = (self.deal_index, trick)
        self._ending = () if side is None else (side,)

    def _played(self) -> None:
        """The deal's play is over: score it, unless a referee closes it (``close_deal``)."""
        if not self.driven:
            self.close_deal()

    def _bonuses(self) -> None:
        """After the last trick: peg the game's end-of-deal awards in order, each checked for the target;
        under ``end_of_deal`` the target is looked at once they are pegged."""
        self.play_over()
        dealt = [{CARD_TEXT[c] for c in h} for h in self._dealt] if self.rules_of.reads_dealt else None
        assert self.trump is not None
        self._peg_awards(deal_cards(self._captured, dealt, int(self.trump)))

    def _peg_awards(self, cards: DealCards) -> None:
        """The end-of-deal awards of what ``cards`` read of the deal, pegged in order (``_bonuses``)."""
        rules = self.rules_of
        assert self.trump is not None
        trump = int(self.trump)
        telling = bool(self._visitors)
        bonuses, self.carry, count = rules.awards(cards, trump, self.pitcher, self.carry, telling)
        if count is not None:
            self._count = count
        for bonus, scored, ends in peg_bonuses(bonuses, self.totals, rules.target, rules.immediate):
            if telling:
                self._emit(pegged(self.deal_index, bonus, scored, self.known_totals()))
            if ends:
                self._ends(bonus.side, None)
                return
        if not rules.immediate:
            winner = end_of_deal_winner(self.totals, rules.target)
            if winner is not None:
                self._ends(winner, None)

    def deal_played(
        self, dealer: int, trump: int, totals: tuple[int, int], ended: int | None, side: int, cards: DealCards
    ) -> None:
        """A deal the C trick kernel played and found clean, with nobody listening (the referee's shortcut,
        ``_trick.play``): it is opened without cards, its counters come to ``totals``; a peg in trick
        ``ended`` ended the game, won by ``side``; else its end-of-deal awards (of ``cards``, what the
        kernel read of the deal) are pegged as after the last trick. ``close_deal`` then scores it."""
        self._open_void(dealer)
        self._count = None
        self.claim_due = self._summing = False
        self.phase = Phase.PLAY
        self.trump = SUITS[trump]
        self.totals[:] = totals
        if ended is not None:
            self._ends(side, ended)
        else:
            self._peg_awards(cards)

    def play_over(self) -> None:
        """The deal's play is over (its last trick, a claim, or the last trick a record has): the counters
        not yet pegged trick by trick are pegged now."""
        if self._summing:
            self._summing = False
            assert self.trump is not None
            values = self.rules_of.counters(self.trump)
            taken = self._captured
            for side in (0, 1):
                self.totals[side] += sum(values[CARD_BY_TEXT[c]] for c in taken[side])

    def close_deal(self) -> None:
        """Score the deal (``DealScored``), then end the game (``GameOver``) if a peg of it did, or pass the
        deal to the left. A void deal (``misdeal``) is dealt again by the same dealer, and tells no
        ``GameOver``: its rulings' events tell how it ended."""
        if self._void:
            self._void = False
            self._score_deal(passed_over=True)
            if self._ending is not None:
                self.winner, self.phase = self._ending, Phase.GAME_OVER
            else:
                self.phase = Phase.DEAL_OVER
            return
        points = self._score_deal()
        if not self.driven:
            self._finish_deal_data(points)
        if self._ending is not None:
            self._game_over(self._ending)
        else:
            self._next_deal()

    # ------------------------------------------------------------------ a referee's actions

    @property
    def start_totals(self) -> tuple[int, int]:
        """The totals as the deal being played began."""
        return (self._start_totals[0], self._start_totals[1])

    def held_texts(self, seat: int) -> set[str]:
        """The cards ``seat`` holds now, as texts."""
        return {CARD_TEXT[c] for c in self._play_of_deal.held[seat]}

    def claim(self, side: int | None, text: str, trick: int) -> None:
        """A claim that settles the deal (format 1.1): ``side`` takes every card not yet played (the trick in
        progress too) and pegs their counters at once; then, unless that peg ended the game, the bonuses.
        ``side`` None: the claim leaves the cards' fate open, and is only told (the deal is passed over as
        recorded). ``trick``: the first unplayed trick."""
        self.claim_due = False
        if side is None:
            if self._visitors:
                self._emit(Ruled(self.deal_index, "claim", text, trick, None, None, 0, None))
            return
        assert self.trump is not None
        self.play_over()
        play = self._play_of_deal
        rest = [*play.trick, *(c for hand in play.held for c in hand)]
        for hand in play.held:
            hand.clear()
        play.trick = []
        self._captured[side].extend(CARD_TEXT[c] for c in rest)
        values = self.rules_of.counters(self.trump)
        points = sum(values[c] for c in rest)
        rules = self.rules_of
        if points and peg(self.totals, side, points, rules.target, rules.immediate):
            self._ends(side, None)
        if self._visitors:
            self._emit(Ruled(self.deal_index, "claim", text, trick, None, side, 0, None))
        if self._ending is None:
            self._bonuses()

    def adjust(self, kind: str, text: str, side: int, points: int, trick: int | None = None) -> None:
        """Peg a ruling's points (format 1.1: a revoke penalty, or an adjustment) to ``side``; under
        ``peg_out: immediate`` the first that reaches the target ends the game."""
        self.totals[side] += points
        if self._visitors:
            self._emit(Ruled(self.deal_index, kind, text, trick, None, side, points, self.known_totals()))
        rules = self.rules_of
        if self.ended_at is None and rules.immediate and points > 0 and self.totals[side] >= rules.target:
            self._ends(side, None)

    def after_rulings(self) -> None:
        """The deal's rulings are pegged: under ``peg_out: end_of_deal`` the game may end now."""
        rules = self.rules_of
        if self.ended_at is None and not rules.immediate:
            winner = end_of_deal_winner(self.totals, rules.target)
            if winner is not None:
                self._ends(winner, None)

    def misdeal(self, text: str, dealer: int) -> None:
        """A misdeal (format 1.1): the deal is void; its rulings may be pegged (``adjust``), then
        ``close_deal`` scores it as passed over, and the same dealer deals again."""
        self._open_void(dealer)
        self._void = True
        self.phase = Phase.PLAY
        if self._visitors:
            self._emit(Ruled(self.deal_index, "misdeal", text, None, None, None, 0, None))

    def _open_void(self, dealer: int) -> None:
        """Open a deal without cards (a score sheet's, or a void one)."""
        if not self.is_chance:
            raise IllegalAction(f"no deal is due now (the phase is {self.phase.value})")
        self.dealer = dealer
        self.deal_index += 1
        self._dealt, self._undealt = [], None
        self._play_of_deal = TrickPlay([set() for _ in range(SEATS)], 0)
        self.tricks, self.trump = [], None
        self._start_totals = list(self.totals)

    def rebase(self, total: Sequence[int]) -> None:
        """The totals are known again from a recorded running total (after a deal whose points were not
        known): they become ``total``, and the deal's points stay what its pegs made them."""
        for s in (0, 1):
            self._start_totals[s] += total[s] - self.totals[s]
            self.totals[s] = total[s]
        self.totals_known = True

    def undo_deal(self, dealer: int) -> None:
        """Before a deal the rules cannot score is passed over (``pass_recorded``): undo what the deal being
        played pegged, or open the deal due without cards."""
        if self.phase is Phase.PLAY:
            self.totals[:] = self._start_totals
            if self.ended_at is not None and self.ended_at[0] == self.deal_index:
                self.ended_at = self._ending = None
        else:
            self._open_void(dealer)

    def pass_recorded(self, points: Sequence[int] | None, total: Sequence[int] | None, given_up: bool) -> None:
        """Pass over the deal opened by ``undo_deal`` as the record has it: its ``points`` as recorded; or,
        without them, the running ``total`` recorded (the totals are known again); or neither (the totals
        are not known from here). ``given_up``: its play went wrong. The game ends where a side has reached
        the target (under ``peg_out: immediate`` where only one has: else nobody can tell who won)."""
        totals = self.totals
        start = (totals[0], totals[1])
        known = self.totals_known
        if points is not None:
            totals[0] += points[0]
            totals[1] += points[1]
        elif total is not None:
            totals[:] = total
            self.totals_known = True
        else:
            self.totals_known = False
        told = points is not None or (total is not None and known)
        taken = (totals[0] - start[0], totals[1] - start[1]) if told else None
        if self._visitors:
            self._emit(DealScored(self.deal_index, taken, self.known_totals(), passed_over=True, given_up=given_up))
        rules = self.rules_of
        if self.totals_known and self.ended_at is None and max(totals) >= rules.target:
            winner = passed_deal_winner(totals, rules.target, rules.immediate)
            if winner is not None:
                self._ends(winner, None)
            elif rules.immediate:
                self._ends(None, None)
        if self._ending is not None:
            self._game_over(self._ending)
        else:
            self.phase = Phase.DEAL_OVER
            self.dealer = next_dealer(self.dealer, SEATS)

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
