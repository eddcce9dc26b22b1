"""Inputs and outputs: what a path is decides how it is read or written, memory never follows a limit,
every way of reading an archive gives the same findings, and signals end a command quietly."""

from __future__ import annotations

import io
import json
import os
import resource
import select
import signal
import stat
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phatlog.archive import check
from phatlog.archive.atomic import output
from phatlog.archive.check import check_all
from phatlog.cli.app import app
from phatlog.play.simulate import simulate
from phatlog.record.read_limits import ReadLimits
from phatlog.record.reader import CHUNK, read_limited, read_lines

BIN = Path(sys.executable).parent / "phatlog"
ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")


def games(n: int, seed: int = 3) -> list[bytes]:
    return [json.dumps(g, separators=(",", ":")).encode() for g in simulate("phat", seed, n)]


def run(
    *args: str, stdin: bytes | None = None, timeout: float = 60, **kw: object
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(BIN), *args], input=stdin, capture_output=True, timeout=timeout, check=False, **kw)  # type: ignore[call-overload, no-any-return]


def feed_fifo(path: Path, data: bytes) -> threading.Thread:
    """Write ``data`` into the FIFO ``path`` from a thread (opening blocks until the reader opens it)."""

    def write() -> None:
        with path.open("wb") as f:
            f.write(data)

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


def drain_fifo(path: Path) -> tuple[threading.Thread, list[bytes]]:
    got: list[bytes] = []

    def read() -> None:
        with path.open("rb") as f:
            got.append(f.read())

    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t, got


# ---------------------------------------------------------------------------- writing


def test_a_symlink_target_is_written_and_the_link_stays(tmp_path: Path) -> None:
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_text("old\n")
    link.symlink_to(real.name)
    result = runner.invoke(app, ["simulate", "--count", "2", "-o", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_text().count("\n") == 2 and real.read_text().startswith('{"phatlog"')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_a_dangling_symlink_makes_the_file_it_names(tmp_path: Path) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to("made.jsonl")
    assert runner.invoke(app, ["simulate", "-o", str(link)]).exit_code == 0
    assert link.is_symlink() and (tmp_path / "made.jsonl").is_file()


def test_a_fifo_is_written_through_not_replaced(tmp_path: Path) -> None:
    for command in (["simulate", "--count", "2"], ["convert", "--to", "jsonl", "IN"]):
        fifo = tmp_path / "out.fifo"
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo)
        source = tmp_path / "in.jsonl"
        source.write_bytes(b"\n".join(games(2)) + b"\n")
        reading, got = drain_fifo(fifo)
        args = [str(source) if a == "IN" else a for a in command]
        result = run(*args, "-o", str(fifo))
        reading.join(10)
        assert result.returncode == 0, result.stderr
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        assert got and got[0].count(b"\n") == 2
        assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.fifo"]


def test_a_character_device_is_written_through_not_replaced() -> None:
    before = os.stat("/dev/null")
    for args in (
        ["simulate", "-o", "/dev/null"],
        ["convert", "samples/games/phat-181.json", "-o", "/dev/null", "--to", "jsonl"],
    ):
        try:
            result = run(*args, cwd=Path(__file__).parent.parent)
            after = os.stat("/dev/null")
        finally:
            _restore_dev_null(before)
        assert result.returncode == 0, result.stderr
        assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


def _restore_dev_null(before: os.stat_result) -> None:
    """A writer that replaces what it writes to, run as root, replaces /dev/null: put it back at once."""
    if not stat.S_ISCHR(os.stat("/dev/null").st_mode) and stat.S_ISCHR(before.st_mode):
        os.unlink("/dev/null")
        os.mknod("/dev/null", 0o666 | stat.S_IFCHR, before.st_rdev)
        os.chmod("/dev/null", 0o666)


def test_dev_stdout_is_the_descriptor_already_open(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("kept\n")
    with out.open("a") as f:  # the shell's >>: appended to, never replaced or truncated
        result = subprocess.run([str(BIN), "simulate", "--count", "2", "-o", "/dev/stdout"], stdout=f, check=False)
    assert result.returncode == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "kept" and len(lines) == 3


def test_a_directory_is_refused(tmp_path: Path) -> None:
    for args in (
        ["simulate", "-o", str(tmp_path)],
        ["convert", "samples/games/phat-181.json", "--to", "jsonl", "-o", str(tmp_path)],
    ):
        result = run(*args, cwd=Path(__file__).parent.parent)
        assert result.returncode == 2
        assert b"Is a directory" in result.stderr and b"Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_abandoned_output_leaves_the_target_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    for exc in (KeyboardInterrupt, RuntimeError):
        with pytest.raises(exc), output(str(target)) as out:
            out.stream.write("new\n")
            out.keep = True
            raise exc
        assert target.read_text() == "old\n"
        assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_simulate_streams_games_as_they_are_made() -> None:
    """A billion games: the first is written at once, none is held (the old command built them all)."""
    proc = subprocess.Popen([str(BIN), "simulate", "--count", "1000000000"], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no game written within 30 s"
        assert json.loads(proc.stdout.readline())["game"] == "phat"
    finally:
        proc.kill()
        proc.wait()


def test_simulate_refuses_bad_rules_before_any_game() -> None:
    with pytest.raises(ValueError):
        simulate("oh_hell", 1, 10**12, players=9)  # raised by the call, not by the first game


# ---------------------------------------------------------------------------- limits and resources


class Lazy(io.RawIOBase):
    """A stream of ``size`` bytes of one line (then ``tail``), made as it is read, never held."""

    def __init__(self, size: int, tail: bytes = b"") -> None:
        self.left, self.tail = size, tail
        self.sizes: list[int] = []

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        self.sizes.append(len(buffer))
        if self.left > 0:
            n = min(len(buffer), self.left)
            buffer[:n] = b"a" * n
            self.left -= n
            return n
        n = min(len(buffer), len(self.tail))
        buffer[:n], self.tail = self.tail[:n], self.tail[n:]
        return n


def test_nothing_is_allocated_from_the_limit() -> None:
    stream = io.BufferedReader(Lazy(10))
    assert read_limited(stream, 10**10) == b"a" * 10
    assert read_limited(io.BufferedReader(Lazy(10)), 9) is None
    for limit in (10_000_000_000, 2**63 - 1, 2**80):  # an OverflowError or MemoryError before
        raw = Lazy(3 * CHUNK)
        assert read_limited(raw, limit) == b"a" * 3 * CHUNK  # type: ignore[arg-type]
        assert max(raw.sizes) <= 64 * CHUNK + 1
        assert [n for n, _, _ in read_lines(io.BufferedReader(Lazy(5, b"\nx\n")), limit)] == [1, 2]


def test_an_over_long_line_of_a_stream_is_skipped_in_bounded_memory() -> None:
    stream = io.BufferedReader(Lazy(64 * CHUNK, b"\n{}\n"), buffer_size=CHUNK)
    tracemalloc.start()
    try:
        lines = [(n, None if data is None else len(data), size) for n, data, size in read_lines(stream, 100_000)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert lines == [(1, None, 64 * CHUNK + 1), (2, 2, 3)]
    assert peak < 8 * CHUNK, f"peak {peak:,} bytes for a line of {64 * CHUNK:,}"


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_over_long_line_of_a_file_is_skipped_in_bounded_memory(
    tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(check, "cpus", lambda: 2)
    good = games(1)[0]
    path = tmp_path / "long.jsonl"
    with path.open("wb") as f:
        f.write(good + b"\n" + b"a" * (24 * CHUNK) + b"\n" + good + b"\n")
    tracemalloc.start()
    try:
        results = list(check_all([str(path)], False, ReadLimits(100_000), jobs=jobs))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sum(r.records for r in results) == 3 and sum(r.clean for r in results) == 2
    assert [d.line for r in results for rep in r.reports for d in rep.diagnostics] == [2]
    assert peak < 8 * CHUNK, f"peak {peak:,} bytes for a line of {24 * CHUNK:,}"


@pytest.mark.deep
def test_huge_jobs_and_max_bytes_are_capped_not_tracebacks(tmp_path: Path) -> None:
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(b"\n".join(games(2)) + b"\n")
    record = tmp_path / "one.json"
    record.write_bytes(games(1)[0])
    huge = "99999999999999999999"
    for command in ("verify", "validate"):
        result = run(command, "--jobs", huge, "--max-bytes", huge, str(archive), str(record))
        assert result.returncode == 0, result.stderr
        assert b"Traceback" not in result.stderr and b"processor" in result.stderr
    result = run("replay", "--max-bytes", huge, str(record))
    assert result.returncode == 0, result.stderr
    result = run("convert", "--max-bytes", huge, str(record), "--to", "jsonl")
    assert result.returncode == 0, result.stderr
    result = run("replay", "--max-bytes", huge, "-", stdin=record.read_bytes())
    assert result.returncode == 0, result.stderr


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


@pytest.mark.deep
def test_a_large_limit_is_not_allocated(tmp_path: Path) -> None:
    """--max-bytes 10 GB under a 3 GB address space: the old readers allocated the limit (MemoryError)."""
    record = tmp_path / "one.json"
    record.write_bytes(games(1)[0])
    data = record.read_bytes()
    cases = [
        (["verify", "--max-bytes", "10000000000", "-"], data),
        (["replay", "--max-bytes", "10000000000", "-"], data),
        (["replay", "--max-bytes", "10000000000", str(record)], None),
        (["convert", "--max-bytes", "10000000000", "--from", "json", "--to", "jsonl", "-"], data),
    ]
    for args, stdin in cases:
        result = run(*args, stdin=stdin, preexec_fn=_limit_memory)
        assert result.returncode == 0, (args, result.stderr[-2000:])


def test_jobs_are_capped_at_the_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class Pool:
        def __init__(self, max_workers: int, **kw: object) -> None:
            started.append(max_workers)
            raise AssertionError("no pool for one batch")

    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", Pool)
    monkeypatch.setattr(check, "cpus", lambda: 1000)
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(b"\n".join(games(20)) + b"\n")
    results = list(check_all([str(archive)], True, jobs=1000))
    assert sum(r.records for r in results) == 20 and started == []


# ---------------------------------------------------------------------------- reading: the same places every way


def faulty_archive(path: Path, lines: int = 1100) -> None:
    good = games(2)
    rows = [good[0], b'{"x": "' + b"a" * 20_000 + b'"}', good[1], b"", b"{not json", b"   "]
    rows += [good[i % 2] for i in range(lines - len(rows) - 2)]
    rows += [good[0][:35], good[1]]
    path.write_bytes(b"\n".join(rows) + b"\n")


@pytest.mark.deep
def test_every_way_of_reading_an_archive_gives_the_same_findings(tmp_path: Path) -> None:
    """File, standard input and a FIFO, one process and two: the same diagnostics, at the same places."""
    archive = tmp_path / "faults.jsonl"
    faulty_archive(archive)
    data = archive.read_bytes()
    outputs: dict[str, str] = {}
    for jobs in ("1", "2"):
        for how in ("file", "stdin", "fifo"):
            common = ["validate", "--max-bytes", "10000", "-j", jobs]
            if how == "file":
                result = run(*common, str(archive))
            elif how == "stdin":
                result = run(*common, "-", stdin=data)
            else:
                fifo = tmp_path / f"in{jobs}"  # no .jsonl: what it is decides, not its name
                os.mkfifo(fifo)
                feeding = feed_fifo(fifo, data)
                result = run(*common, str(fifo))
                feeding.join(10)
            assert result.returncode == 2 and b"Traceback" not in result.stderr, result.stderr
            text = result.stdout.decode() + result.stderr.decode()
            lines = [line for line in text.splitlines() if not line.startswith("note: --jobs")]  # one processor
            outputs[f"{how} -j{jobs}"] = "\n".join(  # the source named as given: the rest must be the same
                line.split(":", 1)[-1] if ": /: " in line else line for line in lines
            )
    first = outputs["file -j1"]
    assert all(text == first for text in outputs.values()), outputs
    assert first.splitlines()[:3] == [
        "2: /: error PL003 too-large: line 2 is larger than the limit of 10,000 bytes (see --max-bytes)",
        "5:2: /: error PL002 not-json: the input is not valid JSON: Expecting property name enclosed in double "
        "quotes at line 5 column 2",
        "1099:32: /: error PL002 not-json: the JSON ends too soon (truncated?): Unterminated string starting at "
        "line 1099 column 32",
    ]
    assert "1098 records" in first


def test_region_reading_skips_lines_longer_than_a_region(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers' stretches of a file: lines longer than a stretch, and longer than the limit, land
    where one process puts them."""
    monkeypatch.setattr(check, "cpus", lambda: 2)
    monkeypatch.setattr(check, "REGION_BYTES", 4096)
    archive = tmp_path / "faults.jsonl"
    faulty_archive(archive, 40)

    def found(jobs: int) -> list[tuple[int | None, str, str]]:
        return [
            (d.line, d.code, d.message)
            for r in check_all([str(archive)], False, ReadLimits(10_000), jobs=jobs)
            for rep in r.reports
            for d in rep.diagnostics
        ]

    assert found(2) == found(1) and [line for line, _, _ in found(1)] == [2, 5, 39]


def test_a_fifo_is_read_as_a_stream(tmp_path: Path) -> None:
    """Named like one record or not, a FIFO is read as standard input is: JSON Lines or one record."""
    rows = games(3)
    fifo = tmp_path / "in"
    os.mkfifo(fifo)
    feeding = feed_fifo(fifo, b"\n".join(rows) + b"\n")
    result = run("verify", "-j", "2", str(fifo))
    feeding.join(10)
    assert result.returncode == 0 and b"3 records" in result.stderr, result.stderr
    feeding = feed_fifo(fifo, json.dumps(json.loads(rows[0]), indent=1).encode())
    result = run("replay", str(fifo))
    feeding.join(10)
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------------------- signals


def _wait_for(predicate: object, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_during_a_write_leaves_the_old_file_and_no_debris(tmp_path: Path, signum: int, code: int) -> None:
    fifo = tmp_path / "in.jsonl"
    os.mkfifo(fifo)
    target = tmp_path / "existing.ndjson"
    target.write_text("old\n")
    proc = subprocess.Popen(
        [str(BIN), "convert", str(fifo), "-o", str(target)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    with fifo.open("wb") as feed:
        feed.write(games(1)[0] + b"\n")
        feed.flush()
        _wait_for(lambda: len(list(tmp_path.iterdir())) == 3)  # the temporary file exists: writing has begun
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == code and b"Traceback" not in err, err
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing.ndjson", "in.jsonl"]


@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_at_start_up_is_quiet(attempt: int) -> None:
    """Ctrl-C while the command's modules load (msgspec's library is being mapped; verify no longer loads
    pydantic): no traceback, and no crash (an exception raised in msgspec's initialisation crashed the
    interpreter: the signal is now held until the modules have loaded)."""
    proc = subprocess.Popen(
        [str(BIN), "verify", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    maps = Path(f"/proc/{proc.pid}/maps")
    _wait_for(lambda: not maps.exists() or "msgspec" in maps.read_text())
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"Traceback" not in err, err


def test_ctrl_c_with_workers_is_quiet_and_leaves_no_worker() -> None:
    """Ctrl-C reaches the whole process group, workers included: none prints a traceback."""
    proc = subprocess.Popen(
        [str(BIN), "validate", "-j", "2", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"\n".join(games(2) * 600) + b"\n")  # more than one batch: the workers start
    proc.stdin.flush()
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    _wait_for(lambda: children.exists() and len(children.read_text().split()) >= 1)
    workers = [int(p) for p in children.read_text().split()]
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"Traceback" not in err, err
    for pid in workers:
        _wait_for(lambda pid=pid: not Path(f"/proc/{pid}").exists() or "Z" in _state(pid))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_with_workers_busy_on_long_batches_takes_about_a_second(tmp_path: Path, signum: int) -> None:
    """Workers busy with batches that take many seconds (claim audits) are ended at once when the command
    stops (Ctrl-C to the group, or SIGTERM to the command alone), not after their batch."""
    record = json.loads((ROOT / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    record["phatlog"] = "1.1"
    record.pop("result", None)
    for deal in record["deals"]:
        deal["tricks"] = deal["tricks"][:1]
        deal["rulings"] = [{"kind": "claim", "seat": 0, "tricks": "rest"}]
    paths = []
    for n in range(2):
        path = tmp_path / f"claims{n}.jsonl"
        path.write_text("".join(json.dumps({**record, "comment": f"{n} {i}"}) + "\n" for i in range(200)))
        paths.append(str(path))
    proc = subprocess.Popen(
        [str(BIN), "verify", "-j", "2", *paths], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    _wait_for(lambda: children.exists() and len(children.read_text().split()) >= 2)
    time.sleep(0.5)  # the workers are on their first batch
    began = time.monotonic()
    if signum == signal.SIGINT:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - began < 5  # about a second; the batches take minutes
    assert proc.returncode == 128 + signum and b"Traceback" not in err, err


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{archive}", "--format", "html", "-o", "{target}"],
        ["select", "{archive}", "--split-by", "game", "-o", "{target}"],
        ["standings", "{archive}", "--format", "html", "-o", "{target}"],
    ],
    ids=["replay", "select", "standings"],
)
def test_a_directory_output_onto_a_file_is_refused_and_the_file_kept(tmp_path: Path, command: list[str]) -> None:
    """The commands that write a directory of files refuse a path that is already a file, and say so
    (before: "File exists", or the input's name); the file is left as it was."""
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(b"\n".join(games(2)) + b"\n")
    target = tmp_path / "taken"
    target.write_bytes(b"keep me")
    result = runner.invoke(app, [a.format(archive=archive, target=target) for a in command])
    assert result.exit_code == 2
    assert f"cannot write {target}: exists and is not a directory" in result.output
    assert target.read_bytes() == b"keep me"
