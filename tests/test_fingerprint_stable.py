"""A record's fingerprint is the same in every notation that carries it whole: written by any writer that
claims no loss and read back, it is the same record (a format 1.0 record holding what only 1.1 has is
refused, as a 1.0 reader refuses it, so no writer can change its version under it)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phatlog.api import verify
from phatlog.formats import FORMATS
from phatlog.formats.base import ConversionError
from phatlog.play.simulate import simulate
from phatlog.record.canonical import fingerprint
from phatlog.record.reader import read_bytes

ROOT = Path(__file__).resolve().parent.parent
NOTATIONS = ["json", "jsonl", "text", "csv", "openspiel"]  # every notation that reads back what it writes
RULINGS = [
    None,
    {"kind": "adjustment", "side": 1, "points": 2, "reason": "slow play"},
    {"kind": "misdeal"},
]


def _records(game: str, seed: int, ruling: dict[str, Any] | None) -> dict[str, Any]:
    (record,) = simulate(game, seed, 1)
    if ruling is not None:
        record["phatlog"] = "1.1"
        if ruling["kind"] == "adjustment" and game == "oh_hell":
            ruling = {**ruling, "side": 1}
        record["deals"][0]["rulings"] = [copy.deepcopy(ruling)]
    return record


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["phat", "nine_card_don", "irish_don", "oh_hell"]),
    st.integers(0, 10_000),
    st.sampled_from(RULINGS),
    st.sampled_from(NOTATIONS),
)
def test_a_lossless_conversion_keeps_the_fingerprint(game: str, seed: int, ruling: Any, notation: str) -> None:
    record = _records(game, seed, ruling)
    loaded = read_bytes(json.dumps(record).encode())
    if loaded.record is None:
        return  # a ruling this simulated game cannot carry (a misdeal's play, say): nothing to convert
    want = fingerprint(loaded.record)
    try:
        written = FORMATS[notation].dumps(record, lossy=False)
    except (ConversionError, TypeError):
        return  # a notation that cannot carry it whole says so
    back = list(FORMATS[notation].loads(written if isinstance(written, bytes) else written.encode(), "x"))
    assert len(back) == 1 and back[0].record is not None, [d.message for b in back for d in b.diagnostics]
    again = read_bytes(json.dumps(back[0].record).encode())
    assert again.record is not None
    assert fingerprint(again.record) == want


@pytest.mark.parametrize(
    ("change", "pointer", "code"),
    [
        (lambda r: r["deals"][1].__setitem__("rulings", [{"kind": "misdeal"}]), "/deals/1/rulings", "PL102"),
        (lambda r: r.__setitem__("result", {"status": "abandoned"}), "/result/status", "PL108"),
        (lambda r: r["rules"].__setitem__("revoke_penalty", 2), "/rules/revoke_penalty", "PL102"),
    ],
)
def test_a_1_0_record_using_a_1_1_feature_is_refused_as_a_1_0_reader_would(
    change: Any, pointer: str, code: str
) -> None:
    record = json.loads((ROOT / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    assert record["phatlog"] == "1.0"
    record.setdefault("rules", {})
    change(record)
    found = verify(record).diagnostics
    assert any(d.code == code and d.pointer == pointer and 'write "phatlog": "1.1"' in d.message for d in found), found
    record["phatlog"] = "1.1"
    assert not any(d.pointer == pointer and d.code == code for d in verify(record).diagnostics)
