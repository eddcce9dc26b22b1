"""What the command line shows people: safe text, notes on request, help and errors in the user's words,
and the conformance demonstration of ``make run``.

Every line printed for people goes through :class:`phatlog.cli.say.Say`, which passes every piece of text
through :func:`phatlog.diagnostics.printable.printable`; JSON output stays exact JSON.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Final

import pytest
from typer.testing import CliRunner

from phatlog.cli.app import app

REPO: Final = Path(__file__).resolve().parent.parent
GAMES: Final = REPO / "samples" / "games"
ESC: Final = "\x1b"
EVIL: Final = "\x1b[31mevil"

runner = CliRunner()


def _record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GAMES / "phat-181.json").read_text(encoding="utf-8"))
    record.update(changes)
    return record


def _invoke(args: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# ------------------------------------------------------------------------------------------ escapes


def _vectors(tmp_path: Path) -> dict[str, Path]:
    """Files whose name, key or version holds ESC."""
    files = {}
    named = tmp_path / "x\x1b[2J.json"
    named.write_text("{}", encoding="utf-8")
    files["file name"] = named
    key = tmp_path / "key.json"
    key.write_text(json.dumps(_record(**{EVIL: 1})), encoding="utf-8")
    files["key"] = key
    version = tmp_path / "version.json"
    version.write_text(json.dumps(_record(phatlog=EVIL)), encoding="utf-8")
    files["version"] = version
    name = tmp_path / "player.json"
    rec = _record()
    rec["players"][0]["name"] = EVIL
    rec["deals"][0]["score"]["total"][0] += 1
    name.write_text(json.dumps(rec), encoding="utf-8")
    files["player name"] = name
    return files


@pytest.mark.parametrize("command", ["verify", "validate"])
@pytest.mark.parametrize("vector", ["file name", "key", "version", "player name"])
def test_no_escape_reaches_the_terminal_from_verify_and_validate(command: str, vector: str, tmp_path: Path) -> None:
    path = _vectors(tmp_path)[vector]
    code, out, err = _invoke([command, str(path)])
    assert ESC not in out + err, f"{vector}: {out!r}"
    if command == "validate" and vector == "player name":
        assert code == 0  # a wrong total is not validate's business: nothing printed but the summary
        return
    assert code == 1
    assert "\\x1b" in out, f"{vector}: the ESC should be shown as an escape: {out!r}"


@pytest.mark.parametrize("vector", ["file name", "key", "version"])
def test_no_escape_reaches_the_terminal_from_convert(vector: str, tmp_path: Path) -> None:
    path = _vectors(tmp_path)[vector]
    code, out, err = _invoke(["convert", str(path), "-o", str(tmp_path / "out.txt")])
    assert code == 2
    assert ESC not in out + err
    assert "\\x1b" in err


def test_no_escape_in_converts_output_name(tmp_path: Path) -> None:
    code, _, err = _invoke(["convert", str(GAMES / "phat-181.json"), "-o", str(tmp_path / "y\x1b[2J.txt")])
    assert code == 0
    assert ESC not in err and "y\\x1b[2J.txt" in err


def test_no_escape_from_a_rule_key() -> None:
    code, out, err = _invoke(["simulate", "--rule", "x\x1b[31m=1"])
    assert code == 2
    assert ESC not in out + err
    assert "--rule x\\x1b[31m:" in err


def test_json_output_stays_exact_json(tmp_path: Path) -> None:
    """JSON Lines carry the ESC as JSON does (``\\u001b``): exact, and it reads back as the same text."""
    for vector in ("key", "version"):
        code, out, _ = _invoke(["verify", "--format", "json", str(_vectors(tmp_path)[vector])])
        assert code == 1
        rows = [r for line in out.splitlines() if (r := json.loads(line))["kind"] == "diagnostic"]
        assert any(EVIL in row["pointer"] + row["message"] for row in rows), rows
        assert "\\u001b" in out and ESC not in out


def test_the_cli_prints_for_people_only_through_say() -> None:
    """cli/app.py and cli/convert.py never print directly: no print(), echo(), Console.print() or markup escape()."""
    for name in ("cli/app.py", "cli/convert.py"):
        tree = ast.parse((REPO / "phatlog" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                assert called not in ("print", "echo", "secho", "escape", "Console"), f"{name}:{node.lineno}: {called}"


# ------------------------------------------------------------------------------------------ notes


def test_a_clean_run_prints_only_the_summary() -> None:
    code, out, err = _invoke(["verify", "--duplicates", "records", *map(str, sorted(GAMES.glob("*.json")))])
    assert code == 0
    assert out == ""
    assert err.count("\n") == 1, err
    assert "notes); --verbose prints them" in err


def test_verbose_prints_the_notes_and_the_table() -> None:
    sheets = [str(GAMES / "score-sheet-phat-181.json"), str(GAMES / "phat-181.json")]
    code, out, err = _invoke(["verify", "--verbose", *sheets])
    assert code == 0
    assert out.count(" info PL406 unchecked: ") == 1
    assert "(1 note)\n" in err and "--verbose" not in err
    assert "PL406  unchecked  info" in err


def test_notes_are_hidden_beside_problems_and_said_so(tmp_path: Path) -> None:
    code, out, err = _invoke(
        ["verify", str(GAMES / "score-sheet-phat-181.json"), str(REPO / "samples/invalid/revoke.json")]
    )
    assert code == 1
    assert " info " not in out and " error PL303 " in out
    assert "--verbose prints the note" in err
    assert "PL406" not in err  # the table lists what was printed


def test_json_output_keeps_the_notes() -> None:
    code, out, _ = _invoke(["verify", "--format", "json", str(GAMES / "score-sheet-phat-181.json")])
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(r["kind"], r.get("severity"), r.get("status")) for r in lines] == [
        ("diagnostic", "info", None),
        ("record", None, "clean"),
    ]


# ------------------------------------------------------------------------------------------ help and errors


@pytest.mark.parametrize("command", ["verify", "validate", "simulate", "convert", "replay", "schema"])
def test_help_speaks_the_users_words(command: str) -> None:
    code, out, _ = _invoke([command, "--help"])
    assert code == 0
    for python in ("<bool>", "<list[", "<int", "<str>", "<path>", "{files}", "{file}"):
        assert python not in out, f"phatlog {command} --help shows {python}"


def test_help_names_the_values() -> None:
    assert "KEY=VALUE" in _invoke(["simulate", "--help"])[1]
    assert "--jobs" in (out := _invoke(["verify", "--help"])[1]) and " N " in out and "FILES" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--game", "oh_hell", "--rule", "schedule=[1,2,0]"],
            "--rule schedule: item 3 must be a whole number from 1 to 17, not 0",
        ),
        (
            ["--game", "oh_hell", "--rule", 'schedule=[1,"x"]'],
            "--rule schedule: item 2 must be a whole number from 1 to 17, not 'x'",
        ),
        (
            ["--game", "oh_hell", "--rule", "schedule=sideways"],
            "--rule schedule: must be 'up', 'down', 'up_down' or 'down_up', not 'sideways'",
        ),
        (
            ["--game", "oh_hell", "--rule", "max_cards=99"],
            "--rule max_cards: must be a whole number from 1 to 17, not 99",
        ),
        (["--game", "oh_hell", "--rule", "hook=maybe"], "--rule hook: must be true or false, not 'maybe'"),
        (["--rule", "target=a"], "--rule target: must be a whole number from 1 to 100000, not 'a'"),
        (["--rule", "muck_tie=split"], "--rule muck_tie: must be 'none', 'carry' or 'both', not 'split'"),
        (
            ["--rule", "trget=121"],
            "--rule trget: phat has no such rule (its rules: target, peg_out, muck_tie, revoke_penalty)",
        ),
        (["--rule", "=3"], "--rule takes KEY=VALUE (such as target=121), not '=3'"),
    ],
)
def test_rule_errors_speak_the_users_words(args: list[str], message: str) -> None:
    code, out, err = _invoke(["simulate", *args])
    assert code == 2
    assert out == ""
    assert err == f"error: {message}\n"


# ------------------------------------------------------------------------------------------ conformance


def _conformance() -> ModuleType:
    spec = importlib.util.spec_from_file_location("conformance", REPO / "samples" / "conformance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_conformance_all_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert _conformance().main([]) == 0
    out = capsys.readouterr().out
    assert " NO" not in out
    assert out.splitlines()[-1].startswith("all ") and out.splitlines()[-1].endswith(
        " faulty records get exactly the diagnostics expected"
    )


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "invalid"
    shutil.copytree(REPO / "samples" / "invalid", target)
    return target


def test_conformance_fails_when_one_record_disagrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = _copy(tmp_path)
    manifest = target / "expected.json"
    expected = json.loads(manifest.read_text(encoding="utf-8"))
    expected["revoke.json"] = [{"code": "PL304", "pointer": "/deals/0/tricks/1/winner"}]
    manifest.write_text(json.dumps(expected), encoding="utf-8")
    assert _conformance().main([str(target)]) == 1
    out = capsys.readouterr().out
    assert "revoke.json:" in out and "expected: PL304 at /deals/0/tricks/1/winner" in out
    assert "found: PL303 at /deals/0/tricks/1/cards/1, PL307 at /deals/0" in out
    assert out.splitlines()[-1].startswith("1 of ")


def test_conformance_fails_on_a_record_without_expectations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = _copy(tmp_path)
    shutil.copy(target / "revoke.json", target / "new-fault.json")
    assert _conformance().main([str(target)]) == 1
    assert "new-fault.json" in capsys.readouterr().out


def test_conformance_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _conformance().main([str(tmp_path / "nowhere")]) == 2
    target = _copy(tmp_path)
    (target / "expected.json").write_text("{not json", encoding="utf-8")
    assert _conformance().main([str(target)]) == 2
    assert "cannot read the conformance set" in capsys.readouterr().err


def test_text_from_a_record_is_never_read_as_markup(tmp_path: Path) -> None:
    """A key that looks like rich markup is printed as it is, not styled or swallowed."""
    path = tmp_path / "[bold red]name.json"
    path.write_text(json.dumps(_record(**{"[bold red]k": 1})), encoding="utf-8")
    code, out, err = _invoke(["verify", str(path)])
    assert code == 1
    assert "1 with problems (1 error)" in err
    assert "[bold red]name.json: /[bold red]k: error PL102 " in out
