"""phatlog's games as OpenSpiel games (``phatlog.openspiel``, docs/openspiel.md): OpenSpiel's own game check
(``pyspiel.random_sim_test``), its MCTS against random play on each game, and the information state
holding nothing a seat cannot know."""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest
from conftest import PROFILE

import phatlog

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
openspiel = pytest.importorskip("phatlog.openspiel")

#: One short game of each: a deal of each All Fours game, two small hands of Oh Hell.
SHORT: dict[str, dict[str, Any]] = {
    "phatlog_phat": {"deals": 1},
    "phatlog_nine_card_don": {"deals": 1, "bonus": "five_high_low_jack"},
    "phatlog_irish_don": {"deals": 1},
    "phatlog_oh_hell": {"players": 3, "schedule": "2,3", "hook": True},
}
DEEP = PROFILE != "fast"  # the CI and deep profiles: more games, whole games
#: The games ``make test`` plays (the cheapest); the CI and deep profiles play all four.
GAMES = sorted(SHORT) if DEEP else ["phatlog_oh_hell"]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_game_checks(name: str) -> None:
    game = pyspiel.load_game(name, SHORT[name])
    pyspiel.random_sim_test(game, num_sims=3 if DEEP else 1, serialize=False, verbose=False)


@pytest.mark.skipif(not DEEP, reason="whole games: the CI and deep profiles")
@pytest.mark.parametrize("name", ["phatlog_phat", "phatlog_irish_don", "phatlog_nine_card_don"])
def test_whole_games(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name, {"target": 31}), num_sims=2, serialize=False, verbose=False)


def test_the_rules_are_game_parameters() -> None:
    game = pyspiel.load_game("phatlog_oh_hell", {"players": 5, "schedule": "1,2", "must_trump": True})
    state = game.new_initial_state()
    assert game.num_players() == 5 and state.is_chance_node()
    assert state.state.rules.must_trump and state.state.sizes == [1, 2]
    assert game.get_type().short_name == "phatlog_oh_hell"
    with pytest.raises(Exception, match="target"):
        pyspiel.load_game("phatlog_phat", {"target": -1})


def play(name: str, params: dict[str, Any], simulations: int, seed: int) -> list[float]:
    """One game: OpenSpiel's MCTS in the even seats, random play in the odd ones."""
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        mcts.MCTSBot(game, 2, simulations, evaluator, random_state=rng)
        if seat % 2 == 0
        else uniform_random.UniformRandomBot(seat, rng)
        for seat in range(game.num_players())
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


@pytest.mark.parametrize("name", GAMES)
def test_mcts_plays_each_game(name: str) -> None:
    """OpenSpiel's MCTS plays a game of each against random play, on phatlog's State, to its end."""
    params = {**SHORT[name], **({"players": 4, "schedule": "2"} if name == "phatlog_oh_hell" else {})}
    returns = play(name, params, 4, 0)
    if name == "phatlog_oh_hell":
        assert len(returns) == 4 and all(r >= 0 for r in returns)
    else:
        assert sorted(returns) == [-1, -1, 1, 1] or returns == [0, 0, 0, 0]


@pytest.mark.skipif(not DEEP, reason="many games of MCTS: the CI and deep profiles")
@pytest.mark.parametrize("name", sorted(SHORT))
def test_mcts_beats_random_play(name: str) -> None:
    """Over a few games, MCTS (the even seats) scores more than random play (the odd seats)."""
    params = {**SHORT[name], **({"players": 4, "schedule": "3"} if name == "phatlog_oh_hell" else {})}
    games = 8
    totals = np.zeros(pyspiel.load_game(name, params).num_players())
    for seed in range(games):
        totals += play(name, params, 20, seed)
    mcts_seats, random_seats = totals[0::2].sum(), totals[1::2].sum()
    assert mcts_seats > random_seats, (mcts_seats, random_seats)


def test_the_state_is_phatlogs_and_verifies() -> None:
    game = pyspiel.load_game("phatlog_phat", {"target": 31})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(actions[rng.randint(len(actions))])
    returns = state.returns()
    assert sorted(returns) == [-1, -1, 1, 1] and returns[0] == returns[2]
    assert phatlog.verify(state.state.record()).clean
    (side,) = state.state.winner
    assert returns[side] == 1


# ---------------------------------------------------------------------------- what a seat knows


def other_hands_swapped(game: str, seat: int, seed: int) -> tuple[Any, Any]:
    """Two states of ``game`` that differ only in the hidden cards of the seats other than ``seat``:
    the same deal but for two of the other seats' unplayed cards swapped, after the same plays."""
    state = phatlog.start(game, players=4, seed=None, dealer=0)
    other = phatlog.start(game, players=4, seed=None, dealer=0)
    rng = random.Random(seed)
    pack = [phatlog.Card(t) for t in _deck()]
    rng.shuffle(pack)
    size = state.hand_size()
    hands = [pack[i * size : (i + 1) * size] for i in range(state.seats)]
    others = [s for s in range(state.seats) if s != seat]
    a, b = others[0], others[1]
    swapped = [list(h) for h in hands]
    swapped[a][-1], swapped[b][-1] = hands[b][-1], hands[a][-1]
    turnup = pack[size * state.seats] if game == "oh_hell" and openspiel.turns_up(state) else None
    state.deal(hands, turnup=turnup)
    other.deal(swapped, turnup=turnup)
    for _ in range(6):  # the same plays in both, while the seat to act has the same first choice
        mine, theirs = state.legal_actions(), other.legal_actions()
        if not mine or mine[0] not in theirs:
            break
        state.apply(mine[0])
        other.apply(mine[0])
    return state, other


def _deck() -> list[str]:
    return [r + s for s in "CDHS" for r in "23456789TJQKA"]


@pytest.mark.parametrize("game", ["phat", "nine_card_don", "irish_don", "oh_hell"])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_information_state_holds_no_hidden_card(game: str, seat: int) -> None:
    for seed in range(3):
        state, other = other_hands_swapped(game, seat, seed)
        assert state.hand(seat) == other.hand(seat)
        assert phatlog.information_state_tensor(state, seat) == phatlog.information_state_tensor(other, seat)
        assert phatlog.information_state_string(state, seat) == phatlog.information_state_string(other, seat)
        # and it does tell the seat its own hand
        hand = phatlog.information_state_tensor(state, seat)[5 + state.seats : 5 + state.seats + 52]
        assert [i for i, v in enumerate(hand) if v] == sorted(int(c) for c in state.hand(seat))
        differs = [s for s in range(state.seats) if state.hand(s) != other.hand(s)]
        assert differs and seat not in differs
        assert any(
            phatlog.information_state_tensor(state, s) != phatlog.information_state_tensor(other, s) for s in differs
        )


def test_the_observation_doctests() -> None:
    from phatlog.play import observation

    assert doctest.testmod(observation).failed == 0
