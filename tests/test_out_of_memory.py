"""Running out of memory is the machine's limit, not the record's fault: one line and exit 2, never a
traceback and never exit 1 ("the record has problems")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phatlog.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "games" / "phat-worked-6-2.json"


def test_analyse_out_of_memory_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    import phatlog.cli.analyse as command

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(command, "analyse_record", no_memory)
    result = CliRunner().invoke(app, ["analyse", str(SAMPLE), "--format", "text"])
    assert result.exit_code == 2
    assert "not enough memory for the analysis" in result.output and "Traceback" not in result.output


def test_the_command_out_of_memory_is_exit_2() -> None:
    """A command whose reading asks for more memory than there is (a terabyte): the entry point says so in
    one line and exits 2."""
    script = (
        "import sys\n"
        "import phatlog.cli.entry as entry\n"
        "import phatlog.cli.app, phatlog.record.reader\n"  # loaded before the limit
        "import phatlog.record.reader as r\n"
        "def hog(*a, **k):\n"
        "    return bytearray(1 << 40)\n"
        "r.read_bytes = hog\n"
        "sys.argv = ['phatlog', 'validate', sys.argv[1]]\n"
        "entry.main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(SAMPLE)], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "error: not enough memory to finish (nothing was written)"
    assert "Traceback" not in done.stderr
