"""The replay summary's deals come from the engine's events, not from the referee's trace."""

from __future__ import annotations

from pathlib import Path

import pytest

from phatlog.api import read, states
from phatlog.cards import Card
from phatlog.engine.state import DealScored, Event, TrickShown, TrickWon
from phatlog.engine.tricks import winning_position
from phatlog.reader import read_path
from phatlog.report import build
from phatlog.report.summary import _PitchBuilder

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "samples" / "games"
INVALID = ROOT / "samples" / "invalid"
FROM_EVENTS = [
    GAMES / "score-sheet-phat-181.json",  # score-sheet deals, passed over as recorded
    GAMES / "score-sheet-phat-carry.json",
    GAMES / "score-sheet-phat-mixed.json",
    INVALID / "card-not-held.json",  # a deal given up at an illegal play
    INVALID / "don-revoke-trump-under-must-follow.json",
    INVALID / "tricks-after-win.json",  # tricks recorded after the trick that won the game
    INVALID / "don-tricks-after-win.json",
]


@pytest.mark.parametrize("path", FROM_EVENTS, ids=lambda p: p.name)
def test_pitch_deals_come_from_events(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal of these records is summarised from the engine's events: the trace-reading path is never
    taken, and the summary is what it was."""
    loaded = read_path(path)
    before = build(loaded).to_json()

    def no_trace(*args: object, **kwargs: object) -> object:
        raise AssertionError("a deal was summarised from the referee's trace")

    monkeypatch.setattr(_PitchBuilder, "deal", no_trace)
    assert build(loaded).to_json() == before


def test_given_up_deal_shows_the_rest_unscored() -> None:
    """At an illegal play the engine tells of the recorded tricks from the faulty one on (TrickShown), each
    with the winner by ``tricks.winning_position`` under the first lead's suit, and then gives the deal up."""
    path = INVALID / "card-not-held.json"
    events: list[Event] = []
    for _ in states(path, visitors=[events.append], on_fault="pass"):
        pass
    shown = [e for e in events if isinstance(e, TrickShown)]
    won = [e for e in events if isinstance(e, TrickWon)]
    tricks = read(path).deals[0].tricks
    assert shown and [e.trick for e in shown] == list(range(len(won), len(tricks)))
    trump = Card.parse(tricks[0].cards[0]).suit
    for e in shown:
        cards = tuple(Card.parse(c) for c in tricks[e.trick].cards)
        assert e.cards == cards and e.leader == tricks[e.trick].leader
        assert e.seat == (e.leader + winning_position(cards, trump)) % 4
    scored = [e for e in events if isinstance(e, DealScored)]
    assert scored[-1].given_up and events.index(shown[-1]) < events.index(scored[-1])
    summary = build(read_path(path)).to_json()
    unscored = [t for t in summary["deals"][0]["tricks"] if not t["scored"]]
    assert [t["trick"] - 1 for t in unscored] == [e.trick for e in shown]


def test_on_fault_stop_shows_nothing() -> None:
    """Without ``on_fault="pass"`` iteration stops at the illegal play: no TrickShown."""
    events: list[Event] = []
    for _ in states(INVALID / "card-not-held.json", visitors=[events.append]):
        pass
    assert not any(isinstance(e, TrickShown) for e in events)


@pytest.mark.parametrize("game", ["phat", "nine_card_don", "irish_don", "oh_hell"])
def test_may_play_is_legal_actions(game: str) -> None:
    """``State.may_play`` (what ``states`` asks of each recorded card) agrees with ``legal_actions()`` for
    every seat and card, all through a seeded game."""
    import random

    from phatlog.api import start
    from phatlog.cards import DECK
    from phatlog.engine.state import Phase

    state = start(game, seed=3)
    rng = random.Random(5)
    checked = 0
    while not state.is_over and checked < 400:
        actions = state.legal_actions()
        for seat in range(state.seats):
            for card in DECK:
                mine = state.phase is Phase.PLAY and state.current_seat == seat and card in actions
                assert state.may_play(seat, card) is mine
        checked += 1
        state.apply(rng.choice(actions))
