"""The pure rules (``phatlog.rules``) against the rules reference's worked examples (part B.6) and small
exhaustive checks: the table, the counters and card points of every trump, the muck and its ties, Don's
bonus schemes, the peg-out."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from phatlog.rules import all_fours, irish_don, nine_card_don, phat, table, trick
from phatlog.rules.all_fours import (
    GAME_POINTS,
    DealCards,
    card_points,
    deal_cards,
    end_of_deal_winner,
    passed_deal_winner,
    peg,
    peg_bonuses,
)
from phatlog.rules.cards import CARD_TEXT, DECK, Card, Rank, Suit
from phatlog.rules.irish_don import IrishDonGame
from phatlog.rules.nine_card_don import NineCardDonGame, don_awards, don_counters
from phatlog.rules.phat import PhatGame, muck, phat_counters
from phatlog.rules.table import (
    SEATS,
    dealer_for,
    first_leader,
    in_turn,
    left_of,
    next_dealer,
    pitcher,
    right_of,
    side_of,
    trump_of_pitch,
)
from phatlog.rules.trick import winning_position


@pytest.mark.parametrize("module", [table, trick, all_fours, phat, nine_card_don, irish_don])
def test_the_examples_in_the_rules_modules_hold(module: ModuleType) -> None:
    assert doctest.testmod(module, raise_on_error=True).failed == 0


# ---------------------------------------------------------------------------- the table


@pytest.mark.parametrize("seats", range(3, 8))
def test_everything_passes_to_the_left(seats: int) -> None:
    for seat in range(seats):
        assert left_of(seat, seats) == (seat + 1) % seats
        assert right_of(left_of(seat, seats), seats) == seat
        assert next_dealer(seat, seats) == left_of(seat, seats)
        assert first_leader(seat, seats) == left_of(seat, seats)
        assert dealer_for(first_leader(seat, seats), seats) == seat
        assert [in_turn(seat, k, seats) for k in range(seats)] == [(seat + k) % seats for k in range(seats)]
        assert trick.seat_of(seat, 2, seats) == in_turn(seat, 2, seats)


def test_partners_sit_opposite_and_the_pitcher_is_the_dealers_left() -> None:
    assert [side_of(s) for s in range(SEATS)] == [0, 1, 0, 1]
    assert all(side_of(s) == side_of((s + 2) % SEATS) != side_of(left_of(s, SEATS)) for s in range(SEATS))
    assert [pitcher(d) for d in range(SEATS)] == [1, 2, 3, 0]


def test_the_suit_of_the_first_lead_is_trump() -> None:
    assert all(trump_of_pitch(card) == Suit(card // 13) for card in DECK)


# ---------------------------------------------------------------------------- counters and card points


@pytest.mark.parametrize("trump", list(Suit))
def test_the_counters_of_a_pack_come_to_80_in_phat_and_44_in_don(trump: Suit) -> None:
    assert sum(phat_counters(trump)) == phat.PHAT_TOTAL == 80
    assert sum(don_counters(trump)) == nine_card_don.COUNTERS_TOTAL == 44
    assert IrishDonGame(81).counters(trump) == phat_counters(trump)
    nine, five = Card.of(Rank.NINE, trump), Card.of(Rank.FIVE, trump)
    assert (phat_counters(trump)[nine], phat_counters(trump)[five]) == (18, 10)
    assert (don_counters(trump)[nine], don_counters(trump)[five]) == (9, 10)
    assert phat.counter_name(nine, trump) == "Big Phat" and irish_don.counter_name(five, trump) == "Small Don"
    # the most one trick's counters can give: the four best counters
    assert sum(sorted(phat_counters(trump))[-4:]) == phat.MOST_IN_A_TRICK
    assert sum(sorted(don_counters(trump))[-4:]) == nine_card_don.MOST_IN_A_TRICK


def test_card_points_come_to_20_a_suit_and_80_a_pack() -> None:
    assert sum(GAME_POINTS.values()) == phat.MUCK_TOTAL == 80
    for suit in Suit:
        assert card_points(CARD_TEXT[c] for c in DECK if c // 13 == suit) == 20
    assert {GAME_POINTS[r + "H"] for r in "AKQJT"} == {4, 3, 2, 1, 10}


# ---------------------------------------------------------------------------- B.6.2: a Phat deal

# N E S W = seats 0 1 2 3; W deals, N pitches A♦: diamonds are trump.
TRICKS_6_2 = [
    (0, "AD 2D 9D 3D"),
    (0, "AC TC 8C 3C"),
    (0, "AH QH TH 6H"),
    (0, "KC QC JC 4C"),
    (0, "KD 5D 8D QD"),
    (0, "JS 9S 8S 2S"),
    (0, "7H JH 9H 2H"),
    (1, "AS 7S KH 4S"),
    (1, "KS 5S 7C 6S"),
    (1, "QS 6D 6C 3S"),
    (2, "TD 5H 4D JD"),
    (1, "TS 5C 3H 4H"),
    (1, "7D 9C 8H 2C"),
]


def play_6_2(start: tuple[int, int] = (0, 0), target: int = 181) -> tuple[list[int], list[int], int | None]:
    """The deal of B.6.2 by the rules: the phat pegged at once, then the muck. Returns the totals, the
    tricks played (leader order checked) and the trick (from 1) at which the game ended, if it did."""
    game = PhatGame(target)
    dealer = 3
    leader = first_leader(dealer, SEATS)
    trump = trump_of_pitch(Card.parse(TRICKS_6_2[0][1].split()[0]))
    assert trump == Suit.DIAMONDS
    counters = game.counters(trump)
    totals = list(start)
    taken: tuple[list[str], list[str]] = ([], [])
    for t, (recorded_leader, text) in enumerate(TRICKS_6_2):
        assert leader == recorded_leader
        cards = [Card.parse(c) for c in text.split()]
        leader = trick.seat_of(leader, winning_position(cards, trump), SEATS)
        side = side_of(leader)
        taken[side].extend(text.split())
        if peg(totals, side, sum(counters[c] for c in cards), target, game.immediate):
            return totals, [len(taken[0]), len(taken[1])], t + 1
    awards = game.awards(deal_cards(taken, None, trump), trump, pitcher(dealer), 0)
    assert awards.counts == (48, 32)
    for _, _, ends in peg_bonuses(awards.bonuses, totals, target, game.immediate):
        if ends:
            return totals, [len(taken[0]), len(taken[1])], None
    return totals, [len(taken[0]), len(taken[1])], None


def test_the_phat_deal_of_the_worked_example_scores_54_34() -> None:
    totals, _, ended = play_6_2()
    assert totals == [54, 34] and ended is None


def test_worked_example_a_the_game_ends_at_trick_6() -> None:
    totals, _, ended = play_6_2((140, 170))
    assert ended == 6 and totals == [186, 170]


def test_worked_example_b_the_muck_takes_ns_to_181() -> None:
    totals, _, ended = play_6_2((127, 140))
    assert totals == [181, 174] and ended is None
    assert end_of_deal_winner(totals, 181) == 0


def test_worked_example_c_a_tied_muck_by_each_muck_tie() -> None:
    none = muck(40, pitcher=0, carry=0, tie="none")
    assert [(b.side, b.points) for b in none.bonuses] == [(None, 0)] and none.carry == 0
    carried = muck(40, pitcher=0, carry=0, tie="carry")
    assert carried.carry == 8
    won = muck(41, pitcher=0, carry=carried.carry, tie="carry")  # the next deal's muck winner gets 16
    assert [(b.side, b.points) for b in won.bonuses] == [(0, 16)] and won.carry == 0
    assert muck(40, pitcher=0, carry=8, tie="carry").carry == 16  # ties accumulate


@pytest.mark.parametrize("pitching", range(SEATS))
def test_a_tied_muck_under_both_pegs_the_pitchers_side_first(pitching: int) -> None:
    both = muck(40, pitcher=pitching, carry=0, tie="both")
    assert [(b.side, b.points) for b in both.bonuses] == [(side_of(pitching), 8), (1 - side_of(pitching), 8)]
    totals = [175, 175]
    pegged = list(peg_bonuses(both.bonuses, totals, 181, immediate=True))
    assert len(pegged) == 1 and pegged[0][2] and totals[side_of(pitching)] == 183


@pytest.mark.parametrize("taken", range(0, 81))
def test_the_muck_goes_to_the_side_with_more_than_40(taken: int) -> None:
    for tie in ("none", "carry", "both"):
        got = muck(taken, pitcher=1, carry=0, tie=tie)
        assert got.counts == (taken, 80 - taken)
        if taken != 40:
            assert [(b.side, b.points) for b in got.bonuses] == [(0 if taken > 40 else 1, 8)]


def test_a_passed_deal_keeps_the_carry_in_step() -> None:
    game = PhatGame(181, muck_tie="carry")
    assert game.carry_after_passed(80, 0, reaches=False) == 8  # a tied muck: carried
    assert game.carry_after_passed(96, 8, reaches=False) == 0  # the muck's 8 and the 8 carried
    assert game.carry_after_passed(80, 8, reaches=True) == 8  # the game ended at a peg: nothing moves
    assert PhatGame(181).carry_after_passed(80, 0, reaches=False) == 0
    assert IrishDonGame(81).carry_after_passed(80, 0, reaches=False) == 0


# ---------------------------------------------------------------------------- B.6.3: Don's bonuses

# X = side 0 was dealt ♥A and ♥3 (seats 0 and 2); Y = side 1 captured the ♥3; the ♥J was not dealt.
CARDS_6_3 = DealCards((30, 25), (Card.parse("AH"), 0), (Card.parse("3H"), 2), 1, None)


@pytest.mark.parametrize(
    ("scheme", "capturer", "want"),
    [
        ("game_8", False, [("game", 0, 8)]),
        ("six_high_jack", False, [("game", 0, 6), ("high", 0, 1), ("jack", None, 0)]),
        ("five_high_low_jack", False, [("game", 0, 5), ("high", 0, 1), ("low", 0, 1), ("jack", None, 0)]),
        ("five_high_low_jack", True, [("game", 0, 5), ("high", 0, 1), ("low", 1, 1), ("jack", None, 0)]),
    ],
)
def test_the_don_bonus_schemes_of_the_worked_example(
    scheme: nine_card_don.DonBonus, capturer: bool, want: list[tuple[str, int | None, int]]
) -> None:
    got = don_awards(CARDS_6_3, Suit.HEARTS, scheme, capturer)
    assert [(b.label, b.side, b.points) for b in got] == want
    game = NineCardDonGame(121, bonus=scheme, low_to="capturer" if capturer else None)
    assert game.awards(CARDS_6_3, Suit.HEARTS, 1, 0).bonuses == got


def test_equal_game_counts_score_no_game() -> None:
    cards = CARDS_6_3._replace(game=(20, 20))
    assert don_awards(cards, Suit.HEARTS, "game_8", False)[0][:2] == (None, 0)


def test_deal_cards_finds_high_low_and_who_took_them() -> None:
    dealt = [{"AH", "2C"}, {"QH"}, {"3H"}, {"9H"}]
    got = deal_cards((["AH", "3H"], ["QH", "9H", "JH"]), dealt, Suit.HEARTS)
    assert got.high == (Card.parse("AH"), 0) and got.low == (Card.parse("3H"), 2)
    assert (got.low_side, got.jack_side) == (0, 1)
    assert got.game == (4, 3)


# ---------------------------------------------------------------------------- the end


def test_peg_out_immediate_and_end_of_deal() -> None:
    totals = [180, 0]
    assert peg(totals, 0, 1, 181, immediate=True)
    assert not peg([180, 0], 0, 1, 181, immediate=False)
    assert end_of_deal_winner([181, 181], 181) is None  # equal totals play on
    assert end_of_deal_winner([180, 170], 181) is None
    assert end_of_deal_winner([170, 190], 181) == 1
    assert passed_deal_winner([190, 185], 181, immediate=True) is None  # nobody can tell who pegged out first
    assert passed_deal_winner([190, 185], 181, immediate=False) == 0
    assert passed_deal_winner([190, 100], 181, immediate=True) == 0


@pytest.mark.parametrize("game", [PhatGame(181), NineCardDonGame(121), IrishDonGame(81)])
def test_every_game_deals_its_hands_from_the_pack(game: all_fours.AllFoursGame) -> None:
    assert game.dealt == SEATS * game.hand_size <= 52
    assert game.leaves_undealt == (game.dealt < 52)
    assert game.most_in_a_trick == sum(sorted(game.counters(Suit.CLUBS))[-4:])
