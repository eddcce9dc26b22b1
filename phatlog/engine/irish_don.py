"""Irish Don: the rules as this engine applies them (rules reference A.4, B.3.3).

Irish Don is played as Phat, with Phat's counters, but with no muck and no bonus of any kind: the 13
tricks share out exactly 80 points a deal. All 52 cards are dealt, 13 to each of four players in two
partnerships; the suit of the pitcher's first lead is trump; players must follow suit if able.

**The first pitcher** is the player who holds the two of diamonds after the first deal (they need not
lead it); the first deal's dealer is therefore on that player's right. From then on the deal, and the
pitch, pass to the left as usual. The engine checks this where the first deal's hands are recorded or
can be inferred, and says so where they cannot.

**The end.** ``target`` 81 ("over 80"); ``peg_out`` as in Phat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from phatlog.cards import Card, Rank, Suit
from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.engine.phat import phat_counters
from phatlog.engine.pitch import Bonus, GameState, PitchGame

FIRST_PITCH_CARD = "2D"


class IrishDon(PitchGame):
    """Phat's counters and nothing else: no muck, no bonus."""

    game = "irish_don"
    hand_size = 13

    def counters(self, trump: Suit) -> tuple[int, ...]:
        return phat_counters(trump)

    def most_points(self, state: GameState) -> int:
        return 80

    def counter_name(self, card: Card, trump: Suit) -> str | None:
        """The nine of trumps is Big Don, the five of trumps Small Don."""
        if card.suit == trump:
            return {Rank.NINE: "Big Don", Rank.FIVE: "Small Don"}.get(card.rank)
        return None

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: GameState) -> str | None:
        """A complete deal shares out exactly 80; one that ends the game may stop short of it."""
        total = points[0] + points[1]
        if total == 80 or (reaches and total < 80):
            return None
        return "an Irish Don deal shares out exactly 80 points"

    def bonuses(
        self, captured: tuple[list[str], list[str]], dealt: list[set[str]], trump: int, state: GameState
    ) -> list[Bonus]:
        return []

    def check_first_deal(self, deal: Any, hands: list[set[str]] | None, names: Sequence[str]) -> list[Diagnostic]:
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


def make(record: Any) -> IrishDon:
    """The referee for a record of this game."""
    return IrishDon(record.rules)
