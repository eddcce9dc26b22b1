"""The State for search: ``copy`` (only what changes is copied), ``push``/``undo``, integer action ids both
ways, a position set up with ``start(..., hands=..., played=...)``, and the table in text."""

from __future__ import annotations

import random

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import phatlog
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.pitch_state import PitchState
from phatlog.engine.state import ACTION_BID

GAMES = [("phat", 4), ("nine_card_don", 4), ("irish_don", 4), ("oh_hell", 3), ("oh_hell", 5)]
#: Short games, for time: a low target, a short schedule.
SHORT = {
    "phat": {"target": 31},
    "nine_card_don": {"target": 31},
    "irish_don": {"target": 31},
    "oh_hell": {"max_cards": 4},
}


def snapshot(state: phatlog.State) -> tuple[object, ...]:
    """Everything a driver can read of a state."""
    return (
        state.record(),
        [state.view(s) for s in range(state.seats)],
        state.legal_actions(),
        state.phase,
        state.current_seat,
        list(state.totals),
        state.winner,
        repr(state),
        str(state),
    )


def play_to_end(state: phatlog.State, rng: random.Random) -> list[int | phatlog.Card]:
    actions: list[int | phatlog.Card] = []
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply(action)
    return actions


@settings(max_examples=examples(24), deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 60))
def test_a_copy_is_independent_and_plays_on_as_the_original(game: tuple[str, int], seed: int, steps: int) -> None:
    name, players = game
    rng = random.Random(seed)
    state = phatlog.start(name, players=players, seed=seed, rules=SHORT[name])
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    before = snapshot(state)
    twin = state.copy()
    assert snapshot(twin) == before
    moves = play_to_end(twin, random.Random(seed + 1))  # the copy plays on, deals drawn from its seed
    assert snapshot(state) == before  # the original did not move
    for action in moves:
        state.apply(action)
    assert state.record() == twin.record()  # the same deals, the same game


@settings(max_examples=examples(24), deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(1, 40))
def test_undo_takes_back_every_push(game: tuple[str, int], seed: int, depth: int) -> None:
    name, players = game
    rng = random.Random(seed)
    state = phatlog.start(name, players=players, seed=seed, rules=SHORT[name])
    for _ in range(rng.randrange(40)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    seen = []
    for _ in range(depth):
        if state.is_over:
            break
        seen.append(snapshot(state))
        state.push(rng.choice(state.legal_actions()))
    assert state.pushed == len(seen)
    while seen:
        state.undo()
        assert snapshot(state) == seen.pop()
    with pytest.raises(phatlog.IllegalAction, match="nothing to undo"):
        state.undo()


def test_undo_keeps_the_visitors_and_a_refused_push_is_not_kept() -> None:
    events: list[phatlog.Event] = []
    state = phatlog.start("phat", seed=1, visitors=[events.append])
    with pytest.raises(phatlog.IllegalAction):
        state.push("2C")  # Cal does not hold it
    assert state.pushed == 0
    state.push(state.legal_actions()[-1])
    state.undo()
    told = len(events)
    state.apply(state.legal_actions()[0])
    assert len(events) == told + 1 and isinstance(events[-1], phatlog.CardPlayed)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_action_ids_both_ways(name: str, players: int) -> None:
    rng = random.Random(5)
    state = phatlog.start(name, players=players, seed=5)
    while not state.is_over:
        legal = state.legal_actions()
        ids = state.legal_action_ids()
        assert ids == sorted(ids) == [state.action_id(a) for a in legal]
        assert [state.action_of(i) for i in ids] == legal
        for action, i in zip(legal, ids, strict=True):
            if isinstance(action, phatlog.Card):
                assert i == int(action) < ACTION_BID and state.action_id(str(action)) == i
            else:
                assert i == ACTION_BID + action
        state.apply_id(rng.choice(ids))
    with pytest.raises(phatlog.IllegalAction):
        state.action_of(-1)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_position_from_its_hands_and_plays(name: str, players: int) -> None:
    """``start(..., hands=..., played=...)`` sets up any position reached by play, an ending included."""
    rng = random.Random(11)
    state = phatlog.start(name, players=players, seed=11)
    hands = [state.hand(s) for s in range(state.seats)]
    turnup = getattr(state, "turnup", None)
    undealt = state.record()["deals"][0].get("undealt")
    played = []
    size = state.hand_size()
    while state.deal_index == 0 and not state.is_chance and not state.is_over:
        if len(state.tricks) == size - 1 and state.trick:  # an ending: the last trick half played
            break
        action = rng.choice(state.legal_actions())
        played.append(action)
        state.apply(action)
    if state.deal_index != 0 or state.is_chance:
        pytest.skip("the first deal ended before its last trick")
    setup = phatlog.start(
        name,
        players=players,
        seed=None,
        dealer=state.dealer,
        hands=hands,
        played=played,
        turnup=turnup,
        undealt=undealt,
    )
    assert snapshot(setup) == snapshot(state)


def test_a_position_with_totals_and_an_illegal_play() -> None:
    hands = [["AS", "2C"], ["KS", "3C"], ["QS", "4C"]]
    rules = {"schedule": [2, 2], "no_trump": "never"}
    state = phatlog.start(
        "oh_hell", players=3, rules=rules, seed=None, dealer=2, hands=hands, turnup="5H", totals=[10, 0, 5]
    )
    assert state.totals == [10, 0, 5] and state.current_seat == 0 and state.trump == phatlog.Suit.HEARTS
    with pytest.raises(phatlog.IllegalAction, match="does not hold"):
        phatlog.start(
            "oh_hell", players=3, rules=rules, seed=None, dealer=2, hands=hands, turnup="5H", played=[0, 0, 0, "KS"]
        )
    with pytest.raises(ValueError, match="totals"):
        phatlog.start("oh_hell", players=3, rules=rules, seed=None, dealer=2, hands=hands, turnup="5H", totals=[1])


def test_the_table_in_text() -> None:
    state = phatlog.start("phat", seed=1)
    state.apply(state.legal_actions()[-1])
    text = str(state)
    lines = text.splitlines()
    assert lines[0] == "phat, deal 1, play; dealer Ben, trump spades"
    for seat, name in enumerate(state.names):
        line = next(x for x in lines if x[2:].startswith(name))
        assert " ".join(str(c) for c in state.hand(seat)) in line
        assert line.startswith("*") == (seat == state.current_seat)
    assert lines[-2] == f"  trick 1: Cal {state.trick[0]}"
    assert repr(state) == "<PitchState phat deal 1 play, Dee to act, trump S, totals 0-0>"


#: Rules under which the first deal is long and the game goes on past it.
ENDINGS: dict[str, dict[str, object]] = {
    "phat": {},
    "nine_card_don": {},
    "irish_don": {},
    "oh_hell": {"schedule": [6, 6]},
}


def _reached(name: str, players: int, seed: int, left: int) -> phatlog.State | None:
    """A game of ``name`` played at random into its first deal, ``left`` tricks from the deal's end (the
    bids made), or None where the game does not get there."""
    rng = random.Random(seed)
    state = phatlog.start(name, players=players, rules=ENDINGS[name], seed=seed)
    size = state.hand_size()
    if size <= left:
        return None
    while (
        not state.is_over and state.deal_index == 0 and (state.phase.value == "bid" or len(state.tricks) < size - left)
    ):
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over or state.deal_index != 0 or state.is_chance or state.trick:
        return None
    return state


def _ending_of(state: phatlog.State) -> phatlog.State:
    """The same position set up by its cards alone: what each seat holds, the trump (or the turn-up), who
    leads, and what the tricks before left (the cards each side won; Oh Hell, the tricks each seat took)."""
    hands = [state.hand(s) for s in range(state.seats)]
    if isinstance(state, OhHellState):
        bids = [state.bids[(state.dealer + 1 + i) % state.seats] for i in range(state.seats)]
        return phatlog.start(
            "oh_hell",
            players=state.seats,
            rules=ENDINGS["oh_hell"],
            seed=None,
            dealer=state.dealer,
            hands=hands,
            leader=state.leader,
            turnup=state.turnup,
            taken=list(state.taken),
            totals=list(state.totals),
            played=[b for b in bids if b is not None],
        )
    assert isinstance(state, PitchState) and state.trump is not None
    return phatlog.start(
        state.game,
        rules=ENDINGS[state.game],
        seed=None,
        dealer=state.dealer,
        hands=hands,
        leader=state.leader,
        trump=state.trump.letter,
        won=[list(cards) for cards in state._captured],
        totals=list(state.totals),
    )


@settings(max_examples=examples(20), deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(1, 3))
def test_an_ending_set_by_its_cards_alone_plays_and_scores_as_the_game_it_came_from(
    game: tuple[str, int], seed: int, left: int
) -> None:
    """Set up from the cards alone, an ending plays as the real game did from there: the same legal
    cards all the way, the same winners, and at the deal's end the same totals (each side's won cards
    decide the awards: game, the jack, the muck; Oh Hell the tricks taken against the bids)."""
    name, players = game
    state = _reached(name, players, seed, left)
    if state is None:
        return
    ending = _ending_of(state)
    assert ending.current_seat == state.current_seat and len(ending.tricks) == len(state.tricks)
    rng = random.Random(seed)
    while state.deal_index == 0 and not state.is_chance and not state.is_over:
        assert ending.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        state.apply(action)
        ending.apply(action)
    assert ending.totals == state.totals and ending.winner == state.winner


@settings(max_examples=examples(10), deadline=None)
@given(st.sampled_from([g for g in GAMES if g[0] != "oh_hell"]), st.integers(0, 10_000), st.integers(1, 3))
def test_the_solver_values_an_ending_as_the_game_it_came_from(game: tuple[str, int], seed: int, left: int) -> None:
    """The point objective reads an ending's won cards and trump as it reads a real deal's."""
    state = _reached(game[0], game[1], seed, left)
    if state is None:
        return
    assert phatlog.solve(_ending_of(state)).value == phatlog.solve(state).value


def test_an_ending_is_refused_where_it_is_not_a_position() -> None:
    """An ending names what only it can: its trump and the cards the tricks before took, four a trick."""
    hands = [["AS", "2H"], ["KS", "3H"], ["QS", "4H"], ["JS", "5H"]]
    rest = (
        [f"{r}{s}" for s in "CD" for r in "23456789TJQKA"]
        + [f"{r}H" for r in "6789TJQKA"]
        + [f"{r}S" for r in "23456789T"]
    )
    won = [rest[:24], rest[24:]]
    state = phatlog.start("phat", seed=None, dealer=3, hands=hands, trump="S", leader=2, won=won)
    assert state.current_seat == 2 and state.trump == phatlog.Suit.SPADES and state.taken == [6, 5, 0, 0]
    assert len(state.tricks) == 11 and "(6 taken)" in str(state)
    with pytest.raises(ValueError, match="no whole record"):
        state.record()
    with pytest.raises(phatlog.IllegalAction, match="gives its trump"):
        phatlog.start("phat", seed=None, hands=hands, won=won)
    with pytest.raises(phatlog.IllegalAction, match="four a trick"):
        phatlog.start("phat", seed=None, hands=hands, trump="S", won=[rest[:23], rest[23:]])
    with pytest.raises(phatlog.IllegalAction, match="same number of cards"):
        phatlog.start("phat", seed=None, hands=[["AS"], ["KS", "3H"], ["QS", "4H"], ["JS", "5H"]], trump="S", won=won)
    with pytest.raises(phatlog.IllegalAction, match="given twice"):
        phatlog.start("phat", seed=None, hands=hands, trump="S", won=[[*rest[:23], "AS"], rest[24:]])
    with pytest.raises(ValueError, match="set up an ending"):
        phatlog.start("phat", seed=1, hands=phatlog.start("phat", seed=1).record()["deals"][0]["hands"], trump="S")
    oh = {"schedule": [3, 3], "no_trump": "never"}
    three = [["AS", "2C"], ["KS", "3C"], ["QS", "4C"]]
    with pytest.raises(phatlog.IllegalAction, match="tricks each of the 3 players took"):
        phatlog.start("oh_hell", players=3, rules=oh, seed=None, hands=three, turnup="5H", taken=[0, 0])
    ending = phatlog.start(
        "oh_hell", players=3, rules=oh, seed=None, dealer=2, hands=three, turnup="5H", taken=[1, 0, 0]
    )
    assert ending.phase.value == "bid" and ending.taken == [1, 0, 0]
