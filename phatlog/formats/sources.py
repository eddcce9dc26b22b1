"""A file in a notation other than JSON or the text notation (a CSV score sheet or long table, an
OpenSpiel hand) read for ``verify`` and every other command, as the JSON reader reads a record.

Each record the format's reader makes (the one that ``convert`` uses) is handed to the JSON reader as its
canonical JSON, so that every command checks it as it checks a ``.json`` file; what the format's reader
found (a cell that is not a number, a missing column: PL701 with the file's line and column) comes first.
A long table (``convert``'s archive to CSV) is read a record at a time, each named by the line its rows
start on.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import msgspec

from phatlog.diagnostics import diag
from phatlog.formats.base import Parsed
from phatlog.record.reader import Loaded, read_bytes, read_limited, unreadable_input
from phatlog.record.streams import compression, decompressed, open_input


def records_of(
    source: str, kind: str, max_bytes: int, data: bytes | None = None
) -> Iterator[tuple[int | None, Loaded]]:
    """Every record of ``source`` (``kind``: ``csv`` or ``openspiel``), each with the line it starts on
    (None for a file of one record), as the JSON reader gives a record; ``data``: the file's bytes, read
    already (a cluster's worker)."""
    try:
        if data is None:
            fp = open_input(source)
        else:
            packed = compression(source)
            fp = io.BytesIO(data) if packed is None else decompressed(io.BytesIO(data), packed)
    except OSError as exc:
        yield None, Loaded(source, None, [unreadable_input(source, exc)])
        return
    with fp:
        try:
            held = read_limited(fp, max_bytes)
        except OSError as exc:  # compressed data that stops decompressing
            yield None, Loaded(source, None, [unreadable_input(source, exc)])
            return
    if held is None:
        too_large = diag("PL003", f"{source} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)")
        yield None, Loaded(source, None, [too_large])
        return
    for parsed in _parsed(held, source, kind):
        yield parsed.line, loaded_of(parsed, source)


def _parsed(data: bytes, source: str, kind: str) -> Iterator[Parsed]:
    from phatlog.formats import csv_sheet, openspiel, table

    if kind == "csv" and data.removeprefix(b"\xef\xbb\xbf").startswith(table.HEAD.strip().encode()):
        yield from table.loads(data, source)
    elif kind == "csv":
        yield from csv_sheet.loads(data, source)
    else:
        yield from openspiel.loads(data, source)


def loaded_of(parsed: Parsed, source: str) -> Loaded:
    """A record read from another notation as the JSON reader reads it, what the notation's reader found first."""
    if parsed.record is None or parsed.errors:
        return Loaded(source, None, list(parsed.diagnostics))
    loaded = read_bytes(msgspec.json.encode(parsed.record), source)
    loaded.diagnostics[:0] = parsed.diagnostics
    return loaded
