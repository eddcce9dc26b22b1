"""Shared fixtures: small, generic building blocks for the test files; and the Hypothesis profiles.

Property tests are reproducible: the same code gives the same examples on every run, here and on CI.

- ``fast``, the default (``make test``): derandomized, each test's own example count scaled to 0.3,
  and the tests marked ``deep`` (slow integration runs) skipped: ``make test`` stays under two minutes.
- ``ci``, when ``CI=true`` (``.ci/run``): derandomized, each test's own count in full, the ``deep`` tests
  run. A CI failure replays locally with ``CI=true make test``.
- ``deep``, with ``HYPOTHESIS_PROFILE=deep make test``: random (a new run each time, to look for new
  failures), four times each test's own count. A failure prints a ``@reproduce_failure`` blob.

A test that fixes its own ``max_examples`` takes it through :func:`examples`, so that the profile scales
it. ``HYPOTHESIS_PROFILE`` names a profile outright and wins over ``CI``.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, settings

from phatlog.play.simulate import simulate
from phatlog.referee.games import referee
from phatlog.referee.heard import DealEvents, referee_events
from phatlog.referee.pitch import Findings
from phatlog.rules.trick import FollowRule
from phatlog.solver.position import Tables, allow_table, strength_row

#: How each profile scales a test's own example count.
SCALE: Final = {"fast": 0.3, "ci": 1.0, "deep": 4.0}

settings.register_profile("fast", derandomize=True, deadline=None, max_examples=25, print_blob=True)
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=100, print_blob=True)
settings.register_profile(
    "deep",
    derandomize=False,
    deadline=None,
    max_examples=400,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
PROFILE: Final = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI", "").lower() in ("true", "1", "yes") else "fast"
)
settings.load_profile(PROFILE)

#: Tests marked ``deep`` (slow integration runs: a Dask cluster's workers dying, every command on a cluster,
#: long differential sweeps) run in the CI and deep profiles only, so that ``make test`` stays fast.
DEEP_RUN: Final = PROFILE in ("ci", "deep")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if DEEP_RUN:
        return
    skip = pytest.mark.skip(reason="slow integration test: run in the CI and deep profiles (CI=true make test)")
    for item in items:
        if "deep" in item.keywords:
            item.add_marker(skip)


def examples(n: int) -> int:
    """A test's own example count ``n``, scaled by the profile in use (at least 5)."""
    return max(5, round(n * SCALE.get(PROFILE, 1.0)))


@cache
def _phat_game(seed: int) -> dict[str, Any]:
    return next(iter(simulate("phat", seed, 1)))


def phat_game(seed: int = 1) -> dict[str, Any]:
    """A valid simulated game of Phat as a JSON-ready dict (a fresh copy: mutate it freely)."""
    return copy.deepcopy(_phat_game(seed))


@pytest.fixture
def phat_record() -> dict[str, Any]:
    """A valid simulated game of Phat (seed 1), a fresh copy for every test."""
    return phat_game(1)


# ------------------------------------------------------------------------------------ the referee's events


@dataclass(slots=True)
class Heard(Findings):
    """A verdict with what the referee told of each deal (``told``, by deal)."""

    told: list[DealEvents] = field(default_factory=list)


def listen(record: Any, visitor: bool = True) -> Heard:
    """The referee's verdict on ``record``, and (``visitor``) its events gathered by deal; without a visitor
    the referee may use the C kernel, and ``told`` is empty."""
    if not visitor:
        v, told = referee(record), list[DealEvents]()
    else:
        v, told = referee_events(record)
    return Heard(v.diagnostics, v.deals, v.totals, v.winner, v.ended_at, v.refused, v.judged, told)


# ------------------------------------------------------------------------------------ the solver


def counter_tables(trump: int, counters: dict[int, int]) -> Tables:
    """Solver tables of four seats in two sides, the given counters (card: points) and nothing at the end
    of the deal, the follow rule must-follow."""
    counter = [0] * 52
    for card, points in counters.items():
        counter[card] = points
    return Tables(
        4,
        trump,
        strength_row(trump),
        allow_table(FollowRule.MUST_FOLLOW, trump),
        tuple(counter),
        (0,) * 52,
        (0,) * 52,
        0,
        (0,) * 4,
        (0, 1, 0, 1),
    )


def hand_masks(*cards: list[int]) -> tuple[int, ...]:
    """One bit mask a hand."""
    return tuple(sum(1 << c for c in h) for h in cards)


def rerun_without_bmi2(test_file: str, select: str) -> None:
    """Runs the tests of ``test_file`` that ``select`` (pytest's ``-k``) picks in a fresh interpreter with
    the solver kernel's portable path (``PHATLOG_SOLVE_NO_BMI2=1``), and asserts that they ran and passed."""
    env = {**os.environ, "PHATLOG_SOLVE_NO_BMI2": "1"}
    env.pop("PHATLOG_PURE_PYTHON", None)
    here = Path(test_file).resolve()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(here), "-k", select],
        env=env,
        capture_output=True,
        text=True,
        cwd=here.parent.parent,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert " passed" in run.stdout and " skipped" not in run.stdout
