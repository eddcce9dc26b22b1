"""Every renderer copes with every record that ``verify`` reports on: the samples, the conformance set in
``samples/invalid/``, and records made schema-valid but rule-invalid by dropping or shortening their lists
(bids, tricks taken, points, totals, hands, tricks, a trick's cards, the result). The replay of such a
record is printed (with its problems), never a traceback. Record texts reach the screen escaped."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any, Final

import pytest
from conftest import DEEP_RUN
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from phatlog.record.reader import read_bytes, read_path
from phatlog.report import build, fmt, markdown, text
from phatlog.report import rich as rich_report
from phatlog.report.summary import Summary, dumps

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "games").glob("*.json"))
INVALID = sorted(p for p in (ROOT / "samples" / "invalid").iterdir() if not p.name.startswith("expected"))
INPUTS = sorted((ROOT / "tests" / "golden" / "inputs").glob("*.json"))


def render_all(summary: Summary, narrow: bool = False) -> dict[str, str]:
    """The replay in every format (rich at 120 columns, and with ``narrow`` at 40, where columns wrap)."""
    out = {
        "text": text.render(summary),
        "markdown": markdown.render(summary),
        "json": dumps(summary.to_json()),
        "rich": rich_report.render_plain(summary),
    }
    if narrow:
        rich_report.render(summary, Console(file=io.StringIO(), width=40, color_system=None))
    return out


#: Every sample in the CI and deep profiles; every third in ``make test``.
RENDERED: Final = (SAMPLES + INVALID + INPUTS)[:: 1 if DEEP_RUN else 3]


@pytest.mark.parametrize("path", RENDERED, ids=lambda p: p.name)
def test_every_renderer_on_every_sample_and_conformance_record(path: Path) -> None:
    rendered = render_all(build(read_path(str(path))), narrow=path.parent.name == "invalid")
    assert all(rendered.values())
    json.loads(rendered["json"])


# --------------------------------------------------------------------------- mutated records

#: One record of each kind to mutate: a game of each family, a revoke, and both kinds of score sheet.
BASES = [
    "samples/games/phat-worked-6-2.json",
    "samples/games/nine-card-don-five-high-low-jack.json",
    "samples/games/oh-hell-worked-6-1.json",
    "tests/golden/inputs/oh-hell-4p.json",
    "tests/golden/inputs/oh-hell-revoke.json",
    "tests/golden/inputs/score-sheet-phat.json",
    "tests/golden/inputs/score-sheet-oh-hell.json",
]
RECORDS = [json.loads((ROOT / rel).read_text(encoding="utf-8")) for rel in BASES]


def _lists(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every list in a record but those inside extension objects."""
    out: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key != "ext":
                out += _lists(value, (*path, key))
    elif isinstance(node, list):
        out.append(path)
        for i, value in enumerate(node):
            out += _lists(value, (*path, i))
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


@st.composite
def mutated(draw: Any) -> dict[str, Any]:
    """A record with some of its lists shortened (from the end, or one item dropped) or removed."""
    record: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _lists(record)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        target = _at(record, path)
        how = draw(st.sampled_from(["drop_one", "shorten", "remove"]))
        if how == "remove" and path and isinstance(path[-1], str):
            del _at(record, path[:-1])[path[-1]]
        elif target and how == "drop_one":
            del target[draw(st.integers(0, len(target) - 1))]
        elif target:
            del target[draw(st.integers(0, len(target) - 1)) :]
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_every_renderer_on_schema_valid_rule_invalid_records(record: dict[str, Any]) -> None:
    loaded = read_bytes(json.dumps(record).encode(), "mutated.json")
    summary = build(loaded)
    rendered = render_all(summary, narrow=True)
    assert all(rendered.values())


def test_oh_hell_hand_with_fewer_bids_than_players() -> None:
    """The reported crash: a score-sheet hand with three bids for four players (verify says PL207)."""
    record = json.loads((ROOT / "tests/golden/inputs/score-sheet-oh-hell.json").read_text(encoding="utf-8"))
    record["players"].append({"name": "Dee"})  # every hand now has three bids for four players
    summary = build(read_bytes(json.dumps(record).encode(), "short-bids.json"))
    assert summary.status == "replayed"
    rendered = render_all(summary)
    assert "PL207" in rendered["text"]
    assert "Dee —" in rendered["text"]  # the seat without a bid


# --------------------------------------------------------------------------- escapes

EVIL = "\u001b[31mevil\u202e"


def _evil_record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((ROOT / "samples/games/oh-hell-worked-6-1.json").read_text(encoding="utf-8"))
    record["players"][0]["name"] = EVIL + "|pipe"
    record["event"] = {"name": EVIL, "site": "a\nb"}
    record["comment"] = EVIL
    record["deals"][0]["comment"] = EVIL
    record["deals"][0]["tricks"][0]["comment"] = EVIL + " trick"
    record["result"] = {"status": "finished", "reason": EVIL}
    return record


def test_record_texts_are_escaped_in_every_renderer_for_people() -> None:
    summary = build(read_bytes(json.dumps(_evil_record()).encode(), "evil.json"))
    rendered = render_all(summary)
    for name in ("text", "markdown", "rich"):
        out = rendered[name]
        assert "\x1b" not in out and "\u202e" not in out, name
        assert "\\x1b[31mevil\\u202e" in out.replace("\\\\", "\\").replace("\\[", "["), name
    # markdown: a name holding | does not break a table: every table row has as many cells as its header
    for line in rendered["markdown"].splitlines():
        if line.startswith("| "):
            assert "\\|pipe" in line or "pipe" not in line
    assert "\\x1b" in rendered["text"].split("comment: ", 2)[-1]  # the trick's comment, at the trick
    # json stays exact
    data = json.loads(rendered["json"])
    assert data["players"][0] == EVIL + "|pipe"
    assert data["deals"][0]["tricks"][0]["comment"] == EVIL + " trick"


def test_a_trick_comment_is_shown_at_its_trick_in_every_format() -> None:
    record = json.loads((ROOT / "samples/games/phat-worked-6-2.json").read_text(encoding="utf-8"))
    record["deals"][0]["tricks"][2]["comment"] = "a fine lead"
    summary = build(read_bytes(json.dumps(record).encode(), "commented.json"))
    rendered = render_all(summary)
    lines = rendered["text"].splitlines()
    at = next(i for i, line in enumerate(lines) if "comment: a fine lead" in line)
    assert lines[at - 1].split()[0] == "3"  # right under trick 3
    md = next(line for line in rendered["markdown"].splitlines() if "a fine lead" in line)
    assert md.startswith("| 3 |")
    rich_lines = rendered["rich"].splitlines()
    at = next(i for i, line in enumerate(rich_lines) if "comment: a fine lead" in line)
    assert rich_lines[at - 1].split()[0] == "3"
    assert json.loads(rendered["json"])["deals"][0]["tricks"][2]["comment"] == "a fine lead"


def test_a_long_name_does_not_widen_every_row() -> None:
    """A replay's size is linear in the record's: a 200-character name (the limit) is printed where it is
    named, and does not pad every row of a table to its width."""
    record = json.loads((ROOT / "samples/games/phat-worked-6-2.json").read_text(encoding="utf-8"))
    short = text.render(build(read_bytes(json.dumps(record).encode(), "x.json")))
    record["players"][0]["name"] = "N" * 200
    long = text.render(build(read_bytes(json.dumps(record).encode(), "x.json")))
    mentions = long.count("N" * 200)
    assert len(long) - len(short) < mentions * 200 + 100 * len(long.splitlines())
    # a column is at most fmt.WIDE wide: the trick table's four name columns (a seat, the leader, the
    # winner, the side) with the rest stay well under four times the name
    assert max(len(line) for line in long.splitlines() if "N" * 200 not in line) < 4 * (fmt.WIDE + 2) + 100
