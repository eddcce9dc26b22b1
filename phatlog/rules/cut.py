"""The cut for the first pitcher (Phat, Nine-card Don), as pure functions: the rule written once.

Ranks alone count, ace high. Phat: all four cut and the lowest pitches; Nine-card Don: one player of each
side cuts and the highest pitches. Players who tie for the best rank cut again (in Don, again one of each
side). ``pitch.check_cut`` checks a recorded cut by this rule; ``simulate`` draws a cut by it.
"""

from __future__ import annotations

from collections.abc import Sequence

from phatlog.rules.trick import RANK_BY_TEXT


def cut_round(cards: Sequence[str | None], highest: bool) -> list[int]:
    """The seats that cut the best rank in one round (``cards`` by seat, None for a seat that did not
    cut), low seat first: one seat pitches first; more cut again."""
    ranks = {seat: RANK_BY_TEXT[c] for seat, c in enumerate(cards) if c is not None}
    if not ranks:
        return []
    best = max(ranks.values()) if highest else min(ranks.values())
    return [seat for seat, rank in ranks.items() if rank == best]


def cut_winner(rounds: Sequence[Sequence[str | None]], highest: bool) -> int | None:
    """The seat that pitches first after ``rounds`` of cutting, or None while the cut is still tied."""
    for cards in rounds:
        best = cut_round(cards, highest)
        if len(best) == 1:
            return best[0]
    return None
