"""The analysis as a player reads it: values that chain from card to card and end at the deal's real
margin, a best line that keeps the value, and the pitch table of every first lead by trump."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

import pytest
from typer.testing import CliRunner

from phatlog.analysis.reading import analysis_json, read_analysis
from phatlog.analysis.records import analyse
from phatlog.cli.app import app
from phatlog.engine.state import Phase
from phatlog.play.steps import states
from phatlog.record.load import read
from phatlog.rules.cards import Card
from phatlog.rules.table import side_of
from phatlog.solver.values import review

GAMES: Final = Path(__file__).resolve().parent.parent / "samples" / "games"
DON: Final = str(GAMES / "nine-card-don-worked-6-3.json")
runner = CliRunner()


@pytest.mark.parametrize("name", ["nine-card-don-worked-6-3.json"])
def test_values_chain_and_end_at_the_deals_margin(name: str) -> None:
    path = str(GAMES / name)
    analysis = analyse(path, deal=1)
    (reading,) = read_analysis(path, analysis, line=False)
    cards = analysis.deals[0].cards
    values = [reading.chained[c.trick, c.seat] for c in cards]
    for (_, after), (before, _) in pairwise(values):
        assert after == before  # each card starts where the last ended
    for card, (before, after) in zip(cards, values, strict=True):
        sign = 1 if side_of(card.seat) == 0 else -1
        assert before - after == sign * card.cost  # a costly card moves the value against its side
    points = json.loads(Path(path).read_text(encoding="utf-8"))["deals"][0]["score"]["points"]
    assert values[-1][1] == points[0] - points[1]  # the last card ends at the deal's real margin
    first = analysis.deals[0]
    assert first.first_seat is not None and first.value is not None
    assert reading.start == values[0][0] == (1 if side_of(first.first_seat) == 0 else -1) * first.value


def test_the_best_line_is_legal_and_keeps_the_value() -> None:
    analysis = analyse(DON, deal=1)
    (reading,) = read_analysis(DON, analysis)
    assert len(reading.line) == 36
    record = read(DON)
    state = next(s.state for s in states(record) if s.state.phase is Phase.PLAY).copy()
    for card in reading.line:
        assert state.current_seat == card.seat
        assert Card.parse(card.card) in state.legal_actions()
        state.apply(Card.parse(card.card))
    last = reading.line[-1]
    assert last.margin == reading.start  # best play all through makes exactly the value
    assert [c.margin is not None for c in reading.line] == [i % 4 == 3 for i in range(36)]


def test_the_pitch_table_values_every_first_lead_by_trump() -> None:
    analysis = analyse(DON, deal=1)
    (reading,) = read_analysis(DON, analysis, line=False, pitch=True)
    pitch = reading.pitch
    assert pitch is not None and pitch.player == "N"
    record = read(DON)
    state = next(s.state for s in states(record) if s.state.phase is Phase.PLAY)
    held = sorted(str(c) for c in state.legal_actions())
    assert sorted(c for leads in pitch.leads.values() for c, _ in leads) == held
    assert max(v for s in pitch.leads for v in [pitch.best(s)] if v is not None) == analysis.deals[0].value
    for suit, leads in pitch.leads.items():
        assert all(card.endswith(suit) for card, _ in leads)
        card, value = leads[-1]
        assert review(state, card).after == value  # the same value by another search


def test_analyse_text_and_json_read() -> None:
    text = runner.invoke(app, ["analyse", DON, "--pitch", "--format", "text"]).stdout
    assert "N & S +47 points with best play" in text
    assert "spades    +47   AS +47, KS +47, TS +37" in text
    assert "Best line from trick 1:" in text and "trick 1: N KS, E 4S, S 5S, W 6S (N & S +13 so far)" in text
    markdown = runner.invoke(app, ["analyse", DON, "--pitch", "--format", "markdown"]).stdout
    assert "| trump | best | each lead |" in markdown and "| spades | +47 | AS +47, KS +47, TS +37 |" in markdown
    data = json.loads(runner.invoke(app, ["analyse", DON, "--pitch", "-f", "json"]).stdout)
    deal = data["deals"][0]
    assert deal["side"] == 0 and deal["start"] == 47 and len(deal["line"]) == 36
    assert deal["pitch"]["by_trump"]["S"]["best"] == 47
    assert all("deal_before" in c and "deal_after" in c for t in deal["tricks"] for c in t["cards"])
    plain = json.loads(runner.invoke(app, ["analyse", DON, "--no-line", "--no-pitch", "-f", "json"]).stdout)
    assert plain["deals"][0]["line"] == [] and "pitch" not in plain["deals"][0]


def test_the_pitch_table_is_shown_by_default_for_nine_card_don_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine-card Don: the pitch costs under a second more a deal, so it is shown unless --no-pitch; the other
    All Fours games ask for it (Irish Don's 13 cards: seconds more a deal; Phat's: minutes)."""
    don = json.loads(runner.invoke(app, ["analyse", DON, "-f", "json"]).stdout)
    assert don["deals"][0]["pitch"]["by_trump"]["S"]["best"] == 47
    text = runner.invoke(app, ["analyse", DON, "--format", "text"]).stdout
    assert "The pitch: what each first lead N could make is worth to N & S" in text
    import phatlog.cli.analyse as command

    asked: list[bool] = []
    from phatlog.analysis.reading import read_analysis as original

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["pitch"])
        return original(*args, **kwargs)

    monkeypatch.setattr(command, "read_analysis", spy)
    for name, flag, wanted in [
        ("irish-don-worked-6-2.json", [], False),
        ("phat-worked-6-2.json", [], False),
        ("irish-don-worked-6-2.json", ["--pitch"], True),
        ("nine-card-don-worked-6-3.json", [], True),
        ("nine-card-don-worked-6-3.json", ["--no-pitch"], False),
    ]:
        asked.clear()  # the last tricks only (fast): what is asked of the reading is what this checks
        result = runner.invoke(app, ["analyse", str(GAMES / name), "--from-trick", "9", *flag, "-f", "json"])
        assert result.exit_code == 0, result.output
        assert asked == [wanted], name


def test_oh_hell_values_are_the_hands_and_its_line_plays_out() -> None:
    path = str(GAMES / "oh-hell-worked-6-1.json")
    analysis = analyse(path)
    readings = read_analysis(path, analysis)
    data = analysis_json(analysis, readings)
    for deal in data["deals"]:
        assert deal["side"] is None
        for trick in deal["tricks"]:
            for card in trick["cards"]:
                assert (card["deal_before"], card["deal_after"]) == (card["before"], card["after"])
    assert all(r.line and all(c.margin is None for c in r.line) for r in readings)
