"""Converting a file from one format to another, all or nothing. No printing here: the CLI prints.

``convert_file`` reads the input a record at a time (an archive in constant memory), writes each record in
the target format to a temporary file beside the output, and renames it into place only when every record
was converted and nothing was lost, or the losses were allowed (``lossy``). Otherwise the temporary file
is removed and the output is left as it was. The input is only ever read.

What it finds is a :class:`Report`: the records converted, every loss (PL702: data the target format
cannot carry, each with its JSON Pointer) and the problems that stopped the conversion (an input that
does not parse or is not a valid record, a record the target format cannot represent: PL703, ...).
"""

from __future__ import annotations

import copy
import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, BinaryIO

from phatlog.archive.atomic import STDIO, output
from phatlog.archive.inputs import address
from phatlog.diagnostics import Diagnostic, diag
from phatlog.formats import FORMATS, Format, csv_sheet, format_for_path, jsonl, openspiel, table, text
from phatlog.formats.base import ConversionError, Parsed, Record, canonical, refuse
from phatlog.record.load import as_model
from phatlog.record.read_limits import DEFAULT_READ_LIMITS, ReadLimits
from phatlog.record.reader import read_limited
from phatlog.record.streams import CorruptInput, inner_name, open_input


@dataclass(slots=True)
class Found:
    """One diagnostic and the record it concerns (its line, in an archive)."""

    diagnostic: Diagnostic
    line: int | None = None


@dataclass(slots=True)
class Report:
    """What a conversion did."""

    source: str
    target: str
    records: int = 0
    losses: list[Found] = field(default_factory=list)
    problems: list[Found] = field(default_factory=list)
    written: bool = False

    @property
    def refused_for_loss(self) -> bool:
        """Nothing was written only because something would have been lost (and --lossy was not given)."""
        return not self.written and not self.problems and bool(self.losses)


class UsageError(ValueError):
    """A conversion asked for in a way that cannot work (the formats cannot be told, the output is the input)."""


def resolve_format(path: str, named: str | None, role: str) -> Format:
    """The format of a file: as named, or from the file name; ``UsageError`` if neither says."""
    if named is not None:
        if named not in FORMATS:
            raise UsageError(f"unknown format {named!r}: the formats are {', '.join(FORMATS)}")
        return FORMATS[named]
    fmt = None if path == STDIO else format_for_path(inner_name(path) if role == "input" else path)
    if fmt is None:
        what = "standard input" if role == "input" and path == STDIO else "standard output" if path == STDIO else path
        flag = "--from" if role == "input" else "--to"
        suffixes = "; ".join(f"{name}: {', '.join(f.SUFFIXES)}" for name, f in FORMATS.items() if f.SUFFIXES)
        raise UsageError(f"the format of {what} cannot be told from its name ({suffixes}): name it with {flag}")
    return fmt


def convert_file(
    source: str,
    target: str,
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    lossy: bool = False,
    deal: int | None = None,
    limits: ReadLimits = DEFAULT_READ_LIMITS,
    view: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Convert ``source`` into ``target`` (either may be ``-``); ``deal`` (from 0) picks an OpenSpiel hand;
    ``view`` (a seat number from 0, or a player's name) writes each record as that seat saw it (``seat_view``).

    Raises ``UsageError`` for a request that cannot work; every problem with the data is in the report.
    """
    layered = from_format is None and (source == STDIO or address(source) is not None)
    if source != STDIO and os.path.isdir(source):
        raise UsageError(
            f"{source} is a directory: convert takes one file (phatlog select gathers a directory's records)"
        )
    src = jsonl if layered else resolve_format(source, from_format, "input")
    dst = resolve_format(target, to_format, "output")
    if deal is not None and dst is not openspiel:
        raise UsageError("--deal picks the hand to write for OpenSpiel; it goes with --to openspiel")
    if source != STDIO and target != STDIO and _same_file(source, target):
        raise UsageError(f"the output {target} is the input: phatlog never writes over its input")
    max_bytes = limits.max_bytes
    report = Report(source, target)
    if dst is csv_sheet and src is jsonl:
        dst = table  # an archive to CSV: the long table, a row a deal a side
    render = functools.partial(openspiel.render, deal=deal) if dst is openspiel else dst.render
    if dst is table:
        render = functools.partial(table.render_at, source="" if source == STDIO else source)
    if view is not None:
        render = functools.partial(_render_view, render, view)
    with _opened(STDIO if layered else source, report) as fp:
        if fp is None:
            return report
        if layered:  # standard input as verify reads it (one record, or JSON Lines), or FILE:N
            records: Iterator[Parsed] = _layered(source, limits)
        else:
            if src is csv_sheet and _is_table(fp):
                src = table
            if src is jsonl or src is text or src is table:  # a game at a time: an archive of any size
                records = src.load(fp, source, max_bytes)
            else:
                records = _load_whole(src, fp, source, max_bytes)
        try:
            with output(target) as out:
                ok = _convert(records, render, dst, lossy, report, out.stream, progress)
                out.keep = ok and (lossy or not report.losses)
        except CorruptInput as exc:  # the input stopped decompressing: nothing is written
            report.problems.append(Found(diag("PL002", f"{source}: {exc}")))
            return report
        except OSError as exc:
            raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
        report.written = out.kept
    return report


#: The key of the extension object a seat's view is marked with (in the record's and each deal's ``ext``).
VIEW_EXT = "phatlog_view"


def seat_view(record: Record, seat: str | int) -> Record:
    """The record as one seat saw it: never another seat's unplayed card (docs/cli.md, ``--view``).

    A record's ``hands`` are all or nothing, so each deal's ``hands`` are dropped: the hands are then
    inferred from the tricks (what everyone saw played), and the seat's own hand as dealt is kept in the
    deal's ``ext.phatlog_view.hand``. Nine-card Don's ``undealt`` cards, which nobody sees, are dropped.
    Everything public stays: the cut, the dealers, the tricks, Oh Hell's turned-up cards, bids and tricks
    taken, the scores and the result. The record's ``ext.phatlog_view`` names the seat. ``seat`` is a seat
    number (from 0) or a player's name; ``ConversionError`` (PL703) if the record has no such seat."""
    names = [p.get("name") for p in record.get("players", ())]
    if isinstance(seat, str) and seat.strip().isdigit():
        seat = int(seat)
    if isinstance(seat, str):
        if seat not in names:
            raise ConversionError([refuse("/players", f"--view {seat}: no player of this record is called that")])
        seat = names.index(seat)
    if not 0 <= seat < len(names):
        raise ConversionError(
            [refuse("/players", f"--view {seat}: the seats of this record are 0 to {len(names) - 1}")]
        )
    out = copy.deepcopy(dict(record))
    for deal in out.get("deals", ()):
        hands = deal.pop("hands", None)
        deal.pop("undealt", None)
        if hands is not None:
            own = list(hands[seat]) if seat < len(hands) else []
            deal["ext"] = {**(deal.get("ext") or {}), VIEW_EXT: {"hand": own}}
    out["ext"] = {**(out.get("ext") or {}), VIEW_EXT: {"seat": seat, "name": names[seat]}}
    return out


def _render_view(render: Any, seat: str, record: Record, **placed: Any) -> tuple[str, list[Diagnostic]]:
    return render(canonical(seat_view(record, seat)), **placed)  # type: ignore[no-any-return]


def _is_table(fp: BinaryIO) -> bool:
    """Whether a CSV input is the long table (its header row), not a score sheet; reads nothing away."""
    size = len(table.HEAD) + 3
    peek = getattr(fp, "peek", None)
    if peek is not None:
        head = peek(size)
    elif fp.seekable():
        where = fp.tell()
        head = fp.read(size)
        fp.seek(where)
    else:
        head = b""
    return bytes(head).removeprefix(b"\xef\xbb\xbf").startswith(table.HEAD.strip().encode())


def _layered(source: str, limits: ReadLimits) -> Iterator[Parsed]:
    """The records of ``source`` (standard input, ``FILE:N``) read by the input layer, as verify reads them."""
    from phatlog.archive.records import records

    hint = " (standard input is read as JSON or JSON Lines: name another notation with --from)"
    for entry in records(source, limits):
        loaded = entry.loaded
        if loaded.record is None:
            found = [d.located(()) for d in loaded.diagnostics]
            if source == STDIO:
                found = [replace(d, message=d.message + hint) if d.code == "PL002" else d for d in found]
            yield Parsed(None, found, entry.line)
        else:
            yield Parsed(canonical(as_model(loaded.record)), [], entry.line)


def _load_whole(src: Format, fp: BinaryIO, source: str, max_bytes: int) -> Iterator[Parsed]:
    data = read_limited(fp, max_bytes)  # a chunk at a time: nothing is allocated from the limit
    if data is None:
        yield Parsed(
            None, [diag("PL003", f"{source} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)")]
        )
        return
    yield from src.loads(data, source)


def _convert(
    parsed_records: Iterator[Parsed],
    render: Any,
    dst: Format,
    lossy: bool,
    report: Report,
    out: IO[str],
    progress: Callable[[int], None] | None = None,
) -> bool:
    for parsed in parsed_records:
        line = parsed.line
        report.losses.extend(Found(d, line) for d in parsed.losses)
        if parsed.record is None or parsed.errors:
            report.problems.extend(Found(d, line) for d in parsed.diagnostics if d.code != "PL702")
            return False
        if report.records and dst.MANY:
            out.write(getattr(dst, "SEPARATOR", ""))
        if report.records and not dst.MANY:
            message = f"{dst.NAME} holds one game, but the input holds more than one: convert to jsonl"
            report.problems.append(Found(refuse("", message), line))
            return False
        try:
            text, lost = render(parsed.record, line=line) if dst is table else render(parsed.record)
        except ConversionError as exc:
            report.problems.extend(Found(d, line) for d in exc.diagnostics)
            return False
        report.losses.extend(Found(d, line) for d in lost)
        if report.losses and not lossy:
            return False
        if not report.records:
            out.write(getattr(dst, "HEAD", ""))
        out.write(text)
        report.records += 1
        if progress is not None:
            progress(1)
    return True


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


@contextmanager
def _opened(source: str, report: Report) -> Iterator[BinaryIO | None]:
    if source == STDIO:
        yield sys.stdin.buffer
        return
    path = Path(source)
    try:
        if path.is_dir():
            raise IsADirectoryError(source)
        fp = open_input(path)  # decompressed where the name says so
    except FileNotFoundError:
        report.problems.append(Found(diag("PL001", f"{source}: no such file")))
        yield None
        return
    except IsADirectoryError:
        report.problems.append(Found(diag("PL001", f"{source} is a directory, not a file")))
        yield None
        return
    except OSError as exc:
        report.problems.append(Found(diag("PL001", f"{source}: {exc.strerror or exc}")))
        yield None
        return
    with fp:
        yield fp
