"""``phatlog fingerprint``: one SHA-256 a record, of its canonical form (docs/archives.md).

Registered in :mod:`phatlog.cli.app` with one line. Prints ``FILE:LINE  SHA256`` a record (``FILE  SHA256``
for a file holding one record), in input order; ``--deals`` adds a line a deal that records its hands:
``FILE:LINE  deal N  SHA256`` (the deal fingerprint: dealer and hands). A record that is not valid has
no fingerprint: its diagnostics go to standard error. Exit 0: every record fingerprinted; 1: some record
is not a valid record; 2: an input cannot be read (or a usage error).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from phatlog.archive.check import Batch
from phatlog.archive.records import Entry, entries, where
from phatlog.cli.cluster import mapped
from phatlog.cli.options import FILES_HELP, ClusterOpt, JobsOpt, MaxBytesOpt
from phatlog.cli.progress import over_inputs
from phatlog.cli.run import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE
from phatlog.cli.say import STYLE, Say
from phatlog.diagnostics import Diagnostic, Severity
from phatlog.diagnostics.printable import printable
from phatlog.record.canonical import deal_digests, record_digest
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits

#: What a batch gives back: a record's address, its fingerprint (None: not a record), its deals'
#: fingerprints, and its diagnostics if it has no fingerprint (and whether it could not be read).
Row = tuple[str, int | None, str | None, list[tuple[int, str]], list[Diagnostic], bool]


def fingerprint_batch(batch: Batch, deals: bool) -> list[Row]:
    """The fingerprints of a batch's records (run here or in a worker)."""
    return [_row(entry, deals) for entry in entries(batch)]


def _row(entry: Entry, deals: bool) -> Row:
    record = entry.loaded.record
    if record is None:
        found = [d.located(()) for d in entry.loaded.diagnostics]
        # no bytes: it could not be read (as select decides; a part the cluster could not read, PL880, too)
        return entry.source, entry.line, None, [], found, entry.loaded.unreadable or entry.raw is None
    digests = [(i, d.hex()) for i, d in deal_digests(record)] if deals else []
    return entry.source, entry.line, record_digest(record).hex(), digests, [], False


def fingerprint(
    files: Annotated[list[str], typer.Argument(metavar="FILES", help=FILES_HELP)],
    deals: Annotated[
        bool, typer.Option("--deals", help="Also a line a deal that records its hands: the deal fingerprint.")
    ] = False,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    jobs: JobsOpt = 1,
    cluster: ClusterOpt = None,
) -> None:
    """Print the SHA-256 fingerprint of every record's canonical form: FILE:LINE  SHA256.

    Records that mean the same (whatever their key order, spacing or number spelling) have the same
    fingerprint; any change of meaning changes it. --deals adds each deal's fingerprint (dealer and hands).
    """
    write = sys.stdout.write
    err = Say(stderr=True)
    problems = unreadable = False
    with over_inputs(files, "fingerprinting") as advance:
        for rows in mapped(files, fingerprint_batch, deals, ReadLimits(max_bytes), jobs, cluster, advance):
            for source, line, digest, deal_rows, found, cannot in rows:
                place = printable(where(source, line))
                if digest is None:
                    unreadable = unreadable or cannot
                    problems = True
                    for d in found:
                        if d.severity is Severity.ERROR:
                            err(
                                f"{place}: {d.pointer or '/'}: ",
                                (d.severity.value, STYLE[d.severity]),
                                f" {d.code} {d.name}: {d.message}",
                            )
                    continue
                write(f"{place}  {digest}\n")
                for index, deal_digest in deal_rows:
                    write(f"{place}  deal {index + 1}  {deal_digest}\n")
    raise typer.Exit(EXIT_UNREADABLE if unreadable else EXIT_PROBLEMS if problems else EXIT_CLEAN)
