"""The event report a director pins on the wall: each game with its round, table, sides, final score and
winner (linked to its page), and statistics columns that belong to the games shown."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Final

from typer.testing import CliRunner

from phatlog.cli.app import app

REPO: Final = Path(__file__).resolve().parent.parent
EVENT: Final = REPO / "samples" / "events"
GAMES: Final = REPO / "samples" / "games"
runner = CliRunner()


def _rows(page: str) -> list[list[str]]:
    """The games list's rows, each cell's text (tags dropped)."""
    table = page.split("<h3>games</h3>", 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)
    ]


def test_the_games_list_gives_round_table_sides_score_and_winner(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = runner.invoke(app, ["standings", "-f", "html", "-o", str(site), str(EVENT / "phat")])
    assert result.exit_code == 1  # one record of the event has a wrong total: listed, not counted
    page = (site / "index.html").read_text(encoding="utf-8")
    rows = _rows(page)
    assert len(rows) == 5
    rounds = [(r[1], r[2]) for r in rows]
    assert rounds == sorted(rounds, key=lambda rt: (int(rt[0]), int(rt[1])))  # by round, then table
    for row in rows:
        name, rnd, table, sides, score, winner, where = row
        assert name.startswith("G")
        assert f"round-{rnd}-table-{table}.json" in where
        a, b = (int(x) for x in score.split("–"))
        assert winner in sides.split(" v ")
        # the winner is the side with the higher final total, shown first or second as its side is
        assert (sides.split(" v ").index(winner) == 0) == (a > b)
    # the winner links to the game's page, and the page is there
    games = page.split("<h3>games</h3>", 1)[1].split("</table>", 1)[0]
    links = re.findall(r'<td><a href="(game-\d+\.html)">', games)
    assert len(links) == 5 and all((site / link).exists() for link in links)
    # the standings come first, then the games
    assert page.index("partnerships") < page.index("<h3>games</h3>")


def test_oh_hell_games_name_their_winner() -> None:
    result = runner.invoke(app, ["standings", "-f", "html", str(EVENT / "oh-hell")])
    rows = _rows(result.stdout)
    assert rows and all(r[5] and r[5] != "—" for r in rows)
    assert all(len(r[4].split("–")) == len(r[3].split(" v ")) for r in rows)  # a total a player


def _stats_columns(*paths: Path) -> list[str]:
    result = runner.invoke(app, ["stats", "--format", "csv", "--by", "game", *map(str, paths)])
    return next(csv.reader(io.StringIO(result.stdout)))


def test_stats_show_the_awards_of_the_games_shown() -> None:
    phat = _stats_columns(EVENT / "phat")
    assert "muck" in phat and not {"game", "high", "low", "jack"} & set(phat)
    don = _stats_columns(GAMES / "nine-card-don-five-high-low-jack.json")
    assert {"game", "high", "low", "jack"} <= set(don) and "muck" not in don
    irish = _stats_columns(GAMES / "irish-don-worked-6-2.json")
    assert not {"muck", "game", "high", "low", "jack"} & set(irish)
