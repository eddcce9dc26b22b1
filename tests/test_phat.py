"""Phat as the referee plays it: the phat and the muck, the worked deal, the end of the game, the cut,
and what the referee says about records that break the rules (rules reference A.2, B.2, B.6.2).

Records are built as JSON-ready dicts and read through the reader, as a file would be. A side is put at
a start score by a score-sheet deal before the deal under test: a deal with only a dealer and a score,
whose points the engine takes as recorded (info PL406). Expected numbers come from the rules reference,
not from the engine.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest
from conftest import Heard, listen

from phatlog.diagnostics import Severity
from phatlog.record.model import PhatRules
from phatlog.record.reader import read_bytes, read_path
from phatlog.referee.games import referee
from phatlog.referee.phat import PhatReferee
from phatlog.referee.pitch import Findings
from phatlog.rules.all_fours import card_points
from phatlog.rules.cards import CARD_TEXT, DECK, Card, Suit
from phatlog.rules.phat import phat_counters

DATA: Final = Path(__file__).resolve().parent / "data"
Json = dict[str, Any]
Found = list[tuple[str, str]]

# ------------------------------------------------------------------------------------ helpers


def phat_value(text: str, trump: str) -> int:
    """The phat table of B.2 P11, spelled out."""
    rank, suit = text[0], text[1]
    if rank == "9":
        return 18 if suit == trump else 9
    if rank == "5":
        return 10 if suit == trump else 5
    if suit == trump:
        return {"A": 4, "K": 3, "Q": 2, "J": 1}.get(rank, 0)
    return 0


def muck_value(text: str) -> int:
    """The muck card points of B.2 P13: A4 K3 Q2 J1 T10 in every suit."""
    return {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}.get(text[0], 0)


@cache
def _data(name: str) -> Json:
    loaded: Json = json.loads((DATA / name).read_text(encoding="utf-8"))
    return loaded


def worked_deal() -> Json:
    """The §6.2 deal (W deals, N pitches the A♦), without its score."""
    deal: Json = copy.deepcopy(_data("worked_6_2.json")["deals"][0])
    deal.pop("score", None)
    return deal


def tied_deal() -> Json:
    """A deal whose muck is 40-40 (dealer seat 3; phat 48-32), without its score."""
    deal: Json = copy.deepcopy(_data("phat_muck_tie.json")["deals"][0])
    deal.pop("score", None)
    return deal


def rotate(deal: Json, k: int) -> Json:
    """The same deal with every seat moved ``k`` places to the left: still legal; odd ``k`` swaps the sides."""
    out = copy.deepcopy(deal)
    out["dealer"] = (deal["dealer"] + k) % 4
    if "hands" in deal:
        out["hands"] = [deal["hands"][(s - k) % 4] for s in range(4)]
    for trick in out["tricks"]:
        trick["leader"] = (trick["leader"] + k) % 4
        if "winner" in trick:
            trick["winner"] = (trick["winner"] + k) % 4
    return out


def sheet(dealer: int, total: list[int]) -> Json:
    """A score-sheet deal that sets the running total: only the dealer and the score's total."""
    return {"dealer": dealer, "score": {"total": total}}


def sheet_points(dealer: int, points: list[int], total: list[int]) -> Json:
    """A score-sheet deal with its points and running total."""
    return {"dealer": dealer, "score": {"points": points, "total": total}}


def scored(deal: Json, points: list[int], total: list[int]) -> Json:
    out = copy.deepcopy(deal)
    out["score"] = {"points": points, "total": total}
    return out


def record(deals: list[Json], rules: Json | None = None, result: Json | None = None, **extra: Any) -> Json:
    rec: Json = {
        "phatlog": "1.0",
        "game": "phat",
        "players": [{"name": n} for n in ("N", "E", "S", "W")],
        "deals": deals,
    }
    if rules is not None:
        rec["rules"] = rules
    if result is not None:
        rec["result"] = result
    rec.update(extra)
    return rec


def load(rec: Json) -> Any:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.diagnostics == [], loaded.diagnostics
    assert loaded.record is not None
    return loaded.record


def judge(rec: Json, told: bool = False) -> Heard:
    return listen(load(rec), told)


def serious(v: Findings) -> Found:
    """The errors and warnings, as (code, pointer)."""
    return [(d.code, d.pointer) for d in v.diagnostics if d.severity is not Severity.INFO]


def found(v: Findings) -> Found:
    return [(d.code, d.pointer) for d in v.diagnostics]


UNFINISHED: Final = {"status": "unfinished"}


# ------------------------------------------------------------------------------------ the phat and the muck


@pytest.mark.parametrize("trump", list(Suit))
def test_every_phat_counter_value(trump: Suit) -> None:
    values = phat_counters(trump)
    t = trump.letter
    for card in DECK:
        text = str(card)
        assert values[card] == phat_value(text, t), text
    # Spot checks from the table itself.
    assert values[Card.parse("9" + t)] == 18  # Big Phat
    assert values[Card.parse("5" + t)] == 10  # Little Phat
    assert [values[Card.parse(r + t)] for r in "AKQJ"] == [4, 3, 2, 1]
    assert values[Card.parse("T" + t)] == 0  # the trump ten is worth nothing in the phat
    for other in Suit:
        if other is not trump:
            assert values[Card.parse("9" + other.letter)] == 9
            assert values[Card.parse("5" + other.letter)] == 5
            assert [values[Card.parse(r + other.letter)] for r in "AKQJT876432"] == [0] * 11
    assert sum(values) == 80  # P12


@pytest.mark.parametrize("trump", list(Suit))
def test_the_game_pegs_its_counter_table(trump: Suit) -> None:
    game = PhatReferee(PhatRules())
    assert game.counters(trump) == phat_counters(trump)
    table = game.counter_texts(int(trump))
    assert table == {text: phat_value(text, trump.letter) for text in CARD_TEXT}


def test_every_muck_value() -> None:
    for text in CARD_TEXT:
        assert card_points([text]) == muck_value(text), text
    for suit in "CDHS":
        assert [card_points([r + suit]) for r in "AKQJT"] == [4, 3, 2, 1, 10]
        assert card_points(r + suit for r in "AKQJT98765432") == 20
    assert card_points(CARD_TEXT) == 80
    assert card_points([]) == 0
    assert card_points(["TD", "5H", "4D", "JD"]) == 11  # §6.2 trick 11


# ------------------------------------------------------------------------------------ the worked deal §6.2

# B.6.2's table: leader, winner, phat pegged (card: value), NS-EW after the trick, muck NS-EW after it.
WORKED: Final[list[tuple[int, int, dict[str, int], tuple[int, int], tuple[int, int]]]] = [
    (0, 0, {"AD": 4, "9D": 18}, (22, 0), (4, 0)),
    (0, 0, {}, (22, 0), (18, 0)),
    (0, 0, {}, (22, 0), (34, 0)),
    (0, 0, {}, (22, 0), (40, 0)),
    (0, 0, {"KD": 3, "5D": 10, "QD": 2}, (37, 0), (45, 0)),
    (0, 0, {"9S": 9}, (46, 0), (46, 0)),
    (0, 1, {"9H": 9}, (46, 9), (46, 1)),
    (1, 1, {}, (46, 9), (46, 8)),
    (1, 1, {"5S": 5}, (46, 14), (46, 11)),
    (1, 2, {}, (46, 14), (48, 11)),
    (2, 1, {"5H": 5, "JD": 1}, (46, 20), (48, 22)),
    (1, 1, {"5C": 5}, (46, 25), (48, 32)),
    (1, 1, {"9C": 9}, (46, 34), (48, 32)),
]


def test_worked_deal_verifies_clean() -> None:
    loaded = read_path(DATA / "worked_6_2.json")
    assert loaded.diagnostics == [] and loaded.record is not None
    v = referee(loaded.record)
    assert v.diagnostics == []
    assert v.totals == [54, 34]
    assert v.winner is None
    assert v.ended_at is None


def test_worked_deal_trick_by_trick() -> None:
    v = judge(record([worked_deal()], result=UNFINISHED), told=True)
    assert v.diagnostics == []
    assert v.told is not None and len(v.told) == 1
    deal = v.told[0]
    assert (deal.dealer, deal.pitcher, deal.trump) == (3, 0, Suit.DIAMONDS)
    assert deal.scorable
    assert len(deal.tricks) == 13
    muck = [0, 0]
    for t, (trick, (leader, winner, counters, totals, muck_after)) in enumerate(zip(deal.tricks, WORKED, strict=True)):
        assert trick.trick == t
        assert trick.leader == leader, f"trick {t + 1}"
        assert trick.seat == winner, f"trick {t + 1}"
        assert trick.cards[trick.position] == trick.cards[(winner - leader) % 4]
        assert {str(c): p for c, p in trick.counters} == counters, f"trick {t + 1}"
        assert trick.points == sum(counters.values())
        assert trick.totals == totals, f"trick {t + 1}"
        muck[winner % 2] += sum(muck_value(str(c)) for c in trick.cards)
        assert tuple(muck) == muck_after, f"trick {t + 1}"
    assert deal.captured == (48, 32)
    assert [(b.side, b.points, b.label) for b in deal.bonuses] == [(0, 8, "muck")]
    assert deal.over is None  # nobody won
    assert deal.points == (54, 34)
    assert deal.totals == (54, 34)
    assert v.totals == [54, 34]


def test_worked_deal_without_trace_gives_the_same_totals() -> None:
    rec = record([scored(worked_deal(), [54, 34], [54, 34])], result=UNFINISHED)
    assert judge(rec, told=False).totals == judge(rec, told=True).totals == [54, 34]
    assert judge(rec).diagnostics == []


def test_recorded_trick_winners_are_checked() -> None:
    deal = worked_deal()
    for trick, row in zip(deal["tricks"], WORKED, strict=True):
        trick["winner"] = row[1]
    rec = record([scored(deal, [54, 34], [54, 34])], result=UNFINISHED)
    assert judge(rec).diagnostics == []
    deal["tricks"][9]["winner"] = 1  # trick 10: S trumps E's Q♠, E did not win it
    deal["tricks"][10]["winner"] = 2  # trick 11: E's J♦ beats S's T♦
    v = judge(record([scored(deal, [54, 34], [54, 34])], result=UNFINISHED))
    assert found(v) == [("PL304", "/deals/0/tricks/9/winner"), ("PL304", "/deals/0/tricks/10/winner")]
    assert v.totals == [54, 34]  # a wrong note of the winner is not an illegal play: the deal is scored


def test_wrong_deal_points_are_reported_by_side() -> None:
    v = judge(record([scored(worked_deal(), [54, 35], [54, 34])], result=UNFINISHED))
    assert found(v) == [("PL401", "/deals/0/score/points/1")]
    v = judge(record([scored(worked_deal(), [46, 34], [54, 34])], result=UNFINISHED))
    assert found(v) == [("PL401", "/deals/0/score/points/0")]


# ------------------------------------------------------------------------------------ end of game, §6.2 (a) (b)


def illustration(start: list[int], tricks: int = 13, rules: Json | None = None, **kw: Any) -> Json:
    deal = worked_deal()
    deal["tricks"] = deal["tricks"][:tricks]
    return record([sheet(2, start), deal], rules=rules, **kw)


def test_start_from_the_score_sheet() -> None:
    v = judge(record([sheet(2, [140, 170])]))
    assert serious(v) == [("PL405", "/deals")]
    assert "PL406" in [d.code for d in v.diagnostics]  # the play of a score-sheet deal is not checked
    assert v.totals == [140, 170]


def test_score_sheet_points_are_taken_as_recorded() -> None:
    rows = [
        sheet_points(0, [88, 0], [88, 0]),
        sheet_points(1, [36, 52], [124, 52]),
        sheet_points(2, [0, 80], [124, 132]),
    ]
    v = judge(record([*rows, worked_deal()], result=UNFINISHED))
    assert serious(v) == []
    assert "PL406" in [d.code for d in v.diagnostics]
    assert v.totals == [124 + 54, 132 + 34]


def test_illustration_a_ns_win_at_trick_6() -> None:
    """Start 140-170: NS 162 after trick 1, 177 after trick 5, 186 after trick 6, and win at once."""
    v = judge(illustration([140, 170], tricks=6, result={"winner": [0], "total": [186, 170]}), told=True)
    assert serious(v) == []
    assert v.winner == [0]
    assert v.totals == [186, 170]
    assert v.ended_at == (1, 5)
    assert v.told is not None
    tricks = v.told[1].tricks
    assert [t.totals for t in tricks] == [(162, 170), (162, 170), (162, 170), (162, 170), (177, 170), (186, 170)]
    assert v.told[1].over is not None and len(tricks) == 6  # the game is over at the sixth trick
    assert v.told[1].bonuses == []  # no muck is counted
    assert v.told[1].points == (46, 0)


def test_illustration_a_later_tricks_are_an_error() -> None:
    v = judge(illustration([140, 170], result={"winner": [0], "total": [186, 170]}))
    assert serious(v) == [("PL305", "/deals/1/tricks/6")]
    assert v.winner == [0]
    assert v.totals == [186, 170]  # EW's later phat and the muck never happen
    assert v.ended_at == (1, 5)


def test_illustration_a_recorded_points_stop_at_the_win() -> None:
    rec = illustration([140, 170], tricks=6, result={"winner": [0], "total": [186, 170]})
    rec["deals"][1]["score"] = {"points": [46, 0], "total": [186, 170]}
    assert serious(judge(rec)) == []
    rec["deals"][1]["score"] = {"points": [54, 34], "total": [194, 204]}
    assert serious(judge(rec)) == [
        ("PL401", "/deals/1/score/points/0"),
        ("PL401", "/deals/1/score/points/1"),
        ("PL402", "/deals/1/score/total/0"),
        ("PL402", "/deals/1/score/total/1"),
    ]


def test_illustration_b_the_muck_is_the_winning_peg() -> None:
    """Start 127-140: after trick 13 NS 173, EW 174; the muck 8 takes NS to 181."""
    rec = illustration([127, 140], result={"winner": [0], "total": [181, 174]})
    rec["deals"][1]["score"] = {"points": [54, 34], "total": [181, 174]}
    v = judge(rec, told=True)
    assert serious(v) == []
    assert v.told is not None
    assert v.told[1].tricks[-1].totals == (173, 174)
    assert v.ended_at is not None and v.ended_at[1] is None  # not won at a trick
    assert v.winner == [0]
    assert v.totals == [181, 174]
    assert v.ended_at == (1, None)


def test_target_121() -> None:
    """Parlett's 121: reaching the target exactly wins (P19 d)."""
    rules = {"target": 121}
    v = judge(illustration([75, 100], tricks=6, rules=rules, result={"winner": [0], "total": [121, 100]}))
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [121, 100], (1, 5))
    # One point short at trick 6 and the game goes on: EW's phat takes them to 121 at trick 11.
    v = judge(illustration([74, 101], rules=rules, result={"winner": [1], "total": [120, 121]}))
    assert serious(v) == [("PL305", "/deals/1/tricks/11")]
    assert (v.winner, v.totals, v.ended_at) == ([1], [120, 121], (1, 10))
    # The same start under the default 181 is nowhere near the end.
    v = judge(illustration([75, 100], result=UNFINISHED))
    assert serious(v) == []
    assert v.totals == [129, 134]
    assert v.winner is None


# ------------------------------------------------------------------------------------ peg_out end_of_deal

EOD: Final = {"peg_out": "end_of_deal"}


def test_end_of_deal_the_target_waits_for_the_muck() -> None:
    """Start 140-170: NS pass 181 at trick 6 but play on; at the end EW have more, and EW win."""
    v = judge(illustration([140, 170], rules=EOD, result={"winner": [1], "total": [194, 204]}), told=True)
    assert serious(v) == []
    assert v.told is not None
    assert (v.winner, v.totals, v.ended_at) == ([1], [194, 204], (1, None))  # not won at a trick


def test_end_of_deal_a_deal_cut_short_is_incomplete() -> None:
    v = judge(illustration([140, 170], tricks=6, rules=EOD, result=UNFINISHED))
    assert serious(v) == []  # the last deal of an unfinished game may stop
    v = judge(illustration([140, 170], tricks=6, rules=EOD))
    assert serious(v) == [("PL306", "/deals/1/tricks"), ("PL405", "/deals")]


def test_end_of_deal_muck_decides() -> None:
    v = judge(illustration([127, 140], rules=EOD, result={"winner": [0], "total": [181, 174]}))
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [181, 174], (1, None))


def test_end_of_deal_equal_totals_play_on() -> None:
    """Start 130-150: the deal ends 184-184, over the target but equal, so the game goes on."""
    v = judge(illustration([130, 150], rules=EOD))
    assert serious(v) == [("PL405", "/deals")]
    assert v.winner is None
    assert v.totals == [184, 184]
    nxt = rotate(worked_deal(), 1)  # dealer N; E pitches; EW take the 54
    rec = illustration([130, 150], rules=EOD, result={"winner": [1], "total": [218, 238]})
    rec["deals"].append(nxt)
    v = judge(rec)
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([1], [218, 238], (2, None))


@pytest.mark.parametrize(
    ("points", "winner"),
    [([40, 48], [1]), ([48, 40], [0]), ([44, 44], None), ([0, 88], [1]), ([88, 0], [0])],
)
def test_end_of_deal_score_sheet_rows_higher_total_wins(points: list[int], winner: list[int] | None) -> None:
    """A deal taken as recorded ends an end_of_deal game the same way: the higher total wins, ties play on.

    From 184-184 (over the target, equal) a score-sheet row of ``points`` follows.
    """
    rec = illustration([130, 150], rules=EOD)
    rec["deals"].append(sheet_points(0, points, [184 + points[0], 184 + points[1]]))
    if winner is None:
        rec["result"] = UNFINISHED
    v = judge(rec)
    assert v.totals == [184 + points[0], 184 + points[1]]
    assert v.winner == winner
    assert v.ended_at == (None if winner is None else (2, None))


def test_end_of_deal_score_sheet_only() -> None:
    """Both sides past the target on one score-sheet row under end_of_deal: the higher total wins."""
    v = judge(record([sheet(0, [185, 190])], rules=EOD, result={"winner": [1], "total": [185, 190]}))
    assert serious(v) == []
    assert v.winner == [1]
    v = judge(record([sheet(0, [190, 185])], rules=EOD, result={"winner": [0], "total": [190, 185]}))
    assert serious(v) == []
    assert v.winner == [0]
    v = judge(record([sheet(0, [190, 190])], rules=EOD, result=UNFINISHED))
    assert serious(v) == []  # equal totals play on
    assert v.winner is None


# ------------------------------------------------------------------------------------ the muck tie, §6.2 (c)


def test_the_tied_deal_is_tied() -> None:
    """The data file's deal: checked here with the rules spelled out, not with the engine."""
    deal = tied_deal()
    trump = deal["tricks"][0]["cards"][0][1]
    muck, phat = [0, 0], [0, 0]
    for trick in deal["tricks"]:
        cards = trick["cards"]
        led = cards[0][1]
        trumps = [i for i, c in enumerate(cards) if c[1] == trump]
        pool = trumps or [i for i, c in enumerate(cards) if c[1] == led]
        side = (trick["leader"] + max(pool, key=lambda i: "23456789TJQKA".index(cards[i][0]))) % 2
        muck[side] += sum(muck_value(c) for c in cards)
        phat[side] += sum(phat_value(c, trump) for c in cards)
    assert muck == [40, 40]
    assert phat == [48, 32]
    loaded = read_path(DATA / "phat_muck_tie.json")
    assert loaded.diagnostics == [] and loaded.record is not None
    assert referee(loaded.record).diagnostics == []


def tie_then_worked(rules: Json, **kw: Any) -> Json:
    """The tied deal (turned so that S deals; phat NS 32, EW 48), then the §6.2 deal (NS take the muck)."""
    return record([rotate(tied_deal(), 3), worked_deal()], rules=rules, **kw)


def test_muck_tie_none_nobody_pegs() -> None:
    v = judge(tie_then_worked({"muck_tie": "none"}, result=UNFINISHED), told=True)
    assert serious(v) == []
    assert v.told is not None
    assert v.told[0].captured == (40, 40)
    assert [b.side for b in v.told[0].bonuses if b.points] == []
    assert v.told[0].totals == (32, 48)
    assert (v.told[1].bonuses[0].side, v.told[1].bonuses[0].points) == (0, 8)
    assert v.totals == [32 + 54, 48 + 34]


def test_muck_tie_is_none_by_default() -> None:
    assert judge(tie_then_worked({}, result=UNFINISHED)).totals == [86, 82]


def test_muck_tie_carry_goes_to_the_next_muck_winner() -> None:
    rec = tie_then_worked({"muck_tie": "carry"}, result=UNFINISHED)
    rec["deals"][0]["score"] = {"points": [32, 48], "total": [32, 48]}
    rec["deals"][1]["score"] = {"points": [62, 34], "total": [94, 82]}
    v = judge(rec, told=True)
    assert serious(v) == []
    assert v.told is not None
    assert v.told[0].totals == (32, 48)
    assert [(b.side, b.points) for b in v.told[1].bonuses] == [(0, 16)]
    assert v.totals == [94, 82]


def test_muck_tie_carry_to_the_other_side_and_then_reset() -> None:
    """Tie (NS 48, EW 32); then EW take the muck with 16; then NS take the next one with 8 only."""
    deals = [tied_deal(), rotate(worked_deal(), 1), rotate(worked_deal(), 2)]
    v = judge(record(deals, rules={"muck_tie": "carry"}, result=UNFINISHED), told=True)
    assert serious(v) == []
    assert v.told is not None
    assert [[(b.side, b.points) for b in d.bonuses if b.side is not None] for d in v.told] == [[], [(1, 16)], [(0, 8)]]
    assert v.totals == [48 + 34 + 54, 32 + 62 + 34]


def test_muck_tie_carry_accumulates() -> None:
    deals = [rotate(tied_deal(), 2), rotate(tied_deal(), 3), worked_deal()]
    v = judge(record(deals, rules={"muck_tie": "carry"}, result=UNFINISHED), told=True)
    assert serious(v) == []
    assert v.told is not None
    assert v.told[1].totals == (80, 80)
    assert [(b.side, b.points) for b in v.told[2].bonuses] == [(0, 24)]
    assert v.totals == [80 + 46 + 24, 80 + 34]


def test_muck_tie_carry_is_lost_if_the_game_ends_first() -> None:
    """§6.2 (c): 173-174 after the tied deal; the next deal's phat ends the game before any muck."""
    for rule in ("none", "carry"):
        rec = record(
            [sheet(1, [141, 126]), rotate(tied_deal(), 3), worked_deal()],
            rules={"muck_tie": rule},
            result={"winner": [0], "total": [195, 174]},
        )
        rec["deals"][2]["tricks"] = rec["deals"][2]["tricks"][:1]
        v = judge(rec, told=True)
        assert serious(v) == [], rule
        assert v.told is not None
        assert v.told[1].totals == (173, 174), rule  # the next deal starts at 173-174
        assert (v.winner, v.totals, v.ended_at) == ([0], [195, 174], (2, 0)), rule


def test_muck_tie_carry_is_lost_when_an_end_of_deal_game_ends_on_a_tie() -> None:
    rec = record(
        [sheet(1, [150, 100]), rotate(tied_deal(), 3)],
        rules={"muck_tie": "carry", "peg_out": "end_of_deal"},
        result={"winner": [0], "total": [182, 148]},
    )
    v = judge(rec)
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [182, 148], (1, None))


def test_muck_tie_both_each_side_pegs_8() -> None:
    rec = tie_then_worked({"muck_tie": "both"}, result=UNFINISHED)
    rec["deals"][0]["score"] = {"points": [40, 56], "total": [40, 56]}
    rec["deals"][1]["score"] = {"points": [54, 34], "total": [94, 90]}
    v = judge(rec, told=True)
    assert serious(v) == []
    assert v.told is not None
    assert sorted((b.side, b.points) for b in v.told[0].bonuses) == [(0, 8), (1, 8)]
    assert v.totals == [94, 90]


def test_muck_tie_both_can_be_the_winning_peg() -> None:
    rec = record(
        [sheet(1, [100, 130]), rotate(tied_deal(), 3)],
        rules={"muck_tie": "both"},
        result={"winner": [1], "total": [132, 186]},
    )
    v = judge(rec, told=True)
    assert serious(v) == []
    assert v.told is not None
    assert v.told[1].tricks[-1].totals == (132, 178)  # EW short of 181 until the 8
    # EW pitched, so EW peg their 8 first and win at it: NS's 8 is never pegged.
    assert (v.winner, v.totals, v.ended_at) == ([1], [132, 186], (1, None))


@pytest.mark.parametrize(
    ("turn", "start", "winner", "final"),
    [
        # N pitches (W deals the tied deal): phat NS 48, EW 32, from 125-141 both have 173 after trick 13.
        (0, [125, 141], 0, [181, 173]),
        # E pitches (the same deal turned so that N deals): phat NS 32, EW 48, from 141-125: 173-173.
        (1, [141, 125], 1, [173, 181]),
    ],
)
def test_muck_tie_both_the_pitchers_side_pegs_first(turn: int, start: list[int], winner: int, final: list[int]) -> None:
    """Under ``both`` with ``peg_out: immediate`` the pitcher's side pegs its 8 first (A.2): when both 8s
    would reach 181, the pitcher's side wins at its peg, and the other side's 8 is never pegged."""
    deal = rotate(tied_deal(), turn)
    pitcher_side = (deal["dealer"] + 1) % 2
    assert pitcher_side == winner
    rec = record(
        [sheet((deal["dealer"] + 3) % 4, start), deal],
        rules={"muck_tie": "both"},
        result={"winner": [winner], "total": final},
    )
    v = judge(rec, told=True)
    assert serious(v) == []
    assert v.told is not None
    assert v.told[1].tricks[-1].totals == (173, 173)
    assert [(b.side, b.points) for b in v.told[1].bonuses] == [(winner, 8)]
    assert (v.winner, v.totals, v.ended_at) == ([winner], final, (1, None))
    # The other side's win is wrong.
    rec["result"] = {"winner": [1 - winner], "total": final}
    assert serious(judge(rec)) == [("PL403", "/result/winner")]


# ------------------------------------------------------------------------------------ the cut


@pytest.mark.parametrize(
    "cut",
    [
        [["2C", "AS", "5H", "KD"]],  # N cuts lowest
        [["3C", "AS", "5H", "KD"]],  # ace high: E's ace is not low
        [["4C", "4S", "5H", "KD"], ["2H", "9C", None, None]],  # N and E tie on fours; N lower in the re-cut
        [["4C", "4S", "4H", "KD"], ["2C", "9D", "9S", None]],  # a three-way tie
        [["4C", "4S", "5H", "KD"], ["7H", "7C", None, None], ["2D", "3D", None, None]],  # tied twice
        [["4C", "AS", "5H", "4D"], ["3S", None, None, "AH"]],  # N and W tie; the re-cut cards reused
    ],
)
def test_a_cut_that_gives_n_the_pitch(cut: list[list[str | None]]) -> None:
    v = judge(record([worked_deal()], result=UNFINISHED, cut=cut))
    assert v.diagnostics == []


@pytest.mark.parametrize(
    ("cut", "where"),
    [
        ([["AC", "3S", "5H", "KD"]], "/deals/0/dealer"),  # E cuts lowest (ace high): S deals first, not W
        ([["KC", "AS", "2H", "KD"]], "/deals/0/dealer"),  # S cuts lowest
        ([["4C", "4S", "5H", "KD"], ["9H", "2C", None, None]], "/deals/0/dealer"),  # E wins the re-cut
        ([["4C", "4S", "5H", "KD"]], "/cut/0"),  # a tie for lowest that is not cut again
        ([["4C", "4S", "5H", "KD"], ["2H", "9C", "3D", None]], "/cut/1"),  # S re-cuts, but S was not tied
        ([["4C", "4S", "5H", "KD"], ["2H", None, None, None]], "/cut/1"),  # E, tied, does not re-cut
        ([["2C", "AS", "5H", "KD"], ["3C", "4C", "5C", "6C"]], "/cut/1"),  # decided, yet cut again
        ([["2C", "AS", "5H", None]], "/cut/0"),  # all four cut
        ([["2C", "2C", "5H", "KD"]], "/cut/0"),  # one card twice in one round
    ],
)
def test_a_bad_cut(cut: list[list[str | None]], where: str) -> None:
    v = judge(record([worked_deal()], result=UNFINISHED, cut=cut))
    assert found(v) == [("PL501", where)]


def test_the_cut_fixes_only_the_first_dealer() -> None:
    deals = [worked_deal(), rotate(worked_deal(), 1)]
    v = judge(record(deals, result=UNFINISHED, cut=[["2C", "AS", "5H", "KD"]]))
    assert v.diagnostics == []


# ------------------------------------------------------------------------------------ the deal and the record


def test_dealer_rotation() -> None:
    good = [sheet(0, [0, 0]), sheet(1, [50, 38]), sheet(2, [100, 76]), sheet(3, [130, 134])]
    v = judge(record(good, result=UNFINISHED))
    assert serious(v) == []
    bad = copy.deepcopy(good)
    bad[2]["dealer"] = 3  # deal 3 is dealt by W out of turn (S's turn); deal 4 passes on to N from there
    bad[3]["dealer"] = 0
    v = judge(record(bad, result=UNFINISHED))
    assert serious(v) == [("PL202", "/deals/2/dealer")]
    same = [worked_deal(), worked_deal()]  # W deals twice running
    v = judge(record(same, result=UNFINISHED))
    assert serious(v) == [("PL202", "/deals/1/dealer")]


def test_the_pitcher_is_on_the_dealers_left() -> None:
    deal = worked_deal()
    deal["dealer"] = 2  # then W pitches, but N led
    v = judge(record([deal], result=UNFINISHED))
    assert serious(v) == [("PL301", "/deals/0/tricks/0/leader"), ("PL307", "/deals/0")]


def test_a_deal_that_stops_short() -> None:
    deal = worked_deal()
    deal["tricks"] = deal["tricks"][:12]
    v = judge(record([deal]))
    assert serious(v) == [("PL306", "/deals/0/tricks"), ("PL405", "/deals")]
    v = judge(record([copy.deepcopy(deal)], result=UNFINISHED))  # the last deal of a stopped game
    assert serious(v) == []
    v = judge(record([copy.deepcopy(deal), sheet(0, [46, 25])], result=UNFINISHED))
    assert serious(v) == [("PL306", "/deals/0/tricks")]  # only the last deal may stop


def test_a_game_nobody_won_must_say_it_is_unfinished() -> None:
    assert serious(judge(record([worked_deal()]))) == [("PL405", "/deals")]
    assert serious(judge(record([worked_deal()], result={"status": "finished"}))) == [("PL405", "/deals")]
    assert serious(judge(record([worked_deal()], result={"status": "unfinished", "reason": "time"}))) == []


def test_an_unfinished_game_that_was_won() -> None:
    v = judge(illustration([127, 140], result={"status": "unfinished"}))
    assert serious(v) == [("PL403", "/result/status")]


def test_the_result_is_checked() -> None:
    def result_of(result: Json) -> Found:
        return serious(judge(illustration([127, 140], result=result)))

    assert result_of({"winner": [0], "total": [181, 174]}) == []
    assert result_of({"status": "finished"}) == []
    assert result_of({"winner": [1]}) == [("PL403", "/result/winner")]
    assert result_of({"winner": [0, 1]}) == [("PL403", "/result/winner")]
    assert result_of({"total": [181, 175]}) == [("PL404", "/result/total/1")]
    assert result_of({"total": [173, 174]}) == [("PL404", "/result/total/0")]
    assert result_of({"winner": [1], "total": [173, 182]}) == [
        ("PL403", "/result/winner"),
        ("PL404", "/result/total/0"),
        ("PL404", "/result/total/1"),
    ]


def test_a_winner_for_a_game_nobody_won() -> None:
    v = judge(record([worked_deal()], result={"status": "unfinished", "winner": [0]}))
    assert serious(v) == [("PL407", "/result/winner")]


def test_a_deal_after_the_game_was_won() -> None:
    rec = illustration([140, 170], tricks=6, result={"winner": [0], "total": [186, 170]})
    rec["deals"].append(sheet(0, [186, 170]))
    assert serious(judge(rec)) == [("PL308", "/deals/2")]


# ------------------------------------------------------------------------------------ hands not recorded


def without_hands(deal: Json) -> Json:
    out = copy.deepcopy(deal)
    out.pop("hands")
    return out


def test_hands_inferred_from_the_tricks() -> None:
    v = judge(record([without_hands(worked_deal())], result=UNFINISHED), told=True)
    assert v.diagnostics == []
    assert v.totals == [54, 34]
    assert v.told is not None
    assert [[str(c) for c in h] for h in v.told[0].hands or []] == [
        [str(c) for c in sorted(map(Card.parse, h))] for h in worked_deal()["hands"]
    ]


def revoked(deal: Json) -> Json:
    """E plays Q♥ to N's A♣ in trick 2 (holding T♣ Q♣), and T♣ to the heart lead in trick 3."""
    out = copy.deepcopy(deal)
    assert out["tricks"][1]["cards"][1] == "TC" and out["tricks"][2]["cards"][1] == "QH"
    out["tricks"][1]["cards"][1] = "QH"
    out["tricks"][2]["cards"][1] = "TC"
    return out


@pytest.mark.parametrize("hands", [True, False])
def test_a_revoke(hands: bool) -> None:
    deal = revoked(worked_deal())
    if not hands:
        deal = without_hands(deal)
    v = judge(record([deal], result=UNFINISHED))
    assert serious(v) == [("PL303", "/deals/0/tricks/1/cards/1"), ("PL307", "/deals/0")]
    revoke = v.diagnostics[0]
    assert "QH" in revoke.message and "E" in revoke.message


def test_a_revoke_shown_later_in_a_partial_deal() -> None:
    """Hands not recorded and only 4 tricks: E showed clubs later (T♣ in trick 3, Q♣ in trick 4)."""
    deal = without_hands(revoked(worked_deal()))
    deal["tricks"] = deal["tricks"][:4]
    v = judge(record([deal], result=UNFINISHED))
    assert serious(v) == [("PL303", "/deals/0/tricks/1/cards/1"), ("PL307", "/deals/0")]
    assert ("PL203", "/deals/0") in found(v)


def test_a_revoke_never_shown_cannot_be_proved() -> None:
    deal = without_hands(revoked(worked_deal()))
    deal["tricks"] = deal["tricks"][:2]
    v = judge(record([deal], result=UNFINISHED))
    assert serious(v) == []
    assert found(v) == [("PL203", "/deals/0")]


def test_a_card_played_twice_without_hands() -> None:
    deal = without_hands(worked_deal())
    deal["tricks"][12]["cards"][3] = "4H"  # N already played the 4♥ in trick 12
    v = judge(record([deal], result=UNFINISHED))
    assert serious(v) == [("PL302", "/deals/0/tricks/12/cards/3"), ("PL307", "/deals/0")]


def test_a_card_not_held() -> None:
    deal = worked_deal()
    t = deal["tricks"][6]  # N 7♥, E J♥, S 9♥, W 2♥
    t["cards"][2] = "3H"  # the 3♥ is W's
    v = judge(record([deal], result=UNFINISHED))
    assert serious(v) == [("PL302", "/deals/0/tricks/6/cards/2"), ("PL307", "/deals/0")]
    assert "W" in v.diagnostics[0].message


def test_muck_tie_carry_through_a_score_sheet_row() -> None:
    """A score-sheet row of 80 under carry is a tied deal: the next muck winner collects 16."""
    rec = record(
        [sheet_points(2, [48, 32], [48, 32]), scored(worked_deal(), [62, 34], [110, 66])],
        rules={"muck_tie": "carry"},
        result=UNFINISHED,
    )
    v = judge(rec)
    assert serious(v) == []
    assert v.totals == [110, 66]


def test_a_card_played_again_with_hands_recorded() -> None:
    deal = worked_deal()
    deal["tricks"][1]["cards"][0] = "AD"  # N led the A♦ to trick 1 already
    v = judge(record([deal], result=UNFINISHED))
    assert serious(v) == [("PL302", "/deals/0/tricks/1/cards/0"), ("PL307", "/deals/0")]
    assert "AD" in v.diagnostics[0].message and "trick 1" in v.diagnostics[0].message


# ------------------------------------------------------------------------------------ after an impossible sheet deal


@pytest.mark.parametrize("winner", [[0], [1]])
def test_both_past_the_target_on_a_sheet_is_one_error_and_a_note(winner: list[int]) -> None:
    """170-170 to 190-185 under ``immediate`` cannot happen (PL401); the engine then cannot know who
    pegged out first (a PL406 note), so it does not also say that nobody won (no PL407)."""
    rec = record(
        [sheet(0, [170, 170]), sheet_points(1, [20, 15], [190, 185])],
        result={"winner": winner, "total": [190, 185]},
    )
    v = judge(rec)
    assert serious(v) == [("PL401", "/deals/1/score/points")]
    assert ("PL406", "/deals/1") in found(v)
    assert "which pegged out first" in next(d.message for d in v.diagnostics if d.pointer == "/deals/1")
    # Totals that disagree with the sheet are still wrong.
    rec["result"] = {"winner": winner, "total": [190, 186]}
    assert serious(judge(rec)) == [("PL401", "/deals/1/score/points"), ("PL404", "/result/total/1")]


def test_a_deal_after_both_passed_the_target_says_the_game_was_over_not_won() -> None:
    rec = record(
        [sheet(0, [170, 170]), sheet_points(1, [20, 15], [190, 185]), sheet_points(2, [0, 0], [190, 185])],
        result={"winner": [0], "total": [190, 185]},
    )
    v = judge(rec)
    assert serious(v) == [("PL401", "/deals/1/score/points"), ("PL308", "/deals/2")]
    message = next(d.message for d in v.diagnostics if d.code == "PL308")
    assert "was over" in message and "won" not in message
