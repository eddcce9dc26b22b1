"""The short fuzz run of ``make test``: a fixed seed, a thousand mutated inputs through every entry point.

The fuzzer is ``bench/fuzz.py`` (docs/fuzzing.md); this runs 1000 of its inputs (seed 1) with the CLI on
one input in 50 and the rich renderer on one in 7, and fails listing every distinct crash: an exception
that escaped (other than the documented ones), a hang over 2 s, a verdict that differs with and without
the C loop, a round trip that changed a record its writer claimed to keep whole, or a CLI exit outside
0/1/2 or with a traceback. Reproduce one with ``python bench/fuzz.py --seed 1 --only INPUT``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from phatlog.record.reader import Loaded
from phatlog.referee import pitch
from phatlog.referee.pitch import Findings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import fuzz  # bench/fuzz.py

INPUTS = 1000


@pytest.mark.deep
def test_short_fuzz_run_finds_no_crash() -> None:
    outcome = fuzz.run(INPUTS, seed=1, jobs=1, budget=2.0, cli_every=50, rich_every=7)
    assert outcome.inputs == INPUTS
    if outcome.crashes:
        pytest.fail("\n".join(fuzz.summary_lines(outcome)), pytrace=False)


def test_inputs_depend_only_on_the_seed_and_the_index() -> None:
    corpus = fuzz.seeds(simulated=1)
    first = [fuzz.make_input(corpus, 5, i).data for i in (0, 7, 99)]
    again = [fuzz.make_input(corpus, 5, i).data for i in (99, 7, 0)][::-1]
    assert first == again
    assert fuzz.make_input(corpus, 6, 7).data != first[1] or fuzz.make_input(corpus, 6, 8).data != first[1]


def test_the_oracle_catches_an_escaped_exception_and_dedupes_it() -> None:
    """A crash is found, named by its entry point, type and innermost phatlog frame, and counted once."""
    data = b'{"format": "phatlog", "version": "1.0", "game": "phat"}'
    inp = fuzz.Input(0, "json", data, "test")

    def broken(raw: bytes, source: str = "<input>") -> Loaded:
        raise KeyError("boom")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fuzz, "read_bytes", broken)
        found = fuzz.run_one(inp, None, 0, 1)
    assert found is not None
    entry, exc = found
    assert (entry, type(exc)) == ("read", KeyError)
    assert fuzz.signature(entry, exc).startswith("read KeyError ")


def test_mutators_change_inputs_and_never_raise() -> None:
    rng = random.Random(3)
    corpus = fuzz.seeds(simulated=1)
    changed = 0
    for i in range(300):
        inp = fuzz.make_input(corpus, 3, i)
        changed += inp.data not in {s.data for s in corpus}
    assert changed > 250
    assert fuzz.mutate_bytes(b"", rng, b"") is not None


def test_the_oracle_catches_verdicts_that_differ_with_and_without_the_c_loop() -> None:
    """A referee that answers differently when ``pitch.KERNEL`` is switched off is a Mismatch."""
    data = fuzz.seeds(simulated=1)[0].data
    inp = fuzz.Input(0, "json", data, "test")

    def two_faced(record: Any, visitor: Any = None) -> Findings:
        totals = [0, 0] if pitch.KERNEL is None else [1, 0]
        return Findings([], len(record.deals), totals, None, None)

    if pitch.KERNEL is None:
        pytest.skip("the C loop is not in use (not built, or PHATLOG_PURE_PYTHON=1): nothing to compare")
    assert fuzz.run_one(inp, None, 0, 1) is None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fuzz, "referee", two_faced)
        found = fuzz.run_one(inp, None, 0, 1)
    assert found is not None
    assert (found[0], type(found[1])) == ("referee", fuzz.Mismatch)


def test_the_watchdog_reports_an_input_that_computes_too_long_as_a_hang() -> None:
    def spin(raw: bytes, source: str = "<input>") -> Loaded:
        while True:
            pass

    corpus = [fuzz.Seed("json", b"{}", "empty object")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fuzz, "read_bytes", spin)
        outcome = fuzz.fuzz_range(corpus, 1, 0, 1, budget=0.2, cli_every=0, rich_every=1)
    assert list(outcome.crashes) == ["read Hang"]
