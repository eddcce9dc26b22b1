"""``phatlog convert``: formats from file names, losses listed and refused without --lossy, all or nothing.

The command is tested on a small typer app of its own that registers it exactly as ``phatlog.cli.app`` does
(``app.command()(convert)``), so these tests do not depend on the main app.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from phatlog.cli.convert import EXIT_CLEAN, EXIT_LOSSY, EXIT_NOT_WRITTEN, convert
from phatlog.formats import canonical, csv_sheet, json_record, text
from phatlog.play.simulate import simulate

app = typer.Typer(pretty_exceptions_enable=False)


@app.callback()
def _root() -> None:
    """A stand-in for phatlog's app."""


app.command()(convert)

try:
    runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
except TypeError:  # newer click keeps stderr apart always
    runner = CliRunner()

Json = dict[str, Any]


def run(*args: str, stdin: str | bytes | None = None) -> Any:
    result = runner.invoke(app, ["convert", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def oh_hell(**rules: Any) -> Json:
    merged = {"hook": True, "miss": "tricks", "no_trump": "never", **rules}
    return next(iter(simulate("oh_hell", 5, 1, players=4, rules=merged)))


@pytest.fixture
def game_json(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(oh_hell()), encoding="utf-8")
    return path


def leftovers(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]


def test_json_to_text_and_back_is_clean(game_json: Path, tmp_path: Path) -> None:
    result = run(str(game_json), "-o", str(tmp_path / "game.txt"))
    assert result.exit_code == EXIT_CLEAN, result.stderr
    assert "converted 1 record" in result.stderr
    result = run(str(tmp_path / "game.txt"), "-o", str(tmp_path / "back.json"))
    assert result.exit_code == EXIT_CLEAN, result.stderr
    back = json.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    assert back == canonical(json.loads(game_json.read_text(encoding="utf-8")))
    assert (tmp_path / "back.json").read_text(encoding="utf-8") == json_record.dumps(back)
    assert leftovers(tmp_path) == []


def test_a_loss_is_listed_and_refused_without_lossy(game_json: Path, tmp_path: Path) -> None:
    out = tmp_path / "sheet.csv"
    out.write_text("the old sheet\n", encoding="utf-8")
    result = run(str(game_json), "-o", str(out))
    assert result.exit_code == EXIT_NOT_WRITTEN
    assert out.read_text(encoding="utf-8") == "the old sheet\n"
    assert "/deals/*/hands (13 places): warning PL702" in result.stderr
    assert "/deals/*/tricks (13 places): warning PL702" in result.stderr
    assert "--lossy" in result.stderr
    result = run(str(game_json), "-o", str(out), "--lossy")
    assert result.exit_code == EXIT_LOSSY
    assert "with losses" in result.stderr and "PL702" in result.stderr
    assert out.read_bytes().decode() == csv_sheet.dumps(json.loads(game_json.read_text()), lossy=True)
    assert leftovers(tmp_path) == []


def test_the_input_is_never_changed(game_json: Path, tmp_path: Path) -> None:
    before = game_json.read_bytes(), os.stat(game_json).st_mtime_ns
    for target in ("g.txt", "g.csv", "g.jsonl", "g.json"):
        run(str(game_json), "-o", str(tmp_path / target), "--lossy")
    assert (game_json.read_bytes(), os.stat(game_json).st_mtime_ns) == before
    result = run(str(game_json), "-o", str(game_json), "--to", "text")
    assert result.exit_code == EXIT_NOT_WRITTEN and "never writes over its input" in result.stderr
    assert game_json.read_bytes() == before[0]


def test_formats_are_named_where_the_name_does_not_say(game_json: Path, tmp_path: Path) -> None:
    result = run(str(game_json), "-o", str(tmp_path / "game.out"))
    assert result.exit_code == EXIT_NOT_WRITTEN and "--to" in result.stderr
    assert not (tmp_path / "game.out").exists()
    result = run(str(game_json), "-o", str(tmp_path / "game.out"), "--to", "text")
    assert result.exit_code == EXIT_CLEAN
    assert (tmp_path / "game.out").read_text(encoding="utf-8").startswith('[Phatlog "1.0"]')
    result = run(str(game_json), "-o", str(tmp_path / "x.txt"), "--to", "yaml")
    assert result.exit_code == EXIT_NOT_WRITTEN


def test_standard_input_and_output(game_json: Path) -> None:
    typed = text.dumps(json.loads(game_json.read_text(encoding="utf-8")))
    result = run("-", "--from", "text", "--to", "jsonl", stdin=typed)
    assert result.exit_code == EXIT_CLEAN, result.stderr
    assert json.loads(result.stdout) == canonical(json.loads(game_json.read_text(encoding="utf-8")))
    result = run("-", "--to", "json", stdin=typed)
    assert result.exit_code == EXIT_NOT_WRITTEN and "--from" in result.stderr
    assert result.stdout == ""


def test_an_archive_streams_and_one_bad_line_writes_nothing(tmp_path: Path) -> None:
    games = [json.dumps(g) for g in simulate("phat", 3, 30)]
    archive = tmp_path / "in.jsonl"
    archive.write_text("\n".join(games) + "\n", encoding="utf-8")
    result = run(str(archive), "-o", str(tmp_path / "out.ndjson"))
    assert result.exit_code == EXIT_CLEAN and "converted 30 records" in result.stderr
    lines = (tmp_path / "out.ndjson").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == [canonical(json.loads(g)) for g in games]
    games[20] = games[20].replace('"AD"', '"1D"', 1)
    archive.write_text("\n".join(games) + "\n", encoding="utf-8")
    result = run(str(archive), "-o", str(tmp_path / "bad.jsonl"))
    assert result.exit_code == EXIT_NOT_WRITTEN
    assert f"{archive}:21: /deals/" in result.stderr and "PL104" in result.stderr
    assert not (tmp_path / "bad.jsonl").exists() and leftovers(tmp_path) == []
    result = run(str(tmp_path / "out.ndjson"), "-o", str(tmp_path / "one.json"))
    assert result.exit_code == EXIT_NOT_WRITTEN and "holds one game" in result.stderr


def test_openspiel_needs_a_hand_chosen_from_a_longer_game(game_json: Path, tmp_path: Path) -> None:
    out = tmp_path / "hand.openspiel"
    result = run(str(game_json), "-o", str(out))
    assert result.exit_code == EXIT_NOT_WRITTEN and "PL703" in result.stderr and "--deal" in result.stderr
    result = run(str(game_json), "-o", str(out), "--deal", "3")
    assert result.exit_code == EXIT_NOT_WRITTEN and not out.exists()
    result = run(str(game_json), "-o", str(out), "--deal", "3", "--lossy")
    assert result.exit_code == EXIT_LOSSY, result.stderr
    assert "oh_hell(num_tricks_fixed=3,off_bid_penalty=False,players=4)" in out.read_text(encoding="utf-8")
    result = run(str(game_json), "-o", str(tmp_path / "x.txt"), "--deal", "3")
    assert result.exit_code == EXIT_NOT_WRITTEN and "--to openspiel" in result.stderr
    result = run(str(game_json), "-o", str(out), "--deal", "99", "--lossy")
    assert result.exit_code == EXIT_NOT_WRITTEN and "no hand 99" in result.stderr


def test_openspiel_refuses_what_it_cannot_hold_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "podrida.json"
    rec = oh_hell(must_trump=True, schedule=[2])
    path.write_text(json.dumps(rec), encoding="utf-8")
    result = run(str(path), "-o", str(tmp_path / "x.openspiel"), "--lossy")
    assert result.exit_code == EXIT_NOT_WRITTEN
    assert "/rules/must_trump: error PL703 cannot-represent" in result.stderr


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bad.txt", '[Game "phat"]\ndeal 1 dealer 0\n  1. 0: AD 2D 1H 3D\n', "bad.txt:3:15: /: error PL701"),
        ("bad.csv", "# game: oh_hell\ndeal,dealer,Ann bid\n1,Ann,x\n", "bad.csv:3:3: /: error PL701"),
        ("bad.openspiel", "[Game]\nchess()\n", "bad.openspiel:2:1: /: error PL703"),
        ("bad.json", '{"phatlog": "1.0",', "bad.json:1:19: /: error PL002"),
        ("bad.json", '{"phatlog": "1.0", "game": "whist"}', "bad.json: /game: error PL107"),
        ("utf16.txt", "\ufeff[Game]".encode("utf-16"), "error PL002"),
    ],
)
def test_bad_input_gives_diagnostics_never_a_traceback(
    tmp_path: Path, name: str, content: str | bytes, expected: str
) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    result = run(str(path), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == EXIT_NOT_WRITTEN
    assert expected in result.stderr.replace(str(tmp_path) + os.sep, "")
    assert "Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "out.jsonl").exists()


def test_unreadable_inputs_and_outputs(tmp_path: Path, game_json: Path) -> None:
    result = run(str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.txt"))
    assert result.exit_code == EXIT_NOT_WRITTEN and "no such file" in result.stderr
    (tmp_path / "dir.json").mkdir()
    result = run(str(tmp_path / "dir.json"), "-o", str(tmp_path / "x.txt"))
    assert result.exit_code == EXIT_NOT_WRITTEN and "a directory" in result.stderr
    result = run(str(game_json), "-o", str(tmp_path / "no" / "such" / "dir.txt"))
    assert result.exit_code == EXIT_NOT_WRITTEN and "cannot write" in result.stderr
    result = run(str(game_json), "-o", str(tmp_path / "x.txt"), "--max-bytes", "100")
    assert result.exit_code == EXIT_NOT_WRITTEN and "PL003" in result.stderr
    assert leftovers(tmp_path) == []


def test_the_command_registers_with_one_line() -> None:
    other = typer.Typer()

    @other.command()
    def validate() -> None:
        """Another command."""

    other.command()(convert)
    result = runner.invoke(other, ["convert", "--help"])
    assert result.exit_code == 0
    for option in ("--output", "--from", "--to", "--lossy", "--deal", "--max-bytes"):
        assert option in result.stdout


def test_the_output_gets_ordinary_permissions(game_json: Path, tmp_path: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    out = tmp_path / "new.txt"
    assert run(str(game_json), "-o", str(out)).exit_code == EXIT_CLEAN
    assert os.stat(out).st_mode & 0o777 == 0o666 & ~umask
    os.chmod(out, 0o640)
    assert run(str(game_json), "-o", str(out)).exit_code == EXIT_CLEAN
    assert os.stat(out).st_mode & 0o777 == 0o640


# ------------------------------------------------------------------------------------ --view SEAT

SAMPLE_GAMES = sorted((Path(__file__).resolve().parent.parent / "samples" / "games").glob("*.json"))


def _unplayed_by_others(record: Json, deal: Json, seat: int) -> set[str]:
    """The cards another seat was dealt in ``deal`` and did not play (and the undealt cards)."""
    hidden: set[str] = set(deal.get("undealt") or ())
    seats = len(record["players"])
    for other, hand in enumerate(deal.get("hands") or ()):
        if other != seat:
            played = {
                card
                for trick in deal.get("tricks") or ()
                for i, card in enumerate(trick["cards"])
                if (trick["leader"] + i) % seats == other
            }
            hidden |= set(hand) - played
    return hidden


def _texts(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_texts(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(_texts(v) for v in value), set())
    return set()


@pytest.mark.parametrize("path", SAMPLE_GAMES, ids=lambda p: p.name)
def test_a_view_never_shows_another_seats_unplayed_card_and_verifies(path: Path) -> None:
    from phatlog import verify
    from phatlog.archive.convert import seat_view

    record = canonical(json.loads(path.read_text(encoding="utf-8")))
    for seat in range(len(record["players"])):
        view = seat_view(record, seat)
        for deal, original in zip(view["deals"], record["deals"], strict=True):
            assert not _unplayed_by_others(record, original, seat) & _texts(deal)
        assert view["ext"]["phatlog_view"]["seat"] == seat
        for deal, original in zip(view["deals"], record["deals"], strict=True):
            if "hands" in original:
                assert deal["ext"]["phatlog_view"]["hand"] == original["hands"][seat]
        if seat == len(path.name) % len(record["players"]):  # one seat a record: verify is the slow part
            assert verify(view).clean, path.name


def test_convert_view_by_name_writes_a_view_that_verifies(tmp_path: Path) -> None:
    from phatlog import verify

    source = Path(__file__).resolve().parent.parent / "samples" / "games" / "oh-hell-worked-6-1.json"
    name = json.loads(source.read_text(encoding="utf-8"))["players"][2]["name"]
    result = run("--view", name, str(source), "-o", str(tmp_path / "view.json"))
    assert result.exit_code == EXIT_CLEAN, result.stderr
    view = json.loads((tmp_path / "view.json").read_text(encoding="utf-8"))
    assert all("hands" not in deal for deal in view["deals"])
    assert view["ext"]["phatlog_view"] == {"seat": 2, "name": name}
    assert verify(view).clean


@pytest.mark.parametrize("seat", ["9", "Nobody"])
def test_convert_view_of_a_seat_the_record_lacks_writes_nothing(seat: str, game_json: Path, tmp_path: Path) -> None:
    result = run("--view", seat, str(game_json), "-o", str(tmp_path / "view.json"))
    assert result.exit_code == EXIT_NOT_WRITTEN
    assert "PL703" in result.stderr and not (tmp_path / "view.json").exists()
