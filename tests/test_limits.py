"""Length limits on free text (docs/format.md, "Limits"): at the limit a record is valid; one character
more is a schema error at the text's JSON Pointer, whose message does not echo the text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from phatlog.record.model import COMMENT_MAX, FIELD_MAX, NAME_MAX
from phatlog.record.reader import read_bytes

ROOT = Path(__file__).resolve().parent.parent
BASE = json.loads((ROOT / "samples/games/phat-worked-6-2.json").read_text(encoding="utf-8"))

PLACES: list[tuple[str, int]] = [
    ("/players/0/name", NAME_MAX),
    ("/players/1/id", NAME_MAX),
    ("/event/site", FIELD_MAX),
    ("/event/name", FIELD_MAX),
    ("/result/reason", FIELD_MAX),
    ("/comment", COMMENT_MAX),
    ("/deals/0/comment", COMMENT_MAX),
    ("/deals/0/tricks/3/comment", COMMENT_MAX),
]


def _with(ptr: str, value: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.dumps(BASE))
    node: Any = record
    *parts, last = ptr.strip("/").split("/")
    for part in parts:
        node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
    node[last] = value
    return record


@pytest.mark.parametrize(("ptr", "limit"), PLACES)
def test_text_limits(ptr: str, limit: int) -> None:
    assert read_bytes(json.dumps(_with(ptr, "é" * limit)).encode()).record is not None
    found = read_bytes(json.dumps(_with(ptr, "é" * (limit + 1))).encode()).diagnostics
    assert [(d.code, d.pointer) for d in found] == [("PL100", ptr)]
    assert f"at most {limit} characters" in found[0].message
    assert "é" * 30 not in found[0].message + found[0].place


def test_a_megabyte_name_is_refused_quickly_and_not_echoed() -> None:
    found = read_bytes(json.dumps(_with("/players/0/name", "N" * 1_000_000)).encode()).diagnostics
    (d,) = found
    assert d.pointer == "/players/0/name"
    assert len(d.message) + len(d.located([]).place) < 300
