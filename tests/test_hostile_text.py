"""Text from a record is shown, never obeyed, in every renderer and table: rich markup, escape sequences,
bidirectional controls and characters that may not stand in XML (player names, comments, the event)."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from phatlog.cli.app import app
from phatlog.diagnostics.printable import markup_text, printable
from phatlog.record.reader import read_bytes
from phatlog.report import build, html, markdown, svg, text
from phatlog.report import rich as rich_report

ROOT = Path(__file__).resolve().parent.parent
#: Rich markup (a hyperlink, a style, a closing tag that would end the replay with a MarkupError), an
#: escape sequence, a bidirectional override, and the two noncharacters XML refuses.
MARKUP = "[link=https://evil.example]Ann[/link]"
HOSTILE = [MARKUP, "[blink red]Bo[/blink]", "[/oops]", "Cy\x1b]8;;http://x\x07\u202eZ", "Di\ufffe\uffff<script>"]


def _hostile(sample: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((ROOT / "samples" / "games" / sample).read_text(encoding="utf-8"))
    for i, player in enumerate(record["players"]):
        player["name"] = HOSTILE[i % len(HOSTILE)]
        player["id"] = f"p{i}"
    record["comment"] = HOSTILE[4] + HOSTILE[2]
    record["event"] = {"name": "[bold]Cup[/bold] \u202e<img src=x>"}
    record["deals"][0]["comment"] = "[/]" + HOSTILE[3]
    return record


SAMPLES = ["phat-worked-6-2.json", "oh-hell-worked-6-1.json", "nine-card-don-game-8.json"]


def _clean(out: str) -> None:
    assert "\x1b" not in out and "\u202e" not in out and "\ufffe" not in out and "\x07" not in out


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_replay_renderer_shows_record_text_as_text(sample: str) -> None:
    summary = build(read_bytes(json.dumps(_hostile(sample)).encode(), "hostile.json"))
    # rich, in colour as on a terminal: the markup is printed as written, no hyperlink, no blink
    console = Console(file=io.StringIO(), width=160, color_system="truecolor", force_terminal=True)
    rich_report.render(summary, console)
    coloured = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b]8;" not in coloured and "\x1b[5m" not in coloured  # no OSC 8 link, no blink
    plain = rich_report.render_plain(summary)
    for name in (MARKUP, "[blink red]Bo[/blink]", "[/oops]"):
        assert name in plain
    for out in (plain, text.render(summary), markdown.render(summary)):
        _clean(out)
        assert "\\u202e" in out
    # SVG: well-formed XML, no element from the record
    for deal in summary.deals:
        picture = svg.deal_picture(summary, deal)
        tree = ET.fromstring(picture)
        assert all(el.tag.rsplit("}", 1)[-1] not in ("script", "a", "img") for el in tree.iter())
        assert "\ufffe" not in picture and "<script" not in picture
    page = html.render(summary)
    assert page.count("<script") == 2  # the data and the page's own script, none from the record
    assert "<img" not in page and "\ufffe" not in page and "\uffff" not in page
    # the page's table diagrams: each well-formed XML, no element from the record, the names as text
    figures = re.findall(r'<figure class="diagram"[^>]*>(.*?)</figure>', page, re.S)
    assert len(figures) >= len(summary.deals)
    for picture in figures:
        tree = ET.fromstring(picture)
        assert all(el.tag.rsplit("}", 1)[-1] not in ("script", "a", "img", "foreignObject") for el in tree.iter())
        assert "[blink red]Bo[/blink]"[:8] in "".join(tree.itertext())


def test_markup_text_is_xml_text() -> None:
    out = markup_text("a\ufffe\uffff\ud800<&>\x00", quote=True)
    ET.fromstring(f"<t a='{out}'>{out}</t>")
    assert printable("\ud800") == "\\ud800"


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1), result.output
    return result.output


@pytest.mark.parametrize("fmt", ["rich", "text", "markdown", "html", "svg"])
def test_replay_command_every_format(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(_hostile("oh-hell-worked-6-1.json")), encoding="utf-8")
    out = _run(["replay", "--format", fmt, *(["--deal", "1"] if fmt == "svg" else []), str(path)])
    _clean(out)
    if fmt in ("rich", "text"):
        assert MARKUP in out and "[/oops]" in out
    if fmt == "svg":
        ET.fromstring(out)


@pytest.mark.parametrize("fmt", ["rich", "text", "markdown", "html", "csv"])
@pytest.mark.parametrize("command", ["standings", "stats"])
def test_event_tables_show_record_text_as_text(tmp_path: Path, fmt: str, command: str) -> None:
    archive = tmp_path / "event.jsonl"
    lines = [json.dumps(_hostile(s)) for s in ("phat-worked-6-2.json", "oh-hell-worked-6-1.json")]
    archive.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if command == "stats" and fmt == "html":
        pytest.skip("stats has no html format")
    out = _run([command, "--format", fmt, str(archive), *(["-o", "-"] if fmt == "html" else [])])
    if fmt != "csv":
        _clean(out)
    if fmt == "text" or (fmt == "rich" and command == "standings"):  # stats' wide rich table folds names
        assert "[/oops]" in out
