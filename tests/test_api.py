"""The public API and the game-state engine behind it (docs/api.md).

A bot plays random legal games of every game and variant through ``phatlog.start``, and every record it
writes verifies clean; ``phatlog.states`` finds every recorded action of the samples legal and a revoke
illegal; a seat's view never shows another seat's unplayed card; the events' totals are the verdict's.
"""

from __future__ import annotations

import doctest
import glob
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import phatlog
from phatlog.cli.app import app
from phatlog.record.model import in_key_order

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI") == "true"

#: Every game and a spread of rules variants: each must play.
VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("phat", {}, 4),
    ("phat", {"muck_tie": "carry"}, 4),
    ("phat", {"muck_tie": "both", "target": 121}, 4),
    ("phat", {"peg_out": "end_of_deal"}, 4),
    ("nine_card_don", {}, 4),
    ("nine_card_don", {"bonus": "six_high_jack", "follow": "follow_or_trump"}, 4),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer", "target": 91}, 4),
    ("nine_card_don", {"bonus": "five_high_low_jack", "peg_out": "end_of_deal"}, 4),
    ("irish_don", {}, 4),
    ("irish_don", {"peg_out": "end_of_deal"}, 4),
    ("irish_don", {"target": 121}, 4),
    ("irish_don", {"target": 161, "peg_out": "end_of_deal"}, 4),
    ("oh_hell", {}, 3),
    ("oh_hell", {"hook": True, "max_cards": 6}, 4),
    ("oh_hell", {"schedule": "down_up", "must_trump": True, "max_cards": 5}, 5),
    ("oh_hell", {"schedule": "up_down", "no_trump": "never", "miss": "minus_diff", "max_cards": 4}, 6),
    ("oh_hell", {"bidding": "simultaneous", "miss": "tricks", "zero_bid": "five_plus_cards"}, 7),
    ("oh_hell", {"schedule": [1, 7, 13], "hook": True}, 4),
]
#: Games a variant: 1,000 to 1,500 of each game by default (4,500 in all), four times as many on CI.
GAMES_EACH = 1000 if CI else 250


def play_randomly(state: phatlog.State, rng: random.Random, steps: int | None = None) -> None:
    """The bot: a random legal action until the game is over (or ``steps`` actions)."""
    done = 0
    while not state.is_over and (steps is None or done < steps):
        state.apply(rng.choice(state.legal_actions()))
        done += 1


@pytest.mark.parametrize(("game", "rules", "players"), VARIANTS, ids=lambda v: json.dumps(v, separators=(",", ":")))
def test_a_bot_plays_legal_games_whose_records_verify_clean(game: str, rules: dict[str, Any], players: int) -> None:
    rng = random.Random(f"{game}{rules}")
    for seed in range(GAMES_EACH):
        state = phatlog.start(game, players=players, rules=rules, seed=seed)
        play_randomly(state, rng)
        verdict = phatlog.verify(state.record())
        assert verdict.clean, (seed, verdict.diagnostics[:3])
        assert verdict.totals == state.totals
        assert verdict.winner is not None and sorted(verdict.winner) == sorted(state.winner or ())


@pytest.mark.parametrize(("game", "rules", "players"), VARIANTS[::3])
def test_a_game_in_progress_records_as_unfinished_and_verifies_clean(
    game: str, rules: dict[str, Any], players: int
) -> None:
    for seed in range(20):
        state = phatlog.start(game, players=players, rules=rules, seed=seed)
        play_randomly(state, random.Random(seed), steps=1 + seed * 7)
        record = state.record()
        assert json.dumps(record) == json.dumps(in_key_order(record))  # keys in the order phatlog writes
        if state.is_over:
            continue
        assert record["result"] == {"status": "unfinished"}
        verdict = phatlog.verify(record)
        assert verdict.clean, (seed, verdict.diagnostics[:3])


# ------------------------------------------------------------------------------------ states over records

CLEAN_SAMPLES = sorted(glob.glob(str(ROOT / "samples" / "games" / "*.json")))


@pytest.mark.parametrize("path", CLEAN_SAMPLES, ids=os.path.basename)
def test_every_recorded_action_of_a_clean_sample_is_legal(path: str) -> None:
    record = phatlog.read(path)
    steps = list(phatlog.states(record))
    assert all(step.legal for step in steps)
    cards = sum(len(t.cards) for d in record.deals for t in (d.tricks or ()))
    bids = sum(len(d.bids) for d in record.deals if getattr(d, "bids", None) is not None and d.tricks)
    assert len(steps) == cards + bids


@pytest.mark.parametrize("path", CLEAN_SAMPLES, ids=os.path.basename)
def test_the_events_totals_are_the_verdicts(path: str) -> None:
    events: list[phatlog.Event] = []
    steps = list(phatlog.states(path, visitors=[events.append]))
    verdict = phatlog.verify(path)
    assert verdict.clean and all(step.legal for step in steps)
    scored = [e for e in events if isinstance(e, (phatlog.DealScored, phatlog.TrickWon, phatlog.Pegged))]
    assert verdict.totals is not None and scored[-1].totals == tuple(verdict.totals)
    deals = [e for e in events if isinstance(e, phatlog.DealScored)]
    assert [e.totals for e in deals] == [tuple(d.score.total) for d in phatlog.read(path).deals[: len(deals)]]
    if verdict.winner is not None:
        over = events[-1]
        assert isinstance(over, phatlog.GameOver)
        assert sorted(over.winner) == sorted(verdict.winner)
        assert list(over.totals) == verdict.totals


def test_states_of_a_bot_games_record_retrace_its_events() -> None:
    for game, rules, players in VARIANTS:
        heard: list[phatlog.Event] = []
        state = phatlog.start(game, players=players, rules=rules, seed=5, visitors=[heard.append])
        play_randomly(state, random.Random(5))
        again: list[phatlog.Event] = []
        steps = list(phatlog.states(state.record(), visitors=[again.append]))
        assert all(step.legal for step in steps)
        assert again == heard


@pytest.mark.parametrize("path", sorted(glob.glob(str(ROOT / "samples" / "invalid" / "*.json"))), ids=os.path.basename)
def test_states_of_an_invalid_record_stops_or_raises_only_as_documented(path: str) -> None:
    try:
        steps = list(phatlog.states(path))
    except phatlog.ReadError as error:
        assert error.diagnostics
        return
    except ValueError as error:  # rules the referee refuses
        assert any(d.code == "PL601" for d in phatlog.verify(path).diagnostics), error
        return
    assert all(step.legal for step in steps[:-1])


REVOKES = {
    "revoke.json": "TS",
    "don-revoke-trump-under-must-follow.json": None,
    "don-revoke-under-follow-or-trump.json": None,
    "oh-hell-revoke.json": None,
    "card-not-held.json": None,
    "oh-hell-card-not-held.json": None,
}


@pytest.mark.parametrize("name", sorted(REVOKES))
def test_the_illegal_card_of_an_invalid_record_is_outside_the_legal_actions(name: str) -> None:
    path = ROOT / "samples" / "invalid" / name
    steps = list(phatlog.states(path))
    last = steps[-1]
    assert not last.legal
    assert all(step.legal for step in steps[:-1])
    assert last.action not in last.state.legal_actions()
    # The step is the card the referee reports (PL302 or PL303), at its pointer.
    found = [d for d in phatlog.verify(path).diagnostics if d.code in ("PL302", "PL303")]
    _, _, d, _, t, _, i = found[0].pointer.split("/")
    record = phatlog.read(path)
    assert str(last.action) == record.deals[int(d)].tricks[int(t)].cards[int(i)]
    if REVOKES[name]:
        assert str(last.action) == REVOKES[name]


def test_a_bid_the_hook_forbids_is_outside_the_legal_actions() -> None:
    last = list(phatlog.states(ROOT / "samples" / "invalid" / "oh-hell-hook-violation.json"))[-1]
    assert not last.legal and isinstance(last.action, int) and last.action not in last.state.legal_actions()


def test_states_passes_over_score_sheet_deals_as_recorded() -> None:
    path = ROOT / "samples" / "games" / "score-sheet-phat-mixed.json"
    events: list[phatlog.Event] = []
    steps = iter(phatlog.states(path))
    first = next(steps)
    first.state.listen(events.append)
    for _ in steps:
        pass
    assert first.state.totals == phatlog.verify(path).totals
    assert first.state.deal_index == len(phatlog.read(path).deals) - 1


# ------------------------------------------------------------------------------------ views


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


@settings(max_examples=examples(120))
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_a_view_never_shows_another_seats_unplayed_card(
    variant: tuple[str, dict[str, Any], int], seed: int, steps: int
) -> None:
    game, rules, players = variant
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    play_randomly(state, random.Random(seed), steps=steps)
    for seat in range(state.seats):
        view = state.view(seat)
        json.dumps(view)  # JSON data
        shown = _strings(view)
        assert set(view["hand"]) == {str(c) for c in state.hand(seat)}
        for other in range(state.seats):
            if other != seat:
                assert shown.isdisjoint(str(c) for c in state.hand(other)), (seat, other)


def test_simultaneous_bids_are_hidden_until_all_have_bid() -> None:
    state = phatlog.start("oh_hell", players=3, rules={"bidding": "simultaneous"}, seed=1)
    first = state.current_seat
    assert first is not None
    state.apply(0)
    assert [b for s, b in enumerate(state.view((first + 1) % 3)["bids"]) if s == first] == [None]
    assert state.view(first)["bids"][first] == 0


# ------------------------------------------------------------------------------------ actions and deals


def test_illegal_actions_name_the_card_the_seat_and_the_rule() -> None:
    state = phatlog.start(
        "oh_hell", players=3, rules={"must_trump": True, "schedule": [3], "no_trump": "never"}, seed=None, dealer=2
    )
    state.deal(hands=[["AS", "2H", "3C"], ["KS", "4D", "5D"], ["QS", "9H", "8H"]], turnup="2D")
    with pytest.raises(phatlog.IllegalAction, match="Ann may not bid 4: a bid is 0 to 3"):
        state.apply(4)
    with pytest.raises(phatlog.IllegalAction, match="Ann's bid"):
        state.apply("AS")
    for bid in (1, 1, 1):
        state.apply(bid)
    with pytest.raises(phatlog.IllegalAction, match="turn to play a card"):
        state.apply(1)
    with pytest.raises(phatlog.IllegalAction, match="Ann does not hold KS"):
        state.apply("KS")
    with pytest.raises(phatlog.IllegalAction, match="not a card"):
        state.apply("XX")
    state.apply("AS")
    with pytest.raises(
        phatlog.IllegalAction, match="Ben may not play 5D to a spade lead while holding KS: players must"
    ):
        state.apply("5D")
    state.apply(phatlog.Card("KS"))


def test_must_trump_refuses_a_discard_when_holding_a_trump() -> None:
    state = phatlog.start(
        "oh_hell", players=3, rules={"must_trump": True, "schedule": [2], "no_trump": "never"}, seed=None, dealer=2
    )
    state.deal(hands=[["AS", "2H"], ["4D", "5C"], ["QS", "9H"]], turnup="2D")
    for bid in (0, 0, 1):
        state.apply(bid)
    state.apply("AS")
    with pytest.raises(phatlog.IllegalAction, match="under must_trump"):
        state.apply("5C")
    assert state.legal_actions() == [phatlog.Card("4D")]


def test_a_copy_plays_on_apart_and_draws_the_same_deals() -> None:
    state = phatlog.start("nine_card_don", seed=11)
    state.apply(state.legal_actions()[0])
    heard: list[phatlog.Event] = []
    state.listen(heard.append)
    twin = state.copy()
    assert twin.view(2) == state.view(2) and twin.record() == state.record()
    for game in (state, twin):
        play_randomly(game, random.Random(3))
    assert twin.record() == state.record()
    assert heard and isinstance(heard[-1], phatlog.GameOver)  # the original's visitors, not the copy's
    other = phatlog.start("nine_card_don", seed=11)
    other.apply(other.legal_actions()[0])
    fork = other.copy()
    fork.apply(fork.legal_actions()[-1])
    assert other.trick != fork.trick and other.hand(other.current_seat or 0) != fork.hand(other.current_seat or 0)


def test_a_bad_deal_is_refused() -> None:
    state = phatlog.start("phat", seed=None)
    with pytest.raises(phatlog.IllegalAction, match="dealt 1 cards"):
        state.deal(hands=[["AS"], ["KS"], ["QS"], ["JS"]])
    with pytest.raises(phatlog.IllegalAction, match="no card can be played"):
        state.apply("AS")
    assert state.is_chance and state.phase is phatlog.Phase.DEAL


def test_irish_dons_first_dealer_is_on_the_right_of_the_two_of_diamonds() -> None:
    pack = [str(c) for c in sorted(map(phatlog.Card, range(52)))]
    hands = [pack[13 * s : 13 * s + 13] for s in range(4)]  # seat 1 holds the 2D (the 14th card)
    state = phatlog.start("irish_don", seed=None)
    state.deal(hands=hands)
    assert (state.dealer, state.current_seat) == (0, 1)


def test_rules_the_referee_refuses_are_refused() -> None:
    with pytest.raises(ValueError, match="simultaneous"):
        phatlog.start("oh_hell", players=4, rules={"hook": True, "bidding": "simultaneous"})
    with pytest.raises(ValueError, match="3 to 7"):
        phatlog.start("oh_hell", players=["A", "B"])
    with pytest.raises(ValueError, match="four players"):
        phatlog.start("phat", players=3)
    with pytest.raises(ValueError, match="not 'bridge'"):
        phatlog.start("bridge")


# ------------------------------------------------------------------------------------ read, verify, replay


def test_read_takes_a_path_bytes_text_and_a_dict(tmp_path: Path) -> None:
    path = ROOT / "samples" / "games" / "phat-181.json"
    data = path.read_bytes()
    for source in (path, str(path), data, data.decode(), json.loads(data)):
        assert phatlog.read(source).game == "phat"


@pytest.mark.parametrize("name", ["not-json.json", "missing-key.json", "unknown-game.json", "empty.json"])
def test_read_raises_read_error_with_the_validators_diagnostics(name: str) -> None:
    path = ROOT / "samples" / "invalid" / name
    with pytest.raises(phatlog.ReadError) as caught:
        phatlog.read(path)
    assert caught.value.diagnostics
    result = CliRunner().invoke(app, ["validate", "--format", "json", str(path)])
    assert {d.code for d in caught.value.diagnostics} <= set(result.output.replace('"', " ").split())


@pytest.mark.parametrize("name", ["revoke.json", "wrong-total.json", "oh-hell-hook-violation.json", "not-json.json"])
def test_verify_gives_the_cli_diagnostics(name: str) -> None:
    path = ROOT / "samples" / "invalid" / name
    verdict = phatlog.verify(path)
    assert not verdict.clean
    result = CliRunner().invoke(app, ["verify", "--format", "json", str(path)])
    printed = [(d["code"], d["pointer"], d["message"]) for d in _cli_diagnostics(result.output)]
    assert printed and [(d.code, d.pointer, d.message) for d in verdict.diagnostics] == printed


def _cli_diagnostics(output: str) -> list[dict[str, Any]]:
    """``verify --format json`` prints one diagnostic a line."""
    return [json.loads(line) for line in output.splitlines() if line.startswith("{") and '"code"' in line]


def test_replay_is_what_replay_format_json_prints() -> None:
    path = str(ROOT / "samples" / "games" / "nine-card-don-won-by-the-jack.json")
    result = CliRunner().invoke(app, ["replay", "--format", "json", path])
    assert phatlog.replay(path) == json.loads(result.output)


def test_the_public_names() -> None:
    for name in ("read", "verify", "replay", "start", "states", "Card", "Diagnostic", "CODES", "Severity"):
        assert name in phatlog.__all__ and hasattr(phatlog, name)
    assert "ReadError" in phatlog.__all__ and issubclass(phatlog.ReadError, ValueError)
    assert issubclass(phatlog.IllegalAction, ValueError)


def test_the_examples_in_api_md_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    failed, tried = doctest.testfile(
        str(ROOT / "docs" / "api.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert tried > 40
    assert failed == 0


def test_import_phatlog_stays_light() -> None:
    """The command sets its signal handlers after ``import phatlog``: that import loads nothing heavy."""
    import subprocess
    import sys

    code = "import sys, phatlog; print('pydantic' in sys.modules, 'phatlog.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    assert set(phatlog.__all__) <= set(dir(phatlog))
    with pytest.raises(AttributeError):
        phatlog.nothing  # noqa: B018


# ------------------------------------------------------------------------------------ on_fault="pass"

FAULTY = sorted(glob.glob(str(ROOT / "samples" / "invalid" / "*.json")))


@pytest.mark.parametrize("path", FAULTY, ids=lambda p: Path(p).name)
def test_on_fault_pass_scores_a_faulty_record_as_the_referee_does(path: str) -> None:
    """Past an illegal action the deal is given up as its recorded points and the rest is played: the
    totals at the end are the verdict's wherever the engine gets through the record."""
    try:
        record = phatlog.read(path)
    except phatlog.ReadError:
        return
    events: list[phatlog.Event] = []
    try:
        steps = list(phatlog.states(record, visitors=[events.append], on_fault="pass"))
    except ValueError:
        return  # rules the referee refuses
    scored = [e for e in events if isinstance(e, phatlog.DealScored)]
    verdict = phatlog.verify(path)
    if steps and len(scored) == len(record.deals) and verdict.totals is not None:
        assert scored[-1].totals == tuple(verdict.totals)
    stop = [(s.action, s.seat, s.legal) for s in phatlog.states(record)]
    assert stop == [(s.action, s.seat, s.legal) for s in steps[: len(stop)]]  # the same up to where "stop" stops


def test_on_fault_pass_gives_up_the_revoked_deal_and_undoes_its_pegs() -> None:
    path = ROOT / "samples" / "invalid" / "revoke.json"
    events: list[phatlog.Event] = []
    steps = list(phatlog.states(path, visitors=[events.append], on_fault="pass"))
    assert not steps[-1].legal
    given_up = [e for e in events if isinstance(e, phatlog.DealScored) and e.given_up]
    assert [(e.deal, e.totals, e.passed_over) for e in given_up] == [(0, (27, 53), True)]
    assert steps[-1].state.totals == phatlog.verify(path).totals


def test_on_fault_is_stop_or_pass() -> None:
    with pytest.raises(ValueError, match="on_fault"):
        list(phatlog.states(ROOT / "samples" / "invalid" / "revoke.json", on_fault="skip"))


def test_csv_took_column_comes_from_the_engine() -> None:
    """The CSV sheet's "took" cells, for a record with tricks and no ``taken``, are the tricks the engine
    counts (its TrickWon events); a hand whose play is illegal is left empty, the hands after it filled."""
    from phatlog.formats.csv_sheet import _taken_from_play

    rec = json.loads((ROOT / "samples" / "invalid" / "oh-hell-revoke.json").read_text())
    got = _taken_from_play(rec)
    verdict_faulty = {int(d.pointer.split("/")[2]) for d in phatlog.verify(rec).diagnostics if d.code == "PL303"}
    assert verdict_faulty and not verdict_faulty & set(got)
    assert set(got) == {d for d in range(len(rec["deals"])) if d not in verdict_faulty}
    for d, taken in got.items():
        assert sum(taken) == len(rec["deals"][d]["tricks"])


def test_events_say_why_there_is_no_trump_and_the_captured_count() -> None:
    """DealBegins.no_trump gives Oh Hell's reason for a hand without trump; DealScored.captured is Phat's
    muck count of the cards each side took (80 in all), once its bonus is pegged."""
    events: list[phatlog.Event] = []
    for players, why in ((4, "no card is left to turn up"), (5, "the game's last hand is played without trump")):
        events.clear()
        state = phatlog.start("oh_hell", players, {"no_trump": "last_hand"}, seed=3, visitors=[events.append])
        while not state.is_over:
            state.apply(state.legal_actions()[0])
        begins = [e for e in events if isinstance(e, phatlog.DealBegins)]
        assert {e.no_trump for e in begins if e.trump is None} == {why}
        assert all(e.no_trump is None for e in begins if e.trump is not None)
    events.clear()
    state = phatlog.start("phat", seed=3, visitors=[events.append])
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    scored = [e for e in events if isinstance(e, phatlog.DealScored) and e.captured is not None]
    assert scored and all(sum(e.captured or ()) == 80 for e in scored)


@pytest.mark.parametrize("path", sorted(glob.glob("samples/games/*.json"))[::6], ids=os.path.basename)
def test_replay_of_a_record_read_is_the_replay_of_its_file(path: str) -> None:
    """``phatlog.replay`` takes what ``phatlog.read`` gives (the models), as it takes the file itself."""
    read, direct = phatlog.replay(phatlog.read(path)), phatlog.replay(path)
    assert (read.pop("source"), direct.pop("source")) == ("<record>", path)
    assert read == direct
