"""``replay --analyse --single-dummy``: each card's cost with every hand seen beside its cost on what its
player knew, in the replay's JSON, its notes and the HTML page; the same figures as ``analyse
--single-dummy`` for the same seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from phatlog.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
#: The worked example B.6.3 of the rules reference: trick 5 holds a card best with every hand seen that
#: was clearly worse on what its player knew (E's 9H).
WORKED = str(ROOT / "samples" / "games" / "nine-card-don-worked-6-3.json")
ASK = ["--samples", "2", "--seed", "3"]
runner = CliRunner()


def _json(args: list[str]) -> Any:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_replay_marks_the_same_single_dummy_figures_as_analyse() -> None:
    replayed = _json(
        ["replay", WORKED, "--analyse", "--single-dummy", *ASK, "--deal", "1", "--trick", "5", "-f", "json"]
    )
    analysed = _json(["analyse", WORKED, "--single-dummy", *ASK, "--deal", "1", "--from-trick", "5", "-f", "json"])
    figures = {
        (d["trick"], d["seat"]): (d["card"], d["sd_cost"], d["sd_ci"], d["sd_best"]) for d in analysed["decisions"]
    }
    (deal,) = replayed["deals"]
    (trick,) = deal["tricks"]
    for play in trick["plays"]:
        card, cost, ci, best = figures[(5, play["seat"])]
        assert (play["card"], play["sd_cost"], play["sd_ci"], play["sd_best"]) == (card, cost, ci, best)
    (note,) = deal["notes"]
    e9h = figures[(5, 1)]
    assert e9h[0] == "9H" and e9h[1] - e9h[2] > 0  # clearly worse on what E knew
    assert note == (
        f"single dummy, trick 5: E played 9H: cost 0 with every hand seen, {e9h[1]:.1f} \u00b1 {e9h[2]:.1f} on what "
        f"E knew (best on what E knew: {' or '.join(e9h[3])})"
    )


def test_the_text_replay_says_both_costs_and_the_legend_says_how() -> None:
    result = runner.invoke(
        app, ["replay", WORKED, "--analyse", "--single-dummy", *ASK, "-d", "1", "-t", "5", "-f", "text"]
    )
    assert result.exit_code == 0, result.output
    assert "single dummy, trick 5: E played 9H: cost 0 with every hand seen" in result.stdout
    assert "on what its player knew too" in result.stdout  # the legend


def test_single_dummy_is_asked_with_analyse() -> None:
    result = runner.invoke(app, ["replay", WORKED, "--single-dummy"])
    assert result.exit_code == 2 and "--analyse --single-dummy" in result.output


def test_without_single_dummy_the_json_has_no_single_dummy_keys() -> None:
    replayed = _json(["replay", WORKED, "--analyse", "-d", "1", "-t", "5", "-f", "json"])
    plays = [p for t in replayed["deals"][0]["tricks"] for p in t["plays"]]
    assert plays and not any(key.startswith("sd_") for p in plays for key in p)
