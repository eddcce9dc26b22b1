"""The converters in ``phatlog.formats``: one interface, canonical records, and round trips that lose nothing.

For every format, A -> B -> A gives back A wherever B can carry it: JSON, JSON Lines and the text notation
carry every record (simulated games of all four games with hypothesis-made comments, extension objects,
metadata, results and trick notes); a CSV score sheet carries the score-sheet view of any record and says
what it drops; OpenSpiel carries a one-hand Oh Hell game of its rules and refuses, with the reason, what it
cannot hold. Reading never raises, whatever the input. These tests need no OpenSpiel (see
``test_openspiel.py`` for the differential tests against it).
"""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest
from conftest import examples
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import phatlog
from phatlog.diagnostics import CODES, Severity
from phatlog.formats import (
    FORMATS,
    ConversionError,
    canonical,
    csv_sheet,
    format_for_path,
    json_record,
    jsonl,
    openspiel,
    text,
)
from phatlog.formats.base import Parsed, group_key, parse_card
from phatlog.play.simulate import simulate
from phatlog.record.model import KEY_ORDER
from phatlog.record.reader import read_bytes
from phatlog.referee.games import referee

Json = dict[str, Any]

PROFILE: Final = settings(deadline=None, max_examples=examples(60), suppress_health_check=list(HealthCheck))
FUZZ: Final = settings(deadline=None, max_examples=examples(400), suppress_health_check=list(HealthCheck))

#: The simulated games the properties draw from: every game, every player count of Oh Hell, some variants.
GAMES: Final[list[tuple[str, dict[str, Any]]]] = [
    ("phat", {}),
    ("phat", {"with_cut": True, "rules": {"muck_tie": "carry", "peg_out": "end_of_deal"}}),
    ("nine_card_don", {"with_cut": True, "rules": {"bonus": "five_high_low_jack"}}),
    ("irish_don", {}),
    ("oh_hell", {"players": 3}),
    ("oh_hell", {"players": 4, "rules": {"schedule": "down", "max_cards": 4, "hook": True, "miss": "minus_diff"}}),
    ("oh_hell", {"players": 5, "rules": {"zero_bid": "five_plus_cards", "must_trump": True}}),
    ("oh_hell", {"players": 6, "rules": {"bidding": "simultaneous", "no_trump": "never"}}),
    ("oh_hell", {"players": 7, "rules": {"schedule": [2, 1], "miss": "tricks"}}),
]


@cache
def _simulated(index: int, seed: int) -> str:
    game, options = GAMES[index]
    return json.dumps(next(iter(simulate(game, seed, 1, **options))))


def simulated(index: int, seed: int = 1) -> Json:
    """A simulated game (a fresh copy)."""
    rec: Json = json.loads(_simulated(index, seed))
    return rec


@cache
def _one_hand(players: int, size: int, seed: int, miss: str) -> str:
    rules = {"schedule": [size], "no_trump": "never", "hook": True, "miss": miss}
    return json.dumps(next(iter(simulate("oh_hell", seed, 1, players=players, rules=rules))))


def one_hand(players: int = 4, size: int = 3, seed: int = 1, miss: str = "tricks") -> Json:
    """A simulated one-hand game of Oh Hell under OpenSpiel's rules."""
    rec: Json = json.loads(_one_hand(players, size, seed, miss))
    return rec


# ------------------------------------------------------------------------------------------ strategies

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
ext_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=3)
free_text = st.text(max_size=30)


@st.composite
def decorated(draw: st.DrawFn, rec: Json) -> Json:
    """A record with hypothesis-made extras: comments, extension objects, metadata, result, trick notes."""
    rec = copy.deepcopy(rec)
    if draw(st.booleans()):
        rec["comment"] = draw(free_text)
    if draw(st.booleans()):
        rec["ext"] = draw(ext_objects)
    if draw(st.booleans()):
        event: Json = {
            k: draw(free_text)
            for k in ("name", "site", "date", "round", "table", "board", "scorer", "source")
            if draw(st.booleans())
        }
        if draw(st.booleans()):
            event["ext"] = draw(ext_objects)
        rec["event"] = event
    if draw(st.booleans()):
        for player in rec["players"]:
            player["name"] = draw(st.text(min_size=1, max_size=12))
            if draw(st.booleans()):
                player["id"] = draw(free_text)
            if draw(st.booleans()):
                player["ext"] = draw(ext_objects)
    if draw(st.booleans()):
        result = dict(rec.get("result", {}))
        if draw(st.booleans()):
            result["status"] = draw(st.sampled_from(["finished", "unfinished"]))
        if draw(st.booleans()):
            result["reason"] = draw(free_text)
        if draw(st.booleans()):
            result.pop("winner", None)
        rec["result"] = result
    deals = rec["deals"]
    for _ in range(draw(st.integers(0, 4))):
        deal = deals[draw(st.integers(0, len(deals) - 1))]
        what = draw(st.sampled_from(["comment", "ext", "trick", "no_hands", "no_score", "taken", "no_points", "sheet"]))
        if what == "comment":
            deal["comment"] = draw(free_text)
        elif what == "ext":
            deal["ext"] = draw(ext_objects)
        elif what == "no_hands":
            deal.pop("hands", None)
        elif what == "sheet":  # a score-sheet deal: no cards at all
            for key in ("hands", "tricks", "undealt"):
                deal.pop(key, None)
        elif what == "no_score":
            deal.pop("score", None)
        elif what == "no_points" and "score" in deal:
            deal["score"].pop("points", None)
        elif what == "taken" and rec["game"] == "oh_hell":
            deal["taken"] = draw(
                st.lists(st.integers(0, 3), min_size=len(rec["players"]), max_size=len(rec["players"]))
            )
        elif what == "trick" and deal.get("tricks"):
            trick = deal["tricks"][draw(st.integers(0, len(deal["tricks"]) - 1))]
            key = draw(st.sampled_from(["comment", "ext", "winner"]))
            trick[key] = (
                draw(free_text) if key == "comment" else draw(ext_objects) if key == "ext" else draw(st.integers(0, 3))
            )
    return rec


@st.composite
def records(draw: st.DrawFn) -> Json:
    index = draw(st.integers(0, len(GAMES) - 1))
    return draw(decorated(simulated(index, draw(st.integers(0, 4)))))


@st.composite
def one_hands(draw: st.DrawFn) -> Json:
    players = draw(st.integers(3, 7))
    size = draw(st.integers(1, 51 // players))
    rec = one_hand(players, size, draw(st.integers(0, 3)), draw(st.sampled_from(["tricks", "minus_diff"])))
    return draw(decorated(rec))


def only(parsed: Iterator[Parsed]) -> Parsed:
    items = list(parsed)
    assert len(items) == 1
    return items[0]


def codes(parsed: Parsed) -> list[str]:
    return [d.code for d in parsed.diagnostics]


# ------------------------------------------------------------------------------------------ the interface


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_format_has_the_one_interface(name: str) -> None:
    fmt = FORMATS[name]
    assert name == fmt.NAME
    assert fmt.SUFFIXES and all(s.startswith(".") and s == s.lower() for s in fmt.SUFFIXES)
    for function in ("loads", "load", "losses", "dumps", "dump", "render"):
        assert callable(getattr(fmt, function))
    assert fmt.MANY is (name in ("jsonl", "text", "table"))


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("game.json", "json"),
        ("GAME.JSON", "json"),
        ("archive.jsonl", "jsonl"),
        ("archive.ndjson", "jsonl"),
        ("typed.txt", "text"),
        ("typed.phat", "text"),
        ("sheet.csv", "csv"),
        ("hand.openspiel", "openspiel"),
        ("hand.spiel", "openspiel"),
        ("notes.doc", None),
        ("-", None),
    ],
)
def test_the_format_is_told_from_the_file_name(path: str, name: str | None) -> None:
    fmt = format_for_path(path)
    assert (fmt.NAME if fmt is not None else None) == name


def test_the_conversion_codes_are_registered() -> None:
    assert CODES["PL701"].severity is Severity.ERROR
    assert CODES["PL702"].severity is Severity.WARNING
    assert CODES["PL703"].severity is Severity.ERROR


# ------------------------------------------------------------------------------------------ canonical records


def test_canonical_drops_what_says_nothing_and_keeps_what_is_said() -> None:
    rec = simulated(4)
    rec["event"] = {}
    rec["result"] = {"status": "finished", "winner": None}
    rec["comment"] = None
    rec["ext"] = {"kept": None, "empty": {}, "list": [None]}
    rec["rules"] = {"hook": False}
    rec["deals"][0]["score"] = {}
    rec["deals"][0]["turnup"] = None
    rec["deals"][1]["tricks"] = []
    out = canonical(rec)
    assert "event" not in out and "comment" not in out
    assert out["result"] == {"status": "finished"}
    assert out["ext"] == {"kept": None, "empty": {}, "list": [None]}
    assert out["rules"] == {"hook": False}
    assert "score" not in out["deals"][0] and "turnup" not in out["deals"][0]
    assert "tricks" not in out["deals"][1]
    assert canonical(out) == out


def test_canonical_orders_keys_as_phatlog_writes_them() -> None:
    rec = simulated(1)
    rec["comment"] = "a comment"
    shuffled = dict(reversed(list(rec.items())))
    shuffled["deals"] = [dict(reversed(list(d.items()))) for d in rec["deals"]]
    out = canonical(shuffled)
    assert list(out) == [k for k in KEY_ORDER["record"] if k in out]
    assert list(out["deals"][0]) == [k for k in KEY_ORDER["deal"] if k in out["deals"][0]]
    assert list(out["deals"][0]["tricks"][0]) == [k for k in KEY_ORDER["trick"] if k in out["deals"][0]["tricks"][0]]


def test_canonical_refuses_an_invalid_record_with_the_readers_diagnostics() -> None:
    rec = simulated(0)
    rec["deals"][0]["hands"][0][0] = "10H"
    with pytest.raises(ConversionError) as caught:
        canonical(rec)
    assert [(d.code, d.pointer) for d in caught.value.diagnostics] == [("PL104", "/deals/0/hands/0/0")]


# ------------------------------------------------------------------------------------------ json and jsonl


@PROFILE
@given(records())
def test_json_round_trip_is_exact_and_canonical(rec: Json) -> None:
    written = json_record.dumps(rec)
    back = only(json_record.loads(written))
    assert back.diagnostics == []
    assert back.record == canonical(rec)
    assert json_record.dumps(back.record) == written
    assert read_bytes(written.encode()).diagnostics == []
    assert json_record.losses(rec) == []


def test_json_is_laid_out_for_people() -> None:
    written = json_record.dumps(simulated(0))
    lines = written.splitlines()
    assert lines[0] == "{" and lines[1] == '  "phatlog": "1.0",'
    assert any(line.strip().startswith('{"leader": ') and line.strip().endswith("]},") for line in lines)
    assert all(len(line) <= 100 for line in lines)
    assert written.endswith("}\n")


def test_jsonl_round_trip_of_an_archive() -> None:
    recs = [simulated(i, seed) for i in range(len(GAMES)) for seed in (1, 2)]
    out = io.StringIO()
    assert jsonl.dump(iter(recs), out) == len(recs)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(recs) and all(json.loads(line) for line in lines)
    back = list(jsonl.load(io.BytesIO(out.getvalue().encode())))
    assert [p.record for p in back] == [canonical(r) for r in recs]
    assert [p.line for p in back] == list(range(1, len(recs) + 1))


@PROFILE
@given(st.lists(records(), min_size=1, max_size=4))
def test_jsonl_round_trip_is_exact(recs: list[Json]) -> None:
    out = io.StringIO()
    assert jsonl.dump(iter(recs), out) == len(recs)
    back = list(jsonl.loads(out.getvalue()))
    assert [p.record for p in back] == [canonical(r) for r in recs]
    assert all(p.diagnostics == [] for p in back)


class _Lines(io.RawIOBase):
    """A stream that counts the lines read from it, to show that ``jsonl.load`` reads lazily."""

    def __init__(self, lines: list[bytes]) -> None:
        self.lines = lines
        self.read_count = 0

    def readline(self, size: int | None = -1) -> bytes:
        if self.read_count >= len(self.lines):
            return b""
        self.read_count += 1
        return self.lines[self.read_count - 1]


def test_jsonl_streams_one_record_at_a_time() -> None:
    line = (json.dumps(simulated(0)) + "\n").encode()
    stream = _Lines([line] * 1000)
    records_read = jsonl.load(stream)  # type: ignore[arg-type]
    first = next(records_read)
    assert first.record is not None and stream.read_count == 1
    assert sum(1 for _ in records_read) == 999


def test_jsonl_reports_each_bad_line_with_its_number() -> None:
    good = json.dumps(simulated(0))
    data = f"{good}\n\n{{not json\n{good}\n".encode()
    found = list(jsonl.loads(data))
    assert [p.record is not None for p in found] == [True, False, True]
    assert found[1].line == 3 and all(d.line == 3 for d in found[1].diagnostics)
    assert codes(found[1]) == ["PL002"]
    assert codes(only(jsonl.loads(b"\n\n"))) == ["PL006"]


def test_single_game_formats_refuse_a_second_game() -> None:
    for fmt in (json_record, csv_sheet):  # the text notation holds many (tests/test_archive_formats.py)
        with pytest.raises(ConversionError) as caught:
            fmt.dump([simulated(0), simulated(0)], io.StringIO(), lossy=True)
        assert caught.value.diagnostics[0].code == "PL703"


# ------------------------------------------------------------------------------------------ the text notation


@settings(deadline=None, max_examples=examples(150), suppress_health_check=list(HealthCheck))
@given(records())
def test_text_round_trip_is_exact(rec: Json) -> None:
    written = text.dumps(rec)
    back = only(text.loads(written))
    assert back.diagnostics == []
    assert back.record == canonical(rec)
    assert text.dumps(back.record) == written
    assert text.losses(rec) == []


@pytest.mark.parametrize("spelling", ["TH", "th", "Th", "10H", "10h", "♥T", "T♥", "10♥", "♥10", "HT", "♡T", "♥\ufe0fT"])
def test_a_card_may_be_spelt_many_ways(spelling: str) -> None:
    assert parse_card(spelling) == "TH"


@pytest.mark.parametrize("spelling", ["1H", "TT", "HH", "10", "H", "11H", "T♥♥", "X", ""])
def test_what_is_not_a_card(spelling: str) -> None:
    assert parse_card(spelling) is None


HAND_TYPED: Final = """\
; Oh Hell at the club, typed from the score pad
[Game "Oh Hell"]
[Event Club night]
[Round 3]
[Rules "schedule=[2] no_trump=never hook=true miss=tricks"]
[Player "Ann"] [Player "Ben"] [Player "Cal"]

deal 1  dealer ann   {Ben was late}
  hands Ann: 10h js  Ben: ♥2 3♣  Cal: qd 10♦
  turnup as
  bids 1 1 1
  1. 2h 10d th              {Cal cannot follow}
  2. Ann: j♠ 3c QD -> Ann
  points 2 0 0
"""


def test_the_text_notation_is_forgiving() -> None:
    parsed = only(text.loads(HAND_TYPED))
    assert parsed.diagnostics == []
    rec = parsed.record
    assert rec is not None
    assert rec["game"] == "oh_hell" and rec["event"] == {"name": "Club night", "round": "3"}
    assert rec["comment"] == "Oh Hell at the club, typed from the score pad"
    deal = rec["deals"][0]
    assert deal["hands"] == [["TH", "JS"], ["2H", "3C"], ["QD", "TD"]]
    assert deal["comment"] == "Ben was late"
    assert deal["tricks"][0] == {"leader": 1, "cards": ["2H", "TD", "TH"], "comment": "Cal cannot follow"}
    assert deal["tricks"][1] == {"leader": 0, "cards": ["JS", "3C", "QD"], "winner": 0}
    replayed = read_bytes(json.dumps(rec).encode()).record
    assert replayed is not None
    verdict = referee(replayed)
    assert [d.code for d in verdict.diagnostics if d.severity is Severity.ERROR] == []


def test_leaders_are_worked_out_for_phat_when_left_out() -> None:
    rec = canonical(simulated(0))
    written = text.dumps(rec)
    lines = []
    for line in written.splitlines():
        head, _, rest = line.partition(". ")
        if head.strip().isdigit() and ": " in rest:
            line = f"{head}. {rest.split(': ', 1)[1]}"
        lines.append(line)
    parsed = only(text.loads("\n".join(lines)))
    assert parsed.record == rec


def test_names_that_do_not_tell_seats_apart_are_written_as_seat_numbers() -> None:
    rec = simulated(4)
    for player in rec["players"]:
        player["name"] = "Sam"
    written = text.dumps(rec)
    assert "dealer 0" in written or "dealer 1" in written or "dealer 2" in written
    assert only(text.loads(written)).record == canonical(rec)


def test_comments_that_braces_cannot_hold_are_written_as_strings() -> None:
    rec = simulated(0)
    rec["deals"][0]["comment"] = "a } brace"
    rec["deals"][0]["tricks"][0]["comment"] = "bell\a"
    written = text.dumps(rec)
    assert 'comment "a } brace"' in written and 'comment "bell\\u0007"' in written
    assert only(text.loads(written)).record == canonical(rec)


@pytest.mark.parametrize(
    ("source", "line", "column", "message"),
    [
        ('[Gaem "phat"]', 1, 2, "did you mean [Game]"),
        ('[Game "phat"\n', 2, 1, "expected ']'"),
        ('[Game "phat"]\n[Game "phat"]', 2, 1, "given twice"),
        ('[Game "phat"]\n[Player "Ann"]\ndeal 1 dealer Bob', 3, 15, "no player is named 'Bob'"),
        ('[Game "phat"]\ndeal 1 dealer 0\n  1. 0: AD 2D 1H 3D', 3, 15, "'1H' is not a card"),
        ('[Game "phat"]\ndeal 1 dealer 0\n  2. 0: AD 2D', 3, 3, "expected trick 1"),
        ('[Game "phat"]\ndeal 2', 2, 6, "this is deal 1"),
        ('[Game "phat"] {oops', 1, 15, "no closing '}'"),
        ("deal 1", 1, 1, "[Game"),
        ('[Game "phat"]\ndeal 1\n dealer 0 dealer 1', 3, 11, "gives 'dealer' twice"),
        ('[Game "phat"]\ndeal 1\n 1. AD 2D 3D 4D', 3, 2, "cannot be worked out"),
        ('[Game "phat"]\n[Rules "target"]', 2, 8, "expected key=value"),
        ('[Game "phat"]\ndeal 1 ext [1]', 2, 12, "ext takes a JSON object"),
        ('[Game "phat"]\ndeal 1 ext {"a": NaN}', 2, 12, "NaN is not a JSON number"),
        ('[Game "phat"]\n  bogus', 2, 3, "expected a tag"),
    ],
)
def test_text_errors_name_what_was_expected_with_line_and_column(
    source: str, line: int, column: int, message: str
) -> None:
    parsed = only(text.loads(source))
    assert parsed.record is None
    (found,) = parsed.diagnostics
    assert found.code == "PL701"
    assert (found.line, found.column) == (line, column)
    assert message in found.message


def test_record_errors_in_text_are_placed_at_their_tag_or_item() -> None:
    source = '[Game "phat"]\n[Rules "target=abc"]\n[Player "Ann"]\ndeal 1 dealer 0\n  1. 0: AD 2D 3D\n'
    parsed = only(text.loads(source))
    found = {(d.code, d.pointer): (d.line, d.column) for d in parsed.diagnostics}
    assert found[("PL103", "/rules/target")] == (2, 1)
    assert found[("PL105", "/players")] == (3, 1)
    assert found[("PL105", "/deals/0/tricks/0/cards")] == (5, 3)


# ------------------------------------------------------------------------------------------ csv score sheets


def _sheet_view(rec: Json) -> Json:
    """A record without its cards: what a score sheet keeps (before Oh Hell's tricks taken are added)."""
    out = canonical(rec)
    out["deals"] = [{k: v for k, v in d.items() if k not in ("hands", "undealt", "tricks")} for d in out["deals"]]
    return out


@PROFILE
@given(records())
def test_csv_carries_the_score_sheet_view_and_lists_what_it_drops(rec: Json) -> None:
    lost = csv_sheet.losses(rec)
    want = canonical(rec)
    expected = {
        (f"/deals/{d}/{key}")
        for d, deal in enumerate(want["deals"])
        for key in ("hands", "undealt", "tricks")
        if key in deal
    }
    assert {d.pointer for d in lost} == expected and all(d.code == "PL702" for d in lost)
    if lost:
        with pytest.raises(ConversionError):
            csv_sheet.dumps(rec)
    written = csv_sheet.dumps(rec, lossy=True)
    back = only(csv_sheet.loads(written))
    assert back.diagnostics == []
    assert back.record is not None
    assert csv_sheet.losses(back.record) == []
    assert csv_sheet.dumps(back.record) == written
    view = _sheet_view(rec)
    for deal, got in zip(view["deals"], back.record["deals"], strict=True):
        if "taken" not in deal:
            got.pop("taken", None)
    assert back.record == view


def test_csv_works_out_oh_hells_tricks_taken_from_the_tricks() -> None:
    for index in (4, 5, 6, 8):
        rec = simulated(index)
        back = only(csv_sheet.loads(csv_sheet.dumps(rec, lossy=True))).record
        assert back is not None
        n = len(rec["players"])
        for deal, sheet in zip(rec["deals"], back["deals"], strict=True):
            trump = deal.get("turnup", "  ")[1]
            taken = [0] * n
            for trick in deal["tricks"]:
                cards = trick["cards"]
                strength = [((c[1] == trump) * 2 + (c[1] == cards[0][1]), "23456789TJQKA".index(c[0])) for c in cards]
                taken[(trick["leader"] + strength.index(max(strength))) % n] += 1
            assert sheet["taken"] == taken


def test_csv_gives_a_claimed_hand_the_tricks_the_claim_gave() -> None:
    """Oh Hell, a hand claimed after two tricks (Ben claims the rest, 2 of 4; Ann won both played): the
    sheet's tricks taken count the claim's, as the referee scores it (Ben made his bid of 2: 12 points),
    and were left empty before; a contested claim the director gave fewer tricks leaves them empty (the
    hand's taken must then say who took the others)."""
    path = Path(__file__).parent.parent / "samples" / "rulings" / "oh-hell-claim-unsound.json"
    rec = json.loads(path.read_text(encoding="utf-8"))
    back = only(csv_sheet.loads(csv_sheet.dumps(rec, lossy=True))).record
    assert back is not None
    assert back["deals"][3]["taken"] == [2, 2, 0]
    assert back["deals"][3]["score"]["points"] == [0, 12, 0]
    assert not [d for d in phatlog.verify(back).diagnostics if d.severity is Severity.ERROR]
    rec["deals"][3]["rulings"][0].update(accepted=False, decision=1)
    back = only(csv_sheet.loads(csv_sheet.dumps(rec, lossy=True))).record
    assert back is not None and "taken" not in back["deals"][3]


def test_a_score_sheet_record_goes_through_csv_without_loss() -> None:
    rec = _sheet_view(simulated(4))
    assert csv_sheet.losses(rec) == []
    assert only(csv_sheet.loads(csv_sheet.dumps(rec))).record == canonical(rec)


def test_a_hand_typed_sheet_reads() -> None:
    sheet = (
        "# game: oh hell\n# rules: schedule=[1,2] hook=true\n"
        "Deal;Dealer;Ann bid;Ann took;Ben bid;Ben tricks;Cal bids;Cal won;Notes\n"
        "1;Ann;0;0;1;1;1;0;\n2;ben;1;1;1;0;1;1;close one\n"
    )
    rec = only(csv_sheet.loads(sheet)).record
    assert rec == {
        "phatlog": "1.0",
        "game": "oh_hell",
        "rules": {"schedule": [1, 2], "hook": True},
        "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cal"}],
        "deals": [
            {"dealer": 0, "bids": [0, 1, 1], "taken": [0, 1, 0]},
            {"dealer": 1, "bids": [1, 1, 1], "taken": [1, 0, 1], "comment": "close one"},
        ],
    }


def test_a_phat_sheet_names_its_sides() -> None:
    sheet = (
        "# game: phat\n# player: Ann\n# player: Ben\n# player: Cal\n# player: Dee\n"
        "deal,dealer,NS points,NS total,Ben+Dee points,Ben+Dee total\n1,Dee,54,54,34,34\n"
    )
    rec = only(csv_sheet.loads(sheet)).record
    assert rec is not None
    assert rec["deals"] == [{"dealer": 3, "score": {"points": [54, 34], "total": [54, 34]}}]
    assert "Ann & Cal points" in csv_sheet.dumps(rec)


@pytest.mark.parametrize(
    ("sheet", "line", "column", "message"),
    [
        ("deal,dealer\n1,0\n", 1, 1, "the game is not given"),
        ("# game: phat\ndeal,dealer\n", 2, 1, "the players of phat are not given"),
        ("# game: oh_hell\ndeal,dealer,score\n", 2, 3, "unknown column 'score'"),
        ("# game: oh_hell\ndeal,dealer,Ann bid,Ben bid,Cal bid\n1,Ann,1,,0\n", 3, 1, "'Ben bid' is empty"),
        ("# game: oh_hell\ndeal,dealer,Ann bid,Ben bid,Cal bid\n1,Ann,1,x,0\n", 3, 4, "expected a whole number"),
        ("# game: oh_hell\ndeal,dealer,cards,Ann bid,Ben bid,Cal bid\n1,Ann,2,1,0,0\n", 3, 3, "schedule deals 1"),
        ("# game: oh_hell\ndeal,dealer,Ann bid,Ben bid,Cal bid\n2,Ann,1,0,0\n", 3, 1, "this is deal 1"),
        ("# game: oh_hell\ndeal,dealer,Ann bid,Ben bid,Cal bid\n1,Bob,1,0,0\n", 3, 2, "the dealer 'Bob'"),
        ("# gmae: phat\n", 1, 1, "expected a metadata line"),
        ("# game: oh_hell\ndeal,dealer,Ann bid\n1,Ann,0\n# event: late\n", 4, 1, "come before the header"),
        ("# game: oh_hell\ndeal,dealer,Ann bid\n1,Ann,0,9\n", 3, 4, "the header names 3 columns"),
        ('# game: oh_hell\ndeal,dealer,Ann bid\n1,Ann,"0\n', 3, 1, "not valid CSV"),
    ],
)
def test_csv_errors_name_the_line_and_column(sheet: str, line: int, column: int, message: str) -> None:
    parsed = only(csv_sheet.loads(sheet))
    assert parsed.record is None
    (found,) = parsed.diagnostics
    assert (found.code, found.line, found.column) == ("PL701", line, column), found
    assert message in found.message


# ------------------------------------------------------------------------------------------ openspiel (no pyspiel)


def test_openspiel_numbers_cards_rank_times_four_plus_suit_in_the_order_c_d_s_h() -> None:
    assert [openspiel.card_of(a) for a in (0, 1, 2, 3, 4, 48, 51)] == ["2C", "2D", "2S", "2H", "3C", "AC", "AH"]
    assert sorted(openspiel.action_of(openspiel.card_of(a)) for a in range(52)) == list(range(52))


@PROFILE
@given(one_hands())
def test_a_one_hand_game_goes_through_openspiel_without_loss(rec: Json) -> None:
    lost = openspiel.losses(rec)
    assume(not any(d.code == "PL703" for d in lost))  # a decoration that OpenSpiel cannot hold (taken, ...)
    assert lost == []
    written = openspiel.dumps(rec)
    back = only(openspiel.loads(written))
    assert back.diagnostics == []
    assert back.record == canonical(rec)


def test_an_openspiel_file_reads_and_writes_back_the_same() -> None:
    # Written by pyspiel.serialize_game_and_state for a random hand (oh_hell, 3 players, 5 tricks drawn).
    pyspiel_text = (
        "# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n[Game]\n"
        "oh_hell()\n[State]\n"
        + "5 2 51 48 4 17 8 34 31 35 47 27 15 7 40 1 32 38 56 52 56 31 15 7 40 8 4 17 1 34 32 51 48 35 47 27".replace(
            " ", "\n"
        )
        + "\n\n"
    )
    back = only(openspiel.loads(pyspiel_text))
    assert back.diagnostics == [] and back.record is not None
    rec = back.record
    assert rec["rules"] == {"schedule": [5], "no_trump": "never", "hook": True, "miss": "tricks"}
    assert rec["ext"] == {"openspiel": {"game": "oh_hell()"}}
    deal = rec["deals"][0]
    assert deal["dealer"] == 2 and deal["turnup"] == "JS" and deal["bids"] == [4, 0, 4]
    assert deal["hands"][0] == ["AH", "6D", "9H", "8H", "QC"]
    replayed = read_bytes(json.dumps(rec).encode()).record
    assert replayed is not None
    verdict = referee(replayed)
    assert verdict.totals == [2, 1, 2]
    written = openspiel.dumps(rec)
    assert written.splitlines()[1:] == pyspiel_text.splitlines()[1:]


def _refusal(rec: Json, **options: Any) -> list[tuple[str, str]]:
    return [(d.pointer, d.message) for d in openspiel.losses(rec, **options) if d.code == "PL703"]


@pytest.mark.parametrize(
    ("change", "pointer", "message"),
    [
        ({"hook": False}, "/rules/hook", "always plays with the hook"),
        ({"hook": False, "bidding": "simultaneous"}, "/rules/bidding", "bid in turn"),
        ({"must_trump": True}, "/rules/must_trump", "no obligation to trump"),
        ({"miss": "zero"}, "/rules/miss", "by its tricks or by minus the difference"),
        ({"zero_bid": "five_plus_cards"}, "/rules/zero_bid", "made zero bid 10"),
        ({"no_trump": "last_hand"}, "/deals/0", "played without trump"),
    ],
)
def test_openspiel_refuses_rules_it_lacks(change: Json, pointer: str, message: str) -> None:
    rec = one_hand()
    rec["rules"].update(change)
    found = _refusal(rec)
    assert any(p == pointer and message in m for p, m in found), found
    with pytest.raises(ConversionError):
        openspiel.dumps(rec, lossy=True)


def test_openspiel_refuses_what_it_cannot_hold() -> None:
    phat = simulated(0)
    assert _refusal(phat)[0][0] == "/game"
    no_trump = one_hand(4, 13)  # 4 x 13 cards leave nothing to turn up
    assert "no card to turn up" in _refusal(no_trump)[0][1]
    sheet = one_hand()
    deal = sheet["deals"][0]
    del deal["hands"], deal["tricks"]
    deal["taken"] = [1, 1, 1, 0]
    assert _refusal(sheet)[0][0] == "/deals/0/hands"
    revoke = one_hand(3, 5, seed=2)
    tricks = revoke["deals"][0]["tricks"]
    tricks[0]["cards"][1], tricks[1]["cards"][1] = tricks[1]["cards"][1], tricks[0]["cards"][1]
    assert any("OpenSpiel cannot hold this hand" in m for _, m in _refusal(revoke))
    game = simulated(5)
    assert "choose one" in _refusal(game)[0][1]


def test_one_hand_of_a_longer_game_is_written_with_its_losses_listed() -> None:
    game = simulated(5)  # Oh Hell, hook, minus_diff, hands of 4, 3, 2, 1 cards
    lost = openspiel.losses(game, deal=1)
    assert sorted(d.pointer for d in lost) == ["/deals", "/deals/1/score/total", "/result", "/rules"]
    assert all(d.code == "PL702" for d in lost)
    with pytest.raises(ConversionError):
        openspiel.dumps(game, deal=1)
    back = only(openspiel.loads(openspiel.dumps(game, lossy=True, deal=1))).record
    assert back is not None
    assert back["rules"] == {"schedule": [3], "no_trump": "never", "hook": True, "miss": "minus_diff"}
    assert back["players"] == game["players"] and back["event"] == game["event"]
    assert back["deals"][0]["score"] == {"points": game["deals"][1]["score"]["points"]}


@pytest.mark.parametrize(
    ("source", "code", "line", "message"),
    [
        ("[Game]\nchess()\n[State]\n", "PL703", 2, "not chess"),
        ("[Game]\noh_hell(players=4,colour=red)\n", "PL701", 2, "no parameter 'colour=red'"),
        ("[Game]\noh_hell(points_per_trick=2)\n", "PL703", 2, "scores 2 points a trick"),
        ("[Game]\noh_hell(num_suits=3)\n", "PL703", 2, "the full pack of 52"),
        ("[Game]\noh_hell(num_tricks_fixed=18)\n", "PL703", 2, "cannot be dealt"),
        ("[Game]\noh_hell()\n[State]\n1\n0\n0\n", "PL703", 6, "before the cards are dealt"),
        ("[Game]\noh_hell()\n[State]\nfoo\n", "PL701", 4, "expected an action"),
        ("[Game]\noh_hell()\n[State]\n18\n", "PL701", 4, "1 to 17"),
        ("[Game]\noh_hell()\n[State]\n1\n0\n5\n5\n", "PL701", 7, "dealt twice"),
        ("[Game]\noh_hell(num_tricks_fixed=1)\n[State]\n1\n0\n0\n1\n2\n3\n52\n52\n53\n", "PL701", 12, "the hook"),
        ("[Game]\noh_hell(num_tricks_fixed=1)\n[State]\n1\n0\n0\n1\n2\n3\n52\n52\n54\n", "PL701", 12, "52 to 53"),
        ("[Game]\noh_hell(num_tricks_fixed=1)\n[State]\n1\n0\n0\n1\n2\n3\n52\n52\n52\n0\n", "PL701", 13, "Player 1 is"),
        (
            "[Game]\noh_hell(num_tricks_fixed=1)\n[State]\n1\n0\n0\n1\n2\n3\n52\n52\n52\n1\n2\n0\n4\n",
            "PL701",
            16,
            "over",
        ),
        ("[State]\n1\n[Game]\noh_hell()\n", "PL701", 3, "comes after [State]"),
        ("hello\n", "PL701", 1, "expected a section header"),
        ("# only a comment\n", "PL701", 1, "[Game] section is missing"),
        ("[Game]\noh_hell()\n# phatlog: {\n# phatlog: {}\n", "PL701", 4, "a second"),
    ],
)
def test_openspiel_input_errors(source: str, code: str, line: int, message: str) -> None:
    parsed = only(openspiel.loads(source))
    assert parsed.record is None
    (found,) = parsed.diagnostics
    assert (found.code, found.line) == (code, line), found
    assert message in found.message


@pytest.mark.parametrize(
    ("extras", "message"),
    [
        ("{", "not a JSON object"),
        ('{"what": 1}', "the keys record, deal and tricks"),
        ('{"record": {"game": "phat"}}', "some of the keys"),
        ('{"record": {"players": [{"name": "A"}]}}', "names 1 players; the game has 3"),
        ('{"record": {"rules": {"schedule": [2], "hook": true, "no_trump": "never"}}}', "not the game's"),
        ('{"deal": {"hands": [["2C"]]}}', "may only drop them"),
        ('{"tricks": {"7": {"comment": "x"}}}', "names trick '7'"),
    ],
)
def test_openspiel_extras_line_is_checked(extras: str, message: str) -> None:
    source = (
        f"# phatlog: {extras}\n[Meta]\nVersion: 1\n\n[Game]\noh_hell(num_tricks_fixed=1)\n[State]\n"
        "1\n0\n0\n1\n2\n3\n52\n52\n52\n1\n2\n0\n"
    )
    parsed = only(openspiel.loads(source))
    assert parsed.record is None
    (found,) = parsed.diagnostics
    assert (found.code, found.line) == ("PL701", 1)
    assert message in found.message


def test_a_hand_stopped_part_way_is_read_with_its_losses() -> None:
    source = "[Game]\noh_hell(num_tricks_fixed=2)\n[State]\n2\n0\n0\n1\n2\n4\n5\n6\n7\n52\n52\n53\n1\n"
    parsed = only(openspiel.loads(source))
    assert [(d.code, d.pointer) for d in parsed.diagnostics] == [("PL702", "/deals/0/tricks/0")]
    rec = parsed.record
    assert rec is not None and rec["result"]["status"] == "unfinished"
    assert rec["deals"][0]["bids"] == [1, 0, 0] and "tricks" not in rec["deals"][0]
    replayed = read_bytes(json.dumps(rec).encode()).record
    assert replayed is not None
    verdict = referee(replayed)
    assert [d.code for d in verdict.diagnostics if d.severity is Severity.ERROR] == []
    partial_bids = "[Game]\noh_hell(num_tricks_fixed=1)\n[State]\n1\n0\n0\n1\n2\n3\n52\n"
    parsed = only(openspiel.loads(partial_bids))
    assert [(d.code, d.pointer) for d in parsed.diagnostics] == [("PL702", "/deals/0/bids")]


def test_the_converters_do_not_need_openspiel() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None; sys.modules['open_spiel'] = None\n"
        "from phatlog.formats import openspiel\n"
        "src = '[Game]\\noh_hell(num_tricks_fixed=1)\\n[State]\\n1\\n0\\n0\\n1\\n2\\n3\\n52\\n52\\n52\\n1\\n2\\n0\\n'\n"
        "(p,) = openspiel.loads(src); assert p.record is not None, p.diagnostics\n"
        "print(openspiel.dumps(p.record).split()[-1])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


# ------------------------------------------------------------------------------------------ bad input


GARBAGE: Final = [
    *"[]{}:;/\"-> \n\t,#.=_\\'\r0123456789TJQKAtcdhs♥♠AaBbZz",
    *("deal", "hands", "dealer", '[Game "phat"]', '[Game "oh_hell"]', '[Player "A"]', "1.", "[State]", "[Game]"),
    *("oh_hell(players=3)", "\n52\n", "# game: phat\n", "# player: A\n", "deal,dealer", "A bid", "\ufeff", "\x00"),
]
garbage_pieces = st.sampled_from(GARBAGE)


@FUZZ
@given(st.lists(garbage_pieces, max_size=50).map("".join), st.sampled_from(sorted(FORMATS)))
def test_no_input_makes_a_reader_raise(source: str, name: str) -> None:
    for parsed in FORMATS[name].loads(source):
        assert parsed.record is not None or parsed.diagnostics
        for d in parsed.diagnostics:
            assert d.code in CODES


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_bytes_that_are_not_utf8_are_reported(name: str) -> None:
    parsed = list(FORMATS[name].loads(b"\xff\xfe[Game]"))
    assert parsed[0].record is None and parsed[0].diagnostics[0].code == "PL002"


def test_losses_group_by_kind() -> None:
    lost = csv_sheet.losses(simulated(0))
    kinds = {group_key(d) for d in lost}
    assert {k[1] for k in kinds} == {"/deals/*/hands", "/deals/*/tricks"}


# ------------------------------------------------------------------------------------------ the documentation

DOCS: Final = Path(__file__).resolve().parent.parent / "docs"


def _fences(page: str) -> list[tuple[str, str]]:
    source = (DOCS / page).read_text(encoding="utf-8")
    return [(m[1], m[2]) for m in re.finditer(r"^```([^\n]*)\n(.*?)^```$", source, re.M | re.S)]


def test_the_text_notation_examples_read_and_verify_clean() -> None:
    examples = [body for info, body in _fences("text-notation.md") if info == "text example"]
    assert len(examples) >= 3
    for body in examples:
        parsed = only(text.loads(body))
        assert parsed.diagnostics == [], parsed.diagnostics
        assert parsed.record is not None
        replayed = read_bytes(json.dumps(parsed.record).encode()).record
        assert replayed is not None
        verdict = referee(replayed)
        assert [d.message for d in verdict.diagnostics if d.severity is Severity.ERROR] == []


def test_the_text_notation_error_example_is_what_phatlog_says() -> None:
    fences = _fences("text-notation.md")
    index = next(i for i, (info, _) in enumerate(fences) if info == "console")
    bad, console = fences[index - 1][1], fences[index][1]
    (found,) = only(text.loads(bad)).diagnostics
    shown = f"bad.txt:{found.line}:{found.column}: /: error {found.code} {found.name}: {found.message}"
    assert shown in console.splitlines()


def test_the_openspiel_example_in_the_formats_page_reads() -> None:
    page = (DOCS / "formats.md").read_text(encoding="utf-8").split("## OpenSpiel", 1)[1]
    example = next(body for info, body in re.findall(r"^```([^\n]*)\n(.*?)^```$", page, re.M | re.S) if info == "text")
    parsed = only(openspiel.loads(example))
    assert parsed.diagnostics == [] and parsed.record is not None
    replayed = read_bytes(json.dumps(parsed.record).encode()).record
    assert replayed is not None
    assert referee(replayed).totals == [1, 10, 10]


@pytest.mark.parametrize("names", [["C2", "dealer", "th", "AH"], ["deal", "hands", "10H", "Ann"]])
def test_text_keeps_names_that_read_as_cards_or_words_of_the_notation(names: list[str]) -> None:
    """A player called "C2" or "dealer" is quoted, so that it reads back as a name, not a card or an item."""
    rec = next(iter(simulate("phat", 1, 1)))
    for seat, name in enumerate(names):
        rec["players"][seat]["name"] = name
    back = only(text.loads(text.dumps(rec)))
    assert back.diagnostics == []
    assert back.record == canonical(rec)
