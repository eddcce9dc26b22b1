"""An archive of games as JSON Lines (``.jsonl``, ``.ndjson``): one record a line, read and written as a stream.

``load`` reads a line at a time and yields each record as soon as it is read, so an archive of any size
is converted in constant memory. Blank lines are skipped. Each record's diagnostics carry the line it is
on. Writing is canonical and compact: one record a line, no spaces. Nothing is ever lost.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, BinaryIO, Final

import msgspec
from pydantic import BaseModel

from phatlog.diagnostics import Diagnostic, diag
from phatlog.formats import base
from phatlog.formats.base import Parsed, Record
from phatlog.formats.json_record import parse_bytes
from phatlog.record.reader import DEFAULT_MAX_BYTES, read_lines

NAME: Final = "jsonl"
SUFFIXES: Final = (".jsonl", ".ndjson")
MANY: Final = True


def _lines(lines: Iterable[tuple[int, bytes | None, int]], source: str, max_bytes: int) -> Iterator[Parsed]:
    """Records from numbered lines (without their ``\n``; None for a line over the limit)."""
    seen = False
    for number, raw, _ in lines:
        if number == 1 and raw is not None:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if raw is not None and not raw.strip():
            continue
        seen = True
        if raw is None or len(raw) > max_bytes:
            found = [diag("PL003", f"line {number} is larger than the limit of {max_bytes:,} bytes", line=number)]
            yield Parsed(None, found, number)
            continue
        parsed = parse_bytes(raw, source)
        parsed.line = number
        parsed.diagnostics = [d.on_line(number) for d in parsed.diagnostics]
        yield parsed
    if not seen:
        yield Parsed(None, [diag("PL006", "the archive holds no records")])


def loads(data: str | bytes, source: str = "<input>") -> Iterator[Parsed]:
    """Read every record of a JSON Lines text, one at a time."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    numbered = ((n, raw, len(raw)) for n, raw in enumerate(data.split(b"\n"), start=1))
    return _lines(numbered, source, DEFAULT_MAX_BYTES)


def load(fp: BinaryIO, source: str = "<input>", max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Parsed]:
    """Read every record of a JSON Lines file, a line at a time (constant memory; a line over the limit
    is skipped without being held: ``reader.read_lines``, as verify reads archives)."""
    return _lines(read_lines(fp, max_bytes), source, max_bytes)


def render(rec: Record) -> tuple[str, list[Diagnostic]]:
    """A canonical record as one line of JSON (nothing is lost)."""
    try:
        fast = msgspec.json.encode(rec)
    except (TypeError, ValueError, OverflowError, msgspec.EncodeError):
        fast = b"\\"
    # Where no string needs an escape and no extension data (which may hold fractions, which the two
    # encoders spell differently) is there, msgspec writes the very text json.dumps writes, 10 times faster.
    if b"\\" not in fast and b'"ext"' not in fast:
        return fast.decode() + "\n", []
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n", []


def losses(record: Mapping[str, object] | BaseModel) -> list[Diagnostic]:
    """JSON Lines carries every record whole: nothing is ever lost."""
    return base.losses_of(render, record)


def dumps(record: Mapping[str, object] | BaseModel, *, lossy: bool = False) -> str:
    """A record as one line of an archive."""
    return base.finish(render, record, lossy)


def dump(records: Iterable[Mapping[str, object] | BaseModel], fp: IO[str], *, lossy: bool = False) -> int:
    """Write records one a line, as they come (a generator in, constant memory)."""
    return base.dump_all(dumps, MANY, NAME, records, fp, lossy)
