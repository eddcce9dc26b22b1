"""Phat's referee: Phat's rules (``rules.phat``) over the family's shared referee, with what only
Phat's records need judged: a score sheet's deal points against the muck and its carry, and the cut for
the first pitcher (all four cut, the lowest card pitches, ace high; a tie for lowest is cut again by the
tied players only).
"""

from __future__ import annotations

from collections.abc import Sequence

from phatlog.diagnostics import Diagnostic
from phatlog.record.view import PhatRulesView, PitchDealView, RecordView
from phatlog.referee.all_fours import AllFours
from phatlog.referee.pitch import Tally, check_cut, game_ending_problem
from phatlog.rules import phat
from phatlog.rules.cards import Card, Suit
from phatlog.rules.phat import MOST_IN_A_TRICK, MUCK_BONUS, PhatGame, deal_total


class PhatReferee(AllFours[PhatRulesView]):
    """Phat's counters, muck and cut over the family's shared play."""

    game = PhatGame.game
    hand_size = PhatGame.hand_size

    def rules_of(self, rules: PhatRulesView) -> PhatGame:
        return PhatGame.of(rules)

    def counter_name(self, card: Card, trump: Suit) -> str | None:
        return phat.counter_name(card, trump)

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: Tally) -> str | None:
        """A complete deal pegs the 80 of the phat and the muck's 8 (see muck_tie for a 40-40 muck)."""
        total = points[0] + points[1]
        tie = self.rules.muck_tie
        clear = deal_total(state.carry, tie, tied=False)
        tied = deal_total(state.carry, tie, tied=True)
        if not state.known:
            # After a deal whose points are unknown the totals are unknown: this may be the deal that
            # ended the game, so only its size can be judged.
            return None if total <= max(clear, tied) else f"no Phat deal pegs more than {max(clear, tied)}"
        if reaches and self.immediate:
            # The game ended in this deal, at the first peg to reach the target.
            one_peg = max(MOST_IN_A_TRICK, MUCK_BONUS + state.carry)
            problem = game_ending_problem(points, state.totals, self.target, one_peg)
            if problem is not None or total <= max(clear, tied):
                return problem
        if total in (clear, tied):
            state.carry = self.game_rules.carry_after_passed(total, state.carry, reaches)
            return None
        extra = f", and {state.carry} carried from tied mucks" if state.carry else ""
        return (
            f"a complete Phat deal pegs {clear} (the 80 of the phat and the muck's 8{extra}), "
            f"or {tied} when the muck is tied 40-40 (muck_tie: {tie})"
        )

    def check_cut(
        self, cut: Sequence[Sequence[str | None]], first_dealer: int, names: Sequence[str]
    ) -> list[Diagnostic]:
        """All four cut; the lowest card pitches, ace high; a tie for lowest is cut again by the tied."""
        return check_cut(cut, first_dealer, names, one_per_side=False, highest_pitches=False)


def make(record: RecordView[PhatRulesView, PitchDealView]) -> PhatReferee:
    """The referee for a record of this game (one per rules, shared: ``AllFoursReferee.for_rules``)."""
    return PhatReferee.for_rules(record.rules)
