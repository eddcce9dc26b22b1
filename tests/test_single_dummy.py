"""Single-dummy analysis (docs/analysis.md): the view's voids are sound under every follow rule, the
layouts are counted exactly and drawn uniformly, single dummy equals double dummy where nothing is
hidden and is the exact mean over every layout where they are few, and the sight statistics."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import phatlog
from phatlog.analysis.integrity import sight_stats, two_proportion_z
from phatlog.analysis.single_dummy import Decision, SingleDummyAnalysis, _card_values, single_dummy
from phatlog.analysis.views import STOCK, View, count_layouts, layouts, place, shown_voids, view_of
from phatlog.cli.app import app
from phatlog.engine.state import State
from phatlog.rules.cards import Card

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "games"
runner = CliRunner()

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("phat", {}, 4),
    ("nine_card_don", {}, 4),
    ("nine_card_don", {"follow": "follow_or_trump"}, 4),
    ("oh_hell", {"schedule": [5]}, 4),
    ("oh_hell", {"must_trump": True, "schedule": [6]}, 3),
]


def _played_to(game: str, rules: dict[str, Any], players: int, seed: int, cards: int) -> State:
    rng = random.Random(seed)
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(cards):
        state.apply(rng.choice(state.legal_actions()))
    return state


def _brute_layouts(view: View) -> list[dict[int, frozenset[Card]]]:
    """Every consistent layout, by trying every assignment of the unseen cards to the places."""
    places = view.places
    out = []
    for where in itertools.product(places, repeat=len(view.unseen)):
        if any(where.count(p) != view.sizes[p] for p in places):
            continue
        if any(c // 13 in view.voids[p] for c, p in zip(view.unseen, where, strict=True)):
            continue
        out.append({p: frozenset(c for c, q in zip(view.unseen, where, strict=True) if q == p) for p in places})
    return out


@pytest.mark.parametrize(("game", "rules", "players"), GAMES)
def test_the_real_hands_are_always_consistent_with_the_view(game: str, rules: dict[str, Any], players: int) -> None:
    # the voids are sound: no seat is ever said to be void in a suit it still holds (a Don trump played
    # instead of following shows nothing), and the real layout is one of those counted
    for seed in range(12):
        rng = random.Random(seed)
        state = _played_to(game, rules, players, seed, 0)
        while state.phase.value == "play":
            voids = shown_voids(state)
            for seat in range(state.seats):
                assert not any(c // 13 in voids[seat] for c in state.held[seat]), (seed, seat)
            view = view_of(state)
            assert sum(view.sizes.values()) == len(view.unseen)
            assert not set(view.unseen) & view.hand
            state.apply(rng.choice(state.legal_actions()))
            if state.phase.value != "play" or state.deal_index > 0:
                break


def test_a_discard_shows_a_void_and_a_ruff_under_follow_or_trump_does_not() -> None:
    state = phatlog.start("nine_card_don", rules={"follow": "follow_or_trump"}, seed=None)
    hands = [
        ["AS", "KS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"],  # the pitcher: spades are trump
        ["9S", "TS", "2H", "3H", "4H", "5H", "6H", "7H", "8H"],
        ["JS", "QH", "2C", "3C", "4C", "5C", "6C", "7C", "8C"],
        ["AH", "KH", "2D", "3D", "4D", "5D", "6D", "7D", "8D"],
    ]
    state.deal(hands, dealer=3)
    assert state.current_seat == 0
    for card in ["2S", "9S", "JS", "AH"]:  # trump led: seat 3 discards a heart, void in spades
        state.apply(card)
    assert shown_voids(state)[3] == {3}
    # seat 2 won with the jack and leads hearts; seat 0 (no heart) and seat 1 (hearts in hand) both trump:
    # by the rule a trump may always be played, so neither shows a void
    for card in ["QH", "KH", "3S", "TS"]:
        state.apply(card)
    voids = shown_voids(state)
    assert 2 not in voids[0] and 2 not in voids[1] and voids[3] == {3}


def test_the_layouts_are_counted_exactly_and_drawn_uniformly() -> None:
    # a small ending (three hands and the stock, two seats void): every layout enumerated by brute force,
    # the count agrees, and the draws fall evenly over them (chi-square, fixed seed)
    found = View(
        0,
        frozenset(),
        tuple(Card.parse(c) for c in ["2C", "5C", "9C", "3D", "JD", "4H", "KH", "AS", "6S"]),
        {1: 2, 2: 3, 3: 2, STOCK: 2},
        {1: frozenset({0}), 2: frozenset({3, 1}), 3: frozenset(), STOCK: frozenset()},
    )
    every = _brute_layouts(found)
    assert count_layouts(found) == len(every) >= 8
    key = {tuple(sorted((p, tuple(sorted(c))) for p, c in lay.items())): i for i, lay in enumerate(every)}
    draws = 40 * len(every)
    seen = Counter(
        key[tuple(sorted((p, tuple(sorted(c))) for p, c in lay.items()))] for lay in layouts(found, draws, 5)
    )
    expected = draws / len(every)
    chi2 = sum((seen[i] - expected) ** 2 / expected for i in range(len(every)))
    df = len(every) - 1
    # the chi-square's 0.999 quantile (Wilson-Hilferty)
    z = 3.090232
    limit = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < limit, (chi2, limit, len(every))


def test_layouts_are_the_same_for_the_same_seed() -> None:
    state = _played_to("nine_card_don", {}, 4, 3, 5)
    view = view_of(state)
    assert layouts(view, 5, 9) == layouts(view, 5, 9) != layouts(view, 5, 10)
    for lay in layouts(view, 20, 1):
        assert {p: len(c) for p, c in lay.items()} == view.sizes
        assert STOCK in lay and len(lay[STOCK]) == 16


def test_single_dummy_is_double_dummy_where_nothing_is_hidden() -> None:
    # the third card of Phat's last trick: the one card unseen is the fourth player's
    state = _played_to("phat", {}, 4, 2, 50)
    assert count_layouts(view_of(state)) == 1
    sd = single_dummy(state, samples=7, seed=1)
    dd = _card_values(state)
    assert {c: e.mean for c, e in sd.cards.items()} == {c: float(v) for c, v in dd.items()}
    assert all(e.ci == 0 for e in sd.cards.values())


def test_single_dummy_is_the_mean_over_every_layout_where_they_are_few() -> None:
    state = phatlog.start("phat", seed=2)  # the ending of docs/analysis.md: 18 layouts of 6 cards
    for _ in range(44):
        state.apply(state.legal_actions()[0])
    view = view_of(state)
    every = _brute_layouts(view)
    assert len(every) == 18
    sd = single_dummy(state, samples=5, seed=0, exact_below=100)
    assert sd.samples == len(every)
    rows = [_card_values(place(state, lay, view.seat)) for lay in every]
    for card, estimate in sd.cards.items():
        assert estimate.mean == pytest.approx(sum(r[card] for r in rows) / len(rows))
        top = max(sd.cards, key=lambda c: sd.cards[c].mean)
        assert estimate.cost == pytest.approx(sd.cards[top].mean - estimate.mean)


def test_a_player_who_sees_the_cards_is_lucky_at_every_chance() -> None:
    # the cheater plays a double-dummy best card: at each chance it is lucky; the field's lucky rate is
    # set against it by the two-proportion test
    seed = 11
    state = phatlog.start("oh_hell", players=4, rules={"schedule": [4, 4]}, seed=seed)
    analysis = SingleDummyAnalysis("oh_hell", list(state.names), "tricks", samples=12, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        if state.phase.value == "bid":
            state.apply(state.legal_actions()[0])
            continue
        seat = state.current_seat
        assert seat is not None
        dd = _card_values(state)
        sd = single_dummy(state, 12, len(analysis.decisions))
        if seat == 0:
            card = max(dd, key=lambda c: dd[c])
        else:
            card = max(sd.cards, key=lambda c: sd.cards[c].mean) if seat < 3 else rng.choice(list(dd))
        analysis.decisions.append(
            Decision(state.deal_index + 1, len(state.tricks) + 1, seat, state.names[seat], card, dd, sd)
        )
        state.apply(card)
    stats = {s.player: s for s in sight_stats([analysis], min_chances=1)}
    cheat = stats[state.names[0]]
    assert cheat.lucky == cheat.chances and cheat.dd_share in (None, 1.0)
    for s in stats.values():
        assert s.lucky <= s.chances
        assert s.cards == 8


def test_two_proportion_z() -> None:
    assert two_proportion_z(5, 10, 5, 10) == 0
    assert two_proportion_z(9, 10, 1, 10) == pytest.approx(3.5777, abs=1e-3)
    assert two_proportion_z(0, 0, 1, 10) is None


def test_the_cli_single_dummy_text_json_markdown_and_players() -> None:
    path = str(SAMPLES / "nine-card-don-worked-6-3.json")
    base = ["analyse", path, "--single-dummy", "--samples", "6", "--seed", "3", "--from-trick", "9"]
    text = runner.invoke(app, [*base, "--format", "text"])
    assert text.exit_code == 0, text.output
    assert "cost seen" in text.output and "cost known" in text.output and "±" in text.output
    md = runner.invoke(app, [*base, "--format", "markdown"])
    assert md.exit_code == 0 and md.output.startswith("## Deal 1: single dummy")
    out = runner.invoke(app, [*base, "--format", "json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["samples"] == 6 and len(data["decisions"]) == 4
    again = json.loads(runner.invoke(app, [*base, "--format", "json", "--jobs", "2"]).output)
    assert again == data  # the figures do not depend on the processes
    players = runner.invoke(app, [*base, "--players", "--format", "json"])
    assert players.exit_code == 0
    rows = json.loads(players.output)["players"]
    assert sorted(r["player"] for r in rows) == ["E", "N", "S", "W"]
    bad = runner.invoke(app, ["analyse", str(SAMPLES / "missing.json"), "--single-dummy"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_each_decision_is_told_as_it_is_done() -> None:
    told: list[Decision] = []
    path = str(SAMPLES / "nine-card-don-worked-6-3.json")
    result = phatlog.analyse_single_dummy(path, samples=3, seed=2, from_trick=9, on_decision=told.append)
    assert told == result.decisions and [d.trick for d in told] == [9, 9, 9, 9]
    assert all(d.sd.samples == 3 or d.sd.layouts == 1 for d in told)
