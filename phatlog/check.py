"""Checking documents: structure only (``validate``) or structure and replay (``verify``).

Reads files holding one JSON record each, JSON Lines archives (``.jsonl``, ``.ndjson``: one record a
line) and standard input (``-``: JSON Lines if its first line is a whole JSON document and more follow,
else one record). Archives are read a line at a time and cut into batches, so memory stays flat however
large the archive; with ``jobs`` > 1 the batches are checked by that many processes, at most a few
batches ahead of the reader, and the results come back in input order. No printing here: the caller
gets a :class:`BatchResult` a batch, with a report for every record that has something to say.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO, Final

from phatlog.diagnostics import Diagnostic, Severity, diag
from phatlog.engine.referee import referee
from phatlog.reader import DEFAULT_MAX_BYTES, Loaded, read_bytes, read_path

JSONL_SUFFIXES: Final = (".jsonl", ".ndjson")
BATCH_LINES: Final = 500


@dataclass(slots=True)
class DocumentReport:
    """The findings for one record: a file, or one line of an archive."""

    source: str
    line: int | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False
    deals: int = 0

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def clean(self) -> bool:
        return not self.unreadable and self.errors == 0


@dataclass(slots=True)
class Batch:
    """A unit of work: some lines of one archive, or one whole file (``data`` None: read it there)."""

    source: str
    items: list[tuple[int | None, bytes | None]]
    size: int = 0  # bytes of input it covers, for progress
    ready: list[DocumentReport] = field(default_factory=list)  # reports decided while reading
    region: tuple[int, int, int] | None = None  # (offset, length, first line): lines the worker reads itself


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

    def add(self, report: DocumentReport) -> None:
        self.records += 1
        self.deals += report.deals
        if report.unreadable:
            self.unreadable += 1
        elif report.clean:
            self.clean += 1
        else:
            self.problems += 1
        if report.diagnostics:
            self.reports.append(report)
            self.codes.update(d.code for d in report.diagnostics)


def check_loaded(loaded: Loaded, replay: bool, line: int | None = None) -> DocumentReport:
    """Check one read document: its read diagnostics, then (``replay``) the referee's."""
    report = DocumentReport(loaded.source, line, list(loaded.diagnostics), loaded.unreadable)
    if loaded.record is not None:
        report.deals = len(loaded.record.deals)
        if replay:
            report.diagnostics.extend(referee(loaded.record).diagnostics)
        else:
            names = loaded.names
            report.diagnostics = [d.located(names) for d in report.diagnostics]
    else:
        report.diagnostics = [d.located(()) for d in report.diagnostics]
    if line is not None:  # a line of an archive: its own line 1 is the archive's line ``line``
        report.diagnostics = [replace(d, line=line) for d in report.diagnostics]
    return report


def check_path(path: str, replay: bool, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[DocumentReport]:
    """Check one file (or ``-``): one report a record, clean or not, in order."""
    for batch in batches([path], max_bytes):
        yield from batch.ready
        for line, data in batch.items:
            yield _check_item(batch.source, line, data, replay, max_bytes)


def check_all(
    paths: Iterable[str], replay: bool, max_bytes: int = DEFAULT_MAX_BYTES, jobs: int = 1
) -> Iterator[BatchResult]:
    """Check many files, batch by batch, in order; ``jobs`` > 1 checks batches in that many processes."""
    work = batches(paths, max_bytes, regions=jobs > 1)
    if jobs <= 1:
        for batch in work:
            yield run_batch(batch, replay, max_bytes)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque[Future[BatchResult]] = deque()
        for batch in work:
            pending.append(pool.submit(run_batch, batch, replay, max_bytes))
            if len(pending) >= 3 * jobs:  # stay a few batches ahead of the workers, no more
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def run_batch(batch: Batch, replay: bool, max_bytes: int) -> BatchResult:
    """Check every record of a batch (in a worker process, or in this one)."""
    result = BatchResult(size=batch.size)
    for report in batch.ready:
        result.add(report)
    for line, data in batch.items:
        result.add(_check_item(batch.source, line, data, replay, max_bytes))
    if batch.region is not None:
        offset, length, first = batch.region
        with Path(batch.source).open("rb") as f:
            f.seek(offset)
            lines = f.read(length).split(b"\n")
        for number, raw in enumerate(lines, start=first):
            if raw.strip():
                result.add(_check_item(batch.source, number, raw, replay, max_bytes))
    return result


def _check_item(source: str, line: int | None, data: bytes | None, replay: bool, max_bytes: int) -> DocumentReport:
    if data is None:
        return check_loaded(read_path(source, max_bytes), replay)
    if len(data) > max_bytes:
        too_long = diag("PL003", f"line {line} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)")
        return check_loaded(Loaded(source, None, [too_long]), replay, line)
    return check_loaded(read_bytes(data, source), replay, line)


# ---------------------------------------------------------------------------- reading into batches


def batches(paths: Iterable[str], max_bytes: int, regions: bool = False) -> Iterator[Batch]:
    """The work, in input order: a batch a file, or a batch of lines of an archive at a time.

    ``regions``: an archive's batches name a stretch of the file (offset, length, first line) for the
    worker to read itself, rather than carrying the lines, so that this process only finds where lines
    end: what several processes need to be kept busy.
    """
    for path in paths:
        if path == "-":
            yield from _stream_batches(sys.stdin.buffer, "<stdin>", max_bytes)
        elif path.endswith(JSONL_SUFFIXES) and not os.path.isdir(path):
            try:
                f = Path(path).open("rb")  # noqa: SIM115 - closed by the with below; open errors are reported
            except OSError:
                yield Batch(path, [(None, None)])  # the worker's read_path explains it
                continue
            with f:
                yield from (_region_batches(f, path, max_bytes) if regions else _line_batches(f, path, max_bytes))
        else:
            yield Batch(path, [(None, None)], size=_size(path))


#: The bytes of an archive in one batch when workers read their own stretch of it.
REGION_BYTES: Final = 1 << 20


def _region_batches(f: BinaryIO, source: str, max_bytes: int) -> Iterator[Batch]:
    """Stretches of about ``REGION_BYTES`` that end at a line's end, each with its first line's number.

    A line longer than ``max_bytes`` is not held in memory: it is reported (PL003) and skipped.
    """
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
                too_long = diag(
                    "PL003", f"line {line} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)"
                )
                yield Batch(source, [], len(data), [DocumentReport(source, line, [replace(too_long, line=line)], True)])
                seen, skipping, offset, carry = True, True, offset + len(data), b""
            else:
                carry = data  # a line longer than a block: read on to its end
            continue
        chunk, carry = data[:cut], data[cut:]
        if chunk:
            seen = seen or bool(chunk.strip())
            yield Batch(source, [], len(chunk), region=(offset, len(chunk), line))
            offset += len(chunk)
            line += chunk.count(b"\n")
        if not block:
            break
    if not seen:
        yield Batch(source, [], 0, [DocumentReport(source, None, [diag("PL006", f"{source} holds no records")], True)])


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _line_batches(lines: Iterable[bytes], source: str, max_bytes: int, first: int = 1) -> Iterator[Batch]:
    """Non-blank lines, numbered from 1, a batch of ``BATCH_LINES`` at a time."""
    batch = Batch(source, [])
    seen = False
    for number, raw in enumerate(lines, start=first):
        batch.size += len(raw)
        if not raw.strip():
            continue
        seen = True
        batch.items.append((number, raw if len(raw) <= max_bytes else raw[: max_bytes + 1]))
        if len(batch.items) >= BATCH_LINES:
            yield batch
            batch = Batch(source, [])
    if not seen:
        batch.ready.append(DocumentReport(source, None, [diag("PL006", f"{source} holds no records")], unreadable=True))
    if batch.items or batch.ready or batch.size:
        yield batch


def _stream_batches(stream: BinaryIO, source: str, max_bytes: int) -> Iterator[Batch]:
    """Standard input: JSON Lines if its first line is a whole document and more follow, else one record."""
    first = stream.readline(max_bytes + 1)
    blank: list[bytes] = []
    rest = stream.readline(max_bytes + 1)
    while rest and not rest.strip():
        blank.append(rest)
        rest = stream.readline(max_bytes + 1)
    if rest and _is_json(first):
        yield from _line_batches(itertools.chain([first, *blank, rest], stream), source, max_bytes)
        return
    data = first + b"".join(blank) + rest
    data += stream.read(max(0, max_bytes + 1 - len(data)))
    if len(data) > max_bytes:
        too_long = diag("PL003", f"{source} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)")
        yield Batch(source, [], len(data), [DocumentReport(source, None, [too_long], unreadable=True)])
        return
    yield Batch(source, [(None, data)], len(data))


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True
