"""The public Python API: read, verify, replay, play and step through games (see docs/api.md).

Everything here is exported by ``phatlog`` itself; the names are a contract. This module is the facade
only: each name lives in the layer it belongs to (reading a record: ``record.load``; a new game:
``engine.start``; stepping through a record: ``referee.steps``), and nothing inside the package imports
it.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from phatlog.archive.export import Exported
from phatlog.archive.records import Entry, NotOne, one, stream_records
from phatlog.archive.records import records as _records
from phatlog.diagnostics import Diagnostic, Severity, diag
from phatlog.engine.state import Event, Visitor
from phatlog.play.start import PLAYER_NAMES, RULES_MODELS, checked_rules, start
from phatlog.play.steps import Step, states
from phatlog.record.load import ReadError, Source, as_model, load
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits
from phatlog.record.reader import Loaded
from phatlog.referee.games import referee

__all__ = [
    "PLAYER_NAMES",
    "RULES_MODELS",
    "Exported",
    "ReadError",
    "RecordEntry",
    "Source",
    "Step",
    "Verdict",
    "checked_rules",
    "export",
    "read",
    "records",
    "replay",
    "start",
    "states",
    "verify",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``verify`` found: clean when no diagnostic is an error; ``totals`` and ``winner`` the engine's
    (by side in the All Fours family, by seat in Oh Hell; None where the record does not let them be known)."""

    clean: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)
    totals: list[int] | None = None
    winner: list[int] | None = None


@dataclass(slots=True)
class RecordEntry:
    """One record of a source, as ``records`` gives it: ``where`` it is (``FILE`` for a file of one record,
    ``FILE:N`` for the record starting on line N), ``line`` (None for a file of one record), the
    ``diagnostics`` found reading it, and ``record``, the record as a model (None where it is not a valid
    record). ``verify(entry)`` gives the verdict ``phatlog verify`` gives that record."""

    where: str
    line: int | None
    diagnostics: list[Diagnostic]
    _loaded: Loaded = field(repr=False)

    @property
    def record(self) -> Any | None:
        """The record as a ``phatlog.record.model`` model, or None (made on first use)."""
        return None if self._loaded.record is None else as_model(self._loaded.record)

    @property
    def ok(self) -> bool:
        """Whether the record was read (it may still have problems ``verify`` finds)."""
        return self._loaded.record is not None


def records(source: Source, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[RecordEntry]:
    """Every record of a source, in order, read as every ``phatlog`` command reads it: a file in any
    notation (``.json``, ``.jsonl``/``.ndjson``, ``.txt``/``.phat``, ``.csv``, ``.openspiel``), compressed
    or not (``.gz``, ``.bz2``, ``.xz``, ``.zst``), a directory, ``FILE:N``, or bytes and JSON text (read as
    standard input is: JSON Lines where the first line is a whole document and more follow). An archive
    is read a batch at a time, in bounded memory. A record that cannot be read is an entry with its
    diagnostics and no record; ``TypeError`` for a value that cannot be a source."""
    path = _path(source)
    limits = ReadLimits(max_bytes)
    if path is not None:
        found: Iterator[Entry] = _records(path, limits)
    elif isinstance(source, (bytes, str)):
        data = source if isinstance(source, bytes) else source.encode()
        found = stream_records(io.BytesIO(data), "<bytes>" if isinstance(source, bytes) else "<text>", limits)
    else:
        loaded = load(source)
        found = iter([Entry(loaded.source, None, None, loaded)])
    for entry in found:
        yield _entry(entry)


def _entry(entry: Entry) -> RecordEntry:
    loaded = entry.loaded
    where = entry.source if entry.line is None else f"{entry.source}:{entry.line}"
    names = loaded.names if loaded.record is not None else ()
    placed = [d.located(names) for d in loaded.diagnostics]
    if entry.line is not None:
        placed = [d.on_line(entry.line) for d in placed]
    return RecordEntry(where, entry.line, placed, loaded)


def _path(source: object) -> str | None:
    """The path a source names, or None for a source that is data; ``TypeError`` for neither."""
    if isinstance(source, os.PathLike):
        return str(os.fspath(source))
    if isinstance(source, str):
        return None if source.lstrip()[:1] in ("{", "[") else source
    if isinstance(source, (bytes, Mapping, BaseModel, RecordEntry)) or hasattr(type(source), "__struct_config__"):
        return None
    raise TypeError(
        f"a record source is a path (str or os.PathLike), bytes, JSON text, a dict or a record, not "
        f"{type(source).__name__}"
    )


def _load(source: Source | RecordEntry) -> Loaded:
    """The one record a source holds, as the CLI reads it; an archive of many is a PL007 verdict."""
    if isinstance(source, RecordEntry):
        return source._loaded
    path = _path(source)
    if path is None:
        if isinstance(source, (bytes, str)):
            entries = list(_first_two(records(source)))
            if len(entries) == 1:
                return entries[0]._loaded
            if len(entries) > 1:
                return Loaded(
                    entries[0].where,
                    None,
                    [diag("PL007", "the input holds more than one record: read them with phatlog.records")],
                )
        return load(source)
    try:
        return one(path).loaded
    except NotOne as exc:
        return Loaded(path, None, [diag("PL007", f"{exc}; or read every record with phatlog.records")])


def _first_two(found: Iterator[RecordEntry]) -> Iterator[RecordEntry]:
    for n, entry in enumerate(found):
        if n == 2:
            return
        yield entry


def read(source: Source) -> Any:
    """A record (a ``phatlog.record.model`` record: ``PhatRecord``, ``OhHellRecord``, ...) from a path (str or
    Path; a file in any notation phatlog reads, ``FILE:N`` for one record of an archive), bytes, JSON text,
    or a dict; ``ReadError`` if it is not one record; ``TypeError`` for a value that cannot be a source."""
    loaded = _load(source)
    if loaded.record is None:
        raise ReadError([d.located(()) for d in loaded.diagnostics])
    return as_model(loaded.record)


def verify(source: Source | RecordEntry, visitors: Iterable[Visitor] = ()) -> Verdict:
    """Check a record (or anything ``read`` takes, or an entry of ``records``) as ``phatlog verify`` does:
    the same diagnostics. ``visitors`` hear the referee's events for every deal it judges, the faulty ones
    too (docs/api.md). Input that is not a record is a verdict, not clean, with the reader's diagnostics
    (PL001-PL007); ``TypeError`` for a value that cannot be a source."""
    loaded = _load(source)
    found = list(loaded.diagnostics)
    if loaded.record is None:
        found = [d.located(()) for d in found]
        return Verdict(False, found)
    listeners = list(visitors)
    if not listeners:
        result = referee(loaded.record)
    else:

        def tell(event: Event) -> None:
            for listener in listeners:
                listener(event)

        result = referee(loaded.record, tell)
    found.extend(result.diagnostics)
    clean = not loaded.unreadable and not any(d.severity is Severity.ERROR for d in found)
    return Verdict(clean, found, result.totals, result.winner)


def replay(source: Source) -> dict[str, Any]:
    """The replay summary as data: what ``phatlog replay --format json`` prints."""
    from phatlog.report.summary import build

    return build(_load(source)).to_json()


def export(sources: str | Iterable[str], output: str, to: str | None = None) -> Exported:
    """Export the records of ``sources`` (files, archives, directories) to ``output`` as tidy tables:
    ``to`` ``sqlite``, ``parquet`` (a directory of files) or ``duckdb``, or from the name (docs/export.md).
    What ``phatlog export`` writes; raises ``phatlog.archive.export.ExportError`` (a usage problem) or
    ``OSError``."""
    from phatlog.archive.export import export as write

    return write(sources, output, to)
