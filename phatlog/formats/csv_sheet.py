"""Score sheets as CSV (``.csv``): one row a deal, as a scorer keeps them in a spreadsheet.

The file starts with metadata lines, ``# key: value`` (``# game: oh_hell``, ``# player: Ann``, ``# rules:
hook=true``, ...), then a header row that names the columns, then one row a deal::

    # game: oh_hell
    # rules: schedule=up hook=true
    # player: Ann
    # player: Ben
    # player: Cal
    deal,dealer,cards,turnup,Ann bid,Ann took,Ann points,Ann total,Ben bid,...
    1,Ann,1,7S,0,0,10,10,1,1,11,11,...

For Oh Hell each player has the columns ``bid``, ``took``, ``points`` and ``total``; for Phat and the Don
games each side (``Ann & Cal``, or ``side 0``) has ``points`` and ``total``. Empty cells are facts not
recorded. Read back, the sheet is a score-sheet record (bids, tricks taken and scores, no cards).

A full record exports its score-sheet view: its hands, undealt cards and tricks are dropped, and each is
reported (PL702). Oh Hell's tricks taken are worked out from the tricks where the record does not give
them. Everything else (metadata, players, rules, cut, turn-up cards, comments, extension objects, result)
is carried. Any layout detail is in ``docs/formats.md``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO, Final

from pydantic import BaseModel, ValidationError

from phatlog.diagnostics import Diagnostic
from phatlog.formats import base
from phatlog.formats.base import Parsed, Positions, Record, parse_card
from phatlog.record.model import RECORD_ADAPTER, OhHellRules, version_for
from phatlog.referee.rulings import claim_awards, kind_of, rulings_of
from phatlog.rules.oh_hell import hand_sizes

NAME: Final = "csv"
SUFFIXES: Final = (".csv",)
MANY: Final = False

_KINDS: Final = {
    "bid": "bids",
    "bids": "bids",
    "took": "taken",
    "taken": "taken",
    "tricks": "taken",
    "won": "taken",
    "points": "points",
    "pts": "points",
    "total": "total",
}
_COLUMNS: Final = {
    "deal": "deal",
    "hand": "deal",
    "no": "deal",
    "no.": "deal",
    "dealer": "dealer",
    "cards": "cards",
    "hand size": "cards",
    "turnup": "turnup",
    "turn-up": "turnup",
    "trump": "turnup",
    "comment": "comment",
    "comments": "comment",
    "note": "comment",
    "notes": "comment",
    "ext": "ext",
    "rulings": "rulings",
}
_META: Final = (
    "phatlog",
    "game",
    "rules",
    "event",
    "site",
    "date",
    "round",
    "table",
    "board",
    "scorer",
    "source",
    "event ext",
    "player",
    "cut",
    "comment",
    "ext",
    "status",
    "reason",
    "winner",
    "total",
    "by",
)
_EVENT: Final = {
    "event": "name",
    "site": "site",
    "date": "date",
    "round": "round",
    "table": "table",
    "board": "board",
    "scorer": "scorer",
    "source": "source",
}


# ---------------------------------------------------------------------------------------- reading


def loads(data: str | bytes, source: str = "<input>") -> Iterator[Parsed]:
    """Read one score sheet."""
    return base.parse_whole(parse, data)


def load(fp: BinaryIO, source: str = "<input>") -> Iterator[Parsed]:
    """Read one score sheet from a binary file."""
    return base.load_whole(loads, fp, source)


class _Stop(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


def _json_cell(cell: str, kind: type, name: str, holds: str, example: str, line: int, where: int) -> Any:
    """A cell that holds JSON (a deal's ``ext`` object, its ``rulings`` array): the value, or the PL701
    failure that says what is wrong with it."""
    try:
        value = base.json_loads(cell)
    except base.NumberError as exc:
        raise _fail(f"the {name} cell: {exc}", line, where) from None
    except (ValueError, RecursionError):
        raise _fail(f"the {name} cell holds {holds}, and this is not JSON", line, where) from None
    if not isinstance(value, kind):
        raise _fail(f"the {name} cell holds {example}", line, where)
    return value


def _fail(message: str, line: int, column: int = 1) -> _Stop:
    return _Stop(base.syntax(message, line, column))


@dataclass(slots=True)
class _Column:
    index: int
    kind: str  # deal, dealer, cards, turnup, comment, ext, or a per-seat kind: bids, taken, points, total
    seat: int = -1
    label: str = ""


@dataclass(slots=True)
class _Sheet:
    record: dict[str, Any] = field(default_factory=dict)
    names: list[str | None] = field(default_factory=list)
    positions: Positions = field(default_factory=Positions)
    seen: set[str] = field(default_factory=set)  # metadata keys given
    cards: list[tuple[int, int, int, int]] = field(default_factory=list)  # (deal, cards, line, column)
    delimiter: str = ","


def _delimiter(line: str) -> str:
    counts = {d: line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _rows(text: str, delimiter: str, skipped: int = 0) -> Iterator[tuple[int, list[str]]]:
    """Each row with the line it starts on (``skipped``: lines before ``text`` starts)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    while True:
        start = reader.line_num + 1 + skipped
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise _fail(f"this is not valid CSV: {exc}", reader.line_num + skipped) from None
        yield start, row


def parse(text: str) -> Parsed:
    """One score sheet: a score-sheet record, or the diagnostics that say why not."""
    sheet = _Sheet()
    try:
        _parse(text, sheet)
    except _Stop as stop:
        return Parsed(None, [stop.diagnostic])
    record, found = base.validate(sheet.record, sheet.positions)
    return Parsed(record, found)


_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


def _metadata(text: str, sheet: _Sheet) -> tuple[int, int]:
    """Read the metadata lines at the top of a sheet; return where the CSV after them starts (the
    offset and the line).

    A metadata line is read as it stands, ``# key: value`` to the end of the line (a comma or a quote in
    the value is part of it), less the empty cells a spreadsheet adds when it saves the line as a row.
    A line that starts with a quote is one a spreadsheet (or an earlier phatlog) quoted as a cell: it is
    read as CSV, its cells joined again.
    """
    pos, number = 0, 0
    for m in _LINE.finditer(text):
        raw = m[0]
        if not raw:
            break
        body = raw.rstrip("\r\n")
        stripped = body.lstrip()
        if stripped.startswith("#"):
            value = stripped[1:].rstrip()
            while value.endswith(sheet.delimiter):
                value = value[: -len(sheet.delimiter)].rstrip()
            _meta(value, number + 1, sheet)
        elif stripped.startswith('"') and stripped[1:].lstrip().startswith("#"):
            try:
                cells = next(csv.reader([stripped], delimiter=sheet.delimiter, strict=True))
            except (csv.Error, StopIteration):
                raise _fail("this metadata line is not valid CSV", number + 1) from None
            while cells and not cells[-1].strip():
                cells.pop()
            _meta(sheet.delimiter.join(cells).lstrip()[1:], number + 1, sheet)
        elif stripped:
            break
        pos, number = m.end(), number + 1
    return pos, number


def _parse(text: str, sheet: _Sheet) -> None:
    first_data = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip('"').startswith("#")), "")
    sheet.delimiter = _delimiter(first_data)
    start, skipped = _metadata(text, sheet)
    rows = _rows(text[start:], sheet.delimiter, skipped)
    rec = sheet.record
    header: list[str] | None = None
    columns: list[_Column] = []
    deals: list[dict[str, Any]] = []
    for line, row in rows:
        cells = list(row)
        while cells and not cells[-1].strip():
            cells.pop()
        if not cells:
            continue
        if cells[0].lstrip().startswith("#"):
            if header is not None:
                raise _fail("metadata lines (# key: value) come before the header row", line)
            _meta(sheet.delimiter.join(cells).lstrip()[1:], line, sheet)
            continue
        if header is None:
            header = cells
            rec.setdefault("phatlog", "1.0")  # raised to 1.1 after the table where a 1.1 feature is used
            if "game" not in rec:
                raise _fail("the game is not given: start the sheet with a line '# game: oh_hell' (or phat, ...)", 1)
            if rec["game"] != "oh_hell" and "players" not in rec:
                raise _fail(
                    f"the players of {rec['game']} are not given: name them before the header, one a line in "
                    "seat order ('# player: Ann')",
                    line,
                )
            columns = _header(header, line, sheet)
            sheet.positions.mark("/deals", line, 1)
            continue
        deals.append(_row(cells, line, columns, len(deals), sheet))
    if header is None:
        raise _fail("the sheet has no header row (deal, dealer, ...) and no deals", max(1, text.count("\n")))
    rec["deals"] = deals
    if rec.get("phatlog") == "1.0":
        rec["phatlog"] = version_for(rec)  # a record that uses a format 1.1 feature is a 1.1 record
    _check_cards(sheet)


def _meta(text: str, line: int, sheet: _Sheet) -> None:
    key, colon, value = text.partition(":")
    key = " ".join(key.split()).lower()
    if not colon or key not in _META:
        raise _fail(
            f"expected a metadata line '# key: value' with a key of {', '.join(_META)}, found {text[:40]!r}", line
        )
    rec, positions = sheet.record, sheet.positions
    try:
        parsed = base.read_plain_or_json(value) if value.strip() else ""
    except base.NumberError as exc:
        raise _fail(f"# {key}: {exc}", line) from None
    except (ValueError, RecursionError) as exc:
        raise _fail(f"# {key}: the value is not valid JSON ({exc})", line) from None
    text_value = parsed if isinstance(parsed, str) else None

    def need_text() -> str:
        if text_value is None:
            raise _fail(f"# {key}: takes text, not JSON data", line)
        return text_value

    if key not in ("player", "cut", "rules") and key in sheet.seen:
        raise _fail(f"# {key}: is given twice", line)
    sheet.seen.add(key)
    if key == "phatlog":
        rec["phatlog"] = need_text()
        positions.mark("/phatlog", line, 1)
    elif key == "game":
        rec["game"] = re.sub(r"[\s-]+", "_", need_text().strip().lower())
        positions.mark("/game", line, 1)
    elif key in _EVENT:
        rec.setdefault("event", {})[_EVENT[key]] = need_text()
        positions.mark("/event", line, 1)
        positions.mark(f"/event/{_EVENT[key]}", line, 1)
    elif key in ("event ext", "ext"):
        if not isinstance(parsed, dict):
            raise _fail(f"# {key}: takes a JSON object", line)
        (rec.setdefault("event", {}) if key == "event ext" else rec)["ext"] = parsed
        positions.mark("/event/ext" if key == "event ext" else "/ext", line, 1)
    elif key == "rules":
        if isinstance(parsed, dict):
            items = parsed
        else:
            try:
                items = base.parse_rules(need_text())
            except ValueError as exc:
                raise _fail(f"# rules: {exc} (rules are written key=value, e.g. hook=true)", line) from None
        rules = rec.setdefault("rules", {})
        positions.mark("/rules", line, 1)
        for k, v in items.items():
            if k in rules:
                raise _fail(f"# rules: the rule {k!r} is given twice", line)
            rules[k] = v
            positions.mark(f"/rules/{k}", line, 1)
    elif key == "player":
        players = rec.setdefault("players", [])
        positions.mark(f"/players/{len(players)}", line, 1)
        positions.mark("/players", line, 1)
        if isinstance(parsed, dict):
            players.append(parsed)
            sheet.names.append(parsed.get("name") if isinstance(parsed.get("name"), str) else None)
        else:
            players.append({"name": need_text()})
            sheet.names.append(need_text())
    elif key == "cut":
        cut = rec.setdefault("cut", [])
        positions.mark(f"/cut/{len(cut)}", line, 1)
        if isinstance(parsed, list):
            cut.append(parsed)
        else:
            cards: list[str | None] = []
            for part in need_text().split():
                card = None if part == "-" else parse_card(part)
                if card is None and part != "-":
                    raise _fail(f"# cut: takes a card or '-' for each seat, found {part!r}", line)
                cards.append(card)
            cut.append(cards)
    elif key == "comment":
        rec["comment"] = need_text()
        positions.mark("/comment", line, 1)
    elif key in ("status", "reason"):
        rec.setdefault("result", {})[key] = need_text()
        positions.mark(f"/result/{key}", line, 1)
    elif key == "by":  # format 1.1: the seat that conceded or forfeited
        seat = parsed.strip() if isinstance(parsed, str) else parsed
        if isinstance(seat, str) and re.fullmatch(r"\d{1,9}", seat):
            seat = int(seat)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise _fail("# by: takes the seat number of the side that conceded", line)
        rec.setdefault("result", {})["by"] = seat
        positions.mark("/result/by", line, 1)
    else:  # winner, total
        result = rec.setdefault("result", {})
        positions.mark(f"/result/{key}", line, 1)
        if isinstance(parsed, list):
            result[key] = parsed
        else:
            parts = need_text().replace(",", " ").split()
            if not all(re.fullmatch(r"[+-]?\d+", p) for p in parts):
                raise _fail(f"# {key}: takes whole numbers separated by spaces, e.g. '# {key}: 0 2'", line)
            try:
                result[key] = [base.parse_int(p) for p in parts]
            except base.NumberError as exc:
                raise _fail(f"# {key}: {exc}", line) from None


def _seat_of(who: str, sheet: _Sheet, sides: bool) -> int | None:
    """The seat (Oh Hell) or side (Phat, Don) that a column's name gives."""
    plain = " ".join(who.split()).casefold()
    m = re.fullmatch(r"(?:seat|player|side) (\d+)", plain)
    if m:
        try:
            return base.parse_int(m[1], signed=False)
        except base.NumberError:
            return None  # beyond any seat: the caller says the column names nobody
    if sides:
        if plain in ("ns", "n/s", "north-south"):
            return 0
        if plain in ("ew", "e/w", "east-west"):
            return 1
        names = sheet.names
        if len(names) == 4 and all(isinstance(x, str) for x in names):
            for side in (0, 1):
                a, b = str(names[side]).casefold(), str(names[side + 2]).casefold()
                for joint in (" & ", "&", " + ", "+", " and ", "/", " / "):
                    if plain in (f"{a}{joint}{b}", f"{b}{joint}{a}"):
                        return side
        return None
    exact = [i for i, n in enumerate(sheet.names) if n is not None and " ".join(n.split()) == " ".join(who.split())]
    if len(exact) == 1:
        return exact[0]
    folded = [i for i, n in enumerate(sheet.names) if n is not None and " ".join(n.split()).casefold() == plain]
    return folded[0] if len(folded) == 1 else None


def _header(cells: list[str], line: int, sheet: _Sheet) -> list[_Column]:
    rec = sheet.record
    oh_hell = rec["game"] == "oh_hell"
    derive = oh_hell and "players" not in rec
    columns: list[_Column] = []
    seen: set[tuple[str, int]] = set()
    for i, raw in enumerate(cells):
        name = " ".join(raw.split())
        plain = name.casefold()
        if plain in _COLUMNS:
            kind = _COLUMNS[plain]
            if kind in ("cards", "turnup") and not oh_hell:
                raise _fail(f"the column {name!r} is for Oh Hell, not {rec['game']}", line, i + 1)
            column = _Column(i, kind)
        else:
            m = re.fullmatch(r"(.*\S)\s+(\S+)", name)
            kind = _KINDS.get(m[2].casefold(), "") if m else ""
            if not m or not kind:
                each = (
                    "cards, turnup, then for each player NAME bid, NAME took, NAME points and NAME total"
                    if oh_hell
                    else "then for each side NAME & NAME points and NAME & NAME total"
                )
                raise _fail(f"unknown column {name!r}: the columns are deal, dealer, {each}, comment, ext", line, i + 1)
            if not oh_hell and kind in ("bids", "taken"):
                raise _fail(f"the column {name!r}: {rec['game']} has no bids or tricks taken on its sheet", line, i + 1)
            seat = _seat_of(m[1], sheet, not oh_hell)
            if seat is None and derive:
                seat = len(sheet.names)
                sheet.names.append(" ".join(m[1].split()))
                rec.setdefault("players", []).append({"name": " ".join(m[1].split())})
                sheet.positions.mark(f"/players/{seat}", line, i + 1)
            if seat is None:
                what = "side" if not oh_hell else "player"
                raise _fail(f"the column {name!r} names no {what} of this game ({m[1]!r})", line, i + 1)
            column = _Column(i, kind, seat, name)
        key = (column.kind, column.seat)
        if key in seen:
            raise _fail(f"the column {name!r} is given twice", line, i + 1)
        seen.add(key)
        columns.append(column)
    count = len(sheet.names) if oh_hell else 2
    for kind in ("bids", "taken", "points", "total"):
        have = {c.seat for c in columns if c.kind == kind}
        if have and have != set(range(count)):
            missing = min(set(range(count)) - have) if set(range(count)) - have else max(have)
            raise _fail(
                f"the {kind} columns must cover every {'player' if oh_hell else 'side'}: "
                f"seat or side {missing} has none or is beyond the game",
                line,
            )
    return columns


def _int(cell: str, line: int, column: int, what: str) -> int:
    """A cell's whole number (``3.0``, as spreadsheets write it, is 3), bounded as every reader bounds
    numbers; otherwise stop at the cell."""
    try:
        return base.parse_int(cell, fraction=True)
    except base.NumberError as exc:
        raise _fail(f"{what}: {exc}", line, column) from None


def _row(cells: list[str], line: int, columns: list[_Column], d: int, sheet: _Sheet) -> dict[str, Any]:
    if len(cells) > len(columns):
        raise _fail(
            f"this row has {len(cells)} cells, but the header names {len(columns)} columns", line, len(columns) + 1
        )
    ptr = f"/deals/{d}"
    positions = sheet.positions
    positions.mark(ptr, line, 1)
    deal: dict[str, Any] = {}
    lists: dict[str, dict[int, int]] = {}
    blanks: dict[str, str] = {}
    for col in columns:
        cell = cells[col.index] if col.index < len(cells) else ""
        where = col.index + 1
        if col.kind in _KINDS.values():
            if not cell.strip():
                blanks.setdefault(col.kind, col.label)
                continue
            lists.setdefault(col.kind, {})[col.seat] = _int(cell, line, where, repr(col.label))
            key = f"{ptr}/{col.kind}" if col.kind in ("bids", "taken") else f"{ptr}/score/{col.kind}"
            positions.mark(f"{key}/{col.seat}", line, where)
            positions.mark(key, line, where)
            continue
        if not cell.strip() and col.kind != "comment":
            continue
        if col.kind == "deal":
            if _int(cell, line, where, "the deal number") != d + 1:
                raise _fail(f"this is deal {d + 1}, but it is numbered {cell.strip()}", line, where)
        elif col.kind == "dealer":
            positions.mark(f"{ptr}/dealer", line, where)
            deal["dealer"] = _dealer(cell, line, where, sheet)
        elif col.kind == "turnup":
            card = parse_card(cell.strip())
            if card is None:
                raise _fail(f"expected the turned-up card (e.g. 7S), found {cell!r}", line, where)
            positions.mark(f"{ptr}/turnup", line, where)
            deal["turnup"] = card
        elif col.kind == "cards":
            sheet.cards.append((d, _int(cell, line, where, "the number of cards"), line, where))
        elif col.kind == "comment":
            if cell:
                try:
                    deal["comment"] = base.json_loads(cell) if cell.startswith('"') else cell
                except ValueError:
                    raise _fail(
                        "a comment that starts with '\"' is a JSON string, and this one is not", line, where
                    ) from None
                positions.mark(f"{ptr}/comment", line, where)
        elif col.kind == "ext":
            deal["ext"] = _json_cell(cell, dict, "ext", "a JSON object", "a JSON object", line, where)
            positions.mark(f"{ptr}/ext", line, where)
        elif col.kind == "rulings":  # format 1.1: the deal's rulings, a JSON array
            example = 'a JSON array, e.g. [{"kind": "misdeal"}]'
            deal["rulings"] = _json_cell(cell, list, "rulings", "a JSON array", example, line, where)
            positions.mark(f"{ptr}/rulings", line, where)
    for kind, values in lists.items():
        if kind in blanks:
            raise _fail(
                f"deal {d + 1}: the cell {blanks[kind]!r} is empty, but others of its kind are filled: "
                f"a deal records the {kind} of everybody or of nobody",
                line,
            )
        ordered = [values[s] for s in sorted(values)]
        if kind in ("bids", "taken"):
            deal[kind] = ordered
        else:
            deal.setdefault("score", {})[kind] = ordered
    if "score" in deal:
        deal["score"] = {k: deal["score"][k] for k in ("points", "total") if k in deal["score"]}
    return deal


def _dealer(cell: str, line: int, column: int, sheet: _Sheet) -> int:
    text = cell.strip()
    if re.fullmatch(r"\d+", text):
        return _int(text, line, column, "the dealer")
    exact = [i for i, n in enumerate(sheet.names) if n == text]
    if len(exact) == 1:
        return exact[0]
    seat = _seat_of(text, sheet, False)
    if seat is None:
        raise _fail(f"the dealer {text!r} is not a player of this game (give a name or a seat number)", line, column)
    return seat


def _check_cards(sheet: _Sheet) -> None:
    """The optional 'cards' column says the hand size: it must be the one the rules' schedule gives."""
    sizes: list[int] | None = None
    try:
        rules = OhHellRules.model_validate(sheet.record.get("rules", {}))
        sizes = hand_sizes(len(sheet.names), rules.schedule, rules.max_cards)
    except (ValidationError, KeyError, ValueError, TypeError):
        sizes = None
    if sizes is None:
        return
    slots = _slots(sheet.record.get("deals", ()))
    for d, count, line, column in sheet.cards:
        slot = slots[d] if d < len(slots) else d
        if slot < len(sizes) and sizes[slot] != count:
            raise _fail(f"deal {d + 1} has {count} cards, but the rules' schedule deals {sizes[slot]}", line, column)


def _slots(deals: Any) -> list[int]:
    """Each deal's place in Oh Hell's schedule: a misdeal (format 1.1) is redealt with the same hand size."""
    out: list[int] = []
    misdeals = 0
    for d, deal in enumerate(deals):
        out.append(d - misdeals)
        rulings = deal.get("rulings") if isinstance(deal, dict) else None
        if isinstance(rulings, list) and any(isinstance(r, dict) and r.get("kind") == "misdeal" for r in rulings):
            misdeals += 1
    return out


# ---------------------------------------------------------------------------------------- writing


def losses(record: Mapping[str, object] | BaseModel) -> list[Diagnostic]:
    """What the score-sheet view of a record drops: the cards (hands, undealt, tricks)."""
    return base.losses_of(render, record)


def dumps(record: Mapping[str, object] | BaseModel, *, lossy: bool = False) -> str:
    """A record's score sheet as CSV (needs ``lossy`` when the record has cards or tricks)."""
    return base.finish(render, record, lossy)


def dump(records: Iterable[Mapping[str, object] | BaseModel], fp: IO[str], *, lossy: bool = False) -> int:
    """Write one record's score sheet as CSV."""
    return base.dump_all(dumps, MANY, NAME, records, fp, lossy)


def _meta_line(key: str, value: object) -> str:
    """A metadata line, written as it stands (never quoted as a CSV cell, so that a reader that skips
    ``#`` lines skips it whole). Its value never holds a line break, and a text that ends in a comma
    or semicolon (which a spreadsheet's empty cells would look like) is written as a JSON string."""
    if isinstance(value, str):
        shown = base.plain_or_json(value)
        if shown == value and value.endswith((",", ";")):
            shown = json.dumps(value, ensure_ascii=False)
    else:
        shown = json.dumps(value, ensure_ascii=False)
    return f"# {key}: {shown}"


_QUOTE: Final = frozenset(',"\r\n#')


def _csv_line(cells: list[str]) -> str:
    """One CSV row, RFC 4180: a cell is quoted if it holds a comma, a quote or a line break, and also if
    it holds ``#``, so that a reader that takes ``#`` as the start of a comment (pandas' ``comment="#"``)
    reads it whole."""
    return ",".join('"' + c.replace('"', '""') + '"' if any(ch in _QUOTE for ch in c) else c for c in cells) + "\r\n"


def _who_names(names: list[str], sides: bool) -> list[str]:
    """Column names for the seats (Oh Hell) or sides (Phat, Don)."""
    folded = [" ".join(n.split()).casefold() for n in names]
    usable = len(set(folded)) == len(folded) and all(
        n == " ".join(n.split())
        and n
        and not n.isdigit()
        and not re.fullmatch(r"(?i)(seat|player|side) \d+|ns|ew", n)
        and not any(ch in n for ch in '&,;\t"')
        for n in names
    )
    if sides:
        return (
            [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
            if usable and len(names) == 4
            else ["side 0", "side 1"]
        )
    return list(names) if usable else [f"seat {s}" for s in range(len(names))]


def _claimed(deal: Any, won: list[int], played: int, seats: int) -> list[int] | None:
    """Oh Hell: the tricks each player took where a claim gives the claimer every trick not played
    (``rulings.claim_awards``, the referee's rule), after ``played`` whole tricks (each player's ``won``
    in them); None where the claim leaves them open (the hand's ``taken`` must then say) or the deal (a
    ``phatlog.record.model`` deal) is not a claim after whole tricks."""
    claims = [r for r in rulings_of(deal) if kind_of(r) == "claim"]
    tricks = deal.tricks or []
    if len(claims) != 1 or not deal.hands or len(tricks) != played or any(len(t.cards) != seats for t in tricks):
        return None
    claim = claims[0]
    remaining = len(deal.hands[0]) - played
    if claim_awards(claim, remaining) != remaining or not 0 <= claim.seat < len(won):
        return None
    taken = list(won)
    taken[claim.seat] += remaining
    return taken


def _taken_from_play(rec: Record) -> dict[int, list[int]]:
    """Oh Hell: the tricks each player took, where the record does not say, as the engine plays the deal
    (``phatlog.states``: its ``TrickWon`` events), a claim of the rest included (:func:`_claimed`). Any
    other deal whose play is not legal and whole (the engine gives it up) leaves the column empty, as does
    a deal without bids (the engine bids before it plays)."""
    wanted = {d for d, deal in enumerate(rec["deals"]) if "tricks" in deal and "taken" not in deal}
    if rec["game"] != "oh_hell" or not wanted:
        return {}
    from phatlog.engine.state import DealScored, Event, TrickWon
    from phatlog.play.steps import states  # the game machine: loaded only when a sheet is written

    out: dict[int, list[int]] = {}
    played: dict[int, int] = {}
    seats = len(rec["players"])
    try:
        model = RECORD_ADAPTER.validate_python(rec)
    except (ValidationError, ValueError, KeyError, IndexError, TypeError):
        return {}

    def took(event: Event) -> None:
        if isinstance(event, TrickWon) and event.deal in wanted:
            out[event.deal] = list(event.taken)
            played[event.deal] = played.get(event.deal, 0) + 1
        elif isinstance(event, DealScored) and event.deal in wanted and event.given_up:
            won = out.pop(event.deal, [0] * seats)
            claimed = _claimed(model.deals[event.deal], won, played.get(event.deal, 0), seats)
            if claimed is not None:
                out[event.deal] = claimed

    try:
        for _ in states(model, visitors=[took], on_fault="pass"):
            pass
    except (ValidationError, ValueError, KeyError, IndexError, TypeError):
        return {}
    return out


def render(rec: Record) -> tuple[str, list[Diagnostic]]:
    """A canonical record's score sheet as CSV, and what the sheet cannot carry."""
    lost: list[Diagnostic] = []
    oh_hell = rec["game"] == "oh_hell"
    names = [p["name"] for p in rec["players"]]
    meta: list[str] = []
    add = meta.append
    add(_meta_line("phatlog", rec["phatlog"]))
    add(_meta_line("game", rec["game"]))
    if "rules" in rec:
        add(f"# rules: {base.format_rules(rec['rules'])}")
    event = rec.get("event", {})
    for key, field_name in _EVENT.items():
        if field_name in event:
            add(_meta_line(key, event[field_name]))
    if "ext" in event:
        add(_meta_line("event ext", event["ext"]))
    for player in rec["players"]:
        add(_meta_line("player", player["name"] if list(player) == ["name"] else player))
    for cut in rec.get("cut", ()):
        add(f"# cut: {' '.join('-' if c is None else c for c in cut)}")
    if "comment" in rec:
        add(_meta_line("comment", rec["comment"]))
    if "ext" in rec:
        add(_meta_line("ext", rec["ext"]))
    result = rec.get("result", {})
    for key in ("status", "reason"):
        if key in result:
            add(_meta_line(key, result[key]))
    for key in ("winner", "total"):
        if key in result:
            add(f"# {key}: {' '.join(str(x) for x in result[key])}")
    if "by" in result:
        add(f"# by: {result['by']}")
    deals = rec["deals"]
    who = _who_names(names, not oh_hell)
    kinds = ("bids", "taken", "points", "total") if oh_hell else ("points", "total")
    words = {"bids": "bid", "taken": "took", "points": "points", "total": "total"}
    header = ["deal", "dealer"] + (["cards", "turnup"] if oh_hell else [])
    header += [f"{w} {words[k]}" for w in who for k in kinds]
    with_comment = any("comment" in deal for deal in deals)
    with_ext = any("ext" in deal for deal in deals)
    with_rulings = any("rulings" in deal for deal in deals)
    header += (["comment"] if with_comment else []) + (["ext"] if with_ext else [])
    header += ["rulings"] if with_rulings else []
    slots = _slots(deals)
    sizes = _sizes(rec)
    taken_from_play = _taken_from_play(rec)
    rows = [header]
    dealer_names = names if _who_names(names, False) == names else None
    for d, deal in enumerate(deals):
        for key, why in (
            ("hands", "the cards dealt are dropped: a score sheet has no cards"),
            ("undealt", "the undealt cards are dropped: a score sheet has no cards"),
            (
                "tricks",
                "the tricks played are dropped: a score sheet keeps "
                + ("the bids, tricks taken and scores" if oh_hell else "the scores"),
            ),
        ):
            if key in deal:
                lost.append(base.loss(f"/deals/{d}/{key}", why))
        dealer = deal["dealer"]
        row = [str(d + 1), dealer_names[dealer] if dealer_names and dealer < len(names) else str(dealer)]
        if oh_hell:
            slot = slots[d]
            row += [str(sizes[slot]) if sizes is not None and slot < len(sizes) else "", deal.get("turnup", "")]
        score = deal.get("score", {})
        values = {
            "bids": deal.get("bids"),
            "taken": deal.get("taken", taken_from_play.get(d)),
            "points": score.get("points"),
            "total": score.get("total"),
        }
        count = len(who)
        for kind in kinds:
            got = values[kind]
            if got is not None and len(got) != count:
                lost.append(
                    base.loss(
                        f"/deals/{d}/{'score/' if kind in ('points', 'total') else ''}{kind}",
                        f"{kind} with {len(got)} entries for {count} columns: a sheet row has one a column",
                    )
                )
                values[kind] = None
        for s in range(count):
            for kind in kinds:
                got = values[kind]
                row.append("" if got is None else str(got[s]))
        if with_comment:
            comment = deal.get("comment")
            row.append(
                ""
                if comment is None
                else comment
                if comment and comment == comment.strip() and not comment.startswith('"') and comment.isprintable()
                # "", spaces at either end (a spreadsheet trims them, a blank last cell is dropped), a quote
                # or a line break a reader would mangle
                else json.dumps(comment, ensure_ascii=False)
            )
        if with_ext:
            row.append(json.dumps(deal["ext"], ensure_ascii=False) if "ext" in deal else "")
        if with_rulings:
            rulings = deal.get("rulings")
            row.append("" if rulings is None else json.dumps(rulings, ensure_ascii=False))
        rows.append(row)
    # RFC 4180: CRLF ends a line. The metadata lines first, as they stand; then the table.
    return "".join(line + "\r\n" for line in meta) + "".join(_csv_line(row) for row in rows), lost


def _sizes(rec: Record) -> list[int] | None:
    if rec["game"] != "oh_hell":
        return None
    try:
        rules = OhHellRules.model_validate(rec.get("rules", {}))
        return hand_sizes(len(rec["players"]), rules.schedule, rules.max_cards)
    except (ValidationError, KeyError, ValueError, TypeError):
        return None
