"""``standings --format html``: an event report, one self-contained page of standings and crosstables.

The tables are the very sheets every other format draws (:func:`phatlog.report.events.standings_tables`),
in the replay pages' style (their CSS, their Content-Security-Policy: nothing is fetched) and with no
script at all. Every text passes through :func:`phatlog.diagnostics.printable.markup_text` (printable, then escaped).

With ``pages`` (``-o DIR``: a replay page a record, :func:`page_name`), each game is linked where it
shows: a row of the standings links the games its partnership or player played, a crosstable cell the
games between its row and its column, and each event lists its games; the records that did not count
link to theirs too.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

from phatlog.diagnostics.printable import markup_text, printable
from phatlog.events.standings import Game, Group, Standings, TeamKey
from phatlog.report.events import Sheet, standings_tables
from phatlog.report.html import page_head

#: A record's page, from its file and line (None: no page, no link).
Pages = Callable[[str, "int | None"], "str | None"]

_STYLE = """
.event h2 { font-size: 1.15rem; margin: 22px 0 6px; overflow-wrap: anywhere; }
.event h3 { font-size: 1rem; margin: 14px 0 4px; overflow-wrap: anywhere; }
.games a { margin-right: 6px; font-size: .85rem; }
td.x { text-align: center; }
td.x a, td a.g { text-decoration: none; }
tr.bad td { color: var(--red); }
.notes { color: var(--muted); font-size: .9rem; }
"""


def page_name(number: int) -> str:
    """The replay page of the ``number``-th record read (from 1, in input order)."""
    return f"game-{number}.html"


def render(data: Standings, notes: Sequence[str] = (), pages: Pages | None = None) -> str:
    """The whole event report. ``pages`` gives each record's page, to link; None: no links."""
    e = _e
    sheets = standings_tables(data)
    body: list[str] = []
    at = 0
    for group in data.sorted_groups():
        count = 3 if group.all_fours else 2  # the sheets of one group (report.events._group_sheets)
        body.append(_group(group, sheets[at : at + count], pages))
        at += count
    for sheet in sheets[at:]:  # the records that did not count, or counted with problems
        body.append(_listed(sheet, data, pages))
    title = "Standings" if len(data.groups) != 1 else f"Standings: {printable(data.sorted_groups()[0].event)}"
    meta = "".join(f"<li>{e(printable(n))}</li>" for n in notes)
    return (
        page_head(title, _STYLE)
        + f'<main class="event">\n<h1>{e(title)}</h1>\n<ul class="meta">{meta}</ul>\n'
        + "".join(body)
        + "</main>\n</body>\n</html>\n"
    )


def _group(group: Group, sheets: list[Sheet], pages: Pages | None) -> str:
    e = _e
    numbered = list(enumerate(group.games, 1))
    links = {id(g): _link(g, n, pages) for n, g in numbered}
    out = [f"<section>\n<h2>{e(printable(sheets[0].heading.rsplit(': ', 1)[0]))}</h2>\n"]
    if group.all_fours:
        ranked: list[list[TeamKey]] = [[t.key for t in group.ranked_teams()], [p.key for p in group.ranked_players()]]
    else:
        ranked = [[p.key for p in group.ranked_oh_hell()]]
    order, _ = group.crosstable()
    for sheet, keys in zip(sheets, [*ranked, order if group.crosstable_drawn else order[:1]], strict=True):
        crosstable = sheet is sheets[-1]
        out.append(f"<h3>{e(printable(sheet.heading.rsplit(': ', 1)[1]))}</h3>\n")
        head = "".join(f"<th{_right(sheet, i)}>{e(printable(c))}</th>" for i, c in enumerate(sheet.columns))
        games_head = "" if pages is None or crosstable else "<th>games</th>"
        out.append(f'<div class="scroll"><table class="t"><thead><tr>{head}{games_head}</tr></thead>\n<tbody>\n')
        for key, row in zip(keys, sheet.rows, strict=True):
            cells = []
            for i, text in enumerate(row):
                if crosstable and i >= 2:
                    other = order[i - 2]
                    met = [g for g in group.games if _plays(group, g, key) and _plays(group, g, other) and key != other]
                    anchors = "".join(links[id(g)] for g in met)
                    cells.append(f'<td class="x">{e(printable(text))}{" " + anchors if anchors else ""}</td>')
                else:
                    cells.append(f"<td{_right(sheet, i)}>{e(printable(text))}</td>")
            if pages is not None and not crosstable:
                played = "".join(links[id(g)] for g in group.games if _plays(group, g, key))
                cells.append(f'<td class="games">{played}</td>')
            out.append(f"<tr>{''.join(cells)}</tr>\n")
        out.append("</tbody></table></div>\n")
    out.append(_games(group, numbered, links))
    out.append("</section>\n")
    return "".join(out)


def _plays(group: Group, game: Game, key: TeamKey) -> bool:
    """Whether a standings row's key (a partnership, a player) took part in a game."""
    if key in game.sides:
        return True
    return group.all_fours and isinstance(key, str) and any(key in side for side in game.sides)


def _link(game: Game, number: int, pages: Pages | None) -> str:
    page = None if pages is None else pages(game.file, game.line)
    if page is None:
        return ""
    where = printable(game.file if game.line is None else f"{game.file}:{game.line}")
    mark = "*" if game.marked else ""
    return f'<a class="g" href="{_e(page)}" title="{_e(where)}">G{number}{mark}</a> '


def _games(group: Group, numbered: list[tuple[int, Game]], links: dict[int, str]) -> str:
    """The group's games, by round and table: each with its sides, the final score, the winner (linked, with
    pages, to the game's page) and where its record is."""
    e = _e
    rows = []
    for number, game in sorted(numbered, key=lambda item: (_order(item[1].round), _order(item[1].table), item[0])):
        names = [printable(group.names.get(side, str(side))) for side in game.sides]
        where = printable(game.file if game.line is None else f"{game.file}:{game.line}")
        link = links[id(game)] or f"G{number}"
        score = "" if game.totals is None else "–".join(str(t) for t in game.totals)
        winner = "—" if not game.winner else " and ".join(names[w] for w in game.winner if w < len(names))
        href = _href(links[id(game)])
        won = e(winner) if href is None or not game.winner else f'<a href="{e(href)}">{e(winner)}</a>'
        sides = " v ".join(f"<b>{e(n)}</b>" if game.winner and i in game.winner else e(n) for i, n in enumerate(names))
        rows.append(
            f'<tr class="{"bad" if game.marked else ""}"><td>{link}</td><td class="r">{e(printable(game.round or ""))}'
            f'</td><td class="r">{e(printable(game.table or ""))}</td><td>{sides}</td><td class="r">{e(score)}</td>'
            f"<td>{won}</td><td>{e(where)}</td></tr>\n"
        )
    return (
        '<h3>games</h3>\n<div class="scroll"><table class="t games-list"><thead><tr><th>game</th>'
        '<th class="r">round</th><th class="r">table</th><th>sides</th><th class="r">final score</th><th>winner</th>'
        f"<th>record</th></tr></thead>\n<tbody>\n{''.join(rows)}</tbody></table></div>\n"
    )


def _order(text: str | None) -> tuple[int, int, str]:
    """A round or table in its natural order: numbers by value (2 before 10), then other text, then none."""
    if text is None:
        return (2, 0, "")
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _href(anchor: str) -> str | None:
    """The address of a game's link (:func:`_link`), or None where it has none."""
    found = re.search(r'href="([^"]*)"', anchor)
    return None if found is None else html.unescape(found[1])


def _listed(sheet: Sheet, data: Standings, pages: Pages | None) -> str:
    e = _e
    head = "".join(f"<th{_right(sheet, i)}>{e(c)}</th>" for i, c in enumerate(sheet.columns))
    rows = []
    for listed, row in zip(data.listed, sheet.rows, strict=True):
        page = None if pages is None else pages(listed.file, listed.line)
        cells = []
        for i, text in enumerate(row):
            shown = e(printable(text))
            if i == 0 and page is not None:
                shown = f'<a href="{e(page)}">{shown}</a>'
            cells.append(f"<td{_right(sheet, i)}>{shown}</td>")
        rows.append(f'<tr class="bad">{"".join(cells)}</tr>\n')
    return (
        f"<section>\n<h2>{e(printable(sheet.heading))}</h2>\n"
        f'<div class="scroll"><table class="t"><thead><tr>{head}</tr></thead>\n<tbody>\n{"".join(rows)}'
        "</tbody></table></div>\n</section>\n"
    )


def _right(sheet: Sheet, column: int) -> str:
    return ' class="r"' if column in sheet.right else ""


def _e(text: str) -> str:
    """Text for the page's text or a quoted attribute: printable, escaped (:func:`markup_text`)."""
    return markup_text(text, quote=True)
