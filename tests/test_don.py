"""The Don family as the referee plays it: Nine-card Don (counters, game, every bonus scheme, undealt
cards, the follow rules, the cut, the end of the game) and Irish Don (Phat's counters without a muck,
80 a deal, the holder of the 2D pitches first), rules reference A.3, A.4, B.3 and the worked example
B.6.3.

The deals under test are hand-built records in ``tests/data/don_*.json``; each file's comment says
what it shows, and the expected numbers below were worked out by hand from the rules, trick by trick,
not read off the engine. ``test_*_is_what_it_says`` re-derives them with the rules spelled out here in
plain code. A side is put at a start score by a score-sheet deal before the deal under test (a deal
with only a dealer and a running total, taken as recorded: info PL406). Side 0 is N+S (X in B.6.3),
side 1 is E+W (Y).
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal, get_args, get_origin

import pytest
from conftest import Heard, listen
from pydantic import BaseModel
from typer.testing import CliRunner

from phatlog.cli.app import app
from phatlog.diagnostics import Severity
from phatlog.play.simulate import simulate
from phatlog.record.model import IrishDonRules, NineCardDonRules
from phatlog.record.reader import read_bytes, read_path
from phatlog.referee.games import referee
from phatlog.referee.irish_don import IrishDonReferee
from phatlog.referee.nine_card_don import NineCardDonReferee
from phatlog.referee.pitch import Findings
from phatlog.rules.all_fours import card_points
from phatlog.rules.cards import CARD_TEXT, DECK, Card, Suit
from phatlog.rules.nine_card_don import don_counters
from phatlog.rules.phat import phat_counters

DATA: Final = Path(__file__).resolve().parent / "data"
RANKS: Final = "23456789TJQKA"
Json = dict[str, Any]
Found = list[tuple[str, str]]
Peg = tuple[int | None, int, str]

UNFINISHED: Final[Json] = {"status": "unfinished"}

# ------------------------------------------------------------------------------------ the rules, spelled out


def don_value(text: str, trump: str) -> int:
    """Nine-card Don's counters (A.3, D8): trump 9 = 9, trump 5 = 10, plain 5 = 5, trump A K Q J 4 3 2 1."""
    rank, suit = text[0], text[1]
    if rank == "5":
        return 10 if suit == trump else 5
    if suit != trump:
        return 0
    return {"9": 9, "A": 4, "K": 3, "Q": 2, "J": 1}.get(rank, 0)


def phat_value(text: str, trump: str) -> int:
    """Phat's (and Irish Don's) counters: nines 18/9, fives 10/5, trump A K Q J 4 3 2 1."""
    rank, suit = text[0], text[1]
    if rank == "9":
        return 18 if suit == trump else 9
    if rank == "5":
        return 10 if suit == trump else 5
    return {"A": 4, "K": 3, "Q": 2, "J": 1}.get(rank, 0) if suit == trump else 0


def game_value(text: str) -> int:
    """The game count (D9, A-5): A 4, K 3, Q 2, J 1, T 10 in every suit, trumps included."""
    return {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}.get(text[0], 0)


def trick_winner(trick: Json, trump: str) -> int:
    """B.1.5: the seat of the highest trump, else of the highest card of the suit led."""
    cards = trick["cards"]
    pool = [i for i, c in enumerate(cards) if c[1] == trump] or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return int((trick["leader"] + max(pool, key=lambda i: RANKS.index(cards[i][0]))) % 4)


# ------------------------------------------------------------------------------------ records


@cache
def _data(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def data(name: str) -> Json:
    """A data file as a JSON-ready dict (a fresh copy)."""
    loaded: Json = json.loads(_data(name))
    return loaded


def deal(name: str) -> Json:
    """The one deal of a data file, without its score."""
    out: Json = data(name)["deals"][0]
    out.pop("score", None)
    return out


def substitute(d: Json, swap: dict[str, str]) -> Json:
    """The deal with cards exchanged everywhere (hands, undealt, tricks): ``{"AH": "KH", "KH": "AH"}``."""
    out = copy.deepcopy(d)
    for key in ("hands",):
        if key in out:
            out[key] = [[swap.get(c, c) for c in h] for h in out[key]]
    if "undealt" in out:
        out["undealt"] = [swap.get(c, c) for c in out["undealt"]]
    for trick in out.get("tricks", []):
        trick["cards"] = [swap.get(c, c) for c in trick["cards"]]
    return out


def rotate(d: Json, k: int) -> Json:
    """The same deal with every seat moved ``k`` places to the left; odd ``k`` swaps the sides."""
    out = copy.deepcopy(d)
    out["dealer"] = (d["dealer"] + k) % 4
    if "hands" in d:
        out["hands"] = [d["hands"][(s - k) % 4] for s in range(4)]
    for trick in out["tricks"]:
        trick["leader"] = (trick["leader"] + k) % 4
    return out


def without_hands(d: Json) -> Json:
    out = copy.deepcopy(d)
    out.pop("hands", None)
    return out


def sheet(dealer: int, total: list[int]) -> Json:
    """A score-sheet deal that sets the running total."""
    return {"dealer": dealer, "score": {"total": total}}


def sheet_points(dealer: int, points: list[int], total: list[int]) -> Json:
    return {"dealer": dealer, "score": {"points": points, "total": total}}


def scored(d: Json, points: list[int], total: list[int] | None = None) -> Json:
    out = copy.deepcopy(d)
    out["score"] = {"points": points, "total": total if total is not None else points}
    return out


def record(
    deals: list[Json], rules: Json | None = None, result: Json | None = None, game: str = "nine_card_don", **extra: Any
) -> Json:
    rec: Json = {
        "phatlog": "1.0",
        "game": game,
        "players": [{"name": n} for n in ("N", "E", "S", "W")],
        "deals": deals,
    }
    if rules is not None:
        rec["rules"] = rules
    if result is not None:
        rec["result"] = result
    rec.update(extra)
    return rec


def start_at(total: list[int], d: Json, rules: Json | None = None, result: Json | None = None) -> Json:
    """A score-sheet deal that sets ``total``, then ``d`` (dealt by the next seat)."""
    return record([sheet((d["dealer"] + 3) % 4, total), d], rules=rules, result=result)


def load(rec: Json) -> Any:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.diagnostics == [], loaded.diagnostics
    assert loaded.record is not None
    return loaded.record


def judge(rec: Json, told: bool = False) -> Heard:
    return listen(load(rec), told)


def serious(v: Findings) -> Found:
    return [(d.code, d.pointer) for d in v.diagnostics if d.severity is not Severity.INFO]


def found(v: Findings) -> Found:
    return [(d.code, d.pointer) for d in v.diagnostics]


def pegs(v: Heard, d: int = 0) -> list[Peg]:
    """Deal ``d``'s end-of-deal awards from the trace, in pegging order, as (side, points, label)."""
    assert v.told is not None
    return [(b.side, b.points, b.label) for b in v.told[d].bonuses]


def schema_errors(rec: Json) -> Found:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.record is None
    return [(d.code, d.pointer) for d in loaded.diagnostics]


# ------------------------------------------------------------------------------------ counters and game count


@pytest.mark.parametrize("trump", list(Suit))
def test_every_nine_card_don_counter(trump: Suit) -> None:
    values = don_counters(trump)
    t = trump.letter
    for card in DECK:
        assert values[card] == don_value(str(card), t), str(card)
    assert values[Card.parse("9" + t)] == 9  # not Phat's 18
    assert values[Card.parse("5" + t)] == 10
    assert [values[Card.parse(r + t)] for r in "AKQJ"] == [4, 3, 2, 1]
    assert [values[Card.parse(r + t)] for r in "T8764 32".replace(" ", "")] == [0] * 7
    for other in Suit:
        if other is not trump:
            assert values[Card.parse("5" + other.letter)] == 5
            assert values[Card.parse("9" + other.letter)] == 0  # plain nines count nothing
            assert [values[Card.parse(r + other.letter)] for r in "AKQJT87643 2".replace(" ", "")] == [0] * 11
    assert sum(values) == 44  # D10: 29 in trumps and 15 in plain fives


@pytest.mark.parametrize("trump", list(Suit))
def test_the_games_peg_their_counter_tables(trump: Suit) -> None:
    don = NineCardDonReferee(NineCardDonRules()).counter_texts(int(trump))
    assert don == {text: don_value(text, trump.letter) for text in CARD_TEXT}
    irish = IrishDonReferee(IrishDonRules())
    assert irish.counters(trump) == phat_counters(trump)  # I2: Phat's table
    assert irish.counter_texts(int(trump)) == {text: phat_value(text, trump.letter) for text in CARD_TEXT}
    assert sum(irish.counters(trump)) == 80


def test_the_game_count() -> None:
    for text in CARD_TEXT:
        assert card_points([text]) == game_value(text), text
    for suit in "CDHS":  # every suit alike: the trump suit is no different
        assert [card_points([r + suit]) for r in "AKQJT"] == [4, 3, 2, 1, 10]
        assert card_points(r + suit for r in "98765432") == 0
    assert card_points(CARD_TEXT) == 80


# ------------------------------------------------------------------------------------ the hand-worked deals

# Per deal: the counters pegged by side, the game count by side, and the awards of each scheme in the
# order they are pegged, as (side, points, label); side None = nobody scores it.
SCHEMES: Final[dict[str, Json]] = {
    "game_8": {},
    "six_high_jack": {"bonus": "six_high_jack"},
    "five_high_low_jack": {"bonus": "five_high_low_jack"},
    "five_capturer": {"bonus": "five_high_low_jack", "low_to": "capturer"},
}
WORKED: Final[dict[str, tuple[tuple[int, int], tuple[int, int], dict[str, list[Peg]]]]] = {
    # B.6.3: X = N+S dealt AH (high) and 3H (low); E+W capture the 3H; the JH is undealt; game 30-25.
    "don_6_3.json": (
        (11, 19),
        (30, 25),
        {
            "game_8": [(0, 8, "game")],
            "six_high_jack": [(0, 6, "game"), (0, 1, "high"), (None, 0, "jack")],
            "five_high_low_jack": [(0, 5, "game"), (0, 1, "high"), (0, 1, "low"), (None, 0, "jack")],
            "five_capturer": [(0, 5, "game"), (0, 1, "high"), (1, 1, "low"), (None, 0, "jack")],
        },
    ),
    # Game tied 28-28; W's JH won by N in trick 1; high AH and low 3H dealt to N, the 3H won by E.
    "don_jack_tie.json": (
        (12, 19),
        (28, 28),
        {
            "game_8": [(None, 0, "game")],
            "six_high_jack": [(None, 0, "game"), (0, 1, "high"), (0, 1, "jack")],
            "five_high_low_jack": [(None, 0, "game"), (0, 1, "high"), (0, 1, "low"), (0, 1, "jack")],
            "five_capturer": [(None, 0, "game"), (0, 1, "high"), (1, 1, "low"), (0, 1, "jack")],
        },
    ),
    # Game 14-42 to E+W; high, low (as dealt) and jack to N+S.
    "don_game_high_split.json": (
        (12, 19),
        (14, 42),
        {
            "game_8": [(1, 8, "game")],
            "six_high_jack": [(1, 6, "game"), (0, 1, "high"), (0, 1, "jack")],
            "five_high_low_jack": [(1, 5, "game"), (0, 1, "high"), (0, 1, "low"), (0, 1, "jack")],
            "five_capturer": [(1, 5, "game"), (0, 1, "high"), (1, 1, "low"), (0, 1, "jack")],
        },
    ),
    # One trump dealt (N's 7H): it is high and low, and its holder necessarily wins it; JH undealt.
    "don_one_trump.json": (
        (10, 5),
        (19, 41),
        {
            "game_8": [(1, 8, "game")],
            "six_high_jack": [(1, 6, "game"), (0, 1, "high"), (None, 0, "jack")],
            "five_high_low_jack": [(1, 5, "game"), (0, 1, "high"), (0, 1, "low"), (None, 0, "jack")],
            "five_capturer": [(1, 5, "game"), (0, 1, "high"), (0, 1, "low"), (None, 0, "jack")],
        },
    ),
}
CASES: Final = [(name, scheme) for name in WORKED for scheme in SCHEMES]


def deal_points(name: str, scheme: str) -> list[int]:
    counters, _, awards = WORKED[name]
    points = list(counters)
    for side, value, _label in awards[scheme]:
        if side is not None:
            points[side] += value
    return points


@pytest.mark.parametrize("name", list(WORKED))
def test_the_hand_worked_deal_is_what_it_says(name: str) -> None:
    """Each data file re-derived with the rules spelled out above: legal, 52 cards, counters, game."""
    rec = data(name)
    d = rec["deals"][0]
    cards = [c for h in d["hands"] for c in h] + d["undealt"]
    assert sorted(cards) == sorted(CARD_TEXT)  # 36 dealt and 16 undealt, 52 different cards
    held = [set(h) for h in d["hands"]]
    trump = d["tricks"][0]["cards"][0][1]
    leader = (d["dealer"] + 1) % 4
    counters, game = [0, 0], [0, 0]
    for trick in d["tricks"]:
        assert trick["leader"] == leader
        led = trick["cards"][0][1]
        for i, card in enumerate(trick["cards"]):
            seat = (leader + i) % 4
            assert card in held[seat]
            if i and card[1] != led:
                assert not any(c[1] == led for c in held[seat])  # must follow
            held[seat].remove(card)
        leader = trick_winner(trick, trump)
        counters[leader % 2] += sum(don_value(c, trump) for c in trick["cards"])
        game[leader % 2] += sum(game_value(c) for c in trick["cards"])
    assert (tuple(counters), tuple(game)) == WORKED[name][:2]
    assert d["score"]["points"] == deal_points(name, "game_8")


def test_6_3_is_the_rules_reference_example() -> None:
    """B.6.3: trumps in play AH QH 9H 7H 3H; JH undealt; X dealt AH and 3H; Y captured the 3H; 30-25."""
    d = deal("don_6_3.json")
    dealt_trumps = sorted((c for h in d["hands"] for c in h if c[1] == "H"), key=lambda c: RANKS.index(c[0]))
    assert dealt_trumps == ["3H", "7H", "9H", "QH", "AH"]
    assert "JH" in d["undealt"]
    x = d["hands"][0] + d["hands"][2]
    assert "AH" in x and "3H" in x
    capture = next(t for t in d["tricks"] if "3H" in t["cards"])
    assert trick_winner(capture, "H") % 2 == 1  # Y


# B.6.3 trick by trick: leader, winner, counters pegged, running counters X-Y.
TRICKS_6_3: Final[list[tuple[int, int, dict[str, int], tuple[int, int]]]] = [
    (0, 0, {"AH": 4, "QH": 2}, (6, 0)),
    (0, 0, {"5S": 5}, (11, 0)),
    (0, 0, {}, (11, 0)),  # KS 7S 8S 9S: the plain nine counts nothing
    (0, 1, {"5D": 5}, (11, 5)),
    (1, 1, {"9H": 9, "5C": 5}, (11, 19)),  # the nine of trumps is 9, not 18; Y takes the 3H
    (1, 1, {}, (11, 19)),
    (1, 1, {}, (11, 19)),
    (1, 2, {}, (11, 19)),
    (2, 2, {}, (11, 19)),
]


def test_6_3_trick_by_trick() -> None:
    v = judge(data("don_6_3.json"), told=True)
    assert v.diagnostics == []
    assert v.told is not None
    dr = v.told[0]
    assert (dr.dealer, dr.pitcher, dr.trump) == (3, 0, Suit.HEARTS)
    assert len(dr.tricks) == 9
    for t, (trick, (leader, winner, counters, totals)) in enumerate(zip(dr.tricks, TRICKS_6_3, strict=True)):
        assert (trick.leader, trick.seat, trick.totals) == (leader, winner, totals), f"trick {t + 1}"
        assert {str(c): p for c, p in trick.counters} == counters, f"trick {t + 1}"
    assert dr.captured == (30, 25)
    assert dr.points == (19, 19)


@pytest.mark.parametrize(("name", "scheme"), CASES, ids=[f"{n[4:-5]}-{s}" for n, s in CASES])
def test_every_bonus_scheme_on_the_hand_worked_deals(name: str, scheme: str) -> None:
    points = deal_points(name, scheme)
    rec = record([scored(deal(name), points)], rules=SCHEMES[scheme], result=UNFINISHED)
    v = judge(rec, told=True)
    assert v.diagnostics == []
    assert pegs(v) == WORKED[name][2][scheme]
    assert v.told is not None and v.told[0].captured == WORKED[name][1]
    assert v.totals == points
    # The same verdict without the trace (the engine may add the counters up at the end of the deal).
    plain = judge(rec)
    assert (plain.diagnostics, plain.totals) == ([], points)


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_6_3_bonus_totals(scheme: str) -> None:
    """B.6.3: 8 for game_8; 7 in all under both other schemes, because the jack is not dealt."""
    v = judge(record([deal("don_6_3.json")], rules=SCHEMES[scheme], result=UNFINISHED), told=True)
    assert sum(points for _side, points, _label in pegs(v)) == (8 if scheme == "game_8" else 7)
    expected = {
        "game_8": [19, 19],
        "six_high_jack": [18, 19],  # X +6 +1 (high), the jack to nobody
        "five_high_low_jack": [18, 19],  # X +5 +1 +1 (low to the holder, X)
        "five_capturer": [17, 20],  # X +5 +1, Y +1 (low to the capturer, Y)
    }
    assert v.totals == expected[scheme]


def test_the_bonus_reasons_name_the_cards() -> None:
    v = judge(record([deal("don_6_3.json")], rules=SCHEMES["five_capturer"], result=UNFINISHED), told=True)
    assert v.told is not None
    game, high, low, jack = v.told[0].bonuses
    assert "30-25" in game.reason
    assert "AH" in high.reason
    assert "3H" in low.reason
    assert "JH" in jack.reason and "not dealt" in jack.reason


def test_high_is_the_highest_trump_dealt_not_the_ace() -> None:
    """The 6.3 deal with the AH and the KH exchanged: the AH is undealt, N pitches the KH, which is high."""
    d = substitute(deal("don_6_3.json"), {"AH": "KH", "KH": "AH"})
    v = judge(record([d], rules=SCHEMES["six_high_jack"], result=UNFINISHED), told=True)
    assert v.diagnostics == []
    assert v.told is not None
    assert v.told[0].captured == (29, 25)  # the KH counts 3 in the game count, not the ace's 4
    high = v.told[0].bonuses[1]
    assert (high.side, high.points, high.label) == (0, 1, "high") and "KH" in high.reason
    assert v.totals == [10 + 6 + 1, 19]  # KH 3 at once, not 4


def test_the_five_of_trumps_pegs_10_at_once() -> None:
    """The 6.3 deal with the 7H and 5H exchanged: W's 5H falls to N's AH in trick 1: 4 + 2 + 10 for X."""
    d = substitute(deal("don_6_3.json"), {"7H": "5H", "5H": "7H"})
    v = judge(record([d], result=UNFINISHED), told=True)
    assert v.diagnostics == []
    assert v.told is not None
    assert {str(c): p for c, p in v.told[0].tricks[0].counters} == {"AH": 4, "QH": 2, "5H": 10}
    assert v.totals == [21 + 8, 19]
    # The 3H is still low: the 5H is higher.
    v = judge(record([d], rules=SCHEMES["five_high_low_jack"], result=UNFINISHED), told=True)
    assert v.told is not None and "3H" in v.told[0].bonuses[2].reason


def test_the_jack_goes_to_the_side_that_wins_it_and_pegs_its_1_at_once() -> None:
    """W (E+W) was dealt the JH; N (N+S) wins it in trick 1: 1 at once for N+S, and the jack point."""
    v = judge(record([deal("don_jack_tie.json")], rules=SCHEMES["six_high_jack"], result=UNFINISHED), told=True)
    assert v.told is not None
    assert {str(c): p for c, p in v.told[0].tricks[0].counters} == {"AH": 4, "QH": 2, "JH": 1}
    jack = v.told[0].bonuses[-1]
    assert (jack.side, jack.points, jack.label) == (0, 1, "jack")


def test_a_tied_game_scores_nobody() -> None:
    v = judge(record([deal("don_jack_tie.json")], result=UNFINISHED), told=True)
    assert v.told is not None
    assert v.told[0].captured == (28, 28)
    assert pegs(v) == [(None, 0, "game")]
    assert "nobody" in v.told[0].bonuses[0].reason
    assert v.totals == [12, 19]  # counters only


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_the_bonuses_do_not_depend_on_the_seats(scheme: str) -> None:
    """The 6.3 deal turned by one seat: the sides swap, and so does every award."""
    name = "don_6_3.json"
    v = judge(record([rotate(deal(name), 1)], rules=SCHEMES[scheme], result=UNFINISHED), told=True)
    assert v.diagnostics == []
    assert pegs(v) == [(None if s is None else 1 - s, p, label) for s, p, label in WORKED[name][2][scheme]]
    assert v.totals == deal_points(name, scheme)[::-1]


def test_wrong_bonus_points_are_reported() -> None:
    """Six-high-jack with the jack undealt is 7, not 8: a scorer who pegged 8 is one out."""
    d = scored(deal("don_6_3.json"), [11 + 8, 19], [18, 19])
    v = judge(record([d], rules=SCHEMES["six_high_jack"], result=UNFINISHED))
    assert found(v) == [("PL401", "/deals/0/score/points/0")]
    # Low given to the capturer under the default holder rule: both sides are one out.
    d = scored(deal("don_6_3.json"), [17, 20], [18, 19])
    v = judge(record([d], rules=SCHEMES["five_high_low_jack"], result=UNFINISHED))
    assert found(v) == [("PL401", "/deals/0/score/points/0"), ("PL401", "/deals/0/score/points/1")]
    # Game claimed on a tie, and carried into the running total: both rows are wrong.
    d = scored(deal("don_jack_tie.json"), [12 + 8, 19], [20, 19])
    v = judge(record([d], result=UNFINISHED))
    assert found(v) == [("PL401", "/deals/0/score/points/0"), ("PL402", "/deals/0/score/total/0")]


# ------------------------------------------------------------------------------------ the rules parameters


@pytest.mark.parametrize("bonus", ["game_8", "six_high_jack"])
@pytest.mark.parametrize("low_to", ["holder", "capturer"])
def test_low_to_without_a_low_is_a_warning(bonus: str, low_to: str) -> None:
    """A rules parameter that does not apply is a warning (PL603), not an error: the deal is still scored."""
    v = judge(record([deal("don_6_3.json")], rules={"bonus": bonus, "low_to": low_to}, result=UNFINISHED))
    assert found(v) == [("PL603", "/rules/low_to")]
    assert [d.severity.value for d in v.diagnostics] == ["warning"]
    assert f"low_to {low_to} does not apply" in v.diagnostics[0].message
    assert v.totals == [19, 19] if bonus == "game_8" else [18, 19]  # the deal is still scored
    # and refereed: a wrong score is still found
    rec = record([deal("don_6_3.json")], rules={"bonus": bonus, "low_to": low_to}, result=UNFINISHED)
    rec["deals"][0]["score"] = {"points": [0, 0], "total": [0, 0]}
    assert {c for c, _ in found(judge(rec))} >= {"PL603", "PL401"}


@pytest.mark.parametrize("low_to", ["holder", "capturer"])
def test_low_to_with_five_high_low_jack_is_fine(low_to: str) -> None:
    v = judge(
        record([deal("don_6_3.json")], rules={"bonus": "five_high_low_jack", "low_to": low_to}, result=UNFINISHED)
    )
    assert v.diagnostics == []


@pytest.mark.parametrize(
    ("rules", "code", "where"),
    [
        ({"bonus": "four_high"}, "PL108", "/rules/bonus"),
        ({"low_to": "dealer"}, "PL108", "/rules/low_to"),
        ({"follow": "must_trump"}, "PL108", "/rules/follow"),  # Oh Hell's La Podrida, not a Don rule
        ({"peg_out": "never"}, "PL108", "/rules/peg_out"),
        ({"muck_tie": "carry"}, "PL102", "/rules/muck_tie"),  # Phat's, not Don's
        ({"target": 0}, "PL106", "/rules/target"),
    ],
)
def test_bad_rules_values(rules: Json, code: str, where: str) -> None:
    assert schema_errors(record([deal("don_6_3.json")], rules=rules, result=UNFINISHED)) == [(code, where)]


@pytest.mark.parametrize(
    ("rules", "code", "where"),
    [
        ({"bonus": "game_8"}, "PL102", "/rules/bonus"),
        ({"follow": "follow_or_trump"}, "PL102", "/rules/follow"),
        ({"muck_tie": "none"}, "PL102", "/rules/muck_tie"),
    ],
)
def test_irish_don_has_only_target_and_peg_out(rules: Json, code: str, where: str) -> None:
    rec = record([deal("don_irish_6_2.json")], rules=rules, result=UNFINISHED, game="irish_don")
    assert schema_errors(rec) == [(code, where)]


def test_the_defaults() -> None:
    rules = NineCardDonRules()
    assert (rules.target, rules.peg_out, rules.bonus, rules.low_to, rules.follow) == (
        121,
        "immediate",
        "game_8",
        None,
        "must_follow",
    )
    irish = IrishDonRules()
    assert (irish.target, irish.peg_out) == (81, "immediate")


# ------------------------------------------------------------------------------------ the end of the game

# The 6.3 deal is dealt by W (seat 3); the score-sheet deal before it is dealt by S.


def test_counters_that_reach_the_target_end_the_game_at_once() -> None:
    """From 110-0: X pegs 6 in trick 1 (116) and 5 in trick 2 (121), and wins there; no bonus."""
    d = deal("don_6_3.json")
    d["tricks"] = d["tricks"][:2]
    v = judge(start_at([110, 0], scored(d, [11, 0], [121, 0]), result={"winner": [0], "total": [121, 0]}), told=True)
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [121, 0], (1, 1))
    assert pegs(v, 1) == []
    # Tricks recorded after the winning one are an error, and change nothing.
    v = judge(start_at([110, 0], deal("don_6_3.json"), result={"winner": [0], "total": [121, 0]}))
    assert serious(v) == [("PL305", "/deals/1/tricks/2")]
    assert (v.winner, v.totals, v.ended_at) == ([0], [121, 0], (1, 1))


def test_a_late_jack_takes_a_side_to_the_target() -> None:
    """Six-high-jack, from 107-90: after the tricks 119-109; game to E+W (115), high to N+S (120), and the
    jack, the last award, takes N+S to 121."""
    rules = SCHEMES["six_high_jack"]
    rec = start_at([107, 90], deal("don_game_high_split.json"), rules, {"winner": [0], "total": [121, 115]})
    v = judge(rec, told=True)
    assert serious(v) == []
    assert v.told is not None and v.told[1].tricks[-1].totals == (119, 109)
    assert (v.winner, v.totals, v.ended_at) == ([0], [121, 115], (1, None))
    # One point less at the start and the jack leaves N+S one short.
    v = judge(start_at([106, 90], deal("don_game_high_split.json"), rules, UNFINISHED))
    assert serious(v) == []
    assert (v.winner, v.totals) == (None, [120, 115])


def test_game_is_pegged_before_high() -> None:
    """Six-high-jack, from 108-96: after the tricks 120-115. Game (6) takes E+W to 121 before high could
    take N+S there: E+W win."""
    rules = SCHEMES["six_high_jack"]
    v = judge(start_at([108, 96], deal("don_game_high_split.json"), rules, {"winner": [1]}), told=True)
    assert serious(v) == []
    assert v.told is not None and v.told[1].tricks[-1].totals == (120, 115)
    assert (v.winner, v.ended_at, v.totals) == ([1], (1, None), [120, 121])


def test_high_is_pegged_before_low() -> None:
    """Five-high-low-jack, low to the capturer, the 6.3 deal from 104-101: after the tricks 115-120. N+S
    peg game (120) and high (121) before E+W's low: N+S win."""
    rules = SCHEMES["five_capturer"]
    v = judge(start_at([104, 101], deal("don_6_3.json"), rules, {"winner": [0]}), told=True)
    assert serious(v) == []
    assert v.told is not None and v.told[1].tricks[-1].totals == (115, 120)
    assert (v.winner, v.ended_at, v.totals) == ([0], (1, None), [121, 120])


@pytest.mark.parametrize(
    ("name", "scheme", "start", "final", "pegged"),
    [
        # E+W's game wins; N+S's high and jack are never pegged.
        ("don_game_high_split.json", "six_high_jack", [108, 96], [120, 121], [(1, 6, "game")]),
        # N+S's game and high; E+W's low is never pegged.
        ("don_6_3.json", "five_capturer", [104, 101], [121, 120], [(0, 5, "game"), (0, 1, "high")]),
    ],
)
def test_nothing_is_pegged_after_the_winning_peg(
    name: str, scheme: str, start: list[int], final: list[int], pegged: list[Peg]
) -> None:
    """A.2: under peg_out immediate the game ends at the peg that reaches the target."""
    winner = [0 if final[0] > final[1] else 1]
    rec = start_at(start, deal(name), SCHEMES[scheme], {"winner": winner, "total": final})
    counters = WORKED[name][0]
    rec["deals"][1]["score"] = {"points": [final[s] - start[s] for s in (0, 1)], "total": final}
    assert [final[s] - start[s] - counters[s] for s in (0, 1)] == [
        sum(p for side, p, _ in pegged if side == s) for s in (0, 1)
    ]
    v = judge(rec, told=True)
    assert serious(v) == []
    assert v.totals == final
    assert pegs(v, 1) == pegged


def test_end_of_deal_everything_is_pegged_and_the_higher_total_wins() -> None:
    """The start of ``test_game_is_pegged_before_high`` under end_of_deal: 122-121, N+S win."""
    rules = {**SCHEMES["six_high_jack"], "peg_out": "end_of_deal"}
    v = judge(start_at([108, 96], deal("don_game_high_split.json"), rules, {"winner": [0], "total": [122, 121]}))
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [122, 121], (1, None))


def test_end_of_deal_counters_past_the_target_play_on() -> None:
    """From 115-0: N+S pass 121 in trick 2 (126), but play the deal out and win after the bonus, 134-19."""
    rules = {"peg_out": "end_of_deal"}
    v = judge(start_at([115, 0], deal("don_6_3.json"), rules, {"winner": [0], "total": [134, 19]}), told=True)
    assert serious(v) == []
    assert v.told[1].tricks[1].totals == (126, 0)
    assert (v.winner, v.totals, v.ended_at) == ([0], [134, 19], (1, None))
    d = deal("don_6_3.json")
    d["tricks"] = d["tricks"][:2]
    v = judge(start_at([115, 0], d, rules))
    assert serious(v) == [("PL306", "/deals/1/tricks"), ("PL405", "/deals")]


def test_end_of_deal_equal_totals_play_on() -> None:
    """The 6.3 deal scores 19-19: from 110-110 both pass 121 together, equal, and the game goes on."""
    rules = {"peg_out": "end_of_deal"}
    v = judge(start_at([110, 110], deal("don_6_3.json"), rules))
    assert serious(v) == [("PL405", "/deals")]
    assert (v.winner, v.totals) == (None, [129, 129])
    # The next deal, dealt by N, is don_game_high_split.json turned by one seat: N+S 27, E+W 12.
    rec = start_at([110, 110], deal("don_6_3.json"), rules, {"winner": [0], "total": [156, 141]})
    rec["deals"].append(rotate(deal("don_game_high_split.json"), 1))
    v = judge(rec)
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [156, 141], (2, None))


def test_target_91() -> None:
    """From 72-0 the 6.3 deal (19 for N+S with the 8) reaches 91 with the bonus; 121 is far off."""
    v = judge(start_at([72, 0], deal("don_6_3.json"), {"target": 91}, {"winner": [0], "total": [91, 19]}))
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [91, 19], (1, None))
    v = judge(start_at([72, 0], deal("don_6_3.json"), None, UNFINISHED))
    assert serious(v) == []
    assert (v.winner, v.totals) == (None, [91, 19])


# ------------------------------------------------------------------------------------ following suit


def trumped_spade() -> Json:
    """Tricks 1 and 2 of the 6.3 deal, but in trick 2 E plays the 9H to N's AS while holding 4S and 7S."""
    d = deal("don_6_3.json")
    d["tricks"] = [d["tricks"][0], {"leader": 0, "cards": ["AS", "9H", "5S", "6S"]}]
    return d


def test_a_trump_while_able_to_follow_is_a_revoke_under_must_follow() -> None:
    for rules in (None, {"follow": "must_follow"}):
        v = judge(record([trumped_spade()], rules=rules, result=UNFINISHED))
        assert found(v) == [("PL303", "/deals/0/tricks/1/cards/1"), ("PL307", "/deals/0")]
        assert "9H" in v.diagnostics[0].message and "4S" in v.diagnostics[0].message


def test_a_trump_while_able_to_follow_is_legal_under_follow_or_trump() -> None:
    v = judge(record([trumped_spade()], rules={"follow": "follow_or_trump"}, result=UNFINISHED), told=True)
    assert v.diagnostics == []
    assert v.told is not None
    second = v.told[0].tricks[1]
    assert second.seat == 1  # E's trump wins
    assert {str(c): p for c, p in second.counters} == {"9H": 9, "5S": 5}
    assert v.totals == [6, 14]


def test_a_discard_while_able_to_follow_is_a_revoke_under_both_rules() -> None:
    d = deal("don_6_3.json")
    d["tricks"] = [d["tricks"][0], {"leader": 0, "cards": ["AS", "AD", "5S", "6S"]}]
    for follow in ("must_follow", "follow_or_trump"):
        v = judge(record([d], rules={"follow": follow}, result=UNFINISHED))
        assert found(v) == [("PL303", "/deals/0/tricks/1/cards/1"), ("PL307", "/deals/0")], follow


@pytest.mark.parametrize("follow", ["must_follow", "follow_or_trump"])
def test_the_hand_worked_deals_are_legal_under_both_follow_rules(follow: str) -> None:
    for name in WORKED:
        rec = data(name)
        rec["rules"] = {"follow": follow}
        assert judge(rec).diagnostics == [], name


# ------------------------------------------------------------------------------------ the deal: undealt cards


def test_the_undealt_cards_may_be_listed_or_left_out() -> None:
    rec = data("don_6_3.json")
    assert judge(rec).diagnostics == []
    del rec["deals"][0]["undealt"]
    assert judge(rec).diagnostics == []


@pytest.mark.parametrize("hands", [True, False])
def test_a_card_dealt_and_listed_undealt(hands: bool) -> None:
    rec = data("don_6_3.json")
    d = rec["deals"][0]
    assert d["undealt"][0] == "2C"
    d["undealt"][0] = "AS"  # dealt to N, and played in trick 2
    if not hands:
        del d["hands"]
    v = judge(rec)
    assert found(v) == [("PL201", "/deals/0/undealt/0"), ("PL307", "/deals/0")]
    assert "AS" in v.diagnostics[0].message and "N" in v.diagnostics[0].message
    assert v.totals == [19, 19]  # the deal is taken as recorded


@pytest.mark.parametrize("hands", [True, False])
def test_a_card_listed_twice_as_undealt(hands: bool) -> None:
    rec = data("don_6_3.json")
    d = rec["deals"][0]
    d["undealt"][1] = d["undealt"][0]
    if not hands:
        del d["hands"]
    v = judge(rec)
    assert found(v) == [("PL201", "/deals/0/undealt/1"), ("PL307", "/deals/0")]


def test_a_card_dealt_twice() -> None:
    rec = data("don_6_3.json")
    hands = rec["deals"][0]["hands"]
    hands[1][0] = hands[0][0]
    v = judge(rec)
    # 36 cards of 52 are dealt, so a card in no hand is no error in itself (no PL204, unlike Phat).
    assert found(v) == [("PL201", "/deals/0/hands/1/0"), ("PL307", "/deals/0")]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["undealt"].pop(), "/deals/0/undealt"),
        (lambda d: d["undealt"].append("2C"), "/deals/0/undealt"),
        (lambda d: d["hands"][2].pop(), "/deals/0/hands/2"),
        (lambda d: d["hands"][2].append("2C"), "/deals/0/hands/2"),
        (lambda d: d["tricks"].append(copy.deepcopy(d["tricks"][0])), "/deals/0/tricks"),
    ],
    ids=["15-undealt", "17-undealt", "hand-of-8", "hand-of-10", "ten-tricks"],
)
def test_the_shape_of_a_nine_card_deal(change: Any, where: str) -> None:
    rec = data("don_6_3.json")
    change(rec["deals"][0])
    assert schema_errors(rec) == [("PL105", where)]


def test_irish_don_deals_have_no_undealt_cards() -> None:
    rec = data("don_irish_6_2.json")
    rec["deals"][0]["undealt"] = []
    assert schema_errors(rec) == [("PL102", "/deals/0/undealt")]


# ------------------------------------------------------------------------------------ hands inferred from the tricks


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_high_and_low_from_the_inferred_hands(scheme: str) -> None:
    for name in WORKED:
        d = without_hands(deal(name))
        del d["undealt"]
        v = judge(record([d], rules=SCHEMES[scheme], result=UNFINISHED), told=True)
        assert v.diagnostics == [], name
        assert pegs(v) == WORKED[name][2][scheme], name
        assert v.told is not None
        assert [[str(c) for c in h] for h in v.told[0].hands or []] == [
            [str(c) for c in sorted(map(Card.parse, h))] for h in deal(name)["hands"]
        ]


def test_a_partial_deal_without_hands() -> None:
    d = without_hands(deal("don_6_3.json"))
    d["tricks"] = d["tricks"][:4]
    v = judge(record([d], result=UNFINISHED))
    assert serious(v) == []
    assert ("PL203", "/deals/0") in found(v)
    assert v.totals == [11, 5]


def test_a_card_not_held() -> None:
    rec = data("don_6_3.json")
    rec["deals"][0]["tricks"][1]["cards"][1] = "2S"  # undealt
    v = judge(rec)
    assert found(v) == [("PL302", "/deals/0/tricks/1/cards/1"), ("PL307", "/deals/0")]
    assert "nobody was dealt" in v.diagnostics[0].message


def test_a_wrong_leader_and_a_wrong_dealer() -> None:
    rec = data("don_6_3.json")
    rec["deals"][0]["tricks"][4]["leader"] = 2  # E won trick 4
    assert found(judge(rec)) == [("PL301", "/deals/0/tricks/4/leader"), ("PL307", "/deals/0")]
    rec = record([sheet(0, [0, 0]), deal("don_6_3.json")], result=UNFINISHED)  # N, then W: E skipped
    assert serious(judge(rec)) == [("PL202", "/deals/1/dealer")]


# ------------------------------------------------------------------------------------ the cut

# The 6.3 deal: W deals, so N (seat 0) must be the first pitcher.


@pytest.mark.parametrize(
    "cut",
    [
        [["KS", "5H", None, None]],  # N and E cut; N's king is higher
        [["AC", None, None, "KD"]],  # ace high; any one player of each side
        [["7C", "7D", None, None], ["9S", None, None, "4H"]],  # equal ranks cut again
        [["7C", "7D", None, None], [None, "QS", "QD", None], ["AH", "KH", None, None]],  # tied twice
    ],
    ids=["N-high", "ace-high", "tie-then-N", "two-ties"],
)
def test_a_cut_that_gives_n_the_pitch(cut: list[list[str | None]]) -> None:
    assert judge(record([deal("don_6_3.json")], result=UNFINISHED, cut=cut)).diagnostics == []


@pytest.mark.parametrize(
    ("cut", "where"),
    [
        ([["2C", "AS", None, None]], "/deals/0/dealer"),  # E cuts highest: N deals first, not W
        ([["KC", "AS", None, None]], "/deals/0/dealer"),  # Phat's rule (lowest pitches) is not Don's
        ([["7S", "7C", None, None]], "/cut/0"),  # equal ranks (suits never break a tie), not cut again
        ([["AC", None, "KD", None]], "/cut/0"),  # N and S are partners: one of each side cuts
        ([["AC", "KD", "2H", None]], "/cut/0"),  # three cut
        ([["AC", "KD", "2H", "3S"]], "/cut/0"),  # all four cut (Phat's cut)
        ([["AC", None, None, None]], "/cut/0"),  # one cuts
        ([["AC", "AC", None, None]], "/cut/0"),  # the same card twice
        ([["7C", "7D", None, None], ["9S", None, "4H", None]], "/cut/1"),  # the re-cut by one side only
        ([["AC", "KD", None, None], ["9S", "4H", None, None]], "/cut/1"),  # decided, yet cut again
    ],
)
def test_a_bad_cut(cut: list[list[str | None]], where: str) -> None:
    v = judge(record([deal("don_6_3.json")], result=UNFINISHED, cut=cut))
    assert found(v) == [("PL501", where)]


def test_the_cut_fixes_only_the_first_dealer() -> None:
    deals = [deal("don_6_3.json"), rotate(deal("don_6_3.json"), 1)]
    v = judge(record(deals, result=UNFINISHED, cut=[["KS", "5H", None, None]]))
    assert v.diagnostics == []


def test_irish_don_records_have_no_cut() -> None:
    rec = data("don_irish_6_2.json")
    rec["cut"] = [["2C", "3C", "4C", "5C"]]
    assert schema_errors(rec) == [("PL102", "/cut")]


# ------------------------------------------------------------------------------------ Irish Don


def irish(rules: Json | None = None, result: Json | None = None, *deals: Json) -> Json:
    return record(list(deals), rules=rules, result=result, game="irish_don")


def test_irish_deal_is_what_it_says() -> None:
    """The 6.2 deal with N's 4D and E's 2D exchanged: legal, and Phat's counters give 46-34."""
    d = deal("don_irish_6_2.json")
    assert sorted(c for h in d["hands"] for c in h) == sorted(CARD_TEXT)
    assert "2D" in d["hands"][(d["dealer"] + 1) % 4]  # the pitcher holds the 2D
    trump = d["tricks"][0]["cards"][0][1]
    counters = [0, 0]
    for trick in d["tricks"]:
        counters[trick_winner(trick, trump) % 2] += sum(phat_value(c, trump) for c in trick["cards"])
    assert counters == [46, 34]


def test_irish_don_pegs_the_counters_and_nothing_else() -> None:
    """Phat scores the 6.2 deal 54-34 (with the muck's 8); Irish Don 46-34, exactly 80."""
    v = judge(data("don_irish_6_2.json"), told=True)
    assert v.diagnostics == []
    assert v.told is not None
    assert v.told[0].bonuses == []
    assert v.told[0].points == (46, 34)
    assert v.totals == [46, 34]
    phat = data("don_irish_6_2.json")
    phat["game"] = "phat"
    phat["deals"][0].pop("score")
    assert judge(phat).totals == [54, 34]


def test_the_holder_of_the_2d_pitches_the_first_deal() -> None:
    # The 6.2 deal as it stands: E holds the 2D, so N should have dealt, not W.
    original = json.loads((DATA / "worked_6_2.json").read_text(encoding="utf-8"))
    rec = irish(None, UNFINISHED, original["deals"][0])
    rec["deals"][0].pop("score")
    v = judge(rec)
    assert found(v) == [("PL202", "/deals/0/dealer")]
    assert "E holds the 2D" in v.diagnostics[0].message
    assert v.totals == [46, 34]  # the deal itself is legal and is scored
    rec["deals"][0] = without_hands(rec["deals"][0])  # inferred from the 13 tricks: the same
    assert found(judge(rec)) == [("PL202", "/deals/0/dealer")]
    # Only the first deal: later deals follow the rotation, whoever holds the 2D.
    rec = irish(None, UNFINISHED, deal("don_irish_6_2.json"), rotate(deal("don_irish_6_2.json"), 1))
    assert judge(rec).diagnostics == []


def test_the_first_pitcher_cannot_always_be_checked() -> None:
    # A score-sheet first deal: nobody knows who held the 2D.
    v = judge(irish(None, UNFINISHED, sheet_points(2, [40, 40], [40, 40])))
    assert serious(v) == []
    assert ("PL406", "/deals/0/dealer") in found(v)
    # The first trick only, without hands: the 2D was not seen.
    d = without_hands(deal("don_irish_6_2.json"))
    d["tricks"] = d["tricks"][:1]
    v = judge(irish(None, UNFINISHED, d))
    assert serious(v) == []
    assert ("PL406", "/deals/0/dealer") in found(v)
    # Eleven tricks without hands: N played the 2D in trick 11, so the check is made (and passes).
    d = without_hands(deal("don_irish_6_2.json"))
    d["tricks"] = d["tricks"][:11]
    v = judge(irish(None, UNFINISHED, d))
    assert ("PL406", "/deals/0/dealer") not in found(v)
    assert serious(v) == []


def test_irish_target_is_over_80() -> None:
    """80-80 after two deals is not a win; the third deal's first trick (22 for N+S) is."""
    first = deal("don_irish_6_2.json")
    second, third = rotate(first, 1), rotate(first, 2)
    v = judge(irish(None, UNFINISHED, first, second))
    assert serious(v) == []
    assert (v.winner, v.totals) == (None, [80, 80])
    third["tricks"] = third["tricks"][:1]
    v = judge(irish(None, {"winner": [0], "total": [102, 80]}, first, second, third))
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [102, 80], (2, 0))
    # "Reach 80" (CORK) as a target: E+W get there at trick 6 of the second deal (34 + 22 + 15 + 9).
    second["tricks"] = second["tricks"][:6]
    v = judge(irish({"target": 80}, {"winner": [1], "total": [46, 80]}, first, second))
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([1], [46, 80], (1, 5))


def test_irish_end_of_deal() -> None:
    """Under end_of_deal the third deal is played out: N+S 126, E+W 114."""
    deals = [deal("don_irish_6_2.json"), rotate(deal("don_irish_6_2.json"), 1), rotate(deal("don_irish_6_2.json"), 2)]
    v = judge(irish({"peg_out": "end_of_deal"}, {"winner": [0], "total": [126, 114]}, *deals))
    assert serious(v) == []
    assert (v.winner, v.totals, v.ended_at) == ([0], [126, 114], (2, None))


@pytest.mark.parametrize(
    ("points", "rules", "bad"),
    [
        ([40, 40], None, False),
        ([80, 0], None, False),
        ([46, 34], {"peg_out": "end_of_deal"}, False),
        ([50, 31], None, True),
        ([41, 40], None, True),
        ([40, 39], None, True),
        ([0, 0], None, True),
    ],
)
def test_irish_score_sheet_deals_share_out_80(points: list[int], rules: Json | None, bad: bool) -> None:
    rules = {"target": 200, **(rules or {})}  # far off: no deal here can end the game
    rec = irish(
        rules, UNFINISHED, deal("don_irish_6_2.json"), sheet_points(0, points, [46 + points[0], 34 + points[1]])
    )
    v = judge(rec)
    assert serious(v) == ([("PL401", "/deals/1/score/points")] if bad else [])
    assert v.totals == [46 + points[0], 34 + points[1]]


def test_irish_score_sheet_deal_that_ends_the_game() -> None:
    """Under immediate a deal that reaches 81 stops there and may share out less than 80; under
    end_of_deal it is played out, so it must share out exactly 80."""
    rows = [deal("don_irish_6_2.json"), sheet_points(0, [30, 0], [76, 34])]
    v = judge(irish(None, UNFINISHED, *rows))  # 76: nobody has reached 81, so 30 cannot be the whole deal
    assert serious(v) == [("PL401", "/deals/1/score/points")]
    rows = [deal("don_irish_6_2.json"), sheet_points(0, [40, 0], [86, 34])]
    v = judge(irish(None, {"winner": [0], "total": [86, 34]}, *rows))
    assert serious(v) == []
    v = judge(irish({"peg_out": "end_of_deal"}, {"winner": [0], "total": [86, 34]}, *rows))
    assert serious(v) == [("PL401", "/deals/1/score/points")]
    assert v.winner == [0]


@pytest.mark.parametrize(
    ("game", "start", "points", "bad"),
    [
        # Irish Don from 70-0: N+S reach 81 with 11 more, and the winning trick pegs at most 46, so the
        # deal gives N+S at most 81 - 1 - 70 + 46 = 56.
        ("irish_don", [70, 0], [56, 0], False),
        ("irish_don", [70, 0], [56, 24], False),
        ("irish_don", [70, 0], [57, 0], True),
        ("irish_don", [70, 0], [80, 0], True),
        ("irish_don", [75, 75], [10, 10], True),  # both sides reach 81: the game ended at the first
        # Nine-card Don from 110-0 to 121: one trick pegs at most 29 (10 + 9 + 5 + 5): at most 39.
        ("nine_card_don", [110, 0], [39, 13], False),
        ("nine_card_don", [110, 0], [40, 0], True),
        ("nine_card_don", [115, 115], [6, 6], True),
    ],
)
def test_the_score_sheet_deal_that_ends_the_game_cannot_overshoot(
    game: str, start: list[int], points: list[int], bad: bool
) -> None:
    total = [start[0] + points[0], start[1] + points[1]]
    rows = [sheet(0, start), sheet_points(1, points, total)]
    v = judge(record(rows, game=game, result={"total": total}))
    assert (("PL401", "/deals/1/score/points") in serious(v)) == bad
    # Under end_of_deal the target ends nothing in mid-deal: only the deal's own limits apply.
    v = judge(record(rows, rules={"peg_out": "end_of_deal"}, game=game, result={"total": total}))
    limit = sum(points) != 80 if game == "irish_don" else sum(points) > 52
    assert (("PL401", "/deals/1/score/points") in serious(v)) == limit


def test_irish_score_sheet_after_unknown_totals() -> None:
    """Deal 1 is given up (a wrong leader) and its points are not recorded: the totals are unknown from
    there on, so the next score-sheet deal may be the one that ended the game (short of 80), though never
    more than 80."""
    first = deal("don_irish_6_2.json")
    first["tricks"][1]["leader"] = 1
    for points, bad in (([30, 0], False), ([50, 31], True)):
        rec = irish(None, UNFINISHED, first, sheet_points(0, points, [50, 50]))
        assert (("PL401", "/deals/1/score/points") in serious(judge(rec))) == bad, points


def test_nine_card_don_score_sheet_deals() -> None:
    """A Nine-card Don deal pegs at most 52: 44 in counters and 8 in bonuses."""
    for points, bad in (([52, 0], False), ([30, 22], False), ([8, 1], False), ([40, 13], True), ([53, 0], True)):
        v = judge(record([sheet_points(0, points, points)], result=UNFINISHED))
        assert serious(v) == ([("PL401", "/deals/0/score/points")] if bad else []), points


# ------------------------------------------------------------------------------------ through the command line

runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout


@pytest.mark.parametrize("name", [*WORKED, "don_irish_6_2.json"])
def test_the_data_files_verify_clean(name: str) -> None:
    record = read_path(DATA / name).record
    assert record is not None
    assert referee(record).diagnostics == []
    code, out = cli("verify", "--format", "json", str(DATA / name))
    lines = [json.loads(line) for line in out.splitlines()]
    assert (code, [(r["kind"], r["status"]) for r in lines]) == (0, [("record", "clean")])
    assert cli("validate", "--quiet", str(DATA / name))[0] == 0


@pytest.mark.parametrize(
    ("game", "rules", "cut"),
    [
        ("nine_card_don", [], True),
        ("nine_card_don", ["bonus=six_high_jack", "target=91"], False),
        ("nine_card_don", ["bonus=five_high_low_jack", "low_to=capturer", "follow=follow_or_trump"], True),
        ("nine_card_don", ["bonus=five_high_low_jack", "peg_out=end_of_deal"], False),
        ("irish_don", [], False),
        ("irish_don", ["peg_out=end_of_deal", "target=120"], False),
    ],
)
def test_simulate_then_verify(tmp_path: Path, game: str, rules: list[str], cut: bool) -> None:
    out = tmp_path / "games.jsonl"
    args = ["simulate", "--game", game, "--seed", "5", "--count", "3", "-o", str(out)]
    args += [x for r in rules for x in ("-r", r)] + (["--cut"] if cut else [])
    assert cli(*args)[0] == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(games) == 3 and all(g["game"] == game for g in games)
    assert all(("cut" in g) == cut for g in games)
    code, text = cli("verify", "--format", "json", str(out))
    lines = [json.loads(line) for line in text.splitlines()]
    assert (code, [(r["kind"], r["status"], r["line"]) for r in lines]) == (
        0,
        [("record", "clean", n) for n in (1, 2, 3)],
    )


def test_verify_reports_a_don_fault_through_the_cli(tmp_path: Path) -> None:
    rec = data("don_6_3.json")
    rec["rules"] = {"low_to": "capturer"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out = cli("verify", "--format", "json", str(path))
    assert code == 0  # a warning alone does not fail verify (exit 1 is for errors)
    rows = [r for line in out.splitlines() if (r := json.loads(line))["kind"] == "diagnostic"]
    assert [(r["code"], r["pointer"], r["severity"]) for r in rows] == [("PL603", "/rules/low_to", "warning")]
    code, out = cli("verify", str(path))
    assert code == 0 and "PL603" in out
    rec["deals"][0]["score"]["points"][0] += 1  # a real fault beside it: exit 1
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out = cli("verify", str(path))
    assert code == 1 and "PL603" in out and "PL401" in out


def test_the_schema_describes_the_don_rules() -> None:
    code, out = cli("schema")
    assert code == 0
    defs = json.loads(out)["$defs"]
    don = defs["NineCardDonRules"]["properties"]
    assert don["bonus"]["enum"] == ["game_8", "six_high_jack", "five_high_low_jack"]
    assert don["follow"]["enum"] == ["must_follow", "follow_or_trump"]
    assert (don["target"]["default"], defs["IrishDonRules"]["properties"]["target"]["default"]) == (121, 81)


def test_simulate_plays_a_rule_that_does_not_apply() -> None:
    """low_to without a low bonus is a warning (PL603), not an error: simulate plays it as the engine
    referees it (ignored), and the record verifies with that warning alone (exit 0)."""
    game = next(iter(simulate("nine_card_don", 1, 1, rules={"bonus": "game_8", "low_to": "capturer"})))
    result = runner.invoke(app, ["verify", "--format", "json", "-"], input=json.dumps(game))
    assert result.exit_code == 0
    assert [r["code"] for line in result.stdout.splitlines() if (r := json.loads(line))["kind"] == "diagnostic"] == [
        "PL603"
    ]
    told = runner.invoke(app, ["simulate", "--game", "nine_card_don", "-r", "bonus=game_8", "-r", "low_to=capturer"])
    assert told.exit_code == 0
    assert "warning: low_to capturer does not apply" in told.stderr


# ------------------------------------------------------------------------------------ the rules pages

DOCS: Final = Path(__file__).resolve().parent.parent / "docs"
PAGES: Final[dict[str, type[BaseModel]]] = {"nine_card_don.md": NineCardDonRules, "irish_don.md": IrishDonRules}
_FENCE: Final = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def _page(name: str) -> str:
    return (DOCS / "rules" / name).read_text(encoding="utf-8")


def _choices(annotation: Any) -> list[str]:
    """The string values a ``Literal`` annotation (or a union holding one) allows."""
    if get_origin(annotation) is Literal:
        return [a for a in get_args(annotation) if isinstance(a, str)]
    return [v for arg in get_args(annotation) for v in _choices(arg)]


@pytest.mark.parametrize("name", list(PAGES))
def test_every_rules_parameter_its_values_and_default_are_documented(name: str) -> None:
    text = _FENCE.sub("", _page(name))
    rows: dict[str, str] = {}
    for m in re.finditer(r"^\| `(\w+)` \|.*$", text, re.M):
        rows.setdefault(m[1], m[0])  # the first row of each name: the table of parameters
    for key, field in PAGES[name].model_fields.items():
        assert key in rows, f"{name}: no row for `{key}`"
        default = "null" if field.default is None else field.default
        assert f"`{default}`" in rows[key], f"{name}: `{key}`: give its default"
        values = _choices(field.annotation)
        for value in values:
            assert f"`{value}`" in rows[key], f"{name}: `{key}`: list the value `{value}`"
        if not values:
            assert "integer" in rows[key], f"{name}: `{key}`: say what it takes"


@pytest.mark.parametrize("name", list(PAGES))
def test_the_complete_records_on_the_rules_pages_verify(name: str) -> None:
    records = [body for lang, body in _FENCE.findall(_page(name)) if lang == "json" and '"phatlog"' in body]
    assert records
    for body in records:
        v = judge(json.loads(body))
        assert v.diagnostics == []


def test_the_rules_pages_compare_the_three_games_alike() -> None:
    def table(name: str) -> str:
        text = _page(name)
        start = text.index("## Phat, Nine-card Don and Irish Don compared")
        return text[start : text.index("\n## ", start + 1)]

    assert table("nine_card_don.md") == table("irish_don.md")


@pytest.mark.parametrize("name", list(PAGES))
def test_the_links_on_the_rules_pages_resolve(name: str) -> None:
    text = _page(name)
    for target in re.findall(r"\]\(([^)#]+\.md)(?:#[^)]*)?\)", text):
        assert (DOCS / "rules" / target).resolve().is_file(), f"{name}: broken link {target}"
    anchors = {
        re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.*)$", text, re.M)
    }
    for anchor in re.findall(r"\]\(#([^)]+)\)", text):
        assert anchor in anchors, f"{name}: no heading for #{anchor}"
