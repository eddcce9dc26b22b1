"""``phatlog rescore FILE -o OUT``: the record with every deal's points, the totals and the result as the
engine scores them (``phatlog.archive.rescore``), and a report of what changed.

Registered in ``phatlog.cli.app`` by name, loaded on use. The record is written to ``-o`` whole or not at
all (``phatlog.archive.atomic``); the input is replaced only when ``-o`` names it. The report goes to
standard error, a line a figure changed, then whether ``verify`` still finds an error in what was
written (a rescore fixes the arithmetic, not an illegal play). Exit codes: 0 written, and it verifies
clean; 1 written, but an error remains; 2 nothing written (unreadable input, not a record, a usage error,
an output that cannot be written).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from phatlog.archive.atomic import STDIO
from phatlog.archive.atomic import output as open_output
from phatlog.cli.options import MaxBytesOpt
from phatlog.cli.run import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE
from phatlog.cli.say import Say
from phatlog.diagnostics import Severity
from phatlog.diagnostics.printable import printable
from phatlog.record.load import ReadError
from phatlog.record.reader import DEFAULT_MAX_BYTES, read_limited


def rescore(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A record file (.json); - reads standard input.")],
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="Write the rescored record here (- for standard output); FILE itself only when named.",
        ),
    ],
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
) -> None:
    """Write a record with every deal's points, the running totals and the result as the engine scores
    them, and report each figure that changed."""
    err = Say(stderr=True)
    _json_name(output, err)
    data = _read(file, max_bytes, err)
    from phatlog.api import verify
    from phatlog.archive.rescore import describe
    from phatlog.archive.rescore import rescore as rescored

    try:
        result = rescored(data)
    except ReadError as exc:
        for d in exc.diagnostics:
            err(printable(f"{file}: {d.pointer or '/'}: {d.severity.value} {d.code} {d.name}: {d.message}"))
        err.error(f"{file} is not a record that can be rescored: nothing written")
        raise typer.Exit(EXIT_UNREADABLE) from None
    text = json.dumps(result.data, ensure_ascii=False, indent=2) + "\n"
    try:
        with open_output(output) as out:
            out.stream.write(text)
            out.keep = True
    except OSError as exc:
        where = "standard output" if output == STDIO else output
        err.error(f"cannot write {printable(where)}: {exc.strerror or exc}: nothing written")
        raise typer.Exit(EXIT_UNREADABLE) from None
    for change in result.changes:
        err(printable(f"{file}: {change.pointer}: {describe(change, data)}"))
    count = len(result.changes)
    shown = "standard output" if output == STDIO else output
    said = "no figure changed" if count == 0 else f"{count} figure{'' if count == 1 else 's'} changed"
    errors = [d for d in verify(result.data).diagnostics if d.severity is Severity.ERROR]
    left = "" if not errors else f"; verify still finds {len(errors)} error{'' if len(errors) == 1 else 's'}"
    err(printable(f"rescored {file} to {shown}: {said}{left}"))
    for d in errors:
        err(printable(f"  {d.code} {d.name}: {d.message}"))
    raise typer.Exit(EXIT_PROBLEMS if errors else EXIT_CLEAN)


def _json_name(output: str, err: Say) -> None:
    """A record is rescored as JSON, whatever it is written to: an output whose name says another notation
    (``x.txt``, ``x.jsonl``) would be a file phatlog reads back as something else, so it is refused (exit 2)."""
    from phatlog.archive.outputs import OutputRefused, notation_of_output

    if output == STDIO:
        return
    try:
        kind = notation_of_output(output)
    except OutputRefused:
        return  # a name that says no notation (a plain ``fixed``, a device): read back as JSON
    if kind != "json" and not output.startswith("/dev/"):
        err.error(f"{printable(output)}: rescore writes the record as JSON; name the output .json: nothing written")
        raise typer.Exit(EXIT_UNREADABLE)


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
