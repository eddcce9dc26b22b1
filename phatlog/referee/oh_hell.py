"""Oh Hell: the rules as this engine applies them (rules reference A.5, B.4).

Three to seven players, each for themselves. Hand after hand the deal passes to the left. The hand
sizes follow the ``schedule``: ``up`` deals 1, 2, ... N cards, ``down`` N ... 1, ``up_down`` 1 ... N ... 1
and ``down_up`` N ... 1 ... N (the turning hand once), or an explicit list; N is 15, 13, 10, 8 or 7 for 3
to 7 players unless ``max_cards`` says otherwise. The game is complete when every hand of the schedule
has been played. A wrong dealer is reported once: the next hand may follow on from the dealer recorded
or from the one who should have dealt.

**Trump.** After the deal the next card of the pack is turned up and its suit is trump. It belongs to
nobody, so it must be a card that nobody was dealt. Under ``no_trump: last_hand`` the game's last hand
is played without trump and no card is turned; under ``never`` every hand has a trump, except that a
hand which leaves no card to turn up is always played without trump. Without trump the highest card of
the suit led wins every trick. A turned-up card that was dealt to a player, or that is recorded for a
hand without trump, is reported, and the tricks are still judged with its suit as trump.

**Bidding.** Every player bids how many tricks they will take, from 0 to the hand size; nobody passes.
Bids are made in turn from the dealer's left, the dealer last (``sequential``), or all at once
(``simultaneous``). Under the ``hook`` the dealer may not bid the number that would make the bids add
up to the hand size; the hook needs a last bidder, so it cannot go with simultaneous bidding. A wrong
bid is reported, and the hand is still scored with the bids as recorded.

**Play.** The dealer's left leads to the first trick. Players must follow suit if able; under
``must_trump`` (La Podrida) a player who cannot follow must play a trump if they hold one (any trump).
The highest trump, or else the highest card of the suit led, wins, and the winner leads next. After an
illegal play the hand is given up: its recorded points are taken as they stand. (The referee plays the tricks
with the loop both referees share, ``deal_check.play_tricks``, card by card.)

**Scoring.** A player who takes exactly the number of tricks bid scores 10 + the tricks taken, and a
made bid of zero scores 5 + the hand size under ``zero_bid: five_plus_cards``. A missed bid scores 0
(``miss: zero``), one a trick taken (``tricks``), or minus the difference (``minus_diff``). The highest
total after the last hand wins; equal totals share the win.

**Score sheets.** A hand recorded without its tricks is scored from its bids and the tricks each player
took (``taken``, which must add up to the hand size, and agree with the tricks where both are recorded).
One note for the record lists such hands and says what they cannot prove: the deal, the turned-up card
and the play. A hand without bids, or without both tricks and ``taken``, keeps the points the scorer
recorded, and a note lists it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Final

from phatlog._native import tables
from phatlog.diagnostics import Diagnostic, Severity, diag, seat_name
from phatlog.engine.state import BidMade, DealBegins, DealScored, GameOver, Ruled, TrickWon, Visitor, shown_tricks
from phatlog.record.view import OhHellDealView, OhHellRecordView, OhHellRulesView, ResultView, TrickView
from phatlog.referee import deal_check, pitch, rulings
from phatlog.referee.pitch import Verdict
from phatlog.referee.scoring import check_deal_score, check_result
from phatlog.rules.cards import CARD_BY_TEXT, Suit
from phatlog.rules.trick import SUIT_BY_TEXT, FollowRule, explain_winner

#: The seed's largest hand (and number of hands) by number of players.
DEFAULT_MAX_CARDS: Final = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}


def hand_sizes(rules: OhHellRulesView, players: int) -> list[int]:
    """The number of cards dealt to each player in each hand of a complete game."""
    if not isinstance(rules.schedule, str):
        return list(rules.schedule)
    top = rules.max_cards or DEFAULT_MAX_CARDS[players]
    up = list(range(1, top + 1))
    down = up[::-1]
    return {"up": up, "down": down, "up_down": up + down[1:], "down_up": down + up[1:]}[rules.schedule]


#: ``hand_score`` as tables by bid and tricks taken, for each (zero_bid, miss, hand size) met so far.
_SCORE_TABLES: dict[tuple[str, str, int], list[list[int]]] = {}


def hand_score(rules: OhHellRulesView, bid: int, took: int, size: int) -> int:
    """What one player scores for one hand."""
    if took == bid:
        if bid == 0 and rules.zero_bid == "five_plus_cards":
            return 5 + size
        return 10 + took
    if rules.miss == "tricks":
        return took
    if rules.miss == "minus_diff":
        return -abs(bid - took)
    return 0


def has_trump(rules: OhHellRulesView, players: int, size: int, last: bool) -> bool:
    """Whether a hand is played with a trump (a turned-up card): not when no card is left to turn up, nor
    in the game's last hand under ``no_trump: last_hand``."""
    return players * size < 52 and not (last and rules.no_trump == "last_hand")


def winners(totals: Sequence[int]) -> list[int]:
    """The seats with the highest total after the last hand: equal totals share the win."""
    best = max(totals)
    if totals.count(best) == 1:  # (the common case, for less)
        return [totals.index(best)]
    return [seat for seat, total in enumerate(totals) if total == best]


def forbidden_bid(bids_before: int, size: int) -> int | None:
    """The dealer's bid that the hook forbids: the one that makes the bids add up to the hand size."""
    forbidden = size - bids_before
    return forbidden if 0 <= forbidden <= size else None


@dataclass(slots=True)
class _Hand:
    """What the referee worked out of one hand: the bids, the tricks each player took, the points (None
    where they cannot be worked out), and why not."""

    bids: list[int] | None = None
    taken: list[int] | None = None
    points: list[int] | None = None
    scorable: bool = True
    fault: bool = False  # an illegal play, or tricks that are not a whole hand
    why: str | None = None  # why the points could not be worked out, where no fault explains it


def no_trump_reason(rules: OhHellRulesView, players: int, size: int, last: bool) -> str | None:
    """Why a hand has no trump (``has_trump``'s two reasons, in its order), or None if it has one."""
    if players * size >= 52:
        return "no card is left to turn up"
    if last and rules.no_trump == "last_hand":
        return "the game's last hand is played without trump"
    return None


class OhHell:
    """The referee for Oh Hell."""

    game = "oh_hell"

    def __init__(self, rules: OhHellRulesView, players: int) -> None:
        self.rules = rules
        self.players = players
        # What every record and hand looks up, worked out once for equal rules (``_plan``).
        plan = self._plan = _plan(rules, players)
        self.sizes = plan.sizes
        self._hot_table = plan.trick_table
        self._tables = plan.tables

    def check_rules(self) -> list[Diagnostic]:
        """Rules combinations that make no sense, and schedules the pack cannot deal."""
        return list(self._plan.checks)

    def _check_rules(self) -> list[Diagnostic]:
        """``check_rules``, worked out (once for each rules: ``_plan``)."""
        out: list[Diagnostic] = []
        rules, n = self.rules, self.players
        if rules.hook and rules.bidding == "simultaneous":
            out.append(
                diag(
                    "PL601",
                    "the hook forbids the last bidder one bid, but simultaneous bidding has no last bidder: "
                    "choose one of them",
                    "/rules/hook",
                )
            )
        if rules.max_cards is not None and not isinstance(rules.schedule, str):
            # It changes nothing (the list gives every hand's size), so the record can still be refereed.
            out.append(
                diag(
                    "PL603",
                    f"max_cards {rules.max_cards} does not apply: it caps a named schedule, and this schedule is "
                    "a list of hand sizes, which is played as listed (leave max_cards out)",
                    "/rules/max_cards",
                )
            )
        if rules.max_cards is not None and isinstance(rules.schedule, str) and n * rules.max_cards > 52:
            out.append(
                diag(
                    "PL601",
                    f"max_cards {rules.max_cards} needs {n * rules.max_cards} cards for {n} players; the pack has 52",
                    "/rules/max_cards",
                )
            )
        elif not isinstance(rules.schedule, str):
            for i, size in enumerate(rules.schedule):
                if n * size > 52:
                    out.append(
                        diag(
                            "PL601",
                            f"hand {i + 1} of the schedule deals {size} cards to {n} players: {n * size} cards, "
                            "more than the pack holds",
                            f"/rules/schedule/{i}",
                        )
                    )
        return out

    # ------------------------------------------------------------------ the referee

    def referee(self, record: OhHellRecordView, visitor: Visitor | None = None) -> Verdict:
        """Replay a record and check everything it says; ``visitor`` hears every hand's events as the
        referee judges it (see ``referee.referee``).

        Without a visitor, a record whose every hand is clean is refereed in one C call first
        (``_trick.oh_hell_record``): only a record it declines is replayed hand by hand here."""
        plan = self._plan
        if plan.whole is not None and visitor is None:
            whole: WholeRecord | None = getattr(pitch.HOT, "oh_hell_record", None)
            done = None if whole is None else whole(record.deals, plan.whole)
            if done is not None:
                return self._clean(record, done[0], done[1])
        names = [p.name for p in record.players]
        n = self.players
        out = list(plan.checks)
        if plan.refuses:  # a rule that does not apply is only a warning
            return Verdict([x.located(names) for x in out], len(record.deals), None, None, None, refused=True)
        result = record.result
        unfinished = result is not None and result.status in rulings.STOPPED
        deals = record.deals
        self._misdeals = 0  # format 1.1: void hands so far, which take no place in the schedule
        totals = [0] * n
        known = True
        previous: tuple[int, ...] | None = tuple(totals)
        sheet: list[int] = []  # hands recorded without tricks
        taken_as_recorded: dict[str, list[int]] = {}  # why a hand's points could not be worked out
        # The dealer passes to the left. A wrong dealer is reported once: the next hand may pass on from the
        # dealer recorded or from the one who should have dealt.
        rotation = deal_check.Rotation(n, names, name_record_first=True)
        judged: list[tuple[list[int], list[int]]] = []  # (bids, taken) of the hands whose points were worked out
        for d, deal in enumerate(deals):
            self._ruled = (
                rulings.DealRulings.of(deal, d, n, n, int, names, getattr(self.rules, "revoke_penalty", None), out)
                if rulings.rulings_of(deal)
                else None  # what ``of`` says of a hand without rulings, for less
            )
            if self._ruled is not None and rulings.is_misdeal(deal):  # a void hand: the same dealer deals again
                rotation.check(d, deal.dealer, out)
                rulings.redeal(rotation)
                rulings.misdeal_play(deal, d, out)
                self._misdeals += 1
                void = [0] * n
                pegs = self._ruled.peg_after(void, None, False, out)[1]
                before = totals
                totals = [total + p for total, p in zip(totals, void, strict=True)]
                if deal.score is not None:
                    previous = check_deal_score(
                        deal.score, d, void, totals, known, previous, lambda s: seat_name(s, names), out
                    )
                if visitor is not None:
                    visitor(Ruled(d, "misdeal", f"hand {d + 1} is a misdeal: void, the same dealer deals again"))
                    _tell_pegs(visitor, d, pegs, before if known else None)
                    visitor(DealScored(d, tuple(void), tuple(totals) if known else None, passed_over=True))
                continue
            if d - self._misdeals >= len(self.sizes):
                out.append(
                    diag(
                        "PL308",
                        f"the game is complete after {len(self.sizes)} hands, but {len(deals) - d} more are recorded",
                        f"/deals/{d}",
                    )
                )
                break
            rotation.check(d, deal.dealer, out)
            if not deal.tricks:
                sheet.append(d)
                if self._ruled is not None:  # format 1.1: what a score sheet's rulings can be checked against
                    self._ruled.on_sheet(deal, names, out)
            start = tuple(totals) if known and visitor is not None else None  # only a visitor hears it
            hand = self._hand(deal, d, d == len(deals) - 1 and unfinished, names, out, visitor, start)
            if hand.why is not None:
                taken_as_recorded.setdefault(hand.why, []).append(d)
            points = hand.points
            check_points = points is not None
            if check_points and hand.bids is not None and hand.taken is not None:
                judged.append((hand.bids, hand.taken))
            if points is not None and self._ruled is not None:  # penalties and adjustments, after the hand's points
                points = list(points)
                pegs = self._ruled.peg_after(points, None, False, out)[1]
                if visitor is not None:
                    _tell_pegs(visitor, d, pegs, totals if known else None)
            if points is None:
                points = _recorded_points(deal, n)
                if points is None:
                    known = False
                    points = [0] * n
            totals = [total + p for total, p in zip(totals, points, strict=True)]
            if not known and deal.score is not None and deal.score.total is not None and len(deal.score.total) == n:
                totals = list(deal.score.total)  # re-anchored on the scorer's figures
                known = True
            score = deal.score
            if score is not None and known and score.points == points and score.total == totals:
                previous = tuple(totals)  # all as the rules give: nothing to report
            else:
                previous = check_deal_score(
                    score, d, points, totals, known, previous, lambda s: seat_name(s, names), out, check_points
                )
            if visitor is not None:
                got = points if check_points or _recorded_points(deal, n) is not None else None
                visitor(
                    DealScored(
                        d,
                        None if got is None else tuple(got),
                        tuple(totals) if known else None,
                        passed_over=not check_points,
                        given_up=hand.fault,
                        taken=None if hand.taken is None else tuple(hand.taken),
                    )
                )
        return self._conclude(
            deals,
            totals,
            known,
            judged,
            self._misdeals,
            sheet,
            taken_as_recorded,
            result,
            unfinished,
            names,
            out,
            visitor,
        )

    def _clean(self, record: OhHellRecordView, totals: list[int], judged: list[tuple[list[int], list[int]]]) -> Verdict:
        """The verdict on a record whose every hand the C call found clean (``totals``: the final totals,
        ``judged``: each hand's bids and tricks taken). The common end, a complete game whose result
        names its winners and totals as they are, is said here; anything else is ``_conclude``'s."""
        deals = record.deals
        result = record.result
        if (
            not self._plan.checks
            and len(deals) >= len(self.sizes)
            and result is not None
            and result.status == "finished"
            and result.winner is not None
            and result.total == totals
        ):
            won = winners(totals)
            if result.winner == won or sorted(result.winner) == won:
                return Verdict([], len(deals), totals, won, (len(deals) - 1, None), judged=judged)
        names = [p.name for p in record.players]
        unfinished = result is not None and result.status in rulings.STOPPED
        out = list(self._plan.checks)
        return self._conclude(deals, totals, True, judged, 0, [], {}, result, unfinished, names, out, None)

    def _conclude(
        self,
        deals: Sequence[OhHellDealView],
        totals: list[int],
        known: bool,
        judged: list[tuple[list[int], list[int]]],
        misdeals: int,
        sheet: list[int],
        taken_as_recorded: dict[str, list[int]],
        result: ResultView | None,
        unfinished: bool,
        names: list[str],
        out: list[Diagnostic],
        visitor: Visitor | None,
    ) -> Verdict:
        """After the last hand: the notes on hands not worked out, whether the game is complete, the result
        checked, and the verdict (``known``: the totals are known)."""
        n = self.players
        if sheet:
            out.append(_sheet_note(sheet, len(deals)))
        for why, which in taken_as_recorded.items():
            out.append(
                diag(
                    "PL406",
                    f"{_hands_named(which)}: {why}, so the points cannot be worked out and are taken as recorded "
                    "(only the running totals are checked)",
                    "/deals",
                )
            )
        complete = len(deals) - misdeals >= len(self.sizes)
        won: list[int] | None = None
        if complete and known:
            won = winners(totals)
        elif not complete and not unfinished:
            out.append(
                diag(
                    "PL405",
                    f"the game has {len(self.sizes)} hands, but only {len(deals)} are recorded and the result does "
                    "not say the game was stopped (status 'unfinished')",
                    "/deals",
                )
            )
        if complete and not known:
            if result is not None and (result.winner is not None or result.total is not None):
                out.append(
                    diag(
                        "PL406",
                        "a hand's points are neither worked out nor recorded, and no later running total is "
                        "recorded, so the final totals and the result cannot be checked",
                        "/result",
                    )
                )
        else:
            check_result(result, won, totals, known, lambda s: seat_name(s, names), "after the last hand", out, seats=n)
        self._ruled = None
        if visitor is not None and won:
            visitor(GameOver(len(deals) - 1, tuple(won), tuple(totals)))
        return Verdict(
            [x.located(names) for x in out],
            len(deals),
            list(totals) if known else None,
            won,
            (len(deals) - 1, None) if won else None,
            judged=judged,
        )

    # ------------------------------------------------------------------ one hand

    def _hand(
        self,
        deal: OhHellDealView,
        d: int,
        may_stop: bool,
        names: Sequence[str],
        out: list[Diagnostic],
        visit: Visitor | None = None,
        totals: tuple[int, ...] | None = None,
    ) -> _Hand:
        """Check one hand and work out its points where the record lets them be worked out.

        Every fault is reported where it is, and the rest of the hand is still checked as far as it can be:
        a wrong bid or a misplaced turned-up card does not stop the play being judged. The hand's points are
        worked out from the bids and the tricks taken (won in the recorded play, or as the score sheet says);
        where they cannot be, the scorer's points are taken as they stand.

        Without a visitor (``verify``), a hand with tricks goes to the C kernel first (``_hot_play``); only a
        hand it declines is replayed here. A visitor hears the hand's events (``totals``: the running totals
        before it, None where not known): the deal (its hands where they are a proper deal, the trump or why
        there is none), the bids, each trick, the tricks after an illegal play shown unscored.
        """
        n = self.players
        size = self.sizes[d - self._misdeals]
        last = d - self._misdeals == len(self.sizes) - 1
        no_trump = not (n * size < 52 and not (last and self.rules.no_trump == "last_hand"))  # has_trump, inlined
        turnup = deal.turnup
        hand = _Hand()
        if deal.dealer >= n:
            out.append(diag("PL207", f"seat {deal.dealer} deals, but there are {n} players", f"/deals/{d}/dealer"))
            hand.scorable = False
            if visit is not None:
                self._begins(visit, deal, d, size, last, None, None)
            return hand
        trump = None if turnup is None else SUIT_BY_TEXT[turnup]
        taken = None if visit is not None or self._ruled is not None else self._hot_play(deal, size, trump, no_trump)
        if taken is not None:
            # The kernel found the hands proper, the turned-up card undealt and every trick legal and rightly
            # recorded: what is left to check is what the play does not decide.
            judged = True
            if no_trump and turnup is not None:
                out.append(self._turned_up_without_trump(turnup, d, size))
            bids = hand.bids = self._bids(deal, d, size, names, out)
            return self._finish(deal, d, size, bids, taken, judged, names, out, hand)
        if not self._check_lists(deal, d, names, out):
            hand.scorable = False
            if visit is not None:
                self._begins(visit, deal, d, size, last, None, None)
            return hand
        held = self._hands(deal, d, size, names, out)
        judged = held is not None  # False: the tricks cannot be judged (the fault is reported)
        if held is None:
            out.append(
                diag(
                    "PL307",
                    f"hand {d + 1}'s play cannot be checked: its hands are not a proper deal",
                    f"/deals/{d}",
                )
            )
        # A turned-up card that should not be there is reported, and the tricks are still judged with its suit
        # as trump: the table evidently played with it (as some play a 52-card hand, whist-style).
        if no_trump:
            if turnup is not None:
                out.append(self._turned_up_without_trump(turnup, d, size))
        elif turnup is None:
            if deal.tricks:
                out.append(
                    diag(
                        "PL206",
                        f"hand {d + 1} has a trump, but the turned-up card is not recorded, so no trick can be judged",
                        f"/deals/{d}/turnup",
                    )
                )
                judged = False
        elif held is not None:
            owner = next((s for s, h in enumerate(held) if turnup in h), None)
            if owner is not None:
                out.append(
                    diag(
                        "PL206",
                        f"the turned-up card {turnup} was dealt to {seat_name(owner, names)}; it is the next card "
                        "of the pack after the deal",
                        f"/deals/{d}/turnup",
                    )
                )
        if visit is not None:  # a score sheet's hands are not known (none recorded, none played)
            self._begins(visit, deal, d, size, last, held if deal.hands is not None or deal.tricks else None, trump)
        bids = self._bids(deal, d, size, names, out)
        hand.bids = bids
        if visit is not None and bids is not None:
            for i in range(n):
                seat = (deal.dealer + 1 + i) % n
                visit(BidMade(d, seat, bids[seat]))
        if judged and held is not None and deal.tricks:
            taken = self._play(deal, d, size, held, trump, may_stop, names, out, hand, visit, totals)
        return self._finish(deal, d, size, bids, taken, judged, names, out, hand)

    def _begins(
        self,
        visit: Visitor,
        deal: OhHellDealView,
        d: int,
        size: int,
        last: bool,
        held: list[set[str]] | None,
        trump: int | None,
    ) -> None:
        """Tell ``visit`` the hand is dealt: its hands (None: not a proper deal), the trump the tricks are
        judged with (the turned-up card's suit, even where the hand should have none), and why the hand has
        no trump where it has none by the rules."""
        turnup = deal.turnup
        visit(
            DealBegins(
                d,
                deal.dealer,
                None if held is None else tuple(tuple(sorted(CARD_BY_TEXT[c] for c in h)) for h in held),
                size,
                None if trump is None else Suit(trump),
                None if turnup is None else CARD_BY_TEXT[turnup],
                None,
                no_trump_reason(self.rules, self.players, size, last),
            )
        )

    def _turned_up_without_trump(self, turnup: str, d: int, size: int) -> Diagnostic:
        why = no_trump_reason(self.rules, self.players, size, True)
        return diag("PL206", f"{turnup} is recorded as turned up, but {why}", f"/deals/{d}/turnup")

    def _hot_play(self, deal: OhHellDealView, size: int, trump: int | None, no_trump: bool) -> list[int] | None:
        """The tricks each seat took, from the C kernel, for a hand whose play it finds clean: the hands
        proper, the turned-up card dealt to nobody, every trick led by the right seat, every card held, suit
        followed (and trumped under must_trump), the recorded winners right, the whole hand played. None
        where there is no kernel, no play it can judge, or a fault: ``_hand`` then replays the hand here and
        words what is wrong."""
        hot = pitch.HOT
        n = self.players
        if hot is None or not deal.tricks or (trump is None and not no_trump):
            return None  # (a hand with a trump but no turned-up card: its tricks are not judged)
        bids, taken = deal.bids, deal.taken
        if (bids is not None and len(bids) != n) or (taken is not None and len(taken) != n):
            return None
        done = hot.oh_hell(
            deal.hands,
            deal.tricks,
            None if no_trump else deal.turnup,
            (deal.dealer + 1) % n,
            n,
            size,
            -1 if trump is None else trump,
            self._hot_table,
        )
        return None if len(done) == 3 else done[1]

    def _finish(
        self,
        deal: OhHellDealView,
        d: int,
        size: int,
        bids: list[int] | None,
        taken: list[int] | None,
        judged: bool,
        names: Sequence[str],
        out: list[Diagnostic],
        hand: _Hand,
    ) -> _Hand:
        """After the play: the score sheet's tricks taken, and the hand's points where they can be worked out."""
        if deal.taken is not None:
            sheet = self._check_taken(deal, d, size, taken, names, out)
            if not (judged and deal.tricks):
                taken = sheet  # a score sheet's tricks taken, or tricks whose play cannot be judged
        hand.taken = taken
        if taken is None or bids is None:
            hand.scorable = False
            missing = [] if bids is not None else ["bids"]
            if taken is None and not deal.tricks and deal.taken is None:
                missing.append("tricks taken")
            if missing:
                hand.why = f"no {' and no '.join(missing)} are recorded"
            elif taken is None and deal.tricks and judged and not hand.fault:
                hand.why = "the game stopped before the hand's last trick"
            return hand
        rules = self.rules
        table = self._tables.get(size)
        if table is None:
            key = (rules.zero_bid, rules.miss, size)
            table = _SCORE_TABLES.get(key)
            if table is None:  # ``hand_score`` by bid and tricks taken, made once for each scoring and hand size
                table = [[hand_score(rules, b, t, size) for t in range(size + 1)] for b in range(size + 1)]
                _SCORE_TABLES[key] = table
            self._tables[size] = table
        hand.points = [
            table[bid][took] if 0 <= bid <= size and 0 <= took <= size else hand_score(self.rules, bid, took, size)
            for bid, took in zip(bids, taken, strict=True)
        ]
        return hand

    def _check_lists(self, deal: OhHellDealView, d: int, names: Sequence[str], out: list[Diagnostic]) -> bool:
        """Every list that holds an entry a player has one for each of them."""
        n = self.players
        ok = True
        for key in ("hands", "bids", "taken"):
            value = getattr(deal, key)
            if value is not None and len(value) != n:
                out.append(
                    diag(
                        "PL207",
                        f"{key} has {len(value)} entries, one a player: there are {n} players",
                        f"/deals/{d}/{key}",
                    )
                )
                ok = False
        for t, trick in enumerate(deal.tricks or ()):
            wrong = deal_check.wrong_trick_size(deal, d, t, n, self._ruled)
            if wrong is not None:
                out.append(wrong)
                ok = False
            if trick.leader >= n or (trick.winner is not None and trick.winner >= n):
                out.append(
                    diag("PL207", f"trick {t + 1} names a seat beyond the {n} players", f"/deals/{d}/tricks/{t}")
                )
                ok = False
        return ok

    def _hands(
        self, deal: OhHellDealView, d: int, size: int, names: Sequence[str], out: list[Diagnostic]
    ) -> list[set[str]] | None:
        """The hands as dealt: recorded, or inferred from the tricks when every card was played."""
        if deal.hands is None:
            return deal_check.infer_hands(deal.tricks or (), d, self.players, size, "hand", names, out)
        if not deal_check.report_dealt(deal.hands, d, size, names, out):
            return None
        return [set(h) for h in deal.hands]

    def _bids(
        self, deal: OhHellDealView, d: int, size: int, names: Sequence[str], out: list[Diagnostic]
    ) -> list[int] | None:
        """Every bid is 0 to the hand size; under the hook the dealer may not make the bids add up to it.

        A wrong bid is reported, and the hand is still scored with the bids as recorded: they are what the
        players bid, and scoring them needs nothing more.
        """
        bids = deal.bids
        if bids is None:
            return None
        ok = True
        if bids and max(bids) > size:  # (rare: the loop only where some bid is too high)
            for seat, bid in enumerate(bids):
                if bid > size:
                    out.append(
                        diag(
                            "PL208",
                            f"{seat_name(seat, names)} bid {bid} in a hand of {size} card(s); a bid is 0 to {size}",
                            f"/deals/{d}/bids/{seat}",
                        )
                    )
                    ok = False
        if ok and self.rules.hook and self.rules.bidding == "sequential":
            dealer = deal.dealer
            others = sum(bids) - bids[dealer]
            if forbidden_bid(others, size) == bids[dealer]:
                out.append(
                    diag(
                        "PL208",
                        f"{seat_name(dealer, names)} (the dealer) bid {bids[dealer]}, which makes the bids add up to "
                        f"the {size} trick(s) of the hand: the hook forbids it",
                        f"/deals/{d}/bids/{dealer}",
                    )
                )
        return list(bids)

    def _play(
        self,
        deal: OhHellDealView,
        d: int,
        size: int,
        held: list[set[str]],
        trump: int | None,
        may_stop: bool,
        names: Sequence[str],
        out: list[Diagnostic],
        hand: _Hand,
        visit: Visitor | None = None,
        totals: tuple[int, ...] | None = None,
    ) -> list[int] | None:
        """Play the tricks: right leader, cards held, suit followed (and trumped under La Podrida), by the
        referees' shared trick loop (``deal_check.play_tricks``). A visitor hears each trick won, and the
        tricks from an illegal one on, shown unscored."""
        tricks = deal.tricks
        assert tricks is not None  # ``_hand`` plays only a hand with tricks
        if len(tricks) > size:
            out.append(
                diag(
                    "PL309",
                    f"hand {d + 1} deals {size} card(s) each, but {len(tricks)} tricks are recorded",
                    f"/deals/{d}/tricks/{size}",
                )
            )
            hand.fault = True
            return None
        follow = FollowRule.MUST_TRUMP if self.rules.must_trump else FollowRule.MUST_FOLLOW
        won: deal_check.TrickHook | None = None
        if visit is not None:
            trump_suit = None if trump is None else Suit(trump)

            def won(t: int, trick: TrickView, position: int, winner: int, taken: Sequence[int]) -> bool:
                played = tuple(CARD_BY_TEXT[c] for c in trick.cards)
                why = explain_winner(played, trump_suit, follow)
                visit(TrickWon(d, t, trick.leader, played, winner, position, why, (), 0, totals, tuple(taken)))
                return False

        # Card by card (``held_first`` False): a card not held, or not following, is reported where it is.
        ruled = self._ruled  # format 1.1: a ruled revoke stands as played
        play, fault = deal_check.play_tricks(
            deal, d, held, "{seat}, on the dealer's left,", trump, follow, False, names, out, won, ruled=ruled
        )
        if fault is not None:
            self._unscorable(d, fault, out, hand, visit, deal, trump, follow)
            return None
        taken = list(play.taken)
        if ruled is not None:
            ruled.unmatched_revokes(len(tricks), out)
            claim = ruled.claim_rest(play.played, size, out)  # the trick in progress (if any) is claimed too
            if claim is not None:  # the claim settles the rest of the hand
                assert ruled.claim is not None
                ruled.audit = rulings.audit_claim(
                    deal, d, ruled.claim, ruled.claim_at, out, play=play, trump=trump, follow=follow, names=names
                )
                if visit is not None:
                    visit(Ruled(d, "claim", ruled.claim_text(), play.played, ruled.claim.seat))
                if claim:
                    taken[ruled.claim.seat] += size - play.played
                    return taken
                return rulings.claimed_taken(deal, d, taken, size, names, out)
        if len(tricks) < size:
            if not may_stop:
                out.append(deal_check.cut_short("hand", d, len(tricks), size, "so its points are taken as recorded"))
                hand.fault = True
            return None
        return taken

    #: Format 1.1: the rulings of the hand being judged (None: it has none) and the void hands so far.
    _ruled: rulings.DealRulings | None = None
    _misdeals: int = 0

    def _check_taken(
        self,
        deal: OhHellDealView,
        d: int,
        size: int,
        played: list[int] | None,
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> list[int] | None:
        """The score sheet's tricks taken add up to the hand size and agree with the tricks, if recorded."""
        assert deal.taken is not None  # ``_finish`` asks only where they are recorded
        taken = list(deal.taken)
        if sum(taken) != size:
            out.append(
                diag(
                    "PL209",
                    f"the tricks taken add up to {sum(taken)}, but hand {d + 1} has {size} trick(s), so its points "
                    "are taken as recorded",
                    f"/deals/{d}/taken",
                )
            )
            return None
        if played is not None and played != taken:
            seat = next(s for s in range(self.players) if played[s] != taken[s])
            out.append(
                diag(
                    "PL209",
                    f"{seat_name(seat, names)} is recorded as taking {taken[seat]} trick(s), but won {played[seat]} "
                    "in the recorded play",
                    f"/deals/{d}/taken/{seat}",
                )
            )
            return played
        return taken

    # ------------------------------------------------------------------ explaining illegal plays

    def _unscorable(
        self,
        d: int,
        t: int,
        out: list[Diagnostic],
        hand: _Hand,
        visit: Visitor | None,
        deal: OhHellDealView,
        trump: int | None,
        follow: FollowRule,
    ) -> None:
        """After an illegal play: say so once; the hand's points are taken as recorded. A visitor hears of
        the recorded tricks from the illegal one on, shown unscored (``TrickShown``)."""
        hand.fault = True
        out.append(deal_check.unscorable("hand", d, t))
        if visit is not None:
            rest = [(tr.leader, [CARD_BY_TEXT[c] for c in tr.cards]) for tr in (deal.tricks or ())[t:]]
            for event in shown_tricks(d, t, rest, None if trump is None else Suit(trump), self.players, follow):
                visit(event)


def _tell_pegs(visitor: Visitor, d: int, pegs: list[rulings.Peg], before: list[int] | None) -> None:
    """Tell each revoke penalty or adjustment of a hand, with the game's totals after it: ``before`` (the
    totals before the hand; None where they are not known) plus the hand's points as the peg left them."""
    for peg in pegs:
        after = None if before is None else tuple(t + p for t, p in zip(before, peg.after, strict=True))
        visitor(Ruled(d, peg.kind, peg.text, peg.trick, None, peg.side, peg.points, after))


def _hands_named(indices: list[int]) -> str:
    """``[0, 1, 2, 5]`` as "hands 1-3, 6" (counting from 1)."""
    return ("hand " if len(indices) == 1 else "hands ") + pitch.numbered_ranges(indices)


def _sheet_note(sheet: list[int], count: int) -> Diagnostic:
    """One note for all the hands of a record that are recorded without their tricks: what it cannot prove."""
    if len(sheet) == count:
        which = f"all {count} hands are" if count > 1 else "the hand is"
    else:
        which = f"{_hands_named(sheet)} {'is' if len(sheet) == 1 else 'are'}"
    return diag(
        "PL406",
        f"{which} recorded as a score sheet (no tricks): the deal, the turned-up card and the play cannot be "
        "checked, nor that the tricks taken could be won with the cards held; checked are the bids (0 to the "
        "hand size, and the hook), that the tricks taken add up to the hand size, each hand's points, the "
        "running totals and the result",
        "/deals",
    )


def _recorded_points(deal: OhHellDealView, players: int) -> list[int] | None:
    score = deal.score
    if score is None or score.points is None or len(score.points) != players:
        return None
    return list(score.points)


def make(record: OhHellRecordView) -> OhHell:
    return OhHell(record.rules, len(record.players))


#: ``_trick.oh_hell_record``: a whole record in the clean, common case, (totals, judged), or None.
WholeRecord = Callable[[Sequence[OhHellDealView], bytes], tuple[list[int], list[tuple[list[int], list[int]]]] | None]


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a referee works out of its rules and number of players once, for every record with equal
    ones: the hand sizes, the kernel's trick table (``tables.trick_table``), the score tables by hand
    size (filled in as met), ``check_rules`` and whether it refuses, and the C record path's table
    (``tables.oh_hell_table``; None: not for it)."""

    sizes: list[int]  # (never changed)
    trick_table: bytes
    tables: dict[int, list[list[int]]]
    checks: tuple[Diagnostic, ...]
    refuses: bool
    whole: bytes | None


#: The plans made so far, by (rules, players), or by the rules' fields where the rules cannot be hashed
#: (a pydantic model, a list schedule). Records rarely differ in rules: a few entries, cleared if many.
_PLANS: dict[Hashable, _Plan] = {}


def _plan(rules: OhHellRulesView, players: int) -> _Plan:
    """The plan of ``rules`` for ``players`` (cached: a verify of an archive makes it once)."""
    key: Hashable
    try:
        key = (rules, players)
        plan = _PLANS.get(key)
    except TypeError:  # unhashable: by the fields the plan is made of
        schedule = rules.schedule if isinstance(rules.schedule, str) else tuple(rules.schedule)
        fields = (rules.max_cards, rules.no_trump, rules.bidding, rules.hook, rules.must_trump, rules.miss)
        key = (schedule, *fields, rules.zero_bid, players)
        plan = _PLANS.get(key)
    if plan is None:
        plan = _make_plan(rules, players)
        if len(_PLANS) >= 64:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


def _make_plan(rules: OhHellRulesView, players: int) -> _Plan:
    sizes = hand_sizes(rules, players) if players in DEFAULT_MAX_CARDS else []
    trick_table = tables.trick_table(tables.oh_hell_follow(rules))
    checker = OhHell.__new__(OhHell)
    checker.rules, checker.players = rules, players
    checks = tuple(checker._check_rules())
    refuses = any(x.severity is Severity.ERROR for x in checks)
    whole = None if refuses else tables.oh_hell_table(rules, players, sizes)
    return _Plan(sizes, trick_table, {}, checks, refuses, whole)
