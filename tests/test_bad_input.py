"""Bad input through the command line: never a traceback, the right exit code, code and pointer.

Exit codes: 0 every record clean, 1 a record with problems, 2 unreadable input (not JSON, empty, too
large, too deep, missing, a directory). Every case runs through ``verify`` and ``validate``, with text
and with JSON Lines output, and the input file is left exactly as it was.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from phatlog.cli.app import app

COMMANDS = ["verify", "validate"]
FORMATS = ["text", "json"]
JSON_KEYS = {"kind", "file", "code", "severity", "pointer", "message"}
RECORD_KEYS = {"kind", "file", "line", "status", "game", "event", "players", "deals", "winner", "totals", "errors"}


def run(*args: str) -> Result:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def rows(result: Result) -> list[dict[str, Any]]:
    """The diagnostic lines of the JSON Lines output, each with at least the documented keys (the record
    lines, one a record, are checked for their keys and left out)."""
    out: list[dict[str, Any]] = []
    for line in result.stdout.splitlines():
        row = json.loads(line)
        assert isinstance(row, dict)
        if row.get("kind") == "record":
            assert set(row) >= RECORD_KEYS | {"warnings"}, row
            assert row["status"] in ("clean", "problems", "unreadable")
            continue
        assert set(row) >= JSON_KEYS and row["kind"] == "diagnostic", row
        assert row["severity"] in ("error", "warning", "info")
        assert isinstance(row["message"], str) and row["message"]
        assert row["pointer"] == "" or row["pointer"].startswith("/")
        out.append(row)
    return out


def snapshot(path: Path) -> tuple[bytes, int, int]:
    st = path.stat()
    return path.read_bytes(), st.st_mtime_ns, st.st_mode


# ---------------------------------------------------------------------------------- the cases


def _game(game: dict[str, Any], change: Callable[[dict[str, Any]], object] | None = None) -> bytes:
    """The game as indented JSON, after ``change`` (which may change it: every test gets a fresh copy)."""
    if change is not None:
        change(game)
    return json.dumps(game, indent=1).encode()


def _set(path: tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def change(game: dict[str, Any]) -> None:
        node: Any = game
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return change


def _rename(path: tuple[str | int, ...], old: str, new: str) -> Callable[[dict[str, Any]], None]:
    def change(game: dict[str, Any]) -> None:
        node: Any = game
        for part in path:
            node = node[part]
        node[new] = node.pop(old)

    return change


def _drop_player(game: dict[str, Any]) -> None:
    game["players"].pop()


def _drop_card(game: dict[str, Any]) -> None:
    game["deals"][0]["hands"][0].pop()


def _extra_card(game: dict[str, Any]) -> None:
    game["deals"][0]["tricks"][0]["cards"].append("2C")


def _no_deals(game: dict[str, Any]) -> None:
    game["deals"] = []


def _no_game(game: dict[str, Any]) -> None:
    del game["game"]


@dataclass(frozen=True)
class Case:
    data: Callable[[dict[str, Any]], bytes]  # the input, from a valid game
    exit: int
    code: str | None = None  # the code expected among the diagnostics (None: no diagnostics at all)
    pointer: str | None = None  # the expected pointer of that diagnostic
    words: tuple[str, ...] = ()  # words expected in its message


CASES: dict[str, Case] = {
    "clean": Case(lambda g: _game(g), 0),
    "a byte order mark": Case(lambda g: b"\xef\xbb\xbf" + _game(g), 0),
    "CRLF line ends": Case(lambda g: _game(g).replace(b"\n", b"\r\n"), 0),
    "not JSON": Case(lambda g: b"phat, 4 players, N/S won\n", 2, "PL002", ""),
    "truncated JSON": Case(lambda g: _game(g)[:-200], 2, "PL002", "", ("truncated",)),
    "a trailing comma": Case(lambda g: _game(g).rstrip()[:-1] + b",}", 2, "PL002", ""),
    "empty file": Case(lambda g: b"", 2, "PL006", ""),
    "blank file": Case(lambda g: b"\n  \n", 2, "PL006", ""),
    "invalid UTF-8": Case(lambda g: _game(g).replace(b'"Ann"', b'"\xc1nn"'), 2, "PL002", "", ("UTF-8",)),
    "Latin-1 text": Case(lambda g: _game(g).replace(b'"Ann"', '"Ånn"'.encode("latin-1")), 2, "PL002", ""),
    "NaN": Case(lambda g: _game(g).replace(b'"dealer": 0', b'"dealer": NaN', 1), 2, "PL002", "", ("NaN",)),
    "unpaired surrogate": Case(lambda g: _game(g).replace(b'"Ann"', b'"\\udc41nn"'), 2, "PL002", ""),
    "deeply nested arrays": Case(lambda g: b"[" * 100_000, 2, "PL004", ""),
    "deeply nested extension": Case(
        lambda g: _game(g, _set(("ext",), {"x": 0})).replace(b'"x": 0', b'"x": ' + b"[" * 100_000 + b"]" * 100_000),
        2,
        "PL004",
        "",
    ),
    "an array": Case(lambda g: b"[" + _game(g) + b"]", 1, "PL103", ""),
    "a string": Case(lambda g: b'"phat"', 1, "PL103", ""),
    "a string for an integer": Case(
        lambda g: _game(g, _set(("deals", 0, "dealer"), "0")), 1, "PL103", "/deals/0/dealer"
    ),
    "true for an integer": Case(lambda g: _game(g, _set(("deals", 0, "dealer"), True)), 1, "PL103", "/deals/0/dealer"),
    "an object for a list": Case(lambda g: _game(g, _set(("players",), {"name": "Ann"})), 1, "PL103", "/players"),
    "a number for a name": Case(lambda g: _game(g, _set(("players", 1, "name"), 7)), 1, "PL103", "/players/1/name"),
    "null for a required key": Case(
        lambda g: _game(g, _set(("deals", 0, "dealer"), None)), 1, "PL103", "/deals/0/dealer"
    ),
    "a seat out of range": Case(lambda g: _game(g, _set(("deals", 0, "dealer"), 4)), 1, "PL106", "/deals/0/dealer"),
    "an integral float": Case(lambda g: _game(g).replace(b'"dealer": 0', b'"dealer": 0.0', 1), 0),
    "unknown game": Case(lambda g: _game(g, _set(("game",), "hearts")), 1, "PL107", "/game", ("hearts",)),
    "no game": Case(lambda g: _game(g, _no_game), 1, "PL101", "/game"),
    "major version 2.0": Case(lambda g: _game(g, _set(("phatlog",), "2.0")), 1, "PL005", "/phatlog", ("2.0",)),
    "newer minor version 1.2": Case(
        lambda g: _game(g, _set(("phatlog",), "1.2")), 1, "PL005", "/phatlog", ("upgrade",)
    ),
    "version as a number": Case(lambda g: _game(g, _set(("phatlog",), 1.0)), 1, "PL103", "/phatlog"),
    "typo in a key": Case(
        lambda g: _game(g, _rename(("deals", 0), "score", "scroe")),
        1,
        "PL102",
        "/deals/0/scroe",
        ("did you mean 'score'",),
    ),
    "unknown top-level key": Case(lambda g: _game(g, _set(("venue",), "pub")), 1, "PL102", "/venue", ('"ext"',)),
    "markup in a key": Case(
        lambda g: _game(g, _set(("[bold]x[/bold]",), 1)), 1, "PL102", "/[bold]x[~1bold]", ("[bold]x",)
    ),
    "a key with a slash": Case(lambda g: _game(g, _set(("a/b~c",), 1)), 1, "PL102", "/a~1b~0c"),
    "card 1H": Case(
        lambda g: _game(g, _set(("deals", 0, "hands", 0, 0), "1H")), 1, "PL104", "/deals/0/hands/0/0", ("1H",)
    ),
    "card with a trailing space": Case(
        lambda g: _game(g, _set(("deals", 0, "hands", 0, 0), "AH ")), 1, "PL104", "/deals/0/hands/0/0", ("'AH'",)
    ),
    "ten written 10": Case(
        lambda g: _game(g, _set(("deals", 0, "tricks", 2, "cards", 1), "10H")),
        1,
        "PL104",
        "/deals/0/tricks/2/cards/1",
        ("'TH'",),
    ),
    "lowercase card": Case(
        lambda g: _game(g, _set(("deals", 0, "tricks", 0, "cards", 3), "qs")),
        1,
        "PL104",
        "/deals/0/tricks/0/cards/3",
        ("'QS'",),
    ),
    "a number for a card": Case(
        lambda g: _game(g, _set(("deals", 0, "hands", 1, 0), 10)), 1, "PL104", "/deals/0/hands/1/0"
    ),
    "three players": Case(lambda g: _game(g, _drop_player), 1, "PL105", "/players", ("3",)),
    "twelve cards in a hand": Case(lambda g: _game(g, _drop_card), 1, "PL105", "/deals/0/hands/0", ("12",)),
    "five cards in a trick": Case(lambda g: _game(g, _extra_card), 1, "PL105", "/deals/0/tricks/0/cards", ("5",)),
    "no deals": Case(lambda g: _game(g, _no_deals), 1, "PL105", "/deals"),
}


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / (name.replace(" ", "_").replace("/", "_") + ".json")
    path.write_bytes(data)
    return path


def _expect_text(result: Result, path: Path, case: Case) -> None:
    if case.code is None:
        assert result.stdout == ""
        return
    lines = [line for line in result.stdout.splitlines() if f" {case.code} " in line]
    assert lines, result.stdout
    assert all(line.startswith(str(path)) for line in result.stdout.splitlines())
    if case.pointer is not None:
        assert any(f": {case.pointer or '/'}: error {case.code} " in line for line in lines), result.stdout
    for word in case.words:
        assert any(word in line for line in lines), (word, result.stdout)


def _expect_json(result: Result, path: Path, case: Case) -> None:
    found = rows(result)
    if case.code is None:
        assert found == []
        return
    assert all(row["file"] == str(path) for row in found)
    mine = [row for row in found if row["code"] == case.code]
    assert mine, found
    if case.pointer is not None:
        mine = [row for row in mine if row["pointer"] == case.pointer]
        assert mine, (case.pointer, found)
    for word in case.words:
        assert any(word in row["message"] for row in mine), (word, found)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", list(CASES))
def test_bad_input(tmp_path: Path, phat_record: dict[str, Any], name: str, command: str, fmt: str) -> None:
    case = CASES[name]
    path = _write(tmp_path, name, case.data(phat_record))
    before = snapshot(path)
    result = run(command, "--format", fmt, str(path))
    assert result.exit_code == case.exit, (result.exit_code, result.stdout, result.stderr)
    assert snapshot(path) == before, "the input file was changed"
    if fmt == "json":
        _expect_json(result, path, case)
        assert result.stderr == ""
    else:
        _expect_text(result, path, case)
        assert "1 record" in result.stderr


# ---------------------------------------------------------------------------------- files and sizes


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_file(tmp_path: Path, command: str, fmt: str) -> None:
    missing = tmp_path / "nope.json"
    result = run(command, "--format", fmt, str(missing))
    assert result.exit_code == 2
    assert not missing.exists()
    if fmt == "json":
        (row,) = rows(result)
        assert (row["file"], row["code"]) == (str(missing), "PL001")
    else:
        assert "PL001" in result.stdout


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_directory_without_records(tmp_path: Path, phat_record: dict[str, Any], command: str, fmt: str) -> None:
    (tmp_path / "inside.txt").write_bytes(_game(phat_record))
    result = run(command, "--format", fmt, str(tmp_path))
    assert result.exit_code == 2
    if fmt == "json":
        (row,) = rows(result)
        assert (row["file"], row["code"]) == (str(tmp_path), "PL006")
        assert "directory" in row["message"]
    else:
        assert "PL006" in result.stdout


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_larger_than_max_bytes(tmp_path: Path, phat_record: dict[str, Any], command: str, fmt: str) -> None:
    path = _write(tmp_path, "big", _game(phat_record))
    before = snapshot(path)
    size = len(before[0])
    result = run(command, "--format", fmt, "--max-bytes", str(size - 1), str(path))
    assert result.exit_code == 2
    assert snapshot(path) == before
    if fmt == "json":
        (row,) = rows(result)
        assert row["code"] == "PL003"
        assert "--max-bytes" in row["message"] or "limit" in row["message"]
    else:
        assert "PL003" in result.stdout
    # exactly at the limit is fine
    assert run(command, "--format", fmt, "--max-bytes", str(size), str(path)).exit_code == 0


@pytest.mark.parametrize("command", COMMANDS)
def test_max_bytes_must_be_positive(tmp_path: Path, phat_record: dict[str, Any], command: str) -> None:
    path = _write(tmp_path, "good", _game(phat_record))
    result = run(command, "--max-bytes", "0", str(path))
    assert result.exit_code == 2  # a usage error


@pytest.mark.parametrize("command", COMMANDS)
def test_a_200_megabyte_file_is_refused_without_reading_it(tmp_path: Path, command: str) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(200 * 1024 * 1024)  # sparse: no disk space, no time
    before = path.stat().st_mtime_ns
    result = run(command, "--format", "json", str(path))
    assert result.exit_code == 2
    (row,) = rows(result)
    assert row["code"] == "PL003"
    assert "209,715,200" in row["message"]
    assert path.stat().st_mtime_ns == before and path.stat().st_size == 200 * 1024 * 1024


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission(tmp_path: Path, phat_record: dict[str, Any]) -> None:
    path = _write(tmp_path, "secret", _game(phat_record))
    path.chmod(0)
    try:
        result = run("verify", "--format", "json", str(path))
    finally:
        path.chmod(0o644)
    assert result.exit_code == 2
    (row,) = rows(result)
    assert row["code"] == "PL001"


# ---------------------------------------------------------------------------------- several files


def _empty_directory(path: Path) -> Path:
    path.mkdir()
    return path


def _several(tmp_path: Path, g: dict[str, Any]) -> list[Path]:
    return [
        _write(tmp_path, "a_good", _game(g)),
        _write(tmp_path, "b_not_json", b"{oops"),
        tmp_path / "c_missing.json",
        _write(tmp_path, "d_bad_card", CASES["ten written 10"].data(copy.deepcopy(g))),
        _empty_directory(tmp_path / "d_directory"),
        _write(tmp_path, "e_good", b"\xef\xbb\xbf" + _game(g)),
        _write(tmp_path, "f_empty", b""),
    ]


@pytest.mark.parametrize("command", COMMANDS)
def test_one_bad_file_does_not_stop_the_others_json(tmp_path: Path, phat_record: dict[str, Any], command: str) -> None:
    paths = _several(tmp_path, phat_record)
    snapshots = {p: snapshot(p) for p in paths if p.is_file()}
    result = run(command, "--format", "json", *map(str, paths))
    assert result.exit_code == 2  # some input is unreadable
    found = {(row["file"], row["code"]) for row in rows(result)}
    assert found == {
        (str(paths[1]), "PL002"),
        (str(paths[2]), "PL001"),
        (str(paths[3]), "PL104"),
        (str(paths[4]), "PL006"),
        (str(paths[6]), "PL006"),
    } | ({(str(paths[5]), "PL801")} if command == "verify" else set())  # e_good is a_good again (a BOM aside)
    assert {p: snapshot(p) for p in snapshots} == snapshots
    # order follows the command line
    order = [row["file"] for row in rows(result)]
    assert order == sorted(order, key=lambda f: [str(p) for p in paths].index(f))


@pytest.mark.parametrize("command", COMMANDS)
def test_one_bad_file_does_not_stop_the_others_text(tmp_path: Path, phat_record: dict[str, Any], command: str) -> None:
    paths = _several(tmp_path, phat_record)
    result = run(command, *map(str, paths))
    assert result.exit_code == 2
    for path, code in [(paths[1], "PL002"), (paths[2], "PL001"), (paths[3], "PL104"), (paths[6], "PL006")]:
        assert any(line.startswith(str(path)) and code in line for line in result.stdout.splitlines()), code
    assert "7 records" in result.stderr
    assert "2 clean" in result.stderr and "1 with problems" in result.stderr and "4 unreadable" in result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_problems_without_unreadable_input_exit_1(tmp_path: Path, phat_record: dict[str, Any], command: str) -> None:
    good = _write(tmp_path, "good", _game(copy.deepcopy(phat_record)))
    bad = _write(tmp_path, "bad", CASES["typo in a key"].data(phat_record))
    result = run(command, "--format", "json", str(good), str(bad), str(good))
    assert result.exit_code == 1
    again = [str(good)] if command == "verify" else []  # read twice: a warning (PL801), not a problem
    assert [row["file"] for row in rows(result)] == [str(bad), *again]
    assert run(command, str(good), str(good)).exit_code == 0


def test_all_errors_in_a_record_are_reported(tmp_path: Path, phat_record: dict[str, Any]) -> None:
    game = phat_record
    game["deals"][0]["hands"][0][0] = "10H"
    game["deals"][0]["hands"][1][0] = "ah"
    game["deals"][1]["dealer"] = "1"
    game["players"][2]["nmae"] = game["players"][2].pop("name")
    path = _write(tmp_path, "many", json.dumps(game).encode())
    found = {(row["code"], row["pointer"]) for row in rows(run("validate", "--format", "json", str(path)))}
    assert {
        ("PL104", "/deals/0/hands/0/0"),
        ("PL104", "/deals/0/hands/1/0"),
        ("PL103", "/deals/1/dealer"),
        ("PL101", "/players/2/name"),
        ("PL102", "/players/2/nmae"),
    } <= found
