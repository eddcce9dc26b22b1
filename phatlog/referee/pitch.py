"""The All Fours family: how Phat, Nine-card Don and Irish Don play and score a deal.

Four players sit in two partnerships: side 0 is seats 0 and 2, side 1 is seats 1 and 3. The player on
the dealer's left is the pitcher. The pitcher leads to the first trick, and the suit of that card is
trump for the whole deal. Each player in turn must follow suit if able (under the old Don rule a player
may trump instead), and the highest trump, or else the highest card of the suit led, wins the trick.
The winner leads to the next trick.

As soon as a trick is won, the winner's side pegs the counters in it (which cards count, and how much,
is each game's own table). When the last trick has been played the game's end-of-deal bonus, if it has
one, is pegged: Phat's muck, Don's game, high, low and jack. The deal then passes to the left.

The first side to reach the target wins. Under ``peg_out: immediate`` the game ends at the very peg that
reaches it, in the middle of a deal if so: the rest of that deal is not played and no bonus is pegged.
Under ``end_of_deal`` the target is looked at only after the bonus; the higher total wins and equal
totals play on.

This module holds the family's rules as the referee and the State read them; ``phat``, ``nine_card_don``
and ``irish_don`` supply what differs. Nothing here plays a deal: the State does
(``engine.pitch_state``), driven over a record by the referee (``referee.all_fours``), which words every
difference between the record and the State.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, NamedTuple, Protocol, Self, cast

from typing_extensions import TypeVar  # with a default (typing's has one from 3.13); pydantic depends on it

from phatlog._native import kernel_module
from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.engine.state import Pegged
from phatlog.record.view import PitchDealView, PitchRulesView, TrickView
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Card, Rank, Suit
from phatlog.rules.cut import cut_round
from phatlog.rules.trick import SUIT_BY_TEXT, FollowRule

if TYPE_CHECKING:
    from phatlog._native._hot import Fault, OhHellDone, PitchDeal, RecordDone, RecordParams


class HotLoop(Protocol):
    """The C trick kernel (``phatlog/_native/_hot.c``, its contract in ``_hot.pyi``): success ``(0, ...)``
    or a fault ``(kind, trick, position)``, on which the Python engine replays the deal and words it."""

    def play(
        self,
        hands: Sequence[Sequence[str | None]] | None,
        tricks: Sequence[TrickView],
        undealt: Sequence[str] | None,
        pitcher: int,
        hand_size: int,
        counters: bytes,
        follow: int,
        total0: int,
        total1: int,
        target: int,
        immediate: bool,
        want_hands: bool,
        /,
    ) -> PitchDeal | Fault: ...

    def pitch_record(self, deals: Sequence[PitchDealView], params: RecordParams, /) -> RecordDone | None: ...

    def oh_hell(
        self,
        hands: Sequence[Sequence[str | None]] | None,
        tricks: Sequence[TrickView],
        turnup: str | None,
        leader: int,
        seats: int,
        hand_size: int,
        trump: int,
        follow: int,
        /,
    ) -> OhHellDone | Fault: ...


#: Who leads the first trick of a deal, for PL301.
FIRST_LEADER = "the pitcher, {seat} (on the dealer's left),"

#: The follow rules as the C kernel takes them.
HOT_FOLLOW: dict[FollowRule, int] = {FollowRule.MUST_FOLLOW: 0, FollowRule.FOLLOW_OR_TRUMP: 1, FollowRule.MUST_TRUMP: 2}

#: The games as the C record path takes them (``_hot.pitch_record``).
HOT_GAMES: dict[str, int] = {"phat": 0, "nine_card_don": 1, "irish_don": 2}


def hot_loop() -> HotLoop | None:
    """The C trick kernel, or None: not built (it is optional), or ``PHATLOG_PURE_PYTHON=1`` is set."""
    return cast("HotLoop | None", kernel_module())


#: The C kernel that untraced replays use (tests switch it off to compare with the Python engine,
#: which stays the reference and replays every deal the C code declines).
HOT: HotLoop | None = hot_loop()

SEATS = 4
SUITS = tuple(Suit)


def side_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat & 1


def side_label(side: int, names: Sequence[str]) -> str:
    """A side for people: "Ann & Cal"."""
    return f"{seat_name(side, names)} & {seat_name(side + 2, names)}"


#: Card points of Phat's muck and Don's game: A 4, K 3, Q 2, J 1, T 10, in every suit, trumps included.
GAME_POINTS: dict[str, int] = {
    CARD_TEXT[c]: {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10}.get(Rank(c % 13), 0)
    for c in range(52)
}


def card_points(cards: Iterable[str]) -> int:
    """The muck (Phat) or game (Don) count of some cards."""
    return sum(map(GAME_POINTS.__getitem__, cards))


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
            pitcher = next(iter(cutting))
            if (first_dealer + 1) % SEATS != pitcher:
                out.append(
                    diag(
                        "PL501",
                        f"{seat_name(pitcher, names)} cut {word} and pitches first, so "
                        f"{seat_name((pitcher + 3) % SEATS, names)} deals first, not {seat_name(first_dealer, names)}",
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


def end_of_deal_winner(totals: Sequence[int], target: int) -> int | None:
    """Under ``peg_out: end_of_deal``: the side that wins when the deal is over (the higher total, once a
    side has reached the target), or None (nobody has, or the totals are equal: play on)."""
    if max(totals) >= target and totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None


def peg(totals: list[int], side: int, points: int, target: int, immediate: bool) -> bool:
    """Peg ``points`` to ``side``: True if the game ends at this peg (``peg_out: immediate`` and the side
    reaches the target), in mid-deal if so."""
    totals[side] += points
    return immediate and totals[side] >= target


def peg_bonuses(
    bonuses: Sequence[Bonus], totals: list[int], target: int, immediate: bool
) -> Iterable[tuple[Bonus, bool, bool]]:
    """Peg the end-of-deal awards in order: ``(bonus, scored, ends)`` for each, and nothing after the one
    at which the game ends (``peg``). An award to nobody, or of no points, is not pegged."""
    for bonus in bonuses:
        scored = bonus.side is not None and bonus.points > 0
        ends = scored and bonus.side is not None and peg(totals, bonus.side, bonus.points, target, immediate)
        yield bonus, scored, ends
        if ends:
            return


def passed_deal_winner(totals: Sequence[int], target: int, immediate: bool) -> int | None:
    """The winner after a deal taken as the scorer recorded it (no pegs to say who reached the target
    first): the higher total once a side has reached it, except under ``peg_out: immediate`` where both
    sides did (the record cannot show which pegged out first)."""
    winner = end_of_deal_winner(totals, target)
    return winner if winner is not None and (not immediate or min(totals) < target) else None


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
    kernel works these out with the play; ``deal_cards`` is the reference (tests/test_hot.py holds the two
    to the same verdicts)."""

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


@dataclass(slots=True)
class Verdict:
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
        return [sum(bids[s] == taken[s] for bids, taken in self.judged) for s in range(seats)]


@dataclass(slots=True)
class Tally:
    """What the game's rules read and keep of the table (the State's, for ``bonuses`` and
    ``sheet_points_problem``): the totals, whether they are known, Phat's carried muck, the last deal's
    muck or game count, and the pitcher."""

    totals: list[int]
    known: bool = True  # False once a deal's points had to be taken on trust and were not recorded
    carry: int = 0  # Phat's carried muck 8s
    captured: tuple[int, int] | None = None  # the last deal's muck or game count, by side
    pitcher: int = 1  # the pitcher of the deal being played (whose side pegs first on a shared award)


#: The rules of one game of the family (``PhatRulesView``, ...); a bare ``AllFoursReferee`` is any game's.
RulesT = TypeVar("RulesT", bound=PitchRulesView, covariant=True, default=PitchRulesView)


class AllFoursReferee(ABC, Generic[RulesT]):
    """One game of the family. Subclasses hold the game's tables and bonus; the play is shared."""

    game: ClassVar[str]
    hand_size: ClassVar[int]
    _counter_cache: ClassVar[dict[int, dict[str, int]]]
    _counter_bytes: ClassVar[bytes | None]

    def __init__(self, rules: RulesT) -> None:
        self.rules = rules
        self.target: int = rules.target
        self.immediate: bool = rules.peg_out == "immediate"
        self.follow = FollowRule(getattr(rules, "follow", FollowRule.MUST_FOLLOW.value))
        # The kernel's fixed arguments, made once.
        self._hot_counters = self.counter_bytes()
        self._hot_follow = HOT_FOLLOW[self.follow]
        # The rules in typed form for the C record path (``_hot.pitch_record``), made once.
        muck_tie, bonus, low_to_capturer = self.hot_codes()
        self._hot_rules: RecordParams = (
            HOT_GAMES[self.game],
            self.hand_size,
            self._hot_counters,
            self._hot_follow,
            self.target,
            int(self.immediate),
            int(self.undealt),
            muck_tie,
            bonus,
            low_to_capturer,
        )

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

    def hot_codes(self) -> tuple[int, int, int]:
        """The game's own rules for ``_hot.pitch_record``: Phat's ``muck_tie`` (0 none, 1 carry, 2 both),
        Nine-card Don's ``bonus`` (0 game_8, 1 six_high_jack, 2 five_high_low_jack) and whether its
        ``low_to`` is the capturer."""
        return (0, 0, 0)

    #: Whether the game's records may carry a cut for the first pitcher (Irish Don's have none).
    cuts: ClassVar[bool] = True

    #: Whether the game has a rule about the first deal (``check_first_deal`` overridden): else the kernel's
    #: path does not make the hands' sets for it.
    checks_first_deal: ClassVar[bool] = False

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._counter_cache = {}
        cls._counter_bytes = None
        cls._by_rules = {}
        cls.checks_first_deal = cls.check_first_deal is not AllFoursReferee.check_first_deal

    @abstractmethod
    def counters(self, trump: Suit) -> tuple[int, ...]:
        """The points each card pegs, at once, for the side that wins the trick it is in."""

    @abstractmethod
    def bonuses(self, cards: DealCards, trump: int, state: Tally, reasons: bool = True) -> list[Bonus]:
        """The end-of-deal awards in the order they are pegged, from what they read of the cards.

        ``reasons`` False: each award's ``reason`` is left empty (the referee with nobody listening: the
        words, with the cards spelt out, would cost more than the award)."""

    @abstractmethod
    def most_points(self, state: Tally) -> int:
        """The most points one side can peg in one deal: further below the target than this, a side
        cannot win in this deal, and its counters need not be pegged trick by trick."""

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

    def counter_bytes(self) -> bytes:
        """``counters`` for the C kernel: 52 bytes by card id for each trump suit in turn, made once."""
        table = type(self)._counter_bytes
        if table is None:
            table = type(self)._counter_bytes = bytes(v for suit in SUITS for v in self.counters(suit))
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
