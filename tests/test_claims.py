"""The claim audit (issue 11): the tricks objective held to plain minimax over the engine's trick rules,
the line of play that defeats an unsound claim, and the diagnostics verify gives (PL316-PL318)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Final

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_analysis import GAMES, ending
from typer.testing import CliRunner

from phatlog.analysis import c_available
from phatlog.analysis.claims import audit_claim
from phatlog.api import verify
from phatlog.cards import CARD_BY_TEXT, CARD_TEXT, Card, Suit
from phatlog.cli import app
from phatlog.diagnostics import Severity
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.tricks import FollowRule, legal_plays, winning_position

ROOT: Final = Path(__file__).resolve().parent.parent
runner = CliRunner()
Record = dict[str, Any]


def brute(
    hands: list[set[Card]], trick: list[Card], leader: int, trump: Suit | None, rule: FollowRule, side: list[int]
) -> int:
    """The tricks side 0 can make sure of from here, by plain minimax over the engine's ``legal_plays`` and
    ``winning_position`` (no tables, no pruning)."""
    seats = len(hands)
    seat = (leader + len(trick)) % seats
    if not hands[seat]:
        return 0
    led = None if not trick else Suit(trick[0] // 13)
    values = []
    for card in legal_plays(hands[seat], led, trump, rule):
        hands[seat].remove(card)
        now = [*trick, card]
        if len(now) == seats:
            winner = (leader + winning_position(now, trump)) % seats
            v = (side[winner] == 0) + brute(hands, [], winner, trump, rule, side)
        else:
            v = brute(hands, now, leader, trump, rule, side)
        hands[seat].add(card)
        values.append(v)
    return max(values) if side[seat] == 0 else min(values)


def _replay_line(
    line: Any, hands: list[set[Card]], trick: list[Card], leader: int, trump: Suit | None, rule: FollowRule
) -> tuple[list[set[Card]], list[Card], int, list[int]]:
    """Play a line on copies of the hands, every card legal; the position after it and the tricks' winners."""
    hands = [set(h) for h in hands]
    trick = list(trick)
    winners = []
    seats = len(hands)
    for p in line[len(trick) :]:
        card = CARD_BY_TEXT[p.card]
        seat = (leader + len(trick)) % seats
        assert p.seat == seat
        led = None if not trick else Suit(trick[0] // 13)
        assert card in legal_plays(hands[seat], led, trump, rule)
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == seats:
            leader = (leader + winning_position(trick, trump)) % seats
            assert p.winner == leader
            winners.append(leader)
            trick = []
    return hands, trick, leader, winners


@pytest.mark.parametrize(("game", "rules", "players"), GAMES, ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(GAMES)])
@given(seed=st.integers(0, 10**6), left=st.integers(1, 3), who=st.integers(0, 6), claim=st.integers(0, 4))
@settings(max_examples=examples(25), deadline=None)
def test_the_claim_audit_is_plain_minimax_over_tricks(
    game: str, rules: dict[str, Any], players: int | None, seed: int, left: int, who: int, claim: int
) -> None:
    state = ending(game, rules, players, seed, left)
    if state is None or state.trump is None and not isinstance(state, OhHellState):
        return
    seats = state.seats
    seat = who % seats
    partners = not isinstance(state, OhHellState)
    side = [0 if (s % 2 == seat % 2 if partners else s == seat) else 1 for s in range(seats)]
    hands = [set(h) for h in state._held]
    trick = list(state.trick)
    trump = state.trump
    rule = state.follow
    least = brute([set(h) for h in hands], trick, state.leader, trump, rule, side)
    texts = [[CARD_TEXT[c] for c in h] for h in hands]
    played = len(state.tricks)
    remaining = (sum(len(h) for h in hands) + len(trick)) // seats
    claimed = min(claim, remaining)
    for engine in ("python", "c") if c_available() else ("python",):
        found = audit_claim(
            texts,
            [CARD_TEXT[c] for c in trick],
            state.leader,
            None if trump is None else int(trump),
            rule,
            seat,
            claimed,
            played,
            partners,
            engine=engine,
        )
        assert (found.least, found.remaining) == (least, remaining)
        assert found.sound == (least >= claimed)
        if found.sound:
            assert found.line == ()
            continue
        # The line: every card legal, the defence takes one trick more than the claim left it, and at
        # every step the position keeps its value (the claimer's side ends with ``least`` tricks).
        assert [p.card for p in found.line[: len(trick)]] == [CARD_TEXT[c] for c in trick]
        after, rest, leader, winners = _replay_line(found.line, hands, trick, state.leader, trump, rule)
        theirs = sum(side[w] for w in winners)
        assert theirs == remaining - claimed + 1 and side[winners[-1]] == 1
        mine = len(winners) - theirs
        assert mine + brute(after, rest, leader, trump, rule, side) == least


# ---------------------------------------------------------------------------- verify


def _phat_claimed(cut: int, seat: int, tricks: int | str) -> Record:
    game: Record = json.loads((ROOT / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    game["phatlog"] = "1.1"
    deal = game["deals"][0]
    deal["tricks"] = deal["tricks"][:cut]
    deal["rulings"] = [{"kind": "claim", "seat": seat, "tricks": tricks}]
    return game


def _found(record: Record, code: str) -> list[Any]:
    return [d for d in verify(record).diagnostics if d.code == code]


def test_an_unsound_claim_is_a_warning_with_the_line_that_defeats_it() -> None:
    record = _phat_claimed(11, 0, "rest")  # Ann claims the last two tricks; Dee's JH takes trick 12
    (found,) = _found(record, "PL316")
    assert found.severity is Severity.WARNING
    assert found.pointer == "/deals/0/rulings/0/tricks"
    assert found.message.startswith("Ann's claim of 2 of the 2 tricks left was unsound: Ben & Dee could hold Ann & Cal")
    assert "trick 12: Cal leads 2H, Dee JH" in found.message and found.message.endswith("Dee wins")


def test_a_sound_claim_says_nothing_and_an_underclaim_is_a_note() -> None:
    sound = _phat_claimed(11, 1, "rest")  # Ben & Dee took both of the last tricks, as they must
    assert not [d for d in verify(sound).diagnostics if d.code in ("PL316", "PL317", "PL318")]
    under = _phat_claimed(3, 0, 4)
    (note,) = _found(under, "PL317")
    assert note.severity is Severity.INFO
    assert note.message == "Ann claimed 4 of the 10 tricks left, but Ann & Cal could not fail to take 5"
    assert not _found(under, "PL316")
    over = _phat_claimed(3, 0, 6)
    (warning,) = _found(over, "PL316")
    assert "could hold Ann & Cal to 5" in warning.message


def test_a_claim_without_hands_or_cards_could_not_be_checked() -> None:
    record = _phat_claimed(11, 0, "rest")
    del record["deals"][0]["hands"]
    (note,) = _found(record, "PL318")
    assert note.severity is Severity.INFO
    assert "the hands are not recorded" in note.message
    assert not _found(record, "PL316")


def test_oh_hell_audits_the_claimer_alone() -> None:
    record: Record = json.loads((ROOT / "samples" / "rulings" / "oh-hell-claim.json").read_text(encoding="utf-8"))
    deal = next(d for d in record["deals"] if d.get("rulings"))
    assert not [d for d in verify(record).diagnostics if d.code == "PL316"]
    bold = copy.deepcopy(record)
    d = record["deals"].index(deal)
    ruling = bold["deals"][d]["rulings"][0]
    ruling["seat"] = (ruling["seat"] + 1) % len(record["players"])
    found = [x for x in verify(bold).diagnostics if x.code in ("PL316", "PL317")]
    assert found, "another seat's claim of the rest is not sound in the sample"


def test_verify_prints_the_unsound_claim_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "claim.json"
    record = _phat_claimed(11, 0, 1)  # a number of tricks: the recorded score is checked as a sheet's
    record["deals"] = record["deals"][:1]
    record["result"] = {"status": "unfinished"}
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output  # a warning leaves the record clean
    assert "warning PL316 claim-unsound: Ann's claim of 1 of the 2 tricks left was unsound" in result.output
    assert "trick 13: Dee leads 9C" in result.output
    record["deals"][0]["rulings"][0]["seat"] = 1
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["verify", "--verbose", str(path)])
    assert result.exit_code == 0, result.output
    assert "PL316" not in result.output and "PL317" in result.output
