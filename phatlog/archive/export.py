"""Records as tidy tables for analysis: SQLite, Parquet or DuckDB (``phatlog export``, ``phatlog.export``).

Every record is read as ``verify`` reads it (the same batches and input expansion) and refereed with a
listener on the State's events (:mod:`phatlog.engine.state`): the tables hold what the engine decided as
it drove the State, never a rule worked out again here. A trick's winner is ``TrickWon.seat``, a peg is a
``Pegged``, a counter ``TrickWon.counters``, a deal's points and the totals after it ``DealScored``, the
verdict the referee's.

The tables, joined by ``record`` (the record's number in the export, from 0, in input order) and the
indices below it (``deal``, ``trick``, ``position``, all from 0); ``records`` also holds each record's
fingerprint (``phatlog fingerprint``), file and line:

- ``records``: one row a record read: fingerprint, source, line, game, version, event fields, players,
  deals, status (``clean``, ``problems``, ``unreadable``), errors, warnings, winner (sides or seats, as
  text: ``"1"``, ``"0,2"``).
- ``players``: one row a seat: name, id, side (All Fours: 0 or 1; Oh Hell: the seat), the final total of
  that side (or seat) and whether it won.
- ``deals``: one row a deal the referee judged: dealer, pitcher (All Fours), size, trump, turn-up,
  whether it was passed over (a score sheet) or given up (its play went wrong).
- ``scores``: one row a deal and side (Oh Hell: seat): the points as scored, the total after, the bid
  and the tricks taken (Oh Hell).
- ``tricks``: one row a trick: leader, winner, winner's side, the winning card's position, why in words,
  the counters' points pegged, and ``scored`` (False: a trick shown after an illegal play, never scored).
- ``plays``: one row a card: the seat, the card, its suit and rank, and whether it won the trick.
- ``pegs``: one row a peg: a counter in a trick (``label`` ``counter``, with its ``card`` and ``trick``),
  an end-of-deal award (``muck``, ``game``, ``high``, ``low``, ``jack``; ``side`` None when nobody
  scored it) or a ruling (``revoke``, ``adjustment``, ``claim``).
- ``diagnostics``: one row a diagnostic: code, severity, message, JSON pointer, line.

A record the C kernel's whole-record check accepts (clean, every deal played out) takes a fast path
(:mod:`phatlog.archive.export_columns`): the kernel tells what the engine decided of each deal and trick,
and its tricks, plays and pegs are made as columns; the rows are the same as the listener's, in the same
order (``tests/test_export_paths.py``).

Rows are gathered a batch at a time and written every ``BATCH_ROWS`` rows, so memory stays flat however
large the archive. The output is written whole or not at all: a temporary file (Parquet: a temporary
directory) beside the target, renamed into place when every table is written.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from array import array
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol, cast

from phatlog.archive import export_columns
from phatlog.archive.check import batches
from phatlog.archive.export_columns import Columns, Told, bitmap, bool_array, int_array, text_array
from phatlog.archive.records import entries
from phatlog.diagnostics import Diagnostic, Severity
from phatlog.engine.state import (
    BidMade,
    DealBegins,
    DealScored,
    Event,
    Pegged,
    Ruled,
    TrickShown,
    TrickWon,
)
from phatlog.record.canonical import record_digest
from phatlog.record.read_limits import DEFAULT_READ_LIMITS, ReadLimits
from phatlog.record.view import game_of
from phatlog.referee.games import referee
from phatlog.rules.cards import CARD_TEXT, Card
from phatlog.rules.table import SEATS, in_turn, pitcher, side_of, trump_of_pitch

#: The formats ``export`` writes.
FORMATS: Final = ("sqlite", "parquet", "duckdb")
#: Rows gathered before they are written.
BATCH_ROWS: Final = 100_000

INT, TEXT, BOOL = "int", "text", "bool"

#: Each table's columns and their types, in order.
TABLES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "records": (
        ("record", INT),
        ("fingerprint", TEXT),
        ("source", TEXT),
        ("line", INT),
        ("game", TEXT),
        ("version", TEXT),
        ("event_name", TEXT),
        ("event_site", TEXT),
        ("event_date", TEXT),
        ("event_round", TEXT),
        ("event_table", TEXT),
        ("event_board", TEXT),
        ("players", INT),
        ("deals", INT),
        ("status", TEXT),
        ("errors", INT),
        ("warnings", INT),
        ("winner", TEXT),
    ),
    "players": (
        ("record", INT),
        ("seat", INT),
        ("name", TEXT),
        ("id", TEXT),
        ("side", INT),
        ("total", INT),
        ("won", BOOL),
    ),
    "deals": (
        ("record", INT),
        ("deal", INT),
        ("dealer", INT),
        ("pitcher", INT),
        ("size", INT),
        ("trump", TEXT),
        ("turnup", TEXT),
        ("passed_over", BOOL),
        ("given_up", BOOL),
    ),
    "scores": (
        ("record", INT),
        ("deal", INT),
        ("side", INT),
        ("points", INT),
        ("total", INT),
        ("bid", INT),
        ("taken", INT),
    ),
    "tricks": (
        ("record", INT),
        ("deal", INT),
        ("trick", INT),
        ("leader", INT),
        ("winner", INT),
        ("winner_side", INT),
        ("position", INT),
        ("why", TEXT),
        ("points", INT),
        ("scored", BOOL),
    ),
    "plays": (
        ("record", INT),
        ("deal", INT),
        ("trick", INT),
        ("position", INT),
        ("seat", INT),
        ("card", TEXT),
        ("suit", TEXT),
        ("rank", TEXT),
        ("wins", BOOL),
    ),
    "pegs": (
        ("record", INT),
        ("deal", INT),
        ("trick", INT),
        ("side", INT),
        ("points", INT),
        ("label", TEXT),
        ("card", TEXT),
        ("reason", TEXT),
    ),
    "diagnostics": (
        ("record", INT),
        ("code", TEXT),
        ("severity", TEXT),
        ("message", TEXT),
        ("pointer", TEXT),
        ("line", INT),
    ),
}

Row = tuple[object, ...]
_SUIT_TEXT: Final = tuple("CDHS")


class ExportError(Exception):
    """The export cannot be written (an unknown format, a missing optional package, a target in the way)."""


@dataclass(slots=True)
class Exported:
    """What an export wrote: the records read, those clean, and the rows of each table."""

    records: int = 0
    clean: int = 0
    problems: int = 0
    unreadable: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))


# ---------------------------------------------------------------------------- listening to the referee


class Tables:
    """The rows of the tables, gathered by listening to the referee's events (a :class:`Visitor`)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[Row]] = {name: [] for name in TABLES}
        self.pending = 0
        self.record = 0
        self.seats = 4
        self.all_fours = True
        self._bids: dict[int, int] = {}
        self._dealt: dict[int, DealBegins] = {}
        self._dealers: list[int | None] = []
        self.told = Told()

    def begin(self, record: int, seats: int, all_fours: bool, dealers: list[int | None]) -> None:
        """A new record is refereed next: its number, its seats, its family, each deal's recorded dealer."""
        self.record, self.seats, self.all_fours = record, seats, all_fours
        self._bids.clear()
        self._dealt.clear()
        self._dealers = dealers

    def add(self, table: str, row: Row) -> None:
        self.rows[table].append(row)
        self.pending += 1

    def __call__(self, event: Event) -> None:
        kind = type(event)
        if kind is TrickWon:
            assert isinstance(event, TrickWon)
            self._trick(event.deal, event.trick, event.leader, event.cards, event.seat, event.position, event.why)
            self.add("tricks", self._trick_row(event, event.points, True))
            for card, points in event.counters:
                self.add(
                    "pegs",
                    (
                        self.record,
                        event.deal,
                        event.trick,
                        self._side(event.seat),
                        points,
                        "counter",
                        CARD_TEXT[card],
                        None,
                    ),
                )
        elif kind is TrickShown:
            assert isinstance(event, TrickShown)
            self._trick(event.deal, event.trick, event.leader, event.cards, event.seat, event.position, event.why)
            self.add("tricks", self._trick_row(event, 0, False))
        elif kind is BidMade:
            assert isinstance(event, BidMade)
            self._bids[event.seat] = event.bid
        elif kind is DealBegins:
            assert isinstance(event, DealBegins)
            self._dealt[event.deal] = event
            self._bids.clear()
        elif kind is Pegged:
            assert isinstance(event, Pegged)
            self.add("pegs", (self.record, event.deal, None, event.side, event.points, event.label, None, event.reason))
        elif kind is Ruled:
            assert isinstance(event, Ruled)
            self.add(
                "pegs", (self.record, event.deal, event.trick, event.side, event.points, event.kind, None, event.text)
            )
        elif kind is DealScored:
            assert isinstance(event, DealScored)
            self._scored(event)

    def _side(self, seat: int) -> int:
        return side_of(seat) if self.all_fours else seat

    def _trick_row(self, event: TrickWon | TrickShown, points: int, scored: bool) -> Row:
        return (
            self.record,
            event.deal,
            event.trick,
            event.leader,
            event.seat,
            self._side(event.seat),
            event.position,
            event.why,
            points,
            scored,
        )

    def _trick(
        self, deal: int, trick: int, leader: int, cards: tuple[Card, ...], winner: int, position: int, why: str
    ) -> None:
        """The trick's cards as plays, each seat in turn from the leader (``rules.table.in_turn``)."""
        rows, record, seats = self.rows["plays"], self.record, self.seats
        for i, card in enumerate(cards):
            text = CARD_TEXT[card]
            rows.append((record, deal, trick, i, in_turn(leader, i, seats), text, text[1], text[0], i == position))
        self.pending += len(cards)
        if trick == 0 and self.all_fours and cards and deal in self._dealt:
            begun = self._dealt[deal]
            self._dealt[deal] = DealBegins(deal, begun.dealer, None, begun.size, trump_of_pitch(cards[0]))

    def _scored(self, event: DealScored) -> None:
        begun = self._dealt.pop(event.deal, None)
        if begun is not None:
            dealer: int | None = begun.dealer
        else:
            dealer = self._dealers[event.deal] if event.deal < len(self._dealers) else None
        trump = None if begun is None or begun.trump is None else _SUIT_TEXT[begun.trump]
        turnup = None if begun is None or begun.turnup is None else CARD_TEXT[begun.turnup]
        self.add(
            "deals",
            (
                self.record,
                event.deal,
                dealer,
                pitcher(dealer) if self.all_fours and dealer is not None else None,
                None if begun is None else begun.size,
                trump,
                turnup,
                event.passed_over,
                event.given_up,
            ),
        )
        sides = 2 if self.all_fours else self.seats
        taken = event.taken
        for side in range(sides):
            self.add(
                "scores",
                (
                    self.record,
                    event.deal,
                    side,
                    None if event.points is None else event.points[side],
                    None if event.totals is None else event.totals[side],
                    None if self.all_fours else self._bids.get(side),
                    None if taken is None else taken[side],
                ),
            )
        self._bids.clear()

    def take(self) -> dict[str, list[Row]]:
        """The rows gathered so far by listening, handed over to be written (and forgotten here); the
        fast path's columns go with ``take_columns``."""
        rows = self.rows
        self.rows = {name: [] for name in TABLES}
        self.pending = 0
        return rows

    def take_columns(self) -> dict[str, Columns]:
        """The ``deals``, ``scores``, ``tricks``, ``plays`` and ``pegs`` of the records the fast path did since
        the last call, as columns (a table's rows and columns are of different records: ``merged`` puts them
        in order)."""
        told, self.told = self.told, Told(memo=self.told.memo.renewed())
        return export_columns.columns(told)


# ---------------------------------------------------------------------------- reading and refereeing


def _diagnostic_rows(record: int, found: Iterable[Diagnostic], line: int | None) -> Iterator[Row]:
    for d in found:
        at = d.line if d.line is not None else line
        yield (record, d.code, d.severity.value, d.message, d.pointer or "", at)


def gather(paths: Iterable[str], limits: ReadLimits = DEFAULT_READ_LIMITS) -> Iterator[tuple[Tables, Exported]]:
    """Read and referee every record of ``paths`` (as ``verify`` reads them), listening to the events;
    the tables' rows are given every ``BATCH_ROWS`` rows, and once more at the end."""
    tables = Tables()
    done = Exported()
    number = 0
    for batch in batches(paths, limits):
        for entry in entries(batch):
            _one(tables, done, number, entry.source, entry.line, entry.loaded)
            number += 1
            if tables.pending >= BATCH_ROWS:
                yield tables, done
    yield tables, done


_EVENT_FIELDS: Final = ("name", "site", "date", "round", "table", "board")
_NO_EVENT: Final = (None,) * len(_EVENT_FIELDS)


def _one(tables: Tables, done: Exported, number: int, source: str, line: int | None, loaded: Any) -> None:
    """One record read: refereed with the tables listening, its rows gathered."""
    record = loaded.record
    found: list[Diagnostic] = list(loaded.diagnostics)
    done.records += 1
    if record is None:
        found = [d.located(()) for d in found]
        status = "unreadable"
        tables.add("records", (number, None, source, line, None, None, *([None] * 6), 0, 0, status, 1, 0, None))
        tables.rows["diagnostics"].extend(_diagnostic_rows(number, found, line))
        done.unreadable += 1
        return
    game = game_of(record)
    players = record.players
    all_fours = game != "oh_hell"
    verdict = None
    if all_fours and len(players) == SEATS:  # (the words told are of four seats)
        before = len(tables.told.tricks)
        verdict = export_columns.told_record(tables.told, record, number)
        tables.pending += (len(tables.told.tricks) - before) // (4 * export_columns.TRICK_WORDS)  # (compact)
    if verdict is None:
        tables.begin(number, len(players), all_fours, [getattr(d, "dealer", None) for d in record.deals])
        verdict = referee(record, tables)
    if verdict.diagnostics:
        found.extend(verdict.diagnostics)
    errors = sum(1 for d in found if d.severity is Severity.ERROR) if found else 0
    status = "unreadable" if loaded.unreadable else "problems" if errors else "clean"
    if status == "clean":
        done.clean += 1
    elif status == "problems":
        done.problems += 1
    else:
        done.unreadable += 1
    event = record.event
    shown = _NO_EVENT if event is None else [getattr(event, k, None) for k in _EVENT_FIELDS]
    winner = None if verdict.winner is None else ",".join(map(str, verdict.winner))
    tables.add(
        "records",
        (
            number,
            record_digest(record).hex(),
            source,
            line,
            game,
            str(record.phatlog),
            *shown,
            len(players),
            len(record.deals),
            status,
            errors,
            len(found) - errors,
            winner,
        ),
    )
    totals, won = verdict.totals, set(verdict.winner or ())
    rows = tables.rows["players"]
    tables.pending += len(players)
    for seat, player in enumerate(players):
        side = side_of(seat) if all_fours else seat
        total = None if totals is None else totals[side]
        rows.append(
            (
                number,
                seat,
                player.name,
                getattr(player, "id", None),
                side,
                total,
                None if verdict.winner is None else side in won,
            )
        )
    if found:
        tables.rows["diagnostics"].extend(_diagnostic_rows(number, found, line))


# ---------------------------------------------------------------------------- writing


class Sink(Protocol):
    """Where the tables go: rows (and the fast path's columns) written table by table, then ``close``."""

    def write(self, table: str, rows: list[Row], columns: Columns | None) -> None: ...
    def close(self) -> None: ...


def merged(rows: list[Row], others: list[Row]) -> list[Row]:
    """Two lists of a table's rows, each in record order and of different records, in record order."""
    if not rows:
        return others
    if not others:
        return rows
    return sorted([*rows, *others], key=_record_of)  # (stable: a record's rows keep their order)


def _record_of(row: Row) -> int:
    number = row[0]
    assert isinstance(number, int)
    return number


_SQL_TYPES: Final = {INT: "INTEGER", TEXT: "TEXT", BOOL: "INTEGER"}
_DUCK_TYPES: Final = {INT: "BIGINT", TEXT: "VARCHAR", BOOL: "BOOLEAN"}


class SqliteSink:
    """An SQLite database (the standard library's ``sqlite3``)."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode=OFF")
        self.db.execute("PRAGMA synchronous=OFF")
        for name, columns in TABLES.items():
            self.db.execute(f"CREATE TABLE {name} ({', '.join(f'{c} {_SQL_TYPES[t]}' for c, t in columns)})")
        self._insert = {
            name: f"INSERT INTO {name} VALUES ({', '.join('?' * len(cols))})" for name, cols in TABLES.items()
        }

    def write(self, table: str, rows: list[Row], columns: Columns | None) -> None:
        if columns is not None:
            rows = merged(rows, export_columns.rows_of(columns))
        self.db.executemany(self._insert[table], rows)

    def close(self) -> None:
        self.db.execute("CREATE INDEX deals_key ON deals (record, deal)")
        self.db.execute("CREATE INDEX tricks_key ON tricks (record, deal, trick)")
        self.db.execute("CREATE INDEX players_key ON players (record)")
        self.db.commit()
        self.db.close()


def _arrow_schema(table: str) -> Any:
    import pyarrow as pa

    types = {INT: pa.int64(), TEXT: pa.string(), BOOL: pa.bool_()}
    return pa.schema([(c, types[t]) for c, t in TABLES[table]])


def _arrow_table(table: str, rows: list[Row], told: Columns | None = None) -> Any:
    """The rows (and the fast path's columns, merged in record order) as one Arrow table."""
    import pyarrow as pa

    schema = _arrow_schema(table)
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in schema]
    listened = pa.Table.from_arrays(
        [python_array(col, f.type) for col, f in zip(columns, schema, strict=True)], schema=schema
    )
    if told is None:
        return listened
    fast = pa.Table.from_arrays([told[f.name].to_arrow(f.type) for f in schema], schema=schema)
    if not rows:
        return fast
    import pyarrow.compute as pc  # (a tenth of a second to import: only where the two paths' rows mix)

    both = pa.concat_tables([listened, fast])
    return both.take(pc.sort_indices(both, sort_keys=[("record", "ascending")]))  # (a stable sort)


def python_array(values: Sequence[object], type_: Any) -> Any:
    """Python values (None a null; for a string, anything else as ``str`` spells it) as an Arrow array of
    ``type_`` (int64, string or boolean), made from its buffers (see ``export_columns.int_array``)."""
    import pyarrow as pa

    if pa.types.is_string(type_):
        return text_array(values)
    nulls = values.count(None)
    valid = bitmap([v is not None for v in values]) if nulls else None
    if pa.types.is_boolean(type_):
        return bool_array(bitmap([bool(v) for v in values]), len(values), valid, nulls)
    given = cast("Sequence[int | None]", values)  # (an int column: ints and None)
    ints = array("q", [0 if v is None else v for v in given]) if nulls else array("q", cast("Sequence[int]", given))
    return int_array(ints, valid, nulls)


#: The columns a Parquet file keeps statistics of (each row group's least and greatest value, which a reader
#: uses to skip row groups when it filters or joins on them): the keys. Statistics of every column would
#: cost a fifth of the writing and say little of a column that holds the same few values in every group.
#: The integers are written delta-encoded (``DELTA_BINARY_PACKED``, small and sorted or nearly: a tenth
#: faster to write than a dictionary, the file a twentieth larger), the texts and booleans by dictionary.
_KEYS: Final = frozenset({"record", "deal", "trick"})


#: The tables the fast path fills: in Parquet, their texts are handed to the writer as dictionary arrays
#: (``export_columns.dictionary_of``), which it writes with no text to hash, and read back as texts.
_TOLD_TABLES: Final = frozenset({"deals", "scores", "tricks", "plays", "pegs"})


def _parquet_schema(table: str) -> Any:
    """The schema a table's batches are handed to the Parquet writer in (``_TOLD_TABLES``)."""
    import pyarrow as pa

    schema = _arrow_schema(table)
    if table not in _TOLD_TABLES:
        return schema
    text = pa.dictionary(pa.int32(), pa.string())
    return pa.schema([pa.field(f.name, text) if pa.types.is_string(f.type) else f for f in schema])


def _parquet_table(table: str, rows: list[Row], told: Columns | None) -> Any:
    """A batch of a table as the Parquet writer is handed it (``_parquet_schema``)."""
    import pyarrow as pa

    schema = _parquet_schema(table)
    if table not in _TOLD_TABLES:
        return _arrow_table(table, rows, told)
    if told is not None and not rows:
        arrays = [
            export_columns.dictionary_of(told[f.name])
            if pa.types.is_dictionary(f.type)
            else told[f.name].to_arrow(f.type)
            for f in schema
        ]
        return pa.Table.from_arrays(arrays, schema=schema)
    both = _arrow_table(table, rows, told)
    arrays = [
        c.combine_chunks().dictionary_encode() if pa.types.is_dictionary(f.type) else c
        for c, f in zip(both.columns, schema, strict=True)
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


class ParquetSink:
    """A directory of Parquet files, one a table (``records.parquet``, ...), through ``pyarrow``; statistics
    of the keys only, the integers delta-encoded (``_KEYS``)."""

    def __init__(self, directory: str) -> None:
        import pyarrow.parquet as pq

        self.writers = {
            name: pq.ParquetWriter(
                os.path.join(directory, f"{name}.parquet"),
                _parquet_schema(name),
                store_schema=False,  # (read back, a dictionary array is text, as the table's schema says)
                write_statistics=[c for c, _ in TABLES[name] if c in _KEYS],
                use_dictionary=[c for c, t in TABLES[name] if t != INT],
                column_encoding={c: "DELTA_BINARY_PACKED" for c, t in TABLES[name] if t == INT},
            )
            for name in TABLES
        }

    def write(self, table: str, rows: list[Row], columns: Columns | None) -> None:
        self.writers[table].write_table(_parquet_table(table, rows, columns))

    def close(self) -> None:
        for writer in self.writers.values():
            writer.close()


class DuckdbSink:
    """A DuckDB database, through ``duckdb`` (the rows go in as Arrow tables)."""

    def __init__(self, path: str) -> None:
        import duckdb

        self.db = duckdb.connect(path)
        for name, columns in TABLES.items():
            self.db.execute(f"CREATE TABLE {name} ({', '.join(f'{c} {_DUCK_TYPES[t]}' for c, t in columns)})")

    def write(self, table: str, rows: list[Row], columns: Columns | None) -> None:
        self.db.register("batch", _arrow_table(table, rows, columns))
        self.db.execute(f"INSERT INTO {table} SELECT * FROM batch")
        self.db.unregister("batch")

    def close(self) -> None:
        self.db.close()


def _needs(module: str, fmt: str) -> None:
    try:
        __import__(module)
    except ImportError:
        raise ExportError(f"--to {fmt} needs the {module} package: pip install 'phatlog[export]'") from None


@contextmanager
def _whole(target: str, fmt: str) -> Iterator[str]:
    """A temporary file (Parquet: directory) beside ``target``, renamed over it once the export is written;
    removed if the export fails. A target that is something else than what the format writes is refused."""
    if fmt == "parquet":
        if os.path.exists(target) and not os.path.isdir(target):
            raise ExportError(f"{target} exists and is not a directory (Parquet is written as a directory of files)")
    elif os.path.isdir(target):
        raise ExportError(f"{target} is a directory: give a file name for the {fmt} database")
    parent = os.path.dirname(os.path.abspath(target))
    name = Path(target).name
    if fmt == "parquet":
        tmp = tempfile.mkdtemp(dir=parent, prefix=f".{name}.", suffix=".tmp")
    else:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{name}.", suffix=".tmp")
        os.close(fd)
        os.unlink(tmp)  # the database makes its own file
    try:
        yield tmp
    except BaseException:
        _remove(tmp)
        raise
    if fmt == "parquet" and os.path.isdir(target):
        old = tempfile.mkdtemp(dir=parent, prefix=f".{name}.", suffix=".old")
        os.rename(target, os.path.join(old, "x"))
        os.rename(tmp, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, target)


def _remove(path: str) -> None:
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with suppress(FileNotFoundError):
            os.unlink(path)


def export(
    paths: Iterable[str] | str, output: str, to: str | None = None, limits: ReadLimits = DEFAULT_READ_LIMITS
) -> Exported:
    """Export every record of ``paths`` (files, archives, directories) to ``output`` as tables (see the
    module): ``to`` ``sqlite``, ``parquet`` or ``duckdb`` (None: from the name: ``.parquet`` or a
    directory is Parquet, ``.duckdb`` DuckDB, anything else SQLite). Written whole or not at all."""
    fmt = to or format_for(output)
    if fmt not in FORMATS:
        raise ExportError(f"export writes {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "parquet":
        _needs("pyarrow", fmt)
    elif fmt == "duckdb":
        _needs("duckdb", fmt)
        _needs("pyarrow", fmt)
    inputs = [paths] if isinstance(paths, str) else list(paths)
    done = Exported()
    with _whole(output, fmt) as tmp:
        if fmt == "parquet":
            os.makedirs(tmp, exist_ok=True)
        sink: Sink = SqliteSink(tmp) if fmt == "sqlite" else ParquetSink(tmp) if fmt == "parquet" else DuckdbSink(tmp)
        try:
            for tables, done in gather(inputs, limits):
                told = tables.take_columns()
                for name, rows in tables.take().items():
                    columns = told.get(name)
                    if rows or columns is not None:
                        sink.write(name, rows, columns)
                        done.rows[name] += len(rows) + export_columns.length(columns)
        finally:
            sink.close()
    return done


def format_for(output: str) -> str:
    """The format an output's name asks for: ``.parquet`` (or a directory) Parquet, ``.duckdb`` DuckDB, else SQLite."""
    lower = output.lower()
    if lower.endswith((".duckdb", ".ddb")):
        return "duckdb"
    if lower.endswith(".parquet") or os.path.isdir(output):
        return "parquet"
    return "sqlite"
