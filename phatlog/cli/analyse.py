"""``phatlog analyse``: each card of a record valued against best play (double dummy), or with
``--players`` the integrity statistics of every player over many records (see docs/analysis.md).

Registered in ``phatlog.cli.app`` with ``app.command()(analyse)``. Exit codes: 0 analysed; 2 the input cannot
be read, ``--deal`` names a deal the record does not have, or no deal asked for can be analysed (its
hands are not recorded: PL840).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Annotated, Any, Final, Optional

import msgspec
import typer

from phatlog._native import kernel_module
from phatlog.analysis.reading import LineCard, PitchTable, Reading, analysis_json, read_analysis
from phatlog.analysis.records import Analysis, DealAnalysis, FieldStats, player_stats
from phatlog.analysis.records import analyse as analyse_record
from phatlog.analysis.single_dummy import SingleDummyAnalysis, SingleDummyAsk
from phatlog.archive.check import map_in_order_here
from phatlog.archive.records import records
from phatlog.cli.options import ClusterOpt, JobsOpt, SamplesOpt, SeedOpt
from phatlog.cli.progress import over_items
from phatlog.cli.run import EXIT_CLEAN, EXIT_UNREADABLE
from phatlog.cli.say import Say, table
from phatlog.diagnostics import Diagnostic, diag
from phatlog.diagnostics.printable import printable
from phatlog.referee.pitch import side_label
from phatlog.report.marks import of_deal
from phatlog.rules.table import side_of


class AnalyseFormat(StrEnum):
    rich = "rich"
    text = "text"
    markdown = "markdown"
    json = "json"


def analyse(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="FILES",
            help="A record file (.json); with --players, many, and archives (.jsonl: one record a line).",
        ),
    ],
    players: Annotated[
        bool, typer.Option("--players", help="Integrity statistics: every player's best-play share across FILES.")
    ] = False,
    deal: Annotated[
        Optional[int], typer.Option("--deal", "-d", min=1, help="Analyse only this deal (Oh Hell: hand), from 1.")
    ] = None,
    from_trick: Annotated[
        int,
        typer.Option("--from-trick", min=1, help="Value the cards from this trick on (13-card deals are slow early)."),
    ] = 1,
    ranges: Annotated[
        bool,
        typer.Option(
            "--ranges", help="Oh Hell: each seat's trick range and whether it can force its bid (slow for large hands)."
        ),
    ] = False,
    min_decisions: Annotated[
        int,
        typer.Option(
            "--min-decisions",
            min=1,
            help="With --players: set against the field only players with this many choices that mattered.",
        ),
    ] = 20,
    line: Annotated[
        bool,
        typer.Option(
            "--line/--no-line", help="Show the best line of play from the first card analysed (a search a card)."
        ),
    ] = True,
    pitch: Annotated[
        Optional[bool],
        typer.Option(
            "--pitch/--no-pitch",
            help="All Fours, from the first card: the value of every first lead the pitcher could make, by trump "
            "(every card searched: under a second more for 9 cards, on by default for Nine-card Don; about three "
            "times the analysis for an Irish Don deal, a minute or more for Phat).",
            show_default=False,
        ),
    ] = None,
    single_dummy: Annotated[
        bool,
        typer.Option(
            "--single-dummy",
            help="Also value each card on what its player knew: sampled layouts of the unseen cards, each solved.",
        ),
    ] = False,
    samples: SamplesOpt = 100,
    seed: SeedOpt = 0,
    bids: Annotated[
        bool,
        typer.Option(
            "--bids",
            help="With --single-dummy, Oh Hell: weigh each layout by how likely it makes the other players' bids.",
        ),
    ] = False,
    format: Annotated[
        Optional[AnalyseFormat],
        typer.Option(
            "--format",
            "-f",
            help="rich (the default on a terminal), text (the default otherwise), markdown, or json (for programs).",
            show_default=False,
        ),
    ] = None,
    jobs: JobsOpt = 1,
    cluster: ClusterOpt = None,
) -> None:
    """Value every card played against best play with all hands known (double dummy): the value before
    and after, and the cost, per card, trick and deal. With --players: per player across the records,
    the share of best cards and the mean cost where the choice mattered, against the field (a screening
    aid, not proof)."""
    fmt = format or (AnalyseFormat.rich if sys.stdout.isatty() else AnalyseFormat.text)
    err = Say(stderr=True)
    if cluster is not None and players and not single_dummy:
        err.error("--cluster analyses deal by deal: it goes without --players")
        raise typer.Exit(EXIT_UNREADABLE)
    if kernel_module("_solve") is None:
        err(("note:", "cyan"), f" {SLOW_SOLVER}")
    if single_dummy:
        asked = SingleDummyAsk(samples, seed, jobs, bids)
        _single_dummy(files, players, deal, from_trick, asked, cluster, min_decisions, fmt, err)
    if players:
        analyses: list[tuple[str, Analysis]] = []
        for where, _, record in _records(files, err):
            if record is None:
                raise typer.Exit(EXIT_UNREADABLE)
            try:
                analyses.append((where, analyse_record(record, deal=deal, from_trick=from_trick, ranges=ranges)))
            except ValueError as error:
                err(f"{printable(where)}: {printable(str(error))}")
                raise typer.Exit(EXIT_UNREADABLE) from None
            except MemoryError:
                err(f"{printable(where)}: {NO_MEMORY}")
                raise typer.Exit(EXIT_UNREADABLE) from None
        _print_stats(player_stats(analyses, min_decisions), fmt)
        raise typer.Exit(EXIT_CLEAN)
    raise typer.Exit(_by_deal(files, err, fmt, (deal, from_trick, ranges, line, pitch), jobs, cluster))


#: Said where the solver's search runs out of memory (exit 2: the analysis could not be made).
NO_MEMORY: Final = "not enough memory for the analysis (the solver's search ran out of memory)"

#: Said once on standard error where the C solver is not built (or PHATLOG_PURE_PYTHON is set).
SLOW_SOLVER: Final = (
    "the C solver is not built (or PHATLOG_PURE_PYTHON is set): the search runs in Python, about 100 times "
    "slower (a Nine-card Don deal from its first trick: 15 s against 0.15 s), so a 13-card deal from its first "
    "trick can take tens of minutes or more. Install phatlog where a C compiler is at hand, or value only the "
    "last tricks (--from-trick)"
)

#: The games whose pitch table ``analyse`` shows unless told ``--no-pitch``: where it costs little more than
#: the analysis (Nine-card Don: nine cards, under a second more a deal). Irish Don's 13 cards cost about three
#: times the analysis, Phat's seven (a minute or more a deal): there it is asked for with ``--pitch``.
PITCH_BY_DEFAULT: Final = frozenset({"nine_card_don"})

#: One task: where the record is, whether it is a record of an archive, its JSON, the deal (from 1), from
#: which trick, with ranges, with the best line, with the pitch table.
Task = tuple[str, bool, bytes, int, int, bool, bool, bool]


def _by_deal(
    files: list[str],
    err: Say,
    fmt: AnalyseFormat,
    how: tuple[int | None, int, bool, bool, bool | None],
    jobs: int,
    cluster: str | None,
) -> int:
    """Every deal of every record analysed, each printed as soon as it is found, in input order (``jobs``
    processes, or a Dask cluster); the exit code. An interrupt keeps what is printed: a deal a line in JSON."""
    deal, from_trick, ranges, line, pitch = how
    unreadable = False
    tasks: list[Task] = []
    sizes: list[int] = []  # the cards each task values
    for where, at, record in _records(files, err):
        if record is None:
            unreadable = True
            continue
        deals = record["deals"]
        if deal is not None and deal > len(deals):
            err.error(f"{printable(where)}: the record has {len(deals)} deal(s), not {deal}")
            return EXIT_UNREADABLE
        wanted = [deal] if deal is not None else [d + 1 for d, item in enumerate(deals) if item.get("tricks")]
        if not wanted:
            err(_diag_line(where, diag("PL841", "no deal records its cards (a score sheet): nothing to analyse")))
        raw = msgspec.json.encode(record)
        table = pitch if pitch is not None else record.get("game") in PITCH_BY_DEFAULT
        tasks.extend((where, at is not None, raw, d, from_trick, ranges, line, table) for d in wanted)
        sizes.extend(_cards_in(record, d, from_trick) for d in wanted)
    done = 0
    headed: set[str] = set()
    where = files[0] if files else "-"
    # the bar counts cards valued (a 52-card deal is minutes of work, so a bar by deals would stand still):
    # card by card where the deals are analysed here, a deal's cards at once where they come from workers
    with over_items(sum(sizes), "valuing cards", quiet=fmt is AnalyseFormat.json) as advance:
        counted = [0]

        def on_card(_: object) -> None:
            counted[0] += 1
            advance(1)

        try:
            results = _run(tasks, jobs, cluster, err, on_card)
            for task, size, (result, readings) in zip(tasks, sizes, results, strict=True):
                where, of_archive = task[0], task[1]
                for d in result.diagnostics:
                    err(_diag_line(where, d))
                for one in result.deals:
                    _print_deal(where, result, one, readings, fmt, head=of_archive and where not in headed)
                    headed.add(where)
                    done += 1
                advance(max(0, size - counted[0]))  # what the deal did not value card by card
                counted[0] = 0
        except MemoryError:  # what is printed stands; the deal being analysed is not
            err(f"{printable(where)}: {NO_MEMORY}")
            return EXIT_UNREADABLE
    if not done:
        err(f"{printable(files[0] if len(files) == 1 else 'the inputs')}: nothing could be analysed")
        return EXIT_UNREADABLE
    return EXIT_UNREADABLE if unreadable else EXIT_CLEAN


def _cards_in(record: dict[str, Any], deal: int | None, from_trick: int) -> int:
    """The cards an analysis of ``record`` values: those of the tricks of ``deal`` (from 1; None: every
    deal) from the trick ``from_trick`` on (the steps of its progress bar)."""
    deals = record.get("deals")
    if not isinstance(deals, list):
        return 0
    asked = deals if deal is None else deals[deal - 1 : deal] if deal > 0 else []
    count = 0
    for item in asked:
        tricks = item.get("tricks") if isinstance(item, dict) else None
        if isinstance(tricks, list):
            count += sum(
                len(t["cards"])
                for t in tricks[from_trick - 1 :]
                if isinstance(t, dict) and isinstance(t.get("cards"), list)
            )
    return count


def analyse_task(task: Task, on_card: Callable[[object], None] | None = None) -> tuple[Analysis, list[Reading]]:
    """One deal of one record analysed, and read (its chained values, its best line and pitch table as
    asked): a module-level function, it runs in a worker too. ``on_card`` (here only): called as each
    card is valued."""
    _, _, raw, deal, from_trick, ranges, line, pitch = task
    kernel = kernel_module("_solve")
    if kernel is not None:  # each deal from a cold table: the same figures (nodes too) whatever --jobs
        kernel.clear()
    analysis = of_deal(analyse_record(raw, deal=deal, from_trick=from_trick, ranges=ranges, on_card=on_card), deal)
    readings = read_analysis(raw, analysis, line=line, pitch=pitch) if analysis.deals else []
    return analysis, readings


def _run(
    tasks: list[Task], jobs: int, cluster: str | None, err: Say, on_card: Callable[[object], None] | None = None
) -> Iterator[tuple[Analysis, list[Reading]]]:
    """The tasks' analyses in order: here (``on_card`` called as each card is valued), in ``jobs``
    processes, or on a cluster."""
    if cluster is not None:
        from phatlog.archive.cluster import ClusterUnavailable, map_in_order

        try:
            return map_in_order(analyse_task, tasks, cluster)
        except ClusterUnavailable as exc:
            err.error(str(exc))
            raise typer.Exit(EXIT_UNREADABLE) from None
    if jobs <= 1 or len(tasks) <= 1:
        return (analyse_task(task, on_card) for task in tasks)
    return map_in_order_here(analyse_task, tasks, jobs)


def _records(files: list[str], err: Say) -> Iterator[tuple[str, int | None, dict[str, Any] | None]]:
    """Every record of FILES (any notation, archives, ``FILE:N``, directories, ``-``) as JSON data, with where
    it is (``FILE`` or ``FILE:LINE``) and its line; a record that cannot be read is said on standard error
    and comes as None."""
    for path in files:
        for entry in records(path):
            where = entry.source if entry.line is None else f"{entry.source}:{entry.line}"
            loaded = entry.loaded
            if loaded.record is None:
                for d in loaded.diagnostics:
                    err(_diag_line(where, d.located(())))
                yield where, entry.line, None
                continue
            yield where, entry.line, msgspec.to_builtins(loaded.record)


def _print_deal(
    where: str, result: Analysis, deal: DealAnalysis, readings: list[Reading], fmt: AnalyseFormat, *, head: bool
) -> None:
    """One deal's analysis, at once: a JSON line (``fmt`` json) or its tables."""
    one = Analysis(result.game, result.players, [deal], result.diagnostics)
    if fmt is AnalyseFormat.json:
        sys.stdout.write(json.dumps({"file": where, **analysis_json(one, readings)}, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return
    if head:
        Say()(f"# {where}" if fmt is AnalyseFormat.markdown else f"Record {where}")
        Say()("")
    one.diagnostics = []
    _print_analysis(one, fmt, {r.deal: r for r in readings})
    sys.stdout.flush()


def _diag_line(path: str, d: Diagnostic) -> str:
    return printable(f"{path}: {d.pointer or '/'}: {d.severity.value} {d.code} {d.name}: {d.message}")


def _seat_cost(result: Analysis, deal: DealAnalysis) -> str:
    costs = deal.cost_by_seat(len(result.players))
    return ", ".join(f"{name} {c}" for name, c in zip(result.players, costs, strict=True))


def _print_analysis(result: Analysis, fmt: AnalyseFormat, readings: dict[int, Reading]) -> None:
    say = Say()
    md = fmt is AnalyseFormat.markdown
    for deal in result.deals:
        reading = readings.get(deal.deal)
        side = None if reading is None or reading.side is None else side_label(reading.side, result.players)
        if side is not None and reading is not None:
            head = (
                f"Deal {deal.deal}: {side} {_signed(reading.start)} {deal.unit} with best play from the first card "
                f"analysed (the deal's points so far, {side} less the other side, plus what best play adds)"
            )
        else:
            head = f"Deal {deal.deal}: value {deal.value} {deal.unit} at the first card for its player's side"
        say(f"## {head}" if md else head)
        if deal.ranges:
            rows = [
                [
                    r.player,
                    str(r.bid),
                    str(r.most),
                    str(r.fewest),
                    {True: "yes", False: "no", None: "-"}[r.exact],
                    str(r.took),
                ]
                for r in deal.ranges
            ]
            columns = ["player", "bid", "sure of at least", "can keep to at most", "can force bid", "took"]
            _show(say, fmt, columns, rows)
        if reading is not None and reading.pitch is not None:
            _print_pitch(say, fmt, reading.pitch, side_label(side_of(reading.pitch.seat), result.players), deal.unit)
        rows = []
        for trick in deal.tricks():
            for c in trick:
                before, after = (c.before, c.after) if reading is None else reading.chained[c.trick, c.seat]
                rows.append(
                    [
                        str(c.trick),
                        c.player,
                        c.card,
                        str(before) if side is None else _signed(before),
                        str(after) if side is None else _signed(after),
                        str(c.cost) if c.cost else "0",
                        " ".join(c.best) if c.mattered else "(any)",
                    ]
                )
            rows.append(["", "", "", "", "", f"trick {trick[0].trick}: {sum(c.cost for c in trick)}", ""])
        columns = ["before", "after"] if side is None else [f"{side} before", f"{side} after"]
        _show(say, fmt, ["trick", "player", "card", *columns, "cost", "best"], rows)
        say(f"Cost by player ({deal.unit}): {_seat_cost(result, deal)}")
        if reading is not None and reading.line:
            say(
                f"Best line from trick {reading.line[0].trick}:"
                if not md
                else f"**Best line from trick {reading.line[0].trick}:**"
            )
            for text in _line_text(reading.line, side):
                say(f"  {text}" if not md else f"- {text}")
        say("")


def _signed(value: int | None) -> str:
    return "-" if value is None else f"{value:+d}" if value else "0"


def _line_text(line: list[LineCard], side: str | None) -> list[str]:
    """The best line a trick a line: ``trick 1: N KS, E 4S, S 5S, W 6S (N & S +13)``."""
    out: list[str] = []
    trick: list[LineCard] = []
    for card in line:
        trick.append(card)
        if _ends(line, card):
            plays = ", ".join(f"{printable(c.player)} {c.card}" for c in trick)
            so_far = "" if card.margin is None or side is None else f" ({side} {_signed(card.margin)} so far)"
            out.append(f"trick {trick[0].trick}: {plays}{so_far}")
            trick = []
    return out


def _ends(line: list[LineCard], card: LineCard) -> bool:
    """Oh Hell: whether ``card`` is the last of its trick in the line."""
    at = line.index(card)
    return at + 1 == len(line) or line[at + 1].trick != card.trick


def _print_pitch(say: Say, fmt: AnalyseFormat, pitch: PitchTable, side: str, unit: str) -> None:
    md = fmt is AnalyseFormat.markdown
    title = (
        f"The pitch: what each first lead {printable(pitch.player)} could make is worth to {side} ({unit}, best play "
        "after it), by the trump it makes"
    )
    say(f"**{title}**" if md else title)
    rows = [
        [SUIT_WORDS[suit], _signed(pitch.best(suit)), ", ".join(f"{c} {_signed(v)}" for c, v in leads)]
        for suit, leads in pitch.leads.items()
    ]
    _show(say, fmt, ["trump", "best", "each lead"], rows)


SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _show(say: Say, fmt: AnalyseFormat, columns: list[str], rows: list[list[str]]) -> None:
    if fmt is AnalyseFormat.markdown:
        say("| " + " | ".join(columns) + " |")
        say("|" + "---|" * len(columns))
        for row in rows:
            say("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
        say("")
    elif fmt is AnalyseFormat.rich:
        say.show(table(columns, rows, right=frozenset({"before", "after", "cost"})))
    else:
        widths = [
            max(len(columns[i]), *(len(r[i]) for r in rows)) if rows else len(columns[i]) for i in range(len(columns))
        ]
        say("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip())
        for row in rows:
            say("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def _fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _print_stats(stats: FieldStats, fmt: AnalyseFormat) -> None:
    if fmt is AnalyseFormat.json:
        sys.stdout.write(json.dumps(stats.to_json(), ensure_ascii=False) + "\n")
        return
    say = Say()
    rows = [
        [
            p.player,
            p.unit,
            str(p.records),
            str(p.cards),
            str(p.decisions),
            _fmt(p.share),
            _fmt(p.mean_cost, 2),
            "-" if p.z is None else ("inf" if p.z == float("inf") else f"{p.z:+.1f}"),
            "<< far above the field" if p.z is not None and p.z >= 3 else "",
        ]
        for p in stats.players
    ]
    _show(say, fmt, ["player", "unit", "records", "cards", "choices", "best share", "mean cost", "z", ""], rows)
    q = stats.quantiles()
    if q is not None:
        say(
            "Field (players with at least "
            f"{stats.min_decisions} choices that mattered): best share min {q['min']:.3f}, quartiles "
            f"{q['q1']:.3f} / {q['median']:.3f} / {q['q3']:.3f}, max {q['max']:.3f}"
        )
    say("z: the player's best share against the rest of the field, in standard deviations. A screening aid, not proof.")
    for path, d in stats.diagnostics:
        Say(stderr=True)(_diag_line(path, d))


def _single_dummy(
    files: list[str],
    players: bool,
    deal: int | None,
    from_trick: int,
    asked: SingleDummyAsk,
    cluster: str | None,
    min_decisions: int,
    fmt: AnalyseFormat,
    err: Say,
) -> None:
    """``--single-dummy``: each card valued both ways, or with ``--players`` the sight statistics."""
    from phatlog.analysis.integrity import sight_stats
    from phatlog.archive.cluster import ClusterUnavailable

    results: list[tuple[str, SingleDummyAnalysis]] = []
    for path, _, record in _records(files, err):
        if record is None:
            raise typer.Exit(EXIT_UNREADABLE)
        try:
            decisions = _cards_in(record, deal, from_trick)  # a decision a card played
            with over_items(decisions or None, "valuing decisions", quiet=fmt is AnalyseFormat.json) as advance:
                result = asked.analyse(
                    record, deal=deal, from_trick=from_trick, cluster=cluster, on_decision=lambda _: advance(1)
                )
        except MemoryError:
            err(f"{printable(path)}: {NO_MEMORY}")
            raise typer.Exit(EXIT_UNREADABLE) from None
        except (OSError, ValueError, ClusterUnavailable) as error:
            err(f"{printable(path)}: {printable(str(error))}")
            raise typer.Exit(EXIT_UNREADABLE) from None
        for d in result.diagnostics:
            err(_diag_line(path, d))
        results.append((path, result))
    if players:
        stats = sight_stats([r for _, r in results], min_chances=max(1, min_decisions // 4))
        if fmt is AnalyseFormat.json:
            sys.stdout.write(json.dumps({"players": [p.to_json() for p in stats]}, ensure_ascii=False) + "\n")
            raise typer.Exit(EXIT_CLEAN)
        say = Say()
        rows = [
            [
                p.player,
                p.unit,
                str(p.cards),
                str(p.decisions),
                _fmt(p.dd_share),
                _fmt(p.dd_mean_cost, 2),
                _fmt(p.sd_mean_cost, 2),
                str(p.chances),
                str(p.lucky),
                _fmt(p.lucky_rate),
                "-" if p.z is None else ("inf" if p.z == float("inf") else f"{p.z:+.1f}"),
                "<< lucky far more often than the field" if p.z is not None and p.z >= 3 else "",
            ]
            for p in stats
        ]
        columns = ["player", "unit", "cards", "choices", "DD best share", "DD mean cost", "SD mean cost"]
        _show(say, fmt, [*columns, "chances", "lucky", "lucky rate", "z", ""], rows)
        say(
            "chances: decisions where every card best with all hands seen was clearly worse on what the player "
            "knew; lucky: the player played one of them there. z: the lucky rate against the rest of the field "
            "(two-proportion). A screening statistic, not proof: look at the deals."
        )
        raise typer.Exit(EXIT_CLEAN)
    path, result = results[0]
    if not result.decisions:
        err(f"{printable(path)}: nothing could be analysed")
        raise typer.Exit(EXIT_UNREADABLE)
    if fmt is AnalyseFormat.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
        raise typer.Exit(EXIT_CLEAN)
    say = Say()
    md = fmt is AnalyseFormat.markdown
    for number in sorted({d.deal for d in result.decisions}):
        head = f"Deal {number}: single dummy, {result.samples} layouts a decision (seed {result.seed}), {result.unit}"
        say(f"## {head}" if md else head)
        rows = [
            [
                str(d.trick),
                d.player,
                str(d.card),
                str(d.dd_cost),
                f"{d.sd_cost:.1f} ± {d.sd_ci:.1f}",
                " ".join(map(str, d.sd.best)),
                "lucky" if d.lucky else "",
            ]
            for d in result.decisions
            if d.deal == number
        ]
        _show(say, fmt, ["trick", "player", "card", "cost seen", "cost known", "best known", ""], rows)
        say("cost seen: with every hand seen (double dummy); cost known: expected on what the player knew, ± 95%.")
        say("")
    raise typer.Exit(EXIT_CLEAN)
