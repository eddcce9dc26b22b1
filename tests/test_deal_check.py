"""The referee skeleton shared by both families (``engine/deal_check``) and the pegging helpers the All Fours
referee shares with its state engine (``all_fours.peg``, ``peg_bonuses``, ``passed_deal_winner``)."""

from __future__ import annotations

from collections.abc import Sequence

from phatlog.diagnostics import Diagnostic
from phatlog.record.model import OhHellDeal, Trick
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


def _trick(leader: int, cards: list[str], winner: int | None = None) -> Trick:
    return Trick(leader=leader, cards=cards, winner=winner)


def _deal(dealer: int, hands: list[list[str]], tricks: list[Trick]) -> OhHellDeal:
    """A deal as the referee reads it (an Oh Hell hand's model serves any number of cards a trick)."""
    return OhHellDeal(dealer=dealer, hands=hands, tricks=tricks)


def _play(
    deal: OhHellDeal, held_first: bool, rule: FollowRule = FollowRule.MUST_FOLLOW, trump: int | None = 3
) -> tuple[list[str], int | None, list[int]]:
    """The shared trick loop over ``deal``: the codes reported, the faulty trick, the tricks taken."""
    out: list[Diagnostic] = []
    assert deal.hands is not None
    hands = [set(h) for h in deal.hands]
    play, fault = deal_check.play_tricks(deal, 0, hands, "{seat}", trump, rule, held_first, NAMES, out)
    return [x.code for x in out], fault, play.taken


def test_the_trick_loop_checks_in_each_familys_order() -> None:
    # Ann deals; Ben leads AC. Cal plays 3D holding 4C (a revoke); Ann plays AS, which she does not hold.
    deal = _deal(
        0,
        [["2H", "3H"], ["AC", "KC"], ["4C", "3D"], ["6C", "7C"]],
        [_trick(1, ["AC", "3D", "6C", "AS"])],
    )
    # Card by card (Oh Hell): Cal's revoke comes first.
    assert _play(deal, held_first=False)[:2] == (["PL303"], 0)
    # All Fours checks that all four cards are held before any follow-suit check: Ann's AS.
    assert _play(deal, held_first=True)[:2] == (["PL302"], 0)


def test_the_trick_loop_checks_the_leader_first_and_goes_on_after_a_wrong_winner() -> None:
    hands = [["2S", "3C"], ["AC", "KC"], ["4C", "5C"], ["6C", "7C"]]
    # Dee leads, though Ben (on Ann's left) should: PL301 before the cards, even a card not held.
    assert _play(_deal(0, hands, [_trick(3, ["AS", "AC", "4C", "6C"])]), held_first=True)[:2] == (["PL301"], 0)
    # A wrong recorded winner is reported; the play goes on, and Ben (who won trick 1) leads trick 2.
    deal = _deal(0, hands, [_trick(1, ["AC", "4C", "6C", "3C"], winner=2), _trick(1, ["KC", "5C", "7C", "2S"])])
    for held_first in (False, True):
        assert _play(deal, held_first) == (["PL304"], None, [1, 1, 0, 0])
    # No trump: Ann's 2S (void in clubs) cannot win a club trick; with spades trump it does.
    void = _deal(0, [["2S"], ["AC"], ["4C"], ["6C"]], [_trick(1, ["AC", "4C", "6C", "2S"])])
    assert _play(void, True, trump=None)[2] == [0, 1, 0, 0]
    assert _play(void, True, trump=3)[2] == [1, 0, 0, 0]


def test_the_trick_loop_stops_where_the_hook_says_the_game_is_over() -> None:
    hands = [["2S", "3C"], ["AC", "KC"], ["4C", "5C"], ["6C", "7C"]]
    deal = _deal(0, hands, [_trick(1, ["AC", "4C", "6C", "3C"]), _trick(1, ["KC", "5C", "7C", "2S"])])
    seen: list[tuple[int, int, int, list[int]]] = []

    def won(t: int, trick: object, position: int, winner: int, taken: Sequence[int]) -> bool:
        seen.append((t, position, winner, list(taken)))
        return True

    out: list[Diagnostic] = []
    play, fault = deal_check.play_tricks(
        deal, 0, [set(h) for h in hands], "{seat}", 3, FollowRule.MUST_FOLLOW, True, NAMES, out, won
    )
    assert (fault, play.played, seen, out) == (None, 1, [(0, 0, 1, [0, 1, 0, 0])], [])
