"""Irish Don: the rules as this engine applies them (rules reference A.4, B.3.3).

Irish Don is played as Phat, with Phat's counters, but with no muck and no bonus of any kind: the 13
tricks share out exactly 80 points a deal. All 52 cards are dealt, 13 to each of four players in two
partnerships; the suit of the pitcher's first lead is trump; players must follow suit if able.

**The first pitcher** is the player who holds the two of diamonds after the first deal (they need not
lead it); the first deal's dealer is therefore on that player's right. From then on the deal, and the
pitch, pass to the left as usual. The engine checks this where the first deal's hands are recorded or
can be inferred, and says so where they cannot.

**The end.** ``target`` 81 ("over 80"); ``peg_out`` as in Phat.

**Score sheets.** A deal recorded without its cards must share out exactly 80, except that under
``peg_out: immediate`` the deal in which a side reaches the target stops there and may share out less;
only that side reaches the target, and by no more than one trick's counters (46) can give.
"""

from __future__ import annotations

from collections.abc import Sequence

from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.record.view import IrishDonRulesView, PitchDealView
from phatlog.referee.phat import phat_counters
from phatlog.referee.pitch import Bonus, DealCards, Tally, AllFoursReferee, game_ending_problem
from phatlog.rules.cards import Card, Rank, Suit

FIRST_PITCH_CARD = "2D"
DEAL_TOTAL = 80  # the counters of a whole deal: Phat's phat
MOST_IN_A_TRICK = 18 + 10 + 9 + 9  # the nine and five of trumps and two other nines


class IrishDonReferee(AllFoursReferee[IrishDonRulesView]):
    """Phat's counters and nothing else: no muck, no bonus."""

    game = "irish_don"
    hand_size = 13
    cuts = False  # the first pitcher holds the two of diamonds

    def counters(self, trump: Suit) -> tuple[int, ...]:
        return phat_counters(trump)

    def most_points(self, state: Tally) -> int:
        return DEAL_TOTAL

    def counter_name(self, card: Card, trump: Suit) -> str | None:
        """The nine of trumps is Big Don, the five of trumps Small Don."""
        if card.suit == trump:
            return {Rank.NINE: "Big Don", Rank.FIVE: "Small Don"}.get(card.rank)
        return None

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

    def bonuses(self, cards: DealCards, trump: int, state: Tally, reasons: bool = True) -> list[Bonus]:
        return []

    def check_first_deal(
        self, deal: PitchDealView, hands: list[set[str]] | None, names: Sequence[str]
    ) -> list[Diagnostic]:
        """The holder of the two of diamonds pitches first: the first dealer sits on their right."""
        holder = None if hands is None else next((s for s, h in enumerate(hands) if FIRST_PITCH_CARD in h), None)
        if holder is None:
            return [
                diag(
                    "PL406",
                    "the first deal's hands are not all known, so whether the holder of the 2D pitched first "
                    "cannot be checked",
                    "/deals/0/dealer",
                )
            ]
        dealer = (holder + 3) % 4
        if deal.dealer != dealer:
            return [
                diag(
                    "PL202",
                    f"{seat_name(holder, names)} holds the 2D and pitches first, so {seat_name(dealer, names)} "
                    f"deals the first deal, not {seat_name(deal.dealer, names)}",
                    "/deals/0/dealer",
                )
            ]
        return []
