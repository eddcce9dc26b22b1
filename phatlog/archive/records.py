"""Records of many inputs, one at a time, with the bytes they were read from: what ``select`` and
``fingerprint`` work on.

The inputs are cut into batches exactly as ``verify`` cuts them (:func:`phatlog.archive.check.batches`: a file a
batch, or some lines of an archive), so every command agrees on what a record is and on its line. A
function is applied to each batch, here or (``jobs`` > 1) in worker processes, a few batches ahead at
most; the results come back in input order. Memory stays flat whatever the archive's size.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, BinaryIO, TypeVar

import msgspec

from phatlog.archive.check import Batch, batch_lines, batches, stream_batches, whole
from phatlog.archive.inputs import address
from phatlog.diagnostics import diag
from phatlog.record.canonical import canonical_bytes
from phatlog.record.read_limits import DEFAULT_READ_LIMITS, ReadLimits
from phatlog.record.reader import Loaded, read_bytes, read_limited, read_path
from phatlog.record.streams import notation, open_input

T = TypeVar("T")
A = TypeVar("A")


@dataclass(slots=True)
class Entry:
    """One record read: where it is (``line`` None: a whole file; for a game of a text file, the line it
    starts on), the bytes of its line (a whole file's JSON made compact, keys in their order; a game of
    the text notation, its record's canonical JSON), and what the reader made of it."""

    source: str
    line: int | None
    raw: bytes | None
    loaded: Loaded


def entries(batch: Batch) -> Iterator[Entry]:
    """Every record of a batch, in order (as :func:`phatlog.archive.check.run_batch` reads them)."""
    for report in batch.ready:  # decided while reading: an empty archive, a line over the limit
        yield Entry(report.source, report.line, None, Loaded(report.source, None, list(report.diagnostics)))
    if batch.whole:
        yield from _whole(batch)
    for line, data in batch_lines(batch):
        yield _line(batch, line, data)


def _line(batch: Batch, line: int | None, data: bytes | None) -> Entry:
    source, max_bytes = batch.source, batch.limits.max_bytes
    if data is None or len(data) > max_bytes:
        what = f"line {line}" if line is not None else source
        too_long = diag("PL003", f"{what} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)")
        return Entry(source, line, None, Loaded(source, None, [too_long]))
    if line == 1:
        data = data.removeprefix(b"\xef\xbb\xbf")
    loaded = read_bytes(data, source)
    if line is None:  # all of a stream that is one record: made one line, as a whole file is
        return Entry(source, None, one_line(data, loaded), loaded)
    return Entry(source, line, data.rstrip(b"\r"), loaded)


def _whole(batch: Batch) -> Iterator[Entry]:
    """The record of a whole file, or each game of a file in the text notation (``.txt``, ``.phat``: read as
    ``verify`` reads it, :func:`phatlog.archive.check.whole`)."""
    path = batch.source
    if notation(path) != "json":
        for start, loaded in whole(batch):
            raw = None if loaded.record is None else canonical_bytes(loaded.record)
            yield Entry(path, start, raw, loaded)
        return
    yield _whole_json(batch)


def _whole_json(batch: Batch) -> Entry:
    path, max_bytes = batch.source, batch.limits.max_bytes
    try:
        with open_input(path) as f:
            data = read_limited(f, max_bytes)
    except OSError:
        data = None
    if data is None:
        return Entry(path, None, None, read_path(path, max_bytes))  # it says why
    loaded = read_bytes(data, path)
    return Entry(path, None, one_line(data, loaded), loaded)


def one_line(data: bytes, loaded: Loaded) -> bytes | None:
    """A document as one line of an archive (None: it is not JSON). A valid record is made compact (the
    same JSON, keys in their order, no white space); any other JSON keeps every byte but its line ends,
    made spaces (a JSON string holds no line end), so that a repeated key, say, stays as it was."""
    if loaded.unreadable:
        return None
    data = data.removeprefix(b"\xef\xbb\xbf")
    if loaded.record is not None:
        return msgspec.json.encode(msgspec.json.decode(data))
    return data.strip().replace(b"\r", b" ").replace(b"\n", b" ")


# ---------------------------------------------------------------------------------------- in order


def game_of(record: Any) -> str:
    """The game of a record read by :mod:`phatlog.record.decoder` (the tag of its struct)."""
    return str(type(record).__struct_config__.tag)


def where(source: str, line: int | None) -> str:
    """A record's address: ``file`` for a whole file, ``file:N`` for line N of an archive."""
    return source if line is None else f"{source}:{line}"


# ------------------------------------------------------------------------ one record, or every record


def records(path: str, limits: ReadLimits = DEFAULT_READ_LIMITS) -> Iterator[Entry]:
    """Every record ``path`` stands for (a file in any notation, compressed or not, an archive, a
    directory, ``-``, ``FILE:N``), in order, as ``verify`` reads them, a batch at a time: memory stays flat."""
    for batch in batches([path], limits):
        yield from entries(batch)


def stream_records(stream: BinaryIO, source: str, limits: ReadLimits = DEFAULT_READ_LIMITS) -> Iterator[Entry]:
    """Every record of a stream read as standard input is (JSON Lines if its first line is a whole JSON
    document and more lines follow, else one record): bytes or text given to the API."""
    for batch in stream_batches(stream, source, limits):
        yield from entries(batch)


class NotOne(ValueError):
    """An input that holds more (or fewer) records than the one asked for: the message says how many
    it holds and how to name one (``FILE:N``)."""


def record_at(path: str, line: int, limits: ReadLimits = DEFAULT_READ_LIMITS) -> Entry:
    """The record of ``path`` on line ``line`` (the line ``verify`` names); ``NotOne`` if none starts there.
    The lines before it are only counted, not read as records."""
    starts: list[int] = []
    for batch in batches([path], limits):
        for entry in _heads(batch):
            if entry.line == line or (entry.line is None and (entry.loaded.unreadable or line == 1)):
                return _named(entry, path)  # the line asked for, or the input as a whole
            if entry.line is not None and len(starts) < 3:
                starts.append(entry.line)
        for number, data in batch_lines(batch):
            if number == line:
                return _named(_line(batch, number, data), path)
            if number is not None and len(starts) < 3:
                starts.append(number)
    if starts:
        first = ", ".join(str(n) for n in starts[:3])
        raise NotOne(f"{path} has no record on line {line} (its records start on lines {first}, ...)")
    raise NotOne(f"{path} has no record on line {line}")


def _heads(batch: Batch) -> Iterator[Entry]:
    """The records of a batch that are not its lines: what was decided while reading, and a whole file's."""
    if batch.whole or batch.ready:
        yield from entries(replace(batch, items=[], region=None))


def _named(entry: Entry, path: str) -> Entry:
    """A record of an archive named as ``FILE:N`` names (its diagnostics keep the archive's line)."""
    if entry.line is not None:
        entry.loaded.source = f"{path}:{entry.line}"
    return entry


def one(path: str, limits: ReadLimits = DEFAULT_READ_LIMITS) -> Entry:
    """The one record ``path`` holds, for a command (or the API) that reads one. An archive of several
    records is ``NotOne``, saying how many it holds and how to name one (``FILE:N``); it is counted a batch
    at a time without reading its records."""
    named = address(path)
    if named is not None:
        return record_at(named[0], named[1], limits)
    first: Entry | None = None
    count, starts = 0, list[int]()
    for batch in batches([path], limits):
        for entry in _heads(batch):
            count += 1
            first = first or entry
            if entry.line is not None and len(starts) < 2:
                starts.append(entry.line)
        for number, data in batch_lines(batch):
            count += 1
            if first is None:
                first = _line(batch, number, data)
            if number is not None and len(starts) < 2:
                starts.append(number)
    if first is None:
        raise NotOne(f"{path} holds no record")
    if count == 1:
        return first if first.line is None else _named(first, path)
    if os.path.isdir(path):
        raise NotOne(f"{path} is a directory holding {count:,} records, and one is needed here: name one of its files")
    example = f"{path}:{starts[0]}" if starts else f"{path}:N"
    raise NotOne(
        f"{path} holds {count:,} records, and one is needed here: name one by the line it starts on, as "
        f"{example} (the line verify names)"
    )
