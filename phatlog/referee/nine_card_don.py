"""Nine-card Don's referee: Nine-card Don's rules (``rules.nine_card_don``) over the family's shared
referee, with what only its records need judged.

A record may list the 16 undealt cards, and then the 52 cards must all be distinct (where the hands are
not recorded, no card listed as undealt may have been played). ``low_to`` with a scheme other than
``five_high_low_jack`` changes nothing, and is a warning.

**The cut.** One player of each side cuts; the higher card pitches (ace high); equal ranks cut again.

**Score sheets.** A deal recorded without its cards may peg 0 to 52 in all (44 in counters, 8 in
bonuses). Under ``peg_out: immediate`` only one side reaches the target in the deal that ends the game,
and by no more than one trick's counters (29) can give.
"""

from __future__ import annotations

from collections.abc import Sequence

from phatlog.diagnostics import Diagnostic, diag
from phatlog.record.view import NineCardDonDealView, NineCardDonRulesView, RecordView
from phatlog.referee.all_fours import AllFours
from phatlog.referee.pitch import Tally, check_cut, game_ending_problem
from phatlog.rules.nine_card_don import MOST_IN_A_TRICK, NineCardDonGame


class NineCardDonReferee(AllFours[NineCardDonRulesView]):
    """Nine-card Don's counters, game and bonuses over the family's shared play."""

    game = NineCardDonGame.game
    hand_size = NineCardDonGame.hand_size
    keeps_hands = NineCardDonGame.reads_dealt
    undealt = NineCardDonGame.leaves_undealt

    def rules_of(self, rules: NineCardDonRulesView) -> NineCardDonGame:
        return NineCardDonGame.of(rules)

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: Tally) -> str | None:
        """The counters of 36 dealt cards come to at most 44, and the bonus to 8. Under ``peg_out:
        immediate`` the deal that ends the game stops at the winning peg, so it cannot overshoot."""
        if points[0] + points[1] > self.most_points(state):
            return f"a Nine-card Don deal pegs at most {self.most_points(state)} (44 in counters and 8 in bonuses)"
        if reaches and self.immediate and state.known:
            return game_ending_problem(points, state.totals, self.target, MOST_IN_A_TRICK)
        return None

    def check_rules(self) -> list[Diagnostic]:
        if self.rules.low_to is not None and self.rules.bonus != "five_high_low_jack":
            # It changes nothing (no low is scored), so the record can still be refereed: a warning.
            return [
                diag(
                    "PL603",
                    f"low_to {self.rules.low_to} does not apply: the {self.rules.bonus} bonus has no low, only "
                    "five_high_low_jack scores low (leave low_to out, or choose that bonus)",
                    "/rules/low_to",
                )
            ]
        return []

    def check_cut(
        self, cut: Sequence[Sequence[str | None]], first_dealer: int, names: Sequence[str]
    ) -> list[Diagnostic]:
        return check_cut(cut, first_dealer, names, one_per_side=True, highest_pitches=True)


def make(record: RecordView[NineCardDonRulesView, NineCardDonDealView]) -> NineCardDonReferee:
    """The referee for a record of this game (one per rules, shared: ``AllFoursReferee.for_rules``)."""
    return NineCardDonReferee.for_rules(record.rules)
