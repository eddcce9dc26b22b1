"""A CSV score sheet loads in pandas with ``comment="#"``: the metadata lines are skipped whole, and the
table pandas sees is cell for cell the one phatlog reads, whatever the names and comments hold (commas,
quotes, ``#``, line breaks). The sheet still reads back as the same record, and the old form (metadata
lines quoted as cells) still reads."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phatlog.formats import base, csv_sheet

pd = pytest.importorskip("pandas", reason="pandas is a dev extra: pip install -e '.[dev]'")

TRICKY = st.text(alphabet=st.sampled_from(list("Ab #,;\"'é♥\n\t ")), max_size=12)


@st.composite
def sheets(draw: Any) -> dict[str, Any]:
    players = draw(st.integers(3, 5))
    names = [draw(TRICKY.filter(lambda s: s.strip())) for _ in range(players)]
    record: dict[str, Any] = {
        "phatlog": "1.0",
        "game": "oh_hell",
        "players": [{"name": n} for n in names],
        "event": {"site": draw(TRICKY), "name": draw(TRICKY)},
        "comment": draw(TRICKY),
        "deals": [],
    }
    for d in range(draw(st.integers(1, 4))):
        deal: dict[str, Any] = {
            "dealer": d % players,
            "bids": draw(st.lists(st.integers(0, 3), min_size=players, max_size=players)),
        }
        if draw(st.booleans()):
            deal["comment"] = draw(TRICKY)
        record["deals"].append(deal)
    return record


def _table(written: str) -> list[list[str]]:
    """The table part of a sheet as the csv module reads it: the rows after the metadata lines."""
    lines = written.split("\r\n")
    start = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    return list(csv.reader(io.StringIO("\r\n".join(lines[start:]), newline="")))


@settings(max_examples=60, deadline=None)
@given(sheets())
def test_a_sheet_loads_in_pandas_with_comment(record: dict[str, Any]) -> None:
    written = csv_sheet.dumps(record)
    frame = pd.read_csv(io.StringIO(written), comment="#", dtype=str, keep_default_na=False)
    header, *rows = _table(written)
    assert list(frame.columns) == header
    assert frame.values.tolist() == rows
    (back,) = csv_sheet.loads(written)
    assert back.record is not None, back.diagnostics
    assert back.record == base.canonical(record)


def test_every_line_before_the_table_is_a_comment_line() -> None:
    record = {
        "phatlog": "1.0",
        "game": "oh_hell",
        "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cal"}],
        "event": {"site": "Wherry Inn, Geldeston", "name": 'The "Club", #3'},
        "comment": "ends with a comma,",
        "deals": [{"dealer": 0, "bids": [1, 0, 0], "comment": "table #2, first hand"}],
    }
    written = csv_sheet.dumps(record)
    lines = written.split("\r\n")
    table = next(i for i, line in enumerate(lines) if line.startswith("deal,"))
    assert all(line.startswith("# ") for line in lines[:table])
    assert '"table #2, first hand"' in lines[table + 1]
    frame = pd.read_csv(io.StringIO(written), comment="#")
    assert frame["comment"].tolist() == ["table #2, first hand"]
    assert frame["Ann bid"].tolist() == [1]


def test_the_old_quoted_metadata_lines_and_spreadsheet_rows_still_read() -> None:
    old = (
        '# game: oh_hell\r\n"# site: Wherry Inn, Geldeston"\r\n# event: Club night,,,,\r\n'
        "# player: Ann\r\n# player: Ben\r\n# player: Cal\r\n"
        "deal,dealer,Ann bid,Ben bid,Cal bid\r\n1,Ann,1,0,0\r\n"
    )
    (parsed,) = csv_sheet.loads(old)
    assert parsed.record is not None, parsed.diagnostics
    assert parsed.record["event"] == {"name": "Club night", "site": "Wherry Inn, Geldeston"}
    raw = old.replace('"# site: Wherry Inn, Geldeston"', '# site: a "quoted", value')
    (parsed,) = csv_sheet.loads(raw)
    assert parsed.record is not None, parsed.diagnostics
    assert parsed.record["event"]["site"] == 'a "quoted", value'
