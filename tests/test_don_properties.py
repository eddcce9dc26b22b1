"""Property tests of the Don family's referee on simulated games (rules reference A.3, A.4, B.3).

(i) Every simulated game of Nine-card Don, under every bonus scheme, ``low_to``, follow rule, target and
``peg_out``, and of Irish Don, with or without a cut and with or without its hands, verifies clean; the
referee's totals and winner are the record's result; and each played-out deal awards what the rules,
spelled out here a third time (apart from the engine and the simulator), say it awards.

(ii) One fault put into a clean game is reported with the right code at the right JSON Pointer: a
revoke (PL303), a wrong leader (PL301), a card not held (PL302), a card both dealt and listed undealt
(PL201), wrong deal points (PL401), a wrong running total (PL402), a wrong result (PL403, PL404) and a
trick after the game was won (PL305). A trump played while able to follow is a revoke only under
``follow: must_follow``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Final

from conftest import Heard, examples, listen
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from phatlog.diagnostics import Severity
from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes
from phatlog.referee.pitch import Findings

Json = dict[str, Any]
Found = list[tuple[str, str]]
Award = tuple[int | None, int, str]

PROFILE: Final = settings(deadline=None, max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
RANKS: Final = "23456789TJQKA"

#: (game, rules): every Nine-card Don parameter value appears, alone and in combination.
VARIANTS: Final[list[tuple[str, Json]]] = [
    ("nine_card_don", {}),
    ("nine_card_don", {"bonus": "six_high_jack"}),
    ("nine_card_don", {"bonus": "five_high_low_jack"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "holder"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}),
    ("nine_card_don", {"follow": "follow_or_trump"}),
    ("nine_card_don", {"peg_out": "end_of_deal"}),
    ("nine_card_don", {"target": 91}),
    ("nine_card_don", {"bonus": "six_high_jack", "peg_out": "end_of_deal", "follow": "follow_or_trump"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer", "target": 91, "peg_out": "end_of_deal"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "follow": "follow_or_trump", "target": 91}),
    ("irish_don", {}),
    ("irish_don", {"peg_out": "end_of_deal"}),
    ("irish_don", {"target": 161}),
]
DON: Final = [v for v, (game, _) in enumerate(VARIANTS) if game == "nine_card_don"]
IRISH: Final = [v for v, (game, _) in enumerate(VARIANTS) if game == "irish_don"]
MUST_FOLLOW: Final = [v for v in range(len(VARIANTS)) if VARIANTS[v][1].get("follow") != "follow_or_trump"]
OR_TRUMP: Final = [v for v in range(len(VARIANTS)) if VARIANTS[v][1].get("follow") == "follow_or_trump"]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
variants = st.sampled_from(range(len(VARIANTS)))


@cache
def _simulated(seed: int, variant: int, with_cut: bool) -> str:
    game, rules = VARIANTS[variant]
    return json.dumps(next(iter(simulate(game, seed, 1, rules=rules, with_cut=with_cut))))


def game(seed: int, variant: int, with_cut: bool = False, hands: bool = True) -> Json:
    """A simulated game (a fresh copy), optionally with every deal's hands (and undealt cards) left out."""
    rec: Json = json.loads(_simulated(seed, variant, with_cut))
    if not hands:
        for deal in rec["deals"]:
            deal.pop("hands", None)
            deal.pop("undealt", None)
    return rec


def judge(rec: Json, told: bool = False) -> Heard:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.diagnostics == [], loaded.diagnostics
    assert loaded.record is not None
    return listen(loaded.record, told)


def serious(v: Findings) -> Found:
    return [(d.code, d.pointer) for d in v.diagnostics if d.severity is not Severity.INFO]


# ------------------------------------------------------------------------------------ the rules, a third time


def rank(card: str) -> int:
    return RANKS.index(card[0])


def winner(trick: Json, trump: str) -> int:
    cards = trick["cards"]
    pool = [i for i, c in enumerate(cards) if c[1] == trump] or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return int((trick["leader"] + max(pool, key=lambda i: rank(cards[i]))) % 4)


def counter(card: str, trump: str, game_name: str) -> int:
    r, suit = card[0], card[1]
    if r == "5":
        return 10 if suit == trump else 5
    if r == "9":
        if game_name == "irish_don":
            return 18 if suit == trump else 9
        return 9 if suit == trump else 0
    return {"A": 4, "K": 3, "Q": 2, "J": 1}.get(r, 0) if suit == trump else 0


def game_points(cards: list[str]) -> int:
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}.get(c[0], 0) for c in cards)


def awards(deal: Json, rules: Json) -> list[Award]:
    """A played-out Nine-card Don deal's end-of-deal awards, in pegging order (A.3)."""
    tricks = deal["tricks"]
    trump = tricks[0]["cards"][0][1]
    taken: list[list[str]] = [[], []]
    for trick in tricks:
        taken[winner(trick, trump) % 2].extend(trick["cards"])
    count = [game_points(taken[0]), game_points(taken[1])]
    scheme = rules.get("bonus", "game_8")
    value = {"game_8": 8, "six_high_jack": 6, "five_high_low_jack": 5}[scheme]
    out: list[Award] = [(None, 0, "game") if count[0] == count[1] else (int(count[1] > count[0]), value, "game")]
    if scheme == "game_8":
        return out
    # The hands as dealt: every card of a played-out deal was played, by the seat the tricks say.
    dealt = [(card, (trick["leader"] + i) % 4) for trick in tricks for i, card in enumerate(trick["cards"])]
    trumps = sorted((rank(c), seat, c) for c, seat in dealt if c[1] == trump)
    out.append((trumps[-1][1] % 2, 1, "high"))
    if scheme == "five_high_low_jack":
        low = trumps[0]
        side = (0 if low[2] in taken[0] else 1) if rules.get("low_to") == "capturer" else low[1] % 2
        out.append((side, 1, "low"))
    jack = "J" + trump
    if jack in taken[0] or jack in taken[1]:
        out.append((0 if jack in taken[0] else 1, 1, "jack"))
    else:
        out.append((None, 0, "jack"))
    return out


# ------------------------------------------------------------------------------------ (i) clean games


@PROFILE
@given(seed=seeds, variant=variants, with_cut=st.booleans(), hands=st.booleans())
def test_simulated_games_verify_clean(seed: int, variant: int, with_cut: bool, hands: bool) -> None:
    name, rules = VARIANTS[variant]
    rec = game(seed, variant, with_cut, hands)
    assert ("cut" in rec) == (with_cut and name == "nine_card_don")
    v = judge(rec)
    assert serious(v) == []
    assert v.totals == rec["result"]["total"]
    assert v.winner == rec["result"]["winner"]
    traced = judge(rec, told=True)
    assert (traced.diagnostics, traced.totals, traced.winner, traced.ended_at) == (
        v.diagnostics,
        v.totals,
        v.winner,
        v.ended_at,
    )
    assert v.ended_at is not None and v.ended_at[0] == len(rec["deals"]) - 1
    assert v.totals is not None and v.winner is not None
    target = rules.get("target", 121 if name == "nine_card_don" else 81)
    immediate = rules.get("peg_out", "immediate") == "immediate"
    won, lost = v.totals[v.winner[0]], v.totals[1 - v.winner[0]]
    assert won >= target
    if not immediate:
        assert won > lost and v.ended_at[1] is None
    assert traced.told is not None
    size = 9 if name == "nine_card_don" else 13
    for dr, deal in zip(traced.told, rec["deals"], strict=True):
        assert dr.points == tuple(deal["score"]["points"])
        assert dr.totals == tuple(deal["score"]["total"])
        trump = deal["tricks"][0]["cards"][0][1]
        for tr, trick in zip(dr.tricks, deal["tricks"], strict=True):
            assert tr.seat == winner(trick, trump)
            assert tr.points == sum(counter(c, trump, name) for c in trick["cards"])
        if v.ended_at == (dr.index, len(deal["tricks"]) - 1):
            assert dr.bonuses == []  # the game ended at a trick (the last one, perhaps): no bonus
            continue
        assert len(deal["tricks"]) == size
        counters = sum(t.points for t in dr.tricks)
        if name == "irish_don":
            assert counters == 80 and dr.bonuses == []
            assert sum(dr.points) == 80
            continue
        assert counters <= 44
        expected = awards(deal, rules)
        scored = sum(p for side, p, _ in expected if side is not None)
        assert scored <= 8
        if rules.get("bonus", "game_8") != "game_8" and expected[0][0] is not None:
            assert scored == (8 if expected[-1][0] is not None else 7)  # "sometimes only 7"
        if v.ended_at == (dr.index, None) and immediate:
            # The game ends at the award that reaches the target: nothing after it is pegged (A.2).
            assert dr.tricks[-1].totals is not None
            running = list(dr.tricks[-1].totals)
            for k, (side, points, _) in enumerate(expected):
                if side is not None:
                    running[side] += points
                    if running[side] >= target:
                        expected = expected[: k + 1]
                        break
            scored = sum(p for side, p, _ in expected if side is not None)
        assert [(b.side, b.points, b.label) for b in dr.bonuses] == expected
        assert sum(dr.points) == counters + scored


@PROFILE
@given(seed=seeds, variant=st.sampled_from(IRISH))
def test_irish_first_pitcher_holds_the_2d(seed: int, variant: int) -> None:
    rec = game(seed, variant)
    first = rec["deals"][0]
    assert "2D" in first["hands"][(first["dealer"] + 1) % 4]
    assert rec["deals"][0]["tricks"][0]["leader"] == (first["dealer"] + 1) % 4


# ------------------------------------------------------------------------------------ (ii) one fault


def revoke_spots(rec: Json, trumps: bool | None) -> list[tuple[int, int, int, int, int]]:
    """(deal, t, i, u, j): the player at (t, i) followed suit with A and played B, of another suit, at (u, j)
    with u > t. Swapping A and B keeps the hands, and trick t, where the player keeps back A of the suit
    led, is the first that goes wrong. ``trumps``: only spots where B is a trump (True), is not (False)."""
    spots = []
    for d, deal in enumerate(rec["deals"]):
        tricks = deal["tricks"]
        trump = tricks[0]["cards"][0][1]
        for t, trick in enumerate(tricks):
            led = trick["cards"][0][1]
            for i in range(1, 4):
                if trick["cards"][i][1] != led:
                    continue
                seat = (trick["leader"] + i) % 4
                for u in range(t + 1, len(tricks)):
                    j = (seat - tricks[u]["leader"]) % 4
                    other = tricks[u]["cards"][j][1]
                    if other != led and (trumps is None or (other == trump) == trumps):
                        spots.append((d, t, i, u, j))
    return spots


def swap(rec: Json, spot: tuple[int, int, int, int, int]) -> tuple[str, str]:
    d, t, i, u, j = spot
    tricks = rec["deals"][d]["tricks"]
    a, b = tricks[t]["cards"][i], tricks[u]["cards"][j]
    tricks[t]["cards"][i], tricks[u]["cards"][j] = b, a
    return a, b


@PROFILE
@given(seed=seeds, variant=variants, hands=st.booleans(), data=st.data())
def test_a_revoke(seed: int, variant: int, hands: bool, data: st.DataObject) -> None:
    """Under follow_or_trump only a card that is neither the suit led nor a trump is a revoke."""
    rec = game(seed, variant, hands=hands)
    spots = revoke_spots(rec, False if variant in OR_TRUMP else None)
    assume(spots)
    spot = data.draw(st.sampled_from(spots))
    _, b = swap(rec, spot)
    d, t, i, _, _ = spot
    v = judge(rec)
    assert serious(v) == [("PL303", f"/deals/{d}/tricks/{t}/cards/{i}"), ("PL307", f"/deals/{d}")]
    assert b in v.diagnostics[0].message or b in v.diagnostics[1].message
    assert v.totals == rec["result"]["total"]
    assert v.winner == rec["result"]["winner"]


@PROFILE
@given(seed=seeds, variant=st.sampled_from([v for v in DON if v in MUST_FOLLOW]), data=st.data())
def test_a_trump_while_able_to_follow(seed: int, variant: int, data: st.DataObject) -> None:
    """The same swap with a trump, in a game played under must_follow: a revoke under must_follow, and legal
    at that trick under follow_or_trump (what it changes later is another matter: only trick t is looked
    at)."""
    rec = game(seed, variant)
    spots = revoke_spots(rec, True)
    assume(spots)
    spot = data.draw(st.sampled_from(spots))
    swap(rec, spot)
    d, t, i, _, _ = spot
    here = ("PL303", f"/deals/{d}/tricks/{t}/cards/{i}")
    for follow in ("must_follow", "follow_or_trump"):
        rec["rules"] = {**rec.get("rules", {}), "follow": follow}
        v = judge(rec)
        if follow == "must_follow":
            assert serious(v) == [here, ("PL307", f"/deals/{d}")]
        else:
            assert here not in serious(v)
            assert ("PL301", f"/deals/{d}/tricks/{t}/leader") not in serious(v)


@PROFILE
@given(seed=seeds, variant=variants, data=st.data())
def test_a_wrong_leader(seed: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, variant)
    d = data.draw(st.integers(min_value=0, max_value=len(rec["deals"]) - 1))
    tricks = rec["deals"][d]["tricks"]
    t = data.draw(st.integers(min_value=0, max_value=len(tricks) - 1))
    tricks[t]["leader"] = (tricks[t]["leader"] + data.draw(st.integers(min_value=1, max_value=3))) % 4
    v = judge(rec)
    assert serious(v) == [("PL301", f"/deals/{d}/tricks/{t}/leader"), ("PL307", f"/deals/{d}")]
    assert v.totals == rec["result"]["total"]
    assert v.winner == rec["result"]["winner"]


@PROFILE
@given(seed=seeds, variant=variants, data=st.data())
def test_a_card_not_held(seed: int, variant: int, data: st.DataObject) -> None:
    """A card of another player's hand, or (Nine-card Don) one of the undealt cards."""
    rec = game(seed, variant)
    d = data.draw(st.integers(min_value=0, max_value=len(rec["deals"]) - 1))
    deal = rec["deals"][d]
    t = data.draw(st.integers(min_value=0, max_value=len(deal["tricks"]) - 1))
    i = data.draw(st.integers(min_value=0, max_value=3))
    seat = (deal["tricks"][t]["leader"] + i) % 4
    others = sorted(c for s in range(4) if s != seat for c in deal["hands"][s]) + deal.get("undealt", [])
    card = data.draw(st.sampled_from(others))
    deal["tricks"][t]["cards"][i] = card
    v = judge(rec)
    assert serious(v) == [("PL302", f"/deals/{d}/tricks/{t}/cards/{i}"), ("PL307", f"/deals/{d}")]
    if card in deal.get("undealt", []):
        assert "nobody was dealt" in v.diagnostics[0].message
    assert v.totals == rec["result"]["total"]
    assert v.winner == rec["result"]["winner"]


@PROFILE
@given(seed=seeds, variant=st.sampled_from(DON), hands=st.booleans(), data=st.data())
def test_a_card_dealt_and_listed_undealt(seed: int, variant: int, hands: bool, data: st.DataObject) -> None:
    rec = game(seed, variant)
    d = data.draw(st.integers(min_value=0, max_value=len(rec["deals"]) - 1))
    deal = rec["deals"][d]
    played = sorted({c for trick in deal["tricks"] for c in trick["cards"]})
    k = data.draw(st.integers(min_value=0, max_value=15))
    deal["undealt"][k] = data.draw(st.sampled_from(played))
    if not hands:
        del deal["hands"]
    v = judge(rec)
    assert serious(v) == [("PL201", f"/deals/{d}/undealt/{k}"), ("PL307", f"/deals/{d}")]
    assert v.totals == rec["result"]["total"]
    assert v.winner == rec["result"]["winner"]


@PROFILE
@given(seed=seeds, variant=variants, data=st.data())
def test_wrong_deal_points(seed: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, variant)
    d = data.draw(st.integers(min_value=0, max_value=len(rec["deals"]) - 1))
    side = data.draw(st.integers(min_value=0, max_value=1))
    delta = data.draw(st.sampled_from([-9, -8, -7, -1, 1, 5, 6, 8, 18]))
    rec["deals"][d]["score"]["points"][side] += delta
    assert serious(judge(rec)) == [("PL401", f"/deals/{d}/score/points/{side}")]


@PROFILE
@given(seed=seeds, variant=variants, carried=st.booleans(), data=st.data())
def test_a_wrong_running_total(seed: int, variant: int, carried: bool, data: st.DataObject) -> None:
    rec = game(seed, variant)
    d = data.draw(st.integers(min_value=0, max_value=len(rec["deals"]) - 1))
    side = data.draw(st.integers(min_value=0, max_value=1))
    delta = data.draw(st.sampled_from([-10, -8, -1, 1, 7, 9]))
    for deal in rec["deals"][d : len(rec["deals"]) if carried else d + 1]:
        deal["score"]["total"][side] += delta
    v = judge(rec)
    assert serious(v) == [("PL402", f"/deals/{d}/score/total/{side}")]
    assert v.totals == rec["result"]["total"]


@PROFILE
@given(seed=seeds, variant=variants, side=st.integers(min_value=0, max_value=1), delta=st.sampled_from([-8, -1, 1, 7]))
def test_a_wrong_result(seed: int, variant: int, side: int, delta: int) -> None:
    rec = game(seed, variant)
    rec["result"]["winner"] = [1 - rec["result"]["winner"][0]]
    assert serious(judge(rec)) == [("PL403", "/result/winner")]
    rec = game(seed, variant)
    rec["result"]["total"][side] += delta
    assert serious(judge(rec)) == [("PL404", f"/result/total/{side}")]
    rec = game(seed, variant)
    rec["result"] = {"status": "unfinished"}
    assert serious(judge(rec)) == [("PL403", "/result/status")]


@PROFILE
@given(seed=seeds, variant=st.sampled_from([v for v in range(len(VARIANTS)) if "peg_out" not in VARIANTS[v][1]]))
def test_a_trick_after_the_game_was_won(seed: int, variant: int) -> None:
    rec = game(seed, variant)
    last = len(rec["deals"]) - 1
    deal = rec["deals"][last]
    tricks = deal["tricks"]
    assume(len(tricks) < len(deal["hands"][0]))  # the game was won in mid-deal
    trump = tricks[0]["cards"][0][1]
    leader = winner(tricks[-1], trump)
    played = {c for trick in tricks for c in trick["cards"]}
    left = [sorted(set(h) - played, key=rank) for h in deal["hands"]]
    tricks.append({"leader": leader, "cards": [left[(leader + k) % 4][0] for k in range(4)]})
    v = judge(rec)
    assert serious(v) == [("PL305", f"/deals/{last}/tricks/{len(tricks) - 1}")]
    assert v.totals == rec["result"]["total"]
    assert v.winner == rec["result"]["winner"]


@PROFILE
@given(seed=seeds, variant=st.sampled_from(DON), data=st.data())
def test_low_to_without_low(seed: int, variant: int, data: st.DataObject) -> None:
    """``low_to`` is a warning unless the bonus is five_high_low_jack; the games are still scored."""
    rec = game(seed, variant)
    rules = rec.setdefault("rules", {})
    assume(rules.get("bonus") != "five_high_low_jack")
    rules["low_to"] = data.draw(st.sampled_from(["holder", "capturer"]))
    v = judge(rec)
    assert serious(v) == [("PL603", "/rules/low_to")]
    assert v.totals == rec["result"]["total"]
