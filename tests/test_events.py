"""Standings, crosstables and player statistics (phatlog.events, phatlog standings, phatlog stats), against
small events counted by hand, and the commands in every output format."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import listen
from typer.testing import CliRunner

import phatlog
from phatlog.archive.check import FACTS, check_all
from phatlog.cli.app import app
from phatlog.events.standings import Standings
from phatlog.events.stats import Stats
from phatlog.play.simulate import simulate
from phatlog.referee.games import referee

REPO = Path(__file__).resolve().parent.parent
EVENT = REPO / "samples" / "events"
Json = dict[str, Any]


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout


def _write(path: Path, record: Json) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------- a hand-counted event


def _phat_sheet(players: list[tuple[str, str | None]], points: list[list[int]], round_: str) -> Json:
    """A Phat score sheet to 100 (peg out at the end of a deal): each deal's points by side."""
    totals = [0, 0]
    deals = []
    for d, p in enumerate(points):
        totals = [totals[0] + p[0], totals[1] + p[1]]
        deals.append({"dealer": (3 + d) % 4, "score": {"points": p, "total": totals}})
    winner = [0] if totals[0] > totals[1] else [1]
    return {
        "phatlog": "1.0",
        "game": "phat",
        "rules": {"target": 100, "peg_out": "end_of_deal"},
        "event": {"name": "Cup", "round": round_},
        "players": [{"name": n, **({"id": i} if i else {})} for n, i in players],
        "deals": deals,
        "result": {"winner": winner, "total": totals},
    }


ANN, BEN, CAL, DEE, EVE, GUS = ("Ann", "a"), ("Ben", "b"), ("Cal", "c"), ("Dee", "d"), ("Eve", "e"), ("Gus", "g")


@pytest.fixture
def phat_event(tmp_path: Path) -> Path:
    """Three partnerships, each meeting the others once, and a fourth record with a wrong total.

    Round 1: Ann & Cal beat Ben & Dee 108-68. Round 2: Eve & Gus beat Ben & Dee 108-68 (Ben is recorded
    as "Benjamin", joined by his id). Round 3: Eve & Gus beat Ann & Cal 100-76. By hand:
    Eve & Gus 2 played, 2 won, 208 for, 144 against (+64); Ann & Cal 2-1-1, 184-168 (+16); Ben & Dee
    2-0-2, 136-216 (-80)."""
    _write(tmp_path / "r1.json", _phat_sheet([ANN, BEN, CAL, DEE], [[50, 38], [58, 30]], "1"))
    _write(tmp_path / "r2.json", _phat_sheet([("Benjamin", "b"), EVE, DEE, GUS], [[38, 50], [30, 58]], "2"))
    _write(tmp_path / "r3.json", _phat_sheet([ANN, EVE, CAL, GUS], [[38, 50], [38, 50]], "3"))
    bad = _phat_sheet([ANN, BEN, CAL, DEE], [[50, 38], [58, 30]], "4")
    bad["deals"][1]["score"]["total"] = [108, 69]
    _write(tmp_path / "r4-bad.json", bad)
    return tmp_path


def _standings(path: Path, include_problems: bool = False) -> Standings:
    data = Standings(include_problems)
    for result in check_all([str(path)], True, detail=FACTS):
        for r in result.reports:
            errors = sum(1 for d in r.diagnostics if d.severity.value == "error")
            status = "unreadable" if r.unreadable else "problems" if errors else "clean"
            data.add(r.source, r.line, status, errors, r.facts)
    return data


def test_the_hand_counted_phat_event(phat_event: Path) -> None:
    for name in ("r1.json", "r2.json", "r3.json"):
        assert phatlog.verify(phat_event / name).clean, name
    data = _standings(phat_event)
    (group,) = data.sorted_groups()
    assert (group.event, group.game, group.records, data.records, data.counted) == ("Cup", "phat", 3, 4, 3)
    teams = [
        (t.name, t.played, t.won, t.lost, t.points_for, t.points_against, t.difference) for t in group.ranked_teams()
    ]
    assert teams == [
        ("Eve & Gus", 2, 2, 0, 208, 144, 64),
        ("Ann & Cal", 2, 1, 1, 184, 168, 16),
        ("Ben & Dee", 2, 0, 2, 136, 216, -80),
    ]
    players = {p.name: (p.played, p.won, p.points_for) for p in group.ranked_players()}
    assert players == {
        "Eve": (2, 2, 208),
        "Gus": (2, 2, 208),
        "Ann": (2, 1, 184),
        "Cal": (2, 1, 184),
        "Ben": (2, 0, 136),  # "Benjamin" in round 2, joined by id
        "Dee": (2, 0, 136),
    }
    order, meetings = group.crosstable()
    names = [group.names[k] for k in order]
    assert names == ["Eve & Gus", "Ann & Cal", "Ben & Dee"]
    cells = {(group.names[a], group.names[b]): (m.won, m.lost) for (a, b), m in meetings.items()}
    assert cells == {
        ("Eve & Gus", "Ann & Cal"): (1, 0),
        ("Ann & Cal", "Eve & Gus"): (0, 1),
        ("Eve & Gus", "Ben & Dee"): (1, 0),
        ("Ben & Dee", "Eve & Gus"): (0, 1),
        ("Ann & Cal", "Ben & Dee"): (1, 0),
        ("Ben & Dee", "Ann & Cal"): (0, 1),
    }
    (listed,) = data.listed
    assert (Path(listed.file).name, listed.status, listed.errors, listed.counted) == (
        "r4-bad.json",
        "problems",
        1,
        False,
    )


def test_include_problems_counts_the_faulty_record_marked(phat_event: Path) -> None:
    data = _standings(phat_event, include_problems=True)
    (group,) = data.sorted_groups()
    assert (group.records, group.marked) == (4, 1)
    ann_cal = next(t for t in group.ranked_teams() if t.name == "Ann & Cal")
    assert (ann_cal.played, ann_cal.won, ann_cal.points_for) == (3, 2, 292)  # the engine's 108, not the 69 recorded
    assert data.listed[0].counted


def test_the_ranking_breaks_ties_by_difference_then_points_for(tmp_path: Path) -> None:
    """Two partnerships with one win each: the larger point difference ranks first."""
    _write(tmp_path / "a.json", _phat_sheet([ANN, BEN, CAL, DEE], [[50, 38], [58, 30]], "1"))  # +40 for Ann & Cal
    _write(tmp_path / "b.json", _phat_sheet([ANN, BEN, CAL, DEE], [[38, 50], [38, 50]], "2"))  # +24 for Ben & Dee
    (group,) = _standings(tmp_path).sorted_groups()
    assert [(t.name, t.won, t.difference) for t in group.ranked_teams()] == [
        ("Ann & Cal", 1, 16),
        ("Ben & Dee", 1, -16),
    ]


def _oh_hell_sheet(names: list[str], bids: list[list[int]], taken: list[list[int]]) -> Json:
    """An Oh Hell score sheet of hands of 1 and 2 cards, scored by the default rules (10 + bid made, else 0)."""
    deals = []
    totals = [0] * len(names)
    for d, (b, t) in enumerate(zip(bids, taken, strict=True)):
        points = [10 + t[s] if b[s] == t[s] else 0 for s in range(len(names))]
        totals = [x + p for x, p in zip(totals, points, strict=True)]
        deals.append({"dealer": d % len(names), "bids": b, "taken": t, "score": {"points": points, "total": totals}})
    top = max(totals)
    return {
        "phatlog": "1.0",
        "game": "oh_hell",
        "rules": {"schedule": [1, 2]},
        "event": {"name": "Cup"},
        "players": [{"name": n, "id": n.lower()} for n in names],
        "deals": deals,
        "result": {"winner": [s for s, x in enumerate(totals) if x == top], "total": totals},
    }


def test_the_hand_counted_oh_hell_event(tmp_path: Path) -> None:
    """Game 1 (Ann, Ben, Cal): 21, 22, 10; Ben 2 placement points, Ann 1, Cal 0. Game 2 (Cal, Ann, Ben):
    12, 20, 20: Ann and Ben tie first, 1.5 each. By hand: Ben 3.5 (2 wins), 42 points, 4 of 4 bids made;
    Ann 2.5 (1 win), 41, 4 of 4; Cal 0, 22, 2 of 4."""
    _write(tmp_path / "g1.json", _oh_hell_sheet(["Ann", "Ben", "Cal"], [[0, 1, 0], [1, 1, 1]], [[0, 1, 0], [1, 1, 0]]))
    _write(tmp_path / "g2.json", _oh_hell_sheet(["Cal", "Ann", "Ben"], [[0, 0, 0], [2, 0, 0]], [[1, 0, 0], [2, 0, 0]]))
    for name in ("g1.json", "g2.json"):
        assert phatlog.verify(tmp_path / name).clean, name
    (group,) = _standings(tmp_path).sorted_groups()
    rows = [(r.name, r.played, r.wins, r.placement, r.score, r.bids_made, r.hands_bid) for r in group.ranked_oh_hell()]
    assert rows == [("Ben", 2, 2, 3.5, 42, 4, 4), ("Ann", 2, 1, 2.5, 41, 4, 4), ("Cal", 2, 0, 0.0, 22, 2, 4)]
    _, meetings = group.crosstable()
    cells = {(group.names[a], group.names[b]): (m.won, m.lost, m.level) for (a, b), m in meetings.items()}
    assert cells[("Ben", "Ann")] == (1, 0, 1)
    assert cells[("Ann", "Cal")] == (2, 0, 0)
    assert cells[("Cal", "Ben")] == (0, 2, 0)


# ------------------------------------------------------------------------------------- stats


def _one_card_hand(bids: list[int]) -> Json:
    """A one-card hand of Oh Hell, no trump: Ann holds AS, Ben KS, Cal 2C; Ben leads KS, Ann's AS wins."""
    return {
        "phatlog": "1.0",
        "game": "oh_hell",
        "rules": {"schedule": [1], "no_trump": "never"},
        "event": {"name": "Cup"},
        "players": [{"name": "Ann", "id": "a"}, {"name": "Ben", "id": "b"}, {"name": "Cal", "id": "c"}],
        "deals": [
            {
                "dealer": 0,
                "hands": [["AS"], ["KS"], ["2C"]],
                "turnup": "3H",
                "bids": bids,
                "tricks": [{"leader": 1, "cards": ["KS", "2C", "AS"]}],
            }
        ],
    }


def test_oh_hell_stats_by_hand() -> None:
    """Hand 1: bids 1, 0, 0, all made (11, 10, 10). Hand 2: bids 0, 1, 0: Ann over, Ben under, Cal made (0, 0, 10)."""
    data = Stats()
    for bids in ([1, 0, 0], [0, 1, 0]):
        data.add(phatlog.read(_one_card_hand(bids)), True)
    (group,) = data.sorted_groups()
    got = {p.name: p.as_json(True) for p in group.ranked()}
    keys = ("hands", "exact", "exact_percent", "over", "under", "mean_bid", "mean_taken", "zero_bids", "zero_made")
    assert {n: tuple(j[k] for k in (*keys, "points")) for n, j in got.items()} == {
        "Ann": (2, 1, 50.0, 1, 0, 0.5, 1.0, 1, 0, 11),
        "Ben": (2, 1, 50.0, 0, 1, 0.5, 0.0, 1, 1, 10),
        "Cal": (2, 2, 100.0, 0, 0, 0.0, 0.0, 2, 2, 20),
    }
    assert got["Ann"]["by_hand_size"] == {"1": {"hands": 2, "points": 11, "per_hand": 5.5}}


def test_a_revoke_is_attributed_to_its_player() -> None:
    data = Stats()
    record = phatlog.read(EVENT / "phat" / "round-3-table-2.json")
    assert not phatlog.verify(record).clean
    data.add(record, False)
    (group,) = data.sorted_groups()
    assert {p.name: (p.revokes, p.faults) for p in group.ranked()} == {
        "Ben": (1, 0),
        "Dee": (0, 0),
        "Eve": (0, 0),
        "Gus": (0, 0),
    }


@pytest.mark.parametrize("game", ["phat", "nine_card_don", "irish_don"])
def test_all_fours_stats_agree_with_the_referees_trace(game: str) -> None:
    """The events' figures against the referee's own replay (a different engine path): points, counters
    captured in tricks and the awards pegged, side by side; one pitch a played deal."""
    rules = {"bonus": "five_high_low_jack"} if game == "nine_card_don" else {}
    for rec in simulate(game, 4, 3, rules=rules):
        data = Stats()
        record = phatlog.read(rec)
        data.add(record, True)
        (group,) = data.sorted_groups()
        rows = [group.players[p.name] for p in record.players]
        heard = listen(record)
        assert heard.totals is not None
        for side in (0, 1):
            assert rows[side].points == rows[side + 2].points == heard.totals[side]
            counters = sum(t.points for d in heard.told for t in d.tricks if t.seat % 2 == side)
            assert rows[side].counters + rows[side + 2].counters == counters
            for label in ("muck", "game", "high", "low", "jack"):
                pegged = sum(1 for d in heard.told for b in d.bonuses if b.side == side and b.label == label)
                assert rows[side].awards[label] == pegged
        assert sum(r.pitches for r in rows) == len(heard.told)


def test_stats_for_one_player_and_grouped() -> None:
    code, out = _run("stats", "--player", "fay", "--by", "event", "-f", "json", str(EVENT))
    data = json.loads(out)
    assert code == 1  # the event holds a record with problems
    assert [g["group"] for g in data["groups"]] == ["Wherry Club Night", "Wherry Club Night"]
    assert all([p["key"] for p in g["players"]] == ["fay"] for g in data["groups"])
    assert [g["records"] for g in data["groups"]] == [3, 2]  # only the records Fay played in
    code, out = _run("stats", "--by", "rules", "-f", "json", str(EVENT / "phat"))
    assert [g["group"] for g in json.loads(out)["groups"]] == ["phat target=121"]


# ------------------------------------------------------------------------------------- every format


@pytest.mark.parametrize("command", ["standings", "stats"])
@pytest.mark.parametrize("fmt", ["rich", "text", "markdown", "csv", "json"])
def test_every_output_format(command: str, fmt: str) -> None:
    code, out = _run(command, "--format", fmt, str(EVENT))
    assert code == 1  # the revoke
    assert "Fay" in out
    if fmt == "json":
        data = json.loads(out)
        assert data["records"] == 10
    elif fmt == "csv":
        blocks = out.strip().split("\n\n")
        for block in blocks:
            rows = list(csv.reader(io.StringIO(block)))
            assert len({len(r) for r in rows}) == 1, block  # a header and rows of its width
    elif fmt == "markdown":
        assert "| --- |" in out or "| ---: |" in out
    else:
        assert ("Wherry Club Night" if command == "standings" else "All Fours family") in out


def test_standings_json_numbers(phat_event: Path) -> None:
    code, out = _run("standings", "-f", "json", str(phat_event))
    data = json.loads(out)
    assert code == 1
    (event,) = data["events"]
    assert event["partnerships"][0] == {
        "name": "Eve & Gus",
        "key": ["e", "g"],
        "played": 2,
        "won": 2,
        "lost": 0,
        "points_for": 208,
        "points_against": 144,
        "difference": 64,
        "with_problems": 0,
    }
    assert [x["status"] for x in data["not_clean"]] == ["problems"]


@pytest.mark.parametrize("command", ["standings", "stats"])
def test_two_processes_agree_with_one(phat_event: Path, command: str) -> None:
    one = _run(command, "-f", "json", str(phat_event))
    two = _run(command, "-f", "json", "--jobs", "2", str(phat_event))
    assert json.loads(one[1]) and one == two


def test_standings_of_nothing_readable(tmp_path: Path) -> None:
    code, out = _run("standings", "-f", "json", str(tmp_path / "none" / "*.json"))
    data = json.loads(out)
    assert code == 2 and data["events"] == [] and data["not_clean"][0]["status"] == "unreadable"


def test_names_from_records_are_printed_safely(tmp_path: Path) -> None:
    rec = _phat_sheet([("Ann\x1b[31m", "a"), BEN, CAL, DEE], [[50, 38], [58, 30]], "1")
    _write(tmp_path / "r.json", rec)
    code, out = _run("standings", "-f", "text", str(tmp_path))
    assert code == 0 and "\x1b" not in out and "Ann\\x1b[31m & Cal" in out
    code, out = _run("standings", "-f", "json", str(tmp_path))
    assert "Ann\\u001b[31m & Cal" in out


@pytest.mark.parametrize("players", [3, 5])
def test_oh_hell_bids_made_from_the_verdict_agree_with_the_trace(players: int) -> None:
    """The untraced verdict (the C kernel where built) counts the bids made that the traced replay shows."""
    for rec in simulate("oh_hell", 9, 3, players=players):
        record = phatlog.read(rec)
        fast = referee(record)
        told = listen(record).told
        counted = [(rec["deals"][d.index]["bids"], d.taken) for d in told if d.scorable and d.taken is not None]
        made = [sum(bids[s] == taken[s] for bids, taken in counted) for s in range(players)]
        assert fast.judged is not None
        assert (fast.made, len(fast.judged)) == (made, len(counted))
        assert len(fast.judged) == len(rec["deals"])


def test_include_problems_marks_each_row_that_counts_a_game_with_problems() -> None:
    """``--include-problems``: the rows whose games include one with problems are marked ``*`` (and
    counted in JSON as ``with_problems``); the others are not."""
    _, out = _run("standings", "--include-problems", "-f", "json", str(EVENT / "phat"))
    data = json.loads(out)
    (group,) = data["events"]
    marked = {row["name"]: row["with_problems"] for row in group["partnerships"]}
    assert sorted(marked.values()) == [0, 0, 1, 1]
    _, out = _run("standings", "--include-problems", "-f", "text", str(EVENT / "phat"))
    starred = {line.split("  ")[1].strip() for line in out.splitlines() if " * " in line or line.endswith(" *")}
    assert {name for name, n in marked.items() if n} <= {s.removesuffix(" *") for s in starred}
    _, out = _run("standings", "-f", "text", str(EVENT / "phat"))
    assert " * " not in out


@pytest.mark.parametrize("fmt", ["text", "csv", "html", "rich", "markdown"])
def test_a_crosstable_of_too_many_is_not_drawn_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """A crosstable grows as the square of its partnerships (21,000 players ran out of memory at 4 GB): past
    CROSSTABLE_MOST it is not drawn, a note says why, and JSON still lists every meeting."""
    import phatlog.events.standings as standings_module
    import phatlog.report.events as report_events

    monkeypatch.setattr(standings_module, "CROSSTABLE_MOST", 3)
    monkeypatch.setattr(report_events, "CROSSTABLE_MOST", 3)
    base = json.loads((REPO / "samples" / "games" / "phat-worked-6-2.json").read_text(encoding="utf-8"))
    lines = []
    for i in range(3):
        record = json.loads(json.dumps(base))
        record["event"] = {"name": "Cup"}
        for j, player in enumerate(record["players"]):
            player["name"], player["id"] = f"P{i}{j}", f"p{i}{j}"
        lines.append(json.dumps(record))
    archive = tmp_path / "cup.jsonl"
    archive.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["standings", "--format", fmt, str(archive), *(["-o", "-"] if fmt == "html" else [])]
    )
    assert result.exit_code == 0, result.output
    assert "not drawn: 6 partnerships, more than 3" in " ".join(result.output.split())
    data = json.loads(CliRunner().invoke(app, ["standings", "--format", "json", str(archive)]).output)
    (group,) = data["events"]
    assert sum(len(row["against"]) for row in group["crosstable"]) == 6  # each of 3 meetings, both ways


def test_one_player_in_two_seats_is_warned_of_and_counted_once(tmp_path: Path) -> None:
    """verify warns (PL210); standings and stats count the player once a game, never "Ann & Ann"."""
    from phatlog.api import verify

    record = json.loads((REPO / "samples" / "games" / "phat-worked-6-2.json").read_text(encoding="utf-8"))
    for i, player in enumerate(record["players"]):
        player["id"] = "ann" if i in (0, 2) else f"p{i}"
        player["name"] = "Ann" if i in (0, 2) else player["name"]
    (warning,) = [d for d in verify(record).diagnostics if d.code == "PL210"]
    assert warning.pointer == "/players/2/id" and "'ann' of seat 2 is also seat 0's" in warning.message
    archive = tmp_path / "twice.jsonl"
    archive.write_text(json.dumps(record) + "\n", encoding="utf-8")
    data = json.loads(CliRunner().invoke(app, ["standings", "--format", "json", str(archive)]).output)
    (group,) = data["events"]
    ann = [row for row in group["players"] if row["name"] == "Ann"]
    assert len(ann) == 1 and ann[0]["played"] == 1, ann
    stats = json.loads(CliRunner().invoke(app, ["stats", "--format", "json", str(archive)]).output)
    rows = [row for g in stats["groups"] for row in g["players"] if row["name"] == "Ann"]
    assert len(rows) == 1 and rows[0]["records"] == 1, rows
