"""Duplicates are findings: a record seen before in the same run (PL801), a deal dealt before (PL802).

``verify`` computes each record's fingerprint and its deals' fingerprints where it reads the record (in a
worker, with ``--jobs``), and this tracker, in the one process that prints, checks them in input order:
the first of two copies is the original, the later one is reported, naming where the first is.

Memory: one entry a record and one a deal with recorded hands, in dicts keyed by the first 16 bytes of
the SHA-256 (two different records share a key with odds of 2**-128 a pair, so about 1 in 10**25 for
ten million records) and holding a packed integer for where it was seen. The cost, measured
(docs/archives.md): about 190 bytes an entry; for ten million records of four deals each, about 9.5 GB
(records and deals), or 1.9 GB for the records alone (``--no-duplicate-deals``). Nothing else is kept.
"""

from __future__ import annotations

from typing import Final

from phatlog.check import BatchResult, DocumentReport
from phatlog.diagnostics import Diagnostic, diag

#: A digest's first bytes, kept for each record and deal seen.
KEY_BYTES: Final = 16
_LINE: Final = 1 << 40
_DEAL: Final = 1 << 20


class DuplicateTracker:
    """Remembers every record and deal fingerprint seen, and where; reports the later copies."""

    def __init__(self, deals: bool = True) -> None:
        self.deals = deals
        self._records: dict[bytes, int] = {}
        self._deals: dict[int, int] = {}
        self._sources: list[str] = []
        self._source_index: dict[str, int] = {}

    def _where(self, packed: int) -> tuple[str, int | None, int]:
        deal = packed % _DEAL
        packed //= _DEAL
        line = packed % _LINE
        return self._sources[packed // _LINE], (line - 1 if line else None), deal

    def _pack(self, source: str, line: int | None, deal: int = 0) -> int:
        index = self._source_index.get(source)
        if index is None:
            index = self._source_index[source] = len(self._sources)
            self._sources.append(source)
        return ((index * _LINE) + (0 if line is None else line + 1)) * _DEAL + deal

    def _place(self, source: str, line: int | None, here: str) -> str:
        if source == here and line is None:
            return "this record"
        return source if line is None else f"{source}:{line}"

    def check(
        self, source: str, line: int | None, digest: bytes | None, deals: list[tuple[int, int]]
    ) -> list[Diagnostic]:
        """The duplicate warnings for one record (``digest`` None: it is not a valid record), in order."""
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
        here = self._records[key] = self._pack(source, line)
        if not self.deals:
            return []
        found: list[Diagnostic] = []
        first = self._deals.setdefault
        for index, dkey in deals:
            at = here + index  # self._pack(source, line, index): no other deal's
            seen = first(dkey, at)
            if seen == at:
                continue
            was, was_line, was_deal = self._where(seen)
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
