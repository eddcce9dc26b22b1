"""Checking documents: structure only (``validate``) or structure and replay (``verify``).

Reads files holding one JSON record each, JSON Lines archives (``.jsonl``, ``.ndjson``: one record a
line), directories of them (:mod:`phatlog.archive.inputs`) and standard input (``-``: JSON Lines if its first
line is a whole JSON document and more follow, else one record). Archives are read a line at a time
and cut into batches, so memory stays flat however large the archive; with ``jobs`` > 1 the batches
are checked by that many processes, at most a few batches ahead of the reader, and the results come
back in input order. No printing here: the caller gets a :class:`BatchResult` a batch, with a report
for every record that has something to say.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import stat
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Final, TypeVar

from phatlog.archive.inputs import Unmatched, address, expand
from phatlog.diagnostics import Diagnostic, Severity, diag
from phatlog.events.record import RecordFacts, facts
from phatlog.record.canonical import canonical_bytes, record_keys
from phatlog.record.read_limits import DEFAULT_READ_LIMITS, ReadLimits
from phatlog.record.reader import (
    Loaded,
    read_bytes,
    read_bytes_compressed,
    read_limited,
    read_lines,
    read_path,
    read_plain,
    unreadable_input,
)
from phatlog.record.streams import compression, notation, open_input
from phatlog.referee import claim_budget
from phatlog.referee.games import referee

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")
X = TypeVar("X")

BATCH_LINES: Final = 500


@dataclass(slots=True)
class DocumentReport:
    """The findings for one record: a file, or one line of an archive."""

    source: str
    line: int | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False
    deals: int = 0
    facts: RecordFacts | None = None  # asked for (``detail``): the record's facts, for record lines and standings
    #: With ``fingerprints``: the record's digest (None: not a valid record) and its deals' keys (deal_blob).
    digests: tuple[bytes | None, bytes] | None = None

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def clean(self) -> bool:
        return not self.unreadable and self.errors == 0


@dataclass(slots=True)
class Batch:
    """A unit of work: some lines of one archive (``data`` None: a line over the limit), all of a stream,
    or one whole file (``whole``: read it there), with the limits its records are read under (``limits``:
    whoever reads the batch, here or in a worker, takes them from it)."""

    source: str
    items: list[tuple[int | None, bytes | None]]
    size: int = 0  # bytes of input it covers, for progress
    ready: list[DocumentReport] = field(default_factory=list)  # reports decided while reading
    region: tuple[int, int, int] | None = None  # (offset, length, first line): lines the worker reads itself
    whole: bool = False  # the batch is the file ``source``, one record, read where it is checked
    data: bytes | None = None  # with ``whole``: the file's bytes, read already (on a cluster's worker)
    limits: ReadLimits = field(kw_only=True)


@dataclass(slots=True)
class BatchResult:
    """What a batch found: counts, and the reports of the records that have diagnostics, in order."""

    size: int = 0
    records: int = 0
    deals: int = 0
    clean: int = 0
    problems: int = 0
    unreadable: int = 0
    reports: list[DocumentReport] = field(default_factory=list)
    codes: Counter[str] = field(default_factory=Counter)
    keep_all: bool = False  # keep every record's report, clean or not (``detail``)
    #: With ``fingerprints``: (source, line, record digest, deal keys) of every record, in order.
    digests: list[tuple[str, int | None, bytes | None, bytes]] = field(default_factory=list)

    def count(self, other: BatchResult) -> None:
        """Add another batch's counts to these (not its reports): the totals of a run."""
        self.size += other.size
        self.records += other.records
        self.deals += other.deals
        self.clean += other.clean
        self.problems += other.problems
        self.unreadable += other.unreadable
        self.codes.update(other.codes)

    def add_clean(self, source: str, line: int | None, deals: int, digests: tuple[bytes | None, bytes] | None) -> None:
        """Count a record found clean with no report made for it (``run_batch``'s shortcut): what ``add``
        does with a clean report."""
        self.records += 1
        self.clean += 1
        self.deals += deals
        if digests is not None:
            self.digests.append((source, line, *digests))

    def add(self, report: DocumentReport) -> None:
        self.records += 1
        if report.digests is not None:
            self.digests.append((report.source, report.line, *report.digests))
            report.digests = None
        self.deals += report.deals
        if report.unreadable:
            self.unreadable += 1
        elif not report.diagnostics or report.clean:
            self.clean += 1
        else:
            self.problems += 1
        if report.diagnostics or self.keep_all:
            self.reports.append(report)
            self.codes.update(d.code for d in report.diagnostics)


#: ``detail``: no facts, or the record's facts (record lines, standings).
NO_DETAIL: Final = 0
FACTS: Final = 1


def check_loaded(
    loaded: Loaded, replay: bool, line: int | None = None, detail: int = NO_DETAIL, fingerprints: int = 0
) -> DocumentReport:
    """Check one read document: its read diagnostics, then (``replay``) the referee's.

    ``detail`` keeps the record's facts from the same verdict (:mod:`phatlog.events.record`);
    ``fingerprints`` 1: its digest too, 2: its deals' keys as well (for :mod:`phatlog.archive.duplicates`)."""
    found = loaded.diagnostics
    record = loaded.record
    report = DocumentReport(loaded.source, line, list(found), bool(found) and loaded.unreadable)
    if fingerprints:
        report.digests = (None, b"") if record is None else digests(record, fingerprints > 1)
    if record is not None:
        report.deals = len(record.deals)
        if replay:
            verdict = referee(record)
            report.diagnostics.extend(verdict.diagnostics)
            if detail:
                report.facts = facts(record, verdict)
        else:
            if detail:
                report.facts = facts(record, None)
            names = loaded.names
            report.diagnostics = [d.located(names) for d in report.diagnostics]
    else:
        report.diagnostics = [d.located(()) for d in report.diagnostics]
    if line is not None and report.diagnostics:  # a line of an archive: its line 1 is the archive's ``line``
        report.diagnostics = [d.on_line(line) for d in report.diagnostics]
    return report


def check_path(
    path: str, replay: bool, limits: ReadLimits = DEFAULT_READ_LIMITS, detail: int = NO_DETAIL
) -> Iterator[DocumentReport]:
    """Check one file (or ``-``, or a directory): one report a record, clean or not, in order."""
    for batch in batches([path], limits):
        yield from batch.ready
        if batch.whole:
            for start, loaded in whole(batch):
                yield _placed(check_loaded(loaded, replay, detail=detail), start, loaded)
        for line, data in batch.items:
            yield _check_item(batch, line, data, replay, detail)


def cpus() -> int:
    """The processors this process may run on: the most ``jobs`` that can help."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_all(
    paths: Iterable[str],
    replay: bool,
    limits: ReadLimits = DEFAULT_READ_LIMITS,
    jobs: int = 1,
    detail: int = NO_DETAIL,
    fingerprints: int = 0,
) -> Iterator[BatchResult]:
    """Check many files, batch by batch, in order; ``jobs`` > 1 checks batches in that many processes.

    ``jobs`` is capped at the processors available and at the number of batches: a process is started
    only for work it can do (a small input is checked here, with none). ``detail`` > 0 keeps every
    record's report, each with its facts (see :func:`check_loaded`).
    """
    claim_budget.begin_run()  # one account for the claim audits of this run (each worker opens its own)
    try:
        yield from map_batches(paths, _check_batch, (replay, detail, fingerprints), limits, jobs)
    finally:
        claim_budget.end_run()


def _check_batch(batch: Batch, how: tuple[bool, int, int]) -> BatchResult:
    """``run_batch`` in the shape :func:`map_batches` calls (a module-level function: picklable)."""
    replay, detail, fingerprints = how
    return run_batch(batch, replay, detail, fingerprints)


def map_batches(
    paths: Iterable[str],
    work: Callable[[Batch, A], T],
    arg: A,
    limits: ReadLimits,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Iterator[T]:
    """``work(batch, arg)`` for every batch of the inputs read under ``limits`` (each batch carries them),
    in input order; ``jobs`` > 1 runs it in that many processes (``work`` and ``arg`` must then be
    picklable: a module-level function). The one way every command (verify, select, fingerprint, stats)
    spreads its batches over processes. ``progress`` is told the bytes of each batch as the next is taken
    (a progress bar)."""
    jobs = max(1, min(jobs, cpus()))
    todo = batches(paths, limits, regions=jobs > 1)
    if progress is not None:
        todo = _told(todo, progress)
    head = list(itertools.islice(todo, jobs)) if jobs > 1 else []
    if len(head) <= 1:
        for batch in itertools.chain(head, todo):
            yield work(batch, arg)
        return
    yield from _pooled(itertools.chain(head, todo), work, arg, min(jobs, len(head)))


def map_in_order_here(work: Callable[[X], T], items: list[X], jobs: int = 1) -> Iterator[T]:
    """``work(item)`` for every item, results in order, in ``jobs`` processes (capped at the processors
    and the items; ``work`` a module-level function), a few items ahead at most: what ``analyse`` spreads
    its deals with, as :func:`map_batches` spreads batches (the same workers, the same Ctrl-C)."""
    jobs = max(1, min(jobs, cpus(), len(items)))
    if jobs == 1:
        yield from map(work, items)
        return
    yield from _pooled(iter(items), _call, work, jobs)


def _call(item: X, work: Callable[[X], T]) -> T:
    """``work(item)`` in the shape :func:`_pooled` calls."""
    return work(item)


def _pooled(todo: Iterator[B], work: Callable[[B, A], T], arg: A, jobs: int) -> Iterator[T]:
    """The batches done in ``jobs`` worker processes, results in input order.

    The workers ignore Ctrl-C (it reaches the whole process group): this process decides. If it stops
    early (an interrupt, an error, a consumer that stops reading), the batches not started are dropped
    and the workers are ended at once (SIGTERM, which ends a worker quietly), not after the batch they
    are on: a batch of claim audits can take minutes, and a stop must take about a second.
    """
    from concurrent.futures import ProcessPoolExecutor  # only here: a one-process run never loads it

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start)
    finished = False
    try:
        pending: deque[Future[T]] = deque()
        for batch in todo:
            if not pending:  # the first submit starts the workers: no signal may reach them before they ignore it
                blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
                try:
                    pending.append(pool.submit(work, batch, arg))
                finally:
                    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            else:
                pending.append(pool.submit(work, batch, arg))
            if len(pending) >= 3 * jobs:  # stay a few batches ahead of the workers, no more
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
        finished = True
    finally:
        if not finished:
            _end_workers(pool)
        pool.shutdown(wait=finished, cancel_futures=not finished)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool's workers now (the executor offers no public way before Python 3.14)."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
            process.join(1.0)


def _told(todo: Iterator[Batch], progress: Callable[[int], None]) -> Iterator[Batch]:
    """The batches, each one's bytes told to ``progress`` once the one after it is asked for."""
    for batch in todo:
        yield batch
        progress(batch.size)


_STOP_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM})


def _worker_start() -> None:
    """In each worker: Ctrl-C is for the main process; SIGTERM ends the worker quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    claim_budget.begin_run()


def run_batch(batch: Batch, replay: bool, detail: int = NO_DETAIL, fingerprints: int = 0) -> BatchResult:
    """Check every record of a batch (in a worker process, or in this one).

    A line that reads at once and that the referee finds clean (what an archive is mostly made of) is only
    counted, with its digests: no report is made for it. Any other goes the whole way (:func:`check_loaded`)."""
    result = BatchResult(size=batch.size, keep_all=detail > 0)
    for report in batch.ready:
        result.add(report)
    if batch.whole:
        for start, loaded in whole(batch):
            result.add(_placed(check_loaded(loaded, replay, None, detail, fingerprints), start, loaded))
    source = batch.source
    plain = replay and detail == NO_DETAIL
    most = batch.limits.max_bytes
    for line, data in batch_lines(batch):
        if plain and data is not None and len(data) <= most:
            record = read_plain(data)
            if record is not None and not referee(record).diagnostics:
                keys = digests(record, fingerprints > 1) if fingerprints else None
                result.add_clean(source, line, len(record.deals), keys)
                continue
        result.add(_check_item(batch, line, data, replay, detail, fingerprints))
    return result


def whole(batch: Batch) -> Iterator[tuple[int | None, Loaded]]:
    """The records of a batch that is a file read whole (from ``batch.data`` where it was read already):
    one JSON record, or (``.txt``, ``.phat``) every game of a file in the text notation
    (:func:`phatlog.formats.text_files.read_games`), each with the line it starts on (or None)."""
    source, data, max_bytes = batch.source, batch.data, batch.limits.max_bytes
    kind = notation(source)
    if kind == "text":
        from phatlog.formats import text_files

        yield from (
            text_files.read_games(source, max_bytes) if data is None else text_files.games_of(data, source, max_bytes)
        )
        return
    if kind in ("csv", "openspiel"):
        from phatlog.formats import sources

        yield from sources.records_of(source, kind, max_bytes, data)
        return
    if data is not None and compression(source) is not None:
        yield None, read_bytes_compressed(data, source, max_bytes)
        return
    yield None, read_path(source, max_bytes) if data is None else read_bytes(data, source)


def _placed(report: DocumentReport, start: int | None, loaded: Loaded) -> DocumentReport:
    """A record's report on the line it starts on (None: the only record of its file); a game of a text
    file places what the referee found on the file's lines too (``TextGame.place``)."""
    report.line = start
    place = getattr(loaded, "place", None)
    if place is not None and any(d.line is None for d in report.diagnostics):
        report.diagnostics = place(report.diagnostics)
    return report


def batch_lines(batch: Batch) -> Iterator[tuple[int | None, bytes | None]]:
    """The lines of a batch that hold records, in order, with their numbers: the ones read already
    (``items``; data None: over the limit), then those of its ``region`` of the file, read here (in the
    worker). What every reader of a batch goes through, so that none forgets the region."""
    yield from batch.items
    if batch.region is not None:
        offset, length, first = batch.region
        with Path(batch.source).open("rb") as f:
            f.seek(offset)
            lines = f.read(length).split(b"\n")
        for number, raw in enumerate(lines, start=first):
            if raw.strip():
                yield number, raw


def digests(record: object, deals: bool) -> tuple[bytes | None, bytes]:
    """A record's digest and (``deals``) its deals' keys (:mod:`phatlog.record.canonical`), for the duplicate check."""
    return record_keys(record, deals)


def _too_long(line: int | None, source: str, max_bytes: int) -> Diagnostic:
    what = f"line {line}" if line is not None else source
    return diag("PL003", f"{what} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)", line=line)


def _check_item(
    batch: Batch, line: int | None, data: bytes | None, replay: bool, detail: int = NO_DETAIL, fingerprints: int = 0
) -> DocumentReport:
    """One line of a batch (``data`` None: it was over the limit and skipped), or all of standard input."""
    return check_loaded(_load_item(batch, line, data), replay, line, detail, fingerprints)


def _load_item(batch: Batch, line: int | None, data: bytes | None) -> Loaded:
    max_bytes = batch.limits.max_bytes
    if data is None or len(data) > max_bytes:
        too_long = replace(_too_long(line, batch.source, max_bytes), line=None)  # check_loaded places it
        return Loaded(batch.source, None, [too_long])
    return read_bytes(data, batch.source)


def checked_batch(batch: Batch, detail: int = NO_DETAIL) -> Iterator[tuple[DocumentReport, Any]]:
    """Verify every record of one batch, in order: each record's report with the record itself (None where
    it could not be read), for commands that go on to use the record (``stats``); here, in a worker, or on a
    cluster's worker."""
    for report in batch.ready:
        yield report, None
    if batch.whole:
        for start, loaded in whole(batch):
            yield _placed(check_loaded(loaded, True, detail=detail), start, loaded), loaded.record
    for line, data in batch_lines(batch):
        loaded = _load_item(batch, line, data)
        yield check_loaded(loaded, True, line, detail), loaded.record


# ---------------------------------------------------------------------------- reading into batches


def batches(paths: Iterable[str], limits: ReadLimits, regions: bool = False) -> Iterator[Batch]:
    """The work, in input order: a batch a file, or a batch of lines of an archive at a time, each batch
    carrying the ``limits`` its records are read under.

    The inputs go through :func:`phatlog.archive.inputs.expand` first: a directory is the record files under it,
    and a pattern that matched nothing is reported once.

    What decides is what each input is, not only its name: a regular file named ``.jsonl``/``.ndjson``
    is an archive, any other regular file one record, or (``.txt``, ``.phat``) the games of a file in the
    text notation (read where it is checked: :func:`whole`); standard input and
    anything else that is not a regular file (a pipe, a FIFO, a device, ``/dev/stdin``) is a stream,
    read once, here, as standard input is (JSON Lines, or one record).

    ``regions``: a regular archive's batches name a stretch of the file (offset, length, first line) for
    the worker to read itself, rather than carrying the lines, so that this process only finds where
    lines end: what several processes need to be kept busy. A stream cannot be read twice: its lines
    travel in the batches.
    """
    for path in expand(paths):
        if isinstance(path, Unmatched):
            report = DocumentReport(path.path, None, [path.diagnostic], unreadable=True)
            yield Batch(path.path, [], ready=[report], limits=limits)
            continue
        if path == "-":
            yield from stream_batches(sys.stdin.buffer, "<stdin>", limits)
            continue
        named = address(path)
        if named is not None:
            yield _addressed(*named, limits)
            continue
        try:
            if os.path.isdir(path):
                raise IsADirectoryError(path)
            f = Path(path).open("rb")  # noqa: SIM115 - closed by the with below
            regular = stat.S_ISREG(os.fstat(f.fileno()).st_mode)
        except OSError:
            yield Batch(path, [], whole=True, limits=limits)  # read_path explains it
            continue
        with f:
            if not regular:
                yield from stream_batches(f, path, limits)
            elif notation(path) != "jsonl":
                f.close()  # one record, or the games of a file: read where it is checked
                yield Batch(path, [], size=_size(path), whole=True, limits=limits)
            elif compression(path) is not None:
                f.close()
                yield from _compressed_batches(path, limits)
            elif regions:
                yield from _region_batches(f, path, limits)
            else:
                yield from _line_batches(read_lines(f, limits.max_bytes), path, limits)


#: The bytes of an archive in one batch when workers read their own stretch of it.
REGION_BYTES: Final = 1 << 20


def _region_batches(f: BinaryIO, source: str, limits: ReadLimits) -> Iterator[Batch]:
    """Stretches of about ``REGION_BYTES`` that end at a line's end, each with its first line's number.

    A line longer than the limit is not held in memory: it is reported (PL003) and skipped.
    """
    max_bytes = limits.max_bytes
    offset, line, seen, carry, skipping = 0, 1, False, b"", False
    while True:
        block = f.read(REGION_BYTES)
        data = carry + block
        if skipping:  # inside a line that is too long: drop it up to its end
            end = data.find(b"\n")
            if end < 0:
                offset, carry = offset + len(data), b""
                if block:
                    continue
                break
            offset, line, data, skipping = offset + end + 1, line + 1, data[end + 1 :], False
        cut = data.rfind(b"\n") + 1 if block else len(data)
        if cut == 0 and block:
            if len(data) > max_bytes:
                report = DocumentReport(source, line, [_too_long(line, source, max_bytes)], True)
                yield Batch(source, [], len(data), [report], limits=limits)
                seen, skipping, offset, carry = True, True, offset + len(data), b""
            else:
                carry = data  # a line longer than a block: read on to its end
            continue
        chunk, carry = data[:cut], data[cut:]
        if chunk:
            seen = seen or bool(chunk.strip())
            yield Batch(source, [], len(chunk), region=(offset, len(chunk), line), limits=limits)
            offset += len(chunk)
            line += chunk.count(b"\n")
        if not block:
            break
    if not seen:
        report = DocumentReport(source, None, [diag("PL006", f"{source} holds no records")], True)
        yield Batch(source, [], 0, [report], limits=limits)


def _addressed(path: str, line: int, limits: ReadLimits) -> Batch:
    """``FILE:N`` as a batch of that one record: the line of an archive, or the game of a text file (or the
    record of a table) that starts on line N, carried as its JSON; none there is a PL001 report."""
    for batch in batches([path], limits):
        for start, loaded in whole(batch) if batch.whole else ():
            if start == line or (start is None and loaded.unreadable):
                if loaded.record is None:
                    report = DocumentReport(path, start, loaded.diagnostics, loaded.unreadable)
                    return Batch(path, [], ready=[report], limits=limits)
                return Batch(path, [(line, canonical_bytes(loaded.record))], limits=limits)
        for number, data in batch_lines(batch):
            if number == line:
                return Batch(path, [(number, data)], limits=limits)
        for report in batch.ready:
            if report.unreadable and report.line in (None, line):
                return Batch(path, [], ready=[report], limits=limits)
    report = DocumentReport(path, line, [diag("PL001", f"{path} has no record on line {line}")], unreadable=True)
    return Batch(path, [], ready=[report], limits=limits)


def _compressed_batches(path: str, limits: ReadLimits) -> Iterator[Batch]:
    """A compressed archive, decompressed as it is read, a line at a time (its lines travel in the
    batches: a compressed file cannot be cut into stretches for the workers to read)."""
    failed: list[OSError] = []
    try:
        stream = open_input(path)
    except OSError as exc:
        report = DocumentReport(path, None, [unreadable_input(path, exc)], unreadable=True)
        yield Batch(path, [], ready=[report], limits=limits)
        return
    with stream:
        yield from _line_batches(_until_failure(read_lines(stream, limits.max_bytes), failed), path, limits, failed)


def _until_failure(
    lines: Iterator[tuple[int, bytes | None, int]], failed: list[OSError]
) -> Iterator[tuple[int, bytes | None, int]]:
    """The lines of a stream up to a read that fails (compressed data that does not decompress): the
    failure is kept in ``failed`` and the lines end there."""
    try:
        yield from lines
    except OSError as exc:
        failed.append(exc)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _line_batches(
    lines: Iterable[tuple[int, bytes | None, int]], source: str, limits: ReadLimits, failed: list[OSError] | None = None
) -> Iterator[Batch]:
    """Non-blank lines (from :func:`read_lines`), a batch of ``BATCH_LINES`` at a time, each carrying
    ``limits``; a reading that failed (``failed``, filled as the lines end) is reported after the lines
    read before it."""
    batch = Batch(source, [], limits=limits)
    seen = False
    for number, raw, size in lines:
        batch.size += size
        if raw is not None and not raw.strip():
            continue
        seen = True
        batch.items.append((number, raw))
        if len(batch.items) >= BATCH_LINES:
            yield batch
            batch = Batch(source, [], limits=limits)
    if failed:
        if batch.items or batch.size:
            yield batch
        report = DocumentReport(source, None, [unreadable_input(source, failed[0])], unreadable=True)
        yield Batch(source, [], ready=[report], limits=limits)
        return
    if not seen:
        batch.ready.append(DocumentReport(source, None, [diag("PL006", f"{source} holds no records")], unreadable=True))
    if batch.items or batch.ready or batch.size:
        yield batch


def stream_batches(stream: BinaryIO, source: str, limits: ReadLimits) -> Iterator[Batch]:
    """A stream: JSON Lines if its first line is a whole document and more non-blank lines follow, else
    one record. Read once, a line at a time, whatever its size, under ``limits``."""
    max_bytes = limits.max_bytes
    lines = read_lines(stream, max_bytes)
    head: list[tuple[int, bytes | None, int]] = []
    for item in lines:
        head.append(item)
        if len(head) > 1 and (item[1] is None or item[1].strip()):
            break
    first, more = (head[0][1] if head else b""), len(head) > 1 and (head[-1][1] is None or bool(head[-1][1].strip()))
    if more and first is not None and _is_json(first):
        yield from _line_batches(itertools.chain(head, lines), source, limits)
        return
    # One record: what was read, line ends put back, then the rest up to the limit.
    parts = [raw + b"\n" if size > len(raw) else raw for _, raw, size in head if raw is not None]
    data: bytes | None = b"".join(parts) if len(parts) == len(head) else None
    if data is not None and len(data) <= max_bytes:
        rest = read_limited(stream, max_bytes - len(data))
        data = None if rest is None else data + rest
    size = sum(size for _, _, size in head)
    if data is None or len(data) > max_bytes:
        report = DocumentReport(source, None, [_too_long(None, source, max_bytes)], unreadable=True)
        yield Batch(source, [], size, [report], limits=limits)
        return
    yield Batch(source, [(None, data)], len(data), limits=limits)


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True
