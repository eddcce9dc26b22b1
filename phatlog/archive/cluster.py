"""Checking on a Dask cluster: inputs read through fsspec URLs, cut into byte ranges, results in input order.

The generic layer is a partitioned map: the inputs are planned into :class:`Part` s (a byte range of a
JSON Lines archive that starts and ends on line boundaries, or a whole one-record file); a worker reads
its part into a :class:`Piece` (its lines with their real line numbers) and runs a *map* function on it,
which returns a partial result; the partials come back in input order, for the caller to merge and emit.
``verify`` and ``validate`` plug in :func:`verify_piece` (the very :func:`phatlog.archive.check.run_batch` that
``--jobs`` runs: one referee path), and the CLI merges the :class:`~phatlog.archive.check.BatchResult` s as it
merges a local run's. Any other command plugs in its own map and merge (docs/distributed.md).

Line numbers: a part's first line is one more than the lines that start in the parts before it, so each
part but the last of a file is first *counted* (a newline count of its bytes, far cheaper than checking
them), and a part is checked once its first line is known. Counting runs a few parts ahead of checking.

Faults: every task may run twice (``retries``); a part that still fails is reported as unreadable for its
byte range (PL880), never dropped; an input that cannot be opened is reported as a missing file is
(PL001). Dask, distributed and fsspec are optional (``phatlog[dask]``): nothing here imports them before
it is used, and :class:`ClusterUnavailable` says how to install them.
"""

from __future__ import annotations

import importlib
import io
import logging
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, TypeVar

from phatlog.archive import inputs
from phatlog.archive.check import (
    NO_DETAIL,
    Batch,
    BatchResult,
    DocumentReport,
    check_loaded,
    run_batch,
)
from phatlog.archive.inputs import JSONL_SUFFIXES, Unmatched
from phatlog.diagnostics import Diagnostic, diag
from phatlog.record.read_limits import DEFAULT_READ_LIMITS, ReadLimits
from phatlog.record.reader import Loaded, read_limited, read_lines, unreadable_input
from phatlog.record.streams import compression, decompressed, notation

#: The bytes of an archive in one part (a task): large enough that Dask's cost a part (a few milliseconds)
#: is small beside the checking (about 0.1 s of one core), small enough to spread one file over a cluster.
PARTITION_BYTES: Final = 8 << 20
#: A task that fails runs once more (a worker that dies mid-part: its part runs again on another).
RETRIES: Final = 1
#: How far ahead of the part being merged the parts are submitted, per worker thread.
AHEAD: Final = 3
_READ: Final = 1 << 20

R = TypeVar("R")
T = TypeVar("T")
A = TypeVar("A")
X = TypeVar("X")


class ClusterUnavailable(Exception):
    """The cluster cannot be used: the extra is not installed, the address is wrong, or no worker answers.

    The message says what to do; the CLI prints it and exits 2 (a usage error)."""


@dataclass(frozen=True, slots=True)
class Part:
    """One unit of work: bytes ``start`` to ``end`` of an archive (the lines that *start* in that range),
    a whole one-record file (``whole``), or an input that could not be opened (``problem``); with the
    limits its records are read under (``limits``), which go with it to the worker."""

    source: str  # as the user wrote it: what every diagnostic names
    url: str  # what a worker opens (a local path made absolute)
    start: int = 0
    end: int = 0
    whole: bool = False
    first: bool = True  # the first part of its input
    last: bool = True  # the last part of its input
    problem: Diagnostic | None = None
    limits: ReadLimits = field(kw_only=True)


@dataclass(slots=True)
class Piece:
    """A part as read by a worker: its non-blank lines with their real numbers (``None`` for a line over
    the size limit), or the one record of a whole file (line ``None``), what went wrong reading, and the
    part's limits (the batch made of it carries them on)."""

    source: str
    items: list[tuple[int | None, bytes | None]] = field(default_factory=list)
    size: int = 0
    problems: list[Diagnostic] = field(default_factory=list)
    text: bytes | None = None  # a whole file in the text notation: its games are read where it is checked
    limits: ReadLimits = field(kw_only=True)


@dataclass(frozen=True, slots=True)
class Failed:
    """A part whose task failed on every try: reported for its byte range, never dropped."""

    part: Part
    error: str

    def diagnostic(self) -> Diagnostic:
        p = self.part
        where = "the file" if p.whole else f"bytes {p.start:,} to {p.end:,} (the lines that start there)"
        return diag("PL880", f"{p.source}: {where} could not be checked on the cluster, after a retry: {self.error}")


# ------------------------------------------------------------------------------------------- planning


def _fs(url: str) -> tuple[Any, str]:
    """The filesystem of a URL and the path within it. A plain path (no scheme) is that very local file,
    never read as fsspec's ``a::b`` chaining or a protocol."""
    if not _is_url(url):
        import fsspec.implementations.local

        return fsspec.implementations.local.LocalFileSystem(), url
    import fsspec.core

    return fsspec.core.url_to_fs(url)  # type: ignore[no-any-return]


#: A URL: a scheme (fsspec's chained ``simplecache::s3``, too) and ``://``.
_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*(::[A-Za-z][A-Za-z0-9+.-]*)*://")


def _is_url(path: str) -> bool:
    return _URL.match(path) is not None


def plan(
    paths: Iterable[str], partition_bytes: int = PARTITION_BYTES, limits: ReadLimits = DEFAULT_READ_LIMITS
) -> list[Part]:
    """The parts of ``paths``, in input order, each carrying ``limits``: an archive (``.jsonl``,
    ``.ndjson``) cut every ``partition_bytes``, any other input whole; an input that cannot be opened
    becomes a part that says why (PL001, as a missing file is). Only sizes are looked up here: no input is
    read."""
    parts: list[Part] = []
    for item in _expand(paths):
        if isinstance(item, Unmatched):  # a local pattern that matched nothing, a directory without records
            parts.append(Part(item.path, item.path, problem=item.diagnostic, limits=limits))
            continue
        path = item
        url = path if _is_url(path) else os.path.abspath(path)
        try:
            fs, inner = _fs(url)
            info = fs.info(inner)
        except FileNotFoundError:
            parts.append(Part(path, url, problem=diag("PL001", f"{path}: no such file"), limits=limits))
            continue
        except PermissionError:
            parts.append(Part(path, url, problem=diag("PL001", f"{path}: permission denied"), limits=limits))
            continue
        except Exception as exc:  # any filesystem's own error (network, credentials, a bad URL)
            parts.append(Part(path, url, problem=diag("PL001", f"{path}: {_reason(exc)}"), limits=limits))
            continue
        if info.get("type") == "directory":
            problem = diag("PL001", f"{path} is a directory, not a record file")
            parts.append(Part(path, url, problem=problem, limits=limits))
            continue
        size = int(info.get("size") or 0)
        if not path.endswith(JSONL_SUFFIXES):
            if size > limits.max_bytes:
                message = (
                    f"{path} is {size:,} bytes; the limit for one record is {limits.max_bytes:,} (see --max-bytes)"
                )
                parts.append(Part(path, url, problem=diag("PL003", message), limits=limits))
            else:
                parts.append(Part(path, url, 0, size, whole=True, limits=limits))
            continue
        starts = list(range(0, size, max(1, partition_bytes))) or [0]
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else size
            parts.append(Part(path, url, start, end, first=i == 0, last=i + 1 == len(starts), limits=limits))
    return parts


def _expand(paths: Iterable[str]) -> Iterator[str | Unmatched]:
    """Each path, and each URL with a wildcard (``s3://games/2026-*.jsonl``: no shell expands those) as
    the objects it matches, in name order. A URL pattern that matches nothing stays, to be reported
    missing. Local paths go through :func:`phatlog.archive.inputs.expand`, as a local run's do (directories
    walked, unmatched patterns reported once)."""
    for path in paths:
        if not _is_url(path):
            yield from inputs.expand([path])
            continue
        if not any(c in path for c in "*?["):
            yield path
            continue
        try:
            fs, inner = _fs(path)
            matches = sorted(fs.glob(inner))
        except Exception:
            matches = []
        if not matches:
            yield path
        for match in matches:
            yield str(fs.unstrip_protocol(match))


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return str(text).splitlines()[0] if str(text).strip() else type(exc).__name__


# ------------------------------------------------------------------------------------ on the workers


def count_lines(part: Part) -> int:
    """How many lines start in the part's range (which ends at the file's end at the latest): a line starts
    at 0 and after every newline but the last byte's. Reads the range once, a block at a time, holding nothing."""
    fs, inner = _fs(part.url)
    begin = max(part.start - 1, 0)
    lines = 1 if part.start == 0 and part.end > 0 else 0
    with fs.open(inner, "rb") as f:
        stop = part.end - 1  # a newline at byte end - 1 starts a line at end: the next part's (or none, at the end)
        f.seek(begin)
        at = begin
        while at < stop:
            block = f.read(min(_READ, stop - at))
            if not block:
                break
            lines += block.count(b"\n")
            at += len(block)
    return lines


def read_piece(part: Part, first_line: int) -> Piece:
    """Read a part: the lines that start in its range, numbered from ``first_line`` as :func:`read_lines`
    numbers a local archive's (the same function reads them), or a whole file's bytes up to the limit."""
    max_bytes = part.limits.max_bytes
    piece = Piece(part.source, size=part.end - part.start, limits=part.limits)
    if part.problem is not None:
        piece.problems.append(part.problem)
        return piece
    fs, inner = _fs(part.url)
    if part.whole:
        try:
            with fs.open(inner, "rb") as f:
                data = read_limited(f, max_bytes, part.end)
        except FileNotFoundError:
            piece.problems.append(diag("PL001", f"{part.source}: no such file"))
            return piece
        if data is None:
            message = f"{part.source} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)"
            piece.problems.append(diag("PL003", message))
        elif notation(part.source) == "jsonl":  # a compressed archive, read whole: its lines here
            _compressed_lines(piece, data, first_line)
        elif notation(part.source) != "json" or compression(part.source) is not None:
            piece.text = data  # read as a local run reads the file (checked in ``whole``)
        else:
            piece.items.append((None, data))
        return piece
    with io.BufferedReader(fs.open(inner, "rb"), _READ) as f:
        if part.start > 0:  # skip the line that holds byte start - 1: it belongs to the part before
            f.seek(part.start - 1)
            while True:
                rest = f.readline(_READ)
                if not rest or rest.endswith(b"\n"):
                    break
        at = f.tell()
        if at >= part.end:
            return piece
        for number, raw, size in read_lines(f, max_bytes):
            if raw is None or raw.strip():
                piece.items.append((first_line + number - 1, raw))
            at += size
            if at >= part.end:
                break
    return piece


def _compressed_lines(piece: Piece, data: bytes, first_line: int) -> None:
    """The lines of a compressed archive's bytes as a piece's items (or what stops its decompression)."""
    source = piece.source
    kind = compression(source)
    assert kind is not None
    try:
        with decompressed(io.BytesIO(data), kind) as f:
            for number, raw, _ in read_lines(f, piece.limits.max_bytes):
                if raw is None or raw.strip():
                    piece.items.append((first_line + number - 1, raw))
    except OSError as exc:
        piece.problems.append(unreadable_input(source, exc))


def run_part(work: Callable[[Piece], R], part: Part, first_line: int) -> R:
    """One task: read the part, then map it (on a worker; any exception makes Dask try again)."""
    return work(read_piece(part, first_line))


def verify_piece(piece: Piece, replay: bool, detail: int = NO_DETAIL, fingerprints: int = 0) -> BatchResult:
    """The map of ``verify`` (``replay``) and ``validate``: the batch function of the local ``--jobs`` path."""
    ready = [check_loaded(Loaded(piece.source, None, [d]), replay) for d in piece.problems]
    for report in ready:
        report.unreadable = True
    batch = Batch(
        piece.source, piece.items, piece.size, ready, whole=piece.text is not None, data=piece.text, limits=piece.limits
    )
    return run_batch(batch, replay, detail, fingerprints)


# ------------------------------------------------------------------------------------ on the client


def partials(
    client: Any,
    parts: list[Part],
    work: Callable[[Piece], R],
    retries: int = RETRIES,
    ahead: int | None = None,
) -> Iterator[tuple[Part, R | Failed]]:
    """Map every part on the cluster and yield ``(part, partial)`` in input order, as they are ready.

    ``work`` must be picklable (a module-level function, or a :func:`functools.partial` of one). A part
    whose task failed ``retries + 1`` times comes as :class:`Failed`; so do the parts after one whose
    line count failed (their line numbers would be wrong), each for its own range. At most ``ahead``
    parts are in flight: memory on the client stays flat however many parts there are.
    """
    window = max(2, ahead if ahead is not None else AHEAD * _threads(client))
    counts: dict[int, Any] = {}
    pending: deque[tuple[Part, Any]] = deque()
    first_line, lost, counted = 1, "", 0

    def count_ahead(upto: int) -> None:
        nonlocal counted
        for j in range(counted, min(upto, len(parts))):
            p = parts[j]
            counts[j] = None if p.last or p.whole or p.problem else _submit(client, count_lines, p, retries=retries)
        counted = max(counted, min(upto, len(parts)))

    try:
        for i, part in enumerate(parts):
            count_ahead(i + 2 * window)
            if part.first:
                first_line, lost = 1, ""
            elif not lost:
                try:
                    first_line += _result(counts[i - 1])
                except Exception as exc:
                    lost = f"the lines before it could not be counted: {_reason(exc)}"
            counts.pop(i - 1, None)
            if lost:
                pending.append((part, Failed(part, lost)))
            elif part.problem is not None:  # nothing to read: decided here
                pending.append((part, _Now(work(read_piece(part, 1)))))
            else:
                pending.append((part, _submit(client, run_part, work, part, first_line, retries=retries)))
            while len(pending) >= window or (pending and _done(pending[0][1])):
                yield _collect(*pending.popleft())
        while pending:
            yield _collect(*pending.popleft())
    finally:
        for _, fut in pending:
            if not isinstance(fut, (Failed, _Now)):
                fut.cancel()
        for fut in counts.values():
            if fut is not None:
                fut.cancel()


def _submit(client: Any, fn: Callable[..., Any], *args: Any, retries: int) -> Any:
    return client.submit(fn, *args, retries=retries, pure=False)


def _result(fut: Any) -> Any:
    return fut.result()


@dataclass(frozen=True, slots=True)
class _Now:
    """A partial decided on the client, in the queue of futures."""

    value: Any


def _done(fut: Any) -> bool:
    return isinstance(fut, (Failed, _Now)) or bool(fut.done())


def _collect(part: Part, fut: Any) -> tuple[Part, Any]:
    if isinstance(fut, Failed):
        return part, fut
    if isinstance(fut, _Now):
        return part, fut.value
    try:
        return part, fut.result()
    except Exception as exc:  # the task failed every try, or its worker died every time
        return part, Failed(part, _reason(exc))


def _threads(client: Any) -> int:
    try:
        return max(1, int(sum(client.nthreads().values())))
    except Exception:
        return 1


def merge_verify(results: Iterable[tuple[Part, BatchResult | Failed]]) -> Iterator[BatchResult]:
    """The partials of ``verify`` as the local path gives them: a failed part becomes an unreadable report
    (PL880), and an archive in which no record starts gets PL006 at its end, as a local run reports it."""
    records = 0
    for part, result in results:
        if part.first:
            records = 0
        if isinstance(result, Failed):
            result = failed_result(result)
        records += result.records
        yield result
        if part.last and not part.whole and part.problem is None and records == 0:
            empty = BatchResult()
            report = DocumentReport(part.source, None, [diag("PL006", f"{part.source} holds no records")], True)
            empty.add(report)
            yield empty


def failed_result(failed: Failed) -> BatchResult:
    """A failed part as a batch result: one unreadable report (PL880) for its byte range."""
    result = BatchResult(size=failed.part.end - failed.part.start)
    result.add(DocumentReport(failed.part.source, None, [failed.diagnostic().located(())], unreadable=True))
    return result


# ------------------------------------------------------------------------------------ the cluster


def capped(address: str) -> tuple[str, int | None]:
    """``address`` with a ``local:N`` of more workers than there are processors cut to the processors (as
    ``--jobs`` is: more processes only share the same cores, and dozens of them time out starting), and
    the processors where it was cut (else None)."""
    from phatlog.archive.check import cpus

    count = address.removeprefix("local:")
    if address.startswith("local:") and count.isdigit() and int(count) > (available := cpus()):
        return f"local:{available}", available
    return address, None


def connect(address: str) -> tuple[Any, Callable[[], None]]:
    """A client of the cluster at ``address`` (``tcp://host:8786``, a scheduler file's path ending in
    ``.json``), or of a new ``LocalCluster`` of N worker processes for ``local:N``; and how to close it."""
    try:
        dask: Any = importlib.import_module("dask")
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ClusterUnavailable(
            f"--cluster needs Dask, which is not installed ({exc.name or exc}): pip install 'phatlog[dask]'"
        ) from exc
    if address.startswith("local:"):
        count = capped(address)[0].removeprefix("local:")
        if not count.isdigit() or int(count) < 1:
            raise ClusterUnavailable(f"--cluster local:N takes a number of workers N >= 1, not {address!r}")
        with dask.config.set({"distributed.scheduler.allowed-failures": RETRIES, "logging.distributed": "error"}):
            cluster = distributed.LocalCluster(
                n_workers=int(count),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # no fixed port: two runs at once do not collide
                silence_logs=logging.CRITICAL,
            )
            client = distributed.Client(cluster)

        def close_local() -> None:
            client.close()
            cluster.close()

        return client, close_local
    try:
        probe(address)
        with dask.config.set({"distributed.comm.timeouts.connect": "10s"}):
            client = _client(distributed, address)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterUnavailable(f"--cluster {address}: cannot reach a Dask scheduler there ({_reason(exc)})") from exc
    return client, client.close


#: A Dask scheduler greets a new connection at once; one that has said nothing after this long is not one.
PROBE_SECONDS: Final = 5.0
#: The most bytes a scheduler's greeting (its handshake message) is said to take: far more than one does.
GREETING_MOST: Final = 64 << 20


def probe(address: str, seconds: float | None = None) -> None:
    """Raise ``OSError`` unless ``address`` (``tcp://host:port`` or ``host:port``; any other scheme and a
    scheduler file are left to Dask) answers as a Dask scheduler does: it speaks first, a message whose
    first eight bytes are its length. Anything else (an HTTP server waits for a request; another service
    greets with text) would have Dask read its bytes as a frame length, and wait or ask for gigabytes."""
    import socket
    import struct

    seconds = PROBE_SECONDS if seconds is None else seconds
    rest = address.removeprefix("tcp://")
    if "://" in rest or address.endswith(".json"):
        return
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        host, port = rest, "8786"
    host = host.strip("[]")
    with socket.create_connection((host, int(port)), timeout=seconds) as sock:
        sock.settimeout(seconds)
        head = b""
        try:
            while len(head) < 8:
                got = sock.recv(8 - len(head))
                if not got:
                    raise OSError("the service there closed the connection without a greeting: not a Dask scheduler")
                head += got
        except TimeoutError:
            raise OSError(f"the service there said nothing within {seconds:g} s: not a Dask scheduler") from None
    (length,) = struct.unpack("<Q", head)
    if not 8 < length <= GREETING_MOST:
        raise OSError("the service there does not speak Dask's protocol: not a Dask scheduler")


def map_in_order(work: Callable[[X], R], items: list[X], address: str) -> Iterator[R]:
    """``work(item)`` for every item on the cluster at ``address``, results in order as each is done
    (``analyse``'s deals); :class:`ClusterUnavailable` at once if the cluster cannot be used."""
    client, close = connect(address)

    def results() -> Iterator[R]:
        futures = [_submit(client, work, item, retries=RETRIES) for item in items]
        try:
            for fut in futures:
                yield _result(fut)
        finally:
            for fut in futures:
                fut.cancel()

    return _closing(results(), close)


def _client(distributed: Any, address: str) -> Any:
    if address.endswith(".json"):
        return distributed.Client(scheduler_file=address, timeout="10s")
    return distributed.Client(address, timeout="10s")


def check_on_cluster(
    paths: list[str],
    replay: bool,
    limits: ReadLimits,
    address: str,
    partition_bytes: int | None = None,
    detail: int = NO_DETAIL,
    fingerprints: int = 0,
) -> Iterator[BatchResult]:
    """``verify`` (``replay``) or ``validate`` of ``paths`` on the cluster at ``address``: what
    :func:`phatlog.archive.check.check_all` gives for a local run, batch results in input order.

    Raises :class:`ClusterUnavailable` at once (before the first result) if the cluster cannot be used
    or an input is standard input (a stream cannot be cut into ranges for other machines to read).
    """
    client, close, parts = _open(paths, address, partition_bytes, limits)
    work = partial(verify_piece, replay=replay, detail=detail, fingerprints=fingerprints)
    return _closing(merge_verify(partials(client, parts, work)), close)


def _open(
    paths: list[str], address: str, partition_bytes: int | None, limits: ReadLimits
) -> tuple[Any, Callable[[], None], list[Part]]:
    """The client of the cluster at ``address``, how to close it, and the parts of ``paths``; raises
    :class:`ClusterUnavailable` for standard input (a stream cannot be cut into ranges for other machines
    to read) or a cluster that cannot be used."""
    if "-" in paths:
        raise ClusterUnavailable("--cluster reads files and URLs; standard input (-) is read by a local run only")
    client, close = connect(address)
    try:
        parts = plan(paths, partition_bytes or PARTITION_BYTES, limits)
    except BaseException:
        close()
        raise
    return client, close, parts


def piece_batch(piece: Piece) -> Batch:
    """A piece as the batch a local run makes of the same lines: its lines with their numbers, and what
    went wrong reading it as reports decided while reading (as :func:`phatlog.archive.check.batches` gives them)."""
    ready = [DocumentReport(piece.source, None, [d], unreadable=True) for d in piece.problems]
    return Batch(
        piece.source, piece.items, piece.size, ready, whole=piece.text is not None, data=piece.text, limits=piece.limits
    )


def batch_piece(work: Callable[[Batch, A], T], arg: A, piece: Piece) -> tuple[int, T]:
    """The map of a command that works on batches (``select``, ``fingerprint``, ``stats``): its own batch
    function on the piece made a batch, with how many records start in the piece (for PL006)."""
    return len(piece.items), work(piece_batch(piece), arg)


def map_on_cluster(
    paths: list[str],
    work: Callable[[Batch, A], T],
    arg: A,
    limits: ReadLimits,
    address: str,
    partition_bytes: int | None = None,
) -> Iterator[T]:
    """:func:`phatlog.archive.check.map_batches` on the cluster at ``address``: ``work(batch, arg)`` for
    every part of the inputs (read under ``limits``), on the workers, the results in input order.

    What a local run reports while reading comes as a batch of such reports, which ``work`` is given on
    the client, so a command treats it as it treats an unreadable record locally: a part that failed twice
    (PL880, for its byte range), an archive in which no record starts (PL006), an input that cannot be
    opened (PL001). ``work`` and ``arg`` must be picklable. Raises :class:`ClusterUnavailable` at once
    (before the first result), as :func:`check_on_cluster` does.
    """
    client, close, parts = _open(paths, address, partition_bytes, limits)
    return _closing(_merge_batches(client, parts, work, arg), close)


def _merge_batches(client: Any, parts: list[Part], work: Callable[[Batch, A], T], arg: A) -> Iterator[T]:
    records = 0
    for part, got in partials(client, parts, partial(batch_piece, work, arg)):
        if part.first:
            records = 0
        if isinstance(got, Failed):
            report = DocumentReport(part.source, None, [got.diagnostic().located(())], unreadable=True)
            records += 1
            yield work(Batch(part.source, [], part.end - part.start, [report], limits=part.limits), arg)
        else:
            records += got[0]
            yield got[1]
        if part.last and not part.whole and part.problem is None and records == 0:
            report = DocumentReport(part.source, None, [diag("PL006", f"{part.source} holds no records")], True)
            yield work(Batch(part.source, [], 0, [report], limits=part.limits), arg)


def _closing(results: Iterator[T], close: Callable[[], None]) -> Iterator[T]:
    try:
        yield from results
    finally:
        logging.disable(logging.CRITICAL)  # no shutdown chatter on standard error: the output is a local run's
        try:
            close()
        finally:
            logging.disable(logging.NOTSET)


__all__ = [
    "PARTITION_BYTES",
    "ClusterUnavailable",
    "Failed",
    "Part",
    "Piece",
    "batch_piece",
    "check_on_cluster",
    "connect",
    "count_lines",
    "failed_result",
    "map_on_cluster",
    "merge_verify",
    "partials",
    "piece_batch",
    "plan",
    "read_piece",
    "run_part",
    "verify_piece",
]
