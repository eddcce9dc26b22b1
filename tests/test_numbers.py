"""Every number a format reader accepts is bounded (``phatlog.formats.base.parse_int``): a number too long
for Python's ``int`` (4300 digits), too large for a float, or out of range is a PL701 diagnostic with its
place (line and column, or cell), never a traceback and never another number."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phatlog.formats import base, csv_sheet, openspiel, text
from phatlog.play.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
HUGE = "9" * 4301  # beyond Python's int-string limit
OVERFLOW = "9" * 400 + ".0"  # beyond a float's range
DRIFT = "9" * 30 + ".0"  # a float would read it as another number


def _only(parsed: Any) -> tuple[Any, list[Any]]:
    (one,) = list(parsed)
    return one.record, one.diagnostics


def _refused(found: list[Any], line: int | None = None) -> str:
    """The one PL701 diagnostic, its line checked, the message returned (it never echoes a long number)."""
    (d,) = found
    assert d.code == "PL701"
    if line is not None:
        assert d.line == line
    assert len(d.message) < 300
    return str(d.message)


def test_parse_int_bounds() -> None:
    assert base.parse_int(" 007 ") == 7
    assert base.parse_int("-3") == -3
    assert base.parse_int("3.00", fraction=True) == 3
    assert base.parse_int(str(base.INT_MAX)) == base.INT_MAX
    assert base.parse_int("0" * 5000 + "12") == 12  # leading zeros are not digits of magnitude
    assert base.parse_int("9" * 19 + ".0", fraction=True) == int("9" * 19)  # exact, not through a float
    for bad in (HUGE, OVERFLOW, DRIFT, str(base.INT_MAX + 1), "-" + str(base.INT_MAX + 1)):
        with pytest.raises(base.NumberError, match="out of range"):
            base.parse_int(bad, fraction=True)
    for bad in ("", "x", "1.5", "1e3", "٣", "3.0"):
        with pytest.raises(base.NumberError, match="expected a whole number"):
            base.parse_int(bad)
    with pytest.raises(base.NumberError):
        base.parse_int("+3", signed=False)


@given(st.integers(-base.INT_MAX, base.INT_MAX))
def test_parse_int_reads_every_number_in_range_exactly(n: int) -> None:
    assert base.parse_int(str(n)) == n
    assert base.parse_int(f"{n}.0", fraction=True) == n


def test_embedded_json_numbers_are_bounded() -> None:
    with pytest.raises(base.NumberError):
        base.json_loads('{"x": ' + HUGE + "}")
    with pytest.raises(base.NumberError):
        base.json_loads("[1e400]")
    with pytest.raises(base.NumberError):
        base.json_loads("NaN")
    assert base.json_loads('{"x": 18446744073709551615, "y": 1.5e300}') == {"x": 2**64 - 1, "y": 1.5e300}


# --------------------------------------------------------------------------- the text notation


def _oh_hell_text() -> str:
    rec = next(iter(simulate("oh_hell", 3, 1, players=3, rules={"schedule": [2]})))
    return text.dumps(rec)


@pytest.mark.parametrize("number", [HUGE, str(base.INT_MAX + 1)])
def test_text_notation_numbers(number: str) -> None:
    written = _oh_hell_text()
    lines = written.splitlines()
    bids = next(i for i, ln in enumerate(lines) if ln.strip().startswith("bids"))
    lines[bids] = "  bids " + number + " 0 0"
    record, found = _only(text.loads("\n".join(lines)))
    assert record is None
    assert "out of range" in _refused(found, bids + 1)
    assert found[0].column == 8


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("deal 1", "deal " + HUGE),
        ("  1. ", f"  {HUGE}. "),
        ("  dealer Ann", "  dealer " + HUGE),
        ('[Phatlog "1.0"]', '[Phatlog "1.0"]\n[Total "' + HUGE + ' 1 2"]'),
        ('[Phatlog "1.0"]', '[Phatlog "1.0"]\n[Ext {"x": ' + HUGE + "}]"),
        ('[Phatlog "1.0"]', '[Phatlog "1.0"]\n[Ext {"x": 1e400}]'),
        ('[Phatlog "1.0"]', '[Phatlog "1.0"]\n[Rules "max_cards=' + HUGE + '"]'),
    ],
)
def test_text_notation_numbers_anywhere(old: str, new: str) -> None:
    written = _oh_hell_text()
    assert old in written
    record, found = _only(text.loads(written.replace(old, new, 1)))
    assert record is None
    assert "out of range" in _refused(found)
    assert found[0].line is not None


# --------------------------------------------------------------------------- score sheets


def _sheet() -> str:
    return (
        "# game: oh_hell\n# rules: schedule=up\n# player: Ann\n# player: Ben\n# player: Cal\n"
        "deal,dealer,Ann bid,Ben bid,Cal bid\n1,Ann,1,0,0\n"
    )


@pytest.mark.parametrize("cell", [HUGE, OVERFLOW, DRIFT, str(base.INT_MAX + 1)])
def test_csv_cells(cell: str) -> None:
    record, found = _only(csv_sheet.loads(_sheet().replace("1,Ann,1,0,0", f"1,Ann,{cell},0,0")))
    assert record is None
    message = _refused(found, 7)
    assert "out of range" in message and "'Ann bid'" in message
    assert found[0].column == 3


def test_csv_whole_numbers_with_a_zero_fraction_are_read_exactly() -> None:
    record, found = _only(csv_sheet.loads(_sheet().replace("1,Ann,1,0,0", "1.0,Ann,1.0,0.00,0")))
    assert record is not None, found
    assert record["deals"][0]["bids"] == [1, 0, 0]


@pytest.mark.parametrize(
    "line",
    [
        f"# total: {HUGE} 1 2",
        '# ext: {"x": ' + HUGE + "}",
        f"# rules: max_cards={HUGE}",
        f"# total: [{HUGE}, 1, 2]",
    ],
)
def test_csv_metadata(line: str) -> None:
    record, found = _only(csv_sheet.loads(_sheet().replace("# player: Cal\n", f"# player: Cal\n{line}\n")))
    assert record is None
    assert "out of range" in _refused(found, 6)


def test_csv_dealer_and_ext_cells() -> None:
    sheet = _sheet().replace("Cal bid\n", "Cal bid,ext\n")
    for row, column in ((f"1,{HUGE},1,0,0", 2), ('1,Ann,1,0,0,"{""x"": ' + HUGE + '}"', 6)):
        record, found = _only(csv_sheet.loads(sheet.replace("1,Ann,1,0,0", row)))
        assert record is None
        _refused(found, 7)
        assert found[0].column == column


# --------------------------------------------------------------------------- OpenSpiel


def _openspiel() -> str:
    rules = {"schedule": [2], "hook": True, "no_trump": "never", "miss": "minus_diff"}
    rec = next(iter(simulate("oh_hell", 1, 1, players=3, rules=rules)))
    return openspiel.dumps(rec)


@pytest.mark.parametrize("action", [HUGE, str(base.INT_MAX + 1)])
def test_openspiel_actions(action: str) -> None:
    lines = _openspiel().splitlines()
    state = lines.index("[State]")
    lines[state + 2] = action
    record, found = _only(openspiel.loads("\n".join(lines) + "\n"))
    assert record is None
    assert "out of range" in _refused(found, state + 3)


def test_openspiel_parameters_and_extras() -> None:
    written = _openspiel()
    record, found = _only(openspiel.loads(written.replace("players=3", "players=" + HUGE)))
    assert record is None and "out of range" in _refused(found)
    extras = next(ln for ln in written.splitlines() if ln.startswith("# phatlog:"))
    data = json.loads(extras.removeprefix("# phatlog:"))
    huge_key = {"record": data["record"], "tricks": {"9" * 5000: {"comment": "x"}}}
    for line in ("# phatlog: " + json.dumps(huge_key), extras.replace('"total":[-', '"total":[' + HUGE + ",-", 1)):
        (parsed,) = openspiel.loads(written.replace(extras, line))
        assert all(d.code != "PL000" for d in parsed.diagnostics)  # read, or refused with a diagnostic


def test_cli_never_shows_a_traceback_for_a_long_number(tmp_path: Path) -> None:
    sheet = tmp_path / "huge.csv"
    sheet.write_text(_sheet().replace("1,Ann,1,0,0", f"1,Ann,{HUGE},0,0"), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "phatlog", "convert", str(sheet), "--to", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "out of range" in run.stderr + run.stdout
