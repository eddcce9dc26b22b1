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
import sys
from enum import StrEnum
from typing import Annotated, NoReturn, Optional

import typer
from rich.console import Console

from phatlog.analysis.single_dummy import SingleDummyAsk
from phatlog.archive.atomic import STDIO
from phatlog.archive.atomic import directory as make_directory
from phatlog.archive.atomic import output as open_output
from phatlog.archive.inputs import address
from phatlog.archive.records import NotOne, one, record_at, records
from phatlog.cli.options import JobsOpt, SamplesOpt, SeedOpt
from phatlog.cli.progress import over_items, wanted
from phatlog.cli.run import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_UNREADABLE
from phatlog.cli.say import Say
from phatlog.diagnostics import diag
from phatlog.diagnostics.printable import printable
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits
from phatlog.record.reader import Loaded
from phatlog.record.streams import notation
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
    single_dummy: Annotated[
        bool,
        typer.Option(
            "--single-dummy",
            help="With --analyse: value each card on what its player knew too (sampled layouts, each solved).",
        ),
    ] = False,
    samples: SamplesOpt = 100,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
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
    limits = ReadLimits(max_bytes)
    one = record is not None or _addressed(file)
    many = not one and file != "-" and (notation(file) == "jsonl" or os.path.isdir(file))
    if format is ReplayFormat.html and many:
        if deal is not None or trick is not None:
            _usage("--deal and --trick select within one record, not in an archive")
        if output is None:
            _usage("an archive makes a page a record: give -o DIR for them")
        raise typer.Exit(_archive_pages(file, output, limits, analyse))
    try:
        loaded = archive_record(file, record, limits) if one else one_record(file, limits)
    except NotOne as exc:
        if one:  # no record starts on the line named
            Say(stderr=True).error(str(exc))
            raise typer.Exit(EXIT_UNREADABLE) from None
        hint = "; or give --format html -o DIR for a page a record" if format is ReplayFormat.html else ""
        loaded = Loaded(file, None, [diag("PL007", f"{exc}{hint}")])  # said as any unreadable input is: exit 2
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
    if single_dummy and not analyse:
        _usage("--single-dummy adds to --analyse's marks: give --analyse --single-dummy")
    if (line or pitch) and not (analyse and format is ReplayFormat.html):
        _usage("--line and --pitch add best play to the --analyse page: give --analyse --format html")
    if analyse:
        whole = format is ReplayFormat.html or trick is None  # the page shows the whole deal
        with over_items(None, "valuing cards") as advance:
            told = (lambda _done, _all: advance(1)) if wanted() else None
            analyse_summary(
                summary,
                loaded,
                deal=deal,
                from_trick=1 if whole else trick or 1,
                progress=told,
                line=line,
                pitch=pitch,
                single_dummy=SingleDummyAsk(samples, seed, jobs) if single_dummy else None,
            )
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


def _addressed(file: str) -> bool:
    """``archive.jsonl:N`` names line N of an archive, unless a file has that very name."""
    return address(file) is not None


def archive_record(file: str, record: int | None, limits: ReadLimits) -> Loaded:
    """The record on line ``record`` of ``file`` (or of ``archive.jsonl:N``): the line ``verify`` names, in
    any notation; ``NotOne`` where no record starts there."""
    if record is None:
        named = address(file)
        assert named is not None
        file, record = named
    return record_at(file, record, limits).loaded


def one_record(file: str, limits: ReadLimits) -> Loaded:
    """The one record ``file`` holds, in any notation; ``NotOne`` for an archive of several (it says how
    many, and how to name one)."""
    return one(file, limits).loaded


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


def _archive_pages(file: str, directory: str, limits: ReadLimits, analysed: bool = False) -> int:
    """An archive as a directory of pages: ``index.html`` listing every record, and ``record-N.html`` for
    the record on line N. One record is held at a time. The exit code: 2 if the archive cannot be read,
    1 if any record has an error, else 0."""
    say = Say(stderr=True)
    try:
        make_directory(directory)
    except OSError as exc:
        say.error(f"cannot write {printable(directory)}: {exc.strerror or exc}")
        return EXIT_UNREADABLE
    if not os.path.exists(file):
        say.error(f"{printable(file)}: no such file")
        return EXIT_UNREADABLE
    entries: list[html.IndexEntry] = []
    worst = EXIT_CLEAN
    for found in records(file, limits):
        number = found.line or 1
        page = f"record-{number}.html"
        found.loaded.source = found.source if found.line is None else f"{found.source}:{found.line}"
        summary = record_page(directory, page, found.loaded, analysed=analysed)
        entries.append(html.index_entry(summary, number, page))
        if not summary.clean:
            worst = EXIT_PROBLEMS
    _write(os.path.join(directory, "index.html"), html.index_page(file, entries))
    return worst


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
