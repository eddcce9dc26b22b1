"""Duplicates are findings: a record seen before in the same run (PL801), a deal dealt before (PL802).

``verify`` computes each record's fingerprint and its deals' fingerprints where it reads the record (in a
worker, with ``--jobs``), and this tracker, in the one process that prints, checks them in input order:
the first of two copies is the original, the later one is reported, naming where the first is.

Memory: one entry a record, in a dict keyed by the first 16 bytes of the SHA-256 of its content (two
different records share a key with odds of 2**-128 a pair, so about 1 in 10**25 for ten million records),
holding the record's number in the run, and where it was read in an array (8 bytes); and one entry a deal
with recorded hands, its exact key (48 bytes) in the C kernel's ``DealTable`` (56 bytes an entry and its
index) or, without it, a dict. Measured (docs/archives.md): about 131 bytes a record and 67 a deal; for ten
million records of four deals each, about 4.0 GB, or 1.3 GB for the records alone (``--duplicates
records``). Nothing else is kept.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from phatlog._native import kernel
from phatlog.archive.check import BatchResult, DocumentReport
from phatlog.diagnostics import Diagnostic, diag
from phatlog.record.canonical import DEAL_INDEX, DEAL_KEY_BYTES

#: A digest's first bytes, kept for each record and deal seen.
KEY_BYTES: Final = 16
_LINE: Final = 1 << 40
_DEAL: Final = 1 << 20


class _DealTable:
    """The deals seen, by key: the C kernel's ``DealTable`` in Python (a dict), the same answers."""

    def __init__(self) -> None:
        self._first: dict[bytes, int] = {}

    def __len__(self) -> int:
        return len(self._first)

    def seen(self, blob: bytes, here: int) -> list[tuple[int, int]] | None:
        """Add a record's deals (:func:`phatlog.record.canonical.deal_blob`), each first seen at ``here`` + its
        index; ``(index, where it was first seen)`` for those seen before, or None."""
        found: list[tuple[int, int]] = []
        table = self._first
        step = 4 + DEAL_KEY_BYTES
        for at in range(0, len(blob), step):
            (index,) = DEAL_INDEX.unpack_from(blob, at)
            kept = len(table)
            was = table.setdefault(blob[at + 4 : at + step], here + index)
            if len(table) == kept:  # it was there before
                found.append((index, was))
        return found or None


def _deal_table() -> Any:
    """A table of the deals seen: the C kernel's where it is built, else :class:`_DealTable`."""
    table = kernel("DealTable")
    return _DealTable() if table is None else table()


class DuplicateTracker:
    """Remembers every record and deal fingerprint seen, and where; reports the later copies."""

    def __init__(self, deals: bool = True) -> None:
        self.deals = deals
        self._records: dict[bytes, int] = {}  # a record's digest: its number in the run
        self._deals = _deal_table()  # a deal's key: its record's number * _DEAL + its index
        self._places: array[int] | list[int] = array("Q")  # a record's number: its source's index * _LINE + line + 1
        self._sources: list[str] = []
        self._source_index: dict[str, int] = {}

    def _where(self, number: int, deal: int = 0) -> tuple[str, int | None, int]:
        """Where record ``number`` was read: source, line (None: the whole file), and ``deal``."""
        place = self._places[number]
        line = place % _LINE
        return self._sources[place // _LINE], (line - 1 if line else None), deal

    def _number(self, source: str, line: int | None) -> int:
        """A new record's number in the run, remembering where it was read."""
        index = self._source_index.get(source)
        if index is None:
            index = self._source_index[source] = len(self._sources)
            self._sources.append(source)
        place = index * _LINE + (0 if line is None else line + 1)
        try:
            self._places.append(place)
        except OverflowError:  # over 2**24 sources: a list, whatever the numbers
            self._places = [*self._places, place]
        return len(self._places) - 1

    def _place(self, source: str, line: int | None, here: str) -> str:
        if source == here and line is None:
            return "this record"
        return source if line is None else f"{source}:{line}"

    def check(self, source: str, line: int | None, digest: bytes | None, deals: bytes) -> list[Diagnostic]:
        """The duplicate warnings for one record (``digest`` None: it is not a valid record; ``deals``: its
        deals' keys, :func:`phatlog.record.canonical.deal_blob`), in order."""
        if digest is None:
            return []
        key = digest[:KEY_BYTES]
        first = self._records.get(key)
        if first is not None:
            was, was_line, _ = self._where(first)
            return [
                diag(
                    "PL801",
                    f"this record is the same game as {self._place(was, was_line, source)} (the same fingerprint: "
                    "the same canonical form); a record submitted twice?",
                    line=line,
                )
            ]
        number = self._records[key] = self._number(source, line)
        if not self.deals or not deals:
            return []
        repeated = self._deals.seen(deals, number * _DEAL)
        if repeated is None:
            return []
        found: list[Diagnostic] = []
        for index, seen in repeated:
            was, was_line, was_deal = self._where(*divmod(seen, _DEAL))
            same_record = was == source and was_line == line
            other = "this record" if same_record else self._place(was, was_line, source)
            found.append(
                diag(
                    "PL802",
                    f"deal {index + 1} has the same hands as deal {was_deal + 1} of {other}: the same cards to the "
                    "same seats with the same dealer; a deal dealt twice?",
                    f"/deals/{index}/hands",
                    line=line,
                )
            )
        return found

    def apply(self, result: BatchResult) -> None:
        """Check a batch's records in order, and add the warnings to its reports (a report is made for a
        record that had none), keeping the reports in input order and the counts of codes."""
        found: dict[tuple[str, int | None], list[Diagnostic]] = {}
        check = self.check
        for source, line, digest, deals in result.digests:
            warnings = check(source, line, digest, deals)
            if warnings:
                warnings = [d.located(()) for d in warnings]
                found[(source, line)] = warnings
                result.codes.update(d.code for d in warnings)
        result.digests = []
        if not found:
            return
        for report in result.reports:
            extra = found.pop((report.source, report.line), None)
            if extra:
                report.diagnostics.extend(extra)
        for (source, line), extra in found.items():
            result.reports.append(DocumentReport(source, line, extra))
        result.reports.sort(key=lambda r: -1 if r.line is None else r.line)  # a batch is one input: in order
