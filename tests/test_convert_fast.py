"""Convert's fast canonical form (issue 16): ``wire.canonical_record`` gives exactly what the models give
(``formats.base.canonical``), keys in the same order, or leaves the record to them; and the JSON Lines
writer's fast encoder writes exactly what ``json.dumps`` writes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Final

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phatlog.formats import base, jsonl
from phatlog.play.simulate import simulate
from phatlog.record import decoder as wire

REPO: Final = Path(__file__).resolve().parent.parent
FILES: Final = sorted((REPO / "samples").glob("*/*.json")) + sorted((REPO / "tests" / "data").glob("*.json"))


def _models(data: bytes) -> Any:
    try:
        return base.canonical(msgspec.json.decode(data))
    except (base.ConversionError, msgspec.DecodeError):
        return None


def _same(data: bytes) -> bool:
    """The fast form, where taken, is the models' form, key order included; returns whether it was taken."""
    fast = wire.canonical_record(data)
    if fast is None:
        return False
    assert json.dumps(fast) == json.dumps(_models(data))
    text, lost = jsonl.render(fast)
    assert lost == [] and text == json.dumps(fast, ensure_ascii=False, separators=(",", ":")) + "\n"
    return True


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_sample_reads_the_same_both_ways(path: Path) -> None:
    _same(path.read_bytes())


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("phat", {"with_cut": True}),
        ("nine_card_don", {"rules": {"bonus": "five_high_low_jack"}}),
        ("irish_don", {}),
        ("oh_hell", {"players": 6, "rules": {"hook": True}}),
    ],
)
def test_simulated_games_take_the_fast_way(game: str, options: dict[str, Any]) -> None:
    taken = [_same(json.dumps(g).encode()) for g in simulate(game, 5, 6, **options)]
    assert any(taken)


def _mutate(node: Any, rng: random.Random) -> Any:
    """The same record written otherwise: keys shuffled, now and then a null, a fraction, an empty object,
    an extension holding odd values, or a key written twice."""
    if isinstance(node, list):
        return [_mutate(x, rng) for x in node]
    if not isinstance(node, dict):
        if isinstance(node, int) and not isinstance(node, bool) and rng.random() < 0.02:
            return float(node)
        return node
    items = [(k, _mutate(v, rng)) for k, v in node.items()]
    rng.shuffle(items)
    out = dict(items)
    roll = rng.random()
    if roll < 0.03:
        out["comment"] = None
    elif roll < 0.06:
        out["ext"] = {"x": [1.5, None, {"y": "\\u00e9\n"}], "big": 10**20}
    elif roll < 0.08 and "deals" in out:
        out[rng.choice(["event", "rules", "result", "ext"])] = {}
    elif roll < 0.09:
        out["ext"] = {}
    elif roll < 0.10 and "cards" in out:
        out["comment"] = 'a "quoted"\tcomment ♥'
    return out


_RECORDS: Final = [p for p in FILES if p.parent.name != "invalid"]  # the faulty records need not be JSON
GAMES: Final = [json.loads(p.read_text(encoding="utf-8")) for p in _RECORDS[:: max(1, len(_RECORDS) // 12)]]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_records_written_otherwise_read_the_same_both_ways(record: Any, seed: int) -> None:
    rng = random.Random(seed)
    data = json.dumps(_mutate(record, rng), ensure_ascii=rng.random() < 0.5).encode()
    if rng.random() < 0.1:
        data = data.replace(b'"players"', b'"players":[],"players"', 1)  # a key written twice
    _same(data)


@pytest.mark.parametrize("key", ["event", "rules", "result", "ext"])
def test_an_empty_object_at_the_top(key: str) -> None:
    """An empty event, rules or result says nothing and is dropped; an empty ext is kept, as the models do."""
    record = json.loads((REPO / "samples" / "games" / "phat-muck-carry.json").read_text(encoding="utf-8"))
    data = json.dumps({**record, key: {}}).encode()
    assert _same(data)
    assert (key in (wire.canonical_record(data) or {})) is (key == "ext")


def test_what_the_fast_way_leaves_to_the_models() -> None:
    record = json.loads((REPO / "samples" / "games" / "oh-hell-hook-5p.json").read_text(encoding="utf-8"))
    assert wire.canonical_record(json.dumps(record).encode()) is not None
    for change in (
        {"comment": None},
        {"players": [*record["players"][:-1], {**record["players"][-1], "name": None}]},
        {"deals": [{**record["deals"][0], "dealer": float(record["deals"][0]["dealer"])}, *record["deals"][1:]]},
        {"deals": [{**record["deals"][0], "tricks": []}, *record["deals"][1:]]},
    ):
        assert wire.canonical_record(json.dumps({**record, **change}).encode()) is None, change
    twice = json.dumps(record).encode().replace(b'"players"', b'"players":[],"players"', 1)
    assert wire.canonical_record(twice) is None
