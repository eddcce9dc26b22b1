"""``verify --cluster`` and ``phatlog.dask``: the same output as a local run, on a real Dask cluster.

One ``LocalCluster`` of two worker processes serves the whole module (started once: a few seconds). The
archives are small and cut into small parts (``PARTITION_BYTES`` patched on the client, where parts are
planned), so that every test crosses many part boundaries. Inputs come as local paths, ``file://`` URLs
and ``memory://`` URLs; faults are corrupted lines at known places, a part whose map fails every time
(reported, PL880, never dropped) and a worker that dies once (Dask runs the part again).
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import phatlog.archive.cluster as dist
from phatlog.archive.check import BatchResult, check_all, run_batch
from phatlog.archive.cluster import Part, Piece, count_lines, plan, read_piece
from phatlog.cli.app import app
from phatlog.play.simulate import simulate
from phatlog.record.read_limits import ReadLimits
from phatlog.record.reader import read_lines

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")
fsspec = pytest.importorskip("fsspec")
dask_bag = pytest.importorskip("dask.bag")

SAMPLES = sorted(glob.glob("samples/games/*.json")) + sorted(glob.glob("samples/invalid/*.json"))
#: Lines (1-based) of the simulated archive that are corrupted, and how.
FAULTS = {4: "truncated", 9: "blank", 10: "blank", 17: "unknown game", 23: "too long", 31: "bad score", 44: "spaces"}
MAX_BYTES = 9000
CARD, HELD = "samples/invalid/bad-card-10H.json", "samples/invalid/card-not-held.json"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
        )
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture()
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dist, "PARTITION_BYTES", 6000)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated archive of 50 Phat games with the faults of ``FAULTS`` at their lines."""
    lines = [json.dumps(g, separators=(",", ":")) for g in simulate("phat", 7, 50)]
    for line, fault in FAULTS.items():
        text = lines[line - 1]
        if fault == "truncated":
            text = text[:-9]
        elif fault == "blank":
            text = ""
        elif fault == "spaces":
            text = "   \r"
        elif fault == "unknown game":
            text = text.replace('"game":"phat"', '"game":"phot"', 1)
        elif fault == "too long":
            text = text + " " * MAX_BYTES
        elif fault == "bad score":
            record = json.loads(text)
            record["deals"][0]["score"]["points"] = [9, 9]
            text = json.dumps(record, separators=(",", ":"))
        lines[line - 1] = text
    path = tmp_path_factory.mktemp("archive") / "games.jsonl"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def address(client: Any) -> str:
    return str(client.scheduler.address)


# ------------------------------------------------------------------------ the same output as a local run


@pytest.mark.deep
@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("command", ["verify", "validate"])
def test_samples_give_the_same_output_as_a_local_run(client: Any, command: str, fmt: str) -> None:
    local = run(command, "-f", fmt, "-v", *SAMPLES)
    assert local[0] == 2  # the invalid samples hold unreadable ones: every kind of output is compared
    assert run(command, "-f", fmt, "-v", "--cluster", address(client), *SAMPLES) == local


@pytest.mark.deep
def test_records_over_the_limit_are_refused_as_locally(client: Any) -> None:
    local = run("verify", "--max-bytes", "3000", *SAMPLES[:12])
    assert "PL003" in local[1]
    assert run("verify", "--max-bytes", "3000", "--cluster", address(client), *SAMPLES[:12]) == local


@pytest.mark.deep
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_archive_with_faults_gives_the_same_output_at_the_same_lines(
    client: Any, archive: Path, small_parts: None, fmt: str, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n \n", encoding="utf-8")
    args = ["verify", "-f", fmt, "--max-bytes", str(MAX_BYTES), str(archive), str(empty), str(tmp_path / "gone.jsonl")]
    args.append(str(tmp_path))  # a directory: walked, as locally
    local = run(*args)
    assert len(plan([str(archive)], dist.PARTITION_BYTES)) > 20  # many parts, many boundaries
    assert run(*args[:1], "--cluster", address(client), *args[1:]) == local
    if fmt == "json":
        rows = [json.loads(line) for line in local[1].splitlines()]
        lines = {
            r["line"]
            for r in rows
            if r["file"] == str(archive) and r.get("kind") == "diagnostic" and r["severity"] == "error"
        }
        assert lines == {line for line, fault in FAULTS.items() if fault not in ("blank", "spaces")}
        # the empty archive, the missing file, and the directory: walked, it holds only the empty archive
        assert [r["code"] for r in rows if r["file"] != str(archive) and r["kind"] == "diagnostic"] == [
            "PL006",
            "PL001",
            "PL006",
        ]


@pytest.mark.deep
def test_local_n_starts_its_own_cluster(archive: Path, small_parts: None) -> None:
    args = ["verify", "-q", "--max-bytes", str(MAX_BYTES), str(archive)]
    assert run(*args[:1], "--cluster", "local:1", *args[1:]) == run(*args)


# ------------------------------------------------------------------------------------------- fsspec


@pytest.mark.deep
def test_file_urls_read_as_local_paths(client: Any, archive: Path, small_parts: None) -> None:
    code, out, err = run("verify", "-f", "json", "--max-bytes", str(MAX_BYTES), str(archive))
    url = archive.as_uri()
    assert run("verify", "-f", "json", "--max-bytes", str(MAX_BYTES), "--cluster", address(client), url) == (
        code,
        out.replace(json.dumps(str(archive)), json.dumps(url)),
        err,
    )


def _fill_memory(files: dict[str, bytes]) -> None:
    memory = fsspec.filesystem("memory")
    for name, data in files.items():
        memory.pipe(name, data)


@pytest.mark.deep
def test_memory_urls_are_read_by_the_workers(client: Any, archive: Path, small_parts: None) -> None:
    sample = Path(SAMPLES[0])
    files = {"/phatlog-test/games.jsonl": archive.read_bytes(), "/phatlog-test/one.json": sample.read_bytes()}
    _fill_memory(files)  # here (for the plan: sizes) and on every worker (each process has its own)
    client.run(_fill_memory, files)
    urls = ["memory://phatlog-test/games.jsonl", "memory://phatlog-test/one.json", "memory://phatlog-test/nothing.json"]
    code, out, err = run("verify", "-f", "json", "--max-bytes", str(MAX_BYTES), str(archive), str(sample), "gone.json")
    expected = out.replace(json.dumps(str(archive)), json.dumps(urls[0])).replace(
        json.dumps(str(sample)), json.dumps(urls[1])
    )
    got = run("verify", "-f", "json", "--max-bytes", str(MAX_BYTES), "--cluster", address(client), *urls)
    assert (got[0], got[2]) == (code, err)
    assert [x for x in got[1].splitlines() if urls[2] not in x] == [
        x for x in expected.splitlines() if '"gone.json"' not in x
    ]
    (missing,) = (r for r in map(json.loads, got[1].splitlines()) if r["file"] == urls[2] and "code" in r)
    assert missing["message"] == f"{urls[2]}: no such file"


@pytest.mark.deep
def test_a_url_with_a_wildcard_names_the_objects_it_matches(client: Any) -> None:
    files = {f"/phatlog-glob/{name}": Path(path).read_bytes() for name, path in (("b.json", HELD), ("a.json", CARD))}
    assert _count(CARD) and _count(HELD)
    _fill_memory(files)
    client.run(_fill_memory, files)
    code, out, _ = run(
        "verify", "-f", "json", "--cluster", address(client), "memory://phatlog-glob/*.json", "memory://none/*.json"
    )
    rows = _diagnostics(out)
    assert [r["file"] for r in rows if r["code"] != "PL001"] == [
        *(["memory:///phatlog-glob/a.json"] * _count(CARD)),
        *(["memory:///phatlog-glob/b.json"] * _count(HELD)),
    ]
    assert rows[-1]["message"] == "memory://none/*.json: no such file" and code == 2


def _count(path: str) -> int:
    return len(_diagnostics(run("verify", "-f", "json", path)[1]))


def _diagnostics(out: str) -> list[dict[str, Any]]:
    """The diagnostic lines of ``verify -f json`` output (not the record lines)."""
    return [row for row in map(json.loads, out.splitlines()) if row["kind"] == "diagnostic"]


# ------------------------------------------------------------------------------------------- faults


@pytest.mark.deep
def test_a_part_that_fails_every_time_is_reported_not_dropped(
    client: Any, archive: Path, small_parts: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = dist.verify_piece
    tries = tmp_path / "tries"
    tries.mkdir()

    def failing(piece: Piece, replay: bool, detail: int = 0, fingerprints: int = 0) -> BatchResult:
        if any(line == 17 for line, _ in piece.items):
            (tries / str(len(list(tries.iterdir())))).touch()
            raise OSError("the object store hung up")
        return real(piece, replay, detail, fingerprints)

    monkeypatch.setattr(dist, "verify_piece", failing)
    args = ["verify", "-f", "json", "--max-bytes", str(MAX_BYTES), str(archive)]
    code, out, _ = run(*args[:1], "--cluster", address(client), *args[1:])
    rows = _diagnostics(out)
    assert code == 2
    assert [(r["code"], r.get("line")) for r in rows] == [
        ("PL002", 4),
        ("PL880", None),  # where line 17's PL107 was: the part that holds it, by its byte range
        ("PL003", 23),
        *[(r["code"], r.get("line")) for r in _diagnostics(run(*args)[1]) if r.get("line", 0) > 23],
    ]
    message = rows[1]["message"]
    assert message.startswith(f"{archive}: bytes ") and message.endswith("after a retry: the object store hung up")
    start, end = (int(x.replace(",", "")) for x in message.split("bytes ")[1].split(" (")[0].split(" to "))
    offset = archive.read_bytes().index(b'"game":"phot"')
    assert end - start == dist.PARTITION_BYTES and start <= offset + 2000  # the range of line 17's start
    assert len(list(tries.iterdir())) == 2  # tried, and tried once more


@pytest.mark.deep
def test_a_worker_that_dies_mid_part_is_replaced_and_the_part_checked_again(
    client: Any, archive: Path, small_parts: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    marker = tmp_path / "died"
    real = dist.verify_piece

    def dying(piece: Piece, replay: bool, detail: int = 0, fingerprints: int = 0) -> BatchResult:
        if any(line == 31 for line, _ in piece.items) and not marker.exists():
            marker.touch()
            os._exit(1)  # the worker process dies, mid-part
        return real(piece, replay, detail, fingerprints)

    monkeypatch.setattr(dist, "verify_piece", dying)
    args = ["verify", "-f", "json", "--max-bytes", str(MAX_BYTES), str(archive)]
    assert run(*args[:1], "--cluster", address(client), *args[1:]) == run(*args)
    assert marker.exists()


def test_without_dask_cluster_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, archive: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, _, err = run("verify", "--cluster", "local:2", str(archive))
    assert code == 2 and "pip install 'phatlog[dask]'" in err


@pytest.mark.parametrize(
    ("cluster", "inputs", "says"),
    [("local:0", ["x.jsonl"], "local:N takes a number"), ("local:1", ["-"], "standard input")],
)
def test_cluster_usage_errors(cluster: str, inputs: list[str], says: str) -> None:
    code, _, err = run("verify", "--cluster", cluster, *inputs)
    assert code == 2 and says in err


def test_phatlog_imports_no_dask() -> None:
    script = (
        "import sys, phatlog.cli.app; print([m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')])"
    )
    assert subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout == "[]\n"


@pytest.mark.deep
def test_another_command_plugs_in_its_own_map_and_merge(client: Any, archive: Path, small_parts: None) -> None:
    """The layer is generic: here a map that keeps each part's line numbers, merged in order."""

    def lines(piece: Piece) -> list[int | None]:
        return [line for line, _ in piece.items]

    parts = plan([str(archive), SAMPLES[0]], dist.PARTITION_BYTES)
    merged = [line for _, partial in dist.partials(client, parts, lines) for line in partial]  # type: ignore[union-attr]
    blank = [line for line, fault in FAULTS.items() if fault in ("blank", "spaces")]
    assert merged == [n for n in range(1, 51) if n not in blank] + [None]


# ----------------------------------------------------------------------------- reading parts (no cluster)


@given(
    lines=st.lists(st.sampled_from([b"", b" ", b"{}", b"[1,2]", b"x" * 30, b"\r"]), max_size=40),
    tail=st.booleans(),
    size=st.integers(1, 50),
)
def test_parts_tile_the_file_with_its_real_line_numbers(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], tail: bool, size: int
) -> None:
    data = b"\n".join(lines) + (b"\n" if tail and lines else b"")
    path = tmp_path_factory.mktemp("tile") / "a.jsonl"
    path.write_bytes(data)
    with path.open("rb") as f:
        expected = [(n, raw) for n, raw, _ in read_lines(f, 20) if raw is None or raw.strip()]
    total = len(list(read_lines(path.open("rb"), 20)))
    got: list[tuple[int | None, bytes | None]] = []
    first = 1
    for part in plan([str(path)], size, ReadLimits(20)):
        got += read_piece(part, first).items
        first += count_lines(part)
    assert got == expected
    assert first - 1 == total


def test_a_piece_is_checked_by_the_batch_function_of_jobs() -> None:
    """verify_piece is run_batch: one referee path for a local run, --jobs and a cluster."""
    path = SAMPLES[0]
    whole = dist.verify_piece(read_piece(plan([path], limits=ReadLimits(1 << 20))[0], 1), True)
    (local,) = check_all([path], True)
    assert (whole.records, whole.deals, whole.clean, whole.codes) == (
        local.records,
        local.deals,
        local.clean,
        local.codes,
    )
    assert (
        "run_batch" in dist.verify_piece.__code__.co_names and dist.verify_piece.__globals__["run_batch"] is run_batch
    )


# ----------------------------------------------------------------------------------------- the API


@pytest.mark.deep
def test_the_python_api_gives_the_reports_of_a_local_run(client: Any, archive: Path) -> None:
    import phatlog.dask

    local = [r for b in check_all([str(archive)], True, ReadLimits(MAX_BYTES)) for r in b.reports]
    checked = phatlog.dask.verify(str(archive), max_bytes=MAX_BYTES, partition_bytes=6000)
    reports, total = dask.compute(checked.reports, checked.summary)
    assert [(r.source, r.line, r.diagnostics) for r in reports] == [(r.source, r.line, r.diagnostics) for r in local]
    assert (total.records, total.problems, total.unreadable) == (47, 2, 2)  # 50 lines, 3 blank

    lines = dask_bag.from_sequence(archive.read_text(encoding="utf-8").splitlines(), npartitions=5)
    reports, total = dask.compute(*phatlog.dask.verify(lines, max_bytes=MAX_BYTES, source=str(archive)))
    assert [(r.line, r.diagnostics) for r in reports] == [(r.line, r.diagnostics) for r in local]


def test_a_part_is_planned_whole_for_a_record_file() -> None:
    (part,) = plan([SAMPLES[0]])
    assert part == Part(
        SAMPLES[0], os.path.abspath(SAMPLES[0]), 0, os.path.getsize(SAMPLES[0]), whole=True, limits=ReadLimits()
    )


# ----------------------------------------------- select, fingerprint, standings, stats: --cluster as locally

EVENTS = "samples/events"


@pytest.fixture(scope="module")
def readable(archive: Path) -> Path:
    """The faulty archive without its unreadable lines (select writes nothing when one cannot be read),
    with line 2 repeated at its end: a copy in another part, for --dedupe."""
    lines = archive.read_text(encoding="utf-8").split("\n")
    lines[3] = ""  # the truncated line
    lines[22] = lines[22].rstrip()  # the line "too long" for MAX_BYTES: here only padded
    path = archive.parent / "readable.jsonl"
    path.write_text("\n".join(lines) + lines[1] + "\n", encoding="utf-8")
    return path


def _same(client: Any, *args: str) -> tuple[int, str, str]:
    """Run a command here and on the cluster: the same exit code, output and errors."""
    local = run(*args)
    assert run(args[0], "--cluster", address(client), *args[1:]) == local
    return local


@pytest.mark.deep
@pytest.mark.parametrize(
    "args",
    [
        ["fingerprint", "--deals"],
        ["standings", "-f", "json"],
        ["stats", "-f", "json", "--by", "game"],
        ["stats", "-f", "text", "--player", "Ann"],
    ],
    ids=lambda a: "-".join(a),
)
def test_commands_give_the_same_output_as_a_local_run(
    client: Any, archive: Path, small_parts: None, tmp_path: Path, args: list[str]
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n \n", encoding="utf-8")
    inputs = [*SAMPLES, EVENTS, str(archive), str(empty), str(tmp_path / "gone.jsonl")]
    code, out, _ = _same(client, *args, *inputs)
    assert code == 2 and out  # the missing file, and the unreadable lines: but every record's output
    assert len(plan([str(archive)], dist.PARTITION_BYTES)) > 20


@pytest.mark.deep
@pytest.mark.parametrize(
    "args",
    [
        ["--player", "A*"],
        ["--status", "problems"],
        ["--code", "PL107", "--code", "PL302"],
        ["--dedupe"],
        ["--game", "phat", "--since", "2000-01-01"],
    ],
    ids=lambda a: "-".join(a),
)
def test_select_writes_the_same_bytes_as_a_local_run(
    client: Any, readable: Path, small_parts: None, tmp_path: Path, args: list[str]
) -> None:
    inputs = [str(readable), *SAMPLES[:3], EVENTS]
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    local = run("select", "-o", str(here), *args, *inputs)
    assert run("select", "-o", str(there), "--cluster", address(client), *args, *inputs) == local
    assert here.read_bytes() == there.read_bytes()
    assert local[0] in (0, 1) and (here.read_bytes() or "--since" in args)
    if args == ["--dedupe"]:
        lines = here.read_bytes().splitlines()
        assert len(lines) == len(set(lines))  # line 2's copy at the end, many parts on, is dropped


@pytest.mark.deep
def test_select_count_and_split_as_locally(client: Any, readable: Path, small_parts: None, tmp_path: Path) -> None:
    inputs = [str(readable), *SAMPLES[:12], EVENTS]
    _same(client, "select", "--count", "--split-by", "player", *inputs)
    here, there = tmp_path / "here", tmp_path / "there"
    local = run("select", "--split-by", "game", "-o", str(here), *inputs)
    assert run("select", "--split-by", "game", "-o", str(there), "--cluster", address(client), *inputs) == local
    names = sorted(p.name for p in here.iterdir())
    assert names == sorted(p.name for p in there.iterdir()) and len(names) > 1
    assert all((here / n).read_bytes() == (there / n).read_bytes() for n in names)


@pytest.mark.deep
def test_select_writes_nothing_when_a_part_fails(
    client: Any, readable: Path, small_parts: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A part that fails twice is an input that cannot be read (PL880): nothing written, exit 2."""
    real = dist.batch_piece

    def failing(work: Any, arg: Any, piece: Piece) -> Any:
        if any(line == 17 for line, _ in piece.items):
            raise OSError("the object store hung up")
        return real(work, arg, piece)

    monkeypatch.setattr(dist, "batch_piece", failing)
    out = tmp_path / "out.jsonl"
    code, _, err = run("select", "-o", str(out), "--cluster", address(client), str(readable))
    assert code == 2 and not out.exists() and "nothing written" in err and f"{readable}: cannot be read" in err
    code, stdout, err = run("fingerprint", "--cluster", address(client), str(readable))
    assert code == 2 and "PL880" in err
    assert len(stdout.splitlines()) < len(run("fingerprint", str(readable))[1].splitlines())


@pytest.mark.parametrize(
    "args",
    [
        ["select", "-o", "OUT"],
        ["fingerprint"],
        ["standings", "-f", "json"],
        ["stats", "-f", "json"],
        ["select", "-o", "-"],
    ],
)
def test_a_cluster_that_cannot_be_used_is_a_usage_error_before_any_output(args: list[str], tmp_path: Path) -> None:
    args = [str(tmp_path / "out.jsonl") if a == "OUT" else a for a in args]
    for cluster, inputs, says in [
        ("local:0", SAMPLES[:2], "local:N takes a number"),
        ("local:1", ["-"], "standard input"),
    ]:
        code, out, err = run(args[0], "--cluster", cluster, *args[1:], *inputs)
        assert (code, out) == (2, "") and says in err
    assert not (tmp_path / "out.jsonl").exists()


def test_stats_parts_merge_to_the_whole() -> None:
    """Stats of two parts merged, in order, are the stats of all the records at once."""
    from phatlog.archive.check import batches
    from phatlog.cli.stats import stats_batch

    paths = [*glob.glob("samples/games/*.json"), EVENTS]
    whole = stats_batch(_one_batch(paths), ("all", None)).stats
    merged = None
    for batch in batches(paths, ReadLimits(1 << 20)):
        part = stats_batch(batch, ("all", None)).stats
        if merged is None:
            merged = part
        else:
            merged.merge(part)
    assert merged is not None and merged.as_json() == whole.as_json()


def _one_batch(paths: list[str]) -> Any:
    """Every record of ``paths`` in one batch (their lines, whole files read as one line)."""
    from phatlog.archive.check import Batch, batches

    items: list[tuple[int | None, bytes | None]] = []
    for batch in batches(paths, ReadLimits(1 << 20)):
        assert not batch.ready
        items += [(None, Path(batch.source).read_bytes())] if batch.whole else batch.items
    return Batch("all", items, limits=ReadLimits(1 << 20))


@pytest.mark.deep
@pytest.mark.parametrize("args", [["verify", "-f", "json", "-v"], ["fingerprint", "--deals"], ["stats", "-f", "json"]])
def test_a_text_notation_file_is_read_game_by_game_as_locally(client: Any, tmp_path: Path, args: list[str]) -> None:
    """A .txt file's games are records on a cluster too (its worker reads the text notation), with their
    lines: the same output as a local run, a faulty game included."""
    from phatlog.formats import text

    games = [*simulate("phat", 8, 2), *simulate("oh_hell", 8, 1, players=4)]
    games[1]["deals"][0]["score"]["points"][0] += 1
    path = tmp_path / "games.txt"
    with path.open("w", encoding="utf-8") as f:
        text.dump(games, f)
    code, out, _ = _same(client, *args, str(path))
    assert code == (0 if args[0] == "fingerprint" else 1) and out and "PL002" not in out


@pytest.mark.deep
def test_a_service_that_is_not_a_scheduler_is_refused_in_one_line(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """An HTTP server (silent until asked) and a service that greets in text are not Dask schedulers:
    "cannot reach a Dask scheduler", exit 2, at once (Dask itself read their bytes as a frame length and
    waited, or asked for gigabytes); a real scheduler passes the probe."""
    import http.server
    import socket
    import threading

    dist.probe(client.scheduler.address)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    banner = socket.create_server(("127.0.0.1", 0))

    def greet() -> None:
        conn, _ = banner.accept()
        conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
        conn.close()

    threading.Thread(target=greet, daemon=True).start()
    try:
        for port, why in ((server.server_address[1], "said nothing"), (banner.getsockname()[1], "Dask's protocol")):
            with pytest.raises(OSError, match=why):
                dist.probe(f"tcp://127.0.0.1:{port}", seconds=0.5)
        http_port = server.server_address[1]
        monkeypatch.setattr(dist, "PROBE_SECONDS", 0.5)
        result = CliRunner().invoke(app, ["verify", "--cluster", f"tcp://127.0.0.1:{http_port}", CARD])
        assert result.exit_code == 2
        assert "cannot reach a Dask scheduler there" in result.output and "not a Dask scheduler" in result.output
        assert "Traceback" not in result.output
    finally:
        server.shutdown()
        banner.close()


def test_local_workers_are_capped_at_the_processors() -> None:
    from phatlog.archive.check import cpus

    assert dist.capped("local:64") == (f"local:{cpus()}", cpus()) or cpus() >= 64
    assert dist.capped("local:1") == ("local:1", None)
    assert dist.capped("tcp://host:8786") == ("tcp://host:8786", None)
