"""The limits a run reads under (``--max-bytes``): one value, made once, carried by the work to wherever
its records are read, in this process or in a worker process, and the same for every kind of source."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

import phatlog
from phatlog.archive import check
from phatlog.archive.check import batches, check_all, run_batch
from phatlog.play.simulate import simulate
from phatlog.record.read_limits import ReadLimits


def _archive(tmp_path: Path) -> tuple[Path, list[int]]:
    """An archive of simulated games, one a line, and the length of each line."""
    lines = [json.dumps(g, separators=(",", ":")).encode() for g in simulate("phat", 7, 24)]
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, [len(line) for line in lines]


def _too_large(results: list[check.BatchResult]) -> list[tuple[int | None, str]]:
    return [(d.line, d.message) for r in results for rep in r.reports for d in rep.diagnostics if d.code == "PL003"]


def test_the_limit_reaches_the_worker_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``--jobs`` the workers read their stretches of the archive themselves: the lines over the limit
    are the ones they find from the limits their batches carry, as one process finds them."""
    monkeypatch.setattr(check, "REGION_BYTES", 4096)  # several stretches, so that the workers are used
    path, sizes = _archive(tmp_path)
    most = sorted(sizes)[len(sizes) // 2]
    over = [number for number, size in enumerate(sizes, start=1) if size > most]
    here = _too_large(list(check_all([str(path)], True, ReadLimits(most), jobs=1)))
    there = _too_large(list(check_all([str(path)], True, ReadLimits(most), jobs=2)))
    assert [line for line, _ in here] == over and over
    assert there == here
    assert all(
        message == f"line {line} is larger than the limit of {most:,} bytes (see --max-bytes)" for line, message in here
    )


def test_a_batch_pickles_with_its_limits(tmp_path: Path) -> None:
    """What a worker is sent (a batch, its limits in it) comes back whole, and is checked as it was here."""
    path, sizes = _archive(tmp_path)
    limits = ReadLimits(min(sizes))
    assert len(pickle.dumps(limits)) < 100
    for batch in batches([str(path)], limits, regions=True):
        sent = pickle.loads(pickle.dumps(batch))
        assert sent.limits == limits
        assert _too_large([run_batch(sent, True)]) == _too_large([run_batch(batch, True)])


@pytest.mark.parametrize("below", [0, -1, -(10**30)])
def test_a_limit_below_one_byte_is_one_byte_for_every_source(tmp_path: Path, below: int) -> None:
    """``max_bytes`` below 1 means 1, whether the records come from a file or from bytes (and the messages
    say so)."""
    data = b"1\n{}\n"
    path = tmp_path / "tiny.jsonl"
    path.write_bytes(data)

    def read(source: bytes | str, max_bytes: int) -> list[tuple[int | None, list[str]]]:
        return [(e.line, [d.message for d in e.diagnostics]) for e in phatlog.records(source, max_bytes=max_bytes)]

    for source in (data, data.decode(), str(path)):
        assert read(source, below) == read(source, 1)
    assert read(data, below) == read(str(path), below)
    assert read(data, below)[1] == (2, ["line 2 is larger than the limit of 1 bytes (see --max-bytes)"])


def test_a_limit_larger_than_any_read_is_no_limit(tmp_path: Path) -> None:
    path, _ = _archive(tmp_path)
    huge = ReadLimits(10**30)
    assert huge == ReadLimits(huge.max_bytes) and pickle.loads(pickle.dumps(huge)) == huge
    assert not _too_large(list(check_all([str(path)], True, huge, jobs=2)))
