"""A mutation fuzzer for every entry point of phatlog: no uncaught exception, no hang, one verdict.

Seeds are the bundled samples (``samples/games``, ``samples/invalid``), simulated games of all four games,
and every valid seed written in every other format by phatlog's own writers. Each input is a seed mutated
a few times, on the parsed JSON (tree-level: keys and list items deleted, duplicated, swapped; values of
the wrong type, boundary numbers, long strings, control characters; cards moved between hands and tricks;
the game and the rules changed; lists cut short) or on the bytes (bit flips, bytes inserted and deleted,
truncation, splicing two inputs, a duplicated key, invalid UTF-8, deep nesting, numbers of many digits).
Input ``i`` of a run depends only on the seed and ``i``: ``--only I`` replays one input.

Each input goes through (see docs/fuzzing.md):

* ``read_bytes`` (validate), and for a record, the referee with the C trick kernel and with the pure-Python
  engine (``pitch.KERNEL`` switched in-process): the diagnostic codes, pointers and severities, the totals,
  the winner and where the game ended must be identical;
* the replay: ``report.build`` (with a deal or trick selected now and then) and the text, markdown, rich
  and JSON renderers;
* every format's reader on the input (its own format's mutated text for converted seeds), every writer on
  every record read, and, where the writer claims nothing is lost, a round trip back to the same record;
* now and then the CLI (``verify``, ``validate``, ``replay``, ``convert``) through typer's CliRunner: the
  exit code must be 0, 1 or 2 and no traceback may be printed.

Anything else that escapes is a crash, deduplicated by (entry point, exception type, innermost phatlog
frame); an input that takes longer than ``--budget`` seconds is a hang. One reproducer per distinct crash
is shrunk and written to ``--out``.

    python bench/fuzz.py --inputs 1000000 --seed 1 --jobs 2 --out fuzz-out
    python bench/fuzz.py --seed 1 --only 12345          # replay one input, print its traceback
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import math
import multiprocessing
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, Final
from xml.etree import ElementTree

import fuzz_native
import msgspec

from phatlog.cli.select import NAME_BYTES as SPLIT_NAME_BYTES
from phatlog.cli.select import SplitBy
from phatlog.cli.select import file_name as split_file_name
from phatlog.cli.select import groups as split_groups
from phatlog.formats import FORMATS, canonical
from phatlog.formats.base import ConversionError
from phatlog.play.simulate import simulate
from phatlog.record.reader import Loaded, read_bytes
from phatlog.referee import pitch
from phatlog.referee.games import referee
from phatlog.report import SelectionError, build, markdown, svg, text
from phatlog.report import html as html_report
from phatlog.report import rich as rich_report
from phatlog.report.summary import dumps as summary_dumps
from phatlog.solver import claims

ROOT: Final = Path(__file__).resolve().parent.parent
GAMES: Final = ("phat", "nine_card_don", "irish_don", "oh_hell")
CARDS: Final = [r + s for s in "CDHS" for r in "23456789TJQKA"]
#: Values that a mutation puts where another value was: every JSON type, boundaries, hostile strings.
VALUES: Final[list[Any]] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    3,
    4,
    7,
    52,
    2**31,
    -(2**31),
    2**63,
    2**64,
    10**30,
    0.5,
    -0.0,
    1e308,
    "NaN",
    "Infinity",
    "-1",
    "",
    " ",
    "x" * 5000,
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "\x00",
    "\r\n",
    "\u202e",
    "\ud7ff",
    "AS",
    "10H",
    "1H",
    "AS ",
    "as",
    "JOKER",
    [],
    {},
    [None],
    ["AS", "AS"],
    {"": None},
]
RULE_VALUES: Final[dict[str, list[Any]]] = {
    "target": [0, 1, 7, 11, 21, 61, 91, 121, -1, 2**63, 1.5, "11"],
    "peg_out": ["immediate", "end_of_deal", "never", ""],
    "muck_tie": ["carry", "both", "none", "dealer", ""],
    "bonus": ["game_8", "six_high_jack", "five_high_low_jack", "none"],
    "low_to": ["holder", "capturer", "nobody"],
    "follow": ["must_follow", "follow_or_trump", "anything"],
    "schedule": ["up_and_down", "down_and_up", "down", "up", "constant", "weird"],
    "hook": [True, False, None],
    "off_bid_penalty": [True, False, 0],
    "scoring": ["standard", "exact", "weird"],
}
#: Keys that tree mutations aim at half the time: the lists and fields the engines and writers index.
AIMED: Final = frozenset(
    "bids taken points total totals hands tricks cards score deals players rules undealt cut dealer leader "  # noqa: SIM905
    "turnup trump pitcher bid winner result sizes hand_size seats name game version format".split()
)
KINDS: Final = ("json", "jsonl", "text", "csv", "openspiel")
SUFFIX: Final = {"json": ".json", "jsonl": ".jsonl", "text": ".phat", "csv": ".csv", "openspiel": ".openspiel"}


# ------------------------------------------------------------------------------------------------- seeds


@dataclass(frozen=True, slots=True)
class Seed:
    """One seed input: what format its bytes are in, and the bytes."""

    kind: str
    data: bytes
    name: str


def _dumps(kind: str, record: dict[str, Any], lossy: bool, deal: int | None = None) -> str:
    """A record written in a format (OpenSpiel: one hand of it, ``deal`` from 0)."""
    if kind == "openspiel":
        return str(FORMATS[kind].dumps(record, lossy=lossy, deal=deal))  # type: ignore[call-arg]
    return FORMATS[kind].dumps(record, lossy=lossy)


def _converted(record: dict[str, Any], name: str) -> Iterator[Seed]:
    for kind in ("text", "csv", "openspiel", "jsonl"):
        try:
            written = _dumps(kind, record, lossy=True, deal=0 if len(record.get("deals", ())) > 1 else None)
        except (ConversionError, ValueError):
            continue
        yield Seed(kind, written.encode("utf-8"), f"{name}.{kind}")


def seeds(simulated: int = 3) -> list[Seed]:
    """Every seed: the samples, simulated games, and each valid one written in every other format."""
    out: list[Seed] = []
    records: list[tuple[str, dict[str, Any]]] = []
    for path in sorted((ROOT / "samples" / "games").glob("*.json")):
        data = path.read_bytes()
        out.append(Seed("json", data, path.name))
        with contextlib.suppress(ValueError):
            records.append((path.name, json.loads(data)))
    for path in sorted((ROOT / "samples" / "invalid").iterdir()):
        if path.is_file():
            out.append(Seed("json", path.read_bytes(), path.name))
    for game in GAMES:
        for i, record in enumerate(simulate(game, 7, simulated)):
            name = f"simulated-{game}-{i}"
            out.append(Seed("json", json.dumps(record).encode(), name))
            records.append((name, record))
    for game in ("phat", "nine_card_don"):
        for i, record in enumerate(simulate(game, 8, 1, with_cut=True)):
            out.append(Seed("json", json.dumps(record).encode(), f"simulated-{game}-cut-{i}"))
    for game in GAMES:  # short games (a deal or two, the result dropped): quick to run, and not yet won
        for i, record in enumerate(simulate(game, 9, 2)):
            record["deals"] = record["deals"][: i + 1]
            record.pop("result", None)
            name = f"simulated-{game}-short-{i}"
            out.append(Seed("json", json.dumps(record).encode(), name))
            records.append((name, record))
    for name, record in list(records):  # format 1.1's rulings: a claim, a revoke, an adjustment, a misdeal
        if name.startswith("simulated-") and "-short-" not in name:
            for ruled in _ruled_seeds(record):
                rname = f"{name}-{ruled['deals'][0]['rulings'][0]['kind']}"
                out.append(Seed("json", json.dumps(ruled).encode(), rname))
                records.append((rname, ruled))
    for name, record in records:
        out.extend(_converted(record, name))
    archive = b"".join(json.dumps(r).encode() + b"\n" for _, r in records[:6])
    out.append(Seed("jsonl", archive, "archive.jsonl"))
    return out


def _ruled_seeds(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The record (format 1.1) with a ruling on its first deal: a claim after a trick or two (so that the
    audit runs), a claim before any card, an adjustment, a misdeal, and a revoke ruling."""
    deal = record["deals"][0]
    tricks = deal.get("tricks") or []
    rulings: list[dict[str, Any]] = [
        {"kind": "claim", "seat": 0, "tricks": "rest"},
        {"kind": "claim", "seat": 1, "tricks": 1, "accepted": False, "decision": 2},
        {"kind": "adjustment", "side": 0, "points": 3, "reason": "slow play"},
        {"kind": "misdeal"},
        {"kind": "revoke", "seat": 1, "trick": 1},
    ]
    for i, ruling in enumerate(rulings):
        ruled = copy.deepcopy(record)
        ruled["phatlog"] = "1.1"
        first = ruled["deals"][0]
        if ruling["kind"] == "claim":
            first["tricks"] = tricks[: (1, 0)[i]] if tricks else []
            ruled["deals"] = ruled["deals"][:1]
            ruled.pop("result", None)
        first["rulings"] = [ruling]
        yield ruled


#: Rulings a mutation adds to a deal: every kind with good and bad fields, and kinds that do not exist.
RULINGS: Final[list[dict[str, Any]]] = [
    {"kind": "claim", "seat": 0, "tricks": "rest"},
    {"kind": "claim", "seat": 2, "tricks": 3},
    {"kind": "claim", "seat": 1, "tricks": 99},
    {"kind": "claim", "seat": 9, "tricks": -1},
    {"kind": "claim", "seat": 0, "tricks": 2, "accepted": False},
    {"kind": "claim", "seat": 0, "tricks": 2, "accepted": False, "decision": 40},
    {"kind": "revoke", "seat": 1, "trick": 2, "penalty": {"side": 0, "points": 2}},
    {"kind": "revoke", "seat": 3, "trick": 0, "penalty": [{"side": 5, "points": -1}]},
    {"kind": "adjustment", "side": 1, "points": -4},
    {"kind": "adjustment", "side": 7, "points": 2**40},
    {"kind": "misdeal"},
    {"kind": "phat"},
    {"kind": "mystery", "seat": 0},
    {"seat": 0, "tricks": 1},
    {"kind": "claim", "seat": 0, "tricks": 1, "extra": True},
]


# ---------------------------------------------------------------------------------------------- mutators


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON tree (the root is the empty path)."""
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


def _value(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(CARDS)
    if roll < 0.35:
        return rng.randint(-5, 130)
    return copy.deepcopy(rng.choice(VALUES))


#: The tree mutations that mostly keep a record valid (so that it reaches the referee): items deleted,
#: duplicated, swapped or cut short, cards moved or replaced, a rule changed, a number moved by a little.
MILD: Final = (1, 2, 3, 4, 6, 6, 6, 7, 8, 11, 11, 13)


def mutate_tree(root: Any, rng: random.Random, mild: bool = False) -> Any:
    """One tree-level mutation of a parsed JSON document (in place where it can; returns the new root);
    ``mild`` picks among the mutations that mostly leave a valid record."""
    paths = list(_paths(root))
    aimed = [p for p in paths if p and isinstance(p[-1], str) and p[-1] in AIMED] if rng.random() < 0.5 else []
    path = rng.choice(aimed or paths)
    node = _get(root, path)
    op = rng.choice(MILD) if mild else rng.randrange(14)
    if op == 0 and isinstance(node, dict) and node:  # delete a key
        del node[rng.choice(list(node))]
    elif op == 1 and isinstance(node, list) and node:  # delete an item
        del node[rng.randrange(len(node))]
    elif op == 2 and isinstance(node, list) and node:  # duplicate an item
        i = rng.randrange(len(node))
        node.insert(rng.randrange(len(node) + 1), copy.deepcopy(node[i]))
    elif op == 3 and isinstance(node, list) and len(node) > 1:  # swap two items
        i, j = rng.randrange(len(node)), rng.randrange(len(node))
        node[i], node[j] = node[j], node[i]
    elif op == 4 and isinstance(node, list):  # cut the list short (bids, taken, points, tricks, deals)
        del node[rng.randrange(len(node) + 1) :]
    elif op == 5 and isinstance(node, dict):  # a key more, or a key renamed
        key = rng.choice([*node, "x", "", "game", "rules", "deals", "tricks", "score", "bids", "\x1b[2J"])
        node[key + rng.choice(["", "_", "s"])] = _value(rng)
    elif op == 6:  # swap two cards anywhere in the record (between hands, tricks, undealt, ...)
        cards = [p for p in paths if isinstance(_get(root, p), str) and _get(root, p) in CARDS]
        if len(cards) > 1:
            a, b = rng.sample(cards, 2)
            va, vb = _get(root, a), _get(root, b)
            _set(root, a, vb)
            _set(root, b, va)
        elif cards:
            _set(root, cards[0], rng.choice(CARDS))
    elif op == 7 and mild and isinstance(root, dict) and isinstance(root.get("rules"), dict) and root["rules"]:
        key = rng.choice(list(root["rules"]))  # a rule the game has, to another value
        if key in RULE_VALUES:
            root["rules"][key] = rng.choice(RULE_VALUES[key])
    elif op == 7 and not mild and isinstance(root, dict):  # change the game or a rule
        if rng.random() < 0.3:
            root["game"] = rng.choice([*GAMES, "pitch", "", 1])
        else:
            rules = root.get("rules")
            if not isinstance(rules, dict):
                rules = root["rules"] = {}
            key = rng.choice(list(RULE_VALUES))
            rules[key] = rng.choice(RULE_VALUES[key])
    elif op == 8 and isinstance(node, int) and not isinstance(node, bool):  # a nearby or boundary number
        near = [node + 1, node - 1, node + rng.randint(-13, 13)]
        root = _set(root, path, rng.choice(near if mild else [*near, -node, 0, node * 2, 2**63 - 1, 2**64, 10**20]))
    elif op == 9 and isinstance(node, str):  # a hostile string
        extra = rng.choice(["\x1b[31m", "\x1b]8;;http://x\x07", "\x07", "\x00", "\u2028", "\t", "é", "♠", "\x7f"])
        at = rng.randrange(len(node) + 1)
        root = _set(root, path, node[:at] + extra * rng.choice([1, 1, 3, 400]) + node[at:])
    elif op == 10 and isinstance(node, list | dict) and path:  # a list or object replaced by a copy of another
        other = _get(root, rng.choice(paths))
        root = _set(root, path, copy.deepcopy(other))
    elif op == 11 and path and isinstance(node, str) and node in CARDS:  # a card replaced
        root = _set(root, path, rng.choice(CARDS))
    elif op == 13 and isinstance(root, dict) and isinstance(root.get("deals"), list) and root["deals"]:
        deal = rng.choice(root["deals"])  # a ruling added to a deal (the record made format 1.1)
        if isinstance(deal, dict):
            root["phatlog"] = "1.1"
            rulings = deal.get("rulings")
            if not isinstance(rulings, list):
                rulings = deal["rulings"] = []
            rulings.append(copy.deepcopy(rng.choice(RULINGS)))
    elif not mild:  # a value replaced by one of another type
        root = _set(root, path, _value(rng))
    return root


_TOKENS: Final = [
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b'"',
    b"\\",
    b"\\u0000",
    b"\\ud800",
    b"null",
    b"true",
    b"-",
    b"0",
    b"1e999",
    b"NaN",
    b"\n",
    b"\r",
    b"\t",
    b"\x00",
    b"\x1b[2J",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbf",
    b"#",
    b";",
    b"|",
    b"=",
    b"AS",
    b"10",
    b"[Game ",
    b'""',
]


def mutate_bytes(data: bytes, rng: random.Random, other: bytes) -> bytes:
    """One byte-level mutation."""
    buf = bytearray(data)
    n = len(buf)
    op = rng.randrange(12)
    at = rng.randrange(n + 1)
    if op == 0 and n:  # flip a bit
        i = rng.randrange(n)
        buf[i] ^= 1 << rng.randrange(8)
    elif op == 1:  # insert a byte or a token
        ins = bytes([rng.randrange(256)]) if rng.random() < 0.4 else rng.choice(_TOKENS)
        buf[at:at] = ins
    elif op == 2 and n:  # delete a run
        buf[at : at + rng.choice([1, 1, 2, 8, 64])] = b""
    elif op == 3:  # truncate
        del buf[at:]
    elif op == 4:  # splice with another input
        cut = rng.randrange(len(other) + 1)
        buf = buf[:at] + bytearray(other[cut:])
    elif op == 5:  # duplicate a key of an object
        keys = [m for m in re.finditer(rb'"[^"\\]{1,20}"\s*:\s*("[^"\\]*"|-?\d+|true|false|null)', data)]
        if keys:
            m = rng.choice(keys)
            buf[m.end() : m.end()] = b"," + m.group(0)
    elif op == 6:  # invalid UTF-8
        buf[at:at] = rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xc0\xaf"])
    elif op == 7:  # deep nesting
        depth = rng.choice([50, 1000, 10000, 100000])
        buf[at:at] = rng.choice([b"[", b'{"a":']) * depth
    elif op == 8:  # a number of many digits (an integer, a long fraction, a huge exponent)
        nums = [m for m in re.finditer(rb"-?\d+", data)]
        big = rng.choice([b"9" * 5000, b"1" + b"0" * 400, b"0." + b"1" * 1000, b"1e400", b"-0", b"1.0", b"1E+2"])
        if nums:
            m = rng.choice(nums)
            buf[m.start() : m.end()] = big
        else:
            buf[at:at] = big
    elif op == 9 and n:  # duplicate a run
        end = min(n, at + rng.choice([1, 16, 256, 4096]))
        buf[at:at] = buf[at:end]
    elif op == 10:  # a line deleted, duplicated or swapped (line formats)
        lines = bytes(buf).split(b"\n")
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        choice = rng.randrange(3)
        if choice == 0:
            del lines[i]
        elif choice == 1:
            lines.insert(i, lines[j])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        buf = bytearray(b"\n".join(lines))
    else:  # a token replaced by another of the input's
        words = list(re.finditer(rb"[A-Za-z0-9_]+", data))
        if len(words) > 1:
            a, b = rng.sample(words, 2)
            buf[a.start() : a.end()] = b.group(0)
    return bytes(buf)


@dataclass(slots=True)
class Input:
    """One fuzz input: its number, its format, its bytes, and how it was made."""

    index: int
    kind: str
    data: bytes
    how: str


def make_input(corpus: list[Seed], seed: int, index: int) -> Input:
    """Input ``index`` of the run seeded ``seed``: depends on nothing else."""
    rng = random.Random(seed * 1_000_003 + index)
    base = rng.choice(corpus)
    data = base.data
    steps = rng.choice([1, 1, 1, 2, 2, 3, 5])
    how = [base.name]
    tree = base.kind in ("json", "jsonl") and rng.random() < 0.6
    mild = False
    if tree:
        lines = data.split(b"\n") if base.kind == "jsonl" else [data]
        i = rng.randrange(len(lines))
        try:
            doc: Any = json.loads(lines[i])
        except (ValueError, RecursionError):
            tree = False
        else:
            mild = rng.random() < 0.5
            for _ in range(steps):
                before = json.dumps(doc)
                for _ in range(8 if mild else 1):  # a mild mutation may not apply where it lands: try again
                    doc = mutate_tree(doc, rng, mild)
                    if json.dumps(doc) != before:
                        break
            indent = None if rng.random() < 0.7 or base.kind == "jsonl" else 2
            lines[i] = json.dumps(doc, indent=indent, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
            data = b"\n".join(lines)
            how.append(f"{'mild ' if mild else ''}tree x{steps}")
    if not tree or (not mild and rng.random() < 0.15):
        other = rng.choice(corpus).data
        for _ in range(steps):
            data = mutate_bytes(data, rng, other)
        how.append(f"bytes x{steps}")
    return Input(index, base.kind, data, " ".join(how))


# ----------------------------------------------------------------------------------------- entry points


class Hang(Exception):
    """Raised by the watchdog when one input runs over its time budget."""


class Mismatch(Exception):
    """Two ways that must agree did not (C loop against Python, a round trip)."""


class BadExit(Exception):
    """The CLI exited with a code outside 0/1/2, or printed a traceback."""


def _verdict(record: Any) -> tuple[Any, ...]:
    v = referee(record)
    codes = [(d.code, d.pointer, str(d.severity)) for d in v.diagnostics]
    return (codes, v.deals, v.totals, v.winner, v.ended_at)


def check_referee(loaded: Loaded) -> None:
    """The referee with the C trick kernel and with the pure-Python engine: the same verdict."""
    kernel = pitch.KERNEL
    try:
        with_c = _verdict(loaded.record)
        pitch.KERNEL = None
        pure = _verdict(loaded.record)
    finally:
        pitch.KERNEL = kernel
    if with_c != pure:
        raise Mismatch(f"C loop and Python differ:\n  C:      {with_c}\n  Python: {pure}")


def check_replay(loaded: Loaded, rng: random.Random, with_rich: bool) -> None:
    """Build the replay (now and then with a selection) and render it: one of text, markdown and JSON
    (chosen at random), and rich when ``with_rich``."""
    deal = trick = None
    if loaded.record is not None and rng.random() < 0.3:
        deal = rng.randint(0, len(loaded.record.deals) + 1)
        trick = rng.choice([None, 1, 2, 14])
    try:
        summary = build(loaded, deal=deal, trick=trick)
    except SelectionError:
        summary = build(loaded)
    renderer = rng.randrange(5)
    if renderer == 0:
        text.render(summary)
    elif renderer == 1:
        markdown.render(summary)
    elif renderer == 2:
        summary_dumps(summary.to_json())
    elif renderer == 3:
        check_svg(summary, rng)
    else:
        check_html(summary)
    if with_rich:
        rich_report.render_plain(summary, width=rng.choice([40, 80, 120]))


#: Elements that no picture or page of phatlog's may hold from a record.
FOREIGN: Final = frozenset({"script", "a", "img", "iframe", "object", "foreignObject", "image", "use"})


def check_svg(summary: Any, rng: random.Random) -> None:
    """A deal's picture (now and then at a trick): well-formed XML, and no element from the record."""
    if not summary.deals:
        return
    deal = rng.choice(summary.deals)
    picture = svg.deal_picture(summary, deal, rng.choice([None, 1, 2]))
    try:
        tree = ElementTree.fromstring(picture)
    except ElementTree.ParseError as exc:
        raise Mismatch(f"the SVG picture is not well-formed XML: {exc}") from exc
    found = {el.tag.rsplit("}", 1)[-1] for el in tree.iter()} & FOREIGN
    if found:
        raise Mismatch(f"the SVG picture holds {sorted(found)}")


def check_html(summary: Any) -> None:
    """The replay page: exactly its own two scripts, and no tag from the record outside them."""
    page = html_report.render(summary)
    if page.count("<script") != 2 or re.search(r"<(img|iframe|object|a\s|svg\s+onload)", page.split("<script")[0]):
        raise Mismatch("the HTML page holds markup from the record")
    if any(c in page for c in "\ufffe\uffff") or re.search("[\ud800-\udfff]", page):
        raise Mismatch("the HTML page holds a character that is not one of a page's")


def check_split_names(record: Any) -> None:
    """``select --split-by``'s file name of every group the record goes to: short, safe, never a placeholder's."""
    for split_by in SplitBy:
        for group in split_groups(record, split_by):
            name = split_file_name(group)
            if len(name.encode("utf-8")) > SPLIT_NAME_BYTES + 6 or "/" in name or "\x00" in name or name[0] == ".":
                raise Mismatch(f"select --split-by {split_by}: the group {group!r} makes the file name {name!r}")
            if name in ("no-event.jsonl", "not-valid.jsonl") and not group.startswith("\x00"):
                raise Mismatch(f"the group {group!r} takes a placeholder's file {name!r}")


def check_native(record: Any, rng: random.Random) -> None:
    """The C kernels' entry points on arguments built from this record, mutated: they return or raise."""
    built = fuzz_native.calls([record])
    for _ in range(3):
        if not built:
            return
        _, fn, args, tabled = rng.choice(built)
        with contextlib.suppress(Exception):
            fn(*fuzz_native.mutate(list(args), rng, tabled))


def _write(kind: str, record: dict[str, Any], rng: random.Random) -> None:
    """Write a record in a format; where the writer claims nothing is lost, read it back: the same record."""
    deal = None
    if kind == "openspiel" and rng.random() < 0.8:
        deal = rng.randint(-1, len(record.get("deals", ())))
    try:
        written = _dumps(kind, record, lossy=False, deal=deal)
    except ConversionError:
        with contextlib.suppress(ConversionError):
            _dumps(kind, record, lossy=True, deal=deal)
        return
    if deal is not None:
        return  # one hand of several: a different record by design
    back = list(FORMATS[kind].loads(written))
    want = canonical(record)
    if len(back) != 1 or back[0].record != want:
        got = back[0].record if len(back) == 1 else [b.record for b in back]
        diags = [f"{d.code} {d.pointer}: {d.message}" for b in back for d in b.diagnostics]
        raise Mismatch(f"{kind} round trip (no loss claimed) changed the record:\n want {want}\n got  {got}\n {diags}")


def check_formats(inp: Input, rng: random.Random) -> list[dict[str, Any]]:
    """The input's own format's reader (and the JSON reader), then a writer (chosen at random) on what
    was read, with a round trip where it claims nothing is lost."""
    records: list[dict[str, Any]] = []
    kinds = [inp.kind] if inp.kind == "json" else [inp.kind, "json"]
    for kind in kinds:
        for parsed in FORMATS[kind].loads(inp.data, "<fuzz>"):
            if parsed.record is not None:
                records.append(parsed.record)
    for record in records[:2]:
        _write(rng.choice(KINDS), record, rng)
    return records


def _crowd(inp: Input, tmp: Path, rng: random.Random) -> Path:
    """An event of many players: the input's record (when it is one) again and again with new names, and
    now and then a name from the hostile strings, as a JSON Lines archive."""
    path = tmp / "crowd.jsonl"
    try:
        record = json.loads(inp.data)
    except (ValueError, RecursionError):
        record = None
    if not isinstance(record, dict) or not isinstance(record.get("players"), list):
        path.write_bytes(inp.data)
        return path
    lines = []
    for i in range(rng.choice([2, 20, 70])):
        copy_of = copy.deepcopy(record)
        for j, player in enumerate(copy_of["players"]):
            if isinstance(player, dict):
                player["name"] = rng.choice([f"P{i}-{j}", f"P{i}-{j}", str(rng.choice(VALUES))])
                player["id"] = f"p{i}-{j}"
        copy_of["event"] = {"name": "Crowd"}
        lines.append(json.dumps(copy_of))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    return path


def check_cli(inp: Input, rng: random.Random, tmp: Path) -> None:
    """One CLI command on the input as a file: exit 0, 1 or 2, and never a traceback."""
    from typer.testing import CliRunner

    from phatlog.cli.app import app

    path = tmp / f"input{SUFFIX[inp.kind]}"
    path.write_bytes(inp.data)
    out = tmp / f"out{rng.choice(list(SUFFIX.values()))}"
    with contextlib.suppress(FileNotFoundError):
        out.unlink()
    commands = [
        ["verify", str(path)],
        ["validate", str(path)],
        ["verify", "--format", "json", str(path)],
        ["replay", "--format", rng.choice(["text", "markdown", "json", "rich"]), str(path)],
        ["replay", "--deal", "1", "--trick", "1", str(path)],
        ["convert", str(path), "-o", str(out), *(["--lossy"] if rng.random() < 0.5 else [])],
        ["select", str(path), "--split-by", rng.choice(["event", "game", "player"]), "-o", str(tmp / "split")],
        ["standings", "--format", rng.choice(["text", "html", "csv", "json", "rich"]), str(_crowd(inp, tmp, rng))],
    ]
    args = rng.choice(commands)
    if args[0] == "standings" and args[2] == "html":
        args += ["-o", "-"]
    result = CliRunner().invoke(app, args)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    if crashed and result.exc_info is not None:
        raise result.exc_info[1].with_traceback(result.exc_info[2])
    if result.exit_code not in (0, 1, 2) or "Traceback" in result.output:
        raise BadExit(f"phatlog {' '.join(args[:-1])}: exit {result.exit_code}\n{result.output[-2000:]}")


#: The entry points, in order; a crash names the one it escaped from.
ENTRY_POINTS: Final = ("read", "referee", "replay", "formats", "split", "native", "cli")


def run_one(
    inp: Input, tmp: Path | None, cli_every: int, rich_every: int, reached: Counter[str] | None = None
) -> tuple[str, BaseException] | None:
    """Every entry point on one input; the first exception that escapes, and from where, or None.
    ``reached`` counts the entry points the input got to (a record read from another format goes on
    through the JSON reader, the referee and the replay)."""
    rng = random.Random(inp.index)
    entry = "read"
    seen = Counter[str]() if reached is None else reached

    def at(name: str) -> None:
        nonlocal entry
        entry = name
        seen[name] += 1

    try:
        loaded = None
        if inp.kind == "json":
            at("read")
            loaded = read_bytes(inp.data, "<fuzz>")
            if loaded.record is not None:
                at("referee")
                check_referee(loaded)
        at("formats")
        records = check_formats(inp, rng)
        if loaded is None and records:  # a record read from another format: the rest of the way as JSON
            try:
                encoded = msgspec.json.encode(records[0])
            except UnicodeEncodeError as exc:  # a reader made a record that no JSON writer can write
                raise Mismatch(f"{inp.kind} reader: a record that is not Unicode text ({exc})") from exc
            at("read")
            loaded = read_bytes(encoded, "<fuzz>")
            if loaded.record is not None:
                at("referee")
                check_referee(loaded)
        if loaded is not None and loaded.record is not None:
            at("split")
            check_split_names(loaded.record)
            if inp.index % 5 == 0:
                at("native")
                check_native(loaded.record, rng)
        if loaded is not None:
            at("replay")
            rich = inp.index % rich_every == 0
            seen["rich"] += rich
            check_replay(loaded, rng, with_rich=rich)
        if tmp is not None and cli_every and inp.index % cli_every == 0:
            at("cli")
            check_cli(inp, rng, tmp)
    except Exception as exc:  # Hang (the watchdog), Mismatch, BadExit, or an exception that escaped
        return entry, exc
    return None


# ------------------------------------------------------------------------------------------------ crashes


def _innermost(tb: TracebackType | None) -> str:
    """The innermost frame in phatlog's own code, as file:function:line."""
    found = "?"
    for frame, line in traceback.walk_tb(tb):
        name = frame.f_code.co_filename
        if f"{os.sep}phatlog{os.sep}" in name and f"{os.sep}.venv{os.sep}" not in name:
            rel = name[name.rfind(f"{os.sep}phatlog{os.sep}") + 1 :]
            found = f"{rel}:{frame.f_code.co_name}:{line}"
    return found


def signature(entry: str, exc: BaseException) -> str:
    """What tells one crash from another: entry point, exception type, innermost phatlog frame."""
    if isinstance(exc, Mismatch | BadExit | Hang):
        return f"{entry} {type(exc).__name__}"
    return f"{entry} {type(exc).__name__} {_innermost(exc.__traceback__)}"


@dataclass(slots=True)
class Crash:
    """One distinct crash: its signature, the first input that showed it, and how often it was seen."""

    signature: str
    index: int
    kind: str
    data: bytes
    how: str
    detail: str
    count: int = 1


@dataclass(slots=True)
class Outcome:
    """What a stretch of inputs found."""

    inputs: int = 0
    seconds: float = 0.0
    crashes: dict[str, Crash] = field(default_factory=dict)
    reached: Counter[str] = field(default_factory=Counter)

    def add(self, other: Outcome) -> None:
        self.inputs += other.inputs
        self.reached.update(other.reached)
        for sig, crash in other.crashes.items():
            mine = self.crashes.get(sig)
            if mine is None:
                self.crashes[sig] = crash
            else:
                mine.count += crash.count
                if crash.index < mine.index:
                    crash.count = mine.count
                    self.crashes[sig] = crash


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang("over the time budget")


@contextlib.contextmanager
def watchdog(budget: float) -> Iterator[None]:
    """Raise Hang in this (main) thread if the block uses more than ``budget`` seconds of CPU time.

    CPU time (``ITIMER_PROF``), not wall time: on a machine shared with other work, a slow input is one
    that computes too long, not one that waited for a core."""
    if budget <= 0:
        yield
        return
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, budget)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


#: The claim audit's budgets in a fuzz run: tight, so that audits run on every claim and stop early (the
#: bounds are what is fuzzed; a verdict within them is the same with the C loop and without).
AUDIT_NODES: Final = 20_000


def tight_audits() -> None:
    """The claim audit's budget per claim made small, for this process."""
    claims.AUDIT_NODES = claims.AUDIT_NODES_PYTHON = AUDIT_NODES


def fuzz_range(
    corpus: list[Seed], seed: int, start: int, stop: int, budget: float, cli_every: int, rich_every: int
) -> Outcome:
    """Run inputs ``start`` to ``stop`` (exclusive)."""
    tight_audits()
    outcome = Outcome()
    began = time.perf_counter()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    with tempfile.TemporaryDirectory(prefix="phatlog-fuzz-") as tmpdir:
        tmp = Path(tmpdir)
        for index in range(start, stop):
            inp = make_input(corpus, seed, index)
            t0 = time.process_time()
            try:
                with watchdog(budget):
                    found = run_one(inp, tmp, cli_every, rich_every, outcome.reached)
            except Hang as late:  # the alarm fired outside run_one's own handler
                found = ("?", late)
            elapsed = time.process_time() - t0
            if found is None and budget > 0 and elapsed > budget:
                found = ("?", Hang(f"took {elapsed:.1f}s of CPU time"))
            outcome.inputs += 1
            if found is None:
                continue
            entry, exc = found
            sig = signature(entry, exc)
            if sig in outcome.crashes:
                outcome.crashes[sig].count += 1
            else:
                detail = "".join(traceback.format_exception(exc))
                outcome.crashes[sig] = Crash(sig, index, inp.kind, inp.data, inp.how, detail)
    outcome.seconds = time.perf_counter() - began
    return outcome


_CORPUS: list[Seed] = []


def _worker(args: tuple[int, int, int, float, int, int]) -> Outcome:
    seed, start, stop, budget, cli_every, rich_every = args
    if not _CORPUS:
        _CORPUS.extend(seeds())
    return fuzz_range(_CORPUS, seed, start, stop, budget, cli_every, rich_every)


# --------------------------------------------------------------------------------------------- shrinking


def _still(crash: Crash, data: bytes, cli_every: int) -> bool:
    inp = Input(crash.index, crash.kind, data, "")
    with tempfile.TemporaryDirectory(prefix="phatlog-shrink-") as tmpdir:
        try:
            with watchdog(10.0):
                found = run_one(inp, Path(tmpdir), cli_every, 1)
        except Hang:
            return crash.signature.endswith("Hang")
    if found is None:
        return False
    return signature(*found) == crash.signature


def _prune_tree(doc: Any, keep: Callable[[Any], bool], deadline: float) -> Any:
    """Delete keys and list items while the crash still shows, one at a time, outermost first."""
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for path in list(_paths(doc)):
            if not path or time.monotonic() > deadline:
                continue
            try:
                parent = _get(doc, path[:-1])
            except (KeyError, IndexError, TypeError):
                continue
            trial = copy.deepcopy(doc)
            try:
                del _get(trial, path[:-1])[path[-1]]
            except (KeyError, IndexError, TypeError):
                continue
            if keep(trial):
                doc = trial
                changed = True
                break
            del parent
    return doc


def shrink(crash: Crash, cli_every: int, seconds: float = 30.0) -> bytes:
    """A smaller input with the same signature: first on the JSON tree, then by deleting byte runs."""
    deadline = time.monotonic() + seconds
    data = crash.data
    if crash.signature.endswith("Hang") or not _still(crash, data, cli_every):
        return data
    if crash.kind == "json":
        try:
            doc = json.loads(data)
        except (ValueError, RecursionError):
            doc = None
        if doc is not None:

            def keep(trial: Any) -> bool:
                return _still(crash, json.dumps(trial).encode("utf-8", "surrogatepass"), cli_every)

            small = json.dumps(_prune_tree(doc, keep, deadline)).encode("utf-8", "surrogatepass")
            if _still(crash, small, cli_every):
                data = small
    chunk = max(1, len(data) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        removed = False
        while i < len(data) and time.monotonic() < deadline:
            trial = data[:i] + data[i + chunk :]
            if trial and _still(crash, trial, cli_every):
                data = trial
                removed = True
            else:
                i += chunk
        if not removed:
            chunk //= 2
    return data


def _slug(sig: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", sig).strip("-")[:120]


def save(crashes: list[Crash], out: Path, cli_every: int, shrink_seconds: float) -> None:
    """One reproducer (shrunk) and one note (signature, input, traceback) a distinct crash."""
    out.mkdir(parents=True, exist_ok=True)
    for crash in crashes:
        small = shrink(crash, cli_every, shrink_seconds) if shrink_seconds > 0 else crash.data
        slug = _slug(crash.signature)
        (out / f"{slug}{SUFFIX[crash.kind]}").write_bytes(small)
        (out / f"{slug}.original{SUFFIX[crash.kind]}").write_bytes(crash.data)
        note = (
            f"signature: {crash.signature}\ninput: {crash.index} ({crash.how}), format {crash.kind}\n"
            f"seen: {crash.count} times\nreproducer: {slug}{SUFFIX[crash.kind]} ({len(small)} bytes, "
            f"shrunk from {len(crash.data)})\n\n{crash.detail}"
        )
        (out / f"{slug}.crash.txt").write_text(note, encoding="utf-8")


# ----------------------------------------------------------------------------------------------- running


def run(
    inputs: int,
    seed: int,
    jobs: int = 1,
    budget: float = 2.0,
    cli_every: int = 97,
    rich_every: int = 7,
    chunk: int = 2000,
    progress: Callable[[Outcome], None] | None = None,
    seconds: float | None = None,
) -> Outcome:
    """Fuzz ``inputs`` inputs from ``seed`` in ``jobs`` processes; every distinct crash, first input first."""
    total = Outcome()
    began = time.perf_counter()
    work = [(seed, s, min(s + chunk, inputs), budget, cli_every, rich_every) for s in range(0, inputs, chunk)]
    if jobs <= 1:
        _CORPUS.extend([] if _CORPUS else seeds())
        for args in work:
            total.add(_worker(args))
            total.seconds = time.perf_counter() - began
            if progress is not None:
                progress(total)
            if seconds is not None and total.seconds > seconds:
                break
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for outcome in pool.imap(_worker, work):
                total.add(outcome)
                total.seconds = time.perf_counter() - began
                if progress is not None:
                    progress(total)
                if seconds is not None and total.seconds > seconds:
                    pool.terminate()
                    break
    total.seconds = time.perf_counter() - began
    return total


def summary_lines(outcome: Outcome) -> list[str]:
    """The summary: inputs run, inputs a second, and every distinct crash."""
    rate = outcome.inputs / outcome.seconds if outcome.seconds else math.nan
    lines = [
        f"{outcome.inputs:,} inputs in {outcome.seconds:.1f}s ({rate:,.0f} inputs/s); "
        f"{len(outcome.crashes)} distinct crashes",
        "  reached: " + ", ".join(f"{name} {outcome.reached[name]:,}" for name in (*ENTRY_POINTS, "rich")),
    ]
    for crash in sorted(outcome.crashes.values(), key=lambda c: c.signature):
        lines.append(f"  {crash.signature}  (x{crash.count}; first input {crash.index}, {crash.how})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=10_000, help="how many inputs (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--out", type=Path, default=None, help="a directory for the reproducers")
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds an input may take (default 2)")
    parser.add_argument("--cli-every", type=int, default=97, help="run the CLI on one input in N (default 97)")
    parser.add_argument("--rich-every", type=int, default=7, help="render rich for one input in N (default 7)")
    parser.add_argument("--shrink", type=float, default=30.0, help="seconds to shrink each crash (default 30)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after about this long (whole chunks)")
    parser.add_argument("--only", type=int, default=None, help="run one input and print what it did")
    args = parser.parse_args(argv)
    if args.only is not None:
        inp = make_input(seeds(), args.seed, args.only)
        sys.stdout.buffer.write(inp.data[:4000] + b"\n")
        print(f"-- input {args.only}: {inp.kind}, {inp.how}, {len(inp.data)} bytes")
        with tempfile.TemporaryDirectory() as tmpdir:
            try:
                with watchdog(args.budget):
                    found = run_one(inp, Path(tmpdir), 1, 1)
            except Hang as late:
                found = ("?", late)
        if found is None:
            print("no crash")
            return 0
        print(signature(*found))
        traceback.print_exception(found[1])
        return 1

    def report(outcome: Outcome) -> None:
        rate = outcome.inputs / outcome.seconds if outcome.seconds else 0.0
        print(
            f"  {outcome.inputs:,} inputs, {rate:,.0f}/s, {len(outcome.crashes)} distinct crashes",
            file=sys.stderr,
            flush=True,
        )

    outcome = run(
        args.inputs,
        args.seed,
        args.jobs,
        args.budget,
        args.cli_every,
        args.rich_every,
        progress=report,
        seconds=args.seconds,
    )
    if args.out is not None and outcome.crashes:
        save(sorted(outcome.crashes.values(), key=lambda c: c.signature), args.out, args.cli_every, args.shrink)
    buf = io.StringIO()
    for line in summary_lines(outcome):
        print(line, file=buf)
    sys.stdout.write(buf.getvalue())
    return 1 if outcome.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
