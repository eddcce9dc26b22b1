"""The replay summary is built from the referee's events, every deal alike (played, given up, score sheets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from phatlog.api import read, states
from phatlog.engine.state import DealScored, Event, TrickShown, TrickWon
from phatlog.record.reader import read_path
from phatlog.referee.games import referee
from phatlog.referee.heard import referee_events
from phatlog.referee.pitch import Findings
from phatlog.report import build
from phatlog.rules.cards import Card
from phatlog.rules.trick import winning_position

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "samples" / "games"
INVALID = ROOT / "samples" / "invalid"
SAMPLES = sorted([*GAMES.glob("*.json"), *INVALID.glob("*.json")])


def _outcome(v: Findings) -> tuple[object, ...]:
    return (v.diagnostics, v.totals, v.winner, v.ended_at, v.refused)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_deal_is_summarised_from_the_referee_events(path: Path) -> None:
    """Every sample, clean or faulty: the referee's verdict is the same with a visitor as without (and with
    the C kernel as without); each deal it judged has exactly one DealScored, and the summary shows that
    deal's points and totals, each replayed trick's winner and reason, and nothing for a deal it did not
    judge (after the end of the game)."""
    loaded = read_path(path)
    if loaded.record is None:
        return
    record = loaded.record
    plain = referee(record)
    verdict, told = referee_events(record)
    assert _outcome(verdict) == _outcome(plain)
    by_deal = {d.index: d for d in told}
    summary = build(loaded)
    for deal in summary.deals:
        got = by_deal.get(deal.deal - 1)
        if deal.kind == "not_replayed":
            assert got is None or got.scored is None
            continue
        assert got is not None and got.scored is not None
        scored = got.scored
        assert deal.points == (None if scored.points is None else list(scored.points))
        assert deal.totals == (None if scored.totals is None else list(scored.totals))
        assert deal.scored is not scored.passed_over
        for trick in deal.tricks:
            event = got.trick(trick.trick - 1)
            assert trick.replayed == (event is not None)
            if event is not None:
                assert (trick.winner, trick.why, trick.scored) == (event.seat, event.why, isinstance(event, TrickWon))


def test_an_oh_hell_score_sheet_is_scored_from_its_bids_and_taken() -> None:
    """A hand recorded without tricks: the referee scores it from the bids and the tricks taken (not as the
    scorer's points), and tells so: a DealScored not passed over, with the sheet's tricks taken."""
    path = ROOT / "tests" / "golden" / "inputs" / "score-sheet-oh-hell.json"
    record = read(path)
    _, told = referee_events(record)
    assert told
    for got, deal in zip(told, record.deals, strict=False):
        assert got.scored is not None and not got.scored.passed_over
        assert got.scored.taken == tuple(deal.taken)
        assert not got.tricks and got.begins is not None and got.begins.hands is None


def test_an_oh_hell_hand_given_up_at_a_revoke() -> None:
    """The referee tells of the tricks from the revoke on (TrickShown, by the deal's follow rule) and passes
    the hand over as recorded (given up)."""
    path = ROOT / "tests" / "golden" / "inputs" / "oh-hell-revoke.json"
    _, told = referee_events(read(path))
    faulty = [d for d in told if d.scored is not None and d.scored.given_up]
    assert faulty and all(d.shown and d.scored is not None and d.scored.passed_over for d in faulty)


def test_an_improper_deal_has_no_hands_and_no_tricks() -> None:
    """A deal whose hands are not a proper deal is not dealt: no hands told, no trick replayed, its points
    taken as recorded (given up)."""
    path = INVALID / "duplicate-card.json"
    _, told = referee_events(read(path))
    faulty = [d for d in told if d.scored is not None and d.scored.given_up]
    assert faulty and all(d.begins is None and not d.tricks and not d.shown for d in faulty)


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
    from phatlog.engine.state import Phase
    from phatlog.rules.cards import DECK

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
