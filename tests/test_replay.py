"""``phatlog replay``: golden files for every renderer, agreement with the simulator, faults shown in place.

Golden files live in ``tests/golden/``: for each input below, ``NAME.txt`` (text), ``NAME.md`` (markdown),
``NAME.json`` (the JSON summary) and ``NAME.rich.txt`` (the rich rendering without colour, 120 columns).
They change only on purpose: after a deliberate change to the replay (or to an engine message it shows),
regenerate them (and the examples in docs/replay.md, which are checked the same way) with

    PHATLOG_REGEN_GOLDEN=1 .venv/bin/pytest -q tests/test_replay.py

and read the diff before committing it. ``tests/golden/inputs/`` holds records made for these tests
(an Oh Hell game, an Oh Hell revoke, two score sheets), frozen so that the goldens do not move when
the simulator or the samples do.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner, Result

from phatlog.cli.replay import replay
from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes
from phatlog.report import REPLAY_VERSION, Summary, build, markdown, text
from phatlog.report import rich as rich_report
from phatlog.report.summary import dumps
from phatlog.rules.cards import Card, Suit
from phatlog.rules.trick import winning_position

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
REGENERATE = os.environ.get("PHATLOG_REGEN_GOLDEN") == "1"
RICH_WIDTH = 120

#: The records with golden files: a fixed list (a new sample gets a golden only when added here).
GOLDEN_INPUTS = [
    "samples/games/phat-worked-6-2.json",
    "samples/games/phat-midgame-peg.json",
    "samples/invalid/revoke.json",
    "samples/invalid/wrong-points.json",
    "samples/invalid/tricks-after-win.json",
    "samples/games/nine-card-don-worked-6-3.json",
    "samples/games/nine-card-don-five-high-low-jack.json",
    "samples/games/irish-don-worked-6-2.json",
    "samples/games/oh-hell-worked-6-1.json",
    "samples/games/oh-hell-shared-win-4p.json",
    "tests/golden/inputs/oh-hell-4p.json",
    "tests/golden/inputs/oh-hell-revoke.json",
    "tests/golden/inputs/score-sheet-phat.json",
    "tests/golden/inputs/score-sheet-oh-hell.json",
    "samples/rulings/phat-claim-partly-played.json",  # format 1.1: a claim in place, after a partly played trick
    "samples/rulings/irish-don-claim-unsound.json",  # format 1.1: an unsound claim, its audit
    "samples/rulings/phat-revoke-penalty-1.json",  # format 1.1: a ruled revoke in its trick, its penalty
]


def as_json(summary: Summary) -> str:
    return dumps(summary.to_json())


def as_rich(summary: Summary) -> str:
    return rich_report.render_plain(summary, RICH_WIDTH)


RENDERERS: dict[str, Callable[[Summary], str]] = {
    "txt": text.render,
    "md": markdown.render,
    "json": as_json,
    "rich.txt": as_rich,
}


def summarise(rel: str, deal: int | None = None, trick: int | None = None) -> Summary:
    """The summary of a file in the repository, named by its path from the root (stable in goldens)."""
    return build(read_bytes((ROOT / rel).read_bytes(), rel), deal=deal, trick=trick)


def summary_of(record: dict[str, Any]) -> dict[str, Any]:
    return build(read_bytes(json.dumps(record).encode(), "<test>")).to_json()


# --------------------------------------------------------------------------- the command


def cli() -> typer.Typer:
    """``phatlog``'s app if it has the replay command; until then an app with that command alone."""
    from phatlog.cli.app import app

    if any(info.callback is replay for info in app.registered_commands):
        return app
    local = typer.Typer(pretty_exceptions_enable=False)
    local.command()(replay)

    @local.callback()
    def _root() -> None:
        """Several commands, so that ``replay`` is named on the command line as in phatlog."""

    return local


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in commands (and so in their output) are from the repository's root."""
    monkeypatch.chdir(ROOT)


def run(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(cli(), ["replay", *args], input=stdin, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def run_doc_command(command: str) -> str:
    """The output of a documented command line, "[NAME=VALUE ...] phatlog replay ARGS", run from the root."""
    words = shlex.split(command)
    at = words.index("phatlog")
    assert words[at + 1] == "replay", command
    env = dict(w.split("=", 1) for w in words[:at])
    out = run(*words[at + 2 :], env=env).stdout
    return "".join(line.rstrip() + "\n" for line in out.splitlines())  # as an editor keeps it


# --------------------------------------------------------------------------- golden files


@pytest.mark.parametrize("suffix", list(RENDERERS))
@pytest.mark.parametrize("rel", GOLDEN_INPUTS)
def test_golden(rel: str, suffix: str) -> None:
    rendered = RENDERERS[suffix](summarise(rel))
    path = GOLDEN / f"{Path(rel).stem}.{suffix}"
    if REGENERATE:
        path.write_text(rendered, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with PHATLOG_REGEN_GOLDEN=1 to write it"
    assert rendered == path.read_text(encoding="utf-8"), f"{path.name} differs (PHATLOG_REGEN_GOLDEN=1 rewrites it)"


def test_golden_inputs_exist() -> None:
    missing = [rel for rel in GOLDEN_INPUTS if not (ROOT / rel).exists()]
    assert not missing


def test_cli_default_off_a_terminal_is_the_text_golden() -> None:
    result = run("samples/games/phat-worked-6-2.json")
    assert result.exit_code == 0
    assert result.stdout == (GOLDEN / "phat-worked-6-2.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(("fmt", "suffix"), [("text", "txt"), ("markdown", "md"), ("json", "json")])
def test_cli_formats_are_the_goldens(fmt: str, suffix: str) -> None:
    result = run("samples/invalid/revoke.json", "--format", fmt)
    assert result.exit_code == 1
    assert result.stdout == (GOLDEN / f"revoke.{suffix}").read_text(encoding="utf-8")


def test_cli_rich_format() -> None:
    result = run("samples/games/phat-worked-6-2.json", "--format", "rich", env={"COLUMNS": "160"})
    assert result.exit_code == 0
    assert "N led A♦: diamonds are trump" in result.stdout
    assert "9♦ Big Phat 18 + A♦ 4 = 22" in result.stdout


def test_rich_colours_red_suits_and_text_has_no_escapes() -> None:
    summary = summarise("samples/games/phat-worked-6-2.json")
    console = Console(file=io.StringIO(), width=RICH_WIDTH, color_system="standard", force_terminal=True)
    rich_report.render(summary, console)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert re.search(r"\x1b\[[0-9;]*31m[^\x1b]*♦", out), "diamonds are red"
    assert not re.search(r"\x1b\[[0-9;]*31m[^\x1b]*♠", out), "spades are not"
    for render in (text.render, markdown.render, as_json):
        assert "\x1b" not in render(summary)


# --------------------------------------------------------------------------- agreement with the simulator

SIMULATED = [
    ("phat", {}),
    ("phat", {"rules": {"muck_tie": "carry", "target": 121, "peg_out": "end_of_deal"}}),
    ("nine_card_don", {}),
    ("nine_card_don", {"rules": {"bonus": "five_high_low_jack", "low_to": "capturer"}}),
    ("nine_card_don", {"rules": {"bonus": "six_high_jack", "follow": "follow_or_trump", "target": 91}}),
    ("irish_don", {}),
    ("oh_hell", {"players": 3, "rules": {"max_cards": 5}}),
    ("oh_hell", {"players": 5, "rules": {"schedule": "up_down", "max_cards": 4, "miss": "minus_diff"}}),
    ("oh_hell", {"players": 7, "rules": {"schedule": "down", "no_trump": "never", "must_trump": True}}),
]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("game", "options"), SIMULATED)
def test_simulated_games_agree_trick_by_trick(game: str, options: dict[str, Any], seed: int) -> None:
    """The JSON summary against facts found apart from the engine: each trick's winner recomputed from
    the record's cards and trump; each deal's points and totals as the simulator scored them."""
    record = next(simulate(game, seed, 1, **options))
    summary = summary_of(record)
    assert summary["status"] == "replayed" and summary["clean"], summary["counts"]
    seats = len(record["players"])
    pitch = game != "oh_hell"
    assert len(summary["deals"]) == len(record["deals"])
    previous = [0] * (2 if pitch else seats)
    for deal_rec, deal in zip(record["deals"], summary["deals"], strict=True):
        assert deal["kind"] == "play" and deal["scored"]
        assert deal["dealer"] == deal_rec["dealer"]
        if pitch:
            trump: Suit | None = Card.parse(deal_rec["tricks"][0]["cards"][0]).suit
            assert deal["pitcher"] == (deal_rec["dealer"] + 1) % 4
        else:
            trump = Card.parse(deal_rec["turnup"]).suit if "turnup" in deal_rec else None
            assert deal["first_bidder"] == (deal_rec["dealer"] + 1) % seats
        assert deal["trump"]["suit"] == (None if trump is None else trump.letter)
        assert len(deal["tricks"]) == len(deal_rec["tricks"])
        running = list(previous)
        taken = [0] * seats
        for trick_rec, trick in zip(deal_rec["tricks"], deal["tricks"], strict=True):
            leader = trick_rec["leader"]
            cards = [Card.parse(c) for c in trick_rec["cards"]]
            winner = (leader + winning_position(cards, trump)) % seats
            assert trick["replayed"] and trick["scored"]
            assert trick["leader"] == leader
            assert [p["card"] for p in trick["plays"]] == trick_rec["cards"]
            assert [p["seat"] for p in trick["plays"]] == [(leader + i) % seats for i in range(seats)]
            assert trick["winner"] == winner
            assert trick["winning_card"] == trick_rec["cards"][(winner - leader) % seats]
            assert trick["why"]
            if pitch:
                assert trick["side"] == winner % 2
                assert trick["points"] == sum(c["points"] for c in trick["counters"])
                running[winner % 2] += trick["points"]
                assert trick["total"] == running
            else:
                taken[winner] += 1
                assert trick["taken"] == taken
            assert trick["cards"] == trick_rec["cards"]
        for peg in deal["bonuses"]:
            if peg["side"] is not None:
                running[peg["side"]] += peg["points"]
            assert peg["totals"] == running
        assert deal["points"] == deal_rec["score"]["points"]
        assert deal["totals"] == deal_rec["score"]["total"]
        assert [r["points"] for r in deal["rows"]] == deal_rec["score"]["points"]
        assert [r["total"] for r in deal["rows"]] == deal_rec["score"]["total"]
        if pitch:
            assert running == deal_rec["score"]["total"]
            assert [r["counters"] + (r["bonus"] or 0) for r in deal["rows"]] == deal_rec["score"]["points"]
        else:
            assert [r["bid"] for r in deal["rows"]] == deal_rec["bids"]
            assert [r["taken"] for r in deal["rows"]] == taken
            assert [r["made"] for r in deal["rows"]] == [b == t for b, t in zip(deal_rec["bids"], taken, strict=True)]
        previous = deal_rec["score"]["total"]
    end = summary["end"]
    assert end["winners"] == record["result"]["winner"]
    assert end["totals"] == record["result"]["total"]
    last, deals = record["deals"][-1], summary["deals"]
    if pitch and len(last["tricks"]) < {"nine_card_don": 9}.get(game, 13):
        assert end["how"] == "trick" and end["trick"] == len(last["tricks"]) and end["deal"] == len(deals)
        assert deals[-1]["tricks"][-1]["game_won"]
    elif not pitch:
        assert end["how"] == "last_hand"


# --------------------------------------------------------------------------- faults in place


def lines_of(summary: Summary) -> list[str]:
    return text.render(summary).splitlines()


def row_index(lines: list[str], trick: int) -> int:
    return next(i for i, line in enumerate(lines) if re.match(rf"\s+{trick}  \S", line))


def test_revoke_shown_at_its_trick() -> None:
    summary = summarise("samples/invalid/revoke.json")
    deal = summary.deals[0]
    second = deal.tricks[1]
    assert [d.code for d in second.diagnostics] == ["PL303"]
    assert [p.flagged for p in second.plays] == [False, True, False, False]  # Cal's TS, second to play
    assert second.plays[1].card == "TS" and second.plays[1].seat == 2
    assert deal.tricks[0].scored and not any(t.scored for t in deal.tricks[1:])
    assert all(t.replayed and t.winner is not None for t in deal.tricks)  # shown, judged, not scored
    assert [d.code for d in deal.diagnostics] == ["PL307"]
    lines = lines_of(summary)
    at = row_index(lines, 2)
    assert "T♠*!" not in lines[at] and "T♠!" in lines[at] and "not scored" in lines[at]
    assert "PL303" in lines[at + 1] and row_index(lines, 3) == at + 2


def test_wrong_score_beside_the_right_one() -> None:
    summary = summarise("samples/invalid/wrong-points.json")
    row = summary.deals[0].rows[0]
    assert (row.points, row.recorded_points, row.points_wrong) == (27, 28, True)
    assert not summary.deals[0].rows[1].points_wrong
    for render in (text.render, markdown.render, as_rich):
        assert "recorded 28, rules give 27" in render(summary)
    assert [d["code"] for d in summary.to_json()["deals"][0]["diagnostics"]] == ["PL401"]


def test_wrong_total_on_a_score_sheet() -> None:
    summary = summarise("tests/golden/inputs/score-sheet-phat.json")
    assert summary.deals[1].rows[1].total_wrong
    assert "recorded 97, rules give 96" in text.render(summary)
    assert all(d.kind == "score_sheet" and not d.tricks for d in summary.deals)


def test_tricks_after_the_win_shown_not_replayed() -> None:
    summary = summarise("samples/invalid/tricks-after-win.json")
    deal = summary.deals[-1]
    assert deal.tricks[3].game_won
    assert [d.code for d in deal.tricks[4].diagnostics] == ["PL305"]
    assert not any(t.replayed for t in deal.tricks[4:])
    assert summary.end is not None and summary.end.how == "trick"
    assert summary.end.text.startswith("Ann & Cal peg out at trick 4 of deal 4 with 188")


def test_game_level_diagnostics_at_the_end() -> None:
    summary = summarise("samples/invalid/wrong-result-winner.json")
    assert [d.code for d in summary.diagnostics] == ["PL403"]
    out = text.render(summary).splitlines()
    assert out.index(next(x for x in out if "PL403" in x)) > out.index(next(x for x in out if x.startswith("Result:")))


def test_peg_out_with_a_bonus() -> None:
    summary = summarise("samples/games/phat-muck-decides.json")
    assert summary.end is not None and summary.end.how == "bonus" and summary.end.bonus == "muck"
    assert summary.deals[-1].bonuses[-1].game_won
    assert "peg out with the muck at the end of deal" in summary.end.text


def test_oh_hell_winner_and_shared_win() -> None:
    def sheet(bids: list[int], taken: list[int], points: list[int]) -> dict[str, Any]:
        return {
            "phatlog": "1.0",
            "game": "oh_hell",
            "rules": {"schedule": [1]},
            "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cal"}],
            "deals": [{"dealer": 2, "bids": bids, "taken": taken, "score": {"points": points, "total": points}}],
        }

    single = summary_of(sheet([0, 1, 1], [0, 1, 0], [10, 11, 0]))
    assert single["clean"] and single["end"]["text"] == "Ben wins after the last hand with 11"
    assert [r["made"] for r in single["deals"][0]["rows"]] == [True, True, False]
    shared = summary_of(sheet([0, 0, 0], [1, 0, 0], [0, 10, 10]))
    assert shared["clean"] and shared["end"]["winners"] == [1, 2]
    assert shared["end"]["text"] == "Ben and Cal share the win after the last hand with 10 each"


def test_rules_that_cannot_be_applied() -> None:
    """Oh Hell with the hook and simultaneous bidding: nothing can be judged, the record is still shown."""
    record = json.loads((ROOT / "tests/data/worked_6_1.json").read_text())
    record["rules"].update(hook=True, bidding="simultaneous")
    summary = summary_of(record)
    assert not summary["clean"] and [d["code"] for d in summary["diagnostics"]] == ["PL601"]
    (deal,) = summary["deals"]
    assert deal["kind"] == "not_replayed" and not any(t["replayed"] for t in deal["tricks"])
    assert [r["recorded_points"] for r in deal["rows"]] == [0, 11, 10]
    assert summary["end"]["winners"] == [] and summary["end"]["text"].startswith("Not known")


def test_hostile_names_cannot_break_lines_or_colour_the_terminal() -> None:
    record = json.loads((ROOT / "samples/games/phat-worked-6-2.json").read_text())
    record["players"][0]["name"] = "N\x1b[31m\nfake line | **bold**"
    summary = build(read_bytes(json.dumps(record).encode(), "<test>"))
    for render in (text.render, markdown.render, as_rich):
        out = render(summary)
        assert "\x1b" not in out
        assert not any(line.startswith("fake line") for line in out.splitlines())
    assert "\\| \\*\\*bold\\*\\*" in markdown.render(summary)
    assert summary.to_json()["players"][0] == record["players"][0]["name"]  # the data stays as it is


def test_renderers_hold_no_game_logic() -> None:
    """Only ``summary`` reads the engine; the renderers and their shared layout see the summary only."""
    for name in ("fmt", "text", "markdown", "rich"):
        source = (ROOT / "phatlog" / "report" / f"{name}.py").read_text()
        for layer in ("phatlog.engine", "phatlog.referee", "phatlog.rules", "phatlog._native", "phatlog.record.reader"):
            assert layer not in source, (name, layer)


# --------------------------------------------------------------------------- selection


def test_select_a_deal() -> None:
    result = run("samples/games/phat-181.json", "--deal", "2", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [d["deal"] for d in data["deals"]] == [2]
    assert data["selection"] == {"deal": 2, "trick": None}
    assert data["end"] is None
    assert len(data["deals"][0]["tricks"]) == 13 and data["deals"][0]["rows"]
    out = run("samples/games/phat-181.json", "--deal", "2").stdout
    assert "Deal 2:" in out and "Deal 1:" not in out and "Deal 3:" not in out and "Result:" not in out


def test_select_a_trick() -> None:
    result = run("samples/invalid/revoke.json", "--deal", "1", "--trick", "2", "--format", "json")
    assert result.exit_code == 1  # the verdict is the whole record's
    data = json.loads(result.stdout)
    (deal,) = data["deals"]
    (trick,) = deal["tricks"]
    assert trick["trick"] == 2 and [d["code"] for d in trick["diagnostics"]] == ["PL303"]
    assert deal["rows"] == [] and deal["bonuses"] == []
    assert data["counts"]["outside_selection"] == 0
    out = run("samples/games/phat-181.json", "-d", "3", "-t", "5").stdout
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+  \S", line)]
    assert len(rows) == 1 and rows[0].split()[0] == "5"


def test_selection_counts_what_it_hides() -> None:
    data = json.loads(run("samples/invalid/revoke.json", "-d", "1", "-t", "1", "-f", "json").stdout)
    assert data["counts"] == {"error": 1, "warning": 1, "info": 0, "outside_selection": 1}
    assert "(1 outside the selection)" in run("samples/invalid/revoke.json", "-d", "1", "-t", "1").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deal", "99"], "there is no deal 99: the record has 4 deals"),
        (["--trick", "1"], "--trick needs --deal"),
        (["--deal", "1", "--trick", "14"], "there is no trick 14 in deal 1: it has 13 tricks"),
        (["--deal", "0"], ""),
        (["--format", "pdf"], ""),  # html and svg are formats now (tests/test_html.py)
    ],
)
def test_bad_selection_is_a_usage_error(args: list[str], message: str) -> None:
    result = run("samples/games/phat-181.json", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


# --------------------------------------------------------------------------- bad input and exit codes


@pytest.mark.parametrize(
    ("path", "code", "status"),
    [
        ("samples/games/phat-181.json", 0, "replayed"),
        ("samples/invalid/revoke.json", 1, "replayed"),
        ("samples/invalid/hand-of-12.json", 1, "invalid"),
        ("samples/invalid/unknown-game.json", 1, "invalid"),
        ("samples/invalid/not-json.json", 2, "unreadable"),
        ("samples/invalid/empty.json", 2, "unreadable"),
        ("samples/invalid/too-deep.json", 2, "unreadable"),
        ("samples/invalid/not-utf8.json", 2, "unreadable"),
        ("samples/invalid/no-such-file.json", 2, "unreadable"),
        ("samples/invalid", 2, "unreadable"),
    ],
)
def test_exit_codes(path: str, code: int, status: str) -> None:
    for fmt in ("text", "markdown", "rich"):
        assert run(path, "--format", fmt).exit_code == code
    result = run(path, "--format", "json")
    assert result.exit_code == code
    data = json.loads(result.stdout)
    assert data["phatlog_replay"] == REPLAY_VERSION and data["status"] == status
    assert data["clean"] is (code == 0)
    if status != "replayed":
        assert data["deals"] == [] and data["diagnostics"]


def test_invalid_record_prints_its_diagnostics_not_a_replay() -> None:
    result = run("samples/invalid/hand-of-12.json", "--format", "text")
    assert "PL105" in result.stdout and "(deal 1, Cal's hand)" in result.stdout
    assert "Deal 1:" not in result.stdout
    assert result.stdout.rstrip().endswith("Not a valid record: the replay cannot run")


def test_standard_input() -> None:
    data = (ROOT / "samples/games/phat-worked-6-2.json").read_bytes()
    result = run("-", "--format", "json", stdin=data)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["source"] == "<stdin>"
    assert run("-", stdin=b"{").exit_code == 2
    assert run("-", "--max-bytes", "10", stdin=data).exit_code == 2


# --------------------------------------------------------------------------- the JSON shape (docs/replay.md)

TOP_KEYS = [
    "phatlog_replay",
    "status",
    "source",
    "game",
    "game_name",
    "players",
    "sides",
    "rules",
    "event",
    "comment",
    "selection",
    "deals",
    "end",
    "diagnostics",
    "counts",
    "clean",
]
DEAL_KEYS = [
    "deal",
    "kind",
    "dealer",
    "pitcher",
    "first_bidder",
    "cards_each",
    "hands",
    "hands_from",
    "undealt",
    "trump",
    "bids",
    "bidding_order",
    "tricks",
    "bonuses",
    "captured",
    "rows",
    "points",
    "totals",
    "scored",
    "comment",
    "notes",
    "diagnostics",
]
TRICK_KEYS = [
    "trick",
    "leader",
    "plays",
    "replayed",
    "scored",
    "winner",
    "winning_card",
    "why",
    "side",
    "points",
    "counters",
    "total",
    "taken",
    "game_won",
    "comment",
    "notes",
    "diagnostics",
    "cards",
]


def test_json_shape_is_the_documented_one() -> None:
    data = summarise("samples/games/nine-card-don-five-high-low-jack.json").to_json()
    assert list(data) == TOP_KEYS
    assert all(list(d) == DEAL_KEYS for d in data["deals"])
    assert all(list(t) == TRICK_KEYS for d in data["deals"] for t in d["tricks"])
    assert json.loads(dumps(data)) == data
    doc = (ROOT / "docs" / "replay.md").read_text(encoding="utf-8")
    for key in {*TOP_KEYS, *DEAL_KEYS, *TRICK_KEYS}:
        assert f"`{key}`" in doc, f"docs/replay.md does not describe {key}"
    assert f'"phatlog_replay": "{REPLAY_VERSION}"' in doc


DOC_EXAMPLE = re.compile(r"```console\n\$ ((?:\w+=\S+ )*phatlog .*?)\n(.*?)```", re.DOTALL)


def test_docs_examples_are_current() -> None:
    """Every example in docs/replay.md is a real run: the command's output, exactly (but for spaces at the
    ends of lines, which rich leaves where it wraps)."""
    path = ROOT / "docs" / "replay.md"
    doc = path.read_text(encoding="utf-8")
    if REGENERATE:
        doc = DOC_EXAMPLE.sub(lambda m: f"```console\n$ {m[1]}\n{run_doc_command(m[1])}```", doc)
        path.write_text(doc, encoding="utf-8")
    examples = DOC_EXAMPLE.findall(doc)
    assert len(examples) >= 4
    formats = set()
    for command, output in examples:
        assert run_doc_command(command) == output, f"{command} (PHATLOG_REGEN_GOLDEN=1 rewrites the example)"
        found = re.search(r"--format (\w+)", command)
        formats.add(found.group(1) if found else "text")
    assert formats == {"text", "rich", "markdown", "json"}


def test_rich_fits_a_narrow_terminal() -> None:
    """At 80 columns the long columns wrap; the cards, names and numbers are never cut short."""
    out = rich_report.render_plain(summarise("samples/invalid/revoke.json"), 80)
    assert "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert re.search(r"^\s+2 Ben\s+4♣\s+T♣\*\s+T♠!\s+2♣\s+Ben", out, re.MULTILINE)


# --------------------------------------------------------------------------- built from the engine's events

CLEAN_SAMPLES = [
    "phat-worked-6-2.json",
    "nine-card-don-worked-6-3.json",
    "irish-don-end-of-deal.json",
    "oh-hell-worked-6-1.json",
    "oh-hell-trump-every-hand-7p.json",
    "oh-hell-up-and-down-5p.json",
]


@pytest.mark.parametrize("name", CLEAN_SAMPLES)
def test_a_clean_record_is_summarised_from_the_referee_events(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The summary's tricks, winners and reasons are the referee's events: a visitor told another reason
    for every trick shows it on every trick, and nothing else changes."""
    import dataclasses

    import phatlog.report.summary as summary_module
    from phatlog.engine.state import Event, TrickWon
    from phatlog.referee.heard import Gather

    path = ROOT / "samples" / "games" / name
    want = build(read_bytes(path.read_bytes(), name)).to_json()

    class Told(Gather):
        def __call__(self, event: Event) -> None:
            super().__call__(dataclasses.replace(event, why="told") if isinstance(event, TrickWon) else event)

    monkeypatch.setattr(summary_module, "Gather", Told)
    got = build(read_bytes(path.read_bytes(), name)).to_json()
    whys = [t["why"] for d in got["deals"] for t in d["tricks"]]
    assert whys and set(whys) == {"told"}
    for d in got["deals"] + want["deals"]:
        for t in d["tricks"]:
            t["why"] = "told"
    assert got == want
