"""The referee skeleton shared by both families (``engine/deal_check``) and the pegging helpers the All Fours
referee shares with its state engine (``all_fours.peg``, ``peg_bonuses``, ``passed_deal_winner``)."""

from __future__ import annotations

from phatlog.diagnostics import Diagnostic
from phatlog.referee import deal_check
from phatlog.rules.all_fours import Bonus, passed_deal_winner, peg, peg_bonuses
from phatlog.rules.trick import FollowRule

NAMES = ["Ann", "Ben", "Cal", "Dee"]


def _rotate(dealers: list[int], name_record_first: bool) -> list[str]:
    rotation = deal_check.Rotation(4, NAMES, name_record_first)
    out: list[Diagnostic] = []
    for d, dealer in enumerate(dealers):
        rotation.check(d, dealer, out)
    return [x.message for x in out]


def test_one_wrong_dealer_is_reported_once() -> None:
    for first in (False, True):
        assert _rotate([0, 1, 3, 0, 1], first) == ["Dee dealt, but the deal passes to the left: Cal should have dealt"]
        assert _rotate([0, 1, 3, 3], first) == ["Dee dealt, but the deal passes to the left: Cal should have dealt"]


def test_two_wrong_dealers_in_a_row_each_family_as_before() -> None:
    # All Fours names the rotation's seat and carries on from it; Oh Hell names the seat after the last
    # dealer recorded, and the rotation's in brackets.
    assert _rotate([0, 2, 0, 3], False) == [
        "Cal dealt, but the deal passes to the left: Ben should have dealt",
        "Ann dealt, but the deal passes to the left: Cal should have dealt",
    ]
    assert _rotate([0, 2, 0, 3], True) == [
        "Cal dealt, but the deal passes to the left: Ben should have dealt",
        "Ann dealt, but the deal passes to the left: Dee (or Cal) should have dealt",
        "Dee dealt, but the deal passes to the left: Ben (or Ann) should have dealt",
    ]


def test_a_card_dealt_three_times_names_its_first_holder() -> None:
    out: list[Diagnostic] = []
    assert not deal_check.report_dealt([["AS"], ["AS"], ["AS"]], 0, 1, NAMES, out)
    assert [x.message for x in out] == ["AS is dealt to both Ann and Ben", "AS is dealt to both Ann and Cal"]


def test_the_follow_rule_decides_and_words_a_revoke() -> None:
    mine = {"3S", "4H"}  # what Ben still holds after playing
    # A trump instead of following: a revoke under must_follow, allowed under follow_or_trump.
    found = deal_check.illegal_play(0, 0, 1, 1, "2H", 0, 2, FollowRule.MUST_FOLLOW, {"3C", "4H"}, NAMES)
    assert found is not None and found.code == "PL303"
    assert "to a club lead while holding 3C: players must follow suit if able" in found.message
    assert deal_check.illegal_play(0, 0, 1, 1, "2H", 0, 2, FollowRule.FOLLOW_OR_TRUMP, {"3C"}, NAMES) is None
    # Void in clubs, holding a trump: must_trump obliges it.
    found = deal_check.illegal_play(0, 0, 1, 1, "2D", 0, 2, FollowRule.MUST_TRUMP, mine, NAMES)
    assert found is not None
    assert found.message == (
        "Ben could not follow suit and played 2D while holding the trump(s) 4H: "
        "under must_trump (La Podrida) a player who cannot follow must trump"
    )
    assert deal_check.illegal_play(0, 0, 1, 1, "2D", 0, 2, FollowRule.MUST_FOLLOW, mine, NAMES) is None


def test_bonuses_are_pegged_in_order_until_the_game_ends() -> None:
    bonuses = [Bonus(0, 1, "high", ""), Bonus(None, 1, "low", ""), Bonus(1, 2, "jack", ""), Bonus(0, 1, "game", "")]
    totals = [5, 9]
    pegged = [(b.label, scored, ends) for b, scored, ends in peg_bonuses(bonuses, totals, 11, True)]
    assert pegged == [("high", True, False), ("low", False, False), ("jack", True, True)]
    assert totals == [6, 11]
    totals = [5, 9]
    assert [ends for _, _, ends in peg_bonuses(bonuses, totals, 11, False)] == [False] * 4
    assert totals == [7, 11]


def test_peg_and_the_winner_of_a_deal_taken_as_recorded() -> None:
    totals = [10, 3]
    assert peg(totals, 0, 1, 11, True) and totals == [11, 3]
    assert not peg(totals, 1, 9, 11, False) and totals == [11, 12]
    assert passed_deal_winner([11, 12], 11, False) == 1
    assert passed_deal_winner([11, 12], 11, True) is None  # both pegged out: who was first is not recorded
    assert passed_deal_winner([9, 12], 11, True) == 1
    assert passed_deal_winner([12, 12], 11, False) is None
