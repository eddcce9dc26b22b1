"""The All Fours referee: the State plays the record, the referee words every difference between them.

A record of Phat, Nine-card Don or Irish Don is refereed the way a PGN reader drives a chess board: the
game machine (``engine.pitch_state.PitchState``) is the only thing that plays, pegs and scores; the
referee deals it each recorded deal and plays it each recorded card, and checks on the way what only a
record can get wrong.

Per deal, in this order: the dealer's rotation (PL202); the hands as dealt, recorded or inferred from the
tricks (PL201, PL203, PL204, PL205, and Nine-card Don's undealt cards); each trick's size (PL207). Then,
trick by trick: the leader (PL301); every card held by its player (PL302), all four before following is
looked at; the follow rule (PL303; a revoke a director's ruling covers stands as played, info PL310); the
recorded winner against the State's (PL304). What a trick pegs, the peg that ends the game, the
end-of-deal awards and the game's end are the State's; the referee compares the recorded score with the
State's points and totals (``scoring``). After an illegal play the deal cannot be scored (PL307): the State
gives it up and takes the record's points.

What is the record's own stays here, in a :class:`Judgement`: the names and the diagnostics found, the deal
being judged and its rulings, the last recorded running total, the score-sheet deals (one note for them,
PL406) and where the totals stopped being known.

With nobody listening, a record whose every deal is clean is judged by one C call instead
(``_trick.pitch_record``): it returns what this referee would find (the totals, the winner, where the game
ended), or declines, and then this referee judges the record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.record.view import CutView, NineCardDonDealView, PitchDealView, PitchRecordView
from phatlog.referee import deal_check, pitch, rulings
from phatlog.referee.pitch import FIRST_LEADER, AllFoursReferee, Findings, RulesT, Tally, sheet_note, side_label
from phatlog.referee.scoring import check_deal_score, check_result
from phatlog.rules.all_fours import DealCards
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, DECK, Suit
from phatlog.rules.table import SEATS, pitcher, side_of, trump_of_pitch
from phatlog.rules.trick import seat_of

# The game machine is loaded only when a record is played on it: a clean record is judged by one C call
# (``AllFours.referee``) and needs none of it.
if TYPE_CHECKING:
    from phatlog._native._trick import RecordDone
    from phatlog.engine.pitch_state import PitchState
    from phatlog.engine.state import Event, Visitor
    from phatlog.engine.trickplay import TrickPlay

SUITS = tuple(Suit)


@dataclass(slots=True)
class Judgement:
    """What judging one record carries from call to call: the players' ``names``, the diagnostics found
    (``out``), the deal being judged (``d``) and its rulings (format 1.1), and the record's own bookkeeping
    of its scores: the last running total it recorded, its score-sheet deals, and the first deal after
    which its totals could not be known."""

    names: list[str]
    out: list[Diagnostic]
    d: int = 0
    ruled: rulings.DealRulings | None = None
    previous_recorded: tuple[int, ...] | None = (0, 0)
    sheet_deals: list[int] = field(default_factory=list)
    unknown_from: int | None = None
    #: A note (PL406) for each deal whose claim leaves the unplayed cards' fate open: what was checked.
    claim_notes: list[Diagnostic] = field(default_factory=list)

    def label(self, side: int) -> str:
        """A side for people: "Ann & Cal"."""
        return side_label(side, self.names)


class AllFours(AllFoursReferee[RulesT]):
    """A game of the family refereed: the game's rules as the referee reads them (``AllFoursReferee``;
    ``phat``, ``nine_card_don`` and ``irish_don`` subclass this) and this module's driver."""

    def referee(self, record: PitchRecordView, visitor: Visitor | None = None) -> Findings:
        """Replay a record and check everything it says; ``visitor`` hears every deal's events as the State
        plays it (``engine.state``'s events, the faulty deals' included, ``CardPlayed`` not: see
        ``referee.referee``).

        With nobody listening, a record whose every deal is clean is refereed by one C call
        (``_trick.pitch_record``: the play, the awards, the target, the dealers and the recorded scores); it
        declines anything else, and :class:`Driver` judges the record as if it had not run."""
        kernel = pitch.KERNEL
        if kernel is not None and visitor is None:
            done = kernel.pitch_record(record.deals, self._kernel_table)
            if done is not None:
                return self._clean_verdict(record, done)
        return Driver(self, record, visitor).run()

    def referee_told(self, record: PitchRecordView, deals_out: bytearray, tricks_out: bytearray) -> Findings | None:
        """The verdict on a record whose every deal is clean, from one C call that also tells what the
        engine decided of each deal and trick (``_trick.pitch_record``'s ``deals_out`` and ``tricks_out``,
        appended to; their layout in ``_trick.pyi``): what ``referee`` finds of it. None, nothing told, where
        the kernel is not built or declines: then ``referee`` with a listener hears it."""
        kernel = pitch.TELLING
        if kernel is None or pitch.KERNEL is None:  # (tests switch the kernel off by KERNEL)
            return None
        done = kernel.pitch_record(record.deals, self._kernel_table, deals_out, tricks_out)
        return None if done is None else self._clean_verdict(record, done)

    def _clean_verdict(self, record: PitchRecordView, done: RecordDone) -> Findings:
        """The verdict on a record whose deals the C record path found clean: only what is per record is
        left to check (the rules, the cut, the end of the game and the result), as ``Driver.run`` checks it."""
        totals, winners, ended_at = done
        out = self.check_rules() if self.rules_questioned else []
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
        ):  # else the end and the result are as the driver finds them: nothing to say (``check_end``)
            names = [p.name for p in record.players]
            if cut is not None:
                out.extend(self.check_cut(cut, record.deals[0].dealer, names))
            unfinished = result is not None and result.status in rulings.STOPPED
            judged = Judgement(names, out)
            check_end(self, record, judged, totals, True, None if winners is None else winners[0], ended_at, unfinished)
            if out:
                out = [x.located(names) for x in out]
        return Findings(out, len(record.deals), totals, winners, ended_at)


def without_cards(visitor: Visitor) -> Visitor:
    """``visitor``, told every event but the cards played one by one (the referee tells whole tricks)."""

    from phatlog.engine.state import CardPlayed

    def tell(event: Event) -> None:
        if type(event) is not CardPlayed:
            visitor(event)

    return tell


class Driver:
    """One record judged: the State plays it; the driver checks the record against it, deal by deal."""

    def __init__(self, game: AllFoursReferee, record: PitchRecordView, visitor: Visitor | None) -> None:
        from phatlog.engine.pitch_state import PitchState

        self.game = game
        self.record = record
        names = [p.name for p in record.players]
        self.judged = Judgement(names, game.check_rules())
        self.telling = visitor is not None
        visitors = () if visitor is None else (without_cards(visitor),)
        self.state = PitchState(
            game.game, game.rules, names, None, 0, visitors, game_rules=game.game_rules, driven=True
        )

    def run(self) -> Findings:
        """Judge every deal in turn, then the end of the game and the result."""
        game, record, judged, state = self.game, self.record, self.judged, self.state
        names, out = judged.names, judged.out
        deals = record.deals
        result = record.result
        unfinished = result is not None and result.status in rulings.STOPPED
        cut: CutView | None = getattr(record, "cut", None)  # Irish Don records have no cut
        if cut is not None and deals:
            out.extend(game.check_cut(cut, deals[0].dealer, names))
        rotation = deal_check.Rotation(SEATS, names, name_record_first=False)
        revoke_penalty: int | None = getattr(game.rules, "revoke_penalty", None)
        last = len(deals) - 1
        for d, deal in enumerate(deals):
            if state.ended_at is not None:
                ed, et = state.ended_at
                when = f"at trick {et + 1} of deal {ed + 1}" if et is not None else f"after deal {ed + 1}"
                how = "won" if state.winner else "over (both sides reached the target)"
                out.append(
                    diag(
                        "PL308",
                        f"the game was {how} {when}, but {len(deals) - d} more deal(s) are recorded",
                        f"/deals/{d}",
                    )
                )
                break
            judged.d = d
            rotation.check(d, deal.dealer, out)
            judged.ruled = (
                rulings.DealRulings.of(deal, d, SEATS, 2, side_of, names, revoke_penalty, out)
                if rulings.rulings_of(deal)
                else None  # what ``of`` says of a deal without rulings, for less
            )
            if judged.ruled is not None and rulings.is_misdeal(deal):  # format 1.1: a void deal
                rulings.redeal(rotation)
                self.misdeal(deal)
                continue
            self.deal(deal, d == last and unfinished)
        judged.ruled = None
        if judged.sheet_deals:
            out.append(sheet_note(judged.sheet_deals, len(deals), "deal"))
        out.extend(judged.claim_notes)
        winner = state.winner[0] if state.winner else None
        check_end(game, record, judged, state.totals, state.totals_known, winner, state.ended_at, unfinished)
        return Findings(
            [x.located(names) for x in out],
            len(deals),
            list(state.totals) if state.totals_known else None,
            None if winner is None else [winner],
            state.ended_at,
        )

    # ------------------------------------------------------------------ a deal

    def deal(self, deal: PitchDealView, may_stop: bool) -> None:
        """One deal: check the hands and deal them to the State, then play the tricks on it (or pass the
        deal over as the record scores it)."""
        game, judged, state = self.game, self.judged, self.state
        kernel = pitch.KERNEL
        clean_case = not self.telling and deal.tricks and judged.ruled is None  # what the kernel may take
        if kernel is not None and clean_case and self.kernel_deal(kernel, deal):
            return
        hands = self.hands(deal)
        if judged.d == 0:
            judged.out.extend(game.check_first_deal(deal, hands, judged.names))
        if hands is not None:
            undealt = cast(NineCardDonDealView, deal).undealt if game.undealt else None
            state.deal_recorded(
                [[CARD_BY_TEXT[c] for c in h] for h in hands],
                None if undealt is None else [CARD_BY_TEXT[c] for c in undealt],
                deal.dealer,
            )
        if not deal.tricks:
            if hands is not None and deal.hands is not None and judged.ruled is not None and judged.ruled.claim:
                self.claim_before_play(deal)
            else:
                self.score_sheet(deal)
        elif not deal_check.short_tricks(deal, judged.d, SEATS, judged.ruled, judged.out) or hands is None:
            self.take_recorded(deal, given_up=True)  # a short trick (PL207), or no proper hands
        else:
            self.play(deal, may_stop)

    def kernel_deal(self, kernel: pitch.TrickKernel, deal: PitchDealView) -> bool:
        """A clean deal, with nobody listening, played by the C trick kernel (``_trick.play``): it accepts the
        deal, and the State takes its outcome (``deal_played``), or it declines (a fault, or anything but
        the common, clean case) and False, nothing done: then the State plays the deal and the driver words
        what is wrong. tests/test_trick_kernel.py holds the two to the same verdicts."""
        game, judged, state = self.game, self.judged, self.state
        start = (state.totals[0], state.totals[1])
        tricks = deal.tricks
        assert tricks is not None  # ``deal`` hands the kernel only a deal with tricks
        done = kernel.play(
            deal.hands,
            tricks,
            cast(NineCardDonDealView, deal).undealt if game.undealt else None,  # only Nine-card Don's deals list it
            pitcher(deal.dealer),
            game._kernel_table,
            start[0],
            start[1],
            judged.d == 0,
        )
        if len(done) == 3:
            return False  # a fault: the State plays the deal, and the driver words it
        (_, trump, total0, total1, ended, side, game0, game1, high, high_seat, low, low_seat, low_side, jack, hands) = (
            done
        )
        if judged.d == 0 and game.checks_first_deal:
            as_dealt = deal.hands if hands is None else hands
            assert as_dealt is not None  # the kernel infers the hands where the record has none
            judged.out.extend(game.check_first_deal(deal, [set(h) for h in as_dealt], judged.names))
        if not game.keeps_hands:
            cards = DealCards((game0, game1), None, None, None, None)  # Phat's muck
        else:
            cards = DealCards(
                (game0, game1),
                None if high < 0 else (DECK[high], high_seat),
                None if low < 0 else (DECK[low], low_seat),
                None if low_side < 0 else low_side,
                None if jack < 0 else jack,
            )
        state.deal_played(deal.dealer, trump, (total0, total1), ended if ended >= 0 else None, side, cards)
        self.score_deal(deal, start)
        return True

    def hands(self, deal: PitchDealView) -> list[set[str]] | None:
        """The hands as dealt: recorded, or inferred from the tricks. None if the record's are faulty."""
        d, names, out = self.judged.d, self.judged.names, self.judged.out
        size = self.game.hand_size
        if deal.hands is not None:
            hands = [set(h) for h in deal.hands]
            if len(hands[0] | hands[1] | hands[2] | hands[3]) != SEATS * size:
                deal_check.report_dealt(deal.hands, d, size, names, out)
                if size * SEATS == 52:
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
            inferred = deal_check.infer_hands(played, d, SEATS, size, "deal", names, out)
            if inferred is None:
                out.append(diag("PL307", f"deal {d + 1} cannot be scored: a card is played twice", f"/deals/{d}"))
                return None
            hands = inferred

            def played_by(text: str) -> str:
                t, i = next((t, tr.cards.index(text)) for t, tr in enumerate(played) if text in tr.cards)
                return f"{seat_name(seat_of(played[t].leader, i, SEATS), names)} played it in trick {t + 1}"

            how = played_by
        if self.game.undealt:
            listing = cast(NineCardDonDealView, deal)  # only Nine-card Don's deals list the undealt cards
            if listing.undealt is not None and not self.undealt_ok(listing, hands, how):
                return None
        return hands

    def undealt_ok(self, deal: NineCardDonDealView, hands: list[set[str]], how: Callable[[str], str]) -> bool:
        """The undealt cards, where listed, are the rest of the pack: none of them dealt (or, where the
        hands are not recorded, played), none listed twice."""
        d, out = self.judged.d, self.judged.out
        dealt = hands[0] | hands[1] | hands[2] | hands[3]
        ok = True
        seen: set[str] = set()
        assert deal.undealt is not None  # ``hands`` asks only where the undealt cards are listed
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

    # ------------------------------------------------------------------ the play

    def play(self, deal: PitchDealView, may_stop: bool) -> None:
        """Play the deal's recorded tricks on the State, then settle its claim (format 1.1), and score it."""
        game, judged, state = self.game, self.judged, self.state
        d, out, ruled = judged.d, judged.out, judged.ruled
        tricks = deal.tricks
        assert tricks is not None  # ``deal`` plays only a deal with tricks
        start = state.start_totals
        state.claim_due = ruled is not None and ruled.claim is not None
        fault = self.play_tricks(deal)
        if fault is not None:
            return self.unscorable(deal, fault)
        played = len(state.tricks)
        ended = state.ended_at is not None
        if ended and played < len(tricks):
            out.append(
                diag(
                    "PL305",
                    f"{judged.label(side_of(state.tricks[-1].winner))} reached {game.target} in trick {played} of "
                    f"deal {d + 1}, which ended the game, but {len(tricks) - played} more trick(s) are recorded",
                    f"/deals/{d}/tricks/{played}",
                )
            )
        if ruled is not None:
            ruled.unmatched_revokes(played + (1 if state.trick else 0), out)  # a partly played trick is judged too
            if ended:
                ruled.no_effect(played, out)
            claim = None if ended else ruled.claim_rest(played, game.hand_size, out)
            if claim is not None:  # whether the claim was sound, where every hand is known
                self.audit(deal, trump=int(trump_of_pitch(CARD_BY_TEXT[tricks[0].cards[0]])))
            # The side the claim (or the director's decision) gives every unplayed card: the cards settle the deal.
            taker = None if claim is None or deal.hands is None else ruled.rest_to(played, game.hand_size)
            if claim is not None and taker is None:  # the cards' fate is open: the recorded score, as a sheet's
                state.claim(None, ruled.claim_text(), played)
                judged.claim_notes.append(ruled.claim_note(played, game.hand_size, deal.hands is not None))
                return self.take_recorded(deal, sheet=True)
            if taker is not None:
                state.claim(taker, ruled.claim_text(), played)
                played = game.hand_size
        if state.ended_at is None and played < game.hand_size and not may_stop:
            out.append(deal_check.cut_short("deal", d, played, game.hand_size, "but nobody had won the game"))
        state.play_over()
        self.score_deal(deal, start)

    def claim_before_play(self, deal: PitchDealView) -> None:
        """A claim made before the first card, every hand recorded (format 1.1). It is audited against every
        card the pitcher may lead, since that lead makes trump (``solve_claim_before_lead``). Where it gives
        one side every trick, the cards settle the deal but for trump: the deal is scored as each suit the
        pitcher holds would make it, and the recorded points must be one of those scores."""
        game, judged, state = self.game, self.judged, self.state
        out, ruled = judged.out, judged.ruled
        assert ruled is not None and ruled.claim is not None  # ``deal`` asks only for a deal with a claim
        size = game.hand_size
        start = state.start_totals
        ruled.unmatched_revokes(0, out)
        ruled.claim_rest(0, size, out)
        leads = self.pitcher_suits(deal)
        self.audit(deal, pitcher=pitcher(deal.dealer))
        taker = ruled.rest_to(0, size)
        if taker is None or not leads:  # the cards' fate is open: the recorded score, as a sheet's
            state.claim(None, ruled.claim_text(), 0)
            judged.claim_notes.append(ruled.claim_note(0, size, True))
            return self.take_recorded(deal, sheet=True)
        trump, scores = self.trump_that_scores(deal, taker, leads, start)
        state.trump = SUITS[trump]
        state.claim(taker, ruled.claim_text(), 0)
        self.score_deal(deal, start, check_points=scores)

    def audit(self, deal: PitchDealView, trump: int | None = None, pitcher: int | None = None) -> None:
        """The claim audit (``rulings.audit_claim``) from the State's position: under ``trump``, or before
        the first card, over every lead of the ``pitcher``."""
        judged = self.judged
        ruled = judged.ruled
        assert ruled is not None
        ruled.audit = rulings.audit_claim(
            deal,
            judged.d,
            ruled.claim,
            ruled.claim_at,
            judged.out,
            play=self.text_play(),
            trump=trump,
            follow=self.game.follow,
            partnerships=True,
            names=judged.names,
            pitcher=pitcher,
        )

    def pitcher_suits(self, deal: PitchDealView) -> list[int]:
        """The suits the pitcher holds (any of them may be led, and so be trump), in suit order."""
        held = self.state.held_texts(pitcher(deal.dealer))
        return sorted({int(CARD_BY_TEXT[c].suit) for c in held})

    def trump_that_scores(
        self, deal: PitchDealView, taker: int, suits: list[int], start: tuple[int, int]
    ) -> tuple[int, bool]:
        """Of the ``suits`` the pitcher may make trump, one under which a claim giving ``taker`` every card
        scores the deal's recorded points (the first, in suit order), and True. Where none does, the deal's
        points cannot be right whatever was pitched: PL401 names what each suit would have scored, and the
        suit whose score is nearest the record's is kept for the running totals (and False: its points are
        not compared again)."""
        judged, state = self.judged, self.state
        ruled = judged.ruled
        assert ruled is not None
        extra = ruled.ruling_points()
        scores: list[tuple[int, tuple[int, int]]] = []
        for suit in suits:
            trial = cast("PitchState", state.copy())
            trial.trump = SUITS[suit]
            trial.claim(taker, "", 0)
            scores.append((suit, (trial.totals[0] - start[0] + extra[0], trial.totals[1] - start[1] + extra[1])))
        score = deal.score
        recorded = None if score is None or score.points is None else tuple(score.points)
        for suit, points in scores:
            if recorded is None or points == recorded:
                return suit, True
        assert recorded is not None
        if len(recorded) != 2:  # the wrong count is reported where the points are compared
            return scores[0][0], True
        who = seat_name(pitcher(deal.dealer), judged.names)
        by_score: dict[tuple[int, int], list[str]] = {}
        for suit, points in scores:
            by_score.setdefault(points, []).append(SUITS[suit].name.lower())
        if len(by_score) == 1:
            each = f"{scores[0][1][0]}-{scores[0][1][1]}"
        else:
            each = ", ".join(f"{p[0]}-{p[1]} with {' or '.join(s)} trump" for p, s in by_score.items())
        judged.out.append(
            diag(
                "PL401",
                f"deal {judged.d + 1} is recorded with {recorded[0]}-{recorded[1]}, but the claim gives "
                f"{judged.label(taker)} every card before the first was played, and then the deal pegs {each}"
                + (f", whichever suit {who} pitched" if len(by_score) == 1 else f" (as {who} pitched)"),
                f"/deals/{judged.d}/score/points",
            )
        )
        nearest = min(scores, key=lambda x: sum(abs(a - b) for a, b in zip(x[1], recorded, strict=True)))
        return nearest[0], False

    def play_tricks(self, deal: PitchDealView) -> int | None:
        """Play the recorded tricks on the State, each trick checked first (``deal_check.play_tricks``, all
        four cards held before following is looked at); trump is the suit of the pitcher's first lead.
        Returns the index of the trick with a fault, or None."""
        judged = self.judged
        tricks = deal.tricks
        assert tricks is not None
        trump = trump_of_pitch(CARD_BY_TEXT[tricks[0].cards[0]])
        return deal_check.play_tricks(
            self.state,
            deal,
            judged.d,
            trump,
            self.game.follow,
            True,
            FIRST_LEADER,
            judged.names,
            judged.out,
            judged.ruled,
        )

    def text_play(self) -> TrickPlay[str]:
        """The deal as the State has it now (the hands left, the trick in progress), in card texts, for
        the claim audit."""
        from phatlog.engine.trickplay import TrickPlay

        state = self.state
        play: TrickPlay[str] = TrickPlay([state.held_texts(s) for s in range(SEATS)], state.leader)
        play.trick = [CARD_TEXT[c] for c in state.trick]
        play.played = len(state.tricks)
        return play

    def unscorable(self, deal: PitchDealView, t: int) -> None:
        """After an illegal play: say so once, and the State gives the deal up for the record's points.
        A visitor hears of the recorded tricks from the illegal one on, shown unscored (``TrickShown``)."""
        if self.telling:
            tricks = deal.tricks
            assert tricks is not None  # an illegal play was found in them
            self.state.show_unscored([(tr.leader, [CARD_BY_TEXT[c] for c in tr.cards]) for tr in tricks[t:]])
        self.judged.out.append(deal_check.unscorable("deal", self.judged.d, t))
        self.take_recorded(deal, given_up=True)

    # ------------------------------------------------------------------ scores

    def score_deal(self, deal: PitchDealView, start: tuple[int, int], check_points: bool = True) -> None:
        """After a deal is played (and its bonus pegged): the State pegs its rulings; the recorded score is
        checked against the State's (``check_points`` False: its running total only, its points were
        judged already); the State closes the deal."""
        judged, state = self.judged, self.state
        if judged.ruled is not None:
            self.peg_rulings()
        totals = state.totals
        deal_points = (totals[0] - start[0], totals[1] - start[1])
        score = deal.score
        if not state.totals_known and score is not None and score.total is not None:
            state.rebase(score.total)  # re-anchored on the scorer's total after a deal of unknown points
        if score is None:
            judged.previous_recorded = None
        elif score.points == [deal_points[0], deal_points[1]] and score.total == totals and state.totals_known:
            judged.previous_recorded = (totals[0], totals[1])  # all as the rules give: nothing to report
        else:
            self.check_score(deal, deal_points, check_points)
        state.close_deal()

    def peg_rulings(self) -> None:
        """The State pegs the deal's revoke penalties and adjustments, in order."""
        ruled = self.judged.ruled
        assert ruled is not None
        for kind, text, side, points, trick in ruled.pegs(self.judged.out):
            self.state.adjust(kind, text, side, points, trick)
        self.state.after_rulings()

    def misdeal(self, deal: PitchDealView) -> None:
        """A misdeal: the deal is void. It may record no play; its adjustments are pegged; its score checked."""
        judged, state = self.judged, self.state
        d = judged.d
        rulings.misdeal_play(deal, d, judged.out)
        state.misdeal(f"deal {d + 1} is a misdeal: void, the same dealer deals again", deal.dealer)
        start = state.start_totals
        self.peg_rulings()
        points = (state.totals[0] - start[0], state.totals[1] - start[1])
        if deal.score is not None:
            self.check_score(deal, points)
        state.close_deal()

    def score_sheet(self, deal: PitchDealView) -> None:
        """A deal recorded as a score sheet keeps: its points, which must be a score a deal can give."""
        judged = self.judged
        judged.sheet_deals.append(judged.d)
        if judged.ruled is not None:  # format 1.1: what a score sheet's rulings can be checked against
            judged.ruled.on_sheet(deal, judged.names, judged.out, self.game.hand_size)
        self.take_recorded(deal, sheet=True, given_up=bool(deal.hands))

    def take_recorded(self, deal: PitchDealView, sheet: bool = False, given_up: bool = False) -> None:
        """A deal the rules cannot score: the State passes it over with the scorer's figures (``sheet``: a
        score-sheet deal, whose points must be a score the game can give; ``given_up``: a deal dealt, or
        meant to be played, whose play went wrong, as a visitor hears it)."""
        judged, state = self.judged, self.state
        d, out = judged.d, judged.out
        state.undo_deal(deal.dealer)
        score = deal.score
        if score is not None and score.points is not None:
            points = (score.points[0], score.points[1])
            own = points  # (where the totals are not known, each game judges what it still can)
            extra = [0, 0]
            if judged.ruled is not None:  # format 1.1: the deal's own points, without its penalties and adjustments
                extra = judged.ruled.ruling_points()
                own = (points[0] - extra[0], points[1] - extra[1])
            problem = self.sheet_problem(points, own)
            if problem is not None and any(extra):  # name the cause: the rulings' points are in the recorded ones
                pegged = " and ".join(f"{extra[s]:+d} to {judged.label(s)}" for s in (0, 1) if extra[s])
                problem += (
                    f"; the recorded points include what the deal's rulings peg ({pegged}), "
                    f"so the deal's own play pegged {own[0]}-{own[1]}"
                )
            if sheet and problem is not None:
                out.append(
                    diag(
                        "PL401",
                        f"deal {d + 1} is recorded with {points[0]}-{points[1]}: {problem}",
                        f"/deals/{d}/score/points",
                    )
                )
            state.pass_recorded(points, None, given_up)
            self.check_score(deal, points, check_points=False)
        elif score is not None and score.total is not None:
            state.pass_recorded(None, score.total, given_up)
            judged.previous_recorded = (score.total[0], score.total[1])
        else:
            if state.totals_known:
                judged.unknown_from = d
            state.pass_recorded(None, None, given_up)
            judged.previous_recorded = None
        if state.ended_at is not None and not state.winner:  # the game ended here, but nobody can tell who won
            out.append(
                diag(
                    "PL406",
                    f"both sides reached {self.game.target} in deal {d + 1}; the record does not show which pegged "
                    "out first, so the winner cannot be checked",
                    f"/deals/{d}",
                )
            )

    def sheet_problem(self, points: tuple[int, int], own: tuple[int, int]) -> str | None:
        """Why a deal passed over with ``points`` (``own``: without its rulings' points) scores no score a
        deal of the game can give, or None (``sheet_points_problem``, on the State's table); it keeps
        Phat's carried muck in step on the State."""
        game, state = self.game, self.state
        if min(own) < 0:
            return "points are never negative"
        reaches = any(state.totals[s] + points[s] >= game.target for s in (0, 1))
        table = Tally(totals=state.totals, known=state.totals_known, carry=state.carry, pitcher=state.pitcher)
        problem = game.sheet_points_problem(own, reaches, table)
        state.carry = table.carry
        return problem

    def check_score(self, deal: PitchDealView, points: tuple[int, int], check_points: bool = True) -> None:
        """Check a deal's recorded points and running total against the State's (see ``scoring``)."""
        judged, state = self.judged, self.state
        judged.previous_recorded = check_deal_score(
            deal.score,
            judged.d,
            points,
            state.totals,
            state.totals_known,
            judged.previous_recorded,
            judged.label,
            judged.out,
            check_points,
        )


def check_end(
    game: AllFoursReferee,
    record: PitchRecordView,
    judged: Judgement,
    totals: Sequence[int],
    known: bool,
    won: int | None,
    ended_at: tuple[int, int | None] | None,
    unfinished: bool,
) -> None:
    """The end of the game and the recorded result, against the State's totals and winner."""
    out = judged.out
    result = record.result
    if not known:
        claims = result is not None and (result.winner is not None or result.total is not None)
        if claims or not unfinished:
            out.append(
                diag(
                    "PL406",
                    f"deal {(judged.unknown_from or 0) + 1} could not be scored and its points are not recorded, "
                    "so the totals from there on, the end of the game and the result cannot be checked",
                    f"/deals/{judged.unknown_from or 0}",
                )
            )
        return
    if won is None and not unfinished and ended_at is None:
        out.append(
            diag(
                "PL405",
                f"the record ends at {totals[0]}-{totals[1]} with nobody the winner (target "
                f"{game.target}), and its result does not say the game was stopped (status 'unfinished')",
                "/deals",
            )
        )
    ed, et = ended_at or (0, None)
    when = f"in trick {et + 1} of deal {ed + 1}" if et is not None else f"at the end of deal {ed + 1}"
    check_result(
        result,
        None if won is None else [won],
        totals,
        known,
        judged.label,
        when,
        out,
        winner_unknown=won is None and ended_at is not None,
        side_of=side_of,
        seats=SEATS,
    )
