"""Phat: the rules as this engine applies them (rules reference A.2, B.2).

Four players in two partnerships, partners opposite. The whole pack is dealt, 13 cards each. The player
on the dealer's left is the pitcher, and the suit of the pitcher's first lead is trump for the deal.
Players must follow suit if able, otherwise play any card; the highest trump, or the highest card of
the suit led, wins, and the winner leads next.

**The phat.** As soon as a trick is won, the winner's side pegs its counters: the nine of trumps ("Big
Phat") 18, every other nine 9, the five of trumps ("Little Phat") 10, every other five 5, and the ace,
king, queen and jack of trumps 4, 3, 2 and 1. That is 80 points a deal.

**The muck.** After the last trick each side counts the aces (4), kings (3), queens (2), jacks (1) and
tens (10) it took, in every suit, trumps included: 80 in all. The side with more than 40 pegs 8. On a
40-40 tie, ``muck_tie`` decides: ``none``, nobody pegs; ``carry``, the 8 is carried to the next deal's
muck winner, and accumulates while ties repeat (it is lost if the game ends first); ``both``, each
side pegs 8, the pitcher's side first (so under ``peg_out: immediate`` it wins when both 8s would reach
the target).

**The end.** The first side to reach ``target`` (181, or Parlett's 121) wins: at once, even in mid-deal,
under ``peg_out: immediate``; only after the muck under ``end_of_deal``.

**The cut.** A record may carry the cut for the first pitcher: all four cut, the lowest card pitches
(ace high), and a tie for lowest is cut again by the tied players only.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from phatlog.diagnostics import Diagnostic
from phatlog.record.view import PhatRulesView
from phatlog.referee.pitch import Bonus, DealCards, Tally, AllFoursReferee, check_cut, game_ending_problem
from phatlog.rules.cards import DECK, RANK_OF, SUIT_OF, Card, Rank, Suit

MUCK_BONUS = 8
MUCK_TOTAL = 80  # A K Q J T in four suits: 20 a suit
PHAT_TOTAL = 80  # the counters of a whole deal
MOST_IN_A_TRICK = 18 + 10 + 9 + 9  # the nine and five of trumps and two other nines
#: ``muck_tie`` as the C record path takes it (``_hot.pitch_record``).
MUCK_TIE_CODES = {"none": 0, "carry": 1, "both": 2}


@cache
def phat_counters(trump: Suit) -> tuple[int, ...]:
    """The phat: what each card pegs at once for the side that wins it."""

    def value(card: Card) -> int:
        rank, is_trump = RANK_OF[card], SUIT_OF[card] == trump
        if rank == Rank.NINE:
            return 18 if is_trump else 9
        if rank == Rank.FIVE:
            return 10 if is_trump else 5
        if is_trump:
            return {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}.get(rank, 0)
        return 0

    return tuple(value(c) for c in DECK)


class PhatReferee(AllFoursReferee[PhatRulesView]):
    """Phat's counters, muck and cut over the family's shared play."""

    game = "phat"
    hand_size = 13

    def counters(self, trump: Suit) -> tuple[int, ...]:
        return phat_counters(trump)

    def most_points(self, state: Tally) -> int:
        return 80 + 2 * MUCK_BONUS + state.carry

    def hot_codes(self) -> tuple[int, int, int]:
        return (MUCK_TIE_CODES.get(self.rules.muck_tie, -1), 0, 0)  # -1: declined, the Python referee says

    def counter_name(self, card: Card, trump: Suit) -> str | None:
        """The nine of trumps is Big Phat, the five of trumps Little Phat."""
        if card.suit == trump:
            return {Rank.NINE: "Big Phat", Rank.FIVE: "Little Phat"}.get(card.rank)
        return None

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: Tally) -> str | None:
        """A complete deal pegs the 80 of the phat and the muck's 8 (see muck_tie for a 40-40 muck)."""
        total = points[0] + points[1]
        tie = self.rules.muck_tie
        clear = PHAT_TOTAL + MUCK_BONUS + state.carry
        tied = {"none": PHAT_TOTAL, "both": PHAT_TOTAL + 2 * MUCK_BONUS, "carry": PHAT_TOTAL}[tie]
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
        if total == clear:
            state.carry = 0
            return None
        if total == tied:
            if tie == "carry":
                state.carry += MUCK_BONUS
            return None
        extra = f", and {state.carry} carried from tied mucks" if state.carry else ""
        return (
            f"a complete Phat deal pegs {clear} (the 80 of the phat and the muck's 8{extra}), "
            f"or {tied} when the muck is tied 40-40 (muck_tie: {tie})"
        )

    def bonuses(self, cards: DealCards, trump: int, state: Tally, reasons: bool = True) -> list[Bonus]:
        """The muck: the side that took more than 40 of its 80 card points pegs 8."""
        mine = cards.game[0]
        muck = (mine, MUCK_TOTAL - mine)
        state.captured = muck
        if muck[0] != muck[1]:
            side = 0 if muck[0] > muck[1] else 1
            carried, state.carry = state.carry, 0
            reason = f"muck {muck[0]}-{muck[1]}" if reasons else ""
            if carried and reasons:
                reason += f", with {carried} carried from tied mucks"
            return [Bonus(side, MUCK_BONUS + carried, "muck", reason)]
        tie = self.rules.muck_tie
        if tie == "both":
            # The pitcher's side pegs its 8 first: under peg_out immediate it wins if both 8s would
            # reach the target (rules reference A.2).
            first = state.pitcher & 1
            reason = "muck 40-40: both sides peg 8, the pitcher's side first"
            return [Bonus(first, MUCK_BONUS, "muck", reason), Bonus(1 - first, MUCK_BONUS, "muck", reason)]
        if tie == "carry":
            state.carry += MUCK_BONUS
            return [Bonus(None, 0, "muck", f"muck 40-40: {state.carry} carried to the next deal")]
        return [Bonus(None, 0, "muck", "muck 40-40: nobody pegs the 8")]

    def check_cut(
        self, cut: Sequence[Sequence[str | None]], first_dealer: int, names: Sequence[str]
    ) -> list[Diagnostic]:
        """All four cut; the lowest card pitches, ace high; a tie for lowest is cut again by the tied."""
        return check_cut(cut, first_dealer, names, one_per_side=False, highest_pitches=False)
