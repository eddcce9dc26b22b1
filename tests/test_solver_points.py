"""The points kernel (``_solve.points``, :class:`~phatlog.solver.search.PointSearch`): the tricks kernel's
target searches for the point objective of Phat and the Dons. Held to the general kernel on positions from
the middle of a deal, its null windows to the right side of the value, and to plain minimax through the
public solver (``tests/test_analysis.py``)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import phatlog
from phatlog.solver import c_available, value
from phatlog.solver.search import CSearch, PointSearch, SearchBudget, Techniques, points_fit, searcher
from phatlog.solver.values import _problem

pytestmark = pytest.mark.skipif(not c_available(), reason="the C solver is not built")

#: Every All Fours game and variant the kernel answers (follow suit), and one it leaves to the general kernel.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("phat", {}),
    ("phat", {"muck_tie": "both"}),
    ("phat", {"muck_tie": "carry"}),
    ("nine_card_don", {}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}),
    ("nine_card_don", {"bonus": "five_high_low_jack"}),
    ("nine_card_don", {"bonus": "six_high_jack"}),
    ("irish_don", {}),
]


def mid_deal(game: str, rules: dict[str, Any], seed: int, tricks: int) -> Any:
    """A deal played at random past its first lead, ``tricks`` tricks and a few cards on (None at its end)."""
    rng = random.Random(seed)
    state = phatlog.start(game, rules=rules, seed=seed)
    for _ in range(rng.randrange(2)):  # now and then a later deal (another pitcher, Phat's carry)
        deal = state.deal_index
        while not state.is_over and state.deal_index == deal:
            state.apply(rng.choice(state.legal_actions()))
    for _ in range(1 + 4 * tricks + rng.randrange(4)):
        if state.is_over or state.phase.value != "play":
            return None
        state.apply(rng.choice(state.legal_actions()))
    return None if state.is_over or state.phase.value != "play" else state


@pytest.mark.parametrize(("game", "rules"), VARIANTS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(VARIANTS)])
@given(seed=st.integers(0, 10**6), tricks=st.integers(3, 7))
@settings(max_examples=examples(30), deadline=None)
def test_the_points_kernel_equals_the_general_kernel(game: str, rules: dict[str, Any], seed: int, tricks: int) -> None:
    """The value from a position in the middle of a deal, at any card of a trick, under either side's lead
    (the kernel turns the seats where side 0 is seats 1 and 3), and the answer of null windows around it:
    at least the value's lower bound where it reaches the window, an upper bound where it falls short."""
    state = mid_deal(game, rules, seed, tricks)
    if state is None:
        return
    problem = _problem(state, None, "miss")
    assert problem.tables is not None and points_fit(problem.tables)
    node = problem.node
    general = CSearch(problem.tables).value(node)
    kernel = searcher(problem.tables, "points")
    assert isinstance(kernel, PointSearch)
    assert kernel.value(node) == general
    for beta in (general - 5, general, general + 1, general + 7):
        got = kernel.value(node, beta - 1, beta)
        assert (got >= beta) == (general >= beta)
        assert general <= got if got < beta else beta <= got <= general


@pytest.mark.parametrize("game", ["phat", "irish_don", "nine_card_don"])
@given(seed=st.integers(0, 10**6), cards=st.integers(0, 3))
@settings(max_examples=examples(40), deadline=None)
def test_quick_tricks_at_the_end_of_a_deal(game: str, seed: int, cards: int) -> None:
    """The last four to six tricks of a deal, where the side on lead often holds the top trumps or the top
    cards of a suit (the kernel's quick tricks, pk_quick, bound the value from there): the general kernel's
    value, and null windows on either side of it (each answer a true bound, so the bounds cut both ways)."""
    rng = random.Random(seed)
    state = phatlog.start(game, seed=seed)
    for _ in range(4 * (state.hand_size() - rng.choice((4, 5, 6))) + cards):
        if state.is_over or state.phase.value != "play":
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over or state.phase.value != "play":
        return
    problem = _problem(state, None, "miss")
    assert problem.tables is not None and points_fit(problem.tables)
    node = problem.node
    general = CSearch(problem.tables).value(node)
    assert searcher(problem.tables, "points").value(node) == general
    for beta in (general - 9, general - 1, general, general + 1, general + 2, general + 10):
        got = searcher(problem.tables, "points").value(node, beta - 1, beta)
        assert (got >= beta) == (general >= beta)
        assert general <= got if got < beta else beta <= got <= general


def test_auto_takes_the_points_kernel_where_it_fits() -> None:
    state = mid_deal("phat", {}, 3, 2)
    problem = _problem(state, None, "miss")
    assert problem.tables is not None
    assert isinstance(searcher(problem.tables, "auto"), PointSearch)
    assert isinstance(searcher(problem.tables, "c"), CSearch)
    assert isinstance(searcher(problem.tables, "auto", Techniques(split=False)), CSearch)  # the benchmark's


def test_may_trump_is_left_to_the_general_kernel() -> None:
    """Nine-card Don's old rule (a player may trump though able to follow) is not the kernel's."""
    state = mid_deal("nine_card_don", {"follow": "follow_or_trump"}, 4, 2)
    problem = _problem(state, None, "miss")
    assert problem.tables is not None and not points_fit(problem.tables)
    assert isinstance(searcher(problem.tables, "auto"), CSearch)
    with pytest.raises(ValueError, match="points kernel"):
        searcher(problem.tables, "points")


def test_a_budget_stops_the_points_kernel() -> None:
    state = mid_deal("irish_don", {}, 7, 1)
    problem = _problem(state, None, "miss")
    assert problem.tables is not None
    kernel = searcher(problem.tables, "points", budget=50)
    with pytest.raises(SearchBudget):
        kernel.value(problem.node)


@pytest.mark.parametrize("seed", range(3))
def test_the_first_lead_through_the_points_kernel(seed: int) -> None:
    """Before the pitcher's first lead (every card under the trump it makes) the public solver's root goes
    through the points kernel and agrees with the general kernel, card by card: Nine-card Don's 36 cards."""
    from phatlog.solver import solve

    state = phatlog.start("nine_card_don", seed=seed)
    assert len(state.tricks) == 0 and not state.trick
    auto, general = solve(state), solve(state, engine="c")
    assert (auto.value, auto.cards) == (general.value, general.cards)
    assert value(state) == value(state, engine="c") == auto.value


@given(seed=st.integers(0, 10**6), objective=st.sampled_from(["most", "fewest", "miss", "exact"]))
@settings(max_examples=examples(30), deadline=None)
def test_four_player_oh_hell_one_seat_against_three(seed: int, objective: str) -> None:
    """Oh Hell for four: one seat (side 0) against the other three, each objective (tricks counted by the
    trick's worth, or the count against the bid), trumps or none: the general kernel's values."""
    from phatlog.engine.oh_hell_state import OhHellState
    from phatlog.solver.values import _oh_hell_problem

    rng = random.Random(seed)
    rules: dict[str, Any] = {"schedule": [rng.choice((5, 6, 7))], "no_trump": rng.choice(("never", "last_hand"))}
    state = phatlog.start("oh_hell", players=4, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(rng.randrange(6)):
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, OhHellState)
    problem = _oh_hell_problem(state, rng.randrange(4), objective)
    assert problem.tables is not None and points_fit(problem.tables)
    assert searcher(problem.tables, "points").value(problem.node) == CSearch(problem.tables).value(problem.node)


@given(seed=st.integers(0, 10**6), cards=st.integers(3, 8), played=st.integers(0, 20))
@settings(max_examples=examples(60), deadline=None)
def test_four_player_oh_hell_fewest_and_its_windows(seed: int, cards: int, played: int) -> None:
    """Oh Hell for four, the fewest tricks (a misère: each trick costs the side that takes it; the kernel's
    own move order and the bound of a side that takes every trick left), from any card of a trick, trumps
    or none: the general kernel's value, and each null window's answer a bound on the right side of it."""
    from phatlog.engine.oh_hell_state import OhHellState
    from phatlog.solver.values import _oh_hell_problem

    rng = random.Random(seed)
    rules: dict[str, Any] = {"schedule": [cards], "no_trump": rng.choice(("never", "last_hand"))}
    state = phatlog.start("oh_hell", players=4, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(min(played, 4 * cards - 2)):
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, OhHellState)
    problem = _oh_hell_problem(state, rng.randrange(4), "fewest")
    assert problem.tables is not None and points_fit(problem.tables)
    exact = CSearch(problem.tables).value(problem.node)
    points = searcher(problem.tables, "points")
    assert points.value(problem.node) == exact
    for t in range(exact - 3, exact + 4):
        v = points.value(problem.node, t - 1, t)
        assert v <= exact if v >= t else v >= exact
        assert (v >= t) == (exact >= t)
