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

This module is the referee for the whole family; ``phat``, ``don`` and ``irish_don`` supply what differs.
It replays a record deal by deal and collects a diagnostic for every problem it finds: after an illegal
play the rest of that deal cannot be scored, so it says so once and carries on with the next deal, taking
that deal's points as the scorer recorded them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from phatlog.cards import CARD_BY_TEXT, CARD_TEXT, CARDS_OF_SUIT, Card, Suit
from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.engine.tricks import STRENGTH, FollowRule, cards_of_suit

SEATS = 4
SIDE_NAMES = ("side 0 (seats 0 and 2)", "side 1 (seats 1 and 3)")


def side_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat & 1


def side_label(side: int, names: Sequence[str]) -> str:
    """A side for people: "Ann & Cal"."""
    return f"{seat_name(side, names)} & {seat_name(side + 2, names)}"


@dataclass(frozen=True, slots=True)
class Bonus:
    """An end-of-deal award: ``points`` to ``side`` (None: nobody scores it), and why."""

    side: int | None
    points: int
    label: str
    reason: str


@dataclass(slots=True)
class TrickRecord:
    """What happened in one trick, for reports: kept only when a trace is asked for."""

    index: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    position: int
    points: int
    counters: tuple[tuple[Card, int], ...]
    totals: tuple[int, int]
    game_won: bool


@dataclass(slots=True)
class DealRecord:
    """What happened in one deal, for reports."""

    index: int
    dealer: int
    pitcher: int
    trump: Suit | None
    hands: list[list[Card]] | None
    tricks: list[TrickRecord] = field(default_factory=list)
    bonuses: list[Bonus] = field(default_factory=list)
    points: tuple[int, int] | None = None
    totals: tuple[int, int] | None = None
    scorable: bool = True
    captured: tuple[int, int] | None = None  # the muck or game count, by side


@dataclass(slots=True)
class Verdict:
    """The engine's findings for one record."""

    diagnostics: list[Diagnostic]
    deals: int
    totals: list[int] | None
    winner: list[int] | None
    ended_at: tuple[int, int | None] | None  # (deal, trick) of the winning peg; trick None = bonus
    trace: list[DealRecord] | None = None


@dataclass(slots=True)
class GameState:
    """The score and the table between deals."""

    totals: list[int]
    known: bool = True  # False once a deal's points had to be taken on trust and were not recorded
    carry: int = 0  # Phat's carried muck 8s
    previous_recorded: tuple[int, int] | None = (0, 0)  # the last recorded running total
    ended_at: tuple[int, int | None] | None = None
    winner: int | None = None


class PitchGame(ABC):
    """One game of the family. Subclasses hold the game's tables and bonus; the play is shared."""

    game: ClassVar[str]
    hand_size: ClassVar[int]
    follow: FollowRule = FollowRule.MUST_FOLLOW

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.target: int = rules.target
        self.immediate: bool = rules.peg_out == "immediate"

    @abstractmethod
    def counters(self, trump: Suit) -> tuple[int, ...]:
        """The points each card pegs, at once, for the side that wins the trick it is in."""

    @abstractmethod
    def bonuses(self, deal: DealRecord, captured: list[list[Card]], state: GameState) -> list[Bonus]:
        """The end-of-deal awards in the order they are pegged."""

    def check_rules(self) -> list[Diagnostic]:
        """Diagnostics for rules combinations that make no sense."""
        return []

    def check_cut(self, cut: Sequence[Sequence[str | None]], first_dealer: int, names: Sequence[str]) -> list[Diagnostic]:
        """Diagnostics for the recorded cut for the first pitcher."""
        return []

    def check_first_deal(
        self, deal: Any, hands: list[set[Card]] | None, names: Sequence[str]
    ) -> list[Diagnostic]:
        """Diagnostics for a game-specific rule about who pitches first."""
        return []

    # ------------------------------------------------------------------ the referee

    def referee(self, record: Any, trace: bool = False) -> Verdict:
        """Replay a record and check everything it says."""
        names = [p.name for p in record.players]
        out: list[Diagnostic] = self.check_rules()
        state = GameState(totals=[0, 0])
        deals_trace: list[DealRecord] | None = [] if trace else None
        deals = record.deals
        result = record.result
        unfinished = result is not None and result.status == "unfinished"
        cut = getattr(record, "cut", None)
        if cut is not None and deals:
            out.extend(self.check_cut(cut, deals[0].dealer, names))
        expected_dealer: int | None = None
        last = len(deals) - 1
        for d, deal in enumerate(deals):
            if state.ended_at is not None:
                ed, et = state.ended_at
                when = f"at trick {et + 1} of deal {ed + 1}" if et is not None else f"after deal {ed + 1}"
                out.append(
                    diag(
                        "PL308",
                        f"the game was won {when}, but {len(deals) - d} more deal(s) are recorded",
                        f"/deals/{d}",
                    )
                )
                break
            if expected_dealer is not None and deal.dealer != expected_dealer:
                out.append(
                    diag(
                        "PL202",
                        f"{seat_name(deal.dealer, names)} dealt, but the deal passes to the left: "
                        f"{seat_name(expected_dealer, names)} should have dealt",
                        f"/deals/{d}/dealer",
                    )
                )
            expected_dealer = (deal.dealer + 1) % SEATS
            record_d = self._deal(deal, d, d == last and unfinished, state, names, out, trace)
            if deals_trace is not None:
                deals_trace.append(record_d)
        self._check_end(record, state, unfinished, out, names)
        located = [x.located(names) for x in out]
        winner = None if state.winner is None else [state.winner]
        return Verdict(
            located,
            len(deals),
            list(state.totals) if state.known else None,
            winner,
            state.ended_at,
            deals_trace,
        )

    def _deal(
        self,
        deal: Any,
        d: int,
        may_stop: bool,
        state: GameState,
        names: Sequence[str],
        out: list[Diagnostic],
        trace: bool,
    ) -> DealRecord:
        dealer: int = deal.dealer
        pitcher = (dealer + 1) % SEATS
        tricks = deal.tricks or ()
        rec = DealRecord(d, dealer, pitcher, None, None)
        hands = self._hands(deal, d, names, out)
        if d == 0:
            out.extend(self.check_first_deal(deal, hands, names))
        if trace and hands is not None:
            rec.hands = [sorted(h) for h in hands]
        if hands is None and not tricks:
            # A score-sheet deal: nothing to replay. Its points are taken as recorded.
            rec.scorable = False
            self._take_recorded(deal, d, state, names, out, rec, why="no cards are recorded")
            return rec
        if hands is None:  # the recorded hands are faulty; they were reported
            rec.scorable = False
            self._take_recorded(deal, d, state, names, out, rec, why="its hands are faulty")
            return rec
        return self._play(deal, d, hands, may_stop, state, names, out, rec, trace)

    # ------------------------------------------------------------------ hands

    def _hands(self, deal: Any, d: int, names: Sequence[str], out: list[Diagnostic]) -> list[set[Card]] | None:
        """The hands as dealt: recorded, or inferred from the tricks. None if the record's are faulty."""
        if deal.hands is not None:
            hands = [set(map(CARD_BY_TEXT.__getitem__, h)) for h in deal.hands]
            if sum(map(len, hands)) == SEATS * self.hand_size and len(set().union(*hands)) == SEATS * self.hand_size:
                return hands
            self._report_duplicates(deal, d, names, out)
            return None
        return self._infer_hands(deal, d, names, out)

    def _report_duplicates(self, deal: Any, d: int, names: Sequence[str], out: list[Diagnostic]) -> None:
        seen: dict[str, tuple[int, int]] = {}
        for seat, hand in enumerate(deal.hands):
            for i, text in enumerate(hand):
                if text in seen:
                    first_seat, _ = seen[text]
                    where = "twice to " + seat_name(seat, names) if first_seat == seat else (
                        f"to both {seat_name(first_seat, names)} and {seat_name(seat, names)}"
                    )
                    out.append(diag("PL201", f"{text} is dealt {where}", f"/deals/{d}/hands/{seat}/{i}"))
                else:
                    seen[text] = (seat, i)

    def _infer_hands(self, deal: Any, d: int, names: Sequence[str], out: list[Diagnostic]) -> list[set[Card]] | None:
        """Each seat's hand is the cards it played: exact when every card was played, partial otherwise.

        A partial hand still proves a revoke where the player later played the suit they failed to
        follow; what it cannot prove is said once, as a note.
        """
        tricks = deal.tricks or ()
        if not tricks:
            return None
        hands: list[set[Card]] = [set(), set(), set(), set()]
        first: dict[str, tuple[int, int]] = {}
        for t, trick in enumerate(tricks):
            for i, text in enumerate(trick.cards):
                seat = (trick.leader + i) % SEATS
                if text in first:
                    ft, fs = first[text]
                    out.append(
                        diag(
                            "PL302",
                            f"{seat_name(seat, names)} played {text}, which {seat_name(fs, names)} "
                            f"already played in trick {ft + 1}",
                            f"/deals/{d}/tricks/{t}/cards/{i}",
                            place=f"deal {d + 1}, trick {t + 1}, {seat_name(seat, names)}'s card",
                        )
                    )
                    out.append(diag("PL307", f"deal {d + 1} cannot be scored: a card is played twice", f"/deals/{d}"))
                    return None
                first[text] = (t, seat)
                hands[seat].add(CARD_BY_TEXT[text])
        if len(tricks) < self.hand_size:
            out.append(
                diag(
                    "PL203",
                    f"deal {d + 1}: the hands are not recorded and only {len(tricks)} of {self.hand_size} tricks "
                    "were played, so a failure to follow suit is caught only where the player later showed the suit",
                    f"/deals/{d}",
                )
            )
        return hands

    # ------------------------------------------------------------------ play

    def _play(
        self,
        deal: Any,
        d: int,
        hands: list[set[Card]],
        may_stop: bool,
        state: GameState,
        names: Sequence[str],
        out: list[Diagnostic],
        rec: DealRecord,
        trace: bool,
    ) -> DealRecord:
        tricks = deal.tricks or ()
        totals = state.totals
        start = (totals[0], totals[1])
        target = self.target
        immediate = self.immediate
        follow_or_trump = self.follow is FollowRule.FOLLOW_OR_TRUMP
        leader_due = rec.pitcher
        captured: list[list[Card]] = [[], []]
        trump = -1
        counters: tuple[int, ...] = ()
        strength_by_led: tuple[tuple[int, ...], ...] = ()
        winner_d = state.ended_at
        for t, trick in enumerate(tricks):
            if state.ended_at is not None:
                out.append(
                    diag(
                        "PL305",
                        f"{side_label(state.winner or 0, names)} reached {target} at trick {t} of deal {d + 1}; "
                        f"the game ended there, but {len(tricks) - t} more trick(s) are recorded",
                        f"/deals/{d}/tricks/{t}",
                    )
                )
                break
            leader = trick.leader
            if leader != leader_due:
                why = (
                    f"the pitcher, {seat_name(leader_due, names)} (on the dealer's left), leads the first trick"
                    if t == 0
                    else f"{seat_name(leader_due, names)} won trick {t} and leads next"
                )
                out.append(
                    diag(
                        "PL301",
                        f"trick {t + 1} was led by {seat_name(leader, names)}, but {why}",
                        f"/deals/{d}/tricks/{t}/leader",
                    )
                )
                return self._unscorable(deal, d, t, start, state, names, out, rec)
            cards = tuple(map(CARD_BY_TEXT.__getitem__, trick.cards))
            if t == 0:
                trump = cards[0] // 13
                rec.trump = Suit(trump)
                counters = self.counters(Suit(trump))
                strength_by_led = STRENGTH[trump]
            led = cards[0] // 13
            for i, card in enumerate(cards):
                seat = (leader + i) & 3
                hand = hands[seat]
                if card not in hand:
                    self._not_held(deal, d, t, i, seat, card, hands, names, out)
                    return self._unscorable(deal, d, t, start, state, names, out, rec)
                hand.remove(card)
                if i and card // 13 != led and not CARDS_OF_SUIT[led].isdisjoint(hand):
                    if not (follow_or_trump and card // 13 == trump):
                        self._revoke(d, t, i, seat, card, led, hand, names, out)
                        return self._unscorable(deal, d, t, start, state, names, out, rec)
            strength = strength_by_led[led]
            position = max(range(len(cards)), key=lambda i: strength[cards[i]])
            winner = (leader + position) & 3
            if trick.winner is not None and trick.winner != winner:
                out.append(
                    diag(
                        "PL304",
                        f"trick {t + 1} is recorded as won by {seat_name(trick.winner, names)}, but "
                        f"{seat_name(winner, names)}'s {CARD_TEXT[cards[position]]} wins it",
                        f"/deals/{d}/tricks/{t}/winner",
                    )
                )
            side = winner & 1
            captured[side].extend(cards)
            points = counters[cards[0]] + counters[cards[1]] + counters[cards[2]] + counters[cards[3]]
            if points:
                totals[side] += points
                if immediate and totals[side] >= target and state.ended_at is None:
                    state.ended_at = (d, t)
                    state.winner = side
            if trace:
                rec.tricks.append(
                    TrickRecord(
                        t,
                        leader,
                        cards,
                        winner,
                        position,
                        points,
                        tuple((c, counters[c]) for c in cards if counters[c]),
                        (totals[0], totals[1]),
                        state.ended_at == (d, t),
                    )
                )
            leader_due = winner
        played = len(tricks)
        if state.ended_at is None or state.ended_at[0] != d:
            if winner_d is None and played < self.hand_size and not may_stop:
                out.append(
                    diag(
                        "PL306",
                        f"deal {d + 1} stops after {played} of {self.hand_size} tricks, but nobody had won the game",
                        f"/deals/{d}/tricks",
                    )
                )
            if played == self.hand_size:
                rec.bonuses = self.bonuses(rec, captured, state)
                for bonus in rec.bonuses:
                    if bonus.side is None or not bonus.points:
                        continue
                    totals[bonus.side] += bonus.points
                    if immediate and totals[bonus.side] >= target and state.ended_at is None:
                        state.ended_at = (d, None)
                        state.winner = bonus.side
                if not immediate and state.ended_at is None and max(totals) >= target and totals[0] != totals[1]:
                    state.winner = 0 if totals[0] > totals[1] else 1
                    state.ended_at = (d, None)
        points = (totals[0] - start[0], totals[1] - start[1])
        rec.points = points
        rec.totals = (totals[0], totals[1])
        self._check_score(deal, d, points, state, names, out)
        return rec

    def _not_held(
        self,
        deal: Any,
        d: int,
        t: int,
        i: int,
        seat: int,
        card: Card,
        hands: list[set[Card]],
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        text = CARD_TEXT[card]
        who = seat_name(seat, names)
        reason = "which they do not hold"
        for earlier in range(t + 1):
            trick = deal.tricks[earlier]
            for j, other in enumerate(trick.cards):
                if other == text and (earlier, j) != (t, i):
                    by = seat_name((trick.leader + j) % SEATS, names)
                    reason = f"which {by} already played in trick {earlier + 1}"
                    break
        if deal.hands is not None and reason == "which they do not hold":
            for owner, hand in enumerate(deal.hands):
                if text in hand and owner != seat:
                    reason = f"which was dealt to {seat_name(owner, names)}"
            if all(text not in h for h in deal.hands):
                reason = "which nobody was dealt"
        out.append(
            diag(
                "PL302",
                f"{who} played {text}, {reason}",
                f"/deals/{d}/tricks/{t}/cards/{i}",
                place=f"deal {d + 1}, trick {t + 1}, {who}'s card",
            )
        )

    def _revoke(
        self,
        d: int,
        t: int,
        i: int,
        seat: int,
        card: Card,
        led: int,
        hand: set[Card],
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        who = seat_name(seat, names)
        held = " ".join(CARD_TEXT[c] for c in cards_of_suit(hand, led))
        suit = Suit(led).name.lower()
        out.append(
            diag(
                "PL303",
                f"{who} played {CARD_TEXT[card]} to a {suit[:-1]} lead while holding {held}: "
                "players must follow suit if able",
                f"/deals/{d}/tricks/{t}/cards/{i}",
                place=f"deal {d + 1}, trick {t + 1}, {who}'s card",
            )
        )

    def _unscorable(
        self,
        deal: Any,
        d: int,
        t: int,
        start: tuple[int, int],
        state: GameState,
        names: Sequence[str],
        out: list[Diagnostic],
        rec: DealRecord,
    ) -> DealRecord:
        """After an illegal play: say so once, forget what this deal pegged, and take the record's points."""
        out.append(
            diag(
                "PL307",
                f"deal {d + 1} cannot be scored after the illegal play in trick {t + 1}; "
                "its recorded points are taken as they stand",
                f"/deals/{d}",
            )
        )
        state.totals[:] = start
        if state.ended_at is not None and state.ended_at[0] == d:
            state.ended_at = None
            state.winner = None
        return self._take_recorded(deal, d, state, names, out, rec, why=None)

    def _take_recorded(
        self,
        deal: Any,
        d: int,
        state: GameState,
        names: Sequence[str],
        out: list[Diagnostic],
        rec: DealRecord,
        why: str | None,
    ) -> DealRecord:
        """A deal the engine cannot score: carry on from the scorer's figures."""
        rec.scorable = False
        score = deal.score
        start = (state.totals[0], state.totals[1])
        if why is not None:
            out.append(
                diag(
                    "PL406",
                    f"deal {d + 1}: {why}, so its play cannot be checked; its points are taken as recorded",
                    f"/deals/{d}",
                )
            )
        if score is not None and score.points is not None:
            points = (score.points[0], score.points[1])
            state.totals[0] += points[0]
            state.totals[1] += points[1]
            self._check_score(deal, d, points, state, names, out, check_points=False)
        elif score is not None and score.total is not None:
            state.totals[:] = list(score.total)
            state.previous_recorded = (score.total[0], score.total[1])
        else:
            state.known = False
            state.previous_recorded = None
        rec.totals = (state.totals[0], state.totals[1])
        rec.points = (state.totals[0] - start[0], state.totals[1] - start[1])
        if state.known and state.ended_at is None:
            for side in (0, 1):
                if state.totals[side] >= self.target:
                    state.ended_at = (d, None)
                    state.winner = side
                    break
        return rec

    # ------------------------------------------------------------------ scores

    def _check_score(
        self,
        deal: Any,
        d: int,
        points: tuple[int, int],
        state: GameState,
        names: Sequence[str],
        out: list[Diagnostic],
        check_points: bool = True,
    ) -> None:
        """Check a deal's recorded points and running total.

        A running total is right if it is the true total, or the previous recorded total plus this
        deal's points: a mistake carried forward is reported once, on the row where it was made.
        """
        score = deal.score
        if score is None:
            state.previous_recorded = None
            return
        if check_points and score.points is not None:
            for side in (0, 1):
                if score.points[side] != points[side]:
                    out.append(
                        diag(
                            "PL401",
                            f"deal {d + 1}: {side_label(side, names)} are recorded with {score.points[side]} "
                            f"points, but the rules give {points[side]}",
                            f"/deals/{d}/score/points/{side}",
                        )
                    )
        if score.total is None:
            state.previous_recorded = None
            return
        truth = state.totals
        previous = state.previous_recorded
        for side in (0, 1):
            got = score.total[side]
            if got == truth[side] and state.known:
                continue
            if previous is not None and got == previous[side] + points[side]:
                continue
            if not state.known and previous is None:
                continue
            out.append(
                diag(
                    "PL402",
                    f"deal {d + 1}: {side_label(side, names)}'s running total is recorded as {got}, but "
                    + (
                        f"it is {truth[side]}"
                        if state.known
                        else f"{previous[side] if previous else 0} + {points[side]} is "
                        f"{(previous[side] if previous else 0) + points[side]}"
                    ),
                    f"/deals/{d}/score/total/{side}",
                )
            )
        state.previous_recorded = (score.total[0], score.total[1])

    def _check_end(
        self, record: Any, state: GameState, unfinished: bool, out: list[Diagnostic], names: Sequence[str]
    ) -> None:
        result = record.result
        won = state.winner
        if won is None and not unfinished and state.known:
            out.append(
                diag(
                    "PL405",
                    f"the record ends at {state.totals[0]}-{state.totals[1]} before either side reached "
                    f"{self.target}, and its result does not say the game was stopped (status 'unfinished')",
                    "/deals",
                )
            )
        if result is None:
            return
        if won is not None and unfinished:
            ed, et = state.ended_at or (0, None)
            out.append(
                diag(
                    "PL403",
                    f"the result says the game is unfinished, but {side_label(won, names)} won it in deal {ed + 1}",
                    "/result/status",
                )
            )
        if result.winner is not None:
            if won is None:
                out.append(
                    diag("PL407", f"the result names winner {list(result.winner)}, but nobody won the game", "/result/winner")
                )
            elif list(result.winner) != [won]:
                out.append(
                    diag(
                        "PL403",
                        f"the result names side(s) {list(result.winner)} as the winner, but "
                        f"{side_label(won, names)} (side {won}) won",
                        "/result/winner",
                    )
                )
        if result.total is not None and state.known:
            if len(result.total) != 2:
                out.append(diag("PL105", f"the result's total has {len(result.total)} items; this game has 2 sides", "/result/total"))
            else:
                for side in (0, 1):
                    if result.total[side] != state.totals[side]:
                        out.append(
                            diag(
                                "PL404",
                                f"the result gives {side_label(side, names)} {result.total[side]}, but their final "
                                f"total is {state.totals[side]}",
                                f"/result/total/{side}",
                            )
                        )
