"""``--cluster`` for the commands that work on batches of records (``select``, ``fingerprint``,
``standings``, ``stats``): the option, and the one call that runs a command's batch function here
(``--jobs``) or on a Dask cluster (:mod:`phatlog.archive.cluster`), results in input order either way."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NoReturn, TypeVar

import typer

from phatlog.archive.check import Batch, map_batches
from phatlog.cli.say import Say
from phatlog.record.read_limits import ReadLimits

T = TypeVar("T")
A = TypeVar("A")


def unavailable(message: str) -> NoReturn:
    """The cluster cannot be used: a usage error (exit 2), before any output."""
    Say(stderr=True).error(message)
    raise typer.Exit(2)


def mapped(
    paths: list[str],
    work: Callable[[Batch, A], T],
    arg: A,
    limits: ReadLimits,
    jobs: int = 1,
    cluster: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[T]:
    """``work(batch, arg)`` of every batch of ``paths`` (read under ``limits``) in input order: here
    (``jobs`` processes) or, with ``cluster``, on its workers. The cluster is reached before this
    returns. ``progress`` (here only) is told the bytes of input each batch covered."""
    if cluster is None:
        return map_batches(paths, work, arg, limits, jobs, progress)
    from phatlog.archive.cluster import ClusterUnavailable, map_on_cluster

    cluster = capped_note(cluster, Say(stderr=True))
    try:
        return map_on_cluster(paths, work, arg, limits, cluster)
    except ClusterUnavailable as exc:
        unavailable(str(exc))


def capped_note(cluster: str, err: Say, quiet: bool = False) -> str:
    """``--cluster local:N`` capped at the processors, with the note ``--jobs`` gives when it is capped."""
    from phatlog.archive.cluster import capped

    address, available = capped(cluster)
    if available is not None and not quiet:
        err(f"note: --cluster {cluster}: {available} processor{'s' if available != 1 else ''} here, so {address}")
    return address
