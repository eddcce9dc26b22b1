"""``phatlog replay`` writes JSON and text a deal at a time (issue 16): the same bytes as the whole text
built at once, without ever holding the whole of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest

from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes, read_path
from phatlog.report import build
from phatlog.report import text as text_report
from phatlog.report.summary import _ENCODE, dumps, write_json

REPO: Final = Path(__file__).resolve().parent.parent
SAMPLES: Final = (
    sorted((REPO / "samples" / "games").glob("*.json"))[::4]
    + sorted((REPO / "samples" / "invalid").glob("*.json"))[::6]
)


def _reference_dumps(data: Any, indent: int = 2) -> str:
    """``dumps`` before issue 16, verbatim: the layout the streaming writer must keep."""

    def plain(value: Any) -> bool:
        return not isinstance(value, (dict, list))

    def out(value: Any, level: int) -> str:
        pad, inner = " " * (indent * level), " " * (indent * (level + 1))
        if isinstance(value, dict) and value and all(plain(v) for v in value.values()):
            line = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
            if len(line) <= 72:
                return line
        if isinstance(value, dict) and value:
            items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {out(v, level + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if isinstance(value, list) and value and not all(plain(v) for v in value):
            if all(isinstance(v, list) and all(plain(x) for x in v) for v in value):
                items = [f"{inner}{json.dumps(v, ensure_ascii=False)}" for v in value]
            else:
                items = [f"{inner}{out(v, level + 1)}" for v in value]
            return "[\n" + ",\n".join(items) + "\n" + pad + "]"
        return json.dumps(value, ensure_ascii=False)

    return out(data, 0) + "\n"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_streamed_json_and_text_are_the_whole_text(path: Path) -> None:
    summary = build(read_path(path))
    whole = _reference_dumps(summary.to_json())
    assert dumps(summary.to_json()) == whole
    pieces: list[str] = []
    write_json(summary, pieces.append)
    assert "".join(pieces) == whole
    assert "".join(text_report.pieces(summary)) == text_report.render(summary)


def test_a_long_record_is_written_a_deal_at_a_time() -> None:
    game = next(iter(simulate("phat", 3, 1, rules={"target": 1000})))
    summary = build(read_bytes(json.dumps(game).encode()))
    pieces: list[str] = []
    write_json(summary, pieces.append)
    whole = "".join(pieces)
    assert len(pieces) > len(summary.deals) > 10
    assert max(map(len, pieces)) < len(whole) / 5
    texts = list(text_report.pieces(summary))
    assert len(texts) == len(summary.deals) + 2


def test_the_encoder_is_json_dumps() -> None:
    for value in ["♥ \x1b \ud800", 1.5, float("nan"), [1, "a", None], {"k": True}]:
        assert _ENCODE(value) == json.dumps(value, ensure_ascii=False)
