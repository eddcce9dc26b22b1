"""``phatlog standings``: each event's standings and crosstable, from the records' verdicts.

Registered in ``phatlog.cli.app`` with one line. Reads as ``verify`` does (the same inputs, the same
checks, ``--jobs``, ``--cluster``), keeping of each record only its facts (:mod:`phatlog.events.record`)
and its address, so memory stays small however large the records are. Exit code as verify's: 0 every
record clean, 1 some record with problems, 2 some input unreadable; the standings are printed in every case.

``--format html`` is an event report page (:mod:`phatlog.report.event_html`); with ``-o DIR`` it is
``DIR/index.html`` and a replay page a record (``game-N.html``, the N-th record read), each written whole
or not at all, the games linked from the standings and crosstable rows.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from enum import StrEnum
from typing import Annotated, Optional

import typer

from phatlog.archive.atomic import STDIO
from phatlog.archive.atomic import directory as make_directory
from phatlog.archive.check import FACTS, BatchResult, check_all, cpus
from phatlog.archive.records import records
from phatlog.cli.cluster import unavailable
from phatlog.cli.events import EventsFormat, IncludeProblemsOpt, PathsArg, emit, exit_code
from phatlog.cli.options import ClusterOpt, JobsOpt, MaxBytesOpt
from phatlog.cli.progress import over_inputs
from phatlog.cli.replay import _write, record_page
from phatlog.cli.say import Say
from phatlog.diagnostics import Severity
from phatlog.events.standings import Standings
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits
from phatlog.report import event_html
from phatlog.report.events import standings_tables


class StandingsFormat(StrEnum):
    rich = "rich"
    text = "text"
    markdown = "markdown"
    csv = "csv"
    json = "json"
    html = "html"


def standings(
    paths: PathsArg,
    format: Annotated[
        Optional[StandingsFormat],
        typer.Option(
            "--format",
            "-f",
            help="rich (the default on a terminal), text (the default otherwise), markdown, csv, json, or html "
            "(an event report page; with -o DIR, with a replay page a game).",
            show_default=False,
        ),
    ] = None,
    include_problems: IncludeProblemsOpt = False,
    jobs: JobsOpt = 1,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    cluster: ClusterOpt = None,
    output: Annotated[
        Optional[str],
        typer.Option(
            "--output",
            "-o",
            metavar="DIR",
            help="With --format html: the directory for index.html and a replay page a game (- for the page alone "
            "on standard output).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Standings of each event: Phat and the Don games by partnership and by player, Oh Hell by player
    (placement points), and a crosstable. Only records that verify clean count, unless --include-problems."""
    pages = output is not None and output != STDIO
    if output is not None and format is not StandingsFormat.html:
        unavailable("--output is for --format html")
    if pages and any(p == "-" or "://" in p for p in paths):
        unavailable("--format html -o DIR reads each game again for its page: give files, not - or URLs")
    limits = ReadLimits(max_bytes)
    data = Standings(include_problems)
    problems = unreadable = 0
    order: dict[tuple[str, int | None], int] = {}
    with over_inputs(paths, "checking", quiet=format is StandingsFormat.json) as advance:
        for result in _checked(paths, limits, jobs, cluster):
            advance(result.size)
            problems += result.problems
            unreadable += result.unreadable
            for report in result.reports:
                errors = sum(1 for d in report.diagnostics if d.severity is Severity.ERROR)
                status = "unreadable" if report.unreadable else "problems" if errors else "clean"
                data.add(report.source, report.line, status, errors, report.facts)
                if pages:
                    order.setdefault((report.source, report.line), len(order) + 1)
    notes = [
        f"{data.records} record{'s' if data.records != 1 else ''} read, {data.counted} counted"
        + ("" if include_problems or not problems else "; --include-problems counts those with problems too")
    ]
    if format is StandingsFormat.html:
        if pages:
            assert output is not None
            _pages(output, order, limits)

            def page(file: str, line: int | None) -> str | None:
                number = order.get((file, line))
                return None if number is None else event_html.page_name(number)

            _write(os.path.join(output, "index.html"), event_html.render(data, notes, page))
        else:
            _write(STDIO, event_html.render(data, notes))
            sys.stdout.flush()
    else:
        emit(standings_tables(data), data.as_json(), EventsFormat(format.value) if format else None, notes)
    raise typer.Exit(exit_code(problems, unreadable))


def _checked(paths: list[str], limits: ReadLimits, jobs: int, cluster: str | None) -> Iterator[BatchResult]:
    """The batch results with every record's facts, as verify's: here (``jobs``) or on the cluster."""
    if cluster is None:
        return check_all(paths, True, limits, min(jobs, cpus()), FACTS)
    from phatlog.archive.cluster import ClusterUnavailable, check_on_cluster

    try:
        return check_on_cluster(paths, True, limits, cluster, detail=FACTS)
    except ClusterUnavailable as exc:
        unavailable(str(exc))


def _pages(directory: str, order: dict[tuple[str, int | None], int], limits: ReadLimits) -> None:
    """A replay page for every record read (``record_page``, as an archive's pages are made), each file
    read once more, a record at a time."""
    try:
        make_directory(directory)
    except OSError as exc:
        Say(stderr=True).error(f"cannot write {directory}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    wanted: dict[str, dict[int | None, int]] = {}
    for (file, line), number in order.items():
        wanted.setdefault(file, {})[line] = number
    for file, numbers in wanted.items():
        for found in records(file, limits):  # a record at a time, in any notation
            if found.line in numbers:
                loaded = found.loaded
                if found.line is not None:
                    loaded.source = f"{file}:{found.line}"
                record_page(directory, event_html.page_name(numbers[found.line]), loaded)
