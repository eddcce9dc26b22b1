"""``phatlog convert``: one typer command, registered in :mod:`phatlog.cli.app` by name, loaded on use.

Exit codes: 0 the output was written and nothing was lost; 1 the output was written with ``--lossy`` and
something was lost (each kind of loss is listed on standard error); 2 nothing was written (a usage error,
an input that cannot be read or is not a valid record, a record the target format cannot represent, or a
loss without ``--lossy``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Final, Optional

import typer

from phatlog.archive.atomic import STDIO
from phatlog.archive.convert import Found, Report, UsageError, convert_file
from phatlog.cli.progress import over_items
from phatlog.cli.say import STYLE, Say
from phatlog.formats.base import group_key
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits

EXIT_CLEAN: Final = 0
EXIT_LOSSY: Final = 1
EXIT_NOT_WRITTEN: Final = 2


class FormatName(StrEnum):
    json = "json"
    jsonl = "jsonl"
    text = "text"
    csv = "csv"
    table = "table"
    openspiel = "openspiel"


def convert(
    input_file: Annotated[
        str, typer.Argument(metavar="INPUT", help="The file to convert; - reads standard input (then give --from).")
    ],
    output: Annotated[
        str, typer.Option("--output", "-o", help="The file to write; - (the default) writes standard output.")
    ] = STDIO,
    from_format: Annotated[
        Optional[FormatName],
        typer.Option("--from", help="The input's format, where its name does not say it."),
    ] = None,
    to_format: Annotated[
        Optional[FormatName],
        typer.Option("--to", help="The output's format, where its name does not say it."),
    ] = None,
    lossy: Annotated[
        bool,
        typer.Option("--lossy", help="Write even when the output cannot carry everything (each loss is listed)."),
    ] = False,
    deal: Annotated[
        Optional[int],
        typer.Option("--deal", "-d", min=1, help="OpenSpiel output: the hand to write, counted from 1."),
    ] = None,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, help="Refuse an input (or a line of an archive) larger than this.")
    ] = DEFAULT_MAX_BYTES,
    view: Annotated[
        Optional[str],
        typer.Option(
            "--view",
            metavar="SEAT",
            help="Write the game as this seat saw it (a seat from 0, or a player's name): no other's unplayed card.",
        ),
    ] = None,
) -> None:
    """Convert games between formats: json, jsonl (an archive), text, csv (score sheets), table and openspiel.

    The formats are told from the file names (.json, .jsonl, .ndjson, .txt, .phat, .csv, .openspiel, .spiel);
    an archive written to .csv is the long table (a row a deal a side), and that table is read back as one.

    Anything the output cannot carry is listed, and written only with --lossy. Exit 0: written, nothing lost.

    Exit 1: written with --lossy, something lost. Exit 2: nothing written. The input is never changed.
    """
    err = Say(stderr=True)
    try:
        with over_items(None, "converting") as advance:
            report = convert_file(
                input_file,
                output,
                from_format=None if from_format is None else from_format.value,
                to_format=None if to_format is None else to_format.value,
                lossy=lossy,
                deal=None if deal is None else deal - 1,
                limits=ReadLimits(max_bytes),
                view=view,
                progress=advance,
            )
    except UsageError as exc:
        err.error(str(exc))
        raise typer.Exit(EXIT_NOT_WRITTEN) from None
    raise typer.Exit(_tell(err, report))


def _where(report: Report, found: Found) -> str:
    d = found.diagnostic
    line = d.line if d.line is not None else found.line
    where = "<stdin>" if report.source == STDIO else report.source
    if line is not None:
        where += f":{line}" + (f":{d.column}" if d.column is not None and d.line is not None else "")
    return where


def _tell(err: Say, report: Report) -> int:
    """Print what the conversion found; the exit code."""
    for found in report.problems:
        d = found.diagnostic
        err(
            f"{_where(report, found)}: {d.pointer or '/'}: ",
            (d.severity.value, STYLE[d.severity]),
            f" {d.code} {d.name}: {d.message}",
        )
    groups: dict[tuple[str, str, str], list[Found]] = {}
    for found in report.losses:
        groups.setdefault(group_key(found.diagnostic), []).append(found)
    for (_, pattern, _), members in groups.items():
        d = members[0].diagnostic
        ptr = d.pointer or "/" if len(members) == 1 else f"{pattern} ({len(members)} places)"
        err(
            f"{_where(report, members[0])}: {ptr}: ",
            (d.severity.value, STYLE[d.severity]),
            f" {d.code} {d.name}: {d.message}",
        )
    target = "standard output" if report.target == STDIO else report.target
    count = f"{report.records} record{'s' if report.records != 1 else ''}"
    if report.written:
        if report.losses:
            err(f"converted {count} to {target}, with losses: {len(groups)} kind(s) of data dropped")
            return EXIT_LOSSY
        err(f"converted {count} to {target}")
        return EXIT_CLEAN
    if report.refused_for_loss:
        err(
            f"nothing written: {target} cannot carry everything in the input ({len(groups)} kind(s) of "
            "data, above); give --lossy to write it without them"
        )
    else:
        err(f"nothing written to {target}")
    return EXIT_NOT_WRITTEN
