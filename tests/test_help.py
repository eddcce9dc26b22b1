"""The command line's help and refusals in the user's words: one meaning for each short flag across every
command, the command tables of the docs against the app's commands, markup in help shown as written,
and a bad value refused in phatlog's words, never a validator's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

import pytest
import typer
import typer.core
import typer.main
from typer.testing import CliRunner

from phatlog.cli.app import app

REPO: Final = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _commands() -> dict[str, Any]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return dict(group.commands)


def _options(command: Any) -> list[Any]:
    return [p for p in command.params if isinstance(p, typer.core.TyperOption)]


def test_a_short_flag_means_one_option_in_every_command() -> None:
    """``-r`` is ``--rule`` wherever it is given, and ``--rule`` has ``-r`` wherever it is taken."""
    meaning: dict[str, tuple[str, str]] = {}  # short flag -> (long option, the first command seen with it)
    shorts: dict[str, set[str]] = {}  # long option -> the short flags it has, command by command
    commands = _commands()
    assert len(commands) >= 11
    for name, command in commands.items():
        for option in _options(command):
            longs = [o for o in option.opts if o.startswith("--")]
            short = [o for o in option.opts if not o.startswith("--")]
            assert len(longs) == 1, f"{name}: {option.opts}"
            for flag in short:
                seen = meaning.setdefault(flag, (longs[0], name))
                assert seen[0] == longs[0], f"{flag} is {seen[0]} in {seen[1]} but {longs[0]} in {name}"
            shorts.setdefault(longs[0], set()).add(short[0] if short else "")
    for long, given in shorts.items():
        # an option that has a short flag somewhere has it everywhere (--players, a flag in analyse and a
        # number in simulate, has none)
        assert len(given) == 1, f"{long} has the short flags {sorted(given)} in different commands"
    assert meaning["-r"][0] == "--rule" and meaning["-o"][0] == "--output" and meaning["-d"][0] == "--deal"


def _table_commands(text: str) -> list[str]:
    """The commands named in the first column of a markdown table: ``[`phatlog verify`](#...)``."""
    return re.findall(r"^\| \[`phatlog ([a-z]+)`\]", text, re.M)


def test_the_command_tables_list_every_command_of_the_app() -> None:
    """docs/cli.md's table and docs/README.md's summary name exactly the app's commands, whichever are
    added later."""
    commands = set(_commands())
    cli = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = _table_commands(cli)
    assert len(listed) == len(set(listed)), "docs/cli.md lists a command twice"
    assert set(listed) == commands, f"docs/cli.md's command table: missing {commands - set(listed)}"
    readme = (REPO / "docs" / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| [cli.md](cli.md)"))
    assert set(re.findall(r"`([a-z]+)`", row)) - {"phatlog"} == commands, row


def _help(args: list[str]) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "300", "TERM": "dumb"})
    assert result.exit_code == 0, result.output
    return result.output


def test_help_shows_markup_as_written_and_flags_without_types() -> None:
    top = _help([])
    assert "--install-completion" in top and "<bool>" not in top
    assert "Validate, verify and simulate" not in top and "replay" in top and "analyse" in top
    assert "phatlog[dask]" in _help(["verify"])
    assert re.search(r"Usage: phatlog verify \[OPTIONS\] FILES\.\.\.", _help(["verify"]))


@pytest.mark.parametrize("command", ["verify", "validate", "standings", "stats", "select", "fingerprint"])
def test_files_help_names_every_input_read(command: str) -> None:
    shown = " ".join(_help([command]).split())
    for kind in (".jsonl", ".ndjson", ".txt", ".phat", "directories", "standard input"):
        assert kind in shown, f"{command} --help: {kind}"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["convert", "--to", "xml", "samples/games/phat-181.json"], "'xml' is not one of json, jsonl, text"),
        (["stats", "--by", "xml", "samples/events"], "'xml' is not one of all, event, game, rules"),
        (["replay", "--deal", "x", "samples/games/phat-181.json"], "must be a whole number"),
        (["replay", "--deal", "0", "samples/games/phat-181.json"], "must be 1 or more"),
        (["simulate", "--players", "9", "--game", "oh_hell"], "must be 7 or less"),
    ],
)
def test_a_bad_value_is_refused_in_phatlogs_words(args: list[str], said: str) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 2
    shown = " ".join(result.output.split())
    assert said in shown, shown
    assert "Value error" not in shown and "Input should be" not in shown


def test_version_is_a_flag() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("phatlog ")
