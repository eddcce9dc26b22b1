"""phatlog on Dask from Python (a notebook): ``verify`` or ``validate`` archives as a dask graph.

    >>> from distributed import Client
    >>> import phatlog.dask
    >>> client = Client("tcp://scheduler:8786")          # or LocalCluster(), dask-kubernetes, Coiled...
    >>> checked = phatlog.dask.verify(["s3://games/2026-11.jsonl", "s3://games/2026-12.jsonl"])
    >>> reports, total = dask.compute(checked.reports, checked.summary)

``reports`` is a ``dask.bag`` of :class:`phatlog.archive.check.DocumentReport` (the records that have something
to say, in input order); ``summary`` a delayed :class:`phatlog.archive.check.BatchResult` (records, deals,
clean, problems, unreadable, and the count of each code). The inputs are planned and read as the CLI's
``--cluster`` reads them (:mod:`phatlog.archive.cluster`), and every part goes through the same batch
function as a local run. A bag of lines (``dask.bag.read_text``, or any bag of JSON texts) is checked
too: its elements are numbered from 1 in bag order, as the lines of one archive named ``source``.
Needs ``phatlog[dask]``.
"""

from __future__ import annotations

import importlib
import operator
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple, TypeVar

from phatlog.archive.check import BatchResult, DocumentReport
from phatlog.archive.cluster import (
    PARTITION_BYTES,
    RETRIES,
    ClusterUnavailable,
    Failed,
    Part,
    Piece,
    count_lines,
    failed_result,
    plan,
    run_part,
    verify_piece,
)
from phatlog.diagnostics import diag
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits

R = TypeVar("R")


class Checked(NamedTuple):
    """What :func:`verify` and :func:`validate` return: lazy, computed by ``dask.compute`` (together, so
    that every part is read and checked once)."""

    reports: Any  # dask.bag.Bag of DocumentReport
    summary: Any  # dask.delayed.Delayed of BatchResult


def _dask() -> tuple[Any, Any]:
    try:
        return importlib.import_module("dask"), importlib.import_module("dask.bag")
    except ImportError as exc:
        raise ClusterUnavailable(f"phatlog.dask needs Dask: pip install 'phatlog[dask]' ({exc})") from exc


def verify(
    data: Any,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    partition_bytes: int = PARTITION_BYTES,
    source: str = "<bag>",
) -> Checked:
    """Verify (structure, then replay every deal) the records of ``data``: a path or URL, a list of them,
    or a ``dask.bag`` of JSON texts (one record an element)."""
    return _check(data, True, ReadLimits(max_bytes), partition_bytes, source)


def validate(
    data: Any,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    partition_bytes: int = PARTITION_BYTES,
    source: str = "<bag>",
) -> Checked:
    """Validate (structure only) the records of ``data``, as :func:`verify` takes it."""
    return _check(data, False, ReadLimits(max_bytes), partition_bytes, source)


def _check(data: Any, replay: bool, limits: ReadLimits, partition_bytes: int, source: str) -> Checked:
    dask, bag = _dask()
    work = partial(verify_piece, replay=replay)
    if isinstance(data, bag.Bag):
        archive = Part(source, source, first=True, last=True, limits=limits)  # the bag, read as one archive
        files = [(archive, _bag_partials(dask, data, work, archive))]
    else:
        paths = [data] if isinstance(data, str) else list(data)
        parts = plan(paths, partition_bytes, limits)
        files = _by_file(parts, delayed_partials(dask, parts, work))
    pieces: list[Any] = []
    for head, partials in files:
        pieces.extend(partials)
        if not head.whole and head.problem is None:
            pieces.append(dask.delayed(_no_records, pure=True)(head.source, *partials))
    reports = (
        bag.from_delayed([dask.delayed(_reports, pure=True)(p) for p in pieces]) if pieces else bag.from_sequence([])
    )
    return Checked(reports, dask.delayed(_total, pure=True)(*pieces))


def delayed_partials(dask: Any, parts: Sequence[Part], work: Callable[[Piece], R]) -> list[Any]:
    """The generic map as a dask graph: a delayed partial a part, in input order (a failed part becomes
    :class:`~phatlog.archive.cluster.Failed`, after a retry), each part read under its own limits. Each
    part but a file's last is counted first, so that the next part knows its first line (a chain of
    additions, no read)."""
    out: list[Any] = []
    first: Any = 1
    for part in parts:
        if part.first:
            first = 1
        out.append(dask.delayed(_guarded, pure=True)(work, part, first))
        if not (part.last or part.whole or part.problem):
            first = dask.delayed(operator.add, pure=True)(first, dask.delayed(count_lines, pure=True)(part))
    return out


def _guarded(work: Callable[[Piece], R], part: Part, first: int) -> R | Failed:
    error = ""
    for _ in range(RETRIES + 1):
        try:
            return run_part(work, part, first)
        except Exception as exc:
            error = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    return Failed(part, error)


def _by_file(parts: list[Part], partials: list[Any]) -> list[tuple[Part, list[Any]]]:
    files: list[tuple[Part, list[Any]]] = []
    for part, result in zip(parts, partials, strict=True):
        if part.first:
            files.append((part, []))
        files[-1][1].append(result)
    return files


def _bag_partials(dask: Any, data: Any, work: Callable[[Piece], BatchResult], archive: Part) -> list[Any]:
    out: list[Any] = []
    first: Any = 1
    for chunk in data.to_delayed():
        out.append(dask.delayed(_check_lines, pure=True)(chunk, first, archive, work))
        first = dask.delayed(operator.add, pure=True)(first, dask.delayed(len, pure=True)(chunk))
    return out


def _check_lines(
    lines: Sequence[str | bytes], first: int, archive: Part, work: Callable[[Piece], BatchResult]
) -> BatchResult:
    piece = Piece(archive.source, limits=archive.limits)
    for number, line in enumerate(lines, start=first):
        raw = line.encode("utf-8", "surrogateescape") if isinstance(line, str) else bytes(line)
        raw = raw.removesuffix(b"\n")
        piece.size += len(raw) + 1
        if raw.strip():
            piece.items.append((number, raw))
    return work(piece)


def _as_result(partial: BatchResult | Failed) -> BatchResult:
    return failed_result(partial) if isinstance(partial, Failed) else partial


def _reports(partial: BatchResult | Failed) -> list[DocumentReport]:
    return _as_result(partial).reports


def _no_records(source: str, *partials: BatchResult | Failed) -> BatchResult:
    """PL006 for an input in which no record starts, as a local run reports it; else nothing."""
    result = BatchResult()
    if not any(_as_result(p).records for p in partials):
        result.add(DocumentReport(source, None, [diag("PL006", f"{source} holds no records")], unreadable=True))
    return result


def _total(*partials: BatchResult | Failed) -> BatchResult:
    total = BatchResult()
    for part in map(_as_result, partials):
        total.count(part)
    return total


__all__ = ["Checked", "delayed_partials", "validate", "verify"]
