"""Differential tests against OpenSpiel's ``oh_hell`` (pyspiel), both ways.

OpenSpiel -> phatlog: thousands of random hands, 3 to 7 players, every hand size (fixed, and drawn at
random by OpenSpiel), with and without ``off_bid_penalty``, serialised by pyspiel, read by phatlog's pure
Python reader, and refereed by phatlog's engine: clean, with pyspiel's returns as the scores. Hands stopped
part-way read as unfinished records. phatlog -> OpenSpiel: every hand of simulated phatlog games under
OpenSpiel's rules, written for OpenSpiel and loaded by ``pyspiel.deserialize_game_and_state``: every action
legal, the same returns. The card numbering is checked against pyspiel's own action strings.
"""

from __future__ import annotations

import json
import random
from typing import Any, Final

import pytest

from phatlog.diagnostics import Severity
from phatlog.formats import openspiel
from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes
from phatlog.referee.games import referee

pyspiel = pytest.importorskip("pyspiel")

Json = dict[str, Any]
HANDS: Final = 4000


def _random_state(rng: random.Random, params: Json, stop: int | None = None) -> tuple[Any, Any]:
    """A pyspiel game and a state played at random, to the end or for ``stop`` actions."""
    game = pyspiel.load_game("oh_hell", params)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and (stop is None or moves < stop):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return game, state


def _params(rng: random.Random) -> Json:
    players = rng.randint(3, 7)
    params: Json = {"players": players, "off_bid_penalty": rng.random() < 0.5}
    if rng.random() < 0.75:
        params["num_tricks_fixed"] = rng.randint(1, 51 // players)
    return params


def _verdict(rec: Json) -> Any:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.diagnostics == [] and loaded.record is not None
    return referee(loaded.record)


def _errors(verdict: Any) -> list[str]:
    return [f"{d.code} {d.pointer}: {d.message}" for d in verdict.diagnostics if d.severity is Severity.ERROR]


def _actions(text: str) -> list[str]:
    """The lines OpenSpiel reads: not blank, not comments."""
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_the_card_numbering_is_openspiels() -> None:
    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 1})
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(0)
    for action in range(52):
        suit_then_rank = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        assert openspiel.card_of(action) == suit_then_rank[1] + suit_then_rank[0]
        assert openspiel.action_of(suit_then_rank[1] + suit_then_rank[0]) == action


@pytest.mark.deep
def test_random_openspiel_hands_verify_clean_with_openspiels_returns() -> None:
    rng = random.Random(20261114)
    seen: set[tuple[int, int, bool]] = set()
    for _ in range(HANDS):
        params = _params(rng)
        game, state = _random_state(rng, params)
        serialised = pyspiel.serialize_game_and_state(game, state)
        (parsed,) = openspiel.loads(serialised)
        assert parsed.diagnostics == [], serialised
        rec = parsed.record
        assert rec is not None
        verdict = _verdict(rec)
        assert _errors(verdict) == [], serialised
        returns = [int(r) for r in state.returns()]
        assert verdict.totals == returns, serialised
        assert verdict.winner == [s for s, r in enumerate(returns) if r == max(returns)]
        written = openspiel.dumps(rec)
        assert _actions(written) == _actions(serialised)
        table = openspiel.Table(params["players"], params.get("num_tricks_fixed", -1))
        for action in state.history():
            table.apply(action)
        assert table.phase == "over" and table.returns(params["off_bid_penalty"]) == returns
        seen.add((params["players"], len(rec["deals"][0]["hands"][0]), params["off_bid_penalty"]))
    assert {p for p, _, _ in seen} == {3, 4, 5, 6, 7}
    assert {o for _, _, o in seen} == {False, True}
    assert len(seen) > 100  # many hand sizes for every player count


def test_openspiel_hands_stopped_part_way_read_as_unfinished_records() -> None:
    rng = random.Random(7)
    for _ in range(HANDS // 4):
        params = _params(rng)
        players, size = params["players"], params.get("num_tricks_fixed", 3)
        params["num_tricks_fixed"] = size
        stop = rng.randint(0, 2 + players * size + 1 + players + players * size)
        game, state = _random_state(rng, params, stop)
        serialised = pyspiel.serialize_game_and_state(game, state)
        (parsed,) = openspiel.loads(serialised)
        if stop < 2 + players * size + 1:
            assert [d.code for d in parsed.diagnostics] == ["PL703"]
            continue
        rec = parsed.record
        assert rec is not None, parsed.diagnostics
        assert all(d.code == "PL702" for d in parsed.diagnostics)
        assert (rec.get("result", {}).get("status") == "unfinished") is (not state.is_terminal())
        verdict = _verdict(rec)
        assert _errors(verdict) == [], serialised
        if not parsed.diagnostics:  # nothing dropped: written back, the same actions
            assert _actions(openspiel.dumps(rec)) == _actions(serialised)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("miss", ["tricks", "minus_diff"])
def test_phatlog_hands_load_in_openspiel_with_the_same_returns(players: int, miss: str) -> None:
    rules = {"hook": True, "miss": miss, "no_trump": "never", "schedule": "up_down"}
    hands = 0
    for rec in simulate("oh_hell", players * 10 + len(miss), 4, players=players, rules=rules):
        for d, deal in enumerate(rec["deals"]):
            if "turnup" not in deal:  # a hand that deals the whole pack has no trump: OpenSpiel refuses it
                assert any(x.code == "PL703" for x in openspiel.losses(rec, deal=d))
                continue
            written = openspiel.dumps(rec, lossy=True, deal=d)
            game, state = pyspiel.deserialize_game_and_state(written)
            assert state.is_terminal()
            assert [int(r) for r in state.returns()] == deal["score"]["points"]
            # Every action is one OpenSpiel allows, replayed with its legality check.
            check = game.new_initial_state()
            for line in _actions(written)[_actions(written).index("[State]") + 1 :]:
                check.apply_action_with_legality_check(int(line))
            assert check.is_terminal() and check.returns() == state.returns()
            hands += 1
    assert hands > 40


def test_a_one_hand_game_survives_openspiel_and_back() -> None:
    for players in range(3, 8):
        for size in (1, 2, 51 // players):
            rules = {"schedule": [size], "hook": True, "no_trump": "never", "miss": "minus_diff"}
            rec = next(iter(simulate("oh_hell", size, 1, players=players, rules=rules)))
            written = openspiel.dumps(rec)
            game, state = pyspiel.deserialize_game_and_state(written)
            again = pyspiel.serialize_game_and_state(game, state)
            (parsed,) = openspiel.loads(again)  # pyspiel drops the comment line with the names
            assert parsed.record is not None
            assert parsed.record["deals"][0] == {k: v for k, v in rec["deals"][0].items() if k != "score"}
            assert _verdict(parsed.record).totals == [int(r) for r in state.returns()]


def test_a_hand_before_its_play_goes_to_openspiel_as_a_state_in_play() -> None:
    rules = {"schedule": [3], "hook": True, "no_trump": "never", "miss": "tricks"}
    rec = next(iter(simulate("oh_hell", 3, 1, players=4, rules=rules)))
    deal = rec["deals"][0]
    del deal["tricks"], deal["score"], rec["result"]
    rec["result"] = {"status": "unfinished", "reason": "stopped after the bidding"}
    written = openspiel.dumps(rec)
    _, state = pyspiel.deserialize_game_and_state(written)
    assert not state.is_terminal() and not state.is_chance_node()
    assert state.current_player() == (deal["dealer"] + 1) % 4
    (parsed,) = openspiel.loads(written)
    assert parsed.diagnostics == [] and parsed.record is not None
    assert parsed.record["result"] == rec["result"]
