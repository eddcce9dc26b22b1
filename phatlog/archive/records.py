"""Records of many inputs, one at a time, with the bytes they were read from: what ``select`` and
``fingerprint`` work on.

The inputs are cut into batches exactly as ``verify`` cuts them (:func:`phatlog.archive.check.batches`: a file a
batch, or some lines of an archive), so every command agrees on what a record is and on its line. A
function is applied to each batch, here or (``jobs`` > 1) in worker processes, a few batches ahead at
most; the results come back in input order. Memory stays flat whatever the archive's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from phatlog.archive.check import Batch, batch_lines, whole
from phatlog.archive.inputs import TEXT_SUFFIXES
from phatlog.diagnostics import diag
from phatlog.record.canonical import canonical_bytes
from phatlog.record.reader import Loaded, read_bytes, read_limited, read_path

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


def entries(batch: Batch, max_bytes: int) -> Iterator[Entry]:
    """Every record of a batch, in order (as :func:`phatlog.archive.check.run_batch` reads them)."""
    for report in batch.ready:  # decided while reading: an empty archive, a line over the limit
        yield Entry(report.source, report.line, None, Loaded(report.source, None, list(report.diagnostics)))
    if batch.whole:
        yield from _whole(batch.source, max_bytes, batch.data)
    for line, data in batch_lines(batch):
        yield _line(batch.source, line, data, max_bytes)


def _line(source: str, line: int | None, data: bytes | None, max_bytes: int) -> Entry:
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


def _whole(path: str, max_bytes: int, data: bytes | None) -> Iterator[Entry]:
    """The record of a whole file, or each game of a file in the text notation (``.txt``, ``.phat``: read as
    ``verify`` reads it, :func:`phatlog.archive.check.whole`)."""
    if path.lower().endswith(TEXT_SUFFIXES):
        for start, loaded in whole(path, max_bytes, data):
            raw = None if loaded.record is None else canonical_bytes(loaded.record)
            yield Entry(path, start, raw, loaded)
        return
    yield _whole_json(path, max_bytes)


def _whole_json(path: str, max_bytes: int) -> Entry:
    try:
        with open(path, "rb") as f:
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
