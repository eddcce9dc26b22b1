"""The command line: the only place that prints or chooses an exit code.

Exit codes: 0 every record clean; 1 a problem found in some record; 2 a usage error or unreadable input.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Optional

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn
from rich.table import Table

from phatlog import __version__
from phatlog.atomic import STDIO, output
from phatlog.check import BatchResult, DocumentReport, check_all, cpus
from phatlog.cli_convert import convert
from phatlog.cli_replay import replay
from phatlog.diagnostics import CODES, Severity
from phatlog.formats.base import json_or_text
from phatlog.reader import DEFAULT_MAX_BYTES, limit
from phatlog.schema import published_schema_text

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE = 0, 1, 2

app = typer.Typer(
    name="phatlog",
    help="Validate, verify and simulate records of Phat, the Don family and Oh Hell.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"phatlog {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = None,
) -> None:
    """phatlog: the record format and referee for Phat, the Don family and Oh Hell."""


_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}

FilesArg = Annotated[list[str], typer.Argument(help="Record files (.json), or archives (.jsonl): one record a line.")]
FormatOpt = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="text for people; json: JSON Lines, one diagnostic a line.")
]
MaxBytesOpt = Annotated[int, typer.Option("--max-bytes", min=1, help="Refuse a record larger than this.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the problems, no summary.")]
JobsOpt = Annotated[
    int, typer.Option("--jobs", "-j", min=1, help="Check in this many processes (at most one a processor).")
]


def _run(files: list[str], replay: bool, fmt: OutputFormat, max_bytes: int, quiet: bool, jobs: int) -> int:
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    total = BatchResult()
    max_bytes = limit(max_bytes)
    if jobs > (available := cpus()):
        if not quiet:
            err.print(f"note: --jobs {jobs}: {available} processor{'s' if available != 1 else ''} here, so {available}")
        jobs = available
    with _progress(err, files, quiet) as advance:
        for result in check_all(files, replay, max_bytes, jobs):
            for report in result.reports:
                _emit(out, report, fmt)
            total.records += result.records
            total.deals += result.deals
            total.clean += result.clean
            total.problems += result.problems
            total.unreadable += result.unreadable
            total.codes.update(result.codes)
            advance(result.size)
    if not quiet and fmt is OutputFormat.text:
        _summary(err, total, "verified" if replay else "validated")
    if total.unreadable:
        return EXIT_UNREADABLE
    return EXIT_PROBLEMS if total.problems else EXIT_CLEAN


#: Inputs at least this large get a progress bar (on a terminal only).
PROGRESS_BYTES = 20_000_000


@contextmanager
def _progress(err: Console, files: list[str], quiet: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error for long runs on a terminal; elsewhere nothing."""
    sizes = [os.path.getsize(f) for f in files if f != "-" and os.path.isfile(f)]
    if quiet or not err.is_terminal or sum(sizes) < PROGRESS_BYTES:
        yield lambda n: None
        return
    columns = (TextColumn("checking"), BarColumn(), DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("check", total=sum(sizes))
        yield lambda n: bar.advance(task, n)


def _summary(err: Console, total: BatchResult, verb: str) -> None:
    """The closing summary: a line, and for several records or any problem a table by code."""
    records = total.records
    by_severity = Counter(CODES[c].severity for c in total.codes.elements())
    tally = ", ".join(f"{n} {s.value}{'s' if n != 1 else ''}" for s, n in by_severity.items() if n)
    err.print(
        f"{records} record{'s' if records != 1 else ''} ({total.deals} deal{'s' if total.deals != 1 else ''}) "
        f"{verb}: {total.clean} clean, {total.problems} with problems"
        + (f", {total.unreadable} unreadable" if total.unreadable else "")
        + (f" ({tally})" if tally else "")
    )
    if records > 1 and total.codes:
        table = Table(box=None, pad_edge=False, show_edge=False)
        for column in ("code", "name", "severity", "count"):
            table.add_column(column, justify="right" if column == "count" else "left")
        for code, n in sorted(total.codes.items()):
            table.add_row(code, CODES[code].name, CODES[code].severity.value, str(n))
        err.print(table)


def _emit(out: Console, report: DocumentReport, fmt: OutputFormat) -> None:
    for d in report.diagnostics:
        if fmt is OutputFormat.json:
            row = {"file": report.source, **d.as_json()}
            out.print(json.dumps(row, ensure_ascii=False), markup=False, highlight=False)
            continue
        where = report.source
        if d.line is not None:
            where += f":{d.line}" + (f":{d.column}" if d.column is not None else "")
        ptr = d.pointer or "/"
        place = f" ({escape(d.place)})" if d.place and d.place != "the record" else ""
        out.print(
            f"{escape(where)}: {escape(ptr)}: [{_STYLE[d.severity]}]{d.severity.value}[/] "
            f"{d.code} {d.name}: {escape(d.message)}{place}"
        )


@app.command()
def validate(
    files: FilesArg,
    format: FormatOpt = OutputFormat.text,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    quiet: QuietOpt = False,
    jobs: JobsOpt = 1,
) -> None:
    """Check records against the schema only: structure, types, cards, counts."""
    raise typer.Exit(_run(files, False, format, max_bytes, quiet, jobs))


@app.command()
def verify(
    files: FilesArg,
    format: FormatOpt = OutputFormat.text,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    quiet: QuietOpt = False,
    jobs: JobsOpt = 1,
) -> None:
    """Check the structure, then replay every deal: legal plays, scores, totals and the result."""
    raise typer.Exit(_run(files, True, format, max_bytes, quiet, jobs))


@app.command()
def schema() -> None:
    """Print the JSON Schema of the record format."""
    sys.stdout.write(published_schema_text())


class Game(StrEnum):
    phat = "phat"
    nine_card_don = "nine_card_don"
    irish_don = "irish_don"
    oh_hell = "oh_hell"


@app.command()
def simulate(
    game: Annotated[Game, typer.Option(help="The game to play.")] = Game.phat,
    seed: Annotated[int, typer.Option(help="The random seed: the same seed gives the same games.")] = 1,
    count: Annotated[int, typer.Option(min=1, help="How many games.")] = 1,
    rule: Annotated[list[str], typer.Option("--rule", "-r", help="A rules parameter, KEY=VALUE (repeatable).")] = [],  # noqa: B006
    cut: Annotated[
        bool, typer.Option("--cut", help="Record a cut for the first pitcher (Phat, Nine-card Don).")
    ] = False,
    players: Annotated[int, typer.Option(min=3, max=7, help="Players (Oh Hell only; the others have four).")] = 4,
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--output", "-o", help="Write here instead of standard output (.json for one game, .jsonl for many)."
        ),
    ] = None,
) -> None:
    """Play seeded random legal games and write them as records (one JSON object a line)."""
    from phatlog.simulate import simulate as run

    if cut and game in (Game.irish_don, Game.oh_hell):
        _usage(f"--cut: {game.value} has no cut (Phat and Nine-card Don do)")
    if players != 4 and game is not Game.oh_hell:
        _usage(f"--players: {game.value} is for four players")
    rules: dict[str, object] = {}
    for item in rule:
        key, eq, value = item.partition("=")
        if not eq:
            _usage(f"--rule takes KEY=VALUE, not {item!r}")
        rules[key.strip()] = json_or_text(value.strip())
    if output is not None and output.suffix == ".json" and count > 1:
        _usage(f"{output} is one JSON record; write {count} games to a .jsonl file (one game a line)")
    try:
        games = run(game.value, seed, count, rules=rules, with_cut=cut, players=players)
    except ValidationError as exc:
        _usage("; ".join(f"--rule {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()))
    except ValueError as exc:
        _usage(str(exc))
    one = output is not None and output.suffix == ".json" and count == 1
    lines = (json.dumps(g, indent=1) + "\n" if one else json.dumps(g, separators=(",", ":")) + "\n" for g in games)
    write_whole(STDIO if output is None else str(output), lines)


app.command()(replay)
app.command()(convert)


def write_whole(path: str, text: str | Iterable[str]) -> None:
    """Write ``path`` (``-``: standard output) as :mod:`phatlog.atomic` decides, a piece at a time: a
    regular file whole or not at all, a stream (standard output, a device, a FIFO) as the text comes."""
    try:
        with output(path, spool=False) as out:
            for piece in [text] if isinstance(text, str) else text:
                out.stream.write(piece)
            out.keep = True
    except OSError as exc:
        _unreadable(f"cannot write {'standard output' if path == STDIO else path}: {exc.strerror or exc}")


def _usage(message: str) -> None:
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(EXIT_UNREADABLE)


_unreadable = _usage


def main() -> None:
    """Entry point of the ``phatlog`` command."""
    app()
