"""The double-dummy solver held to plain minimax over the engine's own state, the C kernel to the Python
search, and ``phatlog analyse`` on the samples (see docs/analysis.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import phatlog
from phatlog.cli.app import app
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import State
from phatlog.rules.cards import DECK, Suit
from phatlog.rules.trick import FollowRule, legal_plays
from phatlog.solver import c_available, reference_value, review, solve, trick_range, value
from phatlog.solver.position import allow_table, legal, mask
from phatlog.solver.search import ROOT_ABOVE, Techniques, deepened, mtdf

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "games"
runner = CliRunner()

GAMES: list[tuple[str, dict[str, Any], int | None]] = [
    ("phat", {}, None),
    ("phat", {"muck_tie": "both"}, None),
    ("phat", {"muck_tie": "carry"}, None),
    ("nine_card_don", {}, None),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}, None),
    ("nine_card_don", {"bonus": "six_high_jack", "follow": "follow_or_trump"}, None),
    ("irish_don", {}, None),
    ("oh_hell", {"schedule": [4, 5]}, 4),
    ("oh_hell", {"must_trump": True, "schedule": [6, 5]}, 3),
    ("oh_hell", {"no_trump": "never", "schedule": [3, 4]}, 5),
    ("oh_hell", {}, 4),
]


def ending(game: str, rules: dict[str, Any], players: int | None, seed: int, left: int) -> State | None:
    """A random game played at random to ``left`` tricks (and a few cards) from the end of a deal."""
    rng = random.Random(seed)
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    for _ in range(rng.randrange(3)):  # a later deal now and then (Phat's carry, another dealer)
        deal = state.deal_index
        while not state.is_over and state.deal_index == deal:
            state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return None
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    size = state.hand_size()
    into = rng.randrange(state.seats)
    while len(state.tricks) < max(size - left, 0) or (
        len(state.tricks) == max(size - left, 0) and len(state.trick) < into
    ):
        state.apply(rng.choice(state.legal_actions()))
        if state.phase.value != "play":
            return None
    return state


def _check(state: State, engine: str) -> None:
    ref = reference_value(state)
    got = value(state, engine=engine)
    if isinstance(state, OhHellState):
        assert got == ref
    else:
        sign = 1 if (state.current_seat or 0) % 2 == 0 else -1
        assert got == sign * ref
    solution = solve(state, engine=engine)
    assert solution.value == got
    for card in state.legal_actions():
        r = review(state, card, engine=engine)
        assert (r.before, r.after, r.best, r.mattered) == (
            solution.value,
            solution.cards[card],
            solution.best,
            solution.mattered,
        )


@pytest.mark.parametrize(("game", "rules", "players"), GAMES, ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(GAMES)])
@given(seed=st.integers(0, 10**6), left=st.integers(1, 2))
@settings(max_examples=examples(60), deadline=None)
def test_fast_solver_equals_plain_minimax(
    game: str, rules: dict[str, Any], players: int | None, seed: int, left: int
) -> None:
    state = ending(game, rules, players, seed, left)
    if state is None:
        return
    _check(state, "python")
    if c_available():
        _check(state, "c")
        _check(state, "auto")  # the points kernel where it fits


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
@pytest.mark.parametrize(("game", "rules", "players"), GAMES, ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(GAMES)])
@given(seed=st.integers(0, 10**6), left=st.integers(3, 5))
@settings(max_examples=examples(16), deadline=None)
def test_c_equals_python_on_longer_endings(
    game: str, rules: dict[str, Any], players: int | None, seed: int, left: int
) -> None:
    state = ending(game, rules, players, seed, left)
    if state is None:
        return
    a = solve(state, engine="python")
    b = solve(state, engine="c")
    c = solve(state)  # the points kernel where it fits
    assert (a.value, a.cards) == (b.value, b.cards) == (c.value, c.cards)
    plain = Techniques(tt=False, equivalence=False, ordering=False, bounds=False, mtdf=False)
    assert value(state, engine="c", techniques=plain) == value(state, engine="python")


@given(
    hand=st.sets(st.sampled_from(DECK), min_size=1, max_size=8),
    led=st.sampled_from(list(Suit)),
    trump=st.sampled_from([*Suit, None]),
    rule=st.sampled_from(list(FollowRule)),
)
@settings(max_examples=examples(400), deadline=None)
def test_the_follow_table_is_the_engines_may_play(
    hand: set[Any], led: Suit, trump: Suit | None, rule: FollowRule
) -> None:
    from phatlog.solver.position import Tables, strength_row

    t = 4 if trump is None else int(trump)
    tables = Tables(
        4, t, strength_row(t), allow_table(rule, t), (0,) * 52, (0,) * 52, (0,) * 52, 0, (0,) * 4, (0, 1, 0, 1)
    )
    lead = DECK[led * 13 + 5]
    held = hand - {lead}
    if held:
        assert legal(mask(held), (int(lead),), tables) == mask(legal_plays(held, led, trump, rule))


@pytest.mark.skipif(not c_available(), reason="a whole deal is slow to solve in Python")
def test_first_lead_chooses_trump() -> None:
    state = phatlog.start("nine_card_don", seed=1)
    solution = solve(state, engine="python" if not c_available() else "c")
    assert len(solution.cards) == 9
    assert solution.value == max(solution.cards.values())
    card = solution.best[0]
    state.apply(card)
    assert value(state) == -solution.value  # the next player is on the other side


def test_trick_range_oh_hell() -> None:
    state = phatlog.start("oh_hell", players=4, rules={"schedule": [3]}, seed=5)
    while state.phase.value == "bid":
        state.apply(state.legal_actions()[0])
    assert isinstance(state, OhHellState)
    for seat in range(4):
        r = trick_range(state, seat)
        assert 0 <= r.most <= 3 and 0 <= r.fewest <= 3
        assert r.most == reference_value(state, seat, "most")
        assert r.fewest == -reference_value(state, seat, "fewest")
        assert r.exact == (reference_value(state, seat, "exact") == 1)


def test_analyse_cli_text_and_json() -> None:
    path = str(SAMPLES / "nine-card-don-game-8.json")
    result = runner.invoke(app, ["analyse", path, "--deal", "1", "--from-trick", "6", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    cards = [c for t in data["deals"][0]["tricks"] for c in t["cards"]]
    assert len(cards) == 16
    assert all(c["cost"] == c["before"] - c["after"] >= 0 for c in cards)
    text = runner.invoke(app, ["analyse", path, "--deal", "1", "--from-trick", "7", "--format", "text"])
    assert text.exit_code == 0 and "Cost by player" in text.stdout
    md = runner.invoke(app, ["analyse", str(SAMPLES / "oh-hell-hook-5p.json"), "-d", "3", "--ranges", "-f", "markdown"])
    assert md.exit_code == 0 and "can force bid" in md.stdout


def test_analyse_refuses_a_deal_without_hands(tmp_path: Path) -> None:
    record = json.loads((SAMPLES / "nine-card-don-game-8.json").read_text())
    deal = record["deals"][0]
    deal.pop("hands", None)
    deal.pop("undealt", None)
    deal["tricks"] = deal["tricks"][:3]
    record["deals"] = [deal]
    record["result"] = {"status": "unfinished"}
    path = tmp_path / "short.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["analyse", str(path)])
    assert result.exit_code == 2
    assert "PL840" in result.stderr
    assert "Traceback" not in result.output
    # Beside an analysable record, --players reports it in its JSON and goes on.
    full = str(SAMPLES / "nine-card-don-game-8.json")
    options = ["--format", "json", "--deal", "1", "--from-trick", "7"]
    both = runner.invoke(app, ["analyse", "--players", *options, str(path), full])
    assert both.exit_code == 0, both.output
    data = json.loads(both.stdout)
    assert [d["code"] for d in data["diagnostics"]] == ["PL840"]


def test_analyse_says_why_a_score_sheet_cannot_be_analysed(tmp_path: Path) -> None:
    """A record with no cards at all (a score sheet, here a game's CSV sheet read back): PL841 says so,
    and the exit code is 2; it said only that nothing could be analysed."""
    sheet = tmp_path / "sheet.csv"
    game = str(SAMPLES / "oh-hell-default-3p.json")
    runner.invoke(app, ["convert", game, "--to", "csv", "--lossy", "-o", str(sheet)])  # the cards reported lost
    assert sheet.exists()
    record = tmp_path / "sheet.json"
    assert runner.invoke(app, ["convert", str(sheet), "-o", str(record)]).exit_code == 0
    result = runner.invoke(app, ["analyse", str(record)])
    assert result.exit_code == 2
    assert "PL841" in result.stderr and "no deal records its cards" in result.stderr
    assert "Traceback" not in result.output


def test_players_statistics(tmp_path: Path) -> None:
    paths = []
    for seed in range(2):
        state = phatlog.start("nine_card_don", players=["Bot", "Ben", "Cal", "Dee"], seed=seed)
        rng = random.Random(seed)
        while state.deal_index < 1 and not state.is_over:
            if state.current_seat == 0 and len(state.tricks) >= 5:
                state.apply(solve(state).best[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
        path = tmp_path / f"g{seed}.json"
        path.write_text(json.dumps(state.record()))
        paths.append(str(path))
    options = ["--min-decisions", "1", "--from-trick", "6", "--format", "json"]
    result = runner.invoke(app, ["analyse", "--players", *options, *paths])
    assert result.exit_code == 0, result.output
    rows = {p["player"]: p for p in json.loads(result.stdout)["players"]}
    assert rows["Bot"]["share"] == 1.0
    assert rows["Bot"]["decisions"] > 0


@pytest.mark.skipif(not c_available(), reason="the examples solve whole deals: slow in Python")
def test_the_examples_of_analysis_md_run() -> None:
    import doctest

    path = Path(__file__).resolve().parent.parent / "docs" / "analysis.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 5


def test_phat_muck_when_one_side_takes_almost_every_card() -> None:
    """Regression: side 0 had taken 44 cards (63 of the 80 card points) and took the rest; the leaf for a
    count no table of the jack's owner could reach was left at 0, so the muck's 8 went missing."""
    seed = 273
    rng = random.Random(seed)
    state = phatlog.start("phat", seed=seed)
    rng.randrange(4)
    while len(state.tricks) < 11 or not state.trick:
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.trick) == 1
    assert value(state, engine="python") == -reference_value(state) == -31
    if c_available():
        assert value(state, engine="c") == -31


@given(
    st.integers(-200, 200),
    st.integers(-200, 200),
    st.integers(0, 500),
    st.integers(0, 500),
)
@example(200, -200, 0, 500)  # every fail-high as soft as can be: plain MTD(f) needed 400 probes
def test_mtdf_finds_the_value_from_any_guess(target: int, guess: int, slack_low: int, slack_high: int) -> None:
    """The driver's null-window probes (doubling steps, then bisection) converge on the exact value
    whatever the guess and however soft the probes' bounds, and never probe the same window twice."""
    seen: list[int] = []

    def probe(alpha: int, beta: int) -> int:
        assert beta == alpha + 1 and beta not in seen
        seen.append(beta)
        # fail-soft: a true bound on the value, as loose as the slack allows but on the window's side
        return max(beta, target - slack_high) if target >= beta else min(alpha, target + slack_low)

    assert mtdf(probe, guess) == target
    assert len(seen) <= 2 * (abs(target - guess).bit_length() + 12)


@given(st.integers(-100, 100), st.integers(-100, 100), st.integers(0, 40), st.sampled_from([0, ROOT_ABOVE]))
def test_deepening_finds_the_value_whatever_the_estimates_and_the_start(
    target: int, estimate: int, slack: int, above: int
) -> None:
    """Iterative deepening's estimates (any value, at each horizon) and the exact MTD(f)'s start above
    them (the first lead's root) change which probes are made, never the value found."""
    horizons: list[int] = []

    def probe(alpha: int, beta: int, horizon: int) -> int:
        if horizon:
            horizons.append(horizon)
            return max(beta, estimate) if estimate >= beta else min(alpha, estimate)
        return max(beta, target - slack) if target >= beta else min(alpha, target + slack)

    assert deepened(probe, 52, 13, above) == target
    assert set(horizons) == {11, 9, 7}


@pytest.mark.skipif(not c_available(), reason="a whole deal is slow to solve in Python")
def test_the_first_leads_probe_tries_the_card_with_the_highest_bound_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a probe that every card fails, the next probe searches first a card whose upper bound (shown
    by the failed probe) is the highest, the likeliest to reach it, not the first card in the order the
    root began with (here one of the lowest bounds)."""
    from phatlog.solver.search import value_after
    from phatlog.solver.values import _problem, _Root

    state = phatlog.start("nine_card_don", seed=4)
    problem = _problem(state, None, "miss")
    root = _Root(problem, "c", Techniques())
    first = root.cands[0]
    best = value(state)
    assert root.probe(best + 6, best + 7) <= best
    bounds = dict(root._known[0])
    lowest = min(hi for _, hi in bounds.values())
    assert bounds[first][1] < max(hi for _, hi in bounds.values())
    searched: list[tuple[Any, int]] = []

    def spy(search: Any, tables: Any, node: Any, card: int, alpha: int, beta: int) -> int:
        searched.append((tables, card))
        return value_after(search, tables, node, card, alpha, beta)

    monkeypatch.setattr("phatlog.solver.values.value_after", spy)
    root.probe(lowest - 1, lowest)  # below every bound: no card is skipped
    assert bounds[searched[0]][1] == max(hi for _, hi in bounds.values())


@pytest.mark.skipif(not c_available(), reason="the C kernel is not built")
def test_ctrl_c_stops_a_long_search_in_the_c_kernel_at_once() -> None:
    """A Phat deal solved from the first lead takes minutes in the kernel; Ctrl-C (and SIGTERM) must stop it
    as it stops any command (exit 130, quietly), not wait for the search to finish."""
    import os
    import signal
    import subprocess
    import sys
    import time

    phatlog_bin = Path(sys.executable).with_name("phatlog")
    if not phatlog_bin.exists():
        pytest.skip(f"no phatlog command beside {sys.executable}")
    record = Path(__file__).parent.parent / "samples" / "games" / "phat-181.json"
    env = {k: v for k, v in os.environ.items() if k != "PHATLOG_PURE_PYTHON"}
    proc = subprocess.Popen(
        [str(phatlog_bin), "analyse", "--deal", "1", "--format", "json", str(record)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    time.sleep(2.0)
    assert proc.poll() is None, "the search ended before the signal: pick a longer one"
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert time.monotonic() - sent < 5
    assert b"Traceback" not in err


@pytest.mark.skipif(not c_available(), reason="a whole deal is slow to solve in Python")
def test_the_first_leads_probe_skips_a_card_shown_short() -> None:
    """MTD(f) over the first lead: a probe remembers each card's bounds, so a later probe skips the cards
    already shown to fall short of it (no search at all when none can reach it) and takes at once a card
    already shown to reach it."""
    from phatlog.solver.values import _problem, _Root

    state = phatlog.start("nine_card_don", seed=1)
    problem = _problem(state, None, "miss")
    root = _Root(problem, "c", Techniques())
    best = value(state)
    assert root.probe(best, best + 1) <= best  # every card searched and shown short
    searched = root.nodes
    assert root.probe(best + 1, best + 2) <= best
    assert root.nodes == searched  # none searched again
    assert root.probe(best - 1, best) >= best  # one card reaches it
    searched = root.nodes
    assert root.probe(best - 2, best - 1) >= best
    assert root.nodes == searched
