"""``replay --format html`` and ``--format svg`` without a browser: what the page and the picture hold,
the escaping, the archive's directory of pages, and the command's usage errors.

The pages are also loaded in headless Chromium in ``test_html_browser.py``.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from phatlog.cli.replay import replay
from phatlog.record.reader import read_bytes, read_path
from phatlog.report import build, fmt, html, svg
from phatlog.report.summary import Summary

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "games").glob("*.json"))
INVALID = sorted((ROOT / "samples" / "invalid").glob("*.json"))
HOSTILE = "</script><script>window.pwned=1</script><!--\u2028\u2029\u202e<img src=x onerror=alert(1)>"


def cli() -> typer.Typer:
    app = typer.Typer()
    app.command()(replay)
    app.command("other")(lambda: None)  # two commands: "replay" is named on the command line
    return app


def run(*args: str) -> Result:
    result = CliRunner().invoke(cli(), ["replay", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def page_data(page: str) -> Any:
    found = re.search(r'<script type="application/json" id="phatlog-data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def hostile_record(name: str = HOSTILE) -> bytes:
    record = json.loads((ROOT / "samples" / "invalid" / "revoke.json").read_text(encoding="utf-8"))
    record["players"][2]["name"] = name
    record["comment"] = name
    return json.dumps(record).encode()


def summary_of(path: Path) -> Summary:
    return build(read_path(path))


@pytest.mark.parametrize("path", SAMPLES + INVALID[:20], ids=lambda p: p.name)
def test_every_sample_renders_a_page_whose_data_is_the_json_summary(path: Path) -> None:
    summary = summary_of(path)
    page = html.render(summary)
    data = page_data(page)
    assert data["summary"] == json.loads(json.dumps(summary.to_json()))  # the stable contract, as it stands
    assert len(data["words"]["deals"]) == len(summary.deals)
    assert page.count("<script") == 2 and page.count("</script>") == 2


def test_the_page_fetches_nothing() -> None:
    page = html.render(summary_of(ROOT / "samples" / "games" / "phat-worked-6-2.json"))
    assert "default-src 'none'" in page  # the Content-Security-Policy forbids every request
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page, re.I)
    assert not re.search(r"""\b(src|href)\s*=\s*["']?(https?:)?//""", page, re.I)
    assert "fetch(" not in page and "XMLHttpRequest" not in page and "import(" not in page


def test_free_text_cannot_end_the_data_element_or_add_markup() -> None:
    summary = build(read_bytes(hostile_record(), "x.json"))
    page = html.render(summary)
    assert page.count("</script>") == 2 and "<script>window.pwned" not in page
    assert "<img src=x" not in page and "\u2028" not in page and "\u2029" not in page
    data = page_data(page)
    assert data["summary"]["players"][2] == HOSTILE  # the data holds the name exactly
    assert "<\\/script>" in data["words"]["players"][2] or "</script>" in data["words"]["players"][2]
    assert "\\u202e" in data["words"]["players"][2]  # what is shown is printable (no bidi override)


def test_script_json_escapes_every_less_than_and_line_separator() -> None:
    text = html.script_json({"a": "</script><!--\u2028\u2029"})
    assert "<" not in text and "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"a": "</script><!--\u2028\u2029"}


def test_the_words_are_the_text_replays() -> None:
    summary = summary_of(ROOT / "samples" / "games" / "phat-worked-6-2.json")
    words = html.words(summary)
    deal = summary.deals[0]
    rows = words["deals"][0]["tricks"]["rows"]
    pegs = 2 + len(summary.players) + 2
    assert [r["cells"][pegs][0] for r in rows[: len(deal.tricks)]] == [fmt.pegs(t) for t in deal.tricks]
    assert rows[0]["cells"][pegs][0] == "9♦ Big Phat 18 + A♦ 4 = 22"
    assert words["verdict"] == "Verify: clean"


def test_a_problem_comes_with_its_trick() -> None:
    words = html.words(summary_of(ROOT / "samples" / "invalid" / "revoke.json"))
    row = words["deals"][0]["tricks"]["rows"][1]
    assert row["problems"][0][0] == "error" and "PL303 revoke" in row["problems"][0][1]
    assert any("f" in (c[1] if len(c) > 1 else "") for c in row["cells"])  # the revoked card is flagged


# --------------------------------------------------------------------------- svg


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_deal_is_a_valid_svg(path: Path) -> None:
    summary = build(read_path(path), deal=1)
    picture = svg.deal_picture(summary, summary.deals[0])
    root = ET.fromstring(picture)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_svg_of_a_trick_shows_the_hands_before_it_and_escapes_names() -> None:
    summary = build(read_bytes(hostile_record(), "x.json"), deal=1)
    picture = svg.deal_picture(summary, summary.deals[0], 2)
    root = ET.fromstring(picture)  # still well-formed XML with the hostile name in it
    texts = "".join(root.itertext())
    assert "<script>window.pwned=1</script>" in texts
    assert "Trick 2" in texts and "PL303" in texts
    cards = [t for t in root.iter("{http://www.w3.org/2000/svg}g") if t.get("class") == "card"]
    assert len(cards) == 4  # the trick's four in the middle; the hands are by suit, a line a suit
    assert int(root.get("width") or 0) == 680


def test_cli_svg(tmp_path: Path) -> None:
    out = tmp_path / "d.svg"
    result = run(
        "samples/games/oh-hell-default-7p.json", "--format", "svg", "--deal", "7", "--trick", "3", "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    ET.parse(out)
    result = run("samples/games/phat-worked-6-2.json", "--format", "svg", "--deal", "1", "--trick", "5", "-o", str(out))
    assert result.exit_code == 0, result.output
    cards = [g for g in ET.parse(out).getroot().iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "card"]
    assert len(cards) == 4  # trick 5 in the middle (the hands before it are by suit)
    assert run("samples/games/phat-worked-6-2.json", "--format", "svg").exit_code == 2  # no --deal
    assert run("samples/games/phat-worked-6-2.json", "--format", "svg", "--deal", "9").exit_code == 2
    bad = tmp_path / "bad.svg"
    result = run("samples/invalid/bad-card-10H.json", "--format", "svg", "--deal", "1", "-o", str(bad))
    assert result.exit_code == 1 and "PL104" in result.output and not bad.exists()  # no deal to draw: says why


# --------------------------------------------------------------------------- the command


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_cli_html_writes_the_page_and_keeps_the_verdicts_exit_code(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert run("samples/games/phat-worked-6-2.json", "--format", "html", "-o", str(out)).exit_code == 0
    assert page_data(out.read_text(encoding="utf-8"))["summary"]["clean"] is True
    assert run("samples/invalid/revoke.json", "--format", "html", "-o", str(out)).exit_code == 1
    result = run("samples/games/phat-worked-6-2.json", "--format", "html")
    assert result.exit_code == 0 and result.stdout.startswith("<!DOCTYPE html>")


def test_cli_html_of_one_trick_holds_the_whole_deal(tmp_path: Path) -> None:
    out = tmp_path / "t.html"
    assert run("samples/games/phat-worked-6-2.json", "-f", "html", "-d", "1", "-t", "5", "-o", str(out)).exit_code == 0
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["trick"] == 5 and len(data["summary"]["deals"][0]["tricks"]) == 13


def test_cli_output_only_for_html_and_svg(tmp_path: Path) -> None:
    result = run("samples/games/phat-worked-6-2.json", "--format", "text", "-o", str(tmp_path / "x"))
    assert result.exit_code == 2 and not (tmp_path / "x").exists()


def test_cli_html_cannot_write(tmp_path: Path) -> None:
    result = run("samples/games/phat-worked-6-2.json", "--format", "html", "-o", str(tmp_path / "no" / "x.html"))
    assert result.exit_code == 2 and "cannot write" in result.output


def test_an_archive_becomes_a_directory_of_pages(tmp_path: Path) -> None:
    archive = tmp_path / "games.jsonl"
    lines = [
        (ROOT / "samples" / "games" / "phat-worked-6-2.json").read_bytes().replace(b"\n", b""),
        hostile_record(),
        b"",
        b"{not json",
    ]
    archive.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "site"
    result = run(str(archive), "--format", "html", "-o", str(out))
    assert result.exit_code == 1, result.output  # the revoke, and the line that is not JSON
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "record-1.html", "record-2.html", "record-4.html"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="record-1.html"' in index and 'href="record-4.html"' in index
    assert "<script" not in index and "&lt;/script&gt;&lt;script&gt;window.pwned=1" in index
    assert page_data((out / "record-2.html").read_text(encoding="utf-8"))["index"] == "index.html"
    assert run(str(archive), "--format", "html").exit_code == 2  # a directory is needed
    assert run(str(archive), "--format", "html", "-o", str(archive)).exit_code == 2  # a file, not a directory
    assert run(str(archive), "--format", "html", "--deal", "1", "-o", str(out)).exit_code == 2


# ------------------------------------------------------------------ standings --format html (event report)

EVENT = ROOT / "samples" / "events"


def standings(*args: str) -> Result:
    from phatlog.cli.standings import standings as command

    app = typer.Typer()
    app.command()(command)
    app.command("other")(lambda: None)
    result = CliRunner().invoke(app, ["standings", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def hostile_event(tmp_path: Path) -> Path:
    """The Phat event of the samples, with a hostile player's name, event name and a record not clean."""
    folder = tmp_path / "event"
    folder.mkdir()
    for path in sorted((EVENT / "phat").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        record["event"]["name"] = "<b>Cup</b> " + HOSTILE
        for player in record["players"]:
            if player["name"] == "Ann":
                player["name"] = HOSTILE
        (folder / path.name).write_text(json.dumps(record), encoding="utf-8")
    return folder


def test_standings_html_is_one_static_page_of_the_same_tables(tmp_path: Path) -> None:
    text = standings("-f", "text", str(EVENT))
    page = standings("-f", "html", str(EVENT))
    assert page.exit_code == text.exit_code == 1  # the sample event holds a record with a wrong total
    out = page.stdout
    assert out.startswith("<!DOCTYPE html>") and f'content="{html.CSP}"' in out
    assert "<script" not in out and "href=" not in out  # nothing to run; no pages to link without -o
    for row in ("Ann &amp; Cal", "Fay &amp; Hal", "+109", "-137", "crosstable (won-lost, row against column)"):
        assert row in out
    assert out.count("<table") == 3 + 2 + 2 + 1  # Phat: 3 and its games; Oh Hell: 2 and its games; not clean


def test_standings_html_escapes_every_name(tmp_path: Path) -> None:
    out = standings("-f", "html", str(hostile_event(tmp_path))).stdout
    assert "<script" not in out and "<img" not in out and "<b>Cup" not in out
    assert "&lt;b&gt;Cup&lt;/b&gt;" in out and "&lt;/script&gt;&lt;script&gt;window.pwned=1" in out


def test_standings_html_dir_links_every_game_from_its_rows(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = standings("-f", "html", "-o", str(site), str(hostile_event(tmp_path)))
    assert result.exit_code == 1 and result.stdout == ""
    index = (site / "index.html").read_text(encoding="utf-8")
    pages = {p.name for p in site.iterdir()}
    assert pages == {"index.html", *(f"game-{n}.html" for n in range(1, 7))}  # 6 records, one not clean
    hrefs = set(re.findall(r'href="([^"]+)"', index))
    assert hrefs == set(pages) - {"index.html"}  # every page is linked, every link has its page
    for name in hrefs:
        game = (site / name).read_text(encoding="utf-8")
        assert page_data(game)["index"] == "index.html"
        assert "<script>window.pwned" not in game  # the name is data, escaped for its element
    # a crosstable cell links the games between its row and its column; a standings row each game it played
    rows = re.findall(r"<tr><td class=\"r\">\d+</td><td>([^<]+)</td>(.*?)</tr>", index)
    assert rows and all('href="game-' in rest for _, rest in rows)
    cell = re.search(r'<td class="x">1-0 (<a [^>]+>G\d+</a> )</td>', index)
    assert cell is not None
    # the record not clean (round 3, table 2) is listed and linked
    assert re.search(r'<tr class="bad"><td><a href="game-\d\.html">[^<]*round-3-table-2', index)


def test_standings_html_usage_errors(tmp_path: Path) -> None:
    assert standings("-o", str(tmp_path / "x"), str(EVENT)).exit_code == 2  # -o is for html
    assert standings("-f", "html", "-o", str(tmp_path / "x"), "-").exit_code == 2  # pages read files again
    assert not (tmp_path / "x").exists()


FIGURE = re.compile(r'<figure class="diagram" data-deal="(\d+)" data-trick="(\d+)">(.*?)</figure>', re.S)


def test_the_page_holds_each_deals_table_diagram_drawn_by_the_svg_renderer() -> None:
    """Every deal's diagram as dealt; a page of one deal, the diagram at every trick too; each the picture
    ``replay --format svg`` draws, its suits the page's symbols, and no symbol used that the page lacks."""
    one = summary_of(ROOT / "samples" / "games" / "phat-worked-6-2.json")
    page = html.render(one)
    found = FIGURE.findall(page)
    assert [(d, t) for d, t, _ in found] == [("0", "0"), *(("0", str(t.trick)) for t in one.deals[0].tricks)]
    assert found[5][2] + "\n" == svg.deal_picture(one, one.deals[0], 5, linked=True)
    standalone = svg.deal_picture(one, one.deals[0], 5)
    assert "<use" not in standalone and ET.fromstring(standalone) is not None
    defined = set(re.findall(r'<symbol id="(suit-[SHDC])"', page))
    assert set(re.findall(r'href="#(suit-[SHDC])"', page)) <= defined == {"suit-S", "suit-H", "suit-D", "suit-C"}
    game = summary_of(ROOT / "samples" / "games" / "phat-181.json")
    assert [(d, t) for d, t, _ in FIGURE.findall(html.render(game))] == [(str(i), "0") for i in range(4)]
    assert [(d, t) for d, t, _ in FIGURE.findall(html.render(game, trick=3))] == [
        ("0", "0"),
        ("0", "3"),
        *((str(i), "0") for i in range(1, 4)),
    ]


def test_a_record_that_cannot_be_replayed_has_no_diagram() -> None:
    page = html.render(build(read_bytes(b'{"format": "phatlog"}', "x.json")))
    assert 'id="diagrams"' not in page and "<figure" not in page
