"""What the claim audits may spend: positions searched, per claim, per record and per run.

One claim's audit is bounded (``claims.AUDIT_NODES``), but a record may hold thousands of claimed deals
and an archive thousands of records: a bound per claim alone lets ``verify`` stall for hours. So the
audits of one record's claims search at most :data:`RECORD_CLAIMS` claims' worth of positions together,
and the audits of one run (a command's check of its inputs, in each process: each of verify's worker
processes has its own) at most :data:`RUN_CLAIMS` claims' worth; past either, the claims left are not
checked (PL318, saying which bound was spent). The referee opens each record's account
(:func:`begin_record`), a command its run's (:func:`begin_run`, :func:`end_run`; a record checked
alone, as ``phatlog.verify`` does, has only its own); the audit asks what the next claim may search
(:func:`allowance`) and says what it searched (:func:`spend`).

Kept in the referee, apart from the solver, so that opening a record's account does not load the solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: A record's claims together search at most this many claims' budgets of positions.
RECORD_CLAIMS: Final = 2
#: A run's claims (one process) together search at most this many claims' budgets.
RUN_CLAIMS: Final = 20


@dataclass(slots=True)
class Spent:
    """Positions searched so far by the audits of this record and of this run."""

    record: int = 0
    run: int | None = None  # None: no run is open


SPENT: Final = Spent()


def begin_record() -> None:
    """A new record: its claims start a fresh account (the run's goes on)."""
    SPENT.record = 0


def begin_run() -> None:
    """A new run: both accounts from nothing."""
    SPENT.record = 0
    SPENT.run = 0


def end_run() -> None:
    """The run is over: records checked from now on have only their own accounts."""
    SPENT.run = None


def allowance(per_claim: int) -> tuple[int, str | None]:
    """What the next claim's audit may search, given one claim's budget ``per_claim``, and which account
    limits it below that: ``"record"``, ``"run"``, or None (the claim's own budget)."""
    record = RECORD_CLAIMS * per_claim - SPENT.record
    run = per_claim if SPENT.run is None else RUN_CLAIMS * per_claim - SPENT.run
    least = min(per_claim, record, run)
    if least == per_claim:
        return per_claim, None
    return max(0, least), "record" if record <= run else "run"


def spend(nodes: int) -> None:
    """An audit searched ``nodes`` positions."""
    SPENT.record += nodes
    if SPENT.run is not None:
        SPENT.run += nodes
