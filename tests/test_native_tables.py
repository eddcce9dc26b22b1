"""The rules tables the C trick kernel reads (``phatlog/_native/tables.py``) against the rules functions.

Exhaustively: every card, trump (no trump included), suit led and follow rule for the trick's strength and
``may_play`` (over every set of suits the rest of a hand can hold: all that ``may_play`` reads); every
game variant's counters, card points, target, peg-out and first pitcher; the end-of-deal awards of every
variant on every count a deal can give and every combination of what the awards read, against each game's
``bonuses``; Oh Hell's score for every bid, tricks taken and variant, the hook's forbidden bid and the
schedule with its trumps for every player count and schedule. Then the C mechanics on the same tables:
whether a card may be played, and which card wins, for every case, against the rules functions (the
differential tests over whole records are tests/test_trick_kernel.py's).
"""

from __future__ import annotations

import os
from itertools import product
from types import SimpleNamespace
from typing import Any, Final

import pytest
from pydantic import BaseModel

from phatlog._native import tables
from phatlog.record.model import IrishDonRules, NineCardDonRules, OhHellRules, PhatRules
from phatlog.referee.games import ALL_FOURS as PITCH_GAMES
from phatlog.referee.pitch import AllFoursReferee, Tally
from phatlog.rules.all_fours import GAME_POINTS, DealCards
from phatlog.rules.cards import CARD_TEXT, DECK, Card, Rank, Suit
from phatlog.rules.irish_don import FIRST_PITCH_CARD
from phatlog.rules.oh_hell import DEFAULT_MAX_CARDS, forbidden_bid, hand_score, hand_sizes, has_trump
from phatlog.rules.trick import STRENGTH, FollowRule, may_play, winning_position

PURE: Final = os.environ.get("PHATLOG_PURE_PYTHON", "") not in ("", "0")
TRUMPS: Final[list[Suit | None]] = [*Suit, None]

#: Every rules variant of the All Fours family that changes a table.
PITCH_VARIANTS: Final[list[tuple[str, dict[str, Any]]]] = [
    *[
        ("phat", {"muck_tie": tie, "peg_out": p})
        for tie in ("none", "carry", "both")
        for p in ("immediate", "end_of_deal")
    ],
    ("phat", {"target": 121}),
    *[
        ("nine_card_don", {"bonus": b, "low_to": low, "follow": f, "peg_out": p})
        for b in ("game_8", "six_high_jack", "five_high_low_jack")
        for low in (None, "holder", "capturer")
        for f in ("must_follow", "follow_or_trump")
        for p in ("immediate", "end_of_deal")
    ],
    ("nine_card_don", {"target": 91}),
    ("irish_don", {}),
    ("irish_don", {"peg_out": "end_of_deal", "target": 161}),
]
#: The variants whose awards differ (follow, peg-out and target change no award).
AWARD_VARIANTS: Final = [
    (g, r) for g, r in PITCH_VARIANTS if r.get("follow", "must_follow") == "must_follow" and "target" not in r
]
MODELS: Final[dict[str, type[BaseModel]]] = {
    "phat": PhatRules,
    "nine_card_don": NineCardDonRules,
    "irish_don": IrishDonRules,
}


def referee_of(game: str, rules: dict[str, Any]) -> AllFoursReferee:
    model: Any = MODELS[game].model_validate(rules)
    made: AllFoursReferee = PITCH_GAMES[game](model)
    return made


def ids(variants: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [f"{g}-{'-'.join(str(v) for v in r.values())}" for g, r in variants]


# ------------------------------------------------------------------------------------ the trick


@pytest.mark.parametrize("follow", list(FollowRule))
def test_strength_is_the_rules_strength(follow: FollowRule) -> None:
    """Every trump (no trump included), suit led and card: the table's strength is ``STRENGTH``'s."""
    table = tables.trick_table(follow)
    for t, trump in enumerate(TRUMPS):
        for led in range(4):
            for card in range(52):
                assert tables.table_strength(table, trump, led, card) == STRENGTH[t][led][card]


def _hand(card: Card, held: tuple[bool, ...]) -> set[Card]:
    """A hand holding ``card`` and, besides it, one card of each suit ``held`` says (none of the card)."""
    hand = {card}
    for suit, holds in enumerate(held):
        if holds:
            hand.add(next(c for c in DECK if c // 13 == suit and c != card))
    return hand


@pytest.mark.parametrize("follow", list(FollowRule))
def test_allow_is_may_play_in_every_case(follow: FollowRule) -> None:
    """Every trump, suit led and card, and every set of suits the rest of the hand holds (all that
    ``may_play`` reads of a hand): the table allows the card exactly where ``may_play`` does."""
    table = tables.trick_table(follow)
    checked = 0
    for trump, led, card, held in product(TRUMPS, Suit, DECK, product((False, True), repeat=4)):
        hand = _hand(card, held)
        want = may_play(card, hand, led, trump, follow)
        assert tables.table_may_play(table, card, hand, led, trump) == want, (trump, led, card, held)
        checked += 1
    assert checked == 5 * 4 * 52 * 16
    assert all(tables.table_may_play(table, c, {c}, None, t) for c in DECK for t in TRUMPS)  # any card leads


def test_every_kind_of_table_starts_with_the_trick() -> None:
    """The per-hand Oh Hell play reads any table's trick part: the same words for the same follow rule."""
    start = tables.trick_table(FollowRule.MUST_TRUMP)[: 4 * tables.GAME]
    oh = tables.oh_hell_table(OhHellRules(must_trump=True), 4, [1, 2])
    assert oh is not None and oh[12 : 4 * tables.GAME] == start[12:]
    don = referee_of("nine_card_don", {"follow": "follow_or_trump"})._kernel_table
    assert don[12 : 4 * tables.GAME] == tables.trick_table(FollowRule.FOLLOW_OR_TRUMP)[12 : 4 * tables.GAME]


# ------------------------------------------------------------------------------------ the All Fours family


@pytest.mark.parametrize(("game", "rules"), PITCH_VARIANTS, ids=ids(PITCH_VARIANTS))
def test_the_game_words_are_the_rules(game: str, rules: dict[str, Any]) -> None:
    """Seats, hand size, target, peg-out, the undealt list, the first pitcher, the sides, the jack of
    trumps, the counters by trump and card and the card points: the rules' values."""
    ref = referee_of(game, rules)
    w = tables.words_of(ref._kernel_table)
    g = tables.GAME
    assert (w[0], w[1], w[2]) == (tables.MAGIC, tables.ALL_FOURS, len(w))
    assert w[g + tables.SEATS] == 4 and w[g + tables.HAND_SIZE] == ref.hand_size
    assert w[g + tables.TARGET] == ref.rules.target
    assert w[g + tables.PEG_OUT] == (tables.IMMEDIATE if ref.rules.peg_out == "immediate" else tables.END_OF_DEAL)
    assert w[g + tables.UNDEALT] == (game == "nine_card_don")
    assert w[g + tables.FIRST_PITCH] == (int(FIRST_PITCH_CARD) if game == "irish_don" else -1)
    assert list(w[g + tables.SIDE : g + tables.SIDE + 4]) == [0, 1, 0, 1]
    assert list(w[g + tables.JACK : g + tables.JACK + 4]) == [13 * t + Rank.JACK for t in range(4)]
    for trump in Suit:
        row = w[g + tables.COUNTERS + 52 * trump : g + tables.COUNTERS + 52 * trump + 52]
        assert list(row) == list(ref.counters(trump))
    assert list(w[g + tables.CARD_POINTS : g + tables.CARD_POINTS + 52]) == [
        GAME_POINTS[CARD_TEXT[c]] for c in range(52)
    ]
    assert tables.pitch_table(ref) is ref._kernel_table  # made once for equal rules


def _want(bonuses: list[Any]) -> list[tuple[int, int]]:
    """What ``bonuses`` pegs: (side, points) of each award that scores, in order."""
    return [(b.side, b.points) for b in bonuses if b.side is not None and b.points > 0]


def _outcomes(ref: AllFoursReferee, cards: tables.Cards, deal_cards: DealCards, carry: int, pitcher: int) -> None:
    """The table's awards against the game's ``bonuses`` on one outcome (and the carry after)."""
    state = Tally(totals=[0, 0], carry=carry, pitcher=pitcher)
    want = _want(ref.bonuses(deal_cards, 0, state))
    got, carried = tables.peg_table_awards(ref._kernel_table, cards, pitcher & 1, carry)
    assert (got, carried) == (want, state.carry), (cards, carry, pitcher)


@pytest.mark.parametrize(("game", "rules"), AWARD_VARIANTS, ids=ids(AWARD_VARIANTS))
def test_the_awards_are_the_games_bonuses_on_every_outcome(game: str, rules: dict[str, Any]) -> None:
    """Every count a deal can give (Phat: the 80 card points shared out any way; Don: any two counts of
    36 cards, 80 in all at most), with every carry and pitcher, and every combination of the seats dealt
    high and low and the sides that took low and the jack (the jack taken by nobody too): the table's
    awards peg what ``bonuses`` pegs, in its order."""
    ref = referee_of(game, rules)
    low, high = Card(0), Card(12)  # (the cards themselves are only words in the reasons)
    counts = (
        [(g, 80 - g) for g in range(81)]
        if game != "nine_card_don"
        else [(a, b) for a in range(81) for b in range(81 - a)]
    )
    carries, pitchers = ((0, 8, 16), range(4)) if game == "phat" else ((0,), (1,))  # (what only Phat reads)
    for (g0, g1), carry, pitcher in product(counts, carries, pitchers):
        cards = tables.Cards((g0, g1), 0, 1, 1, 0)
        _outcomes(ref, cards, DealCards((g0, g1), (high, 0), (low, 1), 1, 0), carry, pitcher)
    shares = [(41, 39), (39, 41), (40, 40)] if game != "nine_card_don" else [(1, 0), (0, 1), (5, 5)]  # reachable
    for game_count, high_seat, low_seat, low_side, jack in product(shares, range(4), range(4), (0, 1), (0, 1, None)):
        cards = tables.Cards(game_count, high_seat & 1, low_seat & 1, low_side, -1 if jack is None else jack)
        dealt = DealCards(game_count, (high, high_seat), (low, low_seat), low_side, jack)
        _outcomes(ref, cards, dealt, 0, 1)


def test_an_award_no_table_says_is_left_to_python() -> None:
    """A rules value the compiler does not know: no awards (-1), and the record path declines."""
    ref = referee_of("phat", {})
    rules = PhatRules()
    ref.rules = SimpleNamespace(**{**rules.model_dump(), "muck_tie": "halve"})
    assert tables.pitch_awards(ref) is None
    w = tables.words_of(tables._make_pitch_table(ref))
    assert w[tables.GAME + tables.AWARDS] == -1 and len(w) == tables.GAME + tables.AWARD_LIST


# ------------------------------------------------------------------------------------ Oh Hell

SCHEDULES: Final[list[dict[str, Any]]] = [
    {"schedule": s, "no_trump": nt} for s in ("up", "down", "up_down", "down_up") for nt in ("last_hand", "never")
] + [{"schedule": "up_down", "max_cards": 5}, {"schedule": [3, 1, 17, 7], "no_trump": "last_hand"}]


@pytest.mark.parametrize("players", range(3, 8))
@pytest.mark.parametrize("schedule", SCHEDULES, ids=range(len(SCHEDULES)))
def test_the_oh_hell_schedule_and_trumps_are_the_rules(players: int, schedule: dict[str, Any]) -> None:
    """For every player count and schedule: the table's hands are ``hand_sizes``, each with ``has_trump``."""
    rules = OhHellRules.model_validate(schedule)
    sizes = hand_sizes(players, rules.schedule, rules.max_cards)
    table = tables.oh_hell_table(rules, players, sizes)
    if any(players * s > 52 or s > 17 for s in sizes):
        assert table is None  # a schedule the pack cannot deal: the Python referee reports it
        return
    assert table is not None
    w = tables.words_of(table)
    g = tables.GAME
    assert (w[1], w[g + tables.OH_SEATS], w[g + tables.OH_HANDS]) == (tables.OH_HELL, players, len(sizes))
    for i, size in enumerate(sizes):
        at = g + tables.OH_HAND + 4 * i
        assert w[at] == size
        assert w[at + 1] == has_trump(players, size, i == len(sizes) - 1, rules.no_trump)


@pytest.mark.parametrize("miss", ["zero", "tricks", "minus_diff"])
@pytest.mark.parametrize("zero_bid", ["standard", "five_plus_cards"])
@pytest.mark.parametrize(("hook", "bidding"), [(False, "sequential"), (True, "sequential"), (True, "simultaneous")])
def test_the_oh_hell_scores_and_hook_are_the_rules(miss: str, zero_bid: str, hook: bool, bidding: str) -> None:
    """For every bid and tricks taken of every hand size 1 to 17 (3 players reach 17): the score table is
    ``hand_score``; and the hook table (only with sequential bidding) gives ``forbidden_bid`` for every sum
    of the other bids."""
    rules = OhHellRules(miss=miss, zero_bid=zero_bid, hook=hook, bidding=bidding)  # type: ignore[arg-type]
    for players in (3, 7):
        sizes = [s for s in range(1, 18) if players * s <= 52]
        table = tables.oh_hell_table(rules, players, sizes)
        assert table is not None
        w = tables.words_of(table)
        for i, size in enumerate(sizes):
            at = tables.GAME + tables.OH_HAND + 4 * i
            score, forbid = w[at + 2], w[at + 3]
            for bid, took in product(range(size + 1), repeat=2):
                assert w[score + bid * (size + 1) + took] == hand_score(bid, took, size, rules.miss, rules.zero_bid)
            if not (hook and bidding == "sequential"):
                assert forbid == -1
                continue
            for others in range((players - 1) * size + 1):
                want = forbidden_bid(others, size)
                assert w[forbid + others] == (-1 if want is None else want)


def test_oh_hell_follows_must_trump() -> None:
    for must_trump, follow in ((False, FollowRule.MUST_FOLLOW), (True, FollowRule.MUST_TRUMP)):
        rules = OhHellRules(must_trump=must_trump)
        table = tables.oh_hell_table(rules, 4, hand_sizes(4, rules.schedule, rules.max_cards))
        assert table is not None
        assert table[12 : 4 * tables.GAME] == tables.trick_table(follow)[12 : 4 * tables.GAME]
    assert tables.oh_hell_table(OhHellRules(), 2, [1]) is None and tables.oh_hell_table(OhHellRules(), 8, [1]) is None
    assert set(DEFAULT_MAX_CARDS) == set(range(3, 8))


# ------------------------------------------------------------------------------------ the C mechanics

needs_c = pytest.mark.skipif(PURE, reason="the C kernel is off (PHATLOG_PURE_PYTHON=1)")


def _kernel() -> Any:
    from phatlog._native import kernel_module

    kernel = kernel_module("_trick")
    if kernel is None:
        pytest.skip("the C kernel is not built")
    return kernel


def _trick(leader: int, cards: list[Card], winner: int | None = None) -> SimpleNamespace:
    return SimpleNamespace(leader=leader, cards=[CARD_TEXT[c] for c in cards], winner=winner)


@needs_c
@pytest.mark.parametrize("follow", list(FollowRule))
def test_the_kernel_allows_what_may_play_allows(follow: FollowRule) -> None:
    """A two-seat trick of three-card hands, for every trump, suit led, card played to it and what else the
    player holds of the suit led and of trumps: the kernel finds a revoke (or a must-trump fault) exactly
    where ``may_play`` forbids the card, and otherwise plays on (to the hand cut short)."""
    kernel = _kernel()
    table = tables.trick_table(follow)
    faults = kernel.FAULTS
    for trump, led, card, holds_led, holds_trump in product(TRUMPS, Suit, DECK, (False, True), (False, True)):
        if card // 13 == led or (trump is None and holds_trump) or (trump == led and holds_led != holds_trump):
            continue  # (following suit needs no asking; no such hand)
        lead = next(c for c in DECK if c // 13 == led and c != card)
        leader_hand = [lead, *[c for c in DECK if c // 13 == led and c not in (lead, card)][:2]]
        rest = [c for c in DECK if c not in leader_hand and c != card]
        extra = []
        if holds_led:
            extra.append(next(c for c in rest if c // 13 == led))
        if holds_trump and trump is not None and trump != led:
            extra.append(next(c for c in rest if c // 13 == trump and c not in extra))
        fill = [c for c in rest if c // 13 != led and c // 13 != trump and c // 13 != card // 13 and c not in extra]
        hand = [card, *extra, *fill][:3]
        hands = [[CARD_TEXT[c] for c in leader_hand], [CARD_TEXT[c] for c in hand]]
        t = -1 if trump is None else int(trump)
        done = kernel.oh_hell(hands, [_trick(0, [lead, card])], None, 0, 2, 3, t, table)
        if may_play(card, set(hand), led, trump, follow):
            assert done == (faults.index("unusual"), 1, -1), (trump, led, card, hand)  # played: the hand cut short
        else:
            kind = "revoke" if any(c // 13 == led for c in hand) else "trump"
            assert done == (faults.index(kind), 0, 1), (trump, led, card, hand)


@needs_c
def test_the_kernel_wins_the_trick_the_rules_win() -> None:
    """Every trump (no trump too) and every lead and card played to it (the second player void in the
    suit led, or following): the kernel's winner, read from the table's strength, is ``winning_position``'s
    (a recorded winner it disagrees with is a fault)."""
    kernel = _kernel()
    table = tables.trick_table(FollowRule.MUST_FOLLOW)
    winner_fault = kernel.FAULTS.index("winner")
    for trump, lead, second in product(TRUMPS, DECK, DECK):
        if lead == second:
            continue
        suits = {lead // 13, second // 13}
        fill = [c for c in DECK if c // 13 not in suits]
        if lead // 13 == second // 13:
            fill = [c for c in DECK if c // 13 == lead // 13 and c not in (lead, second)]
        hands = [[CARD_TEXT[c] for c in (lead, fill[0], fill[1])], [CARD_TEXT[c] for c in (second, fill[2], fill[3])]]
        want = winning_position([lead, second], trump)
        t = -1 if trump is None else int(trump)
        right = kernel.oh_hell(hands, [_trick(0, [lead, second], want)], None, 0, 2, 3, t, table)
        wrong = kernel.oh_hell(hands, [_trick(0, [lead, second], 1 - want)], None, 0, 2, 3, t, table)
        assert right[0] != winner_fault and wrong == (winner_fault, 0, -1), (trump, lead, second)
