"""The tricks objective (``phatlog.solve(..., objective="tricks")``): held to plain minimax over the
engine's trick rules on random endings, to answers of DDS (the bridge double-dummy solver) stored here,
and the C kernel's entry point to junk arguments (a clear exception, never a crash)."""

from __future__ import annotations

import contextlib
import random
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_claims import brute

import phatlog
from phatlog.rules.cards import Card, Suit
from phatlog.rules.trick import FollowRule
from phatlog.solver import c_available

ENGINES: Final = ["python", "auto"] if c_available() else ["python"]

#: Positions after random play from bridge deals, with DDS's tricks for each legal card of the player to
#: act (``endplay.dds.solve_board``, every card scored): the hands (seat 0 as north, play passing to
#: the left), the trick in progress, its leader, the trump (None: no trump).
DDS_ANSWERS: Final[list[tuple[list[str], list[str], int, str | None, dict[str, int]]]] = [
    (
        ["4D 3H 8H AH 4S 8S", "2H 4H QH 6S 7S JS", "7C 8D 9D 3S TS QS", "3C 8C TC QC AC AS"],
        [],
        3,
        None,
        {"3C": 3, "8C": 6, "AC": 6, "AS": 6, "QC": 6, "TC": 6},
    ),
    (
        ["2C 3C TD 5H 7H 8H AH 8S", "5C 8C JD 4H 6S TS QS AS", "4C 6C JC KC 9D QD QH 3S", "TC 8D 3H TH KH 2S 5S 9S"],
        [],
        1,
        None,
        {"4H": 1, "5C": 1, "6S": 4, "8C": 1, "AS": 4, "JD": 1, "QS": 4, "TS": 4},
    ),
    (
        ["2C 4C JC 2H 6H JH 3S", "3C JD 4H 5H 7H 2S 7S", "8C 9C 3H QH AH JS KS", "7C TC KC 8D 5S 8S 9S TS"],
        ["9H", "KH", "TH"],
        0,
        None,
        {"5S": 3, "7C": 3, "8D": 3, "8S": 3, "9S": 3, "KC": 2, "TC": 3, "TS": 3},
    ),
    (
        [
            "3C TC JC KC 7D TD AD 6H KH 7S 9S",
            "2C 6C AC 2D JD 2H AH 2S 5S 8S QS",
            "7C 4D 5D 3H TH 3S 4S 6S TS JS AS",
            "5C 6D 8D 4H 5H 7H 8H 9H JH QH KS",
        ],
        [],
        2,
        "C",
        {"3H": 6, "3S": 5, "4D": 6, "4S": 5, "5D": 6, "6S": 5, "7C": 7, "AS": 7, "JS": 5, "TH": 6, "TS": 5},
    ),
    (
        ["2C 6C 8C TC TH 5S", "4C 5C 7C 9C AS", "3C TD KD 4S 7S", "QC AC 2D 3D 2S JS"],
        ["JC", "KC"],
        1,
        None,
        {"AC": 4, "QC": 2},
    ),
    (
        [
            "3C JC 8D KD 8H 3S 4S 6S 7S 8S KS",
            "7C 3D 5D 6D 7D 6H 7H AH 2S 5S TS AS",
            "2C 4C TC AC 9D QD 3H 4H 5H TH 9S JS",
            "QC KC 2D 4D TD JD AD 2H JH QH QS",
        ],
        ["9H", "KH"],
        3,
        None,
        {"6H": 7, "7H": 7, "AH": 9},
    ),
    (
        [
            "7C 4D 5D 9D 2H 4H 5H 6H JH QH",
            "4C 5C QC 3D KD TH 2S 5S QS KS AS",
            "6C JC AC AD 3H 7H 8H 9H KH 4S 9S",
            "3C KC 7D 8D TD AH 3S 6S 8S JS",
        ],
        ["7S", "TS"],
        3,
        None,
        {"2S": 5, "5S": 5, "AS": 8, "KS": 8, "QS": 8},
    ),
    (
        [
            "3C 4C 6C 9C KC 6D JD AD 7H QH 6S AS",
            "2C 5C TD 2H 3H 9H TH 4S TS QS KS",
            "8C TC JC QC 8D QD 4H 6H JH AH 2S",
            "7C AC 2D 3D 5D 9D 5H 8H KH 5S 9S",
        ],
        ["KD", "7D", "4D"],
        1,
        None,
        {"6D": 8, "AD": 9, "JD": 8},
    ),
    # three where a bound found with a run of touching cards (TD JD; 6C 7C) was reused where the run's
    # lower card had moved to another hand
    (
        ["6D 8D 9H JH AH", "4D TD JD 8H QH", "3C 3D QD 4H 6H", "2D 7D 3H 7H TS"],
        [],
        2,
        "S",
        {"3C": 2, "3D": 2, "4H": 2, "6H": 2, "QD": 2},
    ),
    (
        ["4C 8C QH 2S 4S 9S", "7C QC 8D 9D AD", "2C 9C JC KC QD", "AC 7D TD JD 3S KS"],
        ["KD", "2D"],
        1,
        None,
        {"7D": 5, "JD": 6, "TD": 6},
    ),
    (
        ["5C JC JD KD 6S 8S", "2C 6C 7C KC AC 2D 8D", "3C 4C 8C 4H 4S 5S", "TD 3H 6H 8H KH AS"],
        ["QC", "9C", "TC"],
        2,
        "C",
        {"2C": 3, "6C": 4, "7C": 4, "AC": 3, "KC": 3},
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", range(len(DDS_ANSWERS)))
def test_every_card_is_valued_as_dds_values_it(case: int, engine: str) -> None:
    hands, trick, leader, trump, dds = DDS_ANSWERS[case]
    if engine == "python" and len(hands[0].split()) > 6:
        pytest.skip("the Python search takes minutes on long endings")
    position = phatlog.Position.of_hands([h.split() for h in hands], played=trick, leader=leader, trump=trump)
    solved = phatlog.solve(position, "tricks", engine=engine)
    assert {str(c): v for c, v in solved.cards.items()} == dds
    assert solved.value == max(dds.values())
    assert solved.best == [c for c in solved.cards if dds[str(c)] == solved.value]


@st.composite
def endings(draw: Any) -> tuple[list[set[Card]], list[Card], int, Suit | None]:
    """Four hands of 1 to 3 cards from a shuffled deck, a random leader and trump (or none), and up to
    three cards of the trick played at random (each following suit where it can)."""
    n = draw(st.integers(1, 3))
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [{Card(c) for c in deck[n * s : n * s + n]} for s in range(4)]
    leader = rng.randrange(4)
    trump = rng.choice([None, *Suit])
    trick: list[Card] = []
    for i in range(rng.randrange(4)):
        hand = hands[(leader + i) % 4]
        follow = [c for c in hand if trick and c.suit == trick[0].suit] or sorted(hand)
        card = rng.choice(sorted(follow))
        hand.remove(card)
        trick.append(card)
    return hands, trick, leader, trump


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=25, deadline=None)
@given(endings())
def test_the_tricks_objective_is_plain_minimax(engine: str, ending: tuple[Any, ...]) -> None:
    hands, trick, leader, trump = ending
    seat = (leader + len(trick)) % 4
    side = [0 if s % 2 == seat % 2 else 1 for s in range(4)]
    solved = phatlog.solve(
        phatlog.Position.of_hands(hands, played=trick, leader=leader, trump=trump), "tricks", engine=engine
    )
    assert solved.value == brute([set(h) for h in hands], list(trick), leader, trump, FollowRule.MUST_FOLLOW, side)
    for card, v in solved.cards.items():
        after = [set(h) for h in hands]
        after[seat].remove(card)
        now = [*trick, card]
        if len(now) == 4:
            from phatlog.rules.trick import winning_position

            winner = (leader + winning_position(now, trump)) % 4
            expected = (side[winner] == 0) + brute(after, [], winner, trump, FollowRule.MUST_FOLLOW, side)
        else:
            expected = brute(after, now, leader, trump, FollowRule.MUST_FOLLOW, side)
        assert v == expected, card


def test_a_solve_past_its_limit_says_so() -> None:
    hands, trick, leader, trump, _ = DDS_ANSWERS[3]
    position = phatlog.Position.of_hands([h.split() for h in hands], played=trick, leader=leader, trump=trump)
    with pytest.raises(phatlog.SolveLimit, match="did not finish within its limit"):
        phatlog.solve(position, "tricks", limit=50)


def test_a_position_play_cannot_reach_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        phatlog.Position.of_hands([["AS"], ["AS"], ["2C"], ["3C"]])
    with pytest.raises(ValueError, match="as many cards"):
        phatlog.Position.of_hands([["AS", "KS"], ["QS"], ["2C"], ["3C"]])
    with pytest.raises(ValueError, match="the objective"):
        phatlog.solve(phatlog.Position.of_hands([["AS"], ["QS"], ["2C"], ["3C"]]), "best")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs the game"):
        phatlog.solve(phatlog.Position.of_hands([["AS"], ["QS"], ["2C"], ["3C"]]), "points")


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
def test_the_kernel_refuses_junk_and_never_crashes() -> None:
    from phatlog._native import _solve

    good: list[Any] = [(1, 2, 4, 8), (), 0, 4, True, 0]
    rng = random.Random(5)
    junk: list[Any] = [
        None,
        -1,
        2**64,
        2**70,
        1.5,
        "x",
        (),
        (1, 2),
        (1, 2, 3, 4, 5),
        ((1,),) * 4,
        52,
        4,
        5,
        [1, 2, 3, 4],
    ]
    for i in range(len(good)):
        for bad in junk:
            args = list(good)
            args[i] = bad
            with contextlib.suppress(TypeError, ValueError, OverflowError):
                _solve.tricks(*args)
    for _ in range(2000):
        hands = tuple(rng.getrandbits(rng.choice([3, 13, 52, 60])) for _ in range(4))
        trick = tuple(rng.randrange(-2, 55) for _ in range(rng.randrange(5)))
        with contextlib.suppress(TypeError, ValueError, OverflowError):
            _solve.tricks(hands, trick, rng.randrange(-1, 5), rng.randrange(-1, 6), rng.random() < 0.5, 1000)
    with pytest.raises(TypeError):
        _solve.tricks(*good[:5])


@settings(max_examples=20, deadline=None)
@given(endings(), st.integers(0, 3))
def test_the_claim_audit_through_the_tricks_kernel_is_plain_minimax(ending: tuple[Any, ...], claimer: int) -> None:
    from phatlog.solver.claims import solve_claim

    hands, trick, leader, trump = ending
    side = [0 if s % 2 == claimer % 2 else 1 for s in range(4)]
    audit = solve_claim(
        [[str(c) for c in h] for h in hands],
        [str(c) for c in trick],
        leader,
        None if trump is None else int(trump),
        FollowRule.MUST_FOLLOW,
        claimer,
        len(hands[(leader + len(trick)) % 4]),
        0,
        True,
    )
    assert audit.least == brute([set(h) for h in hands], list(trick), leader, trump, FollowRule.MUST_FOLLOW, side)
