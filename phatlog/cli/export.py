"""``phatlog export``: records as tidy tables (SQLite, Parquet, DuckDB), registered in :mod:`phatlog.cli.app`.

The tables and their keys are :mod:`phatlog.archive.export`'s (docs/export.md). Exit codes as verify's:
0 every record clean, 1 some record with problems, 2 some input unreadable; the tables are written in
every case but a usage error or an output that cannot be written (exit 2, nothing written).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Optional

import typer

from phatlog.archive.export import ExportError
from phatlog.archive.export import export as export_tables
from phatlog.cli.options import MaxBytesOpt
from phatlog.cli.run import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE
from phatlog.cli.say import Say
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits


class ExportFormat(StrEnum):
    sqlite = "sqlite"
    parquet = "parquet"
    duckdb = "duckdb"


def export(
    files: Annotated[
        list[str],
        typer.Argument(metavar="FILES", help="Record files, archives or directories; - reads standard input."),
    ],
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="OUT",
            help="The database file (SQLite, DuckDB) or directory of .parquet files to write.",
        ),
    ],
    to: Annotated[
        Optional[ExportFormat],
        typer.Option(
            "--to",
            help="sqlite, parquet or duckdb (default: from OUT's name: .parquet or a directory is Parquet, "
            ".duckdb DuckDB, anything else SQLite).",
            show_default=False,
        ),
    ] = None,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
) -> None:
    """Export records as tables for analysis: records, players, deals, scores, tricks, plays, pegs and
    diagnostics, joined by record and deal (see docs/export.md). Every record is refereed as verify does;
    the tables hold what the referee decided: each trick's winner, each peg, each deal's points, the verdict.

    Parquet and DuckDB need pip install 'phatlog[export]'. The output is written whole or not at all.
    """
    err = Say(stderr=True)
    try:
        done = export_tables(files, output, None if to is None else to.value, ReadLimits(max_bytes))
    except ExportError as exc:
        err.error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    except OSError as exc:
        err.error(f"cannot write {output}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    rows = ", ".join(f"{n:,} {name}" for name, n in done.rows.items() if name != "records")
    err(f"{output}: {done.records:,} record{'s' if done.records != 1 else ''} ({done.clean:,} clean): {rows}")
    raise typer.Exit(EXIT_UNREADABLE if done.unreadable else EXIT_PROBLEMS if done.problems else EXIT_CLEAN)
