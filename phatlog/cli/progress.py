"""The progress bar of a long job: on standard error, on a terminal only.

Never in a pipe or a file (standard error not a terminal), never with JSON output or ``--quiet``, and
gone when the job ends (``transient``): what the command prints is the same with or without it. A job
counts either bytes of input (the commands that read archives: the total is the inputs' sizes) or items
(games simulated, deals analysed).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from phatlog.cli.say import Say

#: Inputs at least this large get a bar (a smaller job ends before a bar helps).
PROGRESS_BYTES = 1_000_000


def wanted(*, quiet: bool = False) -> bool:
    """Whether a bar may be shown: standard error is a terminal and the output is not for a program."""
    return not quiet and Say(stderr=True).console.is_terminal


@contextmanager
def over_inputs(paths: list[str], what: str, *, quiet: bool = False) -> Iterator[Callable[[int], None]]:
    """A bar over the bytes of ``paths`` (advanced by the bytes each batch covered); nothing where no bar is
    wanted or the inputs are small. A compressed input's bytes are not known ahead: the bar then counts only."""
    from phatlog.archive import inputs
    from phatlog.record.streams import compression

    if not wanted(quiet=quiet):
        yield _nothing
        return
    files = [f for f in inputs.files(paths) if f != "-" and os.path.isfile(f)]
    total: int | None = sum(os.path.getsize(f) for f in files)
    if any(compression(f) for f in files) or len(files) < len(paths):
        total = None
    if total is not None and total < PROGRESS_BYTES:
        yield _nothing
        return
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn, TransferSpeedColumn

    columns = (TextColumn(what), BarColumn(), DownloadColumn(), TransferSpeedColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Say(stderr=True).console, transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda n: bar.advance(task, n)


@contextmanager
def over_items(total: int | None, what: str, *, quiet: bool = False) -> Iterator[Callable[[int], None]]:
    """A bar over ``total`` items (None: not known ahead), advanced by the items done."""
    if not wanted(quiet=quiet):
        yield _nothing
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Say(stderr=True).console, transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda n: bar.advance(task, n)


def _nothing(n: int) -> None:
    """No bar: nothing to advance."""
