"""``replay --format html``: one self-contained page a record, to step through card by card.

The page is a static shell (inline CSS, the suit symbols as inline SVG, a little vanilla JavaScript in
``html_page.js``/``html_page.css`` beside this module) and one JSON document in a
``<script type="application/json">`` element that the script renders: nothing is fetched, no framework,
no CDN. The JSON holds

- ``summary``: the replay summary exactly as ``replay --format json`` gives it (``Summary.to_json``), the
  stable contract: the hands, trump, bids, every trick's cards, winner and totals, and the diagnostics
  where they belong;
- ``words``: what the text replay says, made by the same layout code (``fmt``): the headings, the trump
  and bids lines, each trick's "why" and "pegs", the bonus rows, the score tables, the notes, each
  diagnostic as one line, the result and the verdict; with ``replay --analyse``, ``marks``: the words of a
  card's cost (the summary's plays then hold each card's ``cost``, drawn as a mark on the card). Every
  free text in ``words`` has passed through :func:`~phatlog.diagnostics.printable.printable`, and the script only
  ever puts
  text into the page as text (``textContent``), never as markup: a name holding ``<script>`` stays text.

The JSON is escaped for its element (every ``<`` and U+2028/U+2029 as ``\\u`` escapes), so no text in a
record can end the element early. The page's Content-Security-Policy allows no network request at all.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from phatlog.diagnostics.printable import UNSAFE_CHARS, markup_text
from phatlog.report import fmt
from phatlog.report.fmt import Table
from phatlog.report.marks import legend
from phatlog.report.summary import DealSummary, Summary
from phatlog.report.svg import deal_picture, suit_symbols

CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'"
)


def page_head(title: str, style: str = "") -> str:
    """Every phatlog page's start, to ``<body>``: the policy that forbids any request, the viewport, the
    title (escaped) and the pages' style sheet (then ``style``, a page's own rules)."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="phatlog">\n'
        f"<title>{markup_text(title, quote=True)}</title>\n"
        f"<style>\n{_asset('html_page.css')}{style}</style>\n</head>\n<body>\n"
    )


def render(summary: Summary, *, index: str | None = None, trick: int | None = None) -> str:
    """The whole page for one record. ``index``: the address of an archive's index page, linked at the top;
    ``trick``: the page opens with that trick of the first deal shown complete (else at the first deal's start)."""
    data = {"summary": summary.to_json(), "words": words(summary), "index": index, "trick": trick}
    title = fmt.title(summary)
    return (
        page_head(title) + f"{suit_symbols()}\n"
        '<noscript><p class="noscript">This replay is drawn by JavaScript; '
        "<code>phatlog replay --format text</code> prints it without.</p></noscript>\n"
        '<main id="app"></main>\n'
        f"{diagrams(summary, trick)}"
        f'<script type="application/json" id="phatlog-data">{script_json(data)}</script>\n'
        f"<script>\n{_asset('html_page.js')}</script>\n</body>\n</html>\n"
    )


def diagrams(summary: Summary, trick: int | None = None) -> str:
    """Every deal's table diagram (:func:`phatlog.report.svg.deal_picture`, the picture ``replay --format
    svg`` draws) as inline SVG, a ``<figure>`` each, that the script shows under the deal it belongs to:
    each deal as dealt with its first trick; a page of one deal, the diagram at every trick too (a page
    of a whole game holds only the deal's start: a picture a trick of every deal would make a long game's
    page many times larger); with ``trick``, the first deal at that trick. Nothing but the picture's own
    markup is written: every text in it is made printable and escaped by the one diagram source. The
    figures wait in a ``<template>`` (parsed, never drawn: a long game's page opens nearly as fast as without
    them) until the script moves the one shown into the page."""
    if summary.status != "replayed" or not summary.deals:
        return ""
    figures: list[str] = []
    for i, deal in enumerate(summary.deals):
        at: list[int | None] = [None]
        if len(summary.deals) == 1:
            at += [t.trick for t in deal.tricks]
        elif i == 0 and trick is not None:
            at.append(trick)
        for shown in at:
            picture = deal_picture(summary, deal, shown, linked=True).rstrip("\n")
            figures.append(f'<figure class="diagram" data-deal="{i}" data-trick="{shown or 0}">{picture}</figure>\n')
    return f'<template id="diagrams">\n{"".join(figures)}</template>\n'


def script_json(data: object) -> str:
    """``data`` as JSON that can sit inside a ``<script>`` element: no ``<`` at all (so neither
    ``</script>`` nor ``<!--`` can occur), and none of the characters :func:`printable` escapes (controls,
    U+2028/U+2029, line terminators to older JavaScript, bidirectional controls, lone surrogates, U+FFFE
    and U+FFFF): each a ``\\u`` escape, the same JSON value."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return _SCRIPT_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_SCRIPT_UNSAFE: Final = re.compile(f"[<{UNSAFE_CHARS}]")


@cache
def _asset(name: str) -> str:
    return resources.files("phatlog.report").joinpath(name).read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the words


def words(summary: Summary) -> dict[str, Any]:  # Any: nested JSON data, read back by key in tests
    """The text replay's words for the page, every free text made printable (see the module's doc)."""
    p = fmt.printable
    out: dict[str, Any] = {
        "title": fmt.title(summary),
        "header": [list(pair) for pair in fmt.header_lines(summary)],
        "players": [p(name) if name else f"seat {i}" for i, name in enumerate(summary.players)],
        "sides": [p(side.name) for side in summary.sides],
        "deal_word": fmt.deal_word(summary),
        "deals": [_deal(summary, deal) for deal in summary.deals],
        "end": [list(pair) for pair in fmt.end_lines(summary)],
        "problems": [fmt.problem(d, where=True) for d in summary.diagnostics],
        "verdict": fmt.verdict_line(summary),
    }
    if legend(summary) is not None:  # replay --analyse: the words of a card's cost (else the page is unchanged)
        unit = ["trick", "tricks"] if summary.game == "oh_hell" else ["point", "points"]
        out["marks"] = {
            "unit": unit,
            "against": "on its bid against best play" if summary.game == "oh_hell" else "against best play",
            "worth": "to its player: minus the tricks it misses its bid by"
            if summary.game == "oh_hell"
            else "to its side to the end of the deal",
        }
    return out


def _deal(summary: Summary, deal: DealSummary) -> dict[str, object]:
    tricks = fmt.tricks_table(summary, deal)
    return {
        "heading": fmt.deal_heading(summary, deal),
        "lines": [list(pair) for pair in fmt.deal_lines(summary, deal)],
        "tricks": _table(tricks),
        "score": _table(fmt.score_table(summary, deal)),
        "notes": fmt.deal_notes(deal),
        "problems": [fmt.problem(d) for d in deal.diagnostics],
        **({"best": best_words(summary, deal.best)} if deal.best is not None else {}),
    }


def best_words(summary: Summary, best: dict[str, Any]) -> dict[str, Any]:
    """``replay --analyse --line/--pitch``: a deal's pitch table and best line in words (cards as symbols)."""
    names = [fmt.printable(n) for n in summary.players]
    side = None if best.get("side") is None else fmt.printable(summary.sides[best["side"]].name)
    out: dict[str, Any] = {}
    pitch = best.get("pitch")
    if pitch is not None:
        pitcher = names[pitch["seat"]]
        team = fmt.printable(summary.sides[pitch["seat"] % 2].name)
        out["pitch"] = {
            "title": f"The pitch: what each first lead {pitcher} could make is worth to {team} (points, best "
            "play after it), by the trump it makes",
            "headers": ["trump", "best", "each lead"],
            "rows": [
                [
                    SUIT_WORDS[suit],
                    _signed(x["best"]),
                    ", ".join(f"{fmt.card(c['card'])} {_signed(c['value'])}" for c in x["leads"]),
                ]
                for suit, x in pitch["by_trump"].items()
            ],
        }
    line = best.get("line") or []
    if line:
        lines, trick = [], []
        for i, c in enumerate(line):
            trick.append(f"{names[c['seat']]} {fmt.card(c['card'])}")
            if i + 1 == len(line) or line[i + 1]["trick"] != c["trick"]:
                so_far = "" if c["margin"] is None or side is None else f" ({side} {_signed(c['margin'])} so far)"
                lines.append(f"trick {c['trick']}: {', '.join(trick)}{so_far}")
                trick = []
        start = "" if side is None else f": {side} {_signed(best['start'])}"
        out["line"] = {"title": f"Best line from trick {line[0]['trick']}{start}", "lines": lines}
    return out


SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _signed(value: int | None) -> str:
    return "-" if value is None else f"{value:+d}" if value else "0"


def _table(table: Table | None) -> dict[str, object] | None:
    """A table as the page draws it: headers, which columns are numbers and cards, and each row's cells
    (text and flags: ``w`` won the trick, ``f`` a diagnostic points at it, ``d`` not scored), notes and
    diagnostics."""
    if table is None:
        return None
    rows = []
    for row in table.rows:
        cells = []
        for cell in row.cells:
            flags = "".join(f for f, on in (("w", cell.win), ("f", cell.flag), ("d", cell.dim)) if on)
            cells.append([cell.text, flags] if flags else [cell.text])
        rows.append(
            {
                "kind": row.kind,
                "cells": cells,
                "notes": row.notes,
                "problems": [[d.severity.value, fmt.problem(d)] for d in row.problems],
            }
        )
    return {
        "headers": table.headers,
        "right": table.right,
        "cards": sorted(table.card_columns),
        "rows": rows,
    }


# --------------------------------------------------------------------------- an archive's index


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One record of an archive, as its index lists it (every text already printable)."""

    line: int
    page: str
    game: str
    players: str
    deals: int
    result: str
    verdict: str
    clean: bool


def index_entry(summary: Summary, line: int, page: str) -> IndexEntry:
    """What the index says of one record: its game, players, deals, result and verdict."""
    result = next((text for label, text in fmt.end_lines(summary) if label == "Result"), "")
    return IndexEntry(
        line=line,
        page=page,
        game=summary.game_name or "—",
        players=", ".join(fmt.printable(n) for n in summary.players),
        deals=len(summary.deals),
        result=result,
        verdict=fmt.verdict_line(summary),
        clean=summary.clean,
    )


def index_page(source: str, entries: list[IndexEntry]) -> str:
    """The index of an archive's pages: a static table (no script), a row a record, each linking its page."""
    e = _e
    rows = "".join(
        f'<tr class="{"" if x.clean else "bad"}"><td class="r">{x.line}</td>'
        f'<td><a href="{e(x.page)}">{e(x.game)}</a></td><td>{e(x.players)}</td><td class="r">{x.deals}</td>'
        f"<td>{e(x.result)}</td><td>{e(x.verdict)}</td></tr>\n"
        for x in entries
    )
    bad = sum(1 for x in entries if not x.clean)
    title = f"{fmt.printable(source)}: {len(entries)} record{'' if len(entries) == 1 else 's'}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(title)}</title>\n<style>\n{_asset('html_page.css')}"
        "tr.bad td:last-child { color: var(--red); font-weight: 600; }\n</style>\n</head>\n<body>\n<main>\n"
        f'<h1>{e(title)}</h1>\n<p class="meta">{bad} with errors. Each game links to its replay.</p>\n'
        '<div class="scroll"><table class="t index"><thead><tr><th class="r">Line</th><th>Game</th><th>Players</th>'
        f'<th class="r">Deals</th><th>Result</th><th>Verify</th></tr></thead>\n<tbody>\n{rows}</tbody></table></div>\n'
        "</main>\n</body>\n</html>\n"
    )


def _e(text: str) -> str:
    """Text from a record for a page's text or a quoted attribute (:func:`markup_text`)."""
    return markup_text(text, quote=True)
