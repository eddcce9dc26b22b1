"""The HTML replay in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

One browser for the whole session, one page a test. Skipped, with the reason, only where there is no
browser to drive (no ``playwright`` package, or no Chromium at ``PHATLOG_CHROMIUM`` / ``/usr/bin/chromium``):
``.ci/run`` installs both.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DEEP_RUN

from phatlog.record.reader import read_bytes, read_path
from phatlog.report import build, html

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("PHATLOG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: Everything that could reach the network or do work in the background is off.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser_page() -> Iterator[Any]:
    """One browser and one tab for every test here: each test loads its page into it."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_default_timeout(5000)
        yield page
        browser.close()


class Loaded:
    """The page in the browser, with every console message, page error and request it made."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.console: list[str] = []
        self.requests: list[str] = []

    def trick(self) -> str:
        return str(self.page.get_attribute("#trick", "data-trick"))

    def count(self, **selectors: str) -> dict[str, int]:
        """How many elements each selector finds, in one round trip to the browser."""
        script = "s => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, document.querySelectorAll(v).length]))"
        found: dict[str, int] = self.page.evaluate(script, selectors)
        return found


@pytest.fixture
def open_page(browser_page: Any, tmp_path: Path) -> Iterator[Any]:
    page = browser_page
    current: list[Loaded] = []

    def on_console(m: Any) -> None:
        current[-1].console.append(f"{m.type}: {m.text}")

    def on_error(e: Any) -> None:
        current[-1].console.append(f"pageerror: {e}")

    def on_request(r: Any) -> None:
        current[-1].requests.append(r.url)

    def load(page_html: str, width: int = 1000) -> Loaded:
        path = tmp_path / f"p{len(current)}.html"
        path.write_text(page_html, encoding="utf-8")
        current.append(Loaded(page))
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(path.as_uri())
        page.wait_for_selector("#verdict")
        return current[-1]

    page.on("console", on_console)
    page.on("pageerror", on_error)
    page.on("request", on_request)
    yield load
    page.remove_listener("console", on_console)
    page.remove_listener("pageerror", on_error)
    page.remove_listener("request", on_request)
    page.goto("about:blank")


#: Every step of the game card by card; then, in a player's view, back to the start trick by trick, a
#: few cards on, and every problem's link: each drawn as the keys and links draw it.
STEP_THROUGH = """() => {
  const key = (k, n) => { for (let i = 0; i < n; i++) document.dispatchEvent(new KeyboardEvent('keydown', {key: k})); };
  key('ArrowRight', 1000);
  const view = document.getElementById('seat-view');
  if (view) { view.value = '1'; view.dispatchEvent(new Event('change')); }
  key('ArrowUp', 300);
  key('ArrowRight', 6);
  key('ArrowDown', 3);
  key('ArrowLeft', 3);
  document.querySelectorAll('#problems a').forEach(a => a.click());
}"""


def sample_page(rel: str) -> str:
    return html.render(build(read_path(ROOT / rel)))


@pytest.mark.parametrize(
    "rel",
    [
        "samples/games/phat-worked-6-2.json",
        "samples/games/oh-hell-default-7p.json",
        "samples/invalid/revoke.json",
        *(
            [
                "samples/games/nine-card-don-worked-6-3.json",
                "samples/games/score-sheet-phat-mixed.json",
                "samples/invalid/tricks-after-win.json",
                "tests/golden/inputs/oh-hell-revoke.json",
                "samples/invalid/bad-card-10H.json",
            ]
            if DEEP_RUN
            else []
        ),
    ],
)
def test_renders_without_console_errors_or_requests(open_page: Any, rel: str) -> None:
    loaded = open_page(sample_page(rel))
    loaded.page.keyboard.press("End")
    loaded.page.keyboard.press("ArrowLeft")
    loaded.page.evaluate(STEP_THROUGH)  # every step of every deal, forwards and back, in both views
    assert loaded.console == []
    assert [u for u in loaded.requests if not u.startswith("file:")] == []


def test_arrow_keys_step_card_by_card_and_trick_by_trick(open_page: Any) -> None:
    loaded = open_page(sample_page("samples/games/phat-worked-6-2.json"))
    page = loaded.page
    assert loaded.trick() == "0"  # the deal's start: nothing played
    page.keyboard.press("ArrowRight")
    assert loaded.trick() == "1" and page.locator("#trick [data-card]").count() == 1
    page.keyboard.press("ArrowDown")
    assert loaded.trick() == "1" and page.locator("#trick [data-card]").count() == 4
    assert "Won by N: highest trump" in page.inner_text("#info")
    assert "Pegs: 9♦ Big Phat 18 + A♦ 4 = 22" in page.inner_text("#info")
    page.keyboard.press("ArrowDown")
    assert loaded.trick() == "2"
    page.keyboard.press("ArrowUp")
    assert loaded.trick() == "1"
    page.keyboard.press("End")
    assert "muck 48-32" in page.inner_text("#info")
    page.keyboard.press("Home")
    assert loaded.trick() == "0"
    assert page.locator('.hand[data-seat="0"] [data-card]').count() == 13
    assert loaded.console == []


def test_a_page_made_for_one_trick_opens_at_it(open_page: Any) -> None:
    summary = build(read_path(ROOT / "samples/games/phat-worked-6-2.json"), deal=1)
    loaded = open_page(html.render(summary, trick=5))
    assert loaded.trick() == "5" and loaded.count(played="#trick [data-card]") == {"played": 4}


def test_seat_view_hides_the_other_hands(open_page: Any) -> None:
    loaded = open_page(sample_page("samples/games/phat-worked-6-2.json"))
    page = loaded.page
    page.keyboard.press("ArrowDown")
    assert loaded.count(faces=".hand [data-card]") == {"faces": 4 * 12}
    page.select_option("#seat-view", "2")
    assert loaded.count(
        others='.hand:not([data-seat="2"]) [data-card]',
        backs='.hand:not([data-seat="2"]) .card',
        own='.hand[data-seat="2"] [data-card]',
        seen="#seen [data-card]",
        rows="#tricks tbody tr",
    ) == {
        "others": 0,  # no face of another seat's card
        "backs": 3 * 12,  # a back a card held
        "own": 12,
        "seen": 4,  # the trick played so far
        "rows": 1,  # no trick still to come
    }
    page.select_option("#seat-view", "-1")
    assert loaded.count(faces=".hand [data-card]") == {"faces": 4 * 12}


def test_a_players_view_does_not_name_the_pitch_before_it_is_led(open_page: Any) -> None:
    loaded = open_page(sample_page("samples/games/phat-worked-6-2.json"))  # N pitches A♦
    page = loaded.page
    assert "N led A♦" in page.inner_text("#deal")  # the full view shows every card
    page.select_option("#seat-view", "1")
    assert "A♦" not in page.inner_text(".dlines") and "set by N's first lead" in page.inner_text(".dlines")
    page.keyboard.press("ArrowRight")  # the pitch is led: now everyone has seen it
    assert "N led A♦" in page.inner_text(".dlines")
    page.keyboard.press("ArrowLeft")
    page.select_option("#seat-view", "0")  # the pitcher knows its own card
    assert "N led A♦" in page.inner_text(".dlines")


@pytest.mark.parametrize(
    ("rel", "sides"), [("samples/games/phat-181.json", 2), ("samples/games/oh-hell-default-7p.json", 7)]
)
def test_the_chart_has_a_line_a_side(open_page: Any, rel: str, sides: int) -> None:
    loaded = open_page(sample_page(rel))
    found = loaded.count(
        lines="#chart polyline.race-line", win="#chart .winning-peg", target="#chart .target", pegs="#chart circle.peg"
    )
    assert found["lines"] == sides
    assert found["win"] == 1
    assert found["target"] == (1 if sides == 2 else 0)
    assert found["pegs"] > 0


def test_a_hostile_name_stays_text(open_page: Any) -> None:
    hostile = "<img src=x onerror=window.pwned=1><script>window.pwned=2</script>"
    record = json.loads((ROOT / "samples" / "invalid" / "revoke.json").read_text(encoding="utf-8"))
    record["players"][2]["name"] = hostile
    record["comment"] = "</script><script>window.pwned=3</script>"
    loaded = open_page(html.render(build(read_bytes(json.dumps(record).encode(), "x.json"))))
    page = loaded.page
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.locator("#app img, #app script").count() == 0
    assert hostile in page.inner_text('.seat[data-seat="2"]')
    drawn = page.evaluate("document.querySelector('#diagram svg').textContent")
    assert "<img src=x" in drawn  # the table diagram's name (cut to its hand's width), as text
    assert "</script><script>window.pwned=3</script>" in page.inner_text(".meta")
    assert loaded.console == []


def test_problems_are_shown_in_place_and_listed(open_page: Any) -> None:
    page = open_page(sample_page("samples/invalid/revoke.json")).page
    links = page.locator("#problems a")
    assert links.count() == 2
    links.first.click()
    assert page.get_attribute("#trick", "data-trick") == "2"
    flagged = page.locator("#trick .card.flag")
    assert flagged.count() == 1 and flagged.get_attribute("data-card") == "TS"
    assert "PL303" in page.inner_text("#trick") and "error PL303 revoke" in page.inner_text("#info")
    links.nth(1).click()
    assert "PL307" in page.inner_text("#info")


def test_readable_at_phone_width(open_page: Any) -> None:
    page = open_page(sample_page("samples/games/oh-hell-default-7p.json"), width=375).page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375  # nothing makes the page scroll sideways (wide tables scroll in their own box)


def test_the_event_report_opens_and_links_to_a_game_page(browser_page: Any, tmp_path: Path) -> None:
    """standings --format html -o DIR: the index opens without console errors or requests, and a
    crosstable cell's link opens that game's replay page, which draws itself and links back."""
    import typer
    from typer.testing import CliRunner

    from phatlog.cli.standings import standings

    app = typer.Typer()
    app.command()(standings)
    app.command("other")(lambda: None)
    site = tmp_path / "site"
    result = CliRunner().invoke(app, ["standings", "-f", "html", "-o", str(site), str(ROOT / "samples" / "events")])
    assert result.exit_code == 1, result.output  # the sample event holds a record with a wrong total
    page = browser_page
    console: list[str] = []
    requests: list[str] = []

    def on_console(m: Any) -> None:
        console.append(f"{m.type}: {m.text}")

    def on_error(e: Any) -> None:
        console.append(f"pageerror: {e}")

    def on_request(r: Any) -> None:
        requests.append(r.url)

    page.on("console", on_console)
    page.on("pageerror", on_error)
    page.on("request", on_request)
    try:
        page.goto((site / "index.html").as_uri())
        assert page.locator("h2").count() == 3  # Oh Hell, Phat, the records not clean
        link = page.locator("td.x a").first
        target = link.get_attribute("href")
        link.click()
        page.wait_for_selector("#verdict")
        assert page.url.split("#")[0].endswith(f"/{target}")
        assert page.locator('a[href="index.html"]').count() >= 1
        assert console == []
        assert all(u.startswith("file:") for u in requests)
    finally:
        page.remove_listener("console", on_console)
        page.remove_listener("pageerror", on_error)
        page.remove_listener("request", on_request)
        page.goto("about:blank")


def test_a_costly_card_is_marked_on_the_table_and_in_the_words(open_page: Any) -> None:
    """replay --analyse: N's lead of the A♥ in the B.6.3 worked example cost 38 points (phatlog analyse)."""
    from phatlog.report.marks import analyse_summary

    loaded_record = read_path(ROOT / "samples/games/nine-card-don-worked-6-3.json")
    summary = build(loaded_record)
    analyse_summary(summary, loaded_record)
    loaded = open_page(html.render(summary))
    page = loaded.page
    page.keyboard.press("ArrowRight")  # N leads the A♥
    mark = page.locator("#trick .card.costly .cost")
    assert mark.count() == 1 and mark.is_visible() and mark.inner_text() == "\u221238"
    info = page.inner_text("#info")
    assert "N played A" in info and "it cost 38 points against best play" in info
    page.keyboard.press("ArrowRight")  # E's Q♥ was a best card: no second mark
    assert page.locator("#trick .card.costly").count() == 1
    page.keyboard.press("End")
    assert page.locator("#tricks .costmark").count() == 5
    assert loaded.console == []


# ------------------------------------------------------------------ what a director and an auditor see

#: The screenshots the docs show are taken here: into PHATLOG_SCREENSHOTS (docs/images) when it is set,
#: else into the test's temporary directory.
SHOTS = str(Path(os.environ["PHATLOG_SCREENSHOTS"]).resolve()) if os.environ.get("PHATLOG_SCREENSHOTS") else None


def shoot(target: Any, name: str, tmp_path: Path, **options: Any) -> Path:
    """A screenshot of ``target`` (a page or a locator) as ``name``; the path it was written to."""
    out = Path(SHOTS) if SHOTS else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(out / name), **options)
    return out / name


#: Every table's cells that cannot be seen without scrolling: a scroll box wider than its view, or a
#: header or cell whose right edge is beyond the window.
HIDDEN = """() => {
  const out = [];
  document.querySelectorAll('.scroll').forEach(s => {
    if (s.scrollWidth > s.clientWidth + 1) out.push('scroll box ' + s.scrollWidth + ' > ' + s.clientWidth);
  });
  document.querySelectorAll('table.t th, table.t td').forEach(c => {
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.right > window.innerWidth + 1) out.push(c.tagName + ' ' + c.textContent + ' at ' + r.right);
  });
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('the page scrolls sideways');
  return out;
}"""


def _page(rel: str, analysed: bool = False) -> str:
    """A sample's page, the record named as the repository names it (as the docs' screenshots show it)."""
    from phatlog.report.marks import analyse_summary

    loaded_record = read_bytes((ROOT / rel).read_bytes(), rel)
    summary = build(loaded_record)
    if analysed:
        analyse_summary(summary, loaded_record)
    return html.render(summary)


def _analysed_page(rel: str) -> str:
    return _page(rel, analysed=True)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize(
    "rel",
    [
        "samples/games/phat-worked-6-2.json",
        *(["samples/games/oh-hell-default-7p.json", "samples/games/nine-card-don-worked-6-3.json"] if DEEP_RUN else []),
    ],
)
def test_no_column_is_hidden_at_desktop_or_phone_width(open_page: Any, rel: str, width: int, tmp_path: Path) -> None:
    page_html = _page(rel, analysed="nine-card" in rel)
    loaded = open_page(page_html, width=width)
    page = loaded.page
    page.keyboard.press("End")  # the deal's every trick in the table
    assert page.evaluate(HIDDEN) == []
    headers = page.locator("#tricks th").all_inner_texts()
    assert len(headers) >= 8 and all(page.locator("#tricks th").nth(i).is_visible() for i in range(len(headers)))
    assert loaded.console == []
    if rel.endswith("phat-worked-6-2.json"):
        for _ in range(4):
            page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowRight")
        shoot(page, f"replay-phat-{width}.png", tmp_path, full_page=True)


def test_the_winners_words_do_not_cross_the_score_race(open_page: Any, tmp_path: Path) -> None:
    page = open_page(_page("samples/games/phat-181.json"), width=1280).page
    won = page.locator("#chart .legend b.won")
    assert won.count() == 1 and "win with" in won.inner_text()
    chart = page.locator("#chart svg").bounding_box()
    words = won.bounding_box()
    assert chart is not None and words is not None and words["y"] >= chart["y"] + chart["height"]
    assert page.locator("#chart .winning-peg").count() == 1
    shoot(page.locator("#chart"), "replay-chart.png", tmp_path)


def test_a_card_that_won_and_cost_shows_both_marks_and_names_the_best_cards(open_page: Any, tmp_path: Path) -> None:
    """N's A♥ lead in the B.6.3 worked example won the trick and cost 38: green frame and purple ring both;
    the words name the best cards (K♠ or A♠) and what each choice was worth."""
    loaded = open_page(_analysed_page("samples/games/nine-card-don-worked-6-3.json"), width=1280)
    page = loaded.page
    for _ in range(4):
        page.keyboard.press("ArrowRight")  # the whole first trick: A♥ won it
    card = page.locator('#trick .card[data-card="AH"]')
    assert card.get_attribute("class") is not None
    classes = (card.get_attribute("class") or "").split()
    assert "win" in classes and "costly" in classes
    frame = card.locator("rect.face").evaluate("r => getComputedStyle(r).stroke")
    ring = card.evaluate("c => getComputedStyle(c).outlineStyle + ' ' + getComputedStyle(c).outlineColor")
    assert frame == "rgb(26, 127, 55)"  # the winner's green
    assert ring.startswith("solid") and "138, 75, 175" in ring  # the cost's purple, outside the face
    info = " ".join(page.inner_text("#info").split())
    assert "it cost 38 points against best play (worth 9 to its side to the end of the deal; best: K" in info
    assert "or A" in info and "worth 47)" in info
    assert loaded.console == []
    shoot(page, "replay-marks.png", tmp_path, full_page=False)


def test_the_event_report_lists_each_game_and_is_photographed(
    browser_page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from phatlog.cli.app import app

    site = tmp_path / "site"
    monkeypatch.chdir(ROOT)  # the records named as the repository names them
    result = CliRunner().invoke(app, ["standings", "-f", "html", "-o", str(site), "samples/events/phat"])
    assert result.exit_code == 1, result.output
    page = browser_page
    try:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto((site / "index.html").as_uri())
        rows = page.locator("table.games-list tbody tr")
        assert rows.count() == 5
        assert page.evaluate(HIDDEN) == []
        first = rows.first.locator("td")
        assert [first.nth(i).inner_text() for i in (1, 2)] == ["1", "1"]
        winner = first.nth(5).locator("a")
        assert winner.inner_text() == "Ann & Cal"
        shoot(page, "event-report.png", tmp_path, full_page=True)
        winner.click()
        page.wait_for_selector("#verdict")
        assert page.url.split("#")[0].endswith("game-1.html")
    finally:
        page.goto("about:blank")


def test_the_table_diagram_is_photographed(browser_page: Any, tmp_path: Path) -> None:
    from phatlog.report import svg

    rel = "samples/games/phat-worked-6-2.json"
    summary = build(read_bytes((ROOT / rel).read_bytes(), rel), deal=1)
    picture = svg.deal_picture(summary, summary.deals[0], 5)
    out = Path(SHOTS) if SHOTS else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    (out / "deal-phat-worked-trick-5.svg").write_text(picture, encoding="utf-8")
    page = browser_page
    try:
        page.set_viewport_size({"width": 680, "height": 600})
        page.goto((out / "deal-phat-worked-trick-5.svg").as_uri())
        box = page.locator("svg").first.bounding_box()
        assert box is not None and box["width"] == 680
        shoot(page.locator("svg").first, "table-diagram.png", tmp_path)
    finally:
        page.goto("about:blank")


def test_the_page_shows_the_pitch_table_and_the_best_line(open_page: Any, tmp_path: Path) -> None:
    """replay --analyse --line --pitch: under the tricks, every first lead's value by trump and the best
    line, in the all-hands view only (best play sees every hand)."""
    from phatlog.report.marks import analyse_summary

    rel = "samples/games/nine-card-don-worked-6-3.json"
    loaded_record = read_bytes((ROOT / rel).read_bytes(), rel)
    summary = build(loaded_record)
    analyse_summary(summary, loaded_record, line=True, pitch=True)
    loaded = open_page(html.render(summary), width=1280)
    page = loaded.page
    page.keyboard.press("End")
    best = page.locator("#best")
    assert best.count() == 1
    rows = page.locator("#best table.pitch tbody tr")
    assert rows.count() == 4 and rows.first.inner_text().split("\t")[:2] == ["spades", "+47"]
    text = best.inner_text()
    assert "Best line from trick 1: N & S +47" in text and "(N & S +47 so far)" in text
    assert page.evaluate(HIDDEN) == []
    shoot(best, "replay-best.png", tmp_path)
    page.select_option("#seat-view", "1")
    assert page.locator("#best").count() == 0
    assert loaded.console == []


#: Where the table diagram stands in the window: its box and the window's width, and whether it is shown.
DIAGRAM_BOX = """() => {
  const svg = document.querySelector('#diagram svg');
  if (!svg) return null;
  const r = svg.getBoundingClientRect();
  return {left: r.left, right: r.right, width: r.width, height: r.height, window: window.innerWidth,
          shown: !document.getElementById('diagram').hidden, trick: svg.closest('figure').dataset.trick};
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_table_diagram_is_in_the_page_whole_at_desktop_and_phone_width(
    open_page: Any, width: int, tmp_path: Path
) -> None:
    """The deal's table diagram (the SVG replay --format svg draws) stands under the deal, inside the window
    at both widths; a page of one deal follows the trick shown; a player's view has none (it shows every hand)."""
    loaded = open_page(_page("samples/games/phat-worked-6-2.json"), width=width)
    page = loaded.page
    box = page.evaluate(DIAGRAM_BOX)
    assert box is not None and box["shown"] and box["trick"] == "0"
    assert box["left"] >= 0 and box["right"] <= box["window"] and box["width"] > 0.9 * min(680, width - 40)
    assert page.locator("#diagram svg").is_visible()
    text = page.evaluate("document.querySelector('#diagram svg').textContent")
    assert "Trump: " in text and "Trick 1" in text
    assert page.evaluate(HIDDEN) == []
    for _ in range(5):
        page.keyboard.press("ArrowDown")  # the whole of trick 5
    box = page.evaluate(DIAGRAM_BOX)
    assert box["trick"] == "5" and box["right"] <= box["window"]
    assert "Trick 5 (the hands as they stand before it)" in page.evaluate(
        "document.querySelector('#diagram svg').textContent"
    )
    waiting = "document.getElementById('diagrams').content.querySelectorAll('figure').length"
    assert page.evaluate(waiting) == 14 - 6  # the start and tricks 1 to 5 taken out of the template
    if width == 390:  # at 1280 it is the standalone picture's size: replay-phat-1280.png shows it in the page
        shoot(page.locator("#diagram"), "replay-diagram-390.png", tmp_path)
    page.select_option("#seat-view", "2")
    assert page.evaluate(DIAGRAM_BOX)["shown"] is False
    page.select_option("#seat-view", "-1")
    assert page.evaluate(DIAGRAM_BOX)["shown"] is True
    assert loaded.console == []


def test_a_game_page_shows_each_deal_as_dealt(open_page: Any) -> None:
    """A page of several deals holds each deal's diagram at its start (the hands as dealt, the first trick),
    the one shown following the deal selected."""
    loaded = open_page(_page("samples/games/phat-181.json"), width=1280)
    page = loaded.page
    assert page.evaluate("document.getElementById('diagrams').content.querySelectorAll('figure').length") == 3
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(DIAGRAM_BOX)["trick"] == "0"  # no picture a trick in a page of many deals
    page.keyboard.press("PageDown")
    figure = page.locator("#diagram figure")
    assert figure.get_attribute("data-deal") == "1" and figure.is_visible()
    assert "Deal 2" in page.evaluate("document.querySelector('#diagram svg').textContent")
    assert loaded.console == []


def _shot_page(page: Any, rel: str, width: int, height: int, tmp_path: Path) -> None:
    """Load a sample's page (named as the repository names it) at ``width`` by ``height``, one pixel a pixel."""
    path = tmp_path / "shot.html"
    path.write_text(_page(rel), encoding="utf-8")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(path.as_uri())
    page.wait_for_selector("#verdict")


@pytest.mark.deep  # a screenshot for the docs (CI=true, PHATLOG_SCREENSHOTS=docs/images)
def test_the_readme_screenshot_of_a_trick_being_played(browser_page: Any, tmp_path: Path) -> None:
    """The README's and replay.md's picture: the worked Phat deal at trick 5, second card."""
    page = browser_page
    try:
        _shot_page(page, "samples/games/phat-worked-6-2.json", 1000, 1040, tmp_path)
        for key in ["ArrowDown"] * 4 + ["ArrowRight"] * 2:
            page.keyboard.press(key)
        assert page.get_attribute("#trick", "data-trick") == "5"
        assert page.locator("#trick [data-card]").count() == 2
        assert page.evaluate(HIDDEN) == []
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, "replay-phat.png", tmp_path)
    finally:
        page.goto("about:blank")


@pytest.mark.deep  # a screenshot for the docs (CI=true, PHATLOG_SCREENSHOTS=docs/images)
def test_a_revoke_seen_from_a_seat_is_photographed(browser_page: Any, tmp_path: Path) -> None:
    """Cal's view of the revoke: the problem's link opens the trick, the revoked card is framed, only Cal's
    hand is face up, and no table diagram (it would show every hand)."""
    page = browser_page
    try:
        _shot_page(page, "samples/invalid/revoke.json", 1000, 960, tmp_path)
        page.click("#problems a")
        page.select_option("#seat-view", "2")
        assert page.locator('#trick .card.flag[data-card="TS"]').count() == 1
        assert page.locator('.hand:not([data-seat="2"]) [data-card]').count() == 0
        assert page.locator("#diagram").is_hidden()
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, "replay-revoke-seat-view.png", tmp_path)
    finally:
        page.goto("about:blank")


@pytest.mark.deep  # a screenshot for the docs (CI=true, PHATLOG_SCREENSHOTS=docs/images)
def test_seven_players_at_phone_width_are_photographed(browser_page: Any, tmp_path: Path) -> None:
    """Oh Hell at seven players, 390 pixels wide: the seats stack, nothing scrolls sideways, the table
    diagram (880 pixels drawn) is scaled into the window."""
    page = browser_page
    try:
        _shot_page(page, "samples/games/oh-hell-default-7p.json", 390, 1300, tmp_path)
        page.select_option("#deal-select", "5")
        for key in ["ArrowDown", "ArrowRight", "ArrowRight"]:
            page.keyboard.press(key)
        assert page.evaluate(HIDDEN) == []
        box = page.evaluate(DIAGRAM_BOX)
        assert box["shown"] and box["left"] >= 0 and box["right"] <= 390
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, "replay-oh-hell-phone.png", tmp_path)
    finally:
        page.goto("about:blank")
