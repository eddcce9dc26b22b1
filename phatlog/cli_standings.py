"""``phatlog standings``: each event's standings and crosstable, from the records' verdicts.

Registered in ``phatlog.cli`` with one line. Reads as ``verify`` does (the same inputs, the same
checks, ``--jobs``), keeping of each record only its facts (:mod:`phatlog.events.record`), so memory stays
flat however many records there are. Exit code as verify's: 0 every record clean, 1 some record with
problems, 2 some input unreadable; the standings are printed in every case.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

import typer

from phatlog.check import FACTS, BatchResult, check_all, cpus
from phatlog.cli_cluster import ClusterOpt, unavailable
from phatlog.cli_events import EventsFormatOpt, IncludeProblemsOpt, PathsArg, emit, exit_code
from phatlog.diagnostics import Severity
from phatlog.events.standings import Standings
from phatlog.reader import DEFAULT_MAX_BYTES, limit
from phatlog.report.events import standings_tables


def standings(
    paths: PathsArg,
    format: EventsFormatOpt = None,
    include_problems: IncludeProblemsOpt = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, metavar="N", help="Check in N processes (at most one a processor).")
    ] = 1,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, metavar="N", help="Refuse a record larger than N bytes.")
    ] = DEFAULT_MAX_BYTES,
    cluster: ClusterOpt = None,
) -> None:
    """Standings of each event: Phat and the Don games by partnership and by player, Oh Hell by player
    (placement points), and a crosstable. Only records that verify clean count, unless --include-problems."""
    data = Standings(include_problems)
    problems = unreadable = 0
    for result in _checked(paths, limit(max_bytes), jobs, cluster):
        problems += result.problems
        unreadable += result.unreadable
        for report in result.reports:
            errors = sum(1 for d in report.diagnostics if d.severity is Severity.ERROR)
            status = "unreadable" if report.unreadable else "problems" if errors else "clean"
            data.add(report.source, report.line, status, errors, report.facts)
    notes = [
        f"{data.records} record{'s' if data.records != 1 else ''} read, {data.counted} counted"
        + ("" if include_problems or not problems else "; --include-problems counts those with problems too")
    ]
    emit(standings_tables(data), data.as_json(), format, notes)
    raise typer.Exit(exit_code(problems, unreadable))


def _checked(paths: list[str], max_bytes: int, jobs: int, cluster: str | None) -> Iterator[BatchResult]:
    """The batch results with every record's facts, as verify's: here (``jobs``) or on the cluster."""
    if cluster is None:
        return check_all(paths, True, max_bytes, min(jobs, cpus()), FACTS)
    from phatlog.distributed import ClusterUnavailable, check_on_cluster

    try:
        return check_on_cluster(paths, True, max_bytes, cluster, detail=FACTS)
    except ClusterUnavailable as exc:
        unavailable(str(exc))
