"""The cut for the first pitcher, written once (``phatlog.rules.cut``): the simulator draws cuts by it and
the referee's ``pitch.check_cut`` agrees with it on every cut, decided or tied."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from phatlog.play.simulate import _cut
from phatlog.referee.pitch import check_cut
from phatlog.rules.cards import CARD_TEXT, DECK
from phatlog.rules.cut import cut_round, cut_winner

NAMES = ["Ann", "Ben", "Cal", "Dee"]


def test_lowest_pitches_in_phat_and_ties_cut_again() -> None:
    assert cut_round(["2H", "2S", "KD", "AC"], highest=False) == [0, 1]
    assert cut_winner([["2H", "2S", "KD", "AC"], ["9C", "5D", None, None]], highest=False) == 1
    assert cut_winner([["2H", "2S", "KD", "AC"]], highest=False) is None


def test_highest_pitches_in_don() -> None:
    assert cut_winner([[None, "AS", "KH", None]], highest=True) == 1


@given(st.integers(0, 2**32 - 1), st.booleans())
def test_a_drawn_cut_is_one_the_referee_passes(seed: int, one_per_side: bool) -> None:
    rounds, pitcher = _cut(random.Random(seed), one_per_side)
    assert cut_winner(rounds, highest=one_per_side) == pitcher
    assert check_cut(rounds, (pitcher + 3) % 4, NAMES, one_per_side, one_per_side) == []


@given(st.lists(st.permutations(range(52)).map(lambda p: [CARD_TEXT[DECK[i]] for i in p[:4]]), min_size=1, max_size=3))
def test_the_referee_agrees_with_cut_winner(rounds: list[list[str]]) -> None:
    """All four cut each round (Phat): check_cut passes the dealer cut_winner implies, and reports a tie
    (or rounds after the decision) exactly where cut_winner says the cut is not decided by the last round."""
    cut: list[list[str | None]] = []
    cutting = [0, 1, 2, 3]
    for cards in rounds:
        row: list[str | None] = [cards[s] if s in cutting else None for s in range(4)]
        cut.append(row)
        cutting = cut_round(row, highest=False)
        if len(cutting) == 1:
            break
    winner = cut_winner(cut, highest=False)
    found = check_cut(cut, 0 if winner is None else (winner + 3) % 4, NAMES, False, False)
    assert (found == []) == (winner is not None)
