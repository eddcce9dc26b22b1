"""The All Fours family's rules as its referee reads them: each game's rules (``rules.all_fours``,
``rules.table``, ``rules.trick``, and ``rules.phat``, ``rules.nine_card_don``, ``rules.irish_don``) under
a record's variant, with what only a referee needs (the checks of the rules, the cut and the first deal,
the points a score sheet may record); ``phat``, ``nine_card_don`` and ``irish_don`` supply what differs.

Nothing here plays a deal: the State does (``engine.pitch_state``), driven over a record by the referee
(``referee.all_fours``), which words every difference between the record and the State.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, Self, cast

from typing_extensions import TypeVar  # with a default (typing's has one from 3.13); pydantic depends on it

from phatlog._native import kernel_module, tables
from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.record.view import PitchDealView, PitchRulesView, TrickView
from phatlog.rules.all_fours import (
    AllFoursGame,
    Bonus,
    DealCards,
)
from phatlog.rules.cards import CARD_TEXT, Card, Suit
from phatlog.rules.cut import cut_round
from phatlog.rules.oh_hell import made
from phatlog.rules.table import SEATS, dealer_for, pitcher, side_of

if TYPE_CHECKING:
    from phatlog._native._trick import Fault, OhHellDone, PitchDeal, RecordDone


class TrickKernel(Protocol):
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


def trick_kernel() -> TrickKernel | None:
    """The C trick kernel, or None: not built (it is optional), or ``PHATLOG_PURE_PYTHON=1`` is set."""
    return cast("TrickKernel | None", kernel_module("_trick"))


class TellingKernel(Protocol):
    """The C trick kernel's whole-record check that also tells what it decided (``_trick.pitch_record``
    with ``deals_out`` and ``tricks_out``, for ``phatlog export``)."""

    def pitch_record(
        self, deals: Sequence[PitchDealView], table: bytes, deals_out: bytearray, tricks_out: bytearray, /
    ) -> RecordDone | None: ...


def telling_kernel() -> TellingKernel | None:
    """The C trick kernel, telling (``trick_kernel``), or None."""
    return cast("TellingKernel | None", kernel_module("_trick"))


#: The C kernel that untraced replays use (tests switch it off to compare with the Python engine,
#: which stays the reference and replays every deal the C code declines).
KERNEL: TrickKernel | None = trick_kernel()
#: The same kernel, telling what it decides (``AllFours.referee_told``).
TELLING: TellingKernel | None = telling_kernel()

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
    """What the game's rules read and keep of the table (for ``bonuses`` and ``sheet_points_problem``):
    the totals, whether they are known, Phat's carried muck, the last deal's muck or game count, and the
    pitcher."""

    totals: list[int]
    known: bool = True  # False once a deal's points had to be taken on trust and were not recorded
    carry: int = 0  # Phat's carried muck 8s
    captured: tuple[int, int] | None = None  # the last deal's muck or game count, by side
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
        # The rules compiled for the C kernel (``all_fours.Driver.kernel_deal``, ``_trick.pitch_record``), made
        # once for equal rules.
        self._kernel_table = tables.pitch_table(self)
        #: Whether ``check_rules`` finds anything: the rules are the referee's, so it is asked once, and a
        #: clean record's verdict (``AllFours._clean_verdict``) calls it only where it does.
        self.rules_questioned = bool(self.check_rules())

    #: Whether this referee is the one shared by every record of its rules (``for_rules``).
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

    #: Whether ``bonuses`` reads the hands as dealt (Don's high and low); Phat's muck does not.
    keeps_hands: ClassVar[bool] = False

    #: Whether the game leaves cards undealt that a record may list (Nine-card Don's 16).
    undealt: ClassVar[bool] = False

    def counter_name(self, card: Card, trump: Suit) -> str | None:
        """The game's name for a counter, where it has one ("Big Phat")."""
        return None

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: Tally) -> str | None:
        """Why no deal of this game can score ``points`` (None if one can). ``reaches``: a side reached
        the target in this deal, which may have ended it early."""
        return None
