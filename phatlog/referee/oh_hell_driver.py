"""The Oh Hell referee: it drives the game machine over a record and words every difference.

As a PGN reader drives a board, the referee drives the State (``engine.oh_hell_state.OhHellState``)
over a record's hands, and nothing else plays them. For each hand it checks what only a record can get
wrong, in these words and this order, and hands the State the rest:

- the dealer's rotation (PL202), a seat beyond the table, the lists one a player, the tricks' sizes
  (PL207), the hands as dealt or inferred from the tricks (PL201, PL203, PL205, PL302, then PL307), the
  turned-up card and the trump (PL206); then the State is dealt the hand as recorded;
- each recorded bid: 0 to the hand size (PL208), and the hook (PL208); then it is made on the State, as
  recorded (a wrong bid is still scored as bid);
- more tricks than the hand has cards (PL309); then each trick's leader (PL301) before its cards, and
  card by card: held (PL302), following the rule (PL303; format 1.1: a ruled revoke stands as played,
  info PL310); the trick played on the State; the recorded winner against the State's (PL304)
  (``deal_check.play_tricks``, the loop both referees share). After an illegal
  play the hand is given up (PL307): the State shows the rest of the tricks unscored;
- format 1.1's claim (the State gives the claimer the rest, or the record's tricks taken settle it), the
  tricks cut short (PL306), the score sheet's tricks taken (PL209).

Then the State scores the hand (``OhHellState.score``: the bids as recorded against the tricks taken) and
pegs its rulings' penalties and adjustments, or takes the recorded points where the rules cannot work them
out; the recorded points and running totals are compared with the State's (``scoring``), and after the
last hand the result with the State's winners.

What is the record's own stays here, in a :class:`Book`: the previous recorded total, the score-sheet
hands and their note, the hands whose points are taken as recorded, the void hands (misdeals), and the
bids and tricks taken of the hands whose points were worked out (for standings). What one hand's
judgement needs is one :class:`Judgement`.

Without a visitor, a record whose every hand is clean is checked in one C call first
(``_trick.oh_hell_record``): it returns what this driver would (the final totals, and each hand's bids and
tricks taken) or declines, and the driver then plays the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.record.view import OhHellDealView, OhHellRecordView, OhHellRulesView, ResultView
from phatlog.referee import deal_check, pitch, rulings
from phatlog.referee.oh_hell import WholeRecord, _plan
from phatlog.referee.pitch import Findings
from phatlog.referee.scoring import check_deal_score, check_result
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Suit
from phatlog.rules.oh_hell import forbidden_bid, no_trump_reason, winners
from phatlog.rules.table import first_leader, in_turn
from phatlog.rules.trick import SUIT_BY_TEXT, FollowRule

# The game machine is loaded only when a record is played on it (a clean record: one C call).
if TYPE_CHECKING:
    from phatlog.engine.oh_hell_state import OhHellState
    from phatlog.engine.state import Visitor
    from phatlog.engine.trickplay import TrickPlay

#: Who leads the first trick, in the words of ``deal_check.wrong_leader``.
_FIRST_LEADER = "{seat}, on the dealer's left,"


@dataclass(slots=True)
class Judgement:
    """What judging one hand needs, in one place: its index and record, the names, the diagnostics found so
    far, its rulings (format 1.1; None: none), the State it is played on, and what the judgement finds: the
    bids and tricks taken (None where not known), whether the play went wrong (``fault``), and why its
    points cannot be worked out where no fault explains it."""

    d: int
    deal: OhHellDealView
    size: int
    last: bool
    names: Sequence[str]
    out: list[Diagnostic]
    ruled: rulings.DealRulings | None
    state: OhHellState
    bids: list[int] | None = None
    taken: list[int] | None = None
    fault: bool = False
    claimed: bool = False  # a claim left the tricks each player took open (the hand's taken did not settle them)
    why: str | None = None

    @property
    def scorable(self) -> bool:
        """Whether the rules can score the hand: its bids and the tricks each player took are known."""
        return self.bids is not None and self.taken is not None

    def who(self, seat: int) -> str:
        return seat_name(seat, self.names)


@dataclass(slots=True)
class Book:
    """The record's own bookkeeping across its hands: the previous recorded running total (the next row's
    base), the void hands so far, the hands recorded as score sheets, the hands whose points are taken as
    recorded (by why), and the (bids, taken) of each hand whose points were worked out."""

    previous: tuple[int, ...] | None
    misdeals: int = 0
    sheet: list[int] = field(default_factory=list)
    taken_as_recorded: dict[str, list[int]] = field(default_factory=dict)
    judged: list[tuple[list[int], list[int]]] = field(default_factory=list)


class OhHellReferee:
    """The referee for Oh Hell."""

    game = "oh_hell"

    def __init__(self, rules: OhHellRulesView, players: int) -> None:
        self.rules = rules
        self.players = players
        # What every record and hand looks up, worked out once for equal rules (``oh_hell._plan``).
        plan = self._plan = _plan(rules, players)
        self.sizes = plan.sizes
        self._follow = FollowRule.MUST_TRUMP if rules.must_trump else FollowRule.MUST_FOLLOW

    def check_rules(self) -> list[Diagnostic]:
        """Rules combinations that make no sense, and schedules the pack cannot deal."""
        return list(self._plan.checks)

    # ------------------------------------------------------------------ the record

    def referee(self, record: OhHellRecordView, visitor: Visitor | None = None) -> Findings:
        """Replay a record on the State and check everything it says; ``visitor`` hears every hand's events
        as the State plays it (see ``referee.referee``).

        Without a visitor, a record whose every hand is clean is refereed in one C call first
        (``_trick.oh_hell_record``): only a record it declines is played here."""
        plan = self._plan
        if plan.whole is not None and visitor is None:
            whole: WholeRecord | None = getattr(pitch.KERNEL, "oh_hell_record", None)
            done = None if whole is None else whole(record.deals, plan.whole)
            if done is not None:
                return self._clean(record, done[0], done[1])
        names = [p.name for p in record.players]
        n = self.players
        out = list(plan.checks)
        if plan.refuses:  # a rule that does not apply is only a warning
            return Findings([x.located(names) for x in out], len(record.deals), None, None, None, refused=True)
        result = record.result
        unfinished = result is not None and result.status in rulings.STOPPED
        deals = record.deals
        from phatlog.engine.oh_hell_state import OhHellState  # (loaded only when a record is played on it)

        state = OhHellState(self.rules, names, None, 0, () if visitor is None else (visitor,))
        book = Book(tuple(state.totals))
        # The dealer passes to the left. A wrong dealer is reported once: the next hand may pass on from the
        # dealer recorded or from the one who should have dealt.
        rotation = deal_check.Rotation(n, names, name_record_first=True)
        penalty = getattr(self.rules, "revoke_penalty", None)
        for d, deal in enumerate(deals):
            ruled = (
                rulings.DealRulings.of(deal, d, n, n, int, names, penalty, out)
                if rulings.rulings_of(deal)
                else None  # what ``of`` says of a hand without rulings, for less
            )
            if ruled is not None and rulings.is_misdeal(deal):  # a void hand: the same dealer deals again
                rotation.check(d, deal.dealer, out)
                rulings.redeal(rotation)
                rulings.misdeal_play(deal, d, out)
                book.misdeals += 1
                self._misdeal(state, deal, d, ruled, book, names, out)
                continue
            index = d - book.misdeals
            if index >= len(self.sizes):
                out.append(
                    diag(
                        "PL308",
                        f"the game is complete after {len(self.sizes)} hands, but {len(deals) - d} more are recorded",
                        f"/deals/{d}",
                    )
                )
                break
            rotation.check(d, deal.dealer, out)
            size, last = self.sizes[index], index == len(self.sizes) - 1
            if not deal.tricks and not _claimed_before_play(deal, ruled):
                book.sheet.append(d)
                if ruled is not None:  # format 1.1: what a score sheet's rulings can be checked against
                    ruled.on_sheet(deal, names, out, size)
            judgement = Judgement(d, deal, size, last, names, out, ruled, state)
            self._hand(judgement, d == len(deals) - 1 and unfinished)
            self._score(judgement, book)
        return self._conclude(deals, state.totals, state.totals_known, book, result, unfinished, names, out, state)

    def _misdeal(
        self,
        state: OhHellState,
        deal: OhHellDealView,
        d: int,
        ruled: rulings.DealRulings,
        book: Book,
        names: Sequence[str],
        out: list[Diagnostic],
    ) -> None:
        """A void hand: the State scores nothing for it but what its rulings peg."""
        state.misdeal(deal.dealer)
        for peg in ruled.peg_after([0] * self.players, None, False, out)[1]:
            state.peg(peg.kind, peg.text, peg.side, peg.points, peg.trick)
        points = state.hand_points
        assert points is not None  # a void hand's points are its pegs
        if deal.score is not None:
            book.previous = check_deal_score(
                deal.score,
                d,
                points,
                state.totals,
                state.totals_known,
                book.previous,
                lambda s: seat_name(s, names),
                out,
            )
        state.close()

    def _score(self, j: Judgement, book: Book) -> None:
        """The hand is scored by the State: by the rules where its bids and tricks taken are known (then
        its rulings' penalties and adjustments pegged), else as recorded; the recorded score is compared
        with the State's."""
        state, deal, d = j.state, j.deal, j.d
        if j.why is not None:
            book.taken_as_recorded.setdefault(j.why, []).append(d)
        check_points = j.scorable
        if check_points:
            assert j.bids is not None and j.taken is not None
            book.judged.append((j.bids, j.taken))
            points = state.score()
            if j.ruled is not None:  # penalties and adjustments, after the hand's points
                for peg in j.ruled.peg_after(points, None, False, j.out)[1]:
                    state.peg(peg.kind, peg.text, peg.side, peg.points, peg.trick)
        else:
            state.take_as_recorded(_recorded_points(deal, self.players))
        score = deal.score
        recorded = None if score is None else score.total
        if not state.totals_known and recorded is not None and len(recorded) == self.players:
            state.anchor(recorded)  # re-anchored on the scorer's figures
        hand_points = state.hand_points
        points = [0] * self.players if hand_points is None else hand_points
        totals, known = state.totals, state.totals_known
        if score is not None and known and score.points == points and score.total == totals:
            book.previous = tuple(totals)  # all as the rules give: nothing to report
        else:
            book.previous = check_deal_score(score, d, points, totals, known, book.previous, j.who, j.out, check_points)
        state.close(given_up=j.fault)

    def _clean(
        self, record: OhHellRecordView, totals: list[int], judged: list[tuple[list[int], list[int]]]
    ) -> Findings:
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
                return Findings([], len(deals), totals, won, (len(deals) - 1, None), judged=judged)
        names = [p.name for p in record.players]
        unfinished = result is not None and result.status in rulings.STOPPED
        out = list(self._plan.checks)
        book = Book(None, judged=judged)
        return self._conclude(deals, totals, True, book, result, unfinished, names, out, None)

    def _conclude(
        self,
        deals: Sequence[OhHellDealView],
        totals: list[int],
        known: bool,
        book: Book,
        result: ResultView | None,
        unfinished: bool,
        names: list[str],
        out: list[Diagnostic],
        state: OhHellState | None,
    ) -> Findings:
        """After the last hand: the notes on hands not worked out, whether the game is complete, the result
        checked against the State's winners (``state`` None: the C call's totals), and the verdict
        (``known``: the totals are known)."""
        n = self.players
        if book.sheet:
            out.append(_sheet_note(book.sheet, len(deals)))
        for why, which in book.taken_as_recorded.items():
            out.append(
                diag(
                    "PL406",
                    f"{_hands_named(which)}: {why}, so the points cannot be worked out and are taken as recorded "
                    "(only the running totals are checked)",
                    "/deals",
                )
            )
        complete = len(deals) - book.misdeals >= len(self.sizes)
        won: list[int] | None = None
        if complete and known:
            won = winners(totals) if state is None else state.finish(len(deals) - 1)
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
        return Findings(
            [x.located(names) for x in out],
            len(deals),
            list(totals) if known else None,
            won,
            (len(deals) - 1, None) if won else None,
            judged=book.judged,
        )

    # ------------------------------------------------------------------ one hand

    def _hand(self, j: Judgement, may_stop: bool) -> None:
        """Check one hand and play it on the State as far as the record lets it be played.

        Every fault is reported where it is, and the rest of the hand is still checked as far as it can be:
        a wrong bid or a misplaced turned-up card does not stop the play being judged. The State is dealt
        the hand (its hands where they are a proper deal, the trump, or why there is none), makes the bids,
        plays the tricks; the tricks after an illegal play are shown unscored."""
        n = self.players
        deal, d, out, state = j.deal, j.d, j.out, j.state
        size = j.size
        no_trump = no_trump_reason(n, size, j.last, self.rules.no_trump) is not None
        turnup = deal.turnup
        up = None if turnup is None else CARD_BY_TEXT[turnup]
        if deal.dealer >= n:
            out.append(diag("PL207", f"seat {deal.dealer} deals, but there are {n} players", f"/deals/{d}/dealer"))
            state.deal_recorded(deal.dealer, None, up, None)
            return
        if not self._check_lists(j):
            state.deal_recorded(deal.dealer, None, up, None)
            return
        held = self._hands(j)
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
                        f"the turned-up card {turnup} was dealt to {j.who(owner)}; it is the next card "
                        "of the pack after the deal",
                        f"/deals/{d}/turnup",
                    )
                )
        trump = None if turnup is None else Suit(SUIT_BY_TEXT[turnup])
        # A score sheet's hands are not known (none recorded, none played).
        shown = held is not None and (deal.hands is not None or bool(deal.tricks))
        hands = [{CARD_BY_TEXT[c] for c in h} for h in held] if shown and held is not None else None
        state.deal_recorded(deal.dealer, hands, up, trump)
        bids = j.bids = self._bids(j)
        if bids is not None:
            for i in range(n):
                state.bid_recorded(bids[in_turn(first_leader(deal.dealer, n), i, n)])
        taken = None
        played = False  # whether the play (or a claim before it) says who took what
        if judged and held is not None and deal.tricks:
            taken, played = self._play(j, may_stop), True
        elif _claimed_before_play(deal, j.ruled):
            assert j.ruled is not None
            if judged and hands is not None and (trump is not None or no_trump):
                taken, played = self._claim(j, j.ruled), True
            else:  # the hands are not a proper deal, or the trump is not known: as a score sheet's claim
                j.ruled.on_sheet(deal, j.names, out, size)
        self._finish(j, taken, played)

    def _turned_up_without_trump(self, turnup: str, d: int, size: int) -> Diagnostic:
        why = no_trump_reason(self.players, size, True, self.rules.no_trump)
        return diag("PL206", f"{turnup} is recorded as turned up, but {why}", f"/deals/{d}/turnup")

    def _check_lists(self, j: Judgement) -> bool:
        """Every list that holds an entry a player has one for each of them."""
        n = self.players
        deal, d = j.deal, j.d
        ok = True
        for key in ("hands", "bids", "taken"):
            value = getattr(deal, key)
            if value is not None and len(value) != n:
                j.out.append(
                    diag(
                        "PL207",
                        f"{key} has {len(value)} entries, one a player: there are {n} players",
                        f"/deals/{d}/{key}",
                    )
                )
                ok = False
        for t, trick in enumerate(deal.tricks or ()):
            wrong = deal_check.wrong_trick_size(deal, d, t, n, j.ruled)
            if wrong is not None:
                j.out.append(wrong)
                ok = False
            if trick.leader >= n or (trick.winner is not None and trick.winner >= n):
                j.out.append(
                    diag("PL207", f"trick {t + 1} names a seat beyond the {n} players", f"/deals/{d}/tricks/{t}")
                )
                ok = False
        return ok

    def _hands(self, j: Judgement) -> list[set[str]] | None:
        """The hands as dealt: recorded, or inferred from the tricks when every card was played."""
        deal = j.deal
        if deal.hands is None:
            return deal_check.infer_hands(deal.tricks or (), j.d, self.players, j.size, "hand", j.names, j.out)
        if not deal_check.report_dealt(deal.hands, j.d, j.size, j.names, j.out):
            return None
        return [set(h) for h in deal.hands]

    def _bids(self, j: Judgement) -> list[int] | None:
        """Every bid is 0 to the hand size; under the hook the dealer may not make the bids add up to it.

        A wrong bid is reported, and the hand is still scored with the bids as recorded: they are what the
        players bid, and scoring them needs nothing more.
        """
        bids = j.deal.bids
        if bids is None:
            return None
        size, d = j.size, j.d
        ok = True
        if bids and max(bids) > size:  # (rare: the loop only where some bid is too high)
            for seat, bid in enumerate(bids):
                if bid > size:
                    j.out.append(
                        diag(
                            "PL208",
                            f"{j.who(seat)} bid {bid} in a hand of {size} card(s); a bid is 0 to {size}",
                            f"/deals/{d}/bids/{seat}",
                        )
                    )
                    ok = False
        if ok and self.rules.hook and self.rules.bidding == "sequential":
            dealer = j.deal.dealer
            others = sum(bids) - bids[dealer]
            if forbidden_bid(others, size) == bids[dealer]:
                j.out.append(
                    diag(
                        "PL208",
                        f"{j.who(dealer)} (the dealer) bid {bids[dealer]}, which makes the bids add up to "
                        f"the {size} trick(s) of the hand: the hook forbids it",
                        f"/deals/{d}/bids/{dealer}",
                    )
                )
        return list(bids)

    def _play(self, j: Judgement, may_stop: bool) -> list[int] | None:
        """Play the recorded tricks on the State (``_tricks``), then format 1.1's claim: the tricks each
        player took, or None where the play went wrong or stops short."""
        deal, d, size, out, state = j.deal, j.d, j.size, j.out, j.state
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
            j.fault = True
            return None
        fault = self._tricks(j)
        if fault is not None:
            # After an illegal play: say so once; the hand's points are taken as recorded, and the State shows
            # the recorded tricks from the illegal one on, unscored.
            j.fault = True
            out.append(deal_check.unscorable("hand", d, fault))
            rest = [(tr.leader, [CARD_BY_TEXT[c] for c in tr.cards]) for tr in tricks[fault:]]
            state.show_unscored(rest)
            return None
        ruled = j.ruled
        if ruled is not None:
            ruled.unmatched_revokes(len(tricks), out)
            if ruled.claim is not None:
                return self._claim(j, ruled)
        if len(tricks) < size:
            if not may_stop:
                out.append(deal_check.cut_short("hand", d, len(tricks), size, "so its points are taken as recorded"))
                j.fault = True
            return None
        return list(state.taken)

    def _claim(self, j: Judgement, ruled: rulings.DealRulings) -> list[int] | None:
        """The hand's claim (format 1.1), after the tricks played (none, for a claim before the first card):
        audited where every hand is known; it settles the rest of the hand, or the hand's ``taken`` must
        fit it. The tricks each player took, or None where they are not known."""
        deal, d, size, out, state = j.deal, j.d, j.size, j.out, j.state
        assert ruled.claim is not None
        played = len(state.tricks)
        if not deal.tricks:
            ruled.unmatched_revokes(0, out)
        claim = ruled.claim_rest(played, size, out)  # the trick in progress (if any) is claimed too
        assert claim is not None
        trump = None if state.trump is None else int(state.trump)
        ruled.audit = rulings.audit_claim(
            deal,
            d,
            ruled.claim,
            ruled.claim_at,
            out,
            play=_position(state),
            trump=trump,
            follow=self._follow,
            names=j.names,
        )
        won = list(state.taken)
        state.claim(ruled.claim.seat, ruled.claim_text(), claim)
        if claim:
            return list(state.taken)
        taken = rulings.claimed_taken(deal, d, won, size, j.names, out, ruled.claim)
        if taken is None:
            j.claimed = True
        state.award(taken)
        return taken

    def _tricks(self, j: Judgement) -> int | None:
        """Play the recorded tricks on the State, each card checked first, card by card
        (``deal_check.play_tricks``). Returns the index of the trick with a fault, or None."""
        state = j.state
        return deal_check.play_tricks(
            state, j.deal, j.d, state.trump, self._follow, False, _FIRST_LEADER, j.names, j.out, j.ruled
        )

    def _finish(self, j: Judgement, taken: list[int] | None, played: bool) -> None:
        """After the play (``played``: the tricks, or a claim before the first card, were judged): the score
        sheet's tricks taken, and whether the hand's points can be worked out."""
        deal = j.deal
        if deal.taken is not None:
            sheet = self._check_taken(j, taken)
            if not played:
                taken = sheet  # a score sheet's tricks taken, or tricks whose play cannot be judged
                j.state.award(sheet)
        j.taken = taken
        if taken is None:
            j.state.award(None)
        if taken is None or j.bids is None:
            missing = [] if j.bids is not None else ["bids"]
            if taken is None and not played and deal.taken is None:
                missing.append("tricks taken")
            if missing:
                j.why = f"no {' and no '.join(missing)} are recorded"
            elif taken is None and played and not j.fault:
                j.why = (
                    "a claim settled the rest of the hand without the tricks each player took"
                    if j.claimed
                    else "the game stopped before the hand's last trick"
                )

    def _check_taken(self, j: Judgement, played: list[int] | None) -> list[int] | None:
        """The score sheet's tricks taken add up to the hand size and agree with the tricks, if recorded."""
        deal, d, size = j.deal, j.d, j.size
        assert deal.taken is not None  # ``_finish`` asks only where they are recorded
        taken = list(deal.taken)
        if sum(taken) != size:
            j.out.append(
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
            j.out.append(
                diag(
                    "PL209",
                    f"{j.who(seat)} is recorded as taking {taken[seat]} trick(s), but won {played[seat]} "
                    "in the recorded play",
                    f"/deals/{d}/taken/{seat}",
                )
            )
            return played
        return taken


def _claimed_before_play(deal: OhHellDealView, ruled: rulings.DealRulings | None) -> bool:
    """A hand that records its hands and a claim, and no trick: the claim was made before the first card."""
    return not deal.tricks and deal.hands is not None and ruled is not None and ruled.claim is not None


def _position(state: OhHellState) -> TrickPlay[str]:
    """The State's hand in play as card texts, for the claim audit: what each seat still holds, the trick
    in progress and its leader, the tricks finished."""
    from phatlog.engine.trickplay import TrickPlay

    position: TrickPlay[str] = TrickPlay(
        [{CARD_TEXT[c] for c in state.held[s]} for s in range(state.seats)], state.leader
    )
    position.trick = [CARD_TEXT[c] for c in state.trick]
    position.played = len(state.tricks)
    return position


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


def make(record: OhHellRecordView) -> OhHellReferee:
    return OhHellReferee(record.rules, len(record.players))
