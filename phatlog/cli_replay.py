"""``phatlog replay``: a record trick by trick, with everything ``verify`` finds shown where it happened.

Registered in ``phatlog.cli`` by name, loaded on use. Like every command, it is the only place
that prints and chooses the exit code: 0 the record is clean; 1 verify found an error (the replay is
still printed) or the record is not valid (the schema diagnostics are printed instead); 2 the input
cannot be read, or ``--deal``/``--trick`` name something the record does not have.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, Optional

import typer
from rich.console import Console

from phatlog.cli_text import Say
from phatlog.diagnostics import diag
from phatlog.reader import DEFAULT_MAX_BYTES, Loaded, read_bytes, read_limited, read_path
from phatlog.report import SelectionError, Summary, build, markdown, text
from phatlog.report import rich as rich_report
from phatlog.report.summary import write_json

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE = 0, 1, 2


class ReplayFormat(StrEnum):
    rich = "rich"
    text = "text"
    markdown = "markdown"
    json = "json"


def replay(
    file: Annotated[str, typer.Argument(help="A record file (.json), or - for standard input.")],
    deal: Annotated[
        Optional[int], typer.Option("--deal", "-d", min=1, help="Show only this deal (Oh Hell: hand), from 1.")
    ] = None,
    trick: Annotated[
        Optional[int], typer.Option("--trick", "-t", min=1, help="With --deal: show only this trick, from 1.")
    ] = None,
    format: Annotated[
        Optional[ReplayFormat],
        typer.Option(
            "--format",
            "-f",
            help="rich (the default on a terminal), text (the default otherwise), markdown, or json (for programs).",
            show_default=False,
        ),
    ] = None,
    max_bytes: Annotated[int, typer.Option("--max-bytes", min=1, help="Refuse a record larger than this.")] = (
        DEFAULT_MAX_BYTES
    ),
) -> None:
    """Replay a record deal by deal and trick by trick: hands, trump, bids, each trick's winner and why,
    what it pegs and the running score, the bonuses, the totals and the winner, with every problem that
    verify finds shown at the trick or deal where it happened."""
    loaded = _read(file, max_bytes)
    try:
        summary = build(loaded, deal=deal, trick=trick)
    except SelectionError as exc:
        Say(stderr=True).error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    chosen = format or (ReplayFormat.rich if sys.stdout.isatty() else ReplayFormat.text)
    _emit(summary, chosen)
    if summary.status == "unreadable":
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN if summary.clean else EXIT_PROBLEMS)


def _read(file: str, max_bytes: int) -> Loaded:
    if file != "-":
        return read_path(file, max_bytes)
    data = read_limited(sys.stdin.buffer, max_bytes)  # a chunk at a time: nothing is allocated from the limit
    if data is None:
        message = f"<stdin> is larger than the limit of {max_bytes:,} bytes (see --max-bytes)"
        return Loaded("<stdin>", None, [diag("PL003", message)])
    return read_bytes(data, "<stdin>")


def _emit(summary: Summary, chosen: ReplayFormat) -> None:
    if chosen is ReplayFormat.rich:
        rich_report.render(summary, Console(highlight=False))
        return
    if chosen is ReplayFormat.json:
        write_json(summary, _write)  # a deal at a time: the whole text is never held
    elif chosen is ReplayFormat.markdown:
        _write(markdown.render(summary))
    else:
        for piece in text.pieces(summary):
            _write(piece)
    sys.stdout.flush()


def _write(out: str) -> None:
    try:
        sys.stdout.write(out)
    except UnicodeEncodeError:  # a terminal that cannot show suit symbols: show what it can
        sys.stdout.flush()
        sys.stdout.buffer.write(out.encode(sys.stdout.encoding or "ascii", errors="replace"))
