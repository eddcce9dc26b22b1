"""Directories and patterns as inputs (phatlog.archive.inputs), and the record lines of ``--format json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from phatlog.archive.check import check_all
from phatlog.archive.inputs import Unmatched, expand
from phatlog.cli.app import app


def _write(path: Path, record: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _lines(*args: str) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


def test_a_directory_is_walked_recursively_in_a_stable_order(tmp_path: Path, phat_record: dict[str, Any]) -> None:
    for name in ("b.json", "a.jsonl", "sub/z.ndjson", "sub/deeper/y.json", "A.json", "notes.txt", ".hidden.json"):
        _write(tmp_path / name, phat_record)
    (tmp_path / ".git").mkdir()
    _write(tmp_path / ".git" / "x.json", phat_record)
    found = [Path(p).relative_to(tmp_path).as_posix() for p in expand([str(tmp_path)]) if isinstance(p, str)]
    assert found == ["A.json", "a.jsonl", "b.json", "sub/z.ndjson", "sub/deeper/y.json"]


def test_an_unmatched_pattern_is_reported_once(tmp_path: Path) -> None:
    pattern = str(tmp_path / "games" / "*.json")
    items = list(expand([pattern, pattern]))
    assert len(items) == 1 and isinstance(items[0], Unmatched)
    assert items[0].diagnostic.code == "PL001" and "no file matches" in items[0].diagnostic.message


def test_a_pattern_that_matches_stands_for_its_files(tmp_path: Path, phat_record: dict[str, Any]) -> None:
    _write(tmp_path / "2.json", phat_record)
    _write(tmp_path / "1.json", phat_record)
    assert list(expand([str(tmp_path / "*.json")])) == [str(tmp_path / "1.json"), str(tmp_path / "2.json")]


def test_a_file_named_like_a_pattern_is_a_file(tmp_path: Path, phat_record: dict[str, Any]) -> None:
    odd = _write(tmp_path / "game[1].json", phat_record)
    assert list(expand([str(odd)])) == [str(odd)]


@pytest.mark.parametrize("command", ["verify", "validate"])
def test_verify_a_directory_and_an_unmatched_pattern(tmp_path: Path, phat_record: dict[str, Any], command: str) -> None:
    _write(tmp_path / "games" / "one.json", phat_record)
    _write(tmp_path / "games" / "round2" / "two.json", phat_record)
    same = ["--duplicates", "off"] if command == "verify" else []  # the same game twice: not the point here
    code, rows = _lines(command, *same, "-f", "json", str(tmp_path / "games"), str(tmp_path / "none" / "*.json"))
    assert code == 2
    assert [(Path(r["file"]).name, r["kind"], r.get("status") or r.get("code")) for r in rows] == [
        ("one.json", "record", "clean"),
        ("two.json", "record", "clean"),
        ("*.json", "diagnostic", "PL001"),
        ("*.json", "record", "unreadable"),
    ]


def test_record_lines_carry_the_verdict(tmp_path: Path, phat_record: dict[str, Any]) -> None:
    phat_record["event"] = {"name": "Cup", "round": "2", "table": "3", "board": "7"}
    phat_record["players"][0]["id"] = "ann-1"
    good = _write(tmp_path / "good.json", phat_record)
    bad_record = json.loads(json.dumps(phat_record))
    bad_record["result"]["total"] = [1, 2]
    bad = _write(tmp_path / "bad.json", bad_record)
    code, rows = _lines("verify", "--duplicates", "off", "-f", "json", str(good), str(bad))
    assert code == 1
    first = rows[0]
    assert first == {
        "kind": "record",
        "file": str(good),
        "line": None,
        "status": "clean",
        "game": "phat",
        "event": {"name": "Cup", "round": "2", "table": "3", "board": "7"},
        "players": [{"name": n, "id": "ann-1" if n == "Ann" else None} for n in ("Ann", "Ben", "Cal", "Dee")],
        "deals": len(phat_record["deals"]),
        "winner": phat_record["result"]["winner"],
        "totals": phat_record["result"]["total"],
        "errors": 0,
        "warnings": 0,
    }
    *found, last = rows[1:]
    assert {r["kind"] for r in found} == {"diagnostic"} and last["kind"] == "record"
    assert "PL404" in {r["code"] for r in found}
    assert last["status"] == "problems" and last["errors"] == len(found) and last["totals"] is not None
    code, rows = _lines("validate", "-f", "json", str(good))
    assert code == 0 and rows[0]["winner"] is None and rows[0]["totals"] is None and rows[0]["game"] == "phat"


def test_record_lines_of_an_archive_with_two_processes(tmp_path: Path, phat_record: dict[str, Any]) -> None:
    archive = tmp_path / "games.jsonl"
    archive.write_text("\n".join(json.dumps(phat_record) for _ in range(1200)) + "\n", encoding="utf-8")
    one = [r.line for b in check_all([str(archive)], True, detail=1) for r in b.reports]
    two = [(r.line, r.facts is not None) for b in check_all([str(archive)], True, jobs=2, detail=1) for r in b.reports]
    assert one == list(range(1, 1201))
    assert two == [(n, True) for n in range(1, 1201)]


def test_every_reader_of_a_batch_reads_its_region_too(tmp_path: Path) -> None:
    """A batch may be a region of an archive, read in the worker (``--jobs``): ``checked_batch`` (stats,
    standings) and ``archive.entries`` (select, fingerprint) read its lines, as ``run_batch`` does."""
    from phatlog.archive.check import batches, checked_batch, run_batch
    from phatlog.archive.records import entries
    from phatlog.play.simulate import simulate
    from phatlog.record.read_limits import ReadLimits

    archive = tmp_path / "games.jsonl"
    archive.write_text("".join(json.dumps(g) + "\n" for g in simulate("phat", 5, 6)), encoding="utf-8")
    regions = [b for b in batches([str(archive)], ReadLimits(1 << 20), regions=True) if b.region is not None]
    assert regions, "the archive should be read as a region"
    for batch in regions:
        checked = [report.line for report, _ in checked_batch(batch)]
        assert checked == [e.line for e in entries(batch)]
        assert len(checked) == run_batch(batch, True).records == 6
