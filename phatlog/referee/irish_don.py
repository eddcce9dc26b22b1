"""Irish Don's referee: Irish Don's rules (``rules.irish_don``) over the family's shared referee, with
what only its records need judged.

**The first pitcher** holds the two of diamonds: the engine checks the first dealer where the first
deal's hands are recorded or can be inferred, and says so where they cannot.

**Score sheets.** A deal recorded without its cards must share out exactly 80, except that under
``peg_out: immediate`` the deal in which a side reaches the target stops there and may share out less;
only that side reaches the target, and by no more than one trick's counters (46) can give.
"""

from __future__ import annotations

from collections.abc import Sequence

from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.record.view import IrishDonRecordView, IrishDonRulesView, PitchDealView
from phatlog.referee.all_fours import AllFours
from phatlog.referee.pitch import Tally, game_ending_problem
from phatlog.rules import irish_don
from phatlog.rules.cards import CARD_TEXT, Card, Suit
from phatlog.rules.irish_don import DEAL_TOTAL, FIRST_PITCH_CARD, IrishDonGame, first_dealer
from phatlog.rules.phat import MOST_IN_A_TRICK

FIRST_PITCH = CARD_TEXT[FIRST_PITCH_CARD]


class IrishDonReferee(AllFours[IrishDonRulesView]):
    """Phat's counters and nothing else: no muck, no bonus."""

    game = IrishDonGame.game
    hand_size = IrishDonGame.hand_size
    cuts = False  # the first pitcher holds the two of diamonds

    def rules_of(self, rules: IrishDonRulesView) -> IrishDonGame:
        return IrishDonGame.of(rules)

    def counter_name(self, card: Card, trump: Suit) -> str | None:
        return irish_don.counter_name(card, trump)

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: Tally) -> str | None:
        """A complete deal shares out exactly 80. Under ``peg_out: immediate`` the deal that ends the game
        stops at the trick that reaches the target: it may share out less, but not overshoot; under
        ``end_of_deal`` every deal is played out."""
        total = points[0] + points[1]
        # Where the running totals are not known, this deal may be the one that ended the game.
        if (reaches or not state.known) and self.immediate:
            if total > DEAL_TOTAL:
                return f"an Irish Don deal shares out {DEAL_TOTAL} points, and one that ends the game no more"
            return game_ending_problem(points, state.totals, self.target, MOST_IN_A_TRICK) if state.known else None
        if total == DEAL_TOTAL:
            return None
        if reaches:
            return (
                f"an Irish Don deal shares out exactly {DEAL_TOTAL} points, and under peg_out end_of_deal "
                "even the deal that reaches the target is played out"
            )
        return f"an Irish Don deal shares out exactly {DEAL_TOTAL} points"

    def check_first_deal(
        self, deal: PitchDealView, hands: list[set[str]] | None, names: Sequence[str]
    ) -> list[Diagnostic]:
        """The holder of the two of diamonds pitches first: the first dealer sits on their right."""
        holder = None if hands is None else next((s for s, h in enumerate(hands) if FIRST_PITCH in h), None)
        if holder is None:
            return [
                diag(
                    "PL406",
                    f"the first deal's hands are not all known, so whether the holder of the {FIRST_PITCH} pitched "
                    "first cannot be checked",
                    "/deals/0/dealer",
                )
            ]
        dealer = first_dealer(holder)
        if deal.dealer != dealer:
            return [
                diag(
                    "PL202",
                    f"{seat_name(holder, names)} holds the {FIRST_PITCH} and pitches first, so "
                    f"{seat_name(dealer, names)} deals the first deal, not {seat_name(deal.dealer, names)}",
                    "/deals/0/dealer",
                )
            ]
        return []


def make(record: IrishDonRecordView) -> IrishDonReferee:
    """The referee for a record of this game (one per rules, shared: ``AllFoursReferee.for_rules``)."""
    return IrishDonReferee.for_rules(record.rules)
