"""The table diagram in SVG: North at the top, South at the bottom, West and East at the sides, the
trick in the middle, the hands by suit, the trump and the score; the same width whatever the text; a
notebook's picture of a State and of a record's deal."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Final

import phatlog
from phatlog.record.diagram import WIDE, WIDTH, Diagram, table_svg, wrap
from phatlog.record.reader import read_bytes, read_path
from phatlog.report import build, svg

ROOT: Final = Path(__file__).resolve().parent.parent
GAMES: Final = ROOT / "samples" / "games"
NS: Final = "{http://www.w3.org/2000/svg}"


def _root(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def _name_at(root: ET.Element, name: str) -> tuple[float, float]:
    """Where a seat's name is written (its box's top left)."""
    for text in root.iter(f"{NS}text"):
        spans = [t for t in text.iter(f"{NS}tspan")]
        if spans and spans[0].text == name:
            return float(text.get("x") or 0), float(text.get("y") or 0)
    raise AssertionError(f"no name {name}")


def test_the_seats_sit_round_the_table_and_the_trick_is_in_the_middle() -> None:
    summary = build(read_path(GAMES / "phat-worked-6-2.json"), deal=1)
    root = _root(svg.deal_picture(summary, summary.deals[0], 5))
    n, e, s, w = (_name_at(root, x) for x in "NESW")
    assert n[1] < e[1] < s[1] and abs(e[1] - w[1]) < 1  # North on top, South below, East and West level
    assert w[0] < n[0] < e[0] and abs(n[0] - s[0]) < 1  # West left, East right, North over South
    cards = [g for g in root.iter(f"{NS}g") if g.get("class") == "card"]
    assert len(cards) == 4
    xs = [float(next(iter(g)).get("x") or 0) for g in cards]
    assert all(w[0] < x < e[0] for x in xs)  # between West and East
    texts = [t.text or "" for t in root.iter(f"{NS}text")]
    assert "J 6 4 3" in texts  # N's spades before trick 5, a line a suit, high to low
    assert "Trump: " in texts and any(re.fullmatch(r"N & S \d+", t) for t in texts)


def test_the_width_is_bounded_whatever_the_text() -> None:
    record = json.loads((GAMES / "phat-worked-6-2.json").read_text(encoding="utf-8"))
    record["players"][0]["name"] = "Annabel " * 8
    record["comment"] = "a long comment " * 10
    record["deals"][0]["score"]["points"][0] += 1  # a diagnostic at the deal, a long one
    summary = build(read_bytes(json.dumps(record).encode(), "long.json"), deal=1)
    assert summary.status == "replayed", summary.diagnostics
    picture = svg.deal_picture(summary, summary.deals[0])
    root = _root(picture)
    assert int(root.get("width") or 0) == WIDTH
    longest = max(len(t.text or "") for t in root.iter(f"{NS}text"))
    assert longest * 7.2 < WIDTH  # every line fits: names are cut, words wrapped
    assert "PL401" in "".join(root.itertext())


def test_wrap_keeps_every_word_and_fits() -> None:
    text = "the quick brown fox " * 30 + "x" * 300
    lines = wrap(text, 300)
    assert all(len(line) <= 300 / 7.2 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_more_players_sit_on_a_ring_in_a_wider_picture() -> None:
    summary = build(read_path(GAMES / "oh-hell-default-7p.json"), deal=7)
    root = _root(svg.deal_picture(summary, summary.deals[0], 3))
    assert int(root.get("width") or 0) == WIDE
    names = summary.players
    places = [_name_at(root, n) for n in names]
    assert places[0][1] == min(y for _, y in places)  # seat 0 at the top


def test_a_hostile_name_stays_text() -> None:
    picture = table_svg(Diagram(names=["<script>x</script>", "B", "C", "D"], title="<b>t</b>"))
    root = _root(picture)
    assert "<script>x</script>" in "".join(root.itertext()) and "<script>" not in picture


def test_a_notebook_shows_a_state_and_a_deal_as_a_picture() -> None:
    state = phatlog.start("phat", players=["Ann", "Ben", "Cal", "Dee"], seed=3)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    root = _root(state._repr_svg_())
    assert len([g for g in root.iter(f"{NS}g") if g.get("class") == "card"]) == len(state.trick)
    assert "Ann & Cal 0" in [t.text for t in root.iter(f"{NS}text")]
    for name in ("phat-181.json", "oh-hell-worked-6-1.json", "nine-card-don-worked-6-3.json"):
        deal = phatlog.read(GAMES / name).deals[0]
        root = _root(deal._repr_svg_())
        assert root.tag == f"{NS}svg"
