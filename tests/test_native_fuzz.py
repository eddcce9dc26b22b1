"""The C kernels' entry points (``_trick``, ``_bytes``) on junk and mutated arguments: every call returns
or raises, none crashes the interpreter (bench/fuzz_native.py, run in a child process: a crash ends it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from phatlog._native import kernel_module

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(
    kernel_module("_trick") is None or kernel_module("_bytes") is None, reason="the C kernels are not built"
)
def test_the_kernels_entry_points_never_crash() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "fuzz_native.py"), "--calls", "4000", "--seed", "11"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("4,000 calls, no crash")
    for entry in ("play", "oh_hell", "pitch_record", "oh_hell_record", "deal_keys", "record_stream"):
        assert f"{entry} returned" in done.stdout and f"{entry} raised" in done.stdout, entry
