"""A record with a repeated key is refused (PL109), on every read path, with both places named.

JSON parsers (msgspec and ``json`` both) keep the last of a repeated key without a word, so
``"dealer": 3, "dealer": 0`` would be read as dealer 0 by phatlog and as dealer 3 by a reader that keeps
the first. The reader reports every repeated key, with the JSON Pointer of the member and the line and
column of each occurrence: through the fast path (the record is otherwise valid), the slow path (it is
not), the C scan and the pure-Python check, and line by line in an archive.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from phatlog.archive.check import check_all
from phatlog.cli.app import app
from phatlog.record import decoder as wire
from phatlog.record.reader import read_bytes

SAMPLE: Final = Path(__file__).resolve().parent.parent / "samples" / "games" / "phat-worked-6-2.json"
TEXT: Final = SAMPLE.read_text(encoding="utf-8")


@pytest.fixture(params=["c", "python"])
def scan(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Both ways of finding repeated keys: the C scan and the standard parser's check."""
    if request.param == "c":
        if wire._C_SCAN is None:
            pytest.skip("the C extension is not built")
    else:
        monkeypatch.setattr(wire, "_C_SCAN", None)
    yield request.param


def found(data: bytes) -> list[tuple[str, str]]:
    loaded = read_bytes(data)
    return [(d.code, d.pointer) for d in loaded.diagnostics]


def test_the_sample_reads_clean(scan: str) -> None:
    loaded = read_bytes(TEXT.encode())
    assert loaded.diagnostics == [] and loaded.record is not None


def test_a_repeated_dealer_is_an_error_with_both_places(scan: str) -> None:
    text = TEXT.replace('"dealer": 3,', '"dealer": 3, "dealer": 0,', 1)
    assert text != TEXT
    data = text.encode()
    assert wire.decode(data).deals[0].dealer == 0  # the fast path alone keeps the last, silently
    loaded = read_bytes(data)
    assert loaded.record is None
    assert [(d.code, d.pointer, d.severity.value) for d in loaded.diagnostics] == [
        ("PL109", "/deals/0/dealer", "error")
    ]
    d = loaded.diagnostics[0]
    line = text.splitlines().index('      "dealer": 3, "dealer": 0,') + 1
    assert (d.line, d.column) == (line, 20)
    assert f"line {line} column 7 and line {line} column 20" in d.message
    assert '"dealer"' in d.message and "twice" in d.message
    assert d.place == "deal 1, dealer"


def test_a_repeated_game_and_every_other_repeat_are_all_reported(scan: str) -> None:
    text = TEXT.replace('"game": "phat",', '"game": "phat", "game": "oh_hell",', 1)
    text = text.replace('"dealer": 3,', '"dealer": 3, "dealer": 3, "dealer": 0,', 1)
    loaded = read_bytes(text.encode())
    assert loaded.record is None
    assert [(d.code, d.pointer) for d in loaded.diagnostics] == [("PL109", "/game"), ("PL109", "/deals/0/dealer")]
    assert "3 times" in loaded.diagnostics[1].message
    # Nothing is judged on one reading of an ambiguous record (oh_hell would want other keys).
    assert all(d.code == "PL109" for d in loaded.diagnostics)


def test_repeated_keys_in_an_invalid_record_slow_path(scan: str) -> None:
    """A record the fast path refuses anyway (an unknown key) still gets the repeated key reported."""
    text = TEXT.replace('"dealer": 3,', '"dealer": 3, "dealer": 0, "delaer": 1,', 1)
    assert found(text.encode()) == [("PL109", "/deals/0/dealer")]


def test_keys_are_compared_as_decoded(scan: str) -> None:
    text = TEXT.replace('"dealer": 3,', '"dealer": 3, "de\\u0061ler": 0,', 1)
    assert found(text.encode()) == [("PL109", "/deals/0/dealer")]


def test_repeats_in_extension_data_and_one_line_records(scan: str) -> None:
    record = json.loads(TEXT)
    record["ext"] = {"x": 1}
    one_line = json.dumps(record, separators=(",", ":")).replace('"ext":{"x":1}', '"ext":{"x":1,"x":2}')
    loaded = read_bytes(one_line.encode())
    assert [(d.code, d.pointer) for d in loaded.diagnostics] == [("PL109", "/ext/x")]
    # A one-line document is placed by column only: in an archive the line is the archive's.
    assert re.search(r"in one object, at column \d+ and column \d+: ", loaded.diagnostics[0].message)
    # The same key in different objects is no repeat.
    fine = json.dumps(record, separators=(",", ":")).replace('"ext":{"x":1}', '"ext":{"x":{"x":1},"y":[{"x":2}]}')
    assert found(fine.encode()) == []


def test_archive_lines_are_checked_one_by_one(tmp_path: Path, scan: str) -> None:
    line = json.dumps(json.loads(TEXT), separators=(",", ":"))
    bad = line.replace('"dealer":3,', '"dealer":3,"dealer":0,', 1)
    assert bad != line
    archive = tmp_path / "games.jsonl"
    archive.write_text("\n".join([line, bad, line]) + "\n", encoding="utf-8")
    results = list(check_all([str(archive)], replay=True))
    reports = [r for result in results for r in result.reports if r.diagnostics]
    bad_reports = [r for r in reports if any(d.code == "PL109" for d in r.diagnostics)]
    assert [(r.line, [(d.code, d.pointer, d.line) for d in r.diagnostics]) for r in bad_reports] == [
        (2, [("PL109", "/deals/0/dealer", 2)])
    ]
    assert sum(result.problems for result in results) == 1


def test_verify_exits_1_and_names_both_places(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(TEXT.replace('"dealer": 3,', '"dealer": 3, "dealer": 0,', 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert "PL109" in result.stdout and "column 7 and line" in result.stdout


# ---------------------------------------------------------------------------- the C scan against Python

_KEYS: Final = st.sampled_from(["a", "b", "c", "ab", "", "a\\u0062", 'q"', "x:y", "[", "{"])
_SCALARS: Final = st.one_of(
    st.integers(-5, 5),
    st.booleans(),
    st.none(),
    st.sampled_from(["QH", "]", "[{", "\\", '"', "a,b", "{:}", ' "a": ', "x" * 70]),
)


def _doc(depth: int = 0) -> st.SearchStrategy[str]:
    """JSON text whose objects may repeat keys (as text, since a dict cannot)."""
    leaf = _SCALARS.map(json.dumps)
    if depth >= 3:
        return leaf
    inner = st.deferred(lambda: _doc(depth + 1))
    obj = st.lists(st.tuples(_KEYS, inner), max_size=5).map(
        lambda pairs: "{" + ",".join(f'"{k}":{v}' if "\\" in k else f"{json.dumps(k)} : {v}" for k, v in pairs) + "}"
    )
    arr = st.lists(inner, max_size=5).map(lambda items: "[" + ", ".join(items) + "]")
    return st.one_of(leaf, obj, arr)


def _truth(text: str) -> bool:
    repeated = False

    def hook(pairs: list[tuple[str, Any]]) -> None:
        nonlocal repeated
        repeated = repeated or len({k for k, _ in pairs}) != len(pairs)

    json.loads(text, object_pairs_hook=hook)
    return repeated


@settings(max_examples=300, deadline=None)
@given(_doc())
def test_the_checks_agree_with_the_standard_parser(text: str) -> None:
    data = text.encode()
    truth = _truth(text)
    assert bool(wire.duplicate_keys(data)) == truth
    if wire._C_SCAN is not None:
        maybe = wire._C_SCAN(data)
        assert maybe or not truth  # False only when certainly no repeat
        if "\\" not in text:  # without escapes the scan can always tell
            assert maybe == truth


@pytest.mark.parametrize("escaped", [False, True])
def test_a_repeat_anywhere_in_a_long_one_line_record_is_seen(scan: str, escaped: bool) -> None:
    """Every object of a real record, at every offset (the C scan reads 64 bytes at a time when there is
    no backslash, and byte by byte when there is one)."""
    record = json.loads(TEXT)
    record["comment"] = 'a "quoted" {brace}: \\ backslash' if escaped else "a {brace}: [bracket], no escape"
    line = json.dumps(record, separators=(",", ":"))
    assert ("\\" in line) == escaped
    assert not wire.maybe_duplicate_keys(line.encode())
    starts = [m.start() for m in re.finditer(r'[{,]"(\w+)":', line)]
    assert len(starts) > 50
    for at in starts:
        key = re.match(r'[{,]("\w+":)', line[at:])
        assert key is not None
        doubled = line[: at + 1] + key[1] + "0," + line[at + 1 :]
        assert wire.maybe_duplicate_keys(doubled.encode()), doubled[at - 20 : at + 40]
        assert [d.pointer for d in wire.duplicate_keys(doubled.encode())] != []


def test_the_c_scan_is_safe_on_junk() -> None:
    if wire._C_SCAN is None:
        pytest.skip("the C extension is not built")
    for junk in [b"", b",", b"]", b"}", b'{"a', b'"', b"[" * 100, b"{" * 100, b'{"a":1,"a"', b"\\"]:
        wire._C_SCAN(junk)  # no crash; any answer
    many = b"{" + b",".join(b'"k%d":0' % i for i in range(600)) + b"}"
    assert wire._C_SCAN(many)  # more keys than it keeps: it cannot tell, so it says maybe
    assert wire.duplicate_keys(many) == []
