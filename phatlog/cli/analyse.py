"""``phatlog analyse``: each card of a record valued against best play (double dummy), or with
``--players`` the integrity statistics of every player over many records (see docs/analysis.md).

Registered in ``phatlog.cli.app`` with ``app.command()(analyse)``. Exit codes: 0 analysed; 2 the input cannot
be read, ``--deal`` names a deal the record does not have, or no deal asked for can be analysed (its
hands are not recorded: PL840).
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated, Optional

import typer

from phatlog.analysis.records import Analysis, DealAnalysis, FieldStats, player_stats
from phatlog.analysis.records import analyse as analyse_record
from phatlog.analysis.single_dummy import SingleDummyAnalysis, analyse_single_dummy
from phatlog.cli.run import EXIT_CLEAN, EXIT_UNREADABLE
from phatlog.cli.say import Say, table
from phatlog.diagnostics import Diagnostic
from phatlog.diagnostics.printable import printable
from phatlog.record.load import ReadError


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
    single_dummy: Annotated[
        bool,
        typer.Option(
            "--single-dummy",
            help="Also value each card on what its player knew: sampled layouts of the unseen cards, each solved.",
        ),
    ] = False,
    samples: Annotated[
        int, typer.Option("--samples", min=1, help="With --single-dummy: layouts sampled a decision.")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="With --single-dummy: the seed of the layouts drawn.")] = 0,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="With --single-dummy: decisions valued by this many processes.")
    ] = 1,
    cluster: Annotated[
        Optional[str],
        typer.Option(
            "--cluster", help="With --single-dummy: value the decisions on a Dask cluster (address, local:N)."
        ),
    ] = None,
    format: Annotated[
        Optional[AnalyseFormat],
        typer.Option(
            "--format",
            "-f",
            help="rich (the default on a terminal), text (the default otherwise), markdown, or json (for programs).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Value every card played against best play with all hands known (double dummy): the value before
    and after, and the cost, per card, trick and deal. With --players: per player across the records,
    the share of best cards and the mean cost where the choice mattered, against the field (a screening
    aid, not proof)."""
    fmt = format or (AnalyseFormat.rich if sys.stdout.isatty() else AnalyseFormat.text)
    err = Say(stderr=True)
    if not players and len(files) != 1:
        err("analyse takes one record; give --players to set many side by side")
        raise typer.Exit(EXIT_UNREADABLE)
    if single_dummy:
        _single_dummy(files, players, deal, from_trick, samples, seed, jobs, cluster, min_decisions, fmt, err)
    analyses: list[tuple[str, Analysis]] = []
    for path, source in _sources(files, err):
        try:
            analyses.append((path, analyse_record(source, deal=deal, from_trick=from_trick, ranges=ranges)))
        except ReadError as error:
            for d in error.diagnostics:
                err(_diag_line(path, d))
            raise typer.Exit(EXIT_UNREADABLE) from None
        except (OSError, ValueError) as error:
            err(f"{printable(path)}: {printable(str(error))}")
            raise typer.Exit(EXIT_UNREADABLE) from None
    if players:
        _print_stats(player_stats(analyses, min_decisions), fmt)
        raise typer.Exit(EXIT_CLEAN)
    path, result = analyses[0]
    for d in result.diagnostics:
        err(_diag_line(path, d))
    if not result.deals:
        err(f"{printable(path)}: nothing could be analysed")
        raise typer.Exit(EXIT_UNREADABLE)
    if fmt is AnalyseFormat.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        _print_analysis(result, fmt)
    raise typer.Exit(EXIT_CLEAN)


def _sources(files: list[str], err: Say) -> list[tuple[str, str]]:
    """Each record to analyse: a file name (read by ``phatlog.read``), or for an archive (.jsonl) each
    line's text, named ``FILE:LINE``."""
    out: list[tuple[str, str]] = []
    for path in files:
        if not path.endswith(".jsonl"):
            out.append((path, path))
            continue
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError) as error:
            err(f"{printable(path)}: {printable(str(error))}")
            raise typer.Exit(EXIT_UNREADABLE) from None
        out += [(f"{path}:{n}", line) for n, line in enumerate(lines, 1) if line.strip()]
    return out


def _diag_line(path: str, d: Diagnostic) -> str:
    return printable(f"{path}: {d.pointer or '/'}: {d.severity.value} {d.code} {d.name}: {d.message}")


def _seat_cost(result: Analysis, deal: DealAnalysis) -> str:
    costs = deal.cost_by_seat(len(result.players))
    return ", ".join(f"{name} {c}" for name, c in zip(result.players, costs, strict=True))


def _print_analysis(result: Analysis, fmt: AnalyseFormat) -> None:
    say = Say()
    md = fmt is AnalyseFormat.markdown
    for deal in result.deals:
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
        rows = []
        for trick in deal.tricks():
            for c in trick:
                rows.append(
                    [
                        str(c.trick),
                        c.player,
                        c.card,
                        str(c.before),
                        str(c.after),
                        str(c.cost) if c.cost else "0",
                        " ".join(c.best) if c.mattered else "(any)",
                    ]
                )
            rows.append(["", "", "", "", "", f"trick {trick[0].trick}: {sum(c.cost for c in trick)}", ""])
        _show(say, fmt, ["trick", "player", "card", "before", "after", "cost", "best"], rows)
        say(f"Cost by player ({deal.unit}): {_seat_cost(result, deal)}")
        say("")


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
    samples: int,
    seed: int,
    jobs: int,
    cluster: str | None,
    min_decisions: int,
    fmt: AnalyseFormat,
    err: Say,
) -> None:
    """``--single-dummy``: each card valued both ways, or with ``--players`` the sight statistics."""
    from phatlog.analysis.integrity import sight_stats
    from phatlog.archive.cluster import ClusterUnavailable

    results: list[tuple[str, SingleDummyAnalysis]] = []
    for path, source in _sources(files, err):
        try:
            result = analyse_single_dummy(
                source, samples, seed, deal=deal, from_trick=from_trick, jobs=jobs, cluster=cluster
            )
        except ReadError as error:
            for d in error.diagnostics:
                err(_diag_line(path, d))
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
