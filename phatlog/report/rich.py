"""Rich: the terminal rendering. Suit symbols, red hearts and diamonds, tables.

The same tables as the text rendering, drawn with rich. A trick's diagnostics and notes are printed in
place, right under the trick: the trick table is cut there and goes on below them with the same
column widths, so it still reads as one table. The winning card is bold (and marked ``*``, so that it
shows without colour too); a card a diagnostic points at is red on a dark background (and ``!``).
"""

from __future__ import annotations

import io
import re
from typing import Final

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Column
from rich.table import Table as RichTable
from rich.text import Text

from phatlog.diagnostics import Diagnostic, Severity
from phatlog.report import fmt
from phatlog.report.fmt import Cell, Table
from phatlog.report.marks import cost_mark
from phatlog.report.summary import Summary

RED_CARDS: Final = re.compile(r"[2-9TJQKA][♥♦]|[♥♦](?: [2-9TJQKA—])+")
STYLE: Final = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
INDENT: Final = 2
WRAPPING: Final = frozenset({"Why", "Pegs", "Hand", "Points", "Total"})
MIN_WRAPPED: Final = 10  # the narrowest a wrapping column is made
GAP: Final = 2  # between columns: the cell's right padding and the box's blank rule


def render(summary: Summary, console: Console) -> None:
    """Print the whole replay on ``console``."""
    console.print(Text(fmt.title(summary), style="bold"))
    for label, text in fmt.header_lines(summary):
        console.print(_labelled(label, text))
    if summary.status != "replayed":
        for d in summary.diagnostics:
            console.print(_problem(d, where=True))
        console.print(Text(fmt.verdict_line(summary), style="bold red"))
        return
    for deal in summary.deals:
        console.print()
        console.print(Rule(Text(fmt.deal_heading(summary, deal), style="bold"), align="left"))
        hands = fmt.hands_table(summary, deal)
        if hands is not None:
            _indented(console, _table(hands, _room(console), header=False))
        for label, text in fmt.deal_lines(summary, deal):
            _indented(console, _labelled(label, text))
        tricks = fmt.tricks_table(summary, deal)
        if tricks is not None:
            console.print()
            for part in _in_place(tricks, _room(console)):
                _indented(console, part)
        score = fmt.score_table(summary, deal)
        if score is not None:
            console.print()
            _indented(console, _table(score, _room(console)))
        for note in fmt.deal_notes(deal):
            _indented(console, Text(note, style="italic"))
        for d in deal.diagnostics:
            _indented(console, _problem(d))
    end = fmt.end_lines(summary)
    if end or summary.diagnostics:
        console.print()
    for label, text in end:
        console.print(_labelled(label, text, style="bold" if label == "Result" else ""))
    for d in summary.diagnostics:
        console.print(_problem(d, where=True))
    console.print()
    console.print(Text(fmt.verdict_line(summary), style="green" if summary.clean else "bold red"))


def render_plain(summary: Summary, width: int = 120) -> str:
    """The rich rendering without colour, as text (for tests and documentation): stable at ``width``."""
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True, soft_wrap=False)
    render(summary, console)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def _indented(console: Console, renderable: RenderableType) -> None:
    console.print(Padding(renderable, (0, 0, 0, INDENT), expand=False))


def _styled(text: str, style: str = "") -> Text:
    out = Text(text, style=style)
    out.highlight_regex(RED_CARDS, "red")
    return out


def _labelled(label: str, text: str, style: str = "") -> Text:
    out = Text.assemble((f"{label}: ", "bold"))
    out.append_text(_styled(text, style))
    return out


def _problem(d: Diagnostic, where: bool = False) -> Text:
    mark = "i" if d.severity is Severity.INFO else "!"
    return Text(f"{mark} {fmt.problem(d, where)}", style=STYLE[d.severity])


def _cell(cell: Cell, is_card: bool) -> Text:
    if is_card and cell.text:
        text = Text(cell.text + ("*" if cell.win else "") + ("!" if cell.flag else ""))
        mark = cost_mark(cell.cost)
        if cell.red:
            text.stylize("red")
        if cell.win:
            text.stylize("bold")
        if cell.flag:
            text.stylize("reverse")
        if cell.dim and not cell.flag:
            text.stylize("dim")
        if mark:
            text.append(mark, style="bold magenta")
        return text
    text = _styled(cell.text)
    if cell.flag:
        text.stylize("bold red")
    elif cell.dim:
        text.stylize("dim")
    return text


def _room(console: Console) -> int:
    return max(20, console.width - INDENT)


def _widths(t: Table, room: int) -> tuple[list[int], int]:
    """Each column's width (its widest cell) and the gap between columns. On a narrow console the
    wrapping columns give way first, then the gap narrows to one space; rich squeezes what is left."""
    # As in the text rendering, one cell wider than fmt.WIDE does not widen its column: it folds there.
    widths = [min(cell_len(h), fmt.WIDE) for h in t.headers]
    for row in t.rows:
        for i, cell in enumerate(row.cells):
            marks = (
                (1 if cell.win else 0) + (1 if cell.flag else 0) + len(cost_mark(cell.cost))
                if i in t.card_columns
                else 0
            )
            widths[i] = max(widths[i], min(cell_len(cell.text) + marks, fmt.WIDE))
    wrapping = [i for i, h in enumerate(t.headers) if h in WRAPPING]
    gap = GAP
    excess = sum(widths) + gap * (len(widths) - 1) - room
    while excess > 0:
        widest = max(wrapping, key=lambda i: widths[i], default=None)
        if widest is None or widths[widest] <= MIN_WRAPPED:
            break
        widths[widest] -= 1
        excess -= 1
    if excess > 0:
        gap = 1
    return widths, gap


def _table(t: Table, room: int, header: bool = True) -> RichTable:
    widths, gap = _widths(t, room)
    return _part(t, widths, gap, range(len(t.rows)), header)


def _part(t: Table, widths: list[int], gap: int, rows: range, header: bool) -> RichTable:
    # Long free text (why a trick was won, what it pegs, a bonus's reason) wraps on a narrow terminal;
    # cards, names and numbers do not.
    # A column holding a cell wider than fmt.WIDE (a very long name) folds it rather than cutting it.
    long = {i for row in t.rows for i, c in enumerate(row.cells) if cell_len(c.text) > fmt.WIDE}
    long |= {i for i, h in enumerate(t.headers) if cell_len(h) > fmt.WIDE}
    columns = [
        Column(
            Text(h),  # a Text, never a str: a player's name in a header is not read as rich markup
            width=w,
            no_wrap=h not in WRAPPING and i not in long,
            overflow="fold" if i in long else "ellipsis",
            justify="right" if right else "left",
            header_style="bold",
        )
        for i, (h, w, right) in enumerate(zip(t.headers, widths, t.right, strict=True))
    ]
    table = RichTable(
        *columns,
        box=box.SIMPLE_HEAD,
        show_header=header,
        show_edge=False,
        pad_edge=False,
        padding=(0, gap - 1, 0, 0),
    )
    for i in rows:
        table.add_row(*(_cell(c, j in t.card_columns) for j, c in enumerate(t.rows[i].cells)))
    return table


def _in_place(t: Table, room: int) -> list[RenderableType]:
    """The table cut after each row that has notes or diagnostics, with them printed there."""
    widths, gap = _widths(t, room)
    below = widths[0] + gap  # under the second column, as in the text rendering
    parts: list[RenderableType] = []
    start = 0
    for i, row in enumerate(t.rows):
        if not (row.notes or row.problems):
            continue
        parts.append(_part(t, widths, gap, range(start, i + 1), header=start == 0))
        lines: list[RenderableType] = [Text(note, style="italic") for note in row.notes]
        lines += [_problem(d) for d in row.problems]
        parts.append(Padding(Group(*lines), (0, 0, 0, below), expand=False))
        start = i + 1
    if start < len(t.rows) or not parts:
        parts.append(_part(t, widths, gap, range(start, len(t.rows)), header=start == 0))
    return parts
