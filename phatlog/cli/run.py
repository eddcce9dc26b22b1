"""``verify`` and ``validate`` as they run: checking, printing the diagnostics and the summary, and the
fast start. No typer here: this module and what it imports are all that a plain ``phatlog verify FILES``
loads (issue 16).

``fast(args)``: the command lines that need no parser's judgement, ``phatlog --version`` and ``phatlog
verify|validate`` with files and well-formed options, run straight from here, without typer, click,
pydantic or rich, which cost more to load than a small record costs to verify. Anything else (``--help``,
an unknown or malformed option, a value out of range, no file, shell completion) returns None and goes to
the typer app in :mod:`phatlog.cli.app`, which parses it and explains any error: the fast start takes only
what typer would take, in the same meaning, so it changes the speed, never the behaviour.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from phatlog.cli.say import STYLE, Say, table
from phatlog.diagnostics import CODES, Severity

if TYPE_CHECKING:
    from rich.console import Console

    from phatlog.archive.check import BatchResult, DocumentReport
    from phatlog.record.read_limits import ReadLimits

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE = 0, 1, 2


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class Duplicates(StrEnum):
    """What ``verify`` reports as duplicates (docs/archives.md): records and deals, records only, nothing."""

    deals = "deals"
    records = "records"
    off = "off"


#: What ``check_all`` computes for each setting of ``--duplicates``.
_LEVEL: Final = {Duplicates.off: 0, Duplicates.records: 1, Duplicates.deals: 2}


def _run(
    files: list[str],
    replay: bool,
    fmt: OutputFormat,
    limits: ReadLimits,
    quiet: bool,
    jobs: int,
    verbose: bool = False,
    cluster: str | None = None,
    duplicates: Duplicates = Duplicates.off,
    results: Iterable[BatchResult] | None = None,
) -> int:
    from phatlog.archive.check import FACTS, NO_DETAIL, BatchResult, check_all, cpus

    out = Say()
    err = Say(stderr=True)
    total = BatchResult()
    if cluster is None and jobs > (available := cpus()):
        if not quiet:
            err(f"note: --jobs {jobs}: {available} processor{'s' if available != 1 else ''} here, so {available}")
        jobs = available
    if cluster is not None:
        from phatlog.cli.cluster import capped_note

        cluster = capped_note(cluster, err, quiet)
    detail = FACTS if fmt is OutputFormat.json else NO_DETAIL
    tracker = None
    if duplicates is not Duplicates.off:
        from phatlog.archive.duplicates import DuplicateTracker

        tracker = DuplicateTracker(deals=duplicates is Duplicates.deals)
    if results is None:
        results = (
            check_all(files, replay, limits, jobs, detail, _LEVEL[duplicates])
            if cluster is None
            else _on_cluster(files, replay, limits, cluster, detail, _LEVEL[duplicates])
        )
    with _progress(err, files, quiet) as advance:
        for result in results:
            if tracker is not None:
                tracker.apply(result)
            for report in result.reports:
                _emit(out, report, fmt, verbose)
            total.count(result)
            advance(result.size)
    if not quiet and fmt is OutputFormat.text:
        _summary(err, total, "verified" if replay else "validated", verbose)
    if total.unreadable:
        return EXIT_UNREADABLE
    return EXIT_PROBLEMS if total.problems else EXIT_CLEAN


def _on_cluster(
    files: list[str], replay: bool, limits: ReadLimits, cluster: str, detail: int, fingerprints: int
) -> Iterator[BatchResult]:
    """The batch results of a run on a Dask cluster (phatlog.archive.cluster), or a usage error (exit 2)."""
    from phatlog.archive.cluster import ClusterUnavailable, check_on_cluster

    try:
        return check_on_cluster(files, replay, limits, cluster, detail=detail, fingerprints=fingerprints)
    except ClusterUnavailable as exc:
        Say(stderr=True).error(str(exc))
        raise SystemExit(EXIT_UNREADABLE) from None


#: Inputs at least this large get a progress bar (on a terminal only).
PROGRESS_BYTES = 20_000_000


@contextmanager
def _progress(say: Say, files: list[str], quiet: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error for long runs on a terminal; elsewhere nothing."""
    from phatlog.archive import inputs

    sizes = [os.path.getsize(f) for f in inputs.files(files) if f != "-" and os.path.isfile(f)]
    if quiet or sum(sizes) < PROGRESS_BYTES or not say.console.is_terminal:
        yield lambda n: None
        return
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

    err: Console = say.console
    columns = (TextColumn("checking"), BarColumn(), DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("check", total=sum(sizes))
        yield lambda n: bar.advance(task, n)


def _summary(err: Say, total: BatchResult, verb: str, verbose: bool = False) -> None:
    """The closing summary: a line, and for several records or any problem a table by code.

    Notes (info) are counted in the line; unless ``verbose`` printed them, the line says how to see them,
    and the table lists them only when ``verbose``.
    """
    records = total.records
    by_severity = Counter(CODES[c].severity for c in total.codes.elements())
    nouns = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    tally = ", ".join(
        f"{by_severity[s]} {nouns[s]}{'s' if by_severity[s] != 1 else ''}" for s in nouns if by_severity[s]
    )
    hidden = by_severity[Severity.INFO] if not verbose else 0
    err(
        f"{records} record{'s' if records != 1 else ''} ({total.deals} deal{'s' if total.deals != 1 else ''}) "
        f"{verb}: {total.clean} clean, {total.problems} with problems"
        + (f", {total.unreadable} unreadable" if total.unreadable else "")
        + (f" ({tally})" if tally else "")
        + (
            f"; --verbose prints {'it' if hidden == 1 else 'them'}"
            if hidden and not by_severity.keys() - {Severity.INFO}
            else ""
        )
        + (
            f"; --verbose prints the {'note' if hidden == 1 else 'notes'}"
            if hidden and by_severity.keys() - {Severity.INFO}
            else ""
        )
    )
    shown = {c: n for c, n in total.codes.items() if verbose or CODES[c].severity is not Severity.INFO}
    if records > 1 and shown:
        rows = [[code, CODES[code].name, CODES[code].severity.value, str(n)] for code, n in sorted(shown.items())]
        err.show(table(["code", "name", "severity", "count"], rows, right=frozenset({"count"})))


def _emit(out: Say, report: DocumentReport, fmt: OutputFormat, verbose: bool = False) -> None:
    """One record's diagnostics: JSON Lines (every one, notes too, then the record's own line), or text
    lines (notes only if ``verbose``)."""
    if fmt is OutputFormat.json:
        for d in report.diagnostics:
            row = {"kind": "diagnostic", "file": report.source, **d.as_json()}
            out.data(json.dumps(row, ensure_ascii=False) + "\n")
        out.data(json.dumps(record_line(report), ensure_ascii=False) + "\n")
        return
    for d in report.diagnostics:
        if d.severity is Severity.INFO and not verbose:
            continue
        where = report.source
        if d.line is not None:
            where += f":{d.line}" + (f":{d.column}" if d.column is not None else "")
        place = f" ({d.place})" if d.place and d.place != "the record" else ""
        out(
            f"{where}: {d.pointer or '/'}: ",
            (d.severity.value, STYLE[d.severity]),
            f" {d.code} {d.name}: {d.message}{place}",
        )


def record_line(report: DocumentReport) -> dict[str, object]:
    """The ``{"kind": "record"}`` line of ``--format json``: one a record, clean or not (docs/cli.md)."""
    found = report.facts
    errors = sum(1 for d in report.diagnostics if d.severity is Severity.ERROR)
    warnings = sum(1 for d in report.diagnostics if d.severity is Severity.WARNING)
    status = "unreadable" if report.unreadable else "problems" if errors else "clean"
    return {
        "kind": "record",
        "file": report.source,
        "line": report.line,
        "status": status,
        "game": None if found is None else found.game,
        "event": None if found is None else found.event,
        "players": None if found is None else [{"name": p.name, "id": p.id} for p in found.players],
        "deals": None if found is None else found.deals,
        "winner": None if found is None else found.winner,
        "totals": None if found is None else found.totals,
        "errors": errors,
        "warnings": warnings,
    }


# ---------------------------------------------------------------------------- the fast start

#: The options of ``verify`` and ``validate`` (as :mod:`phatlog.cli.app` declares them), by what they set.
_FLAGS: Final = {"--quiet": "quiet", "-q": "quiet", "--verbose": "verbose", "-v": "verbose"}
_VALUED: Final = {
    "--format": "format",
    "-f": "format",
    "--max-bytes": "max_bytes",
    "--jobs": "jobs",
    "-j": "jobs",
    "--duplicates": "duplicates",
}
#: A number typer's ``int`` with ``min=1`` takes as such: plain digits, not zero, short enough to be sure.
_NUMBER_DIGITS: Final = 18


def parse(args: list[str]) -> dict[str, Any] | None:
    """``verify``/``validate`` arguments as the command's parameters, or None where typer must judge.

    Taken: file names (not starting with ``-``, or ``-`` itself), the flags ``--quiet``/``-q`` and
    ``--verbose``/``-v``, and ``--format``/``-f`` (text, json), ``--duplicates`` (deals, records, off;
    verify's), ``--max-bytes`` and ``--jobs``/``-j`` (a whole number from 1) with their value in the next
    argument or after ``=`` (long forms). Each option at most once; at least one file. Anything else
    (``--help``, ``--``, ``-qv``, ``-fjson``, ``--jobs 0``, ``--jobs=x``) is left to typer, which explains
    what is wrong, or does what it means.
    """
    options: dict[str, Any] = {}
    files: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            files.append(arg)
            continue
        name, eq, value = arg.partition("=")
        given: object
        if name in _FLAGS and not eq:
            key, given = _FLAGS[name], True
        elif name in _VALUED and (not eq or name.startswith("--")):
            if not eq:
                if i >= len(args):
                    return None
                value = args[i]
                i += 1
            key = _VALUED[name]
            if key == "format":
                if value not in ("text", "json"):
                    return None
                given = OutputFormat(value)
            elif key == "duplicates":
                if value not in ("deals", "records", "off"):
                    return None
                given = Duplicates(value)
            else:
                if not (value.isascii() and value.isdigit() and 0 < len(value) <= _NUMBER_DIGITS and int(value) >= 1):
                    return None
                given = int(value)
        else:
            return None
        if key in options:
            return None
        options[key] = given
    if not files:
        return None
    return {"files": files, **options}


def fast(args: list[str]) -> int | None:
    """Run ``args`` (the command line after ``phatlog``) here if they need no parser (see the module's
    docstring) and return the exit code; None: give them to the typer app."""
    run = prepare(args)
    return None if run is None else run()


def prepare(args: list[str]) -> Callable[[], int] | None:
    """What :func:`fast` runs for ``args``, with the modules it needs already imported; None: typer's."""
    if any(key.endswith("_COMPLETE") for key in os.environ):  # shell completion: click's business
        return None
    if args == ["--version"]:
        from phatlog import __version__

        return lambda: _guarded(lambda: _say_version(__version__))
    if not args or args[0] not in ("verify", "validate"):
        return None
    params = parse(args[1:])
    if params is None:
        return None
    replay = args[0] == "verify"
    if not replay and "duplicates" in params:  # not validate's option: typer says so
        return None
    import phatlog.archive.check  # noqa: F401 - loaded now, not when the run starts (see phatlog.cli.entry)
    from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits

    return lambda: _guarded(
        lambda: _run(
            params["files"],
            replay,
            params.get("format", OutputFormat.text),
            ReadLimits(params.get("max_bytes", DEFAULT_MAX_BYTES)),
            params.get("quiet", False),
            params.get("jobs", 1),
            params.get("verbose", False),
            None,
            params.get("duplicates", Duplicates.deals) if replay else Duplicates.off,
        )
    )


def _say_version(version: str) -> int:
    Say()(f"phatlog {version}")
    return EXIT_CLEAN


class _PacifyFlush:
    """A stream whose ``flush`` ignores a closed pipe, as click's ``PacifyFlushWrapper``: after the reader
    of standard output went away, the interpreter's last flush must not print a traceback."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.wrapped, attr)


def _guarded(run: Callable[[], int]) -> int:
    """``run()``'s exit code, with a closed pipe handled as click handles it for the typer app: exit 1,
    quietly."""
    try:
        return run()
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout = _PacifyFlush(sys.stdout)
        sys.stderr = _PacifyFlush(sys.stderr)
        return EXIT_PROBLEMS
