"""Markdown (GitHub flavour): a heading a deal, pipe tables, diagnostics as list items.

A trick's notes and diagnostics go in a last "Notes" column of the trick table (present only when
some trick has any), so that they stay on the trick's row. The winning card is bold; a card that a
diagnostic points at is followed by ⚠.
"""

from __future__ import annotations

from typing import Final

from phatlog.diagnostics import Diagnostic
from phatlog.report import fmt
from phatlog.report.fmt import Cell, Table
from phatlog.report.marks import cost_mark
from phatlog.report.summary import Summary

_SPECIAL: Final = str.maketrans({ch: "\\" + ch for ch in "\\`*_[]<>|#~"})


def escape(text: str) -> str:
    """Text safe in a Markdown table cell or paragraph."""
    return fmt.printable(text).translate(_SPECIAL)


def render(summary: Summary) -> str:
    """The whole replay as Markdown, ending with a newline."""
    out: list[str] = [f"# {escape(fmt.title(summary))}", ""]
    out += [f"- **{label}:** {escape(text)}" for label, text in fmt.header_lines(summary)]
    out.append("")
    if summary.status != "replayed":
        out += [f"- {_problem(d, where=True)}" for d in summary.diagnostics]
        out += ["", f"**{fmt.verdict_line(summary)}**"]
        return "\n".join(out) + "\n"
    for deal in summary.deals:
        out += [f"## {escape(fmt.deal_heading(summary, deal))}", ""]
        hands = fmt.hands_table(summary, deal)
        if hands is not None:
            out += [*table(hands), ""]
        lines = fmt.deal_lines(summary, deal)
        if lines:
            out += [f"- **{label}:** {escape(text)}" for label, text in lines]
            out.append("")
        tricks = fmt.tricks_table(summary, deal)
        if tricks is not None:
            out += [*table(tricks), ""]
        score = fmt.score_table(summary, deal)
        if score is not None:
            out += [*table(score), ""]
        below = [f"- {escape(note)}" for note in fmt.deal_notes(deal)]
        below += [f"- {_problem(d)}" for d in deal.diagnostics]
        if below:
            out += [*below, ""]
    end = fmt.end_lines(summary)
    if end or summary.diagnostics:
        out += ["## End", ""]
        out += [f"- **{label}:** {escape(text)}" for label, text in end]
        out += [f"- {_problem(d, where=True)}" for d in summary.diagnostics]
        out.append("")
    out.append(f"**{fmt.verdict_line(summary)}**")
    return "\n".join(out) + "\n"


def _problem(d: Diagnostic, where: bool = False) -> str:
    place = f" ({escape(d.place)})" if where and d.place and d.place != "the record" else ""
    return f"**{d.severity.value} {d.code}** {d.name}: {escape(d.message)}{place}"


def _cell(cell: Cell, is_card: bool) -> str:
    text = escape(cell.text)
    if is_card and cell.text:
        if cell.win:
            text = f"**{text}**"
        if cell.flag:
            text += " ⚠"
        text += cost_mark(cell.cost)
    elif cell.flag and cell.text:
        text = f"**{text}**"
    return text


def table(t: Table) -> list[str]:
    """A pipe table; rows' notes and diagnostics in a "Notes" column if any row has some."""
    notes = any(row.notes or row.problems for row in t.rows)
    headers = [escape(h) for h in t.headers] + (["Notes"] if notes else [])
    align = ["---:" if right else "---" for right in t.right] + (["---"] if notes else [])
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    for row in t.rows:
        cells = [_cell(c, i in t.card_columns) for i, c in enumerate(row.cells)]
        if notes:
            cells.append("<br>".join([escape(n) for n in row.notes] + [_problem(d) for d in row.problems]))
        lines.append("| " + " | ".join(cells) + " |")
    return lines
