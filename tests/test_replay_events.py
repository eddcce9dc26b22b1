"""The replay summary's deals come from the engine's events, not from the referee's trace."""

from __future__ import annotations

from pathlib import Path

import pytest

from phatlog.reader import read_path
from phatlog.report import build
from phatlog.report.summary import _PitchBuilder

ROOT = Path(__file__).resolve().parent.parent
SHEETS = ["score-sheet-phat-181.json", "score-sheet-phat-carry.json", "score-sheet-phat-mixed.json"]


@pytest.mark.parametrize("name", SHEETS)
def test_pitch_score_sheet_deals_come_from_events(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal of a clean Phat score sheet (played or not) is summarised from the engine's events: the
    trace-reading path is never taken, and the summary is what it was."""
    loaded = read_path(ROOT / "samples" / "games" / name)
    before = build(loaded).to_json()

    def no_trace(*args: object, **kwargs: object) -> object:
        raise AssertionError("a deal was summarised from the referee's trace")

    monkeypatch.setattr(_PitchBuilder, "deal", no_trace)
    after = build(loaded).to_json()
    assert after == before
    assert any(d["kind"] == "score_sheet" for d in after["deals"])
