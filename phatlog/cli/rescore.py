"""``phatlog rescore FILE -o OUT``: the record with every deal's points, the totals and the result as the
engine scores them (``phatlog.archive.rescore``), and a report of what changed.

Registered in ``phatlog.cli.app`` by name, loaded on use. FILE is read as every command reads its input
(``phatlog.archive.records``): a record in any notation phatlog reads (JSON, the text notation, a CSV
sheet or long table, an OpenSpiel hand, compressed or not), or every record of an archive (JSON Lines, a
text file of several games, a directory), each rescored. The records are written in the notation the
output's name says, as ``select`` and ``simulate`` write (``phatlog.archive.outputs``): ``.json`` one
indented record, ``.jsonl`` a line a record, ``.txt``/``.phat`` the text notation, ``.csv`` the long
table; standard output (``-``) and a device get one JSON record, or JSON Lines for several, as phatlog
reads standard input. A notation that cannot carry the rescored record whole (one record only, or data
it has no place for) is refused and nothing is written. The output is written whole or not at all
(``phatlog.archive.atomic``); the input is replaced only when ``-o`` names it. The report goes to
standard error, a line a figure changed, then whether ``verify`` still finds an error in what was
written (a rescore fixes the arithmetic, not an illegal play). Exit codes: 0 written, and it verifies
clean; 1 written, but an error remains; 2 nothing written (unreadable input, not a record, a usage error,
an output that cannot be written or that cannot hold the records).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Annotated, Any, NoReturn

import typer

from phatlog.archive.atomic import STDIO
from phatlog.archive.atomic import output as open_output
from phatlog.cli.options import MaxBytesOpt
from phatlog.cli.run import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE
from phatlog.cli.say import Say
from phatlog.diagnostics import Diagnostic, Severity
from phatlog.diagnostics.printable import printable
from phatlog.record.load import ReadError
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits
from phatlog.record.reader import read_limited
from phatlog.record.streams import compression, notation


def rescore(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A record in any notation phatlog reads (.json, .txt, .csv, ...; compressed or not), an archive "
            "(.jsonl: every record) or a directory; - reads standard input (JSON).",
        ),
    ],
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="Write the rescored records here, in the notation the name says (.json, .jsonl, .txt, .csv; - for "
            "standard output); FILE itself only when named.",
        ),
    ],
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
) -> None:
    """Write a record (or every record of an archive) with every deal's points, the running totals and the
    result as the engine scores them, in the notation the output's name says, and report each figure that
    changed."""
    from phatlog.api import verify
    from phatlog.archive.outputs import OutputRefused
    from phatlog.archive.rescore import Rescored, describe
    from phatlog.archive.rescore import rescore as rescored

    err = Say(stderr=True)
    kind = _output_kind(output, err)
    done: list[tuple[str, dict[str, Any], Rescored]] = []
    try:
        with open_output(output) as out:
            writer = _Writer(kind, out.stream, output)
            for where, data in _inputs(file, max_bytes, err):
                try:
                    result = rescored(data)
                except ReadError as exc:
                    _not_a_record(where, exc.diagnostics, err)
                writer.write(result.data)
                done.append((where, data, result))
            if not done:
                err.error(f"{printable(file)} holds no record: nothing written")
                raise typer.Exit(EXIT_UNREADABLE)
            writer.close()
            out.keep = True
    except OutputRefused as exc:
        err.error(f"{printable(str(exc))}: nothing written")
        raise typer.Exit(EXIT_UNREADABLE) from None
    except OSError as exc:
        where = "standard output" if output == STDIO else output
        err.error(f"cannot write {printable(where)}: {exc.strerror or exc}: nothing written")
        raise typer.Exit(EXIT_UNREADABLE) from None
    count, errors = 0, list[tuple[str, Diagnostic]]()
    for where, data, result in done:
        for change in result.changes:
            err(printable(f"{where}: {change.pointer}: {describe(change, data)}"))
        count += len(result.changes)
        errors += [(where, d) for d in verify(result.data).diagnostics if d.severity is Severity.ERROR]
    shown = "standard output" if output == STDIO else output
    said = "no figure changed" if count == 0 else f"{count} figure{'' if count == 1 else 's'} changed"
    records = "" if len(done) == 1 else f"{len(done):,} records, "
    left = "" if not errors else f"; verify still finds {len(errors)} error{'' if len(errors) == 1 else 's'}"
    err(printable(f"rescored {file} to {shown}: {records}{said}{left}"))
    for where, d in errors:
        err(printable(f"  {'' if len(done) == 1 else where + ': '}{d.code} {d.name}: {d.message}"))
    raise typer.Exit(EXIT_PROBLEMS if errors else EXIT_CLEAN)


def _output_kind(output: str, err: Say) -> str | None:
    """The notation the output's name says (``json``, ``jsonl``, ``text``, ``csv``, ``openspiel``); None for
    standard output or a device (one JSON record, or JSON Lines for several). A name that says no notation
    (a plain ``fixed``) gets JSON, as it is read back; a compressed name is refused (exit 2)."""
    from phatlog.archive.outputs import OutputRefused, notation_of_output

    if output == STDIO or output.startswith("/dev/"):
        return None
    if compression(output) is not None:
        err.error(f"{printable(output)}: phatlog does not write compressed files: nothing written")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        kind = notation_of_output(output)
    except OutputRefused:
        return "json"
    return None if kind == "jsonl" and not output.lower().endswith((".jsonl", ".ndjson")) else kind


class _Writer:
    """The rescored records written in ``kind``: one indented JSON record (``json``, and standard output for
    one record), a compact line a record (``jsonl``, and standard output for several), or through the
    notation's writer (:class:`phatlog.archive.outputs.RecordWriter`, which refuses what it cannot carry).
    Standard output (``kind`` None) waits for a second record before it knows which."""

    def __init__(self, kind: str | None, stream: IO[str], name: str) -> None:
        from phatlog.archive.outputs import RecordWriter

        self.kind, self.stream, self.name = kind, stream, name
        self.held: dict[str, Any] | None = None
        self.count = 0
        self.records = RecordWriter(kind, stream, name) if kind not in (None, "json", "jsonl") else None

    def write(self, data: dict[str, Any]) -> None:
        from phatlog.archive.outputs import OutputRefused

        self.count += 1
        if self.records is not None:
            self.records.write(data)
        elif self.kind == "json":
            if self.count > 1:
                raise OutputRefused(f"{self.name} holds one JSON record, and more than one is rescored: write .jsonl")
            self.stream.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        elif self.kind == "jsonl":
            self.stream.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
        elif self.count == 1:  # standard output: one record as JSON, several as JSON Lines
            self.held = data
        else:
            if self.held is not None:
                self.stream.write(json.dumps(self.held, ensure_ascii=False, separators=(",", ":")) + "\n")
                self.held = None
            self.stream.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")

    def close(self) -> None:
        if self.held is not None:
            self.stream.write(json.dumps(self.held, ensure_ascii=False, indent=2) + "\n")
            self.held = None


def _not_a_record(where: str, diagnostics: list[Diagnostic], err: Say, *, unreadable: bool = False) -> NoReturn:
    """What the reader found in a record that cannot be rescored, then why nothing is written; exit 2."""
    for d in diagnostics:
        err(printable(f"{where}: {d.pointer or '/'}: {d.severity.value} {d.code} {d.name}: {d.message}"))
    why = "cannot be read" if unreadable else "is not a record that can be rescored"
    err.error(f"{printable(where)} {why}: nothing written")
    raise typer.Exit(EXIT_UNREADABLE)


def _inputs(file: str, max_bytes: int, err: Say) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each record of ``file`` as JSON data, with its address (``file``, or ``file:N`` for the record on line
    N); exit 2 at the first that cannot be read or is not a record. A plain JSON file and standard input are
    read as the JSON they hold, keys in their order; anything else as every command reads it."""
    from phatlog.archive.inputs import address
    from phatlog.archive.records import records, where

    plain = file == "-" or (
        notation(file) == "json" and compression(file) is None and address(file) is None and not os.path.isdir(file)
    )
    if plain:
        yield file, _read(file, max_bytes, err)
        return
    for entry in records(file, ReadLimits(max_bytes)):
        at = where(entry.source, entry.line)
        if entry.loaded.record is None or entry.raw is None:
            _not_a_record(at, entry.loaded.diagnostics, err, unreadable=entry.loaded.unreadable)
        yield at, json.loads(entry.raw)


def _read(file: str, max_bytes: int, err: Say) -> dict[str, Any]:
    """The record's JSON data; exit 2 if it cannot be read, is too large or is not a JSON object."""
    try:
        if file == "-":
            raw = read_limited(sys.stdin.buffer, max_bytes)
        else:
            with open(file, "rb") as stream:
                raw = read_limited(stream, max_bytes)
    except OSError as exc:
        err.error(f"{printable(file)}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    if raw is None:
        err.error(f"{printable(file)} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        data = json.loads(raw.removeprefix(b"\xef\xbb\xbf"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        err.error(f"{printable(file)} is not a JSON record: {exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    if not isinstance(data, dict):
        err.error(f"{printable(file)} is not a record: a record is a JSON object")
        raise typer.Exit(EXIT_UNREADABLE)
    return data
