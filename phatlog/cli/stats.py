"""``phatlog stats``: per-player statistics across records, from the engine's events.

Registered in ``phatlog.cli.app`` with one line. Every record is verified (for its status) and stepped
through by the engine (:mod:`phatlog.events.stats`); records with problems count, their faults
attributed to the players who made them. Exit code as verify's: 0 every record clean, 1 some record
with problems, 2 some input unreadable; the statistics are printed in every case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, Optional

import msgspec
import typer
from pydantic import BaseModel

from phatlog.archive.check import Batch, checked_batch
from phatlog.cli.cluster import mapped
from phatlog.cli.events import EventsFormatOpt, PathsArg, emit, exit_code
from phatlog.cli.options import ClusterOpt, JobsOpt, MaxBytesOpt
from phatlog.cli.progress import over_inputs
from phatlog.cli.say import Say
from phatlog.diagnostics import Severity
from phatlog.events.stats import Stats
from phatlog.record.model import RECORD_ADAPTER
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits
from phatlog.report.events import stats_tables


class By(StrEnum):
    all = "all"
    event = "event"
    game = "game"
    rules = "rules"


def stats(
    paths: PathsArg,
    player: Annotated[
        Optional[str], typer.Option("--player", "-p", metavar="NAME", help="Only this player (an id or a name).")
    ] = None,
    by: Annotated[By, typer.Option("--by", help="Group by event (name), game, or rules (game and rules).")] = By.all,
    format: EventsFormatOpt = None,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    jobs: JobsOpt = 1,
    cluster: ClusterOpt = None,
) -> None:
    """Statistics of each player across the records: deals, points, counters, awards, pitches and faults
    (All Fours family); bid accuracy, over and under, zero bids and points by hand size (Oh Hell)."""
    data = Stats(by.value, player)
    problems = unreadable = 0
    say = Say(stderr=True)
    quiet = format is not None and format.value == "json"
    with over_inputs(paths, "counting", quiet=quiet) as advance:
        for part in mapped(paths, stats_batch, (by.value, player), ReadLimits(max_bytes), jobs, cluster, advance):
            data.merge(part.stats)
            problems += part.problems
            unreadable += part.unreadable
            for note in part.notes:
                say(("note:", "cyan"), f" {note}")
    notes = [f"{data.records} record{'s' if data.records != 1 else ''} counted ({data.with_problems} with problems)"]
    if unreadable:
        notes.append(f"{unreadable} input{'s' if unreadable != 1 else ''} could not be read")
    emit(stats_tables(data), data.as_json(), format, notes)
    raise typer.Exit(exit_code(problems, unreadable))


@dataclass(slots=True)
class StatsPart:
    """The statistics of one batch of records, with its counts and notes (sent back from a worker)."""

    stats: Stats
    problems: int = 0
    unreadable: int = 0
    notes: list[str] = field(default_factory=list)


def stats_batch(batch: Batch, arg: tuple[str, str | None]) -> StatsPart:
    """The statistics of a batch's records (here, or on a cluster's worker): every record verified, for
    its status, and counted by :meth:`Stats.add`; the parts are merged in input order."""
    part = StatsPart(Stats(*arg))
    data = part.stats
    for report, record in checked_batch(batch):
        if report.unreadable:
            part.unreadable += 1
            data.unreadable.append((report.source, report.line))
            continue
        clean = not any(d.severity is Severity.ERROR for d in report.diagnostics)
        part.problems += not clean
        if record is None:
            continue
        try:
            data.add(_model(record), clean)
        except ValueError as exc:  # rules the engine refuses (PL601): the record is counted as read only
            part.notes.append(f"{report.source}: not counted: {exc}")
    return part


def _model(record: Any) -> Any:
    """The reader's record as the models' (the fast path gives msgspec structs of the same shape)."""
    if isinstance(record, BaseModel):
        return record
    return RECORD_ADAPTER.validate_python(msgspec.to_builtins(record))
