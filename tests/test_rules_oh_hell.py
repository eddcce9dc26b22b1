"""Oh Hell's rules (``phatlog.rules.oh_hell``) against the rules reference and against OpenSpiel.

The worked example of rules.md §6.1 and the seed's own examples (A.6); exhaustive small checks of the
score of a hand (every bid x tricks taken x scoring variant x hand size), of the legal bids with and
without the hook, of the schedules (length and sum for 3 to 7 players) and of which hands have a trump;
and OpenSpiel's ``oh_hell`` (pyspiel), which is the same game for one hand with the hook, ``no_trump:
never`` and ``miss: tricks`` or ``minus_diff``: its legal bids, its bidding order and first lead, its
follow rule and its returns, on random hands.
"""

from __future__ import annotations

import itertools
import random
from typing import Final, get_args

import pytest

from phatlog.rules import oh_hell
from phatlog.rules.cards import Card, Suit
from phatlog.rules.oh_hell import (
    DEFAULT_MAX_CARDS,
    PACK,
    PLAYERS,
    Bidding,
    Miss,
    NoTrump,
    Schedule,
    ZeroBid,
    bidding_order,
    first_leader,
    fits_pack,
    follow_rule,
    forbidden_bid,
    hand_score,
    hand_sizes,
    has_trump,
    hook_applies,
    hook_without_last_bidder,
    leaves_turnup,
    legal_bids,
    made,
    no_trump_reason,
    score_table,
    trump_of,
    winners,
)
from phatlog.rules.trick import FollowRule, legal_plays, winning_position

MISSES: Final[tuple[Miss, ...]] = get_args(Miss)
ZERO_BIDS: Final[tuple[ZeroBid, ...]] = get_args(ZeroBid)
SCHEDULES: Final[tuple[Schedule, ...]] = get_args(Schedule)
NO_TRUMPS: Final[tuple[NoTrump, ...]] = get_args(NoTrump)
BIDDINGS: Final[tuple[Bidding, ...]] = get_args(Bidding)


# ---------------------------------------------------------------------------- the seed's examples (A.6)


@pytest.mark.parametrize(
    ("bid", "took", "size", "miss", "zero_bid", "points"),
    [
        (4, 4, 4, "zero", "standard", 14),  # Evelyn bids 4 and takes 4
        (0, 0, 1, "zero", "standard", 10),  # Frank bids 0 and takes 0
        (3, 4, 4, "zero", "standard", 0),  # George bids 3 and takes 4
        (3, 4, 4, "tricks", "standard", 4),  # ... and scores his 4 tricks under V-miss-1
        (0, 0, 7, "zero", "standard", 10),  # Helen bids 0, takes 0 in a 7-card hand
        (0, 0, 7, "zero", "five_plus_cards", 12),  # ... 5 + 7 under V-zero
    ],
)
def test_the_seeds_examples(bid: int, took: int, size: int, miss: Miss, zero_bid: ZeroBid, points: int) -> None:
    assert hand_score(bid, took, size, miss, zero_bid) == points


# ---------------------------------------------------------------------------- the worked example (§6.1)

# Ann (the dealer's left), Ben, Cal (the dealer); 3 cards each; the 7 of hearts turned up.
ANN, BEN, CAL = 0, 1, 2
HANDS: Final = {ANN: "AS KS 4H", BEN: "QS 9D 2H", CAL: "3S KD JC"}
BIDS: Final = {ANN: 1, BEN: 1, CAL: 0}


def _cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def test_the_worked_example_bidding_order_and_first_lead() -> None:
    assert bidding_order(CAL, 3) == [ANN, BEN, CAL]
    assert first_leader(CAL, 3) == ANN
    assert trump_of(Card.parse("7H")) is Suit.HEARTS
    assert trump_of(None) is None
    assert has_trump(3, 3, last=False)  # hand 3 of 15: 9 cards dealt, a card left to turn up


def test_the_worked_example_bids_with_and_without_the_hook() -> None:
    # Ann 1, Ben 1: under the hook Cal may not bid 1 (1 + 1 + 1 = 3); 0, 2 and 3 are allowed.
    assert legal_bids(3, BIDS[ANN] + BIDS[BEN], dealer=True, hook=True) == [0, 2, 3]
    assert BIDS[CAL] in legal_bids(3, BIDS[ANN] + BIDS[BEN], dealer=True, hook=True)
    assert legal_bids(3, BIDS[ANN] + BIDS[BEN], dealer=True, hook=False) == [0, 1, 2, 3]
    # Had Ann bid 2 and Ben 1, the hook would forbid Cal 0.
    assert forbidden_bid(2 + 1, 3) == 0
    assert legal_bids(3, 2 + 1, dealer=True, hook=True) == [1, 2, 3]
    # Ann and Ben bid before the dealer: the hook never binds them.
    assert legal_bids(3, 0, dealer=False, hook=True) == [0, 1, 2, 3]
    assert legal_bids(3, BIDS[ANN], dealer=False, hook=True) == [0, 1, 2, 3]


def test_the_hooks_example_from_b4_o15() -> None:
    """WP-OH-OLD: 5 cards, bids 2, 0, 1, so the dealer may not bid 2; after 3, 1, 2 the dealer may bid anything."""
    assert forbidden_bid(2 + 0 + 1, 5) == 2
    assert 2 not in legal_bids(5, 2 + 0 + 1, dealer=True, hook=True)
    assert forbidden_bid(3 + 1 + 2, 5) is None
    assert legal_bids(5, 3 + 1 + 2, dealer=True, hook=True) == [0, 1, 2, 3, 4, 5]


def test_the_worked_example_play() -> None:
    trump = trump_of(Card.parse("7H"))
    hands = {seat: _cards(text) for seat, text in HANDS.items()}
    taken = dict.fromkeys(HANDS, 0)
    leader = first_leader(CAL, 3)
    tricks = [("AS", "QS", "3S"), ("KS", "2H", "JC"), ("9D", "KD", "4H")]
    # Trick 2: Ben, void in spades, may play 9D or 2H; under La Podrida only the trump.
    assert set(legal_plays(hands[BEN][1:], Suit.SPADES, trump, follow_rule(False))) == set(_cards("9D 2H"))
    assert legal_plays(hands[BEN][1:], Suit.SPADES, trump, follow_rule(True)) == _cards("2H")
    for trick in tricks:
        cards = _cards(" ".join(trick))
        for position, card in enumerate(cards):
            seat = (leader + position) % 3
            assert card in legal_plays(hands[seat], cards[0].suit if position else None, trump, follow_rule(False))
            hands[seat].remove(card)
        leader = (leader + winning_position(cards, trump)) % 3
        taken[leader] += 1
    assert taken == {ANN: 2, BEN: 1, CAL: 0}


@pytest.mark.parametrize(
    ("miss", "zero_bid", "points"),
    [
        ("zero", "standard", [0, 11, 10]),  # the seed's base: 10 + tricks, a miss 0 (O22)
        ("tricks", "standard", [2, 11, 10]),  # V-miss-1: 1 a trick on a miss (O24)
        ("zero", "five_plus_cards", [0, 11, 8]),  # V-zero: a made zero scores 5 + the hand size (O24)
        ("tricks", "five_plus_cards", [2, 11, 8]),  # V-miss-1 and V-zero together
        ("minus_diff", "standard", [-1, 11, 10]),  # minus the difference (Ann one over)
    ],
)
def test_the_worked_example_scores(miss: Miss, zero_bid: ZeroBid, points: list[int]) -> None:
    took = {ANN: 2, BEN: 1, CAL: 0}
    assert [hand_score(BIDS[s], took[s], 3, miss, zero_bid) for s in (ANN, BEN, CAL)] == points


# ---------------------------------------------------------------------------- the score, exhaustively


def _a5_score(bid: int, took: int, size: int, miss: str, zero_bid: str) -> int:
    """Rules reference A.5, as written there."""
    if bid == took:
        return 5 + size if bid == 0 and zero_bid == "five_plus_cards" else 10 + took
    return {"zero": 0, "tricks": took, "minus_diff": -abs(bid - took)}[miss]


def test_the_score_of_every_bid_and_tricks_taken_under_every_variant() -> None:
    for size in range(1, 18):
        for miss, zero_bid in itertools.product(MISSES, ZERO_BIDS):
            table = score_table(size, miss, zero_bid)
            assert len(table) == size + 1 and all(len(row) == size + 1 for row in table)
            for bid, took in itertools.product(range(size + 1), repeat=2):
                points = hand_score(bid, took, size, miss, zero_bid)
                assert points == _a5_score(bid, took, size, miss, zero_bid)
                assert table[bid][took] == points
                assert made(bid, took) == (bid == took)
                if made(bid, took):
                    assert points >= 6  # a made bid always scores
                else:
                    assert points <= took  # a miss never scores more than its tricks


def test_the_scoring_defaults_are_the_seeds() -> None:
    assert hand_score(2, 2, 5) == 12
    assert hand_score(2, 3, 5) == 0
    assert hand_score(0, 0, 9) == 10
    assert score_table(5) == score_table(5, "zero", "standard")


# ---------------------------------------------------------------------------- bidding, exhaustively


def test_the_legal_bids_with_and_without_the_hook() -> None:
    for size in range(1, 18):
        for before, dealer, hook in itertools.product(range(7 * size + 1), (False, True), (False, True)):
            bids = legal_bids(size, before, dealer=dealer, hook=hook)
            assert bids  # there is always a bid left
            everything = list(range(size + 1))
            if hook and dealer and 0 <= size - before <= size:
                assert bids == [b for b in everything if before + b != size]
                assert forbidden_bid(before, size) == size - before
            else:
                assert bids == everything


def test_the_hook_needs_a_last_bidder() -> None:
    for hook, bidding in itertools.product((False, True), BIDDINGS):
        assert hook_applies(hook, bidding) == (hook and bidding == "sequential")
        assert hook_without_last_bidder(hook, bidding) == (hook and bidding == "simultaneous")


def test_the_bidding_order_is_from_the_dealers_left_to_the_dealer() -> None:
    for players in PLAYERS:
        for dealer in range(players):
            order = bidding_order(dealer, players)
            assert sorted(order) == list(range(players))
            assert order[-1] == dealer and order[0] == first_leader(dealer, players) == (dealer + 1) % players
            assert all(b == (a + 1) % players for a, b in itertools.pairwise(order))


# ---------------------------------------------------------------------------- the schedules


def test_seats_and_the_largest_hands() -> None:
    assert list(PLAYERS) == [3, 4, 5, 6, 7]
    assert DEFAULT_MAX_CARDS == {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
    assert PACK == 52
    # B.4 O6: cards left after the largest deal 7, 0, 2, 4, 3.
    assert [PACK - n * DEFAULT_MAX_CARDS[n] for n in PLAYERS] == [7, 0, 2, 4, 3]


@pytest.mark.parametrize("players", list(PLAYERS))
def test_every_named_schedule_has_its_length_and_sum(players: int) -> None:
    top = DEFAULT_MAX_CARDS[players]
    expected = {
        "up": (top, top * (top + 1) // 2),
        "down": (top, top * (top + 1) // 2),
        "up_down": (2 * top - 1, top * top),  # the turning hand once
        "down_up": (2 * top - 1, top * (top + 1) - 1),
    }
    for schedule in SCHEDULES:
        sizes = hand_sizes(players, schedule)
        assert (len(sizes), sum(sizes)) == expected[schedule]
        assert max(sizes) == top and min(sizes) == 1
        assert all(fits_pack(players, s) for s in sizes)
    assert hand_sizes(players) == list(range(1, top + 1))  # ``up`` is the default
    assert hand_sizes(players, "down") == hand_sizes(players, "up")[::-1]
    for cap in range(1, 52 // players + 1):
        for schedule in SCHEDULES:
            capped = hand_sizes(players, schedule, cap)
            assert max(capped) == cap and len(capped) == (cap if schedule in ("up", "down") else 2 * cap - 1)


def test_the_sources_schedules() -> None:
    # E4U: four players 1..13 then 12..1, 25 hands; pagat: seven players 7..1..7, 13 hands.
    assert hand_sizes(4, "up_down") == [*range(1, 14), *range(12, 0, -1)]
    assert hand_sizes(7, "down_up") == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]


def test_an_explicit_schedule_is_played_as_listed() -> None:
    listed = (3, 1, 4, 1, 5)
    for players in PLAYERS:
        assert hand_sizes(players, listed) == [3, 1, 4, 1, 5]
        assert hand_sizes(players, listed, max_cards=2) == [3, 1, 4, 1, 5]  # max_cards caps a named one only


def test_a_named_schedule_needs_3_to_7_players_or_max_cards() -> None:
    with pytest.raises(KeyError):
        hand_sizes(8)
    assert hand_sizes(8, "up", 2) == [1, 2]


def test_the_pack_limits() -> None:
    for players, size in itertools.product(PLAYERS, range(1, 18)):
        assert fits_pack(players, size) == (players * size <= 52)
        assert leaves_turnup(players, size) == (players * size <= 51)


# ---------------------------------------------------------------------------- trump


def test_which_hands_have_a_trump_in_every_schedule() -> None:
    for players, schedule, no_trump in itertools.product(PLAYERS, SCHEDULES, NO_TRUMPS):
        sizes = hand_sizes(players, schedule)
        for i, size in enumerate(sizes):
            last = i == len(sizes) - 1
            trumped = has_trump(players, size, last, no_trump)
            reason = no_trump_reason(players, size, last, no_trump)
            assert trumped == (reason is None)
            if players * size == 52:  # four players, thirteen cards: nothing left to turn up
                assert not trumped and reason == "no card is left to turn up"
            elif last and no_trump == "last_hand":
                assert not trumped and reason == "the game's last hand is played without trump"
            else:
                assert trumped


def test_the_seeds_last_hand_is_played_without_trump() -> None:
    assert not has_trump(3, 15, last=True)  # 7 cards left, and still no trump (B.4 O9)
    assert has_trump(3, 15, last=True, no_trump="never")
    assert not has_trump(4, 13, last=False, no_trump="never")  # no card left (O10 (a))
    assert no_trump_reason(4, 13, last=True) == "no card is left to turn up"  # the first reason first


def test_the_follow_rule() -> None:
    assert follow_rule(False) is FollowRule.MUST_FOLLOW
    assert follow_rule(True) is FollowRule.MUST_TRUMP


def test_winners_share_equal_totals() -> None:
    assert winners([10, 30, 20]) == [1]
    assert winners([30, 10, 30, 5]) == [0, 2]
    assert winners([0, 0, 0]) == [0, 1, 2]
    assert winners([-3, -1, -2, -1, -1]) == [1, 3, 4]


def test_the_module_imports_only_the_rules() -> None:
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(oh_hell))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    ours = {m for m in imported if m is not None and m.startswith("phatlog")}
    assert all(m.startswith("phatlog.rules.") for m in ours), ours
    assert "pydantic" not in imported


# ---------------------------------------------------------------------------- OpenSpiel's oh_hell


def _card(action: int) -> Card:
    """OpenSpiel's card ``rank * 4 + suit``, ranks 2 .. A, suits C, D, S, H."""
    return Card.parse("23456789TJQKA"[action // 4] + "CDSH"[action % 4])


def _play_openspiel(rng: random.Random, players: int, k: int, off_bid_penalty: bool) -> int:
    """Play one random OpenSpiel hand, holding every rule on the way to ours; the checks made."""
    pyspiel = pytest.importorskip("pyspiel")
    params = {"players": players, "num_tricks_fixed": k, "off_bid_penalty": off_bid_penalty}
    state = pyspiel.load_game("oh_hell", params).new_initial_state()
    checks = 0
    state.apply_action(k)  # the number of tricks
    dealer = rng.choice(state.legal_actions())
    state.apply_action(dealer)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for j in range(players * k):
        action = rng.choice(state.legal_actions())
        hands[j % players].append(_card(action))
        state.apply_action(action)
    assert leaves_turnup(players, k) and has_trump(players, k, last=True, no_trump="never")
    turnup = rng.choice(state.legal_actions())
    state.apply_action(turnup)
    trump = trump_of(_card(turnup))
    bids = [0] * players
    before = 0
    for seat in bidding_order(dealer, players):
        assert state.current_player() == seat
        dealer_bids = seat == dealer
        ours = legal_bids(k, before, dealer=dealer_bids, hook=hook_applies(True, "sequential"))
        assert sorted(a - 52 for a in state.legal_actions()) == ours
        checks += 1
        bids[seat] = rng.choice(ours)
        before += bids[seat]
        state.apply_action(52 + bids[seat])
    leader = first_leader(dealer, players)
    taken = [0] * players
    for _ in range(k):
        cards: list[Card] = []
        for position in range(players):
            seat = (leader + position) % players
            assert state.current_player() == seat
            led = cards[0].suit if cards else None
            ours_cards = legal_plays(hands[seat], led, trump, follow_rule(False))
            theirs = sorted(_card(a) for a in state.legal_actions())
            assert theirs == sorted(ours_cards)
            checks += 1
            card = rng.choice(ours_cards)
            hands[seat].remove(card)
            cards.append(card)
            state.apply_action(next(a for a in state.legal_actions() if _card(a) == card))
        leader = (leader + winning_position(cards, trump)) % players
        taken[leader] += 1
    assert state.is_terminal()
    miss: Miss = "minus_diff" if off_bid_penalty else "tricks"
    assert [int(r) for r in state.returns()] == [hand_score(bids[s], taken[s], k, miss) for s in range(players)]
    return checks + 1


def test_openspiel_plays_the_same_hand_bids_follow_and_scores() -> None:
    """Random OpenSpiel hands for every player count, hand size with a card left to turn up, and both
    scorings: its legal bids (the hook) are ``legal_bids``, its bidder and leader ours, its legal cards
    ``legal_plays`` under ``follow_rule(False)``, and its returns ``hand_score``."""
    pytest.importorskip("pyspiel")
    rng = random.Random(25)
    checks = 0
    for players in PLAYERS:
        for k in range(1, (PACK - 1) // players + 1):
            for off_bid_penalty in (False, True):
                for _ in range(2):
                    checks += _play_openspiel(rng, players, k, off_bid_penalty)
    assert checks > 5000


def test_openspiel_forbids_the_dealer_the_bid_that_adds_up() -> None:
    """Every sum of the others' bids, for the dealer: OpenSpiel's legal bids are ours under the hook."""
    pyspiel = pytest.importorskip("pyspiel")
    for players, k in ((3, 3), (4, 2), (5, 4), (7, 1)):
        game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": k})
        for others in itertools.product(range(k + 1), repeat=players - 1):
            state = game.new_initial_state()
            state.apply_action(k)
            state.apply_action(0)  # seat 0 deals: seats 1 .. n-1 bid first
            while state.is_chance_node():
                state.apply_action(state.legal_actions()[0])
            for bid in others:
                state.apply_action(52 + bid)
            assert state.current_player() == 0
            ours = legal_bids(k, sum(others), dealer=True, hook=True)
            assert sorted(a - 52 for a in state.legal_actions()) == ours
