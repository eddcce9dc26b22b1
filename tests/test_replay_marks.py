"""``replay --analyse``: each card that cost points or tricks against best play is marked where it was
played (text, markdown, rich, JSON, HTML), with the figures of ``phatlog analyse``; without the flag
nothing changes (the golden files hold that byte for byte; here, that no cost appears at all)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from phatlog.analysis.records import analyse
from phatlog.cli.app import app
from phatlog.record.reader import read_path
from phatlog.report import build, html, text
from phatlog.report.marks import analyse_summary

ROOT = Path(__file__).resolve().parent.parent
#: Deal 1 of the B.6.3 worked example: N's lead of the A♥ costs 38 (the point difference to the end of
#: the deal), S's 4♣ 10, N's K♠ 2, N's 4♦ 10, W's A♣ 12 (``phatlog analyse`` says the same).
DON = str(ROOT / "samples" / "games" / "nine-card-don-worked-6-3.json")
COSTLY = {(1, 0, "AH"): 38, (1, 2, "4C"): 10, (3, 0, "KS"): 2, (4, 0, "4D"): 10, (7, 3, "AC"): 12}
runner = CliRunner()
MARK = re.compile("\\(\u2212[0-9]+\\)")


def replay(*args: str) -> Result:
    result = runner.invoke(app, ["replay", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result


def page_data(page: str) -> Any:
    start = page.index('id="phatlog-data">') + len('id="phatlog-data">')
    return json.loads(page[start : page.index("</script>", start)])


def test_text_marks_the_costly_cards_with_a_legend() -> None:
    result = replay(DON, "--analyse", "--format", "text")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Marks: a card marked (\u2212N) cost N against best play" in out
    row1 = next(line for line in out.splitlines() if line.strip().startswith("1  N"))
    assert "A\u2665* (\u221238)" in row1 and "4\u2663 (\u221210)" in row1 and "Q\u2665 " in row1
    assert len(MARK.findall(out)) == len(COSTLY)
    plain = replay(DON, "--format", "text").stdout
    assert "\u2212" not in plain and "Marks" not in plain


def test_markdown_and_rich_mark_them_too() -> None:
    md = replay(DON, "--analyse", "--format", "markdown").stdout
    assert "**A\u2665** (\u221238)" in md and "Marks:" in md
    rich = replay(DON, "--analyse", "--format", "rich").stdout
    assert "A\u2665* (\u221238)" in rich


def test_json_has_a_cost_per_card_only_with_analyse() -> None:
    data = json.loads(replay(DON, "--analyse", "--format", "json").stdout)
    tricks = data["deals"][0]["tricks"]
    costs = {(t["trick"], p["seat"], p["card"]): p["cost"] for t in tricks for p in t["plays"]}
    assert len(costs) == 36 and {k: v for k, v in costs.items() if v} == COSTLY
    plain = replay(DON, "--format", "json").stdout
    assert '"cost"' not in plain
    # The same figures as phatlog analyse: one code path.
    analysed = analyse(DON)
    assert {(c.trick, c.seat, c.card): c.cost for c in analysed.deals[0].cards} == costs


def test_html_page_holds_the_costs_and_their_words() -> None:
    result = replay(DON, "--analyse", "--format", "html")
    assert result.exit_code == 0
    data = page_data(result.stdout)
    plays = data["summary"]["deals"][0]["tricks"][0]["plays"]
    assert [p["cost"] for p in plays] == [38, 0, 10, 0]
    assert data["words"]["marks"]["unit"] == ["point", "points"]
    assert any(label == "Marks" for label, _ in data["words"]["header"])
    plain = page_data(replay(DON, "--format", "html").stdout)
    assert "marks" not in plain["words"] and "cost" not in plain["summary"]["deals"][0]["tricks"][0]["plays"][0]


def test_one_trick_is_analysed_from_that_trick() -> None:
    result = replay(DON, "--analyse", "--deal", "1", "--trick", "7", "--format", "text")
    assert result.exit_code == 0
    assert "A\u2663 (\u221212)" in result.stdout and "(\u221238)" not in result.stdout


def test_a_deal_whose_hands_are_unknown_is_replayed_without_marks_and_says_why(tmp_path: Path) -> None:
    record = json.loads(Path(DON).read_text())
    deal = record["deals"][0]
    deal.pop("hands", None)
    deal.pop("undealt", None)
    deal["tricks"] = deal["tricks"][:3]
    deal.pop("points", None)
    record["result"] = {"status": "unfinished"}
    path = tmp_path / "short.json"
    path.write_text(json.dumps(record))
    plain = replay(str(path), "--format", "text")
    result = replay(str(path), "--analyse", "--format", "text")
    assert result.exit_code == plain.exit_code
    assert "analysis (PL840): the hands are not recorded" in result.stdout
    assert "(\u2212" not in result.stdout and "Marks:" not in result.stdout


def test_oh_hell_marks_tricks() -> None:
    loaded = read_path(ROOT / "samples" / "games" / "oh-hell-default-3p.json")
    summary = build(loaded, deal=3)
    analyse_summary(summary, loaded, deal=3)
    plays = [p for t in summary.deals[0].tricks for p in t.plays]
    assert plays and all(p.cost is not None for p in plays)
    out = text.render(summary)
    assert "tricks more by which its player misses its bid" in out
    assert len(MARK.findall(out)) == sum(1 for p in plays if p.cost) == 1  # hand 3: one card cost a trick
    assert "tricks" in html.words(summary)["marks"]["unit"]


def test_svg_refuses_analyse_and_an_archive_gets_marked_pages(tmp_path: Path) -> None:
    refused = replay(DON, "--analyse", "--format", "svg", "--deal", "1")
    assert refused.exit_code == 2 and "--analyse" in refused.stderr
    archive = tmp_path / "games.jsonl"
    archive.write_text(json.dumps(json.loads(Path(DON).read_text())) + "\n")
    out = tmp_path / "pages"
    result = replay(str(archive), "--format", "html", "-o", str(out), "--analyse")
    assert result.exit_code == 0, result.output
    plays = page_data((out / "record-1.html").read_text())["summary"]["deals"][0]["tricks"][0]["plays"]
    assert [p["cost"] for p in plays] == [38, 0, 10, 0]
