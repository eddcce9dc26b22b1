"""The All Fours family's referee: it replays a record of Phat, Nine-card Don or Irish Don deal by deal
by the family's rules (``rules.all_fours``, ``rules.table``, ``rules.trick``) and each game's own
(``rules.phat``, ``rules.nine_card_don``, ``rules.irish_don``), and words every difference it finds.

This module is the referee for the whole family; ``phat``, ``nine_card_don`` and ``irish_don`` supply
what differs. The trick loop itself is not here: it is the one both referees share
(``deal_check.play_tricks``, which drives ``engine.trickplay.TrickPlay``, the machine the State plays on
too), with this family's fault order (all four cards held before following suit) and its hook for a
trick won (the counters pegged). After an illegal play the rest of that deal cannot be scored, so it
says so once and carries on with the next deal, taking that deal's points as the scorer recorded them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, Self, cast

from typing_extensions import TypeVar  # with a default (typing's has one from 3.13); pydantic depends on it

from phatlog._native import kernel_module, tables
from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.engine.pitch_state import pegged
from phatlog.engine.state import DealBegins, DealScored, GameOver, Ruled, TrickWon, Visitor, shown_tricks
from phatlog.record.view import CutView, NineCardDonDealView, PitchDealView, PitchRecordView, PitchRulesView, TrickView
from phatlog.referee import deal_check, rulings
from phatlog.referee.scoring import check_deal_score, check_result
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
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, DECK, Card, Suit
from phatlog.rules.cut import cut_round
from phatlog.rules.oh_hell import made
from phatlog.rules.table import SEATS, dealer_for, pitcher, side_of, trump_of_pitch
from phatlog.rules.trick import explain_winner, seat_of

if TYPE_CHECKING:
    from phatlog._native._trick import Fault, OhHellDone, PitchDeal, RecordDone


class HotLoop(Protocol):
    """The C trick kernel (``phatlog/_native/_trick.c``, its contract in ``_trick.pyi``; the rules reach it
    as tables, ``phatlog._native.tables``): success ``(0, ...)`` or a fault ``(kind, trick, position)``, on
    which the Python engine replays the deal and words it."""

    def play(
        self,
        hands: Sequence[Sequence[str | None]] | None,
        tricks: Sequence[TrickView],
        undealt: Sequence[str] | None,
        pitcher: int,
        table: bytes,
        total0: int,
        total1: int,
        want_hands: bool,
        /,
    ) -> PitchDeal | Fault: ...

    def pitch_record(self, deals: Sequence[PitchDealView], table: bytes, /) -> RecordDone | None: ...

    def oh_hell(
        self,
        hands: Sequence[Sequence[str | None]] | None,
        tricks: Sequence[TrickView],
        turnup: str | None,
        leader: int,
        seats: int,
        hand_size: int,
        trump: int,
        table: bytes,
        /,
    ) -> OhHellDone | Fault: ...


#: Who leads the first trick of a deal, for PL301.
FIRST_LEADER = "the pitcher, {seat} (on the dealer's left),"


def hot_loop() -> HotLoop | None:
    """The C trick kernel, or None: not built (it is optional), or ``PHATLOG_PURE_PYTHON=1`` is set."""
    return cast("HotLoop | None", kernel_module("_trick"))


#: The C kernel that untraced replays use (tests switch it off to compare with the Python engine,
#: which stays the reference and replays every deal the C code declines).
HOT: HotLoop | None = hot_loop()

SUITS = tuple(Suit)


def side_label(side: int, names: Sequence[str]) -> str:
    """A side for people: "Ann & Cal"."""
    return f"{seat_name(side, names)} & {seat_name(side + 2, names)}"


def check_cut(
    cut: Sequence[Sequence[str | None]],
    first_dealer: int,
    names: Sequence[str],
    one_per_side: bool,
    highest_pitches: bool,
) -> list[Diagnostic]:
    """Check a recorded cut for the first pitcher and that the first deal's dealer follows from it.

    Each round is a list by seat of the card cut, or null for a player who did not cut. Ranks alone
    count, ace high. Phat: all four cut and the lowest pitches; a tie for lowest is cut again by the
    tied players. Nine-card Don: one player of each side cuts and the highest pitches; equal ranks
    are cut again (by one player of each side).
    """
    out: list[Diagnostic] = []
    word = "highest" if highest_pitches else "lowest"
    cutting = {0, 1, 2, 3}
    for r, cards in enumerate(cut):
        who = {seat for seat, c in enumerate(cards) if c is not None}
        if one_per_side:
            if len(who) != 2 or len({side_of(s) for s in who}) != 2:
                out.append(diag("PL501", f"cut round {r + 1}: one player of each side cuts", f"/cut/{r}"))
                return out
        elif who != cutting:
            want = ", ".join(seat_name(s, names) for s in sorted(cutting))
            out.append(diag("PL501", f"cut round {r + 1} is cut by {want} and nobody else", f"/cut/{r}"))
            return out
        texts = [c for c in cards if c is not None]
        if len(set(texts)) != len(texts):
            out.append(diag("PL501", f"cut round {r + 1} shows the same card twice", f"/cut/{r}"))
            return out
        cutting = set(cut_round(cards, highest_pitches))  # the rule itself: engine/cut.py
        if len(cutting) == 1:
            if r != len(cut) - 1:
                out.append(
                    diag("PL501", f"the cut was decided in round {r + 1}, but more rounds follow", f"/cut/{r + 1}")
                )
            first = next(iter(cutting))
            if pitcher(first_dealer) != first:
                out.append(
                    diag(
                        "PL501",
                        f"{seat_name(first, names)} cut {word} and pitches first, so "
                        f"{seat_name(dealer_for(first, SEATS), names)} deals first, "
                        f"not {seat_name(first_dealer, names)}",
                        "/deals/0/dealer",
                    )
                )
            return out
    tied = " and ".join(seat_name(s, names) for s in sorted(cutting))
    out.append(
        diag("PL501", f"the cut ends with a tie for {word} between {tied}: they cut again", f"/cut/{len(cut) - 1}")
    )
    return out


def game_ending_problem(points: tuple[int, int], start: Sequence[int], target: int, one_peg: int) -> str | None:
    """Why ``points`` cannot be the deal in which the game ended at a peg (``peg_out: immediate``).

    The game ends at the first peg that reaches the target, so only one side reaches it, and that side
    had at most ``target - 1`` before its last peg, which adds at most ``one_peg``.
    """
    reached = [s for s in (0, 1) if start[s] + points[s] >= target]
    if len(reached) == 2:
        return f"both sides would reach {target}, but the game ends at the first peg that does"
    if not reached:
        return None
    side = reached[0]
    most = target - 1 - start[side] + one_peg
    if points[side] <= most:
        return None
    return (
        f"the game ends at the peg that reaches {target}: from {start[side]}, side {side} had at most "
        f"{target - 1} before it and one peg adds at most {one_peg}, so it pegs at most {most} in this deal"
    )


def sheet_note(sheet: list[int], count: int, noun: str) -> Diagnostic:
    """One note for all the score-sheet deals of a record: what a score sheet cannot prove."""
    if len(sheet) == count:
        which = f"the {noun} is" if count == 1 else f"all {count} {noun}s are"
    else:
        which = f"{noun} {numbered_ranges(sheet)} is" if len(sheet) == 1 else f"{noun}s {numbered_ranges(sheet)} are"
    return diag(
        "PL406",
        f"{which} recorded as a score sheet (no cards): the plays, the counters and the bonuses cannot be "
        "checked, only that each deal's points are a score the game can give, the running totals and the result",
        "/deals",
    )


def numbered_ranges(indices: list[int]) -> str:
    """``[0, 1, 2, 5]`` as "1-3, 6" (counting from 1)."""
    parts: list[str] = []
    start = prev = indices[0]
    for i in [*indices[1:], -2]:
        if i != prev + 1:
            parts.append(f"{start + 1}" if start == prev else f"{start + 1}-{prev + 1}")
            start = i
        prev = i
    return ", ".join(parts)


@dataclass(slots=True)
class Findings:
    """The engine's findings for one record."""

    diagnostics: list[Diagnostic]
    deals: int
    totals: list[int] | None
    winner: list[int] | None
    ended_at: tuple[int, int | None] | None  # (deal, trick) of the winning peg; trick None = bonus
    refused: bool = False  # the rules cannot be applied (PL601): nothing was replayed
    # Oh Hell: each hand's (bids, tricks taken) by seat, for the hands whose points were worked out; what
    # standings count bids made from (phatlog.events). None for the All Fours family.
    judged: list[tuple[list[int], list[int]]] | None = None

    @property
    def made(self) -> list[int] | None:
        """Oh Hell: the bids each seat made, over the ``judged`` hands; None for the All Fours family."""
        if self.judged is None:
            return None
        if not self.judged:
            return []
        seats = len(self.judged[0][0])
        return [sum(made(bids[s], taken[s]) for bids, taken in self.judged) for s in range(seats)]


@dataclass(slots=True)
class Tally:
    """The score and the table between deals."""

    totals: list[int]
    known: bool = True  # False once a deal's points had to be taken on trust and were not recorded
    carry: int = 0  # Phat's carried muck 8s
    previous_recorded: tuple[int, ...] | None = (0, 0)  # the last recorded running total
    ended_at: tuple[int, int | None] | None = None
    winner: int | None = None
    captured: tuple[int, int] | None = None  # the last deal's muck or game count, by side
    sheet_deals: list[int] = field(default_factory=list)  # deals recorded as a score sheet only
    unknown_from: int | None = None  # the first deal after which the totals could not be known
    pitcher: int = 1  # the pitcher of the deal being played (whose side pegs first on a shared award)


#: The rules of one game of the family (``PhatRulesView``, ...); a bare ``AllFoursReferee`` is any game's.
RulesT = TypeVar("RulesT", bound=PitchRulesView, covariant=True, default=PitchRulesView)


class AllFoursReferee(ABC, Generic[RulesT]):
    """The referee of one game of the family. The game's rules are its ``rules.*`` module's
    (``game_rules``); a subclass adds the game's own checks and wording; the play is shared."""

    game: ClassVar[str]
    hand_size: ClassVar[int]
    _counter_cache: ClassVar[dict[int, dict[str, int]]]

    def __init__(self, rules: RulesT) -> None:
        self.rules = rules
        #: The game's rules under this record's variant, as pure values and functions.
        self.game_rules = self.rules_of(rules)
        self.target: int = self.game_rules.target
        self.immediate: bool = self.game_rules.immediate
        self.follow = self.game_rules.follow
        # The rules compiled for the C kernel (``_hot_deal``, ``_trick.pitch_record``), made once for equal rules.
        self._hot_table = tables.pitch_table(self)

    #: Whether this referee is the one shared by every record of its rules (``for_rules``): then the
    #: Python replay, which keeps per-deal state on the referee, runs on a fresh one.
    shared: bool = False
    _by_rules: ClassVar[dict[object, Self]]  # type: ignore[misc]  # (each subclass has its own: __init_subclass__)

    @classmethod
    def for_rules(cls, rules: RulesT) -> Self:  # type: ignore[misc]  # (RulesT is covariant: read only here)
        """The referee for ``rules``, made once per rules value and shared (a referee per record cost a
        microsecond): rules views are frozen (msgspec structs, pydantic models), so equal rules are the same
        rules. Unhashable rules get a referee of their own."""
        try:
            game = cls._by_rules.get(rules)
        except TypeError:
            return cls(rules)
        if game is None:
            if len(cls._by_rules) >= 256:  # a bound, for a stream of records of ever different rules
                cls._by_rules.clear()
            game = cls(rules)
            game.shared = True
            cls._by_rules[rules] = game
        return game

    #: Whether the game's records may carry a cut for the first pitcher (Irish Don's have none).
    cuts: ClassVar[bool] = True

    #: Whether the game has a rule about the first deal (``check_first_deal`` overridden): else the kernel's
    #: path does not make the hands' sets for it.
    checks_first_deal: ClassVar[bool] = False

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._counter_cache = {}
        cls._by_rules = {}
        cls.checks_first_deal = cls.check_first_deal is not AllFoursReferee.check_first_deal

    @abstractmethod
    def rules_of(self, rules: RulesT) -> AllFoursGame:  # type: ignore[misc]  # (RulesT is covariant: read only here)
        """The game's rules (``rules.<game>``) under the record's rules."""

    def counters(self, trump: Suit) -> tuple[int, ...]:
        """The points each card pegs, at once, for the side that wins the trick it is in."""
        return self.game_rules.counters(trump)

    def bonuses(self, cards: DealCards, trump: int, state: Tally, reasons: bool = True) -> list[Bonus]:
        """The end-of-deal awards in the order they are pegged, from what they read of the cards; the
        state keeps the carry after them and the count they were decided on.

        ``reasons`` False: each award's ``reason`` is left empty (the referee with nobody listening: the
        words, with the cards spelt out, would cost more than the award)."""
        bonuses, state.carry, count = self.game_rules.awards(cards, trump, state.pitcher, state.carry, reasons)
        if count is not None:
            state.captured = count
        return bonuses

    def most_points(self, state: Tally) -> int:
        """The most points one side can peg in one deal: further below the target than this, a side
        cannot win in this deal, and its counters need not be pegged trick by trick."""
        return self.game_rules.most_points(state.carry)

    def check_rules(self) -> list[Diagnostic]:
        """Diagnostics for rules combinations that make no sense."""
        return []

    def check_cut(
        self, cut: Sequence[Sequence[str | None]], first_dealer: int, names: Sequence[str]
    ) -> list[Diagnostic]:
        """Diagnostics for the recorded cut for the first pitcher."""
        return []

    def check_first_deal(
        self, deal: PitchDealView, hands: list[set[str]] | None, names: Sequence[str]
    ) -> list[Diagnostic]:
        """Diagnostics for a game-specific rule about who pitches first."""
        return []

    def counter_texts(self, trump: int) -> dict[str, int]:
        """``counters`` keyed by card text, made once per trump suit."""
        table = self._counter_cache.get(trump)
        if table is None:
            values = self.counters(SUITS[trump])
            table = self._counter_cache[trump] = {CARD_TEXT[c]: values[c] for c in range(52)}
        return table

    # ------------------------------------------------------------------ the referee

    #: Who hears the referee's events (``referee(record, visitor)``); None: nobody (then the C kernel may play).
    visit: Visitor | None = None

    def referee(self, record: PitchRecordView, visitor: Visitor | None = None) -> Findings:
        """Replay a record and check everything it says; ``visitor`` hears every deal's events as the
        referee judges it (``engine.state``'s events, the faulty deals' included: see ``referee.referee``).

        With nobody listening, a record whose every deal is clean is refereed by one C call
        (``_trick.pitch_record``: the play, the awards, the target, the dealers and the recorded scores); it
        declines anything else, and the Python replay (``_replay``) does the record as if it had not run."""
        hot = HOT
        if hot is not None and visitor is None:
            done = hot.pitch_record(record.deals, self._hot_table)
            if done is not None:
                return self._clean_verdict(record, done)
        if self.shared:  # the replay keeps its deal's state on the referee: one of its own
            return type(self)(self.rules)._replay(record, visitor)
        return self._replay(record, visitor)

    def _clean_verdict(self, record: PitchRecordView, done: RecordDone) -> Findings:
        """The verdict on a record whose deals the C record path found clean: only what is per record is
        left to check (the rules, the cut, the end of the game and the result), as ``_replay`` checks it."""
        totals, winners, ended_at = done
        out = self.check_rules()
        cut: CutView | None = getattr(record, "cut", None) if self.cuts else None
        result = record.result
        if (
            out
            or cut is not None
            or winners is None
            or (
                result is not None
                and (
                    result.status != "finished"
                    or (result.winner is not None and result.winner != winners)
                    or (result.total is not None and result.total != totals)
                )
            )
        ):  # else the end and the result are as the replay finds them: nothing to say (``_check_end``)
            names = [p.name for p in record.players]
            if cut is not None:
                out.extend(self.check_cut(cut, record.deals[0].dealer, names))
            state = Tally(totals=list(totals), ended_at=ended_at, winner=None if winners is None else winners[0])
            unfinished = result is not None and result.status in rulings.STOPPED
            self._check_end(record, state, unfinished, out, names)
            if out:
                out = [x.located(names) for x in out]
        return Findings(out, len(record.deals), totals, winners, ended_at)

    def _replay(self, record: PitchRecordView, visitor: Visitor | None) -> Findings:
        """``referee`` in Python, deal by deal (each clean deal's tricks still with the C kernel where no
        visitor listens)."""
        names = [p.name for p in record.players]
        out: list[Diagnostic] = self.check_rules()
        state = Tally(totals=[0, 0])
        self.visit = visitor
        deals = record.deals
        result = record.result
        unfinished = result is not None and result.status in rulings.STOPPED
        cut: CutView | None = getattr(record, "cut", None)  # Irish Don records have no cut
        if cut is not None and deals:
            out.extend(self.check_cut(cut, deals[0].dealer, names))
        rotation = deal_check.Rotation(SEATS, names, name_record_first=False)
        last = len(deals) - 1
        for d, deal in enumerate(deals):
            if state.ended_at is not None:
                ed, et = state.ended_at
                when = f"at trick {et + 1} of deal {ed + 1}" if et is not None else f"after deal {ed + 1}"
                how = "won" if state.winner is not None else "over (both sides reached the target)"
                out.append(
                    diag(
                        "PL308",
                        f"the game was {how} {when}, but {len(deals) - d} more deal(s) are recorded",
                        f"/deals/{d}",
                    )
                )
                break
            dealer = deal.dealer
            rotation.check(d, dealer, out)
            self._ruled = (
                rulings.DealRulings.of(deal, d, SEATS, 2, side_of, names, self.revoke_penalty, out)
                if rulings.rulings_of(deal)
                else None  # what ``of`` says of a deal without rulings, for less
            )
            if self._ruled is not None and rulings.is_misdeal(deal):  # format 1.1: a void deal
                rulings.redeal(rotation)
                self._misdeal(deal, d, state, names, out)
                continue
            self._deal(deal, d, d == last and unfinished, state, names, out)
            if visitor is not None and state.ended_at is not None and state.ended_at[0] == d:
                visitor(GameOver(d, () if state.winner is None else (state.winner,), tuple(state.totals)))
        self.visit = None
        self._ruled = None
        if state.sheet_deals:
            out.append(sheet_note(state.sheet_deals, len(deals), "deal"))
        self._check_end(record, state, unfinished, out, names)
        return Findings(
            [x.located(names) for x in out],
            len(deals),
            list(state.totals) if state.known else None,
            None if state.winner is None else [state.winner],
            state.ended_at,
        )

    def _deal(
        self,
        deal: PitchDealView,
        d: int,
        may_stop: bool,
        state: Tally,
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        """One deal: find the hands, play the tricks, peg the bonus, check the recorded score."""
        tricks = deal.tricks
        state.pitcher = pitcher(deal.dealer)
        hot = HOT
        visit = self.visit
        if (
            hot is not None
            and visit is None
            and tricks
            and self._ruled is None
            and self._hot_deal(hot, deal, d, state, names, out)
        ):
            return
        hands = self._hands(deal, d, names, out)
        if d == 0:
            out.extend(self.check_first_deal(deal, hands, names))
        if visit is not None and hands is not None:
            undealt = cast(NineCardDonDealView, deal).undealt if self.undealt else None
            visit(
                DealBegins(
                    d,
                    deal.dealer,
                    tuple(tuple(sorted(CARD_BY_TEXT[c] for c in h)) for h in hands),
                    self.hand_size,
                    undealt=None if undealt is None else tuple(sorted(CARD_BY_TEXT[c] for c in undealt)),
                )
            )
        if not tricks:
            self._score_sheet(deal, d, state, names, out)
        elif not deal_check.short_tricks(deal, d, SEATS, self._ruled, out) or hands is None:
            self._take_recorded(deal, d, state, names, out, given_up=True)  # a short trick (PL207), no hands
        else:
            self._play(deal, d, hands, may_stop, state, names, out)

    def _hot_deal(
        self, hot: HotLoop, deal: PitchDealView, d: int, state: Tally, names: Sequence[str], out: list[Diagnostic]
    ) -> bool:
        """The untraced replay of a clean deal, with the C kernel: False, having done nothing, where the
        kernel reports a fault or anything but the common, clean case (then ``_hands`` and ``_play``
        replay the deal and say what is wrong). What follows the tricks (the bonuses, the score checks) is
        the same code as ``_play``'s; tests/test_hot.py holds the two paths to the same verdicts."""
        totals = state.totals
        start = (totals[0], totals[1])
        want_hands = d == 0
        tricks = deal.tricks
        assert tricks is not None  # ``_deal`` hands the kernel only a deal with tricks
        done = hot.play(
            deal.hands,
            tricks,
            cast(NineCardDonDealView, deal).undealt if self.undealt else None,  # only Nine-card Don's deals list it
            state.pitcher,
            self._hot_table,
            start[0],
            start[1],
            want_hands,
        )
        if len(done) == 3:
            return False  # a fault: the Python engine replays the deal and words it
        (
            _,
            trump,
            totals[0],
            totals[1],
            ended,
            side,
            game0,
            game1,
            high,
            high_seat,
            low,
            low_seat,
            low_side,
            jack,
            hands,
        ) = done
        if d == 0 and self.checks_first_deal:
            as_dealt = deal.hands if hands is None else hands
            assert as_dealt is not None  # the kernel infers the hands where the record has none
            out.extend(self.check_first_deal(deal, [set(h) for h in as_dealt], names))
        state.captured = None
        if ended >= 0:
            state.ended_at = (d, ended)
            state.winner = side
        elif not self.keeps_hands:
            self._peg_bonuses(d, DealCards((game0, game1), None, None, None, None), trump, state)  # Phat's muck
        else:
            cards = DealCards(
                (game0, game1),
                None if high < 0 else (DECK[high], high_seat),
                None if low < 0 else (DECK[low], low_seat),
                None if low_side < 0 else low_side,
                None if jack < 0 else jack,
            )
            self._peg_bonuses(d, cards, trump, state)
        self._score_deal(deal, d, start, state, names, out)
        return True

    # ------------------------------------------------------------------ hands

    def _hands(self, deal: PitchDealView, d: int, names: Sequence[str], out: list[Diagnostic]) -> list[set[str]] | None:
        """The hands as dealt: recorded, or inferred from the tricks. None if the record's are faulty."""
        if deal.hands is not None:
            hands = [set(h) for h in deal.hands]
            if len(hands[0] | hands[1] | hands[2] | hands[3]) != SEATS * self.hand_size:
                deal_check.report_dealt(deal.hands, d, self.hand_size, names, out)
                if self.hand_size * SEATS == 52:
                    dealt = hands[0] | hands[1] | hands[2] | hands[3]
                    missing = [CARD_TEXT[c] for c in range(52) if CARD_TEXT[c] not in dealt]
                    if missing:
                        out.append(
                            diag(
                                "PL204",
                                f"no hand holds {', '.join(missing)}: the whole pack is dealt",
                                f"/deals/{d}/hands",
                            )
                        )
                out.append(
                    diag("PL307", f"deal {d + 1} cannot be scored: its hands are not a proper deal", f"/deals/{d}")
                )
                return None

            def dealt_to(text: str) -> str:
                return f"was dealt to {seat_name(next(s for s, h in enumerate(hands) if text in h), names)}"

            how = dealt_to
        else:
            played = deal.tricks or ()
            inferred = deal_check.infer_hands(played, d, SEATS, self.hand_size, "deal", names, out)
            if inferred is None:
                out.append(diag("PL307", f"deal {d + 1} cannot be scored: a card is played twice", f"/deals/{d}"))
                return None
            hands = inferred

            def played_by(text: str) -> str:
                t, i = next((t, tr.cards.index(text)) for t, tr in enumerate(played) if text in tr.cards)
                return f"{seat_name(seat_of(played[t].leader, i, SEATS), names)} played it in trick {t + 1}"

            how = played_by
        if self.undealt:
            listing = cast(NineCardDonDealView, deal)  # only Nine-card Don's deals list the undealt cards
            if listing.undealt is not None and not self._undealt_ok(listing, d, hands, how, out):
                return None
        return hands

    #: Whether the game leaves cards undealt that a record may list (Nine-card Don's 16).
    undealt: ClassVar[bool] = False

    def _undealt_ok(
        self, deal: NineCardDonDealView, d: int, hands: list[set[str]], how: Callable[[str], str], out: list[Diagnostic]
    ) -> bool:
        """The undealt cards, where listed, are the rest of the pack: none of them dealt (or, where the
        hands are not recorded, played), none listed twice."""
        dealt = hands[0] | hands[1] | hands[2] | hands[3]
        ok = True
        seen: set[str] = set()
        assert deal.undealt is not None  # ``_hands`` asks only where the undealt cards are listed
        for i, text in enumerate(deal.undealt):
            if text in dealt:
                out.append(diag("PL201", f"{text} is listed as undealt but {how(text)}", f"/deals/{d}/undealt/{i}"))
                ok = False
            elif text in seen:
                out.append(diag("PL201", f"{text} is listed twice as undealt", f"/deals/{d}/undealt/{i}"))
                ok = False
            seen.add(text)
        if not ok:
            out.append(diag("PL307", f"deal {d + 1} cannot be scored: its cards are not a proper deal", f"/deals/{d}"))
        return ok

    # ------------------------------------------------------------------ play

    def _play(
        self,
        deal: PitchDealView,
        d: int,
        hands: list[set[str]],
        may_stop: bool,
        state: Tally,
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        """Play the deal's tricks in order (the deals the C kernel declines, and replays with a visitor).

        The trick loop is the referees' shared one (``deal_check.play_tricks``: the right player leads; all
        four cards come from their players' hands, then every player follows suit if able; the strongest
        card wins); what is the family's own is the hook for a trick won: its side pegs the counters
        (``peg``), which may end the game.
        """
        tricks = deal.tricks
        assert tricks is not None  # ``_deal`` plays only a deal with tricks
        totals = state.totals
        start = (totals[0], totals[1])
        target = self.target
        immediate = self.immediate
        state.captured = None  # this deal's muck or game count, once its bonus is pegged
        dealt = [set(h) for h in hands] if self.keeps_hands else hands
        # Counters are pegged trick by trick only where a side could reach the target in this deal;
        # otherwise they are added up at the end of the deal, which gives the same totals.
        visit = self.visit
        pegging = visit is not None or max(start) + self.most_points(state) >= target
        follow = self.follow
        captured: tuple[list[str], list[str]] = ([], [])
        trump = int(trump_of_pitch(CARD_BY_TEXT[tricks[0].cards[0]]))
        counters = self.counter_texts(trump)
        ended_by: list[int] = []  # the side that reached the target at a peg, and ended the game

        def won(t: int, trick: TrickView, position: int, winner: int, taken: Sequence[int]) -> bool:
            """The winner's side takes the cards, and pegs the counters in them at once."""
            side = winner & 1  # ``side_of``, inlined (every trick of a replay)
            cards = trick.cards
            captured[side].extend(cards)
            if not pegging:
                return False
            points = sum(map(counters.__getitem__, cards))
            ends = bool(points) and peg(totals, side, points, target, immediate)
            if ends:
                state.ended_at = (d, t)
                state.winner = side
                ended_by.append(side)
            if visit is not None:
                played = tuple(CARD_BY_TEXT[c] for c in cards)
                visit(
                    TrickWon(
                        d,
                        t,
                        trick.leader,
                        played,
                        winner,
                        position,
                        explain_winner(played, SUITS[trump], follow),
                        tuple((CARD_BY_TEXT[c], counters[c]) for c in cards if counters[c]),
                        points,
                        (totals[0], totals[1]) if state.known else None,
                        tuple(taken),
                    )
                )
            return ends

        ruled = self._ruled  # format 1.1: a ruled revoke stands as played
        play, fault = deal_check.play_tricks(
            deal, d, hands, FIRST_LEADER, trump, follow, True, names, out, won, ruled=ruled
        )
        if fault is not None:
            return self._unscorable(deal, d, fault, start, state, names, out)
        ended = bool(ended_by)
        t = play.played - 1
        if ended and t + 1 < len(tricks):
            out.append(
                diag(
                    "PL305",
                    f"{side_label(ended_by[0], names)} reached {target} in trick {t + 1} of deal {d + 1}, which ended "
                    f"the game, but {len(tricks) - t - 1} more trick(s) are recorded",
                    f"/deals/{d}/tricks/{t + 1}",
                )
            )
        played = t + 1
        if ruled is not None:
            ruled.unmatched_revokes(played + (1 if play.trick else 0), out)  # a partly played trick is judged too
            claim = None if ended else ruled.claim_rest(played, self.hand_size, out)
            if claim is not None:  # whether the claim was sound, where every hand is known
                ruled.audit = rulings.audit_claim(
                    deal,
                    d,
                    ruled.claim,
                    ruled.claim_at,
                    out,
                    play=play,
                    trump=trump,
                    follow=follow,
                    partnerships=True,
                    names=names,
                )
            if claim and deal.hands is None:
                claim = False  # the unplayed cards are not known: the recorded score, as a sheet's
            if claim is False:  # a claim that leaves the cards' fate open: the recorded score, as a sheet's
                self.visit_ruled(d, "claim", ruled.claim_text(), played, None)
                state.totals[:] = start
                state.ended_at = state.winner = None
                state.sheet_deals.append(d)
                return self._take_recorded(deal, d, state, names, out, sheet=True)
            if claim:  # the claimer's side takes every unplayed card
                rest = play.trick + [c for h in hands for c in sorted(h)]  # the trick in progress too
                side = side_of(ruled.claim.seat)
                captured[side].extend(rest)
                if pegging:
                    points = sum(map(counters.__getitem__, rest))
                    if points and peg(totals, side, points, target, self.immediate):
                        state.ended_at = (d, None)
                        state.winner = side
                        ended = True
                self.visit_ruled(d, "claim", ruled.claim_text(), played, side)
                played = self.hand_size
        if not pegging:
            totals[0] += sum(map(counters.__getitem__, captured[0]))
            totals[1] += sum(map(counters.__getitem__, captured[1]))
        if not ended:
            if played < self.hand_size and not may_stop:
                out.append(deal_check.cut_short("deal", d, played, self.hand_size, "but nobody had won the game"))
            elif played == self.hand_size:
                self._peg_bonuses(d, deal_cards(captured, dealt if self.keeps_hands else None, trump), trump, state)
        self._score_deal(deal, d, start, state, names, out)

    def _score_deal(
        self,
        deal: PitchDealView,
        d: int,
        start: tuple[int, int],
        state: Tally,
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        """After a deal is played (and its bonus pegged): peg its rulings, check the recorded score."""
        totals = state.totals
        if self._ruled is not None:
            self._peg_rulings(d, state, out)
        deal_points = (totals[0] - start[0], totals[1] - start[1])
        if not state.known and deal.score is not None and deal.score.total is not None:
            # Re-anchored on the scorer's total after a deal whose points were never recorded.
            totals[:] = list(deal.score.total)
            state.known = True
        score = deal.score
        if score is None:
            state.previous_recorded = None
        elif score.points == [deal_points[0], deal_points[1]] and score.total == totals and state.known:
            state.previous_recorded = (totals[0], totals[1])  # all as the rules give: nothing to report
        else:
            self._check_score(deal, d, deal_points, state, names, out)
        if self.visit is not None:
            known = (totals[0], totals[1]) if state.known else None
            self.visit(DealScored(d, deal_points, known, captured=state.captured))

    #: Whether ``bonuses`` reads the hands as dealt (Don's high and low); Phat's muck does not.
    keeps_hands: ClassVar[bool] = False

    def _peg_bonuses(self, d: int, cards: DealCards, trump: int, state: Tally) -> None:
        """After the last trick: peg the game's end-of-deal awards, in order, each checked for the target."""
        totals = state.totals
        visit = self.visit
        bonuses = self.bonuses(cards, trump, state, visit is not None)
        if visit is None:  # ``peg_bonuses`` inlined (``verify``: every deal comes here)
            target, immediate = self.target, self.immediate
            for bonus in bonuses:
                side = bonus.side
                if side is not None and bonus.points > 0:
                    totals[side] += bonus.points
                    if immediate and totals[side] >= target:
                        state.ended_at = (d, None)
                        state.winner = side
                        break
        else:
            for bonus, scored, ends in peg_bonuses(bonuses, totals, self.target, self.immediate):
                visit(pegged(d, bonus, scored, totals if state.known else None))
                if ends:
                    state.ended_at = (d, None)
                    state.winner = bonus.side
        if not self.immediate and state.ended_at is None:
            winner = end_of_deal_winner(totals, self.target)
            if winner is not None:
                state.winner = winner
                state.ended_at = (d, None)

    # ------------------------------------------------------------------ illegal plays

    def _unscorable(
        self,
        deal: PitchDealView,
        d: int,
        t: int,
        start: tuple[int, int],
        state: Tally,
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        """After an illegal play: say so once, forget what this deal pegged, and take the record's points.
        A visitor hears of the recorded tricks from the illegal one on, shown unscored (``TrickShown``)."""
        visit = self.visit
        if visit is not None:
            tricks = deal.tricks
            assert tricks is not None  # an illegal play was found in them
            rest = [(tr.leader, [CARD_BY_TEXT[c] for c in tr.cards]) for tr in tricks[t:]]
            for event in shown_tricks(d, t, rest, trump_of_pitch(CARD_BY_TEXT[tricks[0].cards[0]]), SEATS, self.follow):
                visit(event)
        out.append(deal_check.unscorable("deal", d, t))
        state.totals[:] = start
        if state.ended_at is not None and state.ended_at[0] == d:
            state.ended_at = None
            state.winner = None
        self._take_recorded(deal, d, state, names, out, given_up=True)

    # ------------------------------------------------------------------ rulings (format 1.1)

    #: The rulings of the deal being judged (None: it has none, as every 1.0 deal).
    _ruled: rulings.DealRulings | None = None

    @property
    def revoke_penalty(self) -> int | None:
        value: int | None = getattr(self.rules, "revoke_penalty", None)
        return value

    def visit_ruled(self, d: int, kind: str, text: str, trick: int | None, side: int | None, points: int = 0) -> None:
        """Tell the visitor of a ruling applied."""
        if self.visit is not None:
            self.visit(Ruled(d, kind, text, trick, None, side, points, None))

    def _peg_rulings(self, d: int, state: Tally, out: list[Diagnostic]) -> None:
        """Peg the deal's revoke penalties and adjustments, in order, each checked for the target."""
        ruled = self._ruled
        assert ruled is not None
        totals = state.totals
        reached, pegs = ruled.peg_after(totals, self.target, self.immediate, out)
        if self.visit is not None:
            for peg in pegs:
                after = peg.after if state.known else None
                self.visit(Ruled(d, peg.kind, peg.text, peg.trick, None, peg.side, peg.points, after))
        if state.ended_at is None:
            if reached is not None:
                state.ended_at, state.winner = (d, None), reached
            elif not self.immediate:
                winner = end_of_deal_winner(totals, self.target)
                if winner is not None:
                    state.winner, state.ended_at = winner, (d, None)

    def _misdeal(self, deal: PitchDealView, d: int, state: Tally, names: Sequence[str], out: list[Diagnostic]) -> None:
        """A misdeal: the deal is void. It may record no play; its adjustments are pegged; its score checked."""
        rulings.misdeal_play(deal, d, out)
        self.visit_ruled(d, "misdeal", f"deal {d + 1} is a misdeal: void, the same dealer deals again", None, None)
        start = (state.totals[0], state.totals[1])
        self._peg_rulings(d, state, out)
        points = (state.totals[0] - start[0], state.totals[1] - start[1])
        if deal.score is not None:
            self._check_score(deal, d, points, state, names, out)
        if self.visit is not None:
            known = (state.totals[0], state.totals[1]) if state.known else None
            self.visit(DealScored(d, points, known, passed_over=True))

    def counter_name(self, card: Card, trump: Suit) -> str | None:
        """The game's name for a counter, where it has one ("Big Phat")."""
        return None

    def _score_sheet(
        self,
        deal: PitchDealView,
        d: int,
        state: Tally,
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        """A deal recorded as a score sheet keeps: its points, which must be a score a deal can give."""
        state.sheet_deals.append(d)
        if self._ruled is not None:  # format 1.1: what a score sheet's rulings can be checked against
            self._ruled.on_sheet(deal, names, out)
        self._take_recorded(deal, d, state, names, out, sheet=True, given_up=bool(deal.hands))

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: Tally) -> str | None:
        """Why no deal of this game can score ``points`` (None if one can). ``reaches``: a side reached
        the target in this deal, which may have ended it early."""
        return None

    def _take_recorded(
        self,
        deal: PitchDealView,
        d: int,
        state: Tally,
        names: Sequence[str],
        out: list[Diagnostic],
        sheet: bool = False,
        given_up: bool = False,
    ) -> None:
        """A deal the engine cannot score: carry on from the scorer's figures (``sheet``: a score-sheet
        deal, whose points must be a score the game can give; ``given_up``: a deal dealt, or meant to be
        played, whose play went wrong, as a visitor hears it)."""
        score = deal.score
        start = (state.totals[0], state.totals[1])
        known = state.known
        if score is not None and score.points is not None:
            points = (score.points[0], score.points[1])
            # The points must be a score a deal can give; that also keeps Phat's carried muck in step.
            reaches = any(state.totals[s] + points[s] >= self.target for s in (0, 1))
            # (Where the totals are not known, each game judges what it still can: see sheet_points_problem.)
            own = points
            if self._ruled is not None:  # format 1.1: the deal's own points, without its penalties and adjustments
                extra = self._ruled.ruling_points()
                own = (points[0] - extra[0], points[1] - extra[1])
            problem = self.sheet_points_problem(own, reaches, state) if min(own) >= 0 else "points are never negative"
            if sheet and problem is not None:
                out.append(
                    diag(
                        "PL401",
                        f"deal {d + 1} is recorded with {points[0]}-{points[1]}: {problem}",
                        f"/deals/{d}/score/points",
                    )
                )
            state.totals[0] += points[0]
            state.totals[1] += points[1]
            self._check_score(deal, d, points, state, names, out, check_points=False)
        elif score is not None and score.total is not None:
            state.totals[:] = list(score.total)
            state.previous_recorded = (score.total[0], score.total[1])
            state.known = True
        else:
            if state.known:
                state.unknown_from = d
            state.known = False
            state.previous_recorded = None
        totals = state.totals
        if self.visit is not None:
            points_taken: tuple[int, int] | None = (totals[0] - start[0], totals[1] - start[1])
            if score is None or (score.points is None and (score.total is None or not known)):
                points_taken = None  # neither recorded nor known from a recorded total
            after = (totals[0], totals[1]) if state.known else None
            self.visit(DealScored(d, points_taken, after, passed_over=True, given_up=given_up))
        if state.known and state.ended_at is None and max(totals) >= self.target:
            winner = passed_deal_winner(totals, self.target, self.immediate)
            if winner is not None:
                state.ended_at = (d, None)
                state.winner = winner
            elif self.immediate:
                state.ended_at = (d, None)  # the game ended here, but the record cannot show who pegged out first
                out.append(
                    diag(
                        "PL406",
                        f"both sides reached {self.target} in deal {d + 1}; the record does not show which pegged "
                        "out first, so the winner cannot be checked",
                        f"/deals/{d}",
                    )
                )

    # ------------------------------------------------------------------ scores

    def _check_score(
        self,
        deal: PitchDealView,
        d: int,
        points: tuple[int, int],
        state: Tally,
        names: Sequence[str],
        out: list[Diagnostic],
        check_points: bool = True,
    ) -> None:
        """Check a deal's recorded points and running total (see ``scoring``)."""
        state.previous_recorded = check_deal_score(
            deal.score,
            d,
            points,
            state.totals,
            state.known,
            state.previous_recorded,
            lambda side: side_label(side, names),
            out,
            check_points,
        )

    def _check_end(
        self, record: PitchRecordView, state: Tally, unfinished: bool, out: list[Diagnostic], names: Sequence[str]
    ) -> None:
        won = state.winner
        result = record.result
        if not state.known:
            claims = result is not None and (result.winner is not None or result.total is not None)
            if claims or not unfinished:
                out.append(
                    diag(
                        "PL406",
                        f"deal {(state.unknown_from or 0) + 1} could not be scored and its points are not recorded, "
                        "so the totals from there on, the end of the game and the result cannot be checked",
                        f"/deals/{state.unknown_from or 0}",
                    )
                )
            return
        if won is None and not unfinished and state.ended_at is None:
            out.append(
                diag(
                    "PL405",
                    f"the record ends at {state.totals[0]}-{state.totals[1]} with nobody the winner (target "
                    f"{self.target}), and its result does not say the game was stopped (status 'unfinished')",
                    "/deals",
                )
            )
        ed, et = state.ended_at or (0, None)
        when = f"in trick {et + 1} of deal {ed + 1}" if et is not None else f"at the end of deal {ed + 1}"
        check_result(
            record.result,
            None if won is None else [won],
            state.totals,
            state.known,
            lambda side: side_label(side, names),
            when,
            out,
            winner_unknown=won is None and state.ended_at is not None,
            side_of=side_of,
            seats=SEATS,
        )
