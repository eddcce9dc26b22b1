"""``select --split-by``: a group's file name never collides with a placeholder's, a long name is cut by
bytes (with a short hash), and one group that cannot be written does not stop the others."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from phatlog.cli.app import app
from phatlog.cli.select import NAME_BYTES, NO_EVENT, NOT_VALID, file_name

ROOT = Path(__file__).resolve().parent.parent


def _record(event: str | None) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((ROOT / "samples/games/phat-worked-6-2.json").read_text(encoding="utf-8"))
    record.pop("event", None)
    if event is not None:
        record["event"] = {"name": event}
    return record


def _archive(tmp_path: Path, events: list[str | None], extra: list[str] = ()) -> Path:  # type: ignore[assignment]
    path = tmp_path / "in.jsonl"
    lines = [json.dumps({**_record(e), "comment": str(i)}) for i, e in enumerate(events)]
    path.write_text("\n".join([*lines, *extra]) + "\n", encoding="utf-8")
    return path


def _split(path: Path, out: Path, *more: str) -> Any:
    return CliRunner().invoke(app, ["select", str(path), "--split-by", "event", "-o", str(out), *more])


def test_a_group_named_like_a_placeholder_has_its_own_file(tmp_path: Path) -> None:
    path = _archive(tmp_path, ["no-event", None, "not-valid"], extra=['{"phatlog": "1.0", "game": "phat"}'])
    out = tmp_path / "out"
    result = _split(path, out, "--status", "problems")
    assert result.exit_code == 0, result.output
    files = {p.name: p.read_text(encoding="utf-8").count("\n") for p in out.iterdir()}
    assert files == {"not-valid.jsonl": 1}  # only the record that is not valid has problems
    result = _split(path, tmp_path / "all")
    names = sorted(p.name for p in (tmp_path / "all").iterdir())
    assert names == ["no-event-2.jsonl", "no-event.jsonl", "not-valid-2.jsonl"]
    assert '"comment": "1"' in (tmp_path / "all" / "no-event.jsonl").read_text()  # the record with no event
    assert '"comment": "0"' in (tmp_path / "all" / "no-event-2.jsonl").read_text()  # the event "no-event"
    counted = CliRunner().invoke(app, ["select", str(path), "--split-by", "event", "--count"])
    assert "\t(no event)" in counted.output and "\tno-event" in counted.output


def test_selected_records_are_not_also_said_not_selected(tmp_path: Path) -> None:
    path = _archive(tmp_path, ["A"], extra=['{"phatlog": "1.0", "game": "phat"}'])
    result = CliRunner().invoke(app, ["select", str(path), "--status", "problems", "-o", str(tmp_path / "x.jsonl")])
    assert "selected 1 of 2 records" in result.output and "not selected" not in result.output
    result = CliRunner().invoke(app, ["select", str(path), "-o", str(tmp_path / "y.jsonl")])
    assert "1 not valid record, not selected" in result.output


def test_a_long_name_is_cut_by_bytes_and_one_group_does_not_stop_the_others(tmp_path: Path) -> None:
    long = "漢" * 100  # 300 bytes in UTF-8
    path = _archive(tmp_path, [long, long + "字", "B", "C"])
    out = tmp_path / "out"
    (out / "B.jsonl").mkdir(parents=True)  # the group B cannot be written: a directory is in the way
    result = _split(path, out)
    assert result.exit_code == 2
    assert "the group 'B' cannot be written" in result.output and "the other groups are written" in result.output
    written = sorted(p.name for p in out.iterdir() if p.is_file())
    assert len(written) == 3 and "C.jsonl" in written
    assert all(len(name.encode()) <= NAME_BYTES + len(".jsonl") for name in written)
    assert len({n for n in written if n.startswith("漢")}) == 2  # alike at the start, apart by their hash


@settings(max_examples=200)
@given(st.text(min_size=1, max_size=300))
def test_file_names_are_short_safe_and_never_a_placeholders(group: str) -> None:
    name = file_name(group)
    assert len(name.encode("utf-8")) <= NAME_BYTES + len(".jsonl")
    assert "/" not in name and "\x00" not in name and not name.startswith(".")
    assert file_name(NO_EVENT) == "no-event.jsonl" and file_name(NOT_VALID) == "not-valid.jsonl"
