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
from typing import Annotated, Any, Optional

import typer
import typer.core
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

from phatlog import __version__
from phatlog.atomic import STDIO, output
from phatlog.check import BatchResult, DocumentReport, check_all, cpus
from phatlog.cli_analyse import analyse
from phatlog.cli_convert import convert
from phatlog.cli_replay import replay
from phatlog.cli_text import STYLE, Say, table
from phatlog.diagnostics import CODES, Severity
from phatlog.formats.base import json_or_text
from phatlog.reader import DEFAULT_MAX_BYTES, limit
from phatlog.rules_errors import rule_errors
from phatlog.schema import published_schema_text

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE = 0, 1, 2


class _Command(typer.core.TyperCommand):
    """A command whose help names values in the user's words, not Python's (``<bool>``, ``<list[str]>``).

    A flag (and ``--help``) shows no type; an argument shows its name in capitals (``FILES``); an option
    keeps the metavar it was given, or gets ``N`` for a number, ``PATH`` for a file name and ``a|b`` for a
    choice. Typer's range note (``[x>=1]``) stays.
    """

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, typer.core.TyperOption) and param.metavar is None:
                param.metavar = _metavar(param, ctx)
            elif isinstance(param, typer.core.TyperArgument) and not isinstance(param, _Argument):
                param.__class__ = _Argument
                param.metavar = param.metavar or (param.name or "value").upper()
        return params


def _metavar(option: typer.core.TyperOption, ctx: Any) -> str:
    if option.is_flag:
        return ""
    describe = getattr(option, "display_type", None)  # newer typer; click's type name in older ones
    shown = str(describe(ctx) if describe is not None else getattr(getattr(option, "type", None), "name", ""))
    shown = shown.strip("<>")
    if shown in ("int", "int range", "integer", "integer range"):
        return "N"
    if shown in ("str", "path", "text"):
        return "PATH"
    return shown


class _Argument(typer.core.TyperArgument):
    """An argument shown by its name only (``FILES``), without a Python type."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


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
        Say()(f"phatlog {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = None,
) -> None:
    """phatlog: the record format and referee for Phat, the Don family and Oh Hell."""


FilesArg = Annotated[
    list[str],
    typer.Argument(
        metavar="FILES",
        help="Record files (.json), or archives (.jsonl): one record a line; - reads standard input.",
    ),
]
FormatOpt = Annotated[
    OutputFormat,
    typer.Option(
        "--format", "-f", help="text for people; json: JSON Lines for programs, one diagnostic a line (notes too)."
    ),
]
MaxBytesOpt = Annotated[
    int, typer.Option("--max-bytes", min=1, metavar="N", help="Refuse a record larger than N bytes.")
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the problems, no summary.")]
VerboseOpt = Annotated[
    bool,
    typer.Option(
        "--verbose",
        "-v",
        help="Print notes (info: what the record does not let phatlog check) too, not just count them.",
    ),
]
JobsOpt = Annotated[
    int, typer.Option("--jobs", "-j", min=1, metavar="N", help="Check in N processes (at most one a processor).")
]


def _run(
    files: list[str], replay: bool, fmt: OutputFormat, max_bytes: int, quiet: bool, jobs: int, verbose: bool = False
) -> int:
    out = Say()
    err = Say(stderr=True)
    total = BatchResult()
    max_bytes = limit(max_bytes)
    if jobs > (available := cpus()):
        if not quiet:
            err(f"note: --jobs {jobs}: {available} processor{'s' if available != 1 else ''} here, so {available}")
        jobs = available
    with _progress(err.console, files, quiet) as advance:
        for result in check_all(files, replay, max_bytes, jobs):
            for report in result.reports:
                _emit(out, report, fmt, verbose)
            total.records += result.records
            total.deals += result.deals
            total.clean += result.clean
            total.problems += result.problems
            total.unreadable += result.unreadable
            total.codes.update(result.codes)
            advance(result.size)
    if not quiet and fmt is OutputFormat.text:
        _summary(err, total, "verified" if replay else "validated", verbose)
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


def _summary(err: Say, total: BatchResult, verb: str, verbose: bool = False) -> None:
    """The closing summary: a line, and for several records or any problem a table by code.

    Notes (info) are counted in the line; unless ``verbose`` printed them, the line says how to see them,
    and the table lists them only when ``verbose``.
    """
    records = total.records
    by_severity = Counter(CODES[c].severity for c in total.codes.elements())
    nouns = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    tally = ", ".join(
        f"{by_severity[s]} {nouns[s]}{'s' if by_severity[s] != 1 else ''}" for s in nouns if by_severity[s]
    )
    hidden = by_severity[Severity.INFO] if not verbose else 0
    err(
        f"{records} record{'s' if records != 1 else ''} ({total.deals} deal{'s' if total.deals != 1 else ''}) "
        f"{verb}: {total.clean} clean, {total.problems} with problems"
        + (f", {total.unreadable} unreadable" if total.unreadable else "")
        + (f" ({tally})" if tally else "")
        + (
            f"; --verbose prints {'it' if hidden == 1 else 'them'}"
            if hidden and not by_severity.keys() - {Severity.INFO}
            else ""
        )
        + (
            f"; --verbose prints the {'note' if hidden == 1 else 'notes'}"
            if hidden and by_severity.keys() - {Severity.INFO}
            else ""
        )
    )
    shown = {c: n for c, n in total.codes.items() if verbose or CODES[c].severity is not Severity.INFO}
    if records > 1 and shown:
        rows = [[code, CODES[code].name, CODES[code].severity.value, str(n)] for code, n in sorted(shown.items())]
        err.show(table(["code", "name", "severity", "count"], rows, right=frozenset({"count"})))


def _emit(out: Say, report: DocumentReport, fmt: OutputFormat, verbose: bool = False) -> None:
    """One record's diagnostics: JSON Lines (every one, notes too), or text lines (notes only if ``verbose``)."""
    for d in report.diagnostics:
        if fmt is OutputFormat.json:
            row = {"file": report.source, **d.as_json()}
            out.data(json.dumps(row, ensure_ascii=False) + "\n")
            continue
        if d.severity is Severity.INFO and not verbose:
            continue
        where = report.source
        if d.line is not None:
            where += f":{d.line}" + (f":{d.column}" if d.column is not None else "")
        place = f" ({d.place})" if d.place and d.place != "the record" else ""
        out(
            f"{where}: {d.pointer or '/'}: ",
            (d.severity.value, STYLE[d.severity]),
            f" {d.code} {d.name}: {d.message}{place}",
        )


@app.command(cls=_Command)
def validate(
    files: FilesArg,
    format: FormatOpt = OutputFormat.text,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    quiet: QuietOpt = False,
    jobs: JobsOpt = 1,
    verbose: VerboseOpt = False,
) -> None:
    """Check records against the schema only: structure, types, cards, counts."""
    raise typer.Exit(_run(files, False, format, max_bytes, quiet, jobs, verbose))


@app.command(cls=_Command)
def verify(
    files: FilesArg,
    format: FormatOpt = OutputFormat.text,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    quiet: QuietOpt = False,
    jobs: JobsOpt = 1,
    verbose: VerboseOpt = False,
) -> None:
    """Check the structure, then replay every deal: legal plays, scores, totals and the result."""
    raise typer.Exit(_run(files, True, format, max_bytes, quiet, jobs, verbose))


@app.command(cls=_Command)
def schema() -> None:
    """Print the JSON Schema of the record format."""
    sys.stdout.write(published_schema_text())


class Game(StrEnum):
    phat = "phat"
    nine_card_don = "nine_card_don"
    irish_don = "irish_don"
    oh_hell = "oh_hell"


@app.command(cls=_Command)
def simulate(
    game: Annotated[Game, typer.Option(help="The game to play.")] = Game.phat,
    seed: Annotated[int, typer.Option(metavar="N", help="The random seed: the same seed gives the same games.")] = 1,
    count: Annotated[int, typer.Option(min=1, metavar="N", help="How many games.")] = 1,
    rule: Annotated[
        list[str],
        typer.Option(
            "--rule", "-r", metavar="KEY=VALUE", help="A rules parameter of the game, e.g. target=121 (repeatable)."
        ),
    ] = [],  # noqa: B006
    cut: Annotated[
        bool, typer.Option("--cut", help="Record a cut for the first pitcher (Phat, Nine-card Don).")
    ] = False,
    players: Annotated[
        int, typer.Option(min=3, max=7, metavar="N", help="Players, 3 to 7 (Oh Hell only; the others have four).")
    ] = 4,
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="Write here instead of standard output (.json for one game, .jsonl for many).",
        ),
    ] = None,
) -> None:
    """Play seeded random legal games and write them as records (one JSON object a line)."""
    from phatlog.simulate import rules_warnings
    from phatlog.simulate import simulate as run

    if cut and game in (Game.irish_don, Game.oh_hell):
        _usage(f"--cut: {game.value} has no cut (Phat and Nine-card Don do)")
    if players != 4 and game is not Game.oh_hell:
        _usage(f"--players: {game.value} is for four players")
    rules: dict[str, object] = {}
    for item in rule:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            _usage(f"--rule takes KEY=VALUE (such as target=121), not {item!r}")
        rules[key.strip()] = json_or_text(value.strip())
    if output is not None and output.suffix == ".json" and count > 1:
        _usage(f"{output} is one JSON record; write {count} games to a .jsonl file (one game a line)")
    try:
        games = run(game.value, seed, count, rules=rules, with_cut=cut, players=players)
    except ValidationError as exc:
        _usage("; ".join(rule_errors(game.value, rules, exc)))
    except ValueError as exc:
        _usage(str(exc))
    for message in rules_warnings(game.value, rules, players):
        Say(stderr=True)(("warning:", "yellow"), " ", message)
    one = output is not None and output.suffix == ".json" and count == 1
    lines = (json.dumps(g, indent=1) + "\n" if one else json.dumps(g, separators=(",", ":")) + "\n" for g in games)
    write_whole(STDIO if output is None else str(output), lines)


app.command(cls=_Command)(replay)
app.command(cls=_Command)(convert)
app.command(cls=_Command)(analyse)


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
    Say(stderr=True).error(message)
    raise typer.Exit(EXIT_UNREADABLE)


_unreadable = _usage


def main() -> None:
    """Entry point of the ``phatlog`` command."""
    app()
