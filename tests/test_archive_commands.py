"""The archive commands (docs/archives.md): duplicates in verify, select, fingerprint, replay of an
archive's record, whole archives through the text notation and the CSV table, seat views against the master.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from phatlog.archive.atomic import Files
from phatlog.archive.check import check_all
from phatlog.archive.convert import seat_view
from phatlog.archive.duplicates import DuplicateTracker
from phatlog.archive.master import compare
from phatlog.cli.app import app
from phatlog.formats import table, text
from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes

runner = CliRunner()
GAMES = Path(__file__).resolve().parent.parent / "samples" / "games"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def line(record: Any) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    return [*simulate("phat", 11, 6), *simulate("oh_hell", 12, 3, players=5), *simulate("nine_card_don", 13, 3)]


@pytest.fixture
def archive(tmp_path: Path, games: list[dict[str, Any]]) -> Path:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(line(g) for g in games), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------- duplicates


def codes_by_line(path: Path, jobs: int, deals: bool = True) -> list[tuple[int | None, str]]:
    tracker = DuplicateTracker(deals=deals)
    found = []
    for result in check_all([str(path)], True, jobs=jobs, fingerprints=2 if deals else 1):
        tracker.apply(result)
        found += [(d.line, d.code) for r in result.reports for d in r.diagnostics if d.code.startswith("PL80")]
    return found


def test_a_record_read_twice_is_reported_at_the_copy_whatever_its_spelling(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    lines = [line(g) for g in games]
    respelt = json.dumps(dict(reversed(list(games[2].items()))), indent=None, separators=(", ", ": ")) + "\n"
    path = tmp_path / "twice.jsonl"
    path.write_text("".join(lines) + "\n" + respelt + lines[0], encoding="utf-8")
    code, out, err = run("verify", str(path))
    assert code == 0
    copies = [x for x in out.splitlines() if "PL801" in x]
    assert copies == [
        f"{path}:{len(lines) + 2}: /: warning PL801 duplicate-record: this record is the same game as {path}:3 "
        "(the same fingerprint: the same canonical form); a record submitted twice?",
        f"{path}:{len(lines) + 3}: /: warning PL801 duplicate-record: this record is the same game as {path}:1 "
        "(the same fingerprint: the same canonical form); a record submitted twice?",
    ]
    assert "2 warnings" in err
    assert codes_by_line(path, 1) == codes_by_line(path, 2) == [(len(lines) + 2, "PL801"), (len(lines) + 3, "PL801")]
    assert run("verify", "--duplicates", "off", str(path))[1] == ""


def test_a_deal_dealt_twice_is_reported_with_duplicates_deals(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    other = copy.deepcopy(games[0])
    other["deals"] = other["deals"][:1]
    other["deals"][0]["hands"] = [list(reversed(h)) for h in other["deals"][0]["hands"]]  # the same sets
    other.pop("result", None)
    other["result"] = {"status": "unfinished"}
    path = tmp_path / "deals.jsonl"
    path.write_text(line(games[0]) + line(games[1]) + line(other), encoding="utf-8")
    assert codes_by_line(path, 1, deals=False) == []
    assert codes_by_line(path, 1) == codes_by_line(path, 2) == [(3, "PL802")]
    code, out, _ = run("verify", "--duplicates", "deals", str(path))
    assert code == 0
    assert (
        f"{path}:3: /deals/0/hands: warning PL802 duplicate-deal: deal 1 has the same hands as deal 1 of {path}:1"
        in out
    )
    moved = copy.deepcopy(other)
    moved["deals"][0]["dealer"] = (moved["deals"][0]["dealer"] + 1) % 4
    path.write_text(line(games[0]) + line(moved), encoding="utf-8")
    assert codes_by_line(path, 1) == []


def test_duplicates_across_files_name_the_first_file(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.jsonl"
    one.write_text(json.dumps(games[4], indent=2), encoding="utf-8")
    two.write_text(line(games[3]) + line(games[4]), encoding="utf-8")
    _, out, _ = run("verify", str(one), str(two))
    assert f"{two}:2: /: warning PL801 duplicate-record: this record is the same game as {one} " in out


# ---------------------------------------------------------------------------------------- fingerprint


def test_fingerprint_prints_a_line_a_record_in_order_with_any_jobs(archive: Path, tmp_path: Path) -> None:
    code, out, _ = run("fingerprint", str(archive))
    assert code == 0
    rows = out.splitlines()
    assert [r.split("  ")[0] for r in rows] == [f"{archive}:{n}" for n in range(1, 13)]
    assert run("fingerprint", "-j", "2", str(archive))[1] == out
    bad = tmp_path / "bad.jsonl"
    bad.write_text(archive.read_text().splitlines()[0] + '\n{"phatlog": "1.0"}\n', encoding="utf-8")
    code, out, err = run("fingerprint", str(bad))
    assert code == 1 and len(out.splitlines()) == 1 and f"{bad}:2: " in err
    with_deals = run("fingerprint", "--deals", str(archive))[1].splitlines()
    assert f"{archive}:1  deal 1  " in with_deals[1]


# ---------------------------------------------------------------------------------------- select


def selected(*args: str) -> tuple[int, str]:
    code, out, _ = run("select", *args, "-o", "-")
    return code, out


def test_select_writes_each_record_as_the_line_it_was_read_from(archive: Path, tmp_path: Path) -> None:
    odd = tmp_path / "odd.jsonl"
    lines = archive.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = json.dumps(json.loads(lines[0]), indent=None) + "  \n"  # other spacing: kept as it is
    odd.write_text("".join(lines), encoding="utf-8")
    code, out = selected(str(odd))
    assert code == 0 and out == "".join(lines)
    target = tmp_path / "out.jsonl"
    assert run("select", str(odd), "-j", "2", "-o", str(target))[0] == 0
    assert target.read_bytes() == odd.read_bytes()


def test_select_filters(archive: Path, games: list[dict[str, Any]]) -> None:
    def count(*args: str) -> int:
        code, out, _ = run("select", str(archive), *args, "--count")
        assert code == 0
        return int(out)

    assert count() == 12
    assert count("--game", "phat") == 6
    assert count("--game", "phat", "--game", "oh_hell") == 9
    assert count("--player", "eve") == 3  # Oh Hell's fifth player, any case
    assert count("--player", "E*") == 3
    assert count("--rule", "target=181") == 6
    assert count("--game", "phat", "--rule", "target=121") == 0
    assert count("--rule", "target=121") == 3  # Nine-card Don's default
    assert count("--status", "clean") == 12
    assert count("--status", "problems") == 0
    assert count("--event", "*") == 0  # simulated games name no event
    assert count("--since", "2000-01-01") == 0  # simulated games have no date


def test_select_by_event_round_and_date(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    dated = []
    for i, g in enumerate(games[:6]):
        g = copy.deepcopy(g)
        g["event"] = {"name": "League" if i % 2 else "Cup", "round": str(i), "date": f"2026-11-{10 + i:02d}"}
        dated.append(g)
    path = tmp_path / "dated.jsonl"
    path.write_text("".join(line(g) for g in dated), encoding="utf-8")
    out = selected(str(path), "--event", "league", "--since", "2026-11-12", "--until", "2026-11-14")[1]
    assert [json.loads(x)["event"]["round"] for x in out.splitlines()] == ["3"]
    assert len(selected(str(path), "--round", "1", "--round", "2")[1].splitlines()) == 2


def test_select_status_code_and_invalid_records(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    bad = copy.deepcopy(games[0])
    bad["deals"][0]["score"]["points"][0] += 1
    path = tmp_path / "mixed.jsonl"
    path.write_text(line(games[1]) + line(bad) + '{"phatlog": "1.0", "game": "phat"}\n', encoding="utf-8")
    code, out = selected(str(path), "--status", "problems")
    assert code == 0 and len(out.splitlines()) == 2
    assert selected(str(path), "--code", "PL401")[1] == line(bad)
    code, out = selected(str(path))
    assert code == 1 and out == line(games[1]) + line(bad)  # the line that is not a record: not selected
    assert run("select", str(path), "--code", "PL999", "--count")[0] == 2


def test_select_dedupe_and_split(tmp_path: Path, archive: Path, games: list[dict[str, Any]]) -> None:
    twice = tmp_path / "twice.jsonl"
    twice.write_text(archive.read_text() + archive.read_text(), encoding="utf-8")
    assert selected(str(twice), "--dedupe")[1] == archive.read_text()
    assert selected(str(twice), "--dedupe", "-j", "2")[1] == archive.read_text()
    out = tmp_path / "split"
    code, _, _ = run("select", str(twice), "--dedupe", "--split-by", "player", "-o", str(out))
    assert code == 0
    names = sorted(os.listdir(out))
    assert names == ["Ann.jsonl", "Ben.jsonl", "Cal.jsonl", "Dee.jsonl", "Eve.jsonl"]
    assert len((out / "Eve.jsonl").read_text().splitlines()) == 3
    assert len((out / "Ann.jsonl").read_text().splitlines()) == 12
    code, counted, _ = run("select", str(archive), "--split-by", "game", "--count")
    assert counted.splitlines() == ["3\tnine_card_don", "3\toh_hell", "6\tphat"]


def test_select_writes_nothing_when_an_input_cannot_be_read(tmp_path: Path, archive: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("before\n", encoding="utf-8")
    code, _, err = run("select", str(archive), str(tmp_path / "missing.json"), "-o", str(target))
    assert code == 2 and "nothing written" in err
    assert target.read_text() == "before\n"


def test_files_keeps_few_open_and_commits_all_or_nothing(tmp_path: Path) -> None:
    with Files(open_max=2) as out:
        for i in range(20):
            out.write(str(tmp_path / f"{i % 7}.jsonl"), f"{i}\n")
        out.commit()
    assert sorted(os.listdir(tmp_path)) == [f"{i}.jsonl" for i in range(7)]
    assert (tmp_path / "0.jsonl").read_text() == "0\n7\n14\n"
    with Files(open_max=2) as out:
        out.write(str(tmp_path / "new.jsonl"), "x\n")
    assert sorted(os.listdir(tmp_path)) == [f"{i}.jsonl" for i in range(7)]  # not committed: nothing left


# ---------------------------------------------------------------------------------------- replay


def test_replay_a_record_of_an_archive(archive: Path, tmp_path: Path) -> None:
    by_address = run("replay", f"{archive}:2", "--format", "json")
    by_option = run("replay", str(archive), "--record", "2", "--format", "json")
    assert by_address[0] == by_option[0] == 0
    assert json.loads(by_address[1])["source"] == f"{archive}:2"
    assert json.loads(by_address[1]) == json.loads(by_option[1])
    code, _, err = run("replay", f"{archive}:99")
    assert code == 2 and "no record on line 99" in err
    spaced = tmp_path / "spaced.jsonl"
    spaced.write_text("\n" + archive.read_text(), encoding="utf-8")
    assert run("replay", f"{spaced}:1")[0] == 2
    assert run("replay", f"{spaced}:2", "--format", "json")[1].replace(str(spaced), "X").replace(":2", ":n") == (
        run("replay", f"{archive}:1", "--format", "json")[1].replace(str(archive), "X").replace(":1", ":n")
    )


# ---------------------------------------------------------------------------------------- whole archives


def fingerprints(path: Path) -> list[str]:
    return [x.split("  ")[1] for x in run("fingerprint", str(path))[1].splitlines()]


@pytest.mark.parametrize("suffix", [".txt", ".csv"])
def test_a_whole_archive_goes_through_text_and_the_table_and_back(tmp_path: Path, archive: Path, suffix: str) -> None:
    all_samples = tmp_path / "all.jsonl"
    all_samples.write_text(
        archive.read_text() + "".join(line(json.loads(p.read_text())) for p in sorted(GAMES.glob("*.json"))),
        encoding="utf-8",
    )
    middle, back = tmp_path / f"mid{suffix}", tmp_path / "back.jsonl"
    code, _, err = run("convert", str(all_samples), "-o", str(middle))
    assert code == 0, err
    code, _, err = run("convert", str(middle), "-o", str(back))
    assert code == 0, err
    assert fingerprints(back) == fingerprints(all_samples)
    assert len(fingerprints(back)) == 12 + len(list(GAMES.glob("*.json")))


def test_the_table_has_a_row_a_deal_a_side_with_file_and_line(archive: Path, tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    assert run("convert", str(archive), "-o", str(target))[0] == 0
    rows = target.read_text(encoding="utf-8").splitlines()
    assert rows[0] == ",".join(table.COLUMNS)
    games = [json.loads(x) for x in archive.read_text().splitlines()]
    sides = sum(len(g["deals"]) * (len(g["players"]) if g["game"] == "oh_hell" else 2) for g in games)
    assert len(rows) == 1 + sides
    assert rows[1].startswith(f"{archive},1,phat,")


def test_a_comment_with_a_separator_line_survives_the_text_archive(games: list[dict[str, Any]]) -> None:
    one, two = copy.deepcopy(games[0]), copy.deepcopy(games[1])
    one["comment"] = "before\n%%\nafter"
    one["deals"][0]["comment"] = "x\n  %%  \ny"
    written = text.dumps(one) + text.SEPARATOR + text.dumps(two)
    back = list(text.loads(written))
    assert [p.diagnostics for p in back] == [[], []]
    assert back[0].record is not None and back[0].record["comment"] == "before\n%%\nafter"
    assert back[1].line is not None and back[1].line > 1


def test_a_text_archive_names_the_file_line_of_a_bad_game(games: list[dict[str, Any]]) -> None:
    first = text.dumps(games[0])
    broken = text.dumps(games[1]).replace("dealer", "dealer ZZ", 1)
    parsed = list(text.loads(first + text.SEPARATOR + broken))
    assert parsed[0].record is not None and parsed[1].record is None
    d = parsed[1].diagnostics[0]
    start = first.count("\n") + 3
    assert d.line is not None and d.line > start
    assert f"(line {d.line}," in d.message


def test_a_broken_table_is_refused_at_its_line(tmp_path: Path, archive: Path) -> None:
    target = tmp_path / "t.csv"
    run("convert", str(archive), "-o", str(target))
    rows = target.read_text(encoding="utf-8").splitlines(keepends=True)
    cells = rows[3].split(",")
    cells[11] = "many"
    rows[3] = ",".join(cells)
    parsed = list(table.loads("".join(rows)))
    assert parsed[-1].record is None and parsed[-1].diagnostics[0].code == "PL701"
    assert parsed[-1].diagnostics[0].line == 4


# ---------------------------------------------------------------------------------------- seat views


def views(record: dict[str, Any]) -> list[Any]:
    out = []
    for seat in range(len(record["players"])):
        loaded = read_bytes(json.dumps(seat_view(record, seat)).encode())
        assert loaded.record is not None
        out.append(loaded.record)
    return out


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.json"))[::4], ids=lambda p: p.name)
def test_every_seat_view_of_a_sample_agrees_with_its_master(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    master = read_bytes(path.read_bytes()).record
    for view in views(record):
        assert compare(master, view) == []


def doctored(record: dict[str, Any], seat: int, change: Any) -> list[tuple[str, str]]:
    view = seat_view(record, seat)
    change(view)
    loaded = read_bytes(json.dumps(view).encode())
    assert loaded.record is not None
    master = read_bytes(json.dumps(record).encode()).record
    return [(d.code, d.pointer) for d in compare(master, loaded.record)]


def test_each_kind_of_doctoring_is_caught_at_its_place(games: list[dict[str, Any]]) -> None:
    phat, oh = games[0], games[6]

    def hand(v: Any) -> None:
        h = v["deals"][1]["ext"]["phatlog_view"]["hand"]
        h[3] = next(c for c in ("2C", "3C", "4C") if c not in h)

    def card(v: Any) -> None:
        v["deals"][0]["tricks"][4]["cards"][2] = "AS" if v["deals"][0]["tricks"][4]["cards"][2] != "AS" else "KS"

    def trick_gone(v: Any) -> None:
        v["deals"][0]["tricks"].pop()

    def score(v: Any) -> None:
        v["deals"][0]["score"]["total"][1] += 5

    def player(v: Any) -> None:
        v["players"][2]["name"] = "Zed"

    def bid(v: Any) -> None:
        v["deals"][0]["bids"][1] += 1

    def seen(v: Any) -> None:
        v["deals"][0]["hands"] = copy.deepcopy(phat["deals"][0]["hands"])

    def no_seat(v: Any) -> None:
        del v["ext"]["phatlog_view"]

    assert doctored(phat, 1, hand) == [("PL805", "/deals/1/ext/phatlog_view/hand/3")]
    assert doctored(phat, 1, card) == [("PL806", "/deals/0/tricks/4/cards/2")]
    assert doctored(phat, 1, trick_gone) == [("PL806", "/deals/0/tricks")]
    assert doctored(phat, 3, score) == [("PL808", "/deals/0/score/total/1")]
    assert doctored(phat, 0, player) == [("PL804", "/players/2/name")]
    assert doctored(oh, 2, bid) == [("PL807", "/deals/0/bids/1")]
    assert doctored(phat, 0, seen) == [("PL809", "/deals/0/hands")]
    assert doctored(phat, 0, no_seat) == [("PL803", "/ext/phatlog_view/seat")]


def test_verify_master_exit_codes(tmp_path: Path) -> None:
    master = GAMES / "phat-181.json"
    view = tmp_path / "w.json"
    assert run("convert", str(master), "--view", "2", "-o", str(view))[0] == 0
    assert run("verify", "--master", str(master), str(view))[0] == 0
    assert run("verify", "--master", str(tmp_path / "none.json"), str(view))[0] == 2
    forged = json.loads(view.read_text())
    forged["deals"][0]["score"]["points"][0] += 1
    view.write_text(json.dumps(forged), encoding="utf-8")
    code, out, _ = run("verify", "--master", str(master), str(view))
    assert code == 1 and "PL808 view-score" in out


@pytest.mark.parametrize("option", [["--cluster", "tcp://127.0.0.1:1"], ["--duplicates", "off"]])
def test_verify_master_refuses_an_option_it_would_ignore(tmp_path: Path, option: list[str]) -> None:
    """``verify --master`` compares views, it does not referee them: ``--cluster`` and ``--duplicates``
    given with it are refused (exit 2, naming the option), not silently ignored."""
    master = GAMES / "phat-181.json"
    view = tmp_path / "w.json"
    assert run("convert", str(master), "--view", "2", "-o", str(view))[0] == 0
    code, out, err = run("verify", "--master", str(master), str(view), *option)
    assert code == 2 and option[0] in err and "does not apply" in err and out == ""


@pytest.mark.deep
def test_verify_master_checks_views_in_several_processes_alike(tmp_path: Path) -> None:
    """``verify --master`` honours ``--jobs``: an archive of many views, some doctored, gives the same
    output, line for line, with one process and with two (it ignored ``--jobs`` before)."""
    master = GAMES / "phat-181.json"
    lines = []
    for k in range(4):
        view = tmp_path / f"v{k}.json"
        assert run("convert", str(master), "--view", str(k), "-o", str(view))[0] == 0
        lines.append(json.loads(view.read_text()))
    many = []
    for i in range(1200):  # more than two batches of lines
        v = copy.deepcopy(lines[i % 4])
        if i % 97 == 5:
            v["deals"][0]["score"]["total"][1] += 1
        many.append(json.dumps(v, separators=(",", ":")))
    archive = tmp_path / "views.jsonl"
    archive.write_text("\n".join(many) + "\n", encoding="utf-8")
    one = run("verify", "--master", str(master), str(archive), "--format", "json", "-j", "1")
    two = run("verify", "--master", str(master), str(archive), "--format", "json", "-j", "2")
    assert one[0] == two[0] == 1
    assert one[1] == two[1] and one[1].count("PL808") == len([i for i in range(1200) if i % 97 == 5])


def test_select_never_writes_over_its_input(tmp_path: Path, archive: Path) -> None:
    before = archive.read_bytes()
    code, _, err = run("select", str(archive), "-o", str(archive))
    assert code == 2 and "is an input" in err
    split = tmp_path / "split"
    split.mkdir()
    inside = split / "phat.jsonl"
    inside.write_bytes(before)
    code, _, err = run("select", str(inside), "--split-by", "game", "-o", str(split))
    assert code == 2 and "is an input" in err
    assert inside.read_bytes() == before == archive.read_bytes()
    assert sorted(os.listdir(split)) == ["phat.jsonl"]  # nothing else left behind


def test_an_archive_named_csv_is_the_table_and_reads_back_from_standard_input(archive: Path) -> None:
    code, written, _ = run("convert", str(archive), "--to", "csv")
    assert code == 0 and written.startswith(",".join(table.COLUMNS))
    result = runner.invoke(app, ["convert", "-", "--from", "csv", "--to", "jsonl"], input=written.encode())
    assert result.exit_code == 0, result.stderr
    back = [read_bytes(x.encode()).record for x in result.stdout.splitlines()]
    assert len(back) == 12 and all(r is not None for r in back)
