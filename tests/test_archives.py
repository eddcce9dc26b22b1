"""Archives (JSON Lines): read in batches, in one process or several, with the same findings either way.

``check_all`` with ``jobs`` > 1 hands each worker a stretch of the file to read itself; with one
process the lines are read here. Both must give the same reports, with the archive's own line numbers,
however the lines fall: blank lines, a last line without its newline, a line over the size limit, a
line longer than a batch, an archive with no records.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phatlog.archive import check
from phatlog.archive.check import BatchResult, check_all
from phatlog.play.simulate import simulate
from phatlog.record.read_limits import ReadLimits

Counts = list[int]  # records, deals, clean, with problems, unreadable
Found = list[tuple[int | None, str, str]]  # line, code, pointer of every diagnostic, in order


def _findings(results: list[BatchResult]) -> tuple[Counts, Found]:
    counts = [sum(getattr(r, k) for r in results) for k in ("records", "deals", "clean", "problems", "unreadable")]
    found = [(d.line, d.code, d.pointer) for r in results for rep in r.reports for d in rep.diagnostics]
    return counts, found


def _both(path: Path, max_bytes: int = 1 << 26) -> tuple[tuple[Counts, Found], tuple[Counts, Found]]:
    one = _findings(list(check_all([str(path)], replay=True, limits=ReadLimits(max_bytes), jobs=1)))
    two = _findings(list(check_all([str(path)], replay=True, limits=ReadLimits(max_bytes), jobs=2)))
    return one, two


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    games = [json.dumps(g, separators=(",", ":")).encode() for g in simulate("phat", 3, 30)]
    bad = json.loads(games[5])
    bad["deals"][0]["score"]["points"][0] += 1
    games[5] = json.dumps(bad).encode()
    games[9] = b'{"phatlog": "1.0", oops'
    return games


def test_one_process_and_two_agree_line_by_line(
    tmp_path: Path, lines: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(check, "REGION_BYTES", 4096)  # many stretches, cut at every kind of place
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"\n".join(lines[:12]) + b"\n\n\n" + b"\n".join(lines[12:]))  # no newline at the end
    one, two = _both(path)
    assert one == two
    counts, found = one
    assert counts[0] == 30 and counts[2] == 28
    assert (6, "PL401", "/deals/0/score/points/0") in found
    assert (10, "PL002", "") in found


def test_a_line_over_the_limit_is_reported_with_its_number(
    tmp_path: Path, lines: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(check, "REGION_BYTES", 1024)
    long = b'{"phatlog": "1.0", "comment": "' + b"x" * 50_000 + b'"}'
    path = tmp_path / "long.jsonl"
    path.write_bytes(lines[0] + b"\n" + long + b"\n" + lines[1] + b"\n")
    one, two = _both(path, max_bytes=20_000)
    assert one == two
    counts, found = one
    assert counts[0] == 3 and counts[2] == 2 and counts[4] == 1
    assert [f for f in found if f[1] == "PL003"] == [(2, "PL003", "")]


def test_an_archive_with_no_records(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"\n\n  \n")
    one, two = _both(path)
    assert one == two
    assert one[1] == [(None, "PL006", "")]


def test_the_clean_line_shortcut_finds_what_the_whole_way_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``run_batch`` only counts a line that reads at once and referees clean; every other line goes the
    whole way (``check_loaded``). Forcing every line the whole way gives the same counts, reports and
    digests (record and deal keys), on an archive of clean records of every game, faulty ones, a byte
    order mark, a repeated key, a line over the limit and one that is no JSON."""
    games = [
        *simulate("phat", 5, 4),
        *simulate("nine_card_don", 5, 3),
        *simulate("irish_don", 5, 3),
        *simulate("oh_hell", 5, 3, players=5),
    ]
    raw = [json.dumps(g, separators=(",", ":")).encode() for g in games]
    wrong = json.loads(raw[1])
    wrong["deals"][0]["score"]["total"][0] += 1
    raw[1] = json.dumps(wrong).encode()
    raw[4] = b"\xef\xbb\xbf" + raw[4]
    raw[6] = raw[6].replace(b'"phatlog":', b'"phatlog":"1.0","phatlog":', 1)
    raw[8] = raw[8] + b" " * 4000  # over the limit below
    raw.append(b"[1, 2")
    raw.append(raw[0])  # a record twice
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(raw) + b"\n")

    def run() -> tuple[Counts, Found, list[tuple[str, int | None, bytes | None, bytes]]]:
        results = list(check_all([str(path)], replay=True, limits=ReadLimits(len(raw[8]) - 1), fingerprints=2))
        counts, found = _findings(results)
        return counts, found, [d for r in results for d in r.digests]

    fast = run()
    monkeypatch.setattr(check, "read_plain", lambda data: None)
    assert run() == fast
    counts, found, digests = fast
    assert counts[0] == len(raw) and counts[2] >= len(raw) - 6
    assert {code for _, code, _ in found} >= {"PL402", "PL109", "PL003", "PL002"}
    assert digests[0][2:] == digests[-1][2:] and digests[0][3]  # the copy: the same record and deal keys
