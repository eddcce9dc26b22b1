"""Standings and statistics as tables, then as text, Markdown, CSV, rich or JSON.

Data first (:func:`standings_tables`, :func:`stats_tables`: a list of :class:`Sheet`), then each
renderer draws the same sheets its own way. Text for people passes through
:func:`~phatlog.diagnostics.printable.printable`;
CSV and JSON are data and carry the text exactly.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from phatlog.diagnostics.printable import printable
from phatlog.events.standings import CROSSTABLE_MOST, Group, Standings
from phatlog.events.stats import AWARDS, PlayerStats, Stats, StatsGroup
from phatlog.report.markdown import escape

GAME_NAMES = {"phat": "Phat", "nine_card_don": "Nine-card Don", "irish_don": "Irish Don", "oh_hell": "Oh Hell"}


@dataclass(slots=True)
class Sheet:
    """One table: its heading, where it belongs (``key``: the CSV's leading columns), columns and rows."""

    heading: str
    key: dict[str, str]
    columns: list[str]
    rows: list[list[str]]
    right: frozenset[int] = frozenset()
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------- standings


def standings_tables(data: Standings) -> list[Sheet]:
    """The standings as sheets: for each event and game, partnerships and players (or Oh Hell's players),
    then the crosstable; last, the records that did not count or counted with problems."""
    sheets: list[Sheet] = []
    for group in data.sorted_groups():
        sheets.extend(_group_sheets(group))
    if data.listed:
        rows = [
            [x.file, "" if x.line is None else str(x.line), x.status, str(x.errors), "yes *" if x.counted else "no"]
            for x in data.listed
        ]
        sheets.append(
            Sheet(
                "Records not clean",
                {"event": "", "game": "", "table": "not clean"},
                ["file", "line", "status", "errors", "counted"],
                rows,
                frozenset({1, 3}),
            )
        )
    return sheets


def _title(group: Group) -> str:
    marked = f", {group.marked} with problems counted (*)" if group.marked else ""
    plural = "s" if group.records != 1 else ""
    return f"{group.event}: {GAME_NAMES.get(group.game, group.game)} ({group.records} record{plural}{marked})"


def _marked(name: str, with_problems: int) -> str:
    """A row's name, marked ``*`` when a game it counts had problems (``--include-problems``)."""
    return f"{name} *" if with_problems else name


def _group_sheets(group: Group) -> list[Sheet]:
    title = _title(group)
    key = {"event": group.event, "game": group.game}
    sheets: list[Sheet] = []
    numbers = frozenset(range(2, 8))
    columns = ["played", "won", "lost", "for", "against", "diff"]
    if group.all_fours:
        for label, lines in (("Partnerships", group.ranked_teams()), ("Players", group.ranked_players())):
            rows = [
                [
                    str(i),
                    _marked(line.name, line.with_problems),
                    *map(str, (line.played, line.won, line.lost, line.points_for, line.points_against)),
                    f"{line.difference:+d}",
                ]
                for i, line in enumerate(lines, 1)
            ]
            noun = "partnership" if label == "Partnerships" else "player"
            sheets.append(
                Sheet(
                    f"{title}: {label.lower()}", {**key, "table": label.lower()}, ["#", noun, *columns], rows, numbers
                )
            )
    else:
        rows = [
            [
                str(i),
                _marked(line.name, line.with_problems),
                str(line.played),
                str(line.wins),
                _half(line.placement),
                str(line.score),
                f"{line.bids_made}/{line.hands_bid}",
            ]
            for i, line in enumerate(group.ranked_oh_hell(), 1)
        ]
        sheets.append(
            Sheet(
                f"{title}: players",
                {**key, "table": "players"},
                ["#", "player", "played", "wins", "place pts", "score", "bids made"],
                rows,
                frozenset(range(2, 7)) | {0},
            )
        )
    order, meetings = group.crosstable()
    who = "partnerships" if group.all_fours else "players"
    if not group.crosstable_drawn:
        for sheet in sheets:
            sheet.right = sheet.right | {0}
        sheets.append(
            Sheet(
                f"{title}: crosstable",
                {**key, "table": "crosstable"},
                ["note"],
                [
                    [
                        f"not drawn: {len(order):,} {who}, more than {CROSSTABLE_MOST} (its rows and columns grow as "
                        "their square); --format json lists every meeting"
                    ]
                ],
                frozenset(),
            )
        )
        return sheets
    cross_rows = []
    for i, a in enumerate(order, 1):
        cells = []
        for b in order:
            m = meetings.get((a, b))
            if a == b:
                cells.append("—")
            elif m is None:
                cells.append("")
            elif group.all_fours:
                cells.append(f"{m.won}-{m.lost}" + (f"-{m.level}" if m.level else ""))
            else:
                cells.append(f"{m.won}-{m.lost}-{m.level}")
        cross_rows.append([str(i), group.names[a], *cells])
    how = "won-lost" if group.all_fours else "ahead-behind-level"
    sheets.append(
        Sheet(
            f"{title}: crosstable ({how}, row against column)",
            {**key, "table": "crosstable"},
            ["#", "partnership" if group.all_fours else "player", *(str(i) for i in range(1, len(order) + 1))],
            cross_rows,
            frozenset(range(2, len(order) + 2)) | {0},
        )
    )
    for sheet in sheets:
        sheet.right = sheet.right | {0}
    return sheets


def _half(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"


# ------------------------------------------------------------------------------------- stats


def stats_tables(data: Stats) -> list[Sheet]:
    """The statistics as sheets: one a group (``--by``) and family."""
    return [_stats_sheet(group) for group in data.sorted_groups()]


def _num(value: float | None, places: int = 2) -> str:
    return "" if value is None else f"{value:.{places}f}"


def _stats_sheet(group: StatsGroup) -> Sheet:
    key = {"group": group.name, "family": "oh_hell" if group.oh_hell else "all_fours"}
    family = "Oh Hell" if group.oh_hell else "All Fours family"
    plural = "s" if group.records != 1 else ""
    heading = f"{group.name}: {family} ({group.records} record{plural})"
    rows: list[list[str]] = []
    players: list[PlayerStats] = group.ranked()
    if not group.oh_hell:
        awards = [a for a in AWARDS if a in group.awards]  # only the awards the group's games have
        columns = ["player", "records", "deals", "points", "pts/deal", "counters", *awards, "pitches", "made"]
        columns += ["revokes", "faults"]
        for p in players:
            j = p.as_json(False)
            rows.append(
                [
                    p.name,
                    str(p.records),
                    str(p.deals),
                    str(p.points),
                    _num(j["points_per_deal"]),
                    str(p.counters),
                    *(str(p.awards[a]) for a in awards),
                    str(p.pitches),
                    str(p.pitches_made),
                    str(p.revokes),
                    str(p.faults),
                ]
            )
        right = frozenset(range(1, len(columns)))
    else:
        columns = ["player", "records", "hands", "exact %", "over", "under", "mean bid", "mean taken"]
        columns += ["zero bids made", "points", "pts/hand", "pts/hand by size", "revokes", "faults"]
        for p in players:
            j = p.as_json(True)
            by_size = " ".join(f"{size}:{_num(v['per_hand'], 1)}" for size, v in j["by_hand_size"].items())
            rows.append(
                [
                    p.name,
                    str(p.records),
                    str(p.hands),
                    _num(j["exact_percent"], 1),
                    str(p.over),
                    str(p.under),
                    _num(j["mean_bid"]),
                    _num(j["mean_taken"]),
                    f"{p.zero_made}/{p.zero_bids}",
                    str(p.points),
                    _num(j["points_per_hand"]),
                    by_size,
                    str(p.revokes),
                    str(p.faults),
                ]
            )
        right = frozenset(range(1, len(columns))) - {11}
    return Sheet(heading, key, columns, rows, right)


# ------------------------------------------------------------------------------------- renderers


def text(sheets: Sequence[Sheet], notes: Sequence[str] = ()) -> str:
    """Aligned plain text: each sheet's heading, then its table; notes at the end."""
    out: list[str] = []
    for sheet in sheets:
        if out:
            out.append("")
        out.append(printable(sheet.heading))
        cells = [[printable(c) for c in row] for row in [sheet.columns, *sheet.rows]]
        widths = [max(cell_len(row[i]) for row in cells) for i in range(len(sheet.columns))]
        for row in cells:
            parts = []
            for i, cell in enumerate(row):
                pad = " " * (widths[i] - cell_len(cell))
                parts.append(pad + cell if i in sheet.right else cell + pad)
            out.append("  ".join(parts).rstrip())
    out.extend([""] * bool(out and notes) + [printable(n) for n in notes])
    return "\n".join(out) + "\n" if out else ""


def markdown(sheets: Sequence[Sheet], notes: Sequence[str] = ()) -> str:
    """GitHub-flavoured Markdown: a heading and a pipe table a sheet."""
    out: list[str] = []
    for sheet in sheets:
        out += [f"### {escape(sheet.heading)}", ""]
        out.append("| " + " | ".join(escape(c) for c in sheet.columns) + " |")
        out.append("| " + " | ".join("---:" if i in sheet.right else "---" for i in range(len(sheet.columns))) + " |")
        out += ["| " + " | ".join(escape(c) for c in row) + " |" for row in sheet.rows]
        out.append("")
    out += [escape(n) for n in notes] + ([""] if notes else [])
    return "\n".join(out)


def csv_text(sheets: Sequence[Sheet]) -> str:
    """CSV: each sheet a block (a header row, then its rows), blocks apart by an empty line; each row
    starts with the sheet's key columns (event, game, table; or group, family)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for n, sheet in enumerate(sheets):
        if n:
            buffer.write("\n")
        writer.writerow([*sheet.key, *sheet.columns])
        for row in sheet.rows:
            writer.writerow([*sheet.key.values(), *row])
    return buffer.getvalue()


def rich(sheets: Sequence[Sheet], console: Console, notes: Sequence[str] = ()) -> None:
    """Tables for a terminal."""
    for sheet in sheets:
        table = RichTable(
            title=Text(printable(sheet.heading), style="bold"),
            title_justify="left",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
        )
        for i, column in enumerate(sheet.columns):
            table.add_column(Text(printable(column)), justify="right" if i in sheet.right else "left")
        for row in sheet.rows:
            table.add_row(*(Text(printable(c)) for c in row))
        console.print(table)
    for note in notes:
        console.print(Text(printable(note)))


def json_text(data: dict[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
