"""What ``phatlog standings`` and ``phatlog stats`` share: their output formats and how they print."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console

from phatlog.cli.options import FILES_HELP
from phatlog.cli.run import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE
from phatlog.report import events as render


class EventsFormat(StrEnum):
    rich = "rich"
    text = "text"
    markdown = "markdown"
    csv = "csv"
    json = "json"


PathsArg = Annotated[
    list[str],
    typer.Argument(
        metavar="PATHS",
        help=FILES_HELP,
    ),
]
EventsFormatOpt = Annotated[
    EventsFormat | None,
    typer.Option(
        "--format",
        "-f",
        help="rich (the default on a terminal), text (the default otherwise), markdown, csv, or json.",
        show_default=False,
    ),
]
IncludeProblemsOpt = Annotated[
    bool,
    typer.Option(
        "--include-problems", help="Count records with problems too (marked), not only those that verify clean."
    ),
]


def emit(
    sheets: Sequence[render.Sheet], data: dict[str, object], chosen: EventsFormat | None, notes: list[str]
) -> None:
    """Print the sheets (or the data, for JSON) in the format chosen."""
    fmt = chosen or (EventsFormat.rich if sys.stdout.isatty() else EventsFormat.text)
    if fmt is EventsFormat.rich:
        render.rich(sheets, Console(highlight=False), notes)
        return
    if fmt is EventsFormat.json:
        out = render.json_text(data)
    elif fmt is EventsFormat.csv:
        out = render.csv_text(sheets)
    elif fmt is EventsFormat.markdown:
        out = render.markdown(sheets, notes)
    else:
        out = render.text(sheets, notes)
    try:
        sys.stdout.write(out)
    except UnicodeEncodeError:
        sys.stdout.flush()
        sys.stdout.buffer.write(out.encode(sys.stdout.encoding or "ascii", errors="replace"))
    sys.stdout.flush()


def exit_code(problems: int, unreadable: int) -> int:
    """As verify's: 2 when an input could not be read, 1 when a record has problems, else 0."""
    return EXIT_UNREADABLE if unreadable else EXIT_PROBLEMS if problems else EXIT_CLEAN
