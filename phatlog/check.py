"""Checking documents: structure only (``validate``) or structure and replay (``verify``).

Reads files holding one JSON record each, or JSON Lines archives (``.jsonl``, ``.ndjson``: one record a
line, read a line at a time), and yields a :class:`FileReport` a document. No printing here.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO, Final

from phatlog.diagnostics import Diagnostic, Severity, diag
from phatlog.engine.referee import referee
from phatlog.reader import DEFAULT_MAX_BYTES, Loaded, read_bytes, read_path

JSONL_SUFFIXES: Final = (".jsonl", ".ndjson")


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


def check_loaded(loaded: Loaded, replay: bool, line: int | None = None) -> DocumentReport:
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
    if line is not None:
        report.diagnostics = [
            replace(d, line=line, column=d.column) if d.line is None else d for d in report.diagnostics
        ]
    return report


def check_path(path: str, replay: bool, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[DocumentReport]:
    """Check one file: one report for a JSON file, one a line for a JSON Lines archive.

    ``-`` is standard input: JSON Lines if its first line is a whole JSON document and more follow,
    else one record.
    """
    if path == "-":
        yield from check_stream(sys.stdin.buffer, "<stdin>", replay, max_bytes)
    elif path.endswith(JSONL_SUFFIXES) and not os.path.isdir(path):
        yield from _check_lines(path, replay, max_bytes)
    else:
        yield check_loaded(read_path(path, max_bytes), replay)


def check_stream(stream: BinaryIO, source: str, replay: bool, max_bytes: int) -> Iterator[DocumentReport]:
    """Check a stream that holds one record, or one record a line."""
    first = stream.readline(max_bytes + 1)
    rest = stream.readline(max_bytes + 1)
    while rest and not rest.strip():
        rest = stream.readline(max_bytes + 1)
    if rest and _is_json(first):
        yield from _lines(itertools.chain([first, rest], stream), source, replay, max_bytes)
        return
    data = first + rest + stream.read(max(0, max_bytes + 1 - len(first) - len(rest)))
    if len(data) > max_bytes:
        too_long = diag("PL003", f"{source} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)")
        yield DocumentReport(source, None, [too_long], unreadable=True)
        return
    yield check_loaded(read_bytes(data, source), replay)


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def _check_lines(path: str, replay: bool, max_bytes: int) -> Iterator[DocumentReport]:
    try:
        f = Path(path).open("rb")  # noqa: SIM115 - closed by the with below; open errors are reported
    except OSError:
        yield check_loaded(read_path(path, max_bytes), replay)
        return
    with f:
        yield from _lines(f, path, replay, max_bytes)


def _lines(lines: Iterable[bytes], path: str, replay: bool, max_bytes: int) -> Iterator[DocumentReport]:
    """One report a non-blank line, each diagnostic carrying its line number."""
    seen = False
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        seen = True
        if len(raw) > max_bytes:
            loaded = Loaded(
                path, None, [diag("PL003", f"line {number} is larger than the limit of {max_bytes:,} bytes")]
            )
        else:
            loaded = read_bytes(raw, path)
        yield check_loaded(loaded, replay, line=number)
    if not seen:
        yield DocumentReport(path, None, [diag("PL006", f"{path} holds no records")], unreadable=True)
