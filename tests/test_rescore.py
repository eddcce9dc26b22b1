"""``phatlog rescore``: the engine's scores written into the record, every change reported, the input
never touched, the output whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from phatlog.api import verify
from phatlog.archive.rescore import rescore
from phatlog.cli.app import app

REPO: Final = Path(__file__).resolve().parent.parent
INVALID: Final = REPO / "samples" / "invalid"
GAMES: Final = REPO / "samples" / "games"
runner = CliRunner()


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    "name",
    [
        "wrong-points.json",
        "wrong-total.json",
        "wrong-result-total.json",
        "wrong-result-winner.json",
        "oh-hell-wrong-points.json",
        "oh-hell-wrong-total.json",
        "oh-hell-wrong-result-winner.json",
        "don-wrong-total.json",
        "don-wrong-winner.json",
        "sheet-phat-wrong-total.json",
    ],
)
def test_a_record_whose_arithmetic_was_wrong_verifies_clean_once_rescored(name: str, tmp_path: Path) -> None:
    source = INVALID / name
    before = source.read_bytes()
    assert not verify(_load(source)).clean
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["rescore", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert source.read_bytes() == before  # the input is never changed
    assert verify(_load(out)).clean
    assert "figure" in result.stderr and "changed" in result.stderr
    changed = _load(out)
    # nothing but scores changed
    original = _load(source)
    for deal, was in zip(changed["deals"], original["deals"], strict=True):
        assert {k: v for k, v in deal.items() if k != "score"} == {k: v for k, v in was.items() if k != "score"}
    assert {k: v for k, v in changed.items() if k not in ("deals", "result")} == {
        k: v for k, v in original.items() if k not in ("deals", "result")
    }


def test_each_change_is_reported_with_its_pointer_and_figures(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rescore", str(INVALID / "wrong-points.json"), "-o", str(tmp_path / "o.json")])
    assert "/deals/0/score/points: deal 1's points: Ann & Cal 28, Ben & Dee 53 -> Ann & Cal 27, Ben & Dee 53" in (
        result.stderr
    )
    assert "1 figure changed" in result.stderr


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.json"))[:12], ids=lambda p: p.name)
def test_a_clean_record_is_rescored_unchanged(path: Path) -> None:
    data = _load(path)
    done = rescore(data)
    assert done.changes == [] and done.data == data


def test_an_illegal_play_stays_and_exit_1(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    result = runner.invoke(app, ["rescore", str(INVALID / "revoke.json"), "-o", str(out)])
    assert result.exit_code == 1
    assert "verify still finds 1 error" in result.stderr and "PL303" in result.stderr
    assert out.exists()


def test_not_a_record_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    for name in ("not-json.json", "wrong-type.json"):
        result = runner.invoke(app, ["rescore", str(INVALID / name), "-o", str(out)])
        assert result.exit_code == 2, result.output
        assert not out.exists()
        assert "Traceback" not in result.output


def test_no_output_named_is_a_usage_error_and_a_directory_is_refused(tmp_path: Path) -> None:
    assert runner.invoke(app, ["rescore", str(INVALID / "wrong-points.json")]).exit_code == 2
    result = runner.invoke(app, ["rescore", str(INVALID / "wrong-points.json"), "-o", str(tmp_path)])
    assert result.exit_code == 2 and "nothing written" in result.stderr


def test_in_place_only_when_named(tmp_path: Path) -> None:
    copy = tmp_path / "game.json"
    copy.write_bytes((INVALID / "wrong-total.json").read_bytes())
    result = runner.invoke(app, ["rescore", str(copy), "-o", str(copy)])
    assert result.exit_code == 0
    assert verify(_load(copy)).clean


@settings(max_examples=15, deadline=None)
@given(deal=st.integers(0, 3), side=st.integers(0, 1), delta=st.integers(1, 40))
def test_any_wrong_points_are_put_right(deal: int, side: int, delta: int) -> None:
    data = _load(GAMES / "phat-181.json")
    wrong = json.loads(json.dumps(data))
    wrong["deals"][deal]["score"]["points"][side] += delta
    wrong["deals"][deal]["score"]["total"][side] += delta
    done = rescore(wrong)
    assert done.data == data
    assert {c.pointer for c in done.changes} >= {f"/deals/{deal}/score/points"}


@pytest.mark.parametrize("name", ["fixed.txt", "fixed.jsonl", "fixed.csv"])
def test_an_output_named_for_another_notation_is_refused_and_nothing_written(name: str, tmp_path: Path) -> None:
    """The record is written as JSON: under a name that says another notation phatlog would read it back
    as something else."""
    out = tmp_path / name
    result = runner.invoke(app, ["rescore", "samples/invalid/wrong-points.json", "-o", str(out)])
    assert result.exit_code == 2 and "name the output .json" in result.stderr
    assert not out.exists()
