"""Shared fixtures: small, generic building blocks for the test files."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from phatlog.simulate import simulate


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
