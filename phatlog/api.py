"""The public Python API: read, verify, replay, play and step through games (see docs/api.md).

Everything here is exported by ``phatlog`` itself; the names are a contract. This module is the facade
only: each name lives in the layer it belongs to (reading a record: ``record.load``; a new game:
``engine.start``; stepping through a record: ``referee.steps``), and nothing inside the package imports
it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from phatlog.archive.export import Exported
from phatlog.diagnostics import Diagnostic, Severity
from phatlog.engine.state import Event, Visitor
from phatlog.play.start import PLAYER_NAMES, RULES_MODELS, checked_rules, start
from phatlog.play.steps import Step, states
from phatlog.record.load import ReadError, Source, load, read
from phatlog.referee.games import referee

__all__ = [
    "PLAYER_NAMES",
    "RULES_MODELS",
    "Exported",
    "ReadError",
    "Source",
    "Step",
    "Verdict",
    "checked_rules",
    "export",
    "read",
    "replay",
    "start",
    "states",
    "verify",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``verify`` found: clean when no diagnostic is an error; ``totals`` and ``winner`` the engine's
    (by side in the All Fours family, by seat in Oh Hell; None where the record does not let them be known)."""

    clean: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)
    totals: list[int] | None = None
    winner: list[int] | None = None


def verify(source: Source, visitors: Iterable[Visitor] = ()) -> Verdict:
    """Check a record (or anything ``read`` takes) as ``phatlog verify`` does: the same diagnostics.
    ``visitors`` hear the referee's events for every deal it judges, the faulty ones too (docs/api.md)."""
    loaded = load(source)
    found = list(loaded.diagnostics)
    if loaded.record is None:
        found = [d.located(()) for d in found]
        return Verdict(False, found)
    listeners = list(visitors)
    if not listeners:
        result = referee(loaded.record)
    else:

        def tell(event: Event) -> None:
            for listener in listeners:
                listener(event)

        result = referee(loaded.record, tell)
    found.extend(result.diagnostics)
    clean = not loaded.unreadable and not any(d.severity is Severity.ERROR for d in found)
    return Verdict(clean, found, result.totals, result.winner)


def replay(source: Source) -> dict[str, Any]:
    """The replay summary as data: what ``phatlog replay --format json`` prints."""
    from phatlog.report.summary import build

    return build(load(source)).to_json()


def export(sources: str | Iterable[str], output: str, to: str | None = None) -> Exported:
    """Export the records of ``sources`` (files, archives, directories) to ``output`` as tidy tables:
    ``to`` ``sqlite``, ``parquet`` (a directory of files) or ``duckdb``, or from the name (docs/export.md).
    What ``phatlog export`` writes; raises ``phatlog.archive.export.ExportError`` (a usage problem) or
    ``OSError``."""
    from phatlog.archive.export import export as write

    return write(sources, output, to)
