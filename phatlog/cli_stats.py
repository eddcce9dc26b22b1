"""``phatlog stats``: per-player statistics across records, from the engine's events.

Registered in ``phatlog.cli`` with one line. Every record is verified (for its status) and stepped
through by the engine (:mod:`phatlog.events.stats`); records with problems count, their faults
attributed to the players who made them. Exit code as verify's: 0 every record clean, 1 some record
with problems, 2 some input unreadable; the statistics are printed in every case.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Optional

import msgspec
import typer
from pydantic import BaseModel

from phatlog.check import checked_records
from phatlog.cli_events import EventsFormatOpt, PathsArg, emit, exit_code
from phatlog.cli_text import Say
from phatlog.diagnostics import Severity
from phatlog.events.stats import Stats
from phatlog.model import RECORD_ADAPTER
from phatlog.reader import DEFAULT_MAX_BYTES, limit
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
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, metavar="N", help="Refuse a record larger than N bytes.")
    ] = DEFAULT_MAX_BYTES,
) -> None:
    """Statistics of each player across the records: deals, points, counters, awards, pitches and faults
    (All Fours family); bid accuracy, over and under, zero bids and points by hand size (Oh Hell)."""
    data = Stats(by.value, player)
    problems = unreadable = 0
    for report, record in checked_records(paths, limit(max_bytes)):
        if report.unreadable:
            unreadable += 1
            data.unreadable.append((report.source, report.line))
            continue
        clean = not any(d.severity is Severity.ERROR for d in report.diagnostics)
        problems += not clean
        if record is None:
            continue
        try:
            data.add(_model(record), clean)
        except ValueError as exc:  # rules the engine refuses (PL601): the record is counted as read only
            Say(stderr=True)(("note:", "cyan"), f" {report.source}: not counted: {exc}")
    notes = [f"{data.records} record{'s' if data.records != 1 else ''} counted ({data.with_problems} with problems)"]
    if unreadable:
        notes.append(f"{unreadable} input{'s' if unreadable != 1 else ''} could not be read")
    emit(stats_tables(data), data.as_json(), format, notes)
    raise typer.Exit(exit_code(problems, unreadable))


def _model(record: Any) -> Any:
    """The reader's record as the models' (the fast path gives msgspec structs of the same shape)."""
    if isinstance(record, BaseModel):
        return record
    return RECORD_ADAPTER.validate_python(msgspec.to_builtins(record))
