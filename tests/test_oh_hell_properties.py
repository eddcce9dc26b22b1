"""Property tests of the Oh Hell referee (rules reference A.5, B.4).

(i) Simulated games, 3 to 7 players, under every rules variant, verify clean; the referee's totals and
winners are the record's result, and the tricks it says each player took are the ones counted here from
the cards (B.1.5 spelled out on card texts).

(ii) One fault put into a clean game is reported once, with the right code, at the right JSON Pointer
(after an illegal play, the hand is given up with one PL307 warning).

(iii) OpenSpiel's ``oh_hell``, an implementation written apart from this project, is the special case
of A.5: one hand of a fixed size, the hook, every hand with a turned-up trump, and ``miss: tricks``
(``off_bid_penalty=false``) or ``minus_diff`` (``true``). Its games, converted to records, verify clean
with OpenSpiel's returns as the points; a card OpenSpiel would not allow is a revoke here, and the one
bid OpenSpiel refuses the dealer is the hook's forbidden bid.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from functools import cache
from typing import Any, Final

import pytest
from conftest import Heard, examples, listen
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from phatlog.diagnostics import Severity
from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes
from phatlog.referee.pitch import Findings
from phatlog.rules.oh_hell import forbidden_bid

Json = dict[str, Any]
Found = list[tuple[str, str]]

PROFILE: Final = settings(deadline=None, max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
HIGH_TO_LOW: Final = "AKQJT98765432"

VARIANTS: Final[list[Json]] = [
    {},
    {"schedule": "down"},
    {"schedule": "up_down"},
    {"schedule": "down_up"},
    {"schedule": [2, 5, 1, 7, 3]},
    {"max_cards": 4, "schedule": "up_down"},
    {"hook": True},
    {"bidding": "simultaneous"},
    {"must_trump": True},
    {"miss": "tricks"},
    {"miss": "minus_diff"},
    {"zero_bid": "five_plus_cards"},
    {"miss": "tricks", "zero_bid": "five_plus_cards"},
    {"no_trump": "never"},
    {"hook": True, "must_trump": True, "miss": "minus_diff", "schedule": "down_up", "no_trump": "never"},
]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=3, max_value=7)
variants = st.integers(min_value=0, max_value=len(VARIANTS) - 1)


@cache
def _simulated(seed: int, players: int, variant: int) -> str:
    return json.dumps(next(iter(simulate("oh_hell", seed, 1, players=players, rules=VARIANTS[variant]))))


def game(seed: int, players: int, variant: int = 0) -> Json:
    """A simulated game (a fresh copy)."""
    rec: Json = json.loads(_simulated(seed, players, variant))
    return rec


def judge(rec: Json, told: bool = False) -> Heard:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.diagnostics == [], loaded.diagnostics
    assert loaded.record is not None
    return listen(loaded.record, told)


def serious(v: Findings) -> Found:
    return [(d.code, d.pointer) for d in v.diagnostics if d.severity is not Severity.INFO]


def trick_winner(trick: Json, players: int, trump: str | None) -> int:
    """B.1.5 on card texts: the highest trump, or else the highest card of the suit led."""
    cards = trick["cards"]
    led = cards[0][1]
    pool = [i for i, c in enumerate(cards) if c[1] == trump] or [i for i, c in enumerate(cards) if c[1] == led]
    best = min(pool, key=lambda i: HIGH_TO_LOW.index(cards[i][0]))
    return int((trick["leader"] + best) % players)


def taken_by_cards(deal: Json, players: int) -> list[int]:
    trump = deal["turnup"][1] if deal.get("turnup") else None
    taken = [0] * players
    for trick in deal["tricks"]:
        taken[trick_winner(trick, players, trump)] += 1
    return taken


def rule_score(rules: Json, bid: int, took: int, size: int) -> int:
    """A.5's scoring, spelled out."""
    if bid == took:
        return 5 + size if bid == 0 and rules.get("zero_bid") == "five_plus_cards" else 10 + took
    return {"zero": 0, "tricks": took, "minus_diff": -abs(bid - took)}[rules.get("miss", "zero")]


def rescore(rec: Json) -> Json:
    """Every hand's points, running totals and the result worked out again here, from the bids and cards."""
    n = len(rec["players"])
    rules = rec.get("rules", {})
    totals = [0] * n
    for deal in rec["deals"]:
        taken = taken_by_cards(deal, n)
        size = len(deal["tricks"])
        points = [rule_score(rules, deal["bids"][s], taken[s], size) for s in range(n)]
        totals = [totals[s] + points[s] for s in range(n)]
        deal["score"] = {"points": points, "total": list(totals)}
    best = max(totals)
    rec["result"] = {"winner": [s for s in range(n) if totals[s] == best], "total": totals}
    return rec


# ------------------------------------------------------------------------------------ (i) clean games


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, hands=st.booleans())
def test_simulated_games_verify_clean(seed: int, players: int, variant: int, hands: bool) -> None:
    rec = game(seed, players, variant)
    assert rescore(copy.deepcopy(rec)) == rec  # the simulator's scores are A.5's, counted from the cards
    if not hands:
        for deal in rec["deals"]:
            del deal["hands"]
    v = judge(rec, told=True)
    assert v.diagnostics == []
    assert v.totals == rec["result"]["total"]
    assert v.winner == rec["result"]["winner"]
    assert v.told is not None
    for deal, hand in zip(rec["deals"], v.told, strict=True):
        assert hand.taken == taken_by_cards(deal, players)


@pytest.mark.parametrize("players", range(3, 8))
@pytest.mark.parametrize("variant", range(len(VARIANTS)), ids=[json.dumps(v) for v in VARIANTS])
def test_every_variant_and_player_count(players: int, variant: int) -> None:
    """Each combination at least once, whatever hypothesis draws."""
    rec = game(players * 100 + variant, players, variant)
    v = judge(rec)
    assert v.diagnostics == []
    assert (v.totals, v.winner) == (rec["result"]["total"], rec["result"]["winner"])


# ------------------------------------------------------------------------------------ (ii) single faults


def one_of(data: st.DataObject, items: list[Any], label: str) -> Any:
    assume(items)
    return data.draw(st.sampled_from(items), label=label)


def revoke_spots(rec: Json) -> list[tuple[int, int, int, int, int]]:
    """(deal, trick, position, later trick, later position): a player who followed suit in the trick,
    and later played a card of another suit that they could have played instead."""
    n = len(rec["players"])
    spots = []
    for d, deal in enumerate(rec["deals"]):
        tricks = deal["tricks"]
        plays = {(t, i): ((tr["leader"] + i) % n, c) for t, tr in enumerate(tricks) for i, c in enumerate(tr["cards"])}
        for (t, i), (seat, card) in plays.items():
            led = tricks[t]["cards"][0][1]
            if i == 0 or card[1] != led:
                continue
            for (t2, i2), (seat2, card2) in plays.items():
                if t2 > t and seat2 == seat and card2[1] != led:
                    spots.append((d, t, i, t2, i2))
    return spots


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, data=st.data())
def test_a_revoke(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, players, variant)
    d, t, i, t2, i2 = one_of(data, revoke_spots(rec), "spot")
    tricks = rec["deals"][d]["tricks"]
    tricks[t]["cards"][i], tricks[t2]["cards"][i2] = tricks[t2]["cards"][i2], tricks[t]["cards"][i]
    assert serious(judge(rec)) == [("PL303", f"/deals/{d}/tricks/{t}/cards/{i}"), ("PL307", f"/deals/{d}")]


MUST_TRUMP_VARIANTS: Final = [v for v, rules in enumerate(VARIANTS) if rules.get("must_trump")]


@PROFILE
@given(seed=seeds, players=player_counts, variant=st.sampled_from(MUST_TRUMP_VARIANTS), data=st.data())
def test_la_podrida_a_discard_instead_of_a_trump(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    """Under must_trump, a player who trumped because they could not follow plays a later non-trump instead."""
    rec = game(seed, players, variant)
    spots = []
    for d, deal in enumerate(rec["deals"]):
        if not deal.get("turnup"):
            continue
        trump, tricks = deal["turnup"][1], deal["tricks"]
        plays = {
            (t, i): ((tr["leader"] + i) % players, c) for t, tr in enumerate(tricks) for i, c in enumerate(tr["cards"])
        }
        for (t, i), (seat, card) in plays.items():
            if i and card[1] == trump != tricks[t]["cards"][0][1]:
                spots += [
                    (d, t, i, t2, i2)
                    for (t2, i2), (s2, c2) in plays.items()
                    if t2 > t and s2 == seat and c2[1] != trump
                ]
    d, t, i, t2, i2 = one_of(data, spots, "spot")
    tricks = rec["deals"][d]["tricks"]
    tricks[t]["cards"][i], tricks[t2]["cards"][i2] = tricks[t2]["cards"][i2], tricks[t]["cards"][i]
    v = judge(rec)
    assert serious(v) == [("PL303", f"/deals/{d}/tricks/{t}/cards/{i}"), ("PL307", f"/deals/{d}")]
    rec["rules"]["must_trump"] = False  # without La Podrida the discard is legal (later tricks may not be)
    assert all(not p.startswith(f"/deals/{d}/tricks/{t}/") for _, p in serious(judge(rec)))


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, data=st.data())
def test_a_wrong_leader(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, players, variant)
    d = data.draw(st.integers(0, len(rec["deals"]) - 1), label="deal")
    tricks = rec["deals"][d]["tricks"]
    t = data.draw(st.integers(0, len(tricks) - 1), label="trick")
    shift = data.draw(st.integers(1, players - 1), label="shift")
    tricks[t]["leader"] = (tricks[t]["leader"] + shift) % players
    assert serious(judge(rec)) == [("PL301", f"/deals/{d}/tricks/{t}/leader"), ("PL307", f"/deals/{d}")]


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, data=st.data())
def test_a_card_not_held(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, players, variant)
    d = data.draw(st.integers(0, len(rec["deals"]) - 1), label="deal")
    deal = rec["deals"][d]
    t = data.draw(st.integers(0, len(deal["tricks"]) - 1), label="trick")
    i = data.draw(st.integers(0, players - 1), label="position")
    seat = (deal["tricks"][t]["leader"] + i) % players
    dealt = {c for h in deal["hands"] for c in h}
    undealt = sorted({r + s for r in HIGH_TO_LOW for s in "CDHS"} - dealt - {deal.get("turnup")})
    others = sorted(c for s, h in enumerate(deal["hands"]) if s != seat for c in h)
    card = one_of(data, undealt + others, "card")
    deal["tricks"][t]["cards"][i] = card
    assert serious(judge(rec)) == [("PL302", f"/deals/{d}/tricks/{t}/cards/{i}"), ("PL307", f"/deals/{d}")]


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, data=st.data())
def test_wrong_points(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, players, variant)
    d = data.draw(st.integers(0, len(rec["deals"]) - 1), label="deal")
    s = data.draw(st.integers(0, players - 1), label="seat")
    delta = data.draw(st.sampled_from([-10, -1, 1, 5, 10]), label="delta")
    rec["deals"][d]["score"]["points"][s] += delta
    assert serious(judge(rec)) == [("PL401", f"/deals/{d}/score/points/{s}")]


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, data=st.data())
def test_a_wrong_running_total(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, players, variant)
    d = data.draw(st.integers(0, len(rec["deals"]) - 1), label="deal")
    s = data.draw(st.integers(0, players - 1), label="seat")
    rec["deals"][d]["score"]["total"][s] += data.draw(st.sampled_from([-10, -1, 1, 10]), label="delta")
    assert serious(judge(rec)) == [("PL402", f"/deals/{d}/score/total/{s}")]


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, data=st.data())
def test_a_wrong_result(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    rec = game(seed, players, variant)
    winners = rec["result"]["winner"]
    loser = one_of(data, [s for s in range(players) if s not in winners], "loser")
    wrong = copy.deepcopy(rec)
    wrong["result"]["winner"] = data.draw(st.sampled_from([[loser], [*winners, loser]]), label="winner")
    assert serious(judge(wrong)) == [("PL403", "/result/winner")]
    s = data.draw(st.integers(0, players - 1), label="seat")
    rec["result"]["total"][s] += data.draw(st.sampled_from([-1, 1, 10]), label="delta")
    assert serious(judge(rec)) == [("PL404", f"/result/total/{s}")]


HOOK_VARIANTS: Final = [v for v, rules in enumerate(VARIANTS) if rules.get("hook")]


@PROFILE
@given(seed=seeds, players=player_counts, variant=st.sampled_from(HOOK_VARIANTS), data=st.data())
def test_a_hook_violation(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    """The dealer's forbidden bid, with the score sheet worked out for it: one diagnostic, PL208."""
    rec = game(seed, players, variant)
    spots = []
    for d, deal in enumerate(rec["deals"]):
        size, dealer = len(deal["tricks"]), deal["dealer"]
        forbidden = size - (sum(deal["bids"]) - deal["bids"][dealer])
        if 0 <= forbidden <= size:
            spots.append((d, dealer, forbidden))
    d, dealer, forbidden = one_of(data, spots, "spot")
    rec["deals"][d]["bids"][dealer] = forbidden
    assert serious(judge(rescore(rec))) == [("PL208", f"/deals/{d}/bids/{dealer}")]


@PROFILE
@given(seed=seeds, players=player_counts, variant=variants, data=st.data())
def test_a_turnup_dealt_to_a_player(seed: int, players: int, variant: int, data: st.DataObject) -> None:
    """A card of the trump suit from a player's hand as the turn-up: the tricks go the same, so PL206 alone."""
    rec = game(seed, players, variant)
    spots = [
        (d, card)
        for d, deal in enumerate(rec["deals"])
        if deal.get("turnup")
        for hand in deal["hands"]
        for card in hand
        if card[1] == deal["turnup"][1]
    ]
    d, card = one_of(data, spots, "spot")
    rec["deals"][d]["turnup"] = card
    assert serious(judge(rec)) == [("PL206", f"/deals/{d}/turnup")]


# ------------------------------------------------------------------------------------ (iii) OpenSpiel

needs_openspiel = pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel (the dev extra open_spiel) is not installed"
)
SUITS_OPENSPIEL: Final = "CDSH"  # A.5: card = rank * 4 + suit, suits C, D, S, H
RANKS_LOW_TO_HIGH: Final = "23456789TJQKA"


def card_text(action: int) -> str:
    return RANKS_LOW_TO_HIGH[action // 4] + SUITS_OPENSPIEL[action % 4]


def openspiel_hand(players: int, size: int, penalty: bool, seed: int) -> tuple[Json, list[Json]]:
    """One OpenSpiel hand played at random, as a record, and what happened at each decision.

    Each decision is {player, legal (as card texts or bids), chosen}; chance picks the dealer and the
    cards. The record's points are OpenSpiel's returns.
    """
    import pyspiel

    spiel = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": size, "off_bid_penalty": penalty})
    state = spiel.new_initial_state()
    rng = random.Random(seed)
    chance: list[int] = []
    bids = [0] * players
    plays: list[tuple[int, str]] = []
    decisions: list[Json] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            chance.append(action)
        else:
            player = state.current_player()
            legal = state.legal_actions()
            action = rng.choice(legal)
            if action >= 52:
                bids[player] = action - 52
                decisions.append({"player": player, "legal": [a - 52 for a in legal], "bid": action - 52})
            else:
                decisions.append({"player": player, "legal": [card_text(a) for a in legal], "card": card_text(action)})
                plays.append((player, card_text(action)))
        state.apply_action(action)
    assert chance[0] == size
    dealer = chance[1]
    hands: list[list[str]] = [[] for _ in range(players)]
    for k, action in enumerate(chance[2 : 2 + players * size]):
        hands[k % players].append(card_text(action))  # OpenSpiel deals the first card to player 0
    turnup = card_text(chance[2 + players * size])
    tricks = [
        {"leader": plays[k][0], "cards": [c for _, c in plays[k : k + players]]} for k in range(0, len(plays), players)
    ]
    returns = [int(r) for r in state.returns()]
    assert returns == [float(r) for r in state.returns()]
    best = max(returns)
    rec: Json = {
        "phatlog": "1.0",
        "game": "oh_hell",
        "rules": {"schedule": [size], "no_trump": "never", "hook": True, "miss": "minus_diff" if penalty else "tricks"},
        "event": {"source": "OpenSpiel oh_hell"},
        "players": [{"name": f"P{s}"} for s in range(players)],
        "deals": [
            {
                "dealer": dealer,
                "hands": hands,
                "turnup": turnup,
                "bids": bids,
                "tricks": tricks,
                "score": {"points": returns, "total": returns},
            }
        ],
        "result": {"winner": [s for s in range(players) if returns[s] == best], "total": returns},
    }
    return rec, decisions


@st.composite
def openspiel_games(draw: st.DrawFn) -> tuple[int, int, bool, int]:
    players = draw(player_counts)
    size = draw(st.integers(1, 51 // players))  # OpenSpiel always leaves a card to turn up
    return players, size, draw(st.booleans()), draw(seeds)


@needs_openspiel
@PROFILE
@given(spec=openspiel_games())
def test_openspiel_hands_verify_clean(spec: tuple[int, int, bool, int]) -> None:
    rec, _ = openspiel_hand(*spec)
    v = judge(rec)
    assert v.diagnostics == [], [d.message for d in v.diagnostics]
    assert v.totals == rec["result"]["total"] and v.winner == rec["result"]["winner"]


@needs_openspiel
@PROFILE
@given(spec=openspiel_games())
def test_openspiel_refuses_the_dealer_the_hook_s_bid(spec: tuple[int, int, bool, int]) -> None:
    size = spec[1]
    rec, decisions = openspiel_hand(*spec)
    deal = rec["deals"][0]
    dealer = deal["dealer"]
    last = [x for x in decisions if "bid" in x][-1]
    assert last["player"] == dealer  # bidding starts at the dealer's left
    refused = sorted(set(range(size + 1)) - set(last["legal"]))
    ours = forbidden_bid(sum(deal["bids"]) - deal["bids"][dealer], size)
    assert refused == ([] if ours is None else [ours])
    if ours is not None:
        deal["bids"][dealer] = ours
        del deal["score"], rec["result"]
        assert serious(judge(rec)) == [("PL208", f"/deals/0/bids/{dealer}")]


@needs_openspiel
@PROFILE
@given(spec=openspiel_games(), data=st.data())
def test_a_card_openspiel_would_refuse_is_a_revoke(spec: tuple[int, int, bool, int], data: st.DataObject) -> None:
    """At a play where OpenSpiel allows fewer cards than the player holds, play a refused card instead
    (the one played goes to the later trick where the refused card was played)."""
    players = spec[0]
    rec, decisions = openspiel_hand(*spec)
    plays = [x for x in decisions if "card" in x]
    position = {k: (k // players, k % players) for k in range(len(plays))}
    spots = []
    for k, x in enumerate(plays):
        for k2 in range(k + 1, len(plays)):
            if plays[k2]["player"] == x["player"] and plays[k2]["card"] not in x["legal"]:
                spots.append((k, k2))
    k, k2 = one_of(data, spots, "spot")
    (t, i), (t2, i2) = position[k], position[k2]
    tricks = rec["deals"][0]["tricks"]
    tricks[t]["cards"][i], tricks[t2]["cards"][i2] = tricks[t2]["cards"][i2], tricks[t]["cards"][i]
    assert serious(judge(rec)) == [("PL303", f"/deals/0/tricks/{t}/cards/{i}"), ("PL307", "/deals/0")]
