"""``phatlog replay``: a record trick by trick, with everything ``verify`` finds shown where it happened.

Registered in ``phatlog.cli.app`` by name, loaded on use. Like every command, it is the only place
that prints and chooses the exit code: 0 the record is clean; 1 verify found an error (the replay is
still printed) or the record is not valid (the schema diagnostics are printed instead); 2 the input
cannot be read, or ``--deal``/``--trick`` name something the record does not have.

``--format html`` writes one self-contained page (``phatlog.report.html``), ``--format svg`` a picture
of one deal (``phatlog.report.svg``), each to ``-o`` or standard output, whole or not at all; an archive
(``.jsonl``) with ``--format html -o DIR`` becomes a directory of pages with an index.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from enum import StrEnum
from typing import Annotated, BinaryIO, Final, NoReturn, Optional

import typer
from rich.console import Console

from phatlog.archive.atomic import STDIO
from phatlog.archive.atomic import directory as make_directory
from phatlog.archive.atomic import output as open_output
from phatlog.archive.inputs import JSONL_SUFFIXES
from phatlog.cli.run import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE
from phatlog.cli.say import Say
from phatlog.diagnostics import diag
from phatlog.diagnostics.printable import printable
from phatlog.record.reader import DEFAULT_MAX_BYTES, Loaded, read_bytes, read_limited, read_lines, read_path
from phatlog.report import SelectionError, Summary, build, html, markdown, svg, text
from phatlog.report import rich as rich_report
from phatlog.report.marks import analyse_summary
from phatlog.report.summary import write_json


class ReplayFormat(StrEnum):
    rich = "rich"
    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"
    svg = "svg"


def replay(
    file: Annotated[
        str,
        typer.Argument(
            help="A record file (.json), a record of an archive (archive.jsonl:N), or - for standard input."
        ),
    ],
    deal: Annotated[
        Optional[int], typer.Option("--deal", "-d", min=1, help="Show only this deal (Oh Hell: hand), from 1.")
    ] = None,
    trick: Annotated[
        Optional[int], typer.Option("--trick", "-t", min=1, help="With --deal: show only this trick, from 1.")
    ] = None,
    format: Annotated[
        Optional[ReplayFormat],
        typer.Option(
            "--format",
            "-f",
            help=(
                "rich (the default on a terminal), text (the default otherwise), markdown, json (for programs), "
                "html (a page to step through; an archive: a directory of pages) or svg (one deal: needs --deal)."
            ),
            show_default=False,
        ),
    ] = None,
    max_bytes: Annotated[int, typer.Option("--max-bytes", min=1, help="Refuse a record larger than this.")] = (
        DEFAULT_MAX_BYTES
    ),
    output: Annotated[
        Optional[str],
        typer.Option(
            "--output",
            "-o",
            help="Write here instead of standard output (html of an archive: the directory for its pages).",
            show_default=False,
        ),
    ] = None,
    record: Annotated[
        Optional[int],
        typer.Option("--record", min=1, help="FILE is an archive: replay the record on this line (as verify counts)."),
    ] = None,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse",
            help="Mark each card that cost points (All Fours) or tricks (Oh Hell) against best play, as phatlog "
            "analyse values it (double dummy: slow for the first tricks of a 13-card deal).",
        ),
    ] = False,
    line: Annotated[
        bool, typer.Option("--line", help="With --analyse, html: each deal's best line of play (a search a card).")
    ] = False,
    pitch: Annotated[
        bool,
        typer.Option(
            "--pitch",
            help="With --analyse, html: the value of every first lead by trump (All Fours; minutes for 13 cards).",
        ),
    ] = False,
) -> None:
    """Replay a record deal by deal and trick by trick: hands, trump, bids, each trick's winner and why,
    what it pegs and the running score, the bonuses, the totals and the winner, with every problem that
    verify finds shown at the trick or deal where it happened."""
    if analyse and format is ReplayFormat.svg:
        _usage("--analyse marks the replay's cards: the svg picture has no marks (use --format html or text)")
    if format is ReplayFormat.svg and deal is None:
        _usage("--format svg draws one deal: give --deal N (and --trick K for the hands before trick K)")
    if output is not None and format not in (ReplayFormat.html, ReplayFormat.svg):
        _usage("--output is for --format html or svg")
    one = record is not None or _addressed(file)
    if format is ReplayFormat.html and not one and file != "-" and file.lower().endswith(JSONL_SUFFIXES):
        if deal is not None or trick is not None:
            _usage("--deal and --trick select within one record, not in an archive")
        if output is None:
            _usage("an archive makes a page a record: give -o DIR for them")
        raise typer.Exit(_archive_pages(file, output, max_bytes, analyse))
    try:
        loaded = _read(file, max_bytes) if not one else archive_record(file, record, max_bytes)
    except SelectionError as exc:
        Say(stderr=True).error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        summary = build(loaded, deal=deal, trick=trick)
        if format in (ReplayFormat.svg, ReplayFormat.html) and trick is not None:  # the whole deal, shown at the trick
            summary = build(loaded, deal=deal)
    except SelectionError as exc:
        Say(stderr=True).error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if (line or pitch) and not (analyse and format is ReplayFormat.html):
        _usage("--line and --pitch add best play to the --analyse page: give --analyse --format html")
    if analyse:
        whole = format is ReplayFormat.html or trick is None  # the page shows the whole deal
        analyse_summary(summary, loaded, deal=deal, from_trick=1 if whole else trick or 1, line=line, pitch=pitch)
    chosen = format or (ReplayFormat.rich if sys.stdout.isatty() else ReplayFormat.text)
    if chosen is ReplayFormat.svg and summary.status == "replayed" and summary.deals:
        _write(output or STDIO, svg.deal_picture(summary, summary.deals[0], trick))
    elif chosen is ReplayFormat.svg:  # a record that cannot be replayed has no deal to draw: say why, draw nothing
        sys.stderr.write(text.render(summary))
    elif chosen is ReplayFormat.html:
        _write(output or STDIO, html.render(summary, trick=trick))
    else:
        _emit(summary, chosen)
    if summary.status == "unreadable":
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN if summary.clean else EXIT_PROBLEMS)


_ADDRESS: Final = re.compile(r"(.+):([0-9]+)")


def _addressed(file: str) -> bool:
    """``archive.jsonl:N`` names line N of an archive, unless a file has that very name."""
    return _ADDRESS.fullmatch(file) is not None and not os.path.exists(file)


def archive_record(file: str, record: int | None, max_bytes: int) -> Loaded:
    """The record on line ``record`` of the archive ``file`` (or ``archive.jsonl:N``), read a line at a time."""
    if record is None:
        found = _ADDRESS.fullmatch(file)
        assert found is not None
        file, record = found[1], int(found[2])
    source = f"{file}:{record}"
    try:
        stream = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        return Loaded(source, None, [diag("PL001", f"{file}: {exc.strerror or exc}")])
    try:
        for number, raw, _ in read_lines(stream, max_bytes):
            if number < record:
                continue
            if raw is None:
                message = f"line {record} is larger than the limit of {max_bytes:,} bytes (see --max-bytes)"
                return Loaded(source, None, [diag("PL003", message)])
            if not raw.strip():
                raise SelectionError(f"line {record} of {file} is blank: it holds no record")
            return read_bytes(raw.removeprefix(b"\xef\xbb\xbf") if number == 1 else raw, source)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    raise SelectionError(f"{file} has no line {record}")


def _read(file: str, max_bytes: int) -> Loaded:
    if file != "-":
        return read_path(file, max_bytes)
    data = read_limited(sys.stdin.buffer, max_bytes)  # a chunk at a time: nothing is allocated from the limit
    if data is None:
        message = f"<stdin> is larger than the limit of {max_bytes:,} bytes (see --max-bytes)"
        return Loaded("<stdin>", None, [diag("PL003", message)])
    return read_bytes(data, "<stdin>")


def _emit(summary: Summary, chosen: ReplayFormat) -> None:
    if chosen is ReplayFormat.rich:
        rich_report.render(summary, Console(highlight=False))
        return
    if chosen is ReplayFormat.json:
        write_json(summary, _out)  # a deal at a time: the whole text is never held
    elif chosen is ReplayFormat.markdown:
        _out(markdown.render(summary))
    else:
        for piece in text.pieces(summary):
            _out(piece)
    sys.stdout.flush()


def _out(out: str) -> None:
    """A piece of the replay on standard output."""
    try:
        sys.stdout.write(out)
    except UnicodeEncodeError:  # a terminal that cannot show suit symbols: show what it can
        sys.stdout.flush()
        sys.stdout.buffer.write(out.encode(sys.stdout.encoding or "ascii", errors="replace"))


def _usage(message: str) -> NoReturn:
    Say(stderr=True).error(message)
    raise typer.Exit(EXIT_UNREADABLE)


def _write(target: str, text: str) -> None:
    """One output whole or not at all (``phatlog.archive.atomic``); a write that fails is exit code 2."""
    try:
        with open_output(target) as out:
            out.stream.write(text)
            out.keep = True
    except OSError as exc:
        where = "standard output" if target == STDIO else target
        Say(stderr=True).error(f"cannot write {where}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None


def _archive_pages(file: str, directory: str, max_bytes: int, analysed: bool = False) -> int:
    """An archive as a directory of pages: ``index.html`` listing every record, and ``record-N.html`` for
    the record on line N. One record is held at a time. The exit code: 2 if the archive cannot be read,
    1 if any record has an error, else 0."""
    say = Say(stderr=True)
    try:
        make_directory(directory)
    except OSError as exc:
        say.error(f"cannot write {printable(directory)}: {exc.strerror or exc}")
        return EXIT_UNREADABLE
    try:
        stream = open(file, "rb")  # noqa: SIM115 (closed below, after the last line)
    except OSError as exc:
        say.error(f"{printable(file)}: {exc.strerror or exc}")
        return EXIT_UNREADABLE
    entries: list[html.IndexEntry] = []
    worst = EXIT_CLEAN
    with stream:
        for number, loaded in archive_lines(stream, file, max_bytes):
            page = f"record-{number}.html"
            summary = record_page(directory, page, loaded, analysed=analysed)
            entries.append(html.index_entry(summary, number, page))
            if not summary.clean:
                worst = EXIT_PROBLEMS
    _write(os.path.join(directory, "index.html"), html.index_page(file, entries))
    return worst


def archive_lines(stream: BinaryIO, file: str, max_bytes: int) -> Iterator[tuple[int, Loaded]]:
    """Every record of an archive read a line at a time, with its line number (blank lines skipped)."""
    for number, raw, _size in read_lines(stream, max_bytes):
        if raw is not None and not raw.strip():
            continue
        source = f"{file}:{number}"
        if raw is None:
            yield number, Loaded(source, None, [diag("PL003", f"line {number} is longer than {max_bytes:,} bytes")])
        else:
            yield number, read_bytes(raw, source)


def record_page(
    directory: str, page: str, loaded: Loaded, index: str = "index.html", *, analysed: bool = False
) -> Summary:
    """One record's replay page, ``directory/page``, written whole or not at all, linking back to
    ``index``; its summary (``analysed``: with ``--analyse``'s marks). An archive's pages (above) and an
    event report's (``standings``) are made here."""
    summary = build(loaded)
    if analysed:
        analyse_summary(summary, loaded)
    _write(os.path.join(directory, page), html.render(summary, index=index))
    return summary
