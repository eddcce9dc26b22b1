"""An archive of games as JSON Lines (``.jsonl``, ``.ndjson``): one record a line, read and written as a stream.

``load`` reads a line at a time and yields each record as soon as it is read, so an archive of any size
is converted in constant memory. Blank lines are skipped. Each record's diagnostics carry the line it is
on. Writing is canonical and compact: one record a line, no spaces. Nothing is ever lost.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import IO, Any, BinaryIO, Final

from pydantic import BaseModel

from phatlog.diagnostics import Diagnostic, diag
from phatlog.formats import base
from phatlog.formats.base import Parsed, Record
from phatlog.formats.json_record import parse_bytes
from phatlog.reader import DEFAULT_MAX_BYTES

NAME: Final = "jsonl"
SUFFIXES: Final = (".jsonl", ".ndjson")
MANY: Final = True


def _lines(lines: Iterable[bytes], source: str, max_bytes: int) -> Iterator[Parsed]:
    seen = False
    for number, raw in enumerate(lines, start=1):
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if not raw.strip():
            continue
        seen = True
        if len(raw) > max_bytes:
            found = [diag("PL003", f"line {number} is larger than the limit of {max_bytes:,} bytes", line=number)]
            yield Parsed(None, found, number)
            continue
        parsed = parse_bytes(raw, source)
        parsed.line = number
        parsed.diagnostics = [replace(d, line=number, column=d.column) for d in parsed.diagnostics]
        yield parsed
    if not seen:
        yield Parsed(None, [diag("PL006", "the archive holds no records")])


def loads(data: str | bytes, source: str = "<input>") -> Iterator[Parsed]:
    """Read every record of a JSON Lines text, one at a time."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    return _lines(data.splitlines(keepends=True), source, DEFAULT_MAX_BYTES)


def load(fp: BinaryIO, source: str = "<input>", max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Parsed]:
    """Read every record of a JSON Lines file, a line at a time (constant memory)."""

    def lines() -> Iterator[bytes]:
        while True:
            raw = fp.readline(max_bytes + 1)
            if not raw:
                return
            if len(raw) > max_bytes and not raw.endswith(b"\n"):
                while True:  # skip the rest of an over-long line
                    more = fp.readline(max_bytes + 1)
                    if not more or more.endswith(b"\n"):
                        break
            yield raw

    return _lines(lines(), source, max_bytes)


def render(rec: Record) -> tuple[str, list[Diagnostic]]:
    """A canonical record as one line of JSON (nothing is lost)."""
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n", []


def losses(record: Mapping[str, Any] | BaseModel) -> list[Diagnostic]:
    """JSON Lines carries every record whole: nothing is ever lost."""
    return base.losses_of(render, record)


def dumps(record: Mapping[str, Any] | BaseModel, *, lossy: bool = False) -> str:
    """A record as one line of an archive."""
    return base.finish(render, record, lossy)


def dump(records: Iterable[Mapping[str, Any] | BaseModel], fp: IO[str], *, lossy: bool = False) -> int:
    """Write records one a line, as they come (a generator in, constant memory)."""
    return base.dump_all(dumps, MANY, NAME, records, fp, lossy)
