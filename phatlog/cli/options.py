"""The options that several commands share, declared once so that each reads and helps the same way
everywhere: ``--max-bytes``, ``--jobs``, ``--cluster``, and single dummy's ``--samples`` and ``--seed``.
Imports only typer (start-up stays light)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

#: What a command's FILES (or PATHS) may be: every kind of input phatlog reads (docs/cli.md#inputs).
FILES_HELP = (
    "Record files (.json), archives (.jsonl, .ndjson: one record a line), games in the text notation (.txt, "
    ".phat), directories (walked for .json, .jsonl and .ndjson files), or - for standard input."
)

MaxBytesOpt = Annotated[
    int, typer.Option("--max-bytes", min=1, metavar="N", help="Refuse a record larger than N bytes.")
]
JobsOpt = Annotated[
    int, typer.Option("--jobs", "-j", min=1, metavar="N", help="Work in N processes (at most one a processor).")
]
ClusterOpt = Annotated[
    Optional[str],
    typer.Option(
        "--cluster",
        metavar="ADDRESS",
        help="Work on a Dask cluster (a scheduler address, or local:N for N local worker processes); "
        "inputs may be fsspec URLs (s3://, gs://, https://). Needs phatlog\\[dask] (pip install 'phatlog\\[dask]'); "
        "see docs/distributed.md.",
    ),
]
SamplesOpt = Annotated[int, typer.Option("--samples", min=1, help="With --single-dummy: layouts sampled a decision.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="With --single-dummy: the seed of the layouts drawn.")]
