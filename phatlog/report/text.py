"""Plain text: stable, no colour, aligned columns (suit symbols are the only characters beyond ASCII).

The winning card of a trick is marked ``*``; a card that a diagnostic points at, ``!``; with ``--analyse``
a card that cost points or tricks against best play, `` (−N)`` (``phatlog.report.marks``). Diagnostics
and notes are printed under the row they belong to, indented.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.cells import cell_len

from phatlog.report import fmt
from phatlog.report.fmt import Cell, Table
from phatlog.report.marks import cost_mark
from phatlog.report.summary import Summary

INDENT = "  "


def render(summary: Summary) -> str:
    """The whole replay as text, ending with a newline."""
    return "".join(pieces(summary))


def pieces(summary: Summary) -> Iterator[str]:
    """The replay as text, a deal at a time: what :func:`render` joins, for writing as it comes (the
    whole text of a long record is never held, issue 16)."""
    lines: list[str] = [fmt.title(summary)]
    lines += [f"{label}: {text}" for label, text in fmt.header_lines(summary)]
    if summary.status != "replayed":
        lines += [f"{_mark(d.severity.value)} {fmt.problem(d, where=True)}" for d in summary.diagnostics]
        lines.append(fmt.verdict_line(summary))
        yield "\n".join(lines) + "\n"
        return
    yield "\n".join(fmt.printable(line) for line in lines)  # free text never breaks a line
    for deal in summary.deals:
        lines = [""]
        lines.append(fmt.deal_heading(summary, deal))
        hands = fmt.hands_table(summary, deal)
        if hands is not None:
            lines += table(hands, INDENT)
        lines += [f"{INDENT}{label}: {text}" for label, text in fmt.deal_lines(summary, deal)]
        tricks = fmt.tricks_table(summary, deal)
        if tricks is not None:
            lines.append("")
            lines += table(tricks, INDENT)
        score = fmt.score_table(summary, deal)
        if score is not None:
            lines.append("")
            lines += table(score, INDENT)
        lines += [f"{INDENT}{note}" for note in fmt.deal_notes(deal)]
        lines += [f"{INDENT}{_mark(d.severity.value)} {fmt.problem(d)}" for d in deal.diagnostics]
        yield "".join("\n" + fmt.printable(line) for line in lines)
    lines = []
    end = fmt.end_lines(summary)
    if end or summary.diagnostics:
        lines.append("")
    lines += [f"{label}: {text}" for label, text in end]
    lines += [f"{_mark(d.severity.value)} {fmt.problem(d, where=True)}" for d in summary.diagnostics]
    lines.append("")
    lines.append(fmt.verdict_line(summary))
    yield "".join("\n" + fmt.printable(line) for line in lines) + "\n"


def _mark(severity: str) -> str:
    return "i" if severity == "info" else "!"


def cell_text(cell: Cell, is_card: bool) -> str:
    """A cell's text; a card is marked ``*`` if it won the trick, ``!`` if a diagnostic points at it,
    `` (−N)`` if it cost N against best play."""
    if not is_card:
        return cell.text
    return cell.text + ("*" if cell.win else "") + ("!" if cell.flag else "") + cost_mark(cell.cost)


def table(t: Table, indent: str = "") -> list[str]:
    """A table as aligned lines; each row's notes and diagnostics under it, indented past the first column."""
    texts = [[cell_text(c, i in t.card_columns) for i, c in enumerate(row.cells)] for row in t.rows]
    # A cell wider than fmt.WIDE overflows its own row instead of widening the column for every row:
    # the table stays linear in the size of its text, whatever a name or comment holds.
    widths = [min(cell_len(h), fmt.WIDE) for h in t.headers]
    for texts_row in texts:
        for i, text in enumerate(texts_row):
            widths[i] = max(widths[i], min(cell_len(text), fmt.WIDE))

    def line(cells: list[str]) -> str:
        out = []
        for i, text in enumerate(cells):
            pad = " " * max(0, widths[i] - cell_len(text))
            out.append(pad + text if t.right[i] else text + pad)
        return (indent + "  ".join(out)).rstrip()

    lines = [line(t.headers)]
    below = indent + " " * (widths[0] + 2)
    for row, cells in zip(t.rows, texts, strict=True):
        lines.append(line(cells))
        lines += [f"{below}{note}" for note in row.notes]
        lines += [f"{below}{_mark(d.severity.value)} {fmt.problem(d)}" for d in row.problems]
    return lines
