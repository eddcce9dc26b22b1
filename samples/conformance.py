"""The conformance set, shown: every faulty record in ``samples/invalid/``, what it must get, what it gets.

Usage (from the repository root; ``make run`` runs it)::

    python samples/conformance.py [DIRECTORY]

DIRECTORY (default ``samples/invalid``) holds the faulty records and the manifests ``expected*.json``,
which map a file name to the diagnostics (code, JSON Pointer) that ``phatlog verify`` must report for it.
Each record is verified with phatlog's library (:func:`phatlog.archive.check.check_path`, as ``phatlog verify``
does) and compared as ``tests/test_conformance.py`` compares it: the errors and warnings found are
exactly those expected, every note (info) listed is found (unlisted notes are allowed), and a record is
unreadable exactly when an input-level code (PL001-PL004, PL006) is expected.

It prints a table, one row a record: the codes expected, the codes found, and whether they agree; then
the details of any disagreement and one closing line. Exit 0 when every record agrees, 1 when one does
not, 2 when the directory or a manifest cannot be read. Needs only phatlog's runtime dependencies.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from phatlog.archive.check import check_path
from phatlog.cli.say import Say, table
from phatlog.diagnostics import CODES, Severity
from phatlog.record.reader import UNREADABLE_CODES

DEFAULT: Final = Path(__file__).resolve().parent / "invalid"

Found = frozenset[tuple[str, str]]


@dataclass(frozen=True)
class Row:
    """One faulty record: what its manifest expects and what verify finds."""

    name: str
    expected: Found
    found: Found
    unreadable: bool

    @property
    def serious_expected(self) -> Found:
        return frozenset(x for x in self.expected if CODES[x[0]].severity is not Severity.INFO)

    @property
    def serious_found(self) -> Found:
        return frozenset(x for x in self.found if CODES[x[0]].severity is not Severity.INFO)

    @property
    def agrees(self) -> bool:
        notes = self.expected - self.serious_expected
        must_be_unreadable = any(code in UNREADABLE_CODES for code, _ in self.expected)
        return (
            self.serious_found == self.serious_expected
            and notes <= self.found
            and self.unreadable == must_be_unreadable
        )


def expectations(directory: Path) -> dict[str, Found]:
    """Every manifest ``expected*.json`` of ``directory``, merged: file name to (code, pointer) pairs."""
    out: dict[str, Found] = {}
    for manifest in sorted(directory.glob("expected*.json")):
        part = json.loads(manifest.read_text(encoding="utf-8"))
        for name, items in part.items():
            if name in out:
                raise ValueError(f"{manifest.name} lists {name}, which another manifest lists")
            out[name] = frozenset((item["code"], item["pointer"]) for item in items)
    return out


def compare(directory: Path) -> list[Row]:
    """Verify every record of ``directory`` against its manifests, in name order.

    A record without an entry expects nothing (and so disagrees when it gets an error); an entry without
    a file is an unreadable record (PL001), which disagrees with whatever the entry expects.
    """
    expected = expectations(directory)
    manifests = {p.name for p in directory.glob("expected*.json")}
    names = sorted({p.name for p in directory.iterdir() if p.is_file() and p.name not in manifests} | set(expected))
    rows = []
    for name in names:
        found: set[tuple[str, str]] = set()
        unreadable = False
        for report in check_path(str(directory / name), replay=True):
            found.update((d.code, d.pointer) for d in report.diagnostics)
            unreadable = unreadable or report.unreadable
        rows.append(Row(name, expected.get(name, frozenset()), frozenset(found), unreadable))
    return rows


def _codes(pairs: Found) -> str:
    return " ".join(sorted(code for code, _ in pairs)) or "-"


def show(rows: Sequence[Row], say: Say) -> int:
    """Print the table, the disagreements and the closing line; the exit code."""
    cells = [
        [
            row.name,
            _codes(row.expected),
            _codes(row.serious_found | (row.found & row.expected)),
            "yes" if row.agrees else "NO",
        ]
        for row in rows
    ]
    say.show(table(["faulty record", "expected", "found", "agree"], cells))
    wrong = [row for row in rows if not row.agrees]
    for row in wrong:
        say((row.name, "bold red"), ":")
        for label, pairs in (("expected", row.serious_expected), ("found", row.serious_found)):
            listed = ", ".join(f"{code} at {pointer or '/'}" for code, pointer in sorted(pairs)) or "nothing"
            say(f"  {label}: {listed}")
        missing_notes = (row.expected - row.serious_expected) - row.found
        if missing_notes:
            listed = ", ".join(f"{code} at {pointer or '/'}" for code, pointer in sorted(missing_notes))
            say(f"  notes expected but not found: {listed}")
    if wrong:
        say((f"{len(wrong)} of {len(rows)} faulty records disagree with their expected diagnostics", "bold red"))
        return 1
    say((f"all {len(rows)} faulty records get exactly the diagnostics expected", "bold green"))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison on ``argv[0]`` (default ``samples/invalid``); the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    say = Say()
    if len(args) > 1 or any(a.startswith("-") for a in args):
        Say(stderr=True).error("usage: python samples/conformance.py [DIRECTORY]")
        return 2
    directory = Path(args[0]) if args else DEFAULT
    try:
        rows = compare(directory)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        Say(stderr=True).error(f"cannot read the conformance set in {directory}: {exc}")
        return 2
    return show(rows, say)


if __name__ == "__main__":
    raise SystemExit(main())
