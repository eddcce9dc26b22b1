"""Score-sheet records: games scored on paper, without the cards (record format, "two levels").

An Oh Hell score sheet records each hand's dealer, bids and tricks taken, and the scorer's points and
running totals; a Phat score sheet records each deal's dealer and the points and totals. ``verify``
checks all that such a record lets it check, and says once, as a PL406 note listing the deals, what it
cannot: the deal, the turned-up card (Oh Hell) and the play.

Oh Hell: the bids (0 to the hand size, and the hook), that the tricks taken add up to the hand size,
each hand's points from the bids and tricks taken, the running totals, the result, the schedule (how many
hands, and through the bids and tricks their sizes) and the dealer's rotation. Phat: that each deal's
points are a score a deal can give (80 of the phat + the muck's 8; on a 40-40 muck 80 under
``muck_tie: none`` and ``carry``, 96 under ``both``; the carried 8s), the running totals, the result, the
end of the game at 181, and the dealer's rotation.

Expected numbers are worked out here from the rules reference (A.2, A.5), not read off the engine.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest
from typer.testing import CliRunner

from phatlog.cli.app import app
from phatlog.diagnostics import Severity
from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes
from phatlog.referee.games import referee
from phatlog.referee.pitch import Findings

Json = dict[str, Any]
Found = list[tuple[str, str]]

DATA: Final = Path(__file__).resolve().parent / "data"
SHEET_SAMPLES: Final = sorted((DATA.parent.parent / "samples" / "games").glob("score-sheet-*.json"))
HIGH_TO_LOW: Final = "AKQJT98765432"
PHAT_NAMES: Final = ("Ann", "Ben", "Cal", "Dee")
UNFINISHED: Final = {"status": "unfinished", "reason": "closing time"}


def judge(rec: Json) -> Findings:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.diagnostics == [], loaded.diagnostics
    assert loaded.record is not None
    return referee(loaded.record)


def serious(v: Findings) -> Found:
    return [(d.code, d.pointer) for d in v.diagnostics if d.severity is not Severity.INFO]


def notes(v: Findings) -> list[str]:
    """The info notes' messages, pointer first."""
    return [f"{d.pointer} {d.message}" for d in v.diagnostics if d.severity is Severity.INFO]


# ==================================================================================== Oh Hell


def trick_winner(trick: Json, players: int, trump: str | None) -> int:
    cards = trick["cards"]
    led = cards[0][1]
    pool = [i for i, c in enumerate(cards) if c[1] == trump] or [i for i, c in enumerate(cards) if c[1] == led]
    return int((trick["leader"] + min(pool, key=lambda i: HIGH_TO_LOW.index(cards[i][0]))) % players)


@cache
def _simulated(seed: int, players: int, rules: str) -> str:
    return json.dumps(next(iter(simulate("oh_hell", seed, 1, players=players, rules=json.loads(rules)))))


def full_game(seed: int, players: int, rules: Json | None = None) -> Json:
    rec: Json = json.loads(_simulated(seed, players, json.dumps(rules or {})))
    return rec


def as_sheet(rec: Json, hands: list[int] | None = None) -> Json:
    """The record with the chosen hands (all by default) cut down to a score sheet: the cards go, and the
    tricks each player took (counted here from the cards) take their place."""
    n = len(rec["players"])
    for h, deal in enumerate(rec["deals"]):
        if hands is not None and h not in hands:
            continue
        trump = deal["turnup"][1] if "turnup" in deal else None
        taken = [0] * n
        for trick in deal["tricks"]:
            taken[trick_winner(trick, n, trump)] += 1
        for key in ("hands", "turnup", "tricks"):
            deal.pop(key, None)
        deal["taken"] = taken
    return rec


def oh_sheet(players: int = 5, rules: Json | None = None, seed: int = 11) -> Json:
    return as_sheet(full_game(seed, players, rules))


def worked_sheet(taken: list[int], bids: list[int], points: list[int]) -> Json:
    """The §6.1 hand (Ann, Ben, Cal; Cal deals 3 cards) as a score sheet."""
    rec: Json = json.loads((DATA / "worked_6_1.json").read_text(encoding="utf-8"))
    deal = rec["deals"][0]
    for key in ("hands", "turnup", "tricks"):
        del deal[key]
    deal.update(bids=bids, taken=taken, score={"points": points, "total": points})
    best = max(points)
    rec["result"] = {"winner": [s for s in range(3) if points[s] == best], "total": points}
    return rec


def test_an_oh_hell_score_sheet_verifies_and_says_what_it_cannot_prove() -> None:
    for players in range(3, 8):
        rec = oh_sheet(players)
        v = judge(rec)
        assert serious(v) == []
        assert v.totals == rec["result"]["total"] and v.winner == rec["result"]["winner"]
        [note] = notes(v)
        assert note.startswith(f"/deals all {len(rec['deals'])} hands are recorded as a score sheet")
        for cannot in ("the deal", "the turned-up card", "the play", "could be won with the cards held"):
            assert cannot in note


def test_the_worked_hand_as_a_score_sheet() -> None:
    assert serious(judge(worked_sheet([2, 1, 0], [1, 1, 0], [0, 11, 10]))) == []


def test_what_a_score_sheet_cannot_prove() -> None:
    """Ben taking all three tricks is impossible with the §6.1 cards (Ann's A♠ wins trick 1 whatever is
    played); a score sheet has no cards, so it verifies, and the note says so."""
    v = judge(worked_sheet([0, 3, 0], [1, 1, 0], [0, 0, 10]))
    assert serious(v) == []
    assert len(notes(v)) == 1


@pytest.mark.parametrize(
    ("bids", "points", "pointer"),
    [([4, 1, 0], [0, 11, 10], "/deals/0/bids/0"), ([1, 1, 4], [0, 11, 0], "/deals/0/bids/2")],
)
def test_sheet_bids_are_zero_to_the_hand_size(bids: list[int], points: list[int], pointer: str) -> None:
    """A bid above the hand size is reported; the hand is still scored with it (a miss)."""
    assert serious(judge(worked_sheet([2, 1, 0], bids, points))) == [("PL208", pointer)]


def test_sheet_bids_and_the_hook() -> None:
    rec = worked_sheet([2, 1, 0], [2, 1, 0], [12, 11, 10])
    assert serious(judge(rec)) == []
    rec["rules"]["hook"] = True
    assert serious(judge(rec)) == [("PL208", "/deals/0/bids/2")]
    rec["rules"]["bidding"] = "simultaneous"
    assert serious(judge(rec)) == [("PL601", "/rules/hook")]


def test_sheet_hook_on_a_whole_game() -> None:
    rec = oh_sheet(4, {"hook": True})
    assert serious(judge(rec)) == []
    for d, deal in enumerate(rec["deals"]):
        size = sum(deal["taken"])
        others = sum(deal["bids"]) - deal["bids"][deal["dealer"]]
        if 0 <= size - others <= size:
            deal["bids"][deal["dealer"]] = size - others
            assert ("PL208", f"/deals/{d}/bids/{deal['dealer']}") in serious(judge(rec))
            return
    pytest.fail("no hand where the hook bites")


def test_sheet_tricks_taken_add_up_to_the_hand_size() -> None:
    assert serious(judge(worked_sheet([2, 1, 1], [1, 1, 0], [0, 11, 10]))) == [("PL209", "/deals/0/taken")]
    assert serious(judge(worked_sheet([1, 1, 0], [1, 1, 0], [11, 11, 10]))) == [("PL209", "/deals/0/taken")]
    rec = oh_sheet(6)
    rec["deals"][5]["taken"][0] += 1
    assert serious(judge(rec)) == [("PL209", "/deals/5/taken")]


def test_sheet_points_from_bids_and_tricks() -> None:
    assert serious(judge(worked_sheet([2, 1, 0], [1, 1, 0], [2, 11, 10]))) == [
        ("PL401", "/deals/0/score/points/0"),
        ("PL402", "/deals/0/score/total/0"),
        ("PL404", "/result/total/0"),
    ]
    rec = worked_sheet([2, 1, 0], [1, 1, 0], [2, 11, 10])
    rec["rules"]["miss"] = "tricks"  # V-miss-1: Ann scores her 2 tricks
    assert serious(judge(rec)) == []
    rec = worked_sheet([2, 1, 0], [1, 1, 0], [0, 11, 8])
    assert serious(judge(rec))[0] == ("PL401", "/deals/0/score/points/2")
    rec["rules"]["zero_bid"] = "five_plus_cards"  # V-zero: Cal's made 0 is 5 + 3
    assert serious(judge(rec)) == []


def test_sheet_running_totals_and_result() -> None:
    rec = oh_sheet(5)
    rec["deals"][3]["score"]["total"][4] -= 10
    assert serious(judge(rec)) == [("PL402", "/deals/3/score/total/4")]  # once: later rows follow on
    rec = oh_sheet(5)
    winners = rec["result"]["winner"]
    rec["result"]["winner"] = [next(s for s in range(5) if s not in winners)]
    assert serious(judge(rec)) == [("PL403", "/result/winner")]
    rec = oh_sheet(5)
    rec["result"]["total"][2] += 1
    assert serious(judge(rec)) == [("PL404", "/result/total/2")]


def test_sheet_schedule_and_rotation() -> None:
    rec = oh_sheet(7, {"schedule": "down_up"})
    assert len(rec["deals"]) == 13
    assert serious(judge(rec)) == []
    short = copy.deepcopy(rec)
    short["deals"].pop()
    short["result"] = {}
    assert serious(judge(short)) == [("PL405", "/deals")]
    short["result"] = UNFINISHED
    assert serious(judge(short)) == []
    long = copy.deepcopy(rec)
    long["deals"].append(copy.deepcopy(rec["deals"][0]))
    assert serious(judge(long)) == [("PL308", "/deals/13")]
    wrong = copy.deepcopy(rec)
    wrong["deals"][6]["dealer"] = (wrong["deals"][6]["dealer"] + 3) % 7
    assert serious(judge(wrong)) == [("PL202", "/deals/6/dealer")]
    # The schedule fixes each hand's size: taken and bids are held to it (hand 7 of N..1..N is 1 card).
    assert sum(rec["deals"][6]["taken"]) == 1
    rec["deals"][6]["taken"] = [1, 1, 0, 0, 0, 0, 0]
    assert serious(judge(rec)) == [("PL209", "/deals/6/taken")]


def test_sheet_turnup_of_a_no_trump_hand() -> None:
    """A score sheet may note the turned-up card, but the game's last hand has none (no_trump: last_hand)."""
    rec = oh_sheet(3)
    rec["deals"][0]["turnup"] = "7H"
    assert serious(judge(rec)) == []
    rec["deals"][-1]["turnup"] = "7H"
    assert serious(judge(rec)) == [("PL206", f"/deals/{len(rec['deals']) - 1}/turnup")]


def test_a_record_mixing_full_and_score_sheet_hands() -> None:
    rec = as_sheet(full_game(11, 4), hands=[1, 3, 4, 12])
    assert "tricks" in rec["deals"][0] and "tricks" not in rec["deals"][1]
    v = judge(rec)
    assert serious(v) == []
    [note] = notes(v)
    assert note.startswith("/deals hands 2, 4-5, 13 are recorded as a score sheet")


def test_tricks_and_taken_together_must_agree() -> None:
    full = full_game(11, 4)
    both = copy.deepcopy(full)
    for deal, sheet in zip(both["deals"], as_sheet(copy.deepcopy(full))["deals"], strict=True):
        deal["taken"] = sheet["taken"]
    v = judge(both)
    assert v.diagnostics == []
    seat = next(s for s in range(4) if both["deals"][8]["taken"][s] > 0)
    both["deals"][8]["taken"][seat] -= 1
    both["deals"][8]["taken"][(seat + 1) % 4] += 1
    assert serious(judge(both)) == [("PL209", f"/deals/8/taken/{min(seat, (seat + 1) % 4)}")]


def test_a_sheet_without_bids_or_tricks_taken() -> None:
    """Hands whose points cannot be worked out are taken as recorded: one note lists them."""
    rec = oh_sheet(5)
    for deal in rec["deals"][2:4]:
        del deal["bids"]
    del rec["deals"][6]["taken"]
    v = judge(rec)
    assert serious(v) == []
    assert any(n.startswith("/deals hands 3-4: no bids are recorded") for n in notes(v))
    assert any(n.startswith("/deals hand 7: no tricks taken are recorded") for n in notes(v))
    rec["deals"][3]["score"]["total"][1] += 5  # the running totals are still checked
    assert serious(judge(rec)) == [("PL402", "/deals/3/score/total/1")]


def test_a_sheet_with_a_hand_that_has_no_points_at_all() -> None:
    """Totals become unknown; a later recorded running total re-anchors them."""
    rec = oh_sheet(5)
    del rec["deals"][2]["bids"]
    del rec["deals"][2]["score"]
    assert serious(judge(rec)) == []
    for deal in rec["deals"][3:]:
        del deal["score"]
    v = judge(rec)
    assert serious(v) == [] and v.totals is None and v.winner is None
    assert any(n.startswith("/result ") and "cannot be checked" in n for n in notes(v))


# ==================================================================================== Phat


def phat_sheet(
    rows: list[tuple[int, int]], rules: Json | None = None, result: Json | None = None, first_dealer: int = 3
) -> Json:
    """A Phat score sheet: each deal's dealer (passing to the left) and points, with running totals."""
    totals = [0, 0]
    deals: list[Json] = []
    for d, (a, b) in enumerate(rows):
        totals = [totals[0] + a, totals[1] + b]
        deals.append({"dealer": (first_dealer + d) % 4, "score": {"points": [a, b], "total": list(totals)}})
    rec: Json = {
        "phatlog": "1.0",
        "game": "phat",
        "event": {"name": "Norwich Phat League", "site": "Wherry Inn", "date": "2026-11-14", "source": "score sheet"},
        "players": [{"name": n} for n in PHAT_NAMES],
        "deals": deals,
    }
    if rules is not None:
        rec["rules"] = rules
    if result is not None:
        rec["result"] = result
    return rec


# A game to 181: deal 3's muck is tied 40-40, so nobody pegs its 8 (muck_tie: none) and it scores 80;
# deals 1, 2 and 4 score 88. NS, at 168, reach 181 with a counter in deal 5, which ends the game there
# (peg_out: immediate): that deal is cut short at 13-2, and NS win 181-178.
GAME_181: Final = [(50, 38), (30, 58), (40, 40), (48, 40), (13, 2)]
TOTALS_181: Final = [181, 178]
PHAT_STOP: Final = GAME_181[:3]


def test_a_phat_score_sheet_to_181_with_a_tied_muck() -> None:
    totals = [sum(r[0] for r in GAME_181), sum(r[1] for r in GAME_181)]
    assert totals == TOTALS_181
    rec = phat_sheet(GAME_181, result={"winner": [0], "total": totals})
    v = judge(rec)
    assert serious(v) == []
    assert v.totals == totals and v.winner == [0]
    [note] = notes(v)
    assert note.startswith("/deals all 5 deals are recorded as a score sheet")


@pytest.mark.parametrize(
    ("muck_tie", "tied", "ok"),
    [("none", 80, True), ("none", 96, False), ("both", 96, True), ("both", 80, False), ("carry", 80, True)],
)
def test_phat_a_tied_muck(muck_tie: str, tied: int, ok: bool) -> None:
    rows = [(50, 38), (tied // 2, tied - tied // 2), (40, 48)]
    if muck_tie == "carry":
        rows[2] = (40, 56)  # the 8 carried from the tie goes to the next deal's muck winner: 96
    rec = phat_sheet(rows, {"muck_tie": muck_tie}, UNFINISHED)
    assert serious(judge(rec)) == ([] if ok else [("PL401", "/deals/1/score/points")])


def test_phat_carried_muck_must_be_paid() -> None:
    """Under carry, the deal after a tie pegs 96 (88 + the 8 carried), and two ties carry 16."""
    rec = phat_sheet([(40, 40), (40, 48)], {"muck_tie": "carry"}, UNFINISHED)
    assert serious(judge(rec)) == [("PL401", "/deals/1/score/points")]
    rec = phat_sheet([(40, 40), (44, 36), (52, 52)], {"muck_tie": "carry"}, UNFINISHED)
    assert serious(judge(rec)) == []


@pytest.mark.parametrize("points", [(50, 40), (0, 0), (88, 8), (-8, 96)])
def test_phat_points_no_deal_can_give(points: tuple[int, int]) -> None:
    rec = phat_sheet([(50, 38), points], result=UNFINISHED)
    assert serious(judge(rec)) == [("PL401", "/deals/1/score/points")]


def test_phat_a_deal_that_ends_the_game_may_stop_short() -> None:
    """Under peg_out: immediate the game ends at the peg that reaches 181: the last deal's points may be
    less than 88. Under end_of_deal every deal is played out."""
    rows = [(88, 0), (60, 28), (33, 3)]  # 148, then 181 in mid-deal
    assert serious(judge(phat_sheet(rows, result={"winner": [0], "total": [181, 31]}))) == []
    rec = phat_sheet(rows, {"peg_out": "end_of_deal"}, {"winner": [0], "total": [181, 31]})
    assert ("PL401", "/deals/2/score/points") in serious(judge(rec))


def test_phat_running_totals_and_result() -> None:
    totals = TOTALS_181
    rec = phat_sheet(GAME_181, result={"winner": [0], "total": totals})
    rec["deals"][1]["score"]["total"][1] += 10
    assert serious(judge(rec)) == [("PL402", "/deals/1/score/total/1")]
    rec = phat_sheet(GAME_181, result={"winner": [1], "total": totals})
    assert serious(judge(rec)) == [("PL403", "/result/winner")]
    rec = phat_sheet(GAME_181, result={"winner": [0], "total": [181, 177]})
    assert serious(judge(rec)) == [("PL404", "/result/total/1")]


def test_phat_the_end_of_the_game() -> None:
    assert serious(judge(phat_sheet(PHAT_STOP))) == [("PL405", "/deals")]
    assert serious(judge(phat_sheet(PHAT_STOP, result=UNFINISHED))) == []
    rec = phat_sheet([*GAME_181, (44, 44)])
    assert serious(judge(rec)) == [("PL308", "/deals/5")]
    rec = phat_sheet(GAME_181, result=UNFINISHED)
    assert serious(judge(rec)) == [("PL403", "/result/status")]


def test_phat_the_dealer_s_rotation() -> None:
    rec = phat_sheet(GAME_181)
    rec["deals"][2]["dealer"] = 0
    assert ("PL202", "/deals/2/dealer") in serious(judge(rec))


def test_phat_a_record_mixing_full_and_score_sheet_deals() -> None:
    """Two score-sheet deals, then the §6.2 deal played card by card (NS 54, EW 34), then one more."""
    worked: Json = json.loads((DATA / "worked_6_2.json").read_text(encoding="utf-8"))
    played = worked["deals"][0]
    assert played["dealer"] == 3  # W deals §6.2, so the sheet starts with seat 1 dealing
    rec = phat_sheet([(50, 38), (30, 58), (54, 34), (40, 48)], result=UNFINISHED, first_dealer=1)
    rec["deals"][2] = {**played, "score": rec["deals"][2]["score"]}
    v = judge(rec)
    assert serious(v) == []
    assert v.totals == [174, 178]
    [note] = notes(v)
    assert note.startswith("/deals deal") and "1-2, 4 are recorded as a score sheet" in note
    rec["deals"][2]["score"]["points"] = [46, 42]  # the played deal's points are checked card by card
    assert ("PL401", "/deals/2/score/points/0") in serious(judge(rec))


# ------------------------------------------------------------------------------------ known bugs (shared code)


def test_phat_a_sheet_deal_after_unknown_points_is_not_judged_on_stale_totals() -> None:
    """Deal 2 has no score, so the totals are unknown from there: deal 3's 20-0 may well be the deal that
    reached 181 (e.g. 88 + 88 + 20 … stopped in mid-deal) and must not be called impossible."""
    rec = phat_sheet([(88, 0), (88, 0), (20, 0)], result={"winner": [0]})
    del rec["deals"][1]["score"]
    assert ("PL401", "/deals/2/score/points") not in serious(judge(rec))


def test_phat_the_deal_that_ends_the_game_cannot_overshoot() -> None:
    """Under peg_out: immediate the game stops at the peg that reaches 181. NS at 176 reach it with any
    counter; no single trick pegs more than 46 (trump 9, trump 5 and two nines), so NS cannot finish
    the deal 88 up at 264."""
    rec = phat_sheet([(88, 0), (88, 0), (88, 0)], result={"winner": [0], "total": [264, 0]})
    assert ("PL401", "/deals/2/score/points") in serious(judge(rec))


# ------------------------------------------------------------------------------------ the samples


def test_there_are_score_sheet_samples() -> None:
    names = {p.name for p in SHEET_SAMPLES}
    assert {"score-sheet-phat-181.json", "score-sheet-oh-hell-seed-examples.json"} <= names


@pytest.mark.parametrize("path", SHEET_SAMPLES, ids=[p.name for p in SHEET_SAMPLES])
def test_score_sheet_samples_verify_clean_with_one_note(path: Path) -> None:
    """A score-sheet sample is clean (exit 0, no error or warning) and carries exactly one note: PL406, the
    list of deals recorded without cards. (``test_conformance`` asks sample games for no output at all.)"""
    result = CliRunner().invoke(app, ["verify", "--format", "json", str(path)])
    rows = [
        r for line in result.stdout.splitlines() if line.strip() and (r := json.loads(line))["kind"] == "diagnostic"
    ]
    assert result.exit_code == 0
    assert [(r["code"], r["severity"], r["pointer"]) for r in rows] == [("PL406", "info", "/deals")]
