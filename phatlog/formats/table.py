"""An archive as one long CSV table (``--to table``; ``.csv`` written from an archive): a row a deal a side.

Made for analysis (pandas, R, a spreadsheet: one tidy table for a whole archive) and read back whole::

    file,line,game,event,date,deal,dealer,side,players,bid,taken,points,total,deal_json,record_json
    games.jsonl,1,phat,Club night,2026-11-14,1,3,0,Ann & Cal,,,54,54,"{""hands"":...}","{""phatlog"":...}"
    games.jsonl,1,phat,Club night,2026-11-14,1,3,1,Ben & Dee,,,34,34,,

``file`` and ``line`` say where the record was read (an archive's line; empty for a file of one record).
``side`` is a partnership in Phat and the Don games (0: seats 0 and 2) and a seat in Oh Hell; ``players``
names the side. ``points`` and ``total`` are the deal's recorded score for the side, ``bid`` and ``taken``
(Oh Hell) the seat's bid and tricks taken; an empty cell is a fact not recorded. Everything else of the
deal (its hands, tricks, turn-up card, comments, ...) is the JSON in ``deal_json`` on the deal's first row,
and everything of the record but its deals is ``record_json`` on its first row, so nothing is lost: read
back, the table gives the records that were written. ``game``, ``event``, ``date``, ``dealer`` and
``players`` repeat what the JSON holds, for filtering and grouping; the reader takes them from the JSON.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any, BinaryIO, Final

from pydantic import BaseModel

from phatlog.diagnostics import Diagnostic, diag
from phatlog.formats import base
from phatlog.formats.base import Parsed, Record
from phatlog.record.reader import DEFAULT_MAX_BYTES

NAME: Final = "table"
SUFFIXES: Final = (".csv",)
MANY: Final = True
COLUMNS: Final = (
    "file",
    "line",
    "game",
    "event",
    "date",
    "deal",
    "dealer",
    "side",
    "players",
    "bid",
    "taken",
    "points",
    "total",
    "deal_json",
    "record_json",
)
#: The header row, written before the first record.
HEAD: Final = ",".join(COLUMNS) + "\r\n"
_SCORE_KEYS: Final = frozenset({"points", "total"})


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _sides(rec: Record) -> list[list[int]]:
    players = len(rec["players"])
    return [[s] for s in range(players)] if rec["game"] == "oh_hell" else [[0, 2], [1, 3]]


def render_at(rec: Record, source: str = "", line: int | None = None) -> tuple[str, list[Diagnostic]]:
    """A canonical record as rows of the table (no header: :data:`HEAD` comes first), nothing lost."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rest = {k: v for k, v in rec.items() if k != "deals"}
    event = rec.get("event", {})
    names = [p["name"] for p in rec["players"]]
    oh_hell = rec["game"] == "oh_hell"
    for d, deal in enumerate(rec["deals"]):
        score = deal.get("score", {})
        inner = {k: v for k, v in deal.items() if k not in ("dealer", "score")}
        if oh_hell:
            inner.pop("bids", None)
            inner.pop("taken", None)
        for side, seats in enumerate(_sides(rec)):
            first = side == 0
            writer.writerow(
                [
                    source,
                    "" if line is None else line,
                    rec["game"],
                    event.get("name", ""),
                    event.get("date", ""),
                    d + 1,
                    deal["dealer"],
                    side,
                    " & ".join(names[s] for s in seats if s < len(names)),
                    _cell(deal.get("bids"), side) if oh_hell else "",
                    _cell(deal.get("taken"), side) if oh_hell else "",
                    _cell(score.get("points"), side),
                    _cell(score.get("total"), side),
                    _json(inner) if first else "",
                    _json(rest) if first and d == 0 else "",
                ]
            )
    return out.getvalue(), []


def _cell(values: list[int] | None, index: int) -> str:
    return "" if values is None or index >= len(values) else str(values[index])


def render(rec: Record) -> tuple[str, list[Diagnostic]]:
    """A canonical record as rows of the table (``file`` and ``line`` empty)."""
    return render_at(rec)


# ---------------------------------------------------------------------------------------- reading


class _Bad(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


def _rows(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    reader = csv.reader(lines)
    try:
        for row in reader:
            yield reader.line_num, row
    except csv.Error as exc:
        raise _Bad(base.syntax(f"this CSV does not parse: {exc}", reader.line_num, 1)) from None


def read(lines: Iterable[str]) -> Iterator[Parsed]:
    """The records of a table, given a line at a time: a record is yielded as soon as its rows are read."""
    rows = _rows(lines)
    try:
        number, header = next(rows, (1, []))
        if header and header[0].startswith("\ufeff"):
            header[0] = header[0][1:]
        if tuple(header) != COLUMNS:
            raise _Bad(base.syntax(f"the first row is not the table's header ({HEAD.strip()})", number, 1))
        group: list[tuple[int, list[str]]] = []
        for number, row in rows:
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(COLUMNS):
                raise _Bad(base.syntax(f"a row has {len(row)} cells; the table has {len(COLUMNS)} columns", number, 1))
            if row[14] and group:
                yield _record(group)
                group = []
            if not group and not row[14]:
                raise _Bad(base.syntax("a record's first row holds its record_json; this row has none", number, 15))
            group.append((number, row))
        if group:
            yield _record(group)
    except _Bad as bad:
        yield Parsed(None, [bad.diagnostic])


def _int(text: str, number: int, column: int) -> int | None:
    if not text.strip():
        return None
    try:
        return base.parse_int(text)
    except base.NumberError as exc:
        raise _Bad(base.syntax(f"{COLUMNS[column - 1]}: {exc}", number, column)) from None


def _loaded(text: str, number: int, column: int) -> Any:
    try:
        value = base.json_loads(text)
    except (ValueError, RecursionError) as exc:
        raise _Bad(base.syntax(f"{COLUMNS[column - 1]} is not JSON: {exc}", number, column)) from None
    if not isinstance(value, dict):
        raise _Bad(base.syntax(f"{COLUMNS[column - 1]} is a JSON object, not {type(value).__name__}", number, column))
    return value


def _record(group: list[tuple[int, list[str]]]) -> Parsed:
    """One record from its rows (the first holds record_json; each deal's first, deal_json)."""
    start = group[0][0]
    record = _loaded(group[0][1][14], start, 15)
    game = record.get("game")
    deals: list[dict[str, Any]] = []
    by_deal: dict[int, list[tuple[int, list[str]]]] = {}
    order: list[int] = []
    for number, row in group:
        d = _int(row[5], number, 6)
        if d is None:
            raise _Bad(base.syntax("deal is empty: every row names its deal", number, 6))
        if d not in by_deal:
            order.append(d)
            by_deal[d] = []
        by_deal[d].append((number, row))
    for d in order:
        rows = by_deal[d]
        number, first = rows[0]
        if not first[13]:
            raise _Bad(base.syntax("a deal's first row holds its deal_json; this row has none", number, 14))
        deal = _loaded(first[13], number, 14)
        dealer = _int(first[6], number, 7)
        built: dict[str, Any] = {"dealer": dealer} if dealer is not None else {}
        built.update(deal)
        columns = {"bids": 9, "taken": 10, "points": 11, "total": 12}
        lists = {key: [_int(r[c], n, c + 1) for n, r in rows] for key, c in columns.items()}
        if game == "oh_hell":
            for key in ("bids", "taken"):
                if any(v is not None for v in lists[key]):
                    built[key] = lists[key]
        score = {key: lists[key] for key in ("points", "total") if any(v is not None for v in lists[key])}
        if score:
            built["score"] = score
        deals.append(built)
    record["deals"] = deals
    record, found = base.validate(record)
    found = [d if d.line is not None else _placed(d, start) for d in found]
    parsed = Parsed(record, found, start)
    return parsed


def _placed(d: Diagnostic, line: int) -> Diagnostic:
    return diag(d.code, d.message, d.pointer, line=line)


def loads(data: str | bytes, source: str = "<input>") -> Iterator[Parsed]:
    """Read every record of a table."""
    text = base.decode(data)
    if not isinstance(text, str):
        yield Parsed(None, [text])
        return
    yield from read(io.StringIO(text, newline=""))


def load(fp: BinaryIO, source: str = "<input>", max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Parsed]:
    """Read every record of a table from a binary file, a record at a time."""
    stream = io.TextIOWrapper(fp, encoding="utf-8", errors="strict", newline="")
    try:
        yield from read(stream)
    except UnicodeDecodeError as err:
        yield Parsed(None, [diag("PL002", f"the input is not UTF-8 text (byte {err.start} of a block)")])
    finally:
        stream.detach()


def losses(record: Mapping[str, object] | BaseModel) -> list[Diagnostic]:
    """The table carries every record whole: nothing is ever lost."""
    return base.losses_of(render, record)


def dumps(record: Mapping[str, object] | BaseModel, *, lossy: bool = False) -> str:
    """A record as rows of the table (without the header)."""
    return base.finish(render, record, lossy)


def dump(records: Iterable[Mapping[str, object] | BaseModel], fp: IO[str], *, lossy: bool = False) -> int:
    """Write the header, then every record's rows, as they come."""
    count = 0
    for record in records:
        fp.write((HEAD if not count else "") + dumps(record, lossy=lossy))
        count += 1
    return count
