"""Start-up (issue 16): ``phatlog verify`` and ``--version`` load only what they run, and the fast start
(``phatlog.cli.run.fast``) behaves exactly as the typer app does, or leaves the command line to it.

The lean writer of :class:`phatlog.cli.say.Say` prints, off a terminal, the very bytes rich printed.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from phatlog.cli.app import COMMANDS, app
from phatlog.cli.run import OutputFormat, fast, parse
from phatlog.cli.say import Say, line, plain
from phatlog.referee import pitch

REPO: Final = Path(__file__).resolve().parent.parent
GAMES: Final = REPO / "samples" / "games"
CLEAN: Final = str(GAMES / "phat-181.json")
runner = CliRunner()


def _faulty(tmp_path: Path) -> str:
    record = json.loads(Path(CLEAN).read_text(encoding="utf-8"))
    record["deals"][0]["score"]["total"][0] += 1
    record["players"][0]["name"] = "Ann\x1b[2J"
    path = tmp_path / "faulty.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def _loaded_after(argv: list[str], module: str = "phatlog.cli.entry") -> set[str]:
    """The modules a fresh interpreter holds after running ``phatlog argv`` through ``module.main``."""
    code = (
        "import sys\n"
        f"sys.argv = ['phatlog', *{argv!r}]\n"
        f"from {module} import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stdout.flush()\n"
        "sys.__stderr__.write('\\n'.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    return set(done.stderr.splitlines())


#: What a plain verify must not load (``concurrent``: its process pool is only for ``--jobs`` above 1).
HEAVY: Final = (
    "pydantic",
    "rich",
    "typer",
    "click",
    "jsonschema",
    "phatlog.record.model",
    "phatlog.cli.replay",
    "concurrent",
    "multiprocessing",
    "phatlog.engine.state",  # the game machine: only for a record the C check declines
    "phatlog.referee.heard",
)


@pytest.mark.parametrize("argv", [["verify", CLEAN], ["verify", "-f", "json", CLEAN], ["validate", "-q", CLEAN]])
def test_verify_of_a_clean_record_loads_nothing_heavy(argv: list[str]) -> None:
    loaded = _loaded_after(argv)
    assert "phatlog.archive.check" in loaded
    # Without the C kernel every record is played on the game machine.
    heavy = HEAVY if pitch.KERNEL is not None else tuple(m for m in HEAVY if not m.startswith("phatlog.engine"))
    assert not [m for m in heavy if m in loaded], sorted(m for m in loaded if m.split(".")[0] in heavy)


def test_version_loads_no_command() -> None:
    loaded = _loaded_after(["--version"])
    assert not {"phatlog.archive.check", "phatlog.record.reader", "typer", "rich", "pydantic"} & loaded


def test_the_typer_app_loads_only_the_command_it_runs() -> None:
    """Through typer (an option the fast start leaves to it), ``verify`` loads neither replay nor convert."""
    loaded = _loaded_after(["verify", "-qv", CLEAN], module="phatlog.cli.app")
    assert "typer" in loaded
    assert not {"phatlog.cli.replay", "phatlog.cli.convert", "phatlog.archive.convert", "phatlog.report"} & loaded


def test_help_lists_every_registered_command() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.stdout
    group = typer.main.get_command(app)
    listed = list(group.commands)  # type: ignore[attr-defined]
    assert [name for name in listed if name in COMMANDS] == list(COMMANDS)  # in the order registered


# ------------------------------------------------------------------------------------------ the fast start


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["a.json"], {"files": ["a.json"]}),
        (["-", "b.jsonl"], {"files": ["-", "b.jsonl"]}),
        (["-q", "a", "--verbose"], {"files": ["a"], "quiet": True, "verbose": True}),
        (["--format", "json", "a"], {"files": ["a"], "format": OutputFormat.json}),
        (["-f", "text", "a"], {"files": ["a"], "format": OutputFormat.text}),
        (["--format=json", "a"], {"files": ["a"], "format": OutputFormat.json}),
        (["a", "--jobs", "2", "--max-bytes=10"], {"files": ["a"], "jobs": 2, "max_bytes": 10}),
        (["-j", "02", "a"], {"files": ["a"], "jobs": 2}),
    ],
)
def test_the_fast_start_takes_plain_command_lines(args: list[str], expected: dict[str, Any]) -> None:
    assert parse(args) == expected


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--help"],
        ["a", "--help"],
        ["--", "a"],
        ["-qv", "a"],
        ["-fjson", "a"],
        ["-f=json", "a"],
        ["--format", "xml", "a"],
        ["--format", "JSON", "a"],
        ["--jobs", "0", "a"],
        ["--jobs", "-1", "a"],
        ["--jobs", "+2", "a"],
        ["--jobs", " 2", "a"],
        ["--jobs=x", "a"],
        ["--jobs", "9" * 30, "a"],
        ["--max-bytes", "a"],
        ["a", "--jobs"],
        ["-q", "-q", "a"],
        ["--quiet=1", "a"],
        ["-x", "a"],
        ["-jobs", "2", "a"],
        ["-q"],
    ],
)
def test_the_fast_start_leaves_the_rest_to_typer(args: list[str]) -> None:
    assert parse(args) is None


def test_only_verify_validate_and_version_start_fast() -> None:
    assert fast(["schema"]) is None
    assert fast(["replay", CLEAN]) is None
    assert fast(["--version", "verify"]) is None
    assert fast([]) is None


def test_shell_completion_goes_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_PHATLOG_COMPLETE", "bash_source")
    assert fast(["verify", CLEAN]) is None


def _options(tmp_path: Path) -> list[list[str]]:
    faulty = _faulty(tmp_path)
    lines = tmp_path / "two.jsonl"
    lines.write_text(Path(CLEAN).read_text(encoding="utf-8").replace("\n", "") + "\n{}\n", encoding="utf-8")
    return [
        ["verify", CLEAN],
        ["verify", faulty],
        ["verify", "--format", "json", faulty, CLEAN],
        ["validate", "-v", faulty],
        ["verify", "-q", faulty, str(lines)],
        ["verify", "-v", str(lines), CLEAN],
        ["verify", "--max-bytes", "100", CLEAN],
        ["verify", "-j", "2", str(lines)],
        ["verify", str(tmp_path / "missing.json")],
        ["--version"],
    ]


def test_the_fast_start_prints_what_the_typer_app_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    for args in _options(tmp_path):
        capsys.readouterr()
        code = fast(args)
        out, err = capsys.readouterr()
        assert code is not None, args
        typed = runner.invoke(app, args, env={"COLUMNS": "200"})
        assert (typed.exit_code, typed.stdout, typed.stderr) == (code, out, err), args


# ------------------------------------------------------------------------------------------ the lean writer

PIECES = st.lists(
    st.one_of(
        st.text(max_size=12),
        st.tuples(st.text(max_size=8), st.sampled_from(["bold red", "yellow", "cyan"])),
    ),
    max_size=5,
)


@given(PIECES)
def test_the_lean_writer_prints_what_rich_prints_off_a_terminal(pieces: list[str | tuple[str, str]]) -> None:
    buffer = io.StringIO()
    Console(file=buffer, highlight=False, soft_wrap=True, force_terminal=False).print(line(*pieces))
    assert plain(*pieces) + "\n" == buffer.getvalue()


def test_say_writes_plain_text_off_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    Say()(("error", "bold red"), " x\x1b[2J")
    assert capsys.readouterr().out == "error x\\x1b[2J\n"


def test_say_colours_where_rich_would(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """FORCE_COLOR (or a terminal) sends the line through rich, which colours it, as before."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    Say()(("error", "bold red"), " x")
    out = capsys.readouterr().out
    assert "\x1b[" in out and "error" in out


# ------------------------------------------------------------------------------------------ signals


def test_msgspec_builds_its_decoders_with_stop_signals_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop signal's exception raised inside msgspec's C code (building a decoder calls back into
    Python) hung or crashed the process: SIGINT and SIGTERM are blocked while it builds, then delivered."""
    import signal

    import msgspec

    from phatlog.record import decoder as wire

    seen: list[set[int | signal.Signals]] = []
    real_decoder, real_defstruct = msgspec.json.Decoder, msgspec.defstruct

    def decoder(*args: Any, **kwargs: Any) -> Any:
        seen.append(signal.pthread_sigmask(signal.SIG_BLOCK, []))
        return real_decoder(*args, **kwargs)

    def defstruct(*args: Any, **kwargs: Any) -> Any:
        seen.append(signal.pthread_sigmask(signal.SIG_BLOCK, []))
        return real_defstruct(*args, **kwargs)

    monkeypatch.setattr(msgspec.json, "Decoder", decoder)
    monkeypatch.setattr(msgspec, "defstruct", defstruct)
    wire.record_type.__wrapped__()
    wire.decoder.__wrapped__()
    wire._canonical_decoder.__wrapped__()
    assert len(seen) > 10
    assert all({signal.SIGINT, signal.SIGTERM} <= mask for mask in seen)
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # and unblocked after
