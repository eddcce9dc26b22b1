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

from phatlog.api import verify
from phatlog.cli.app import app
from phatlog.diagnostics import Severity
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Card, Suit
from phatlog.rules.trick import FollowRule, legal_plays, winning_position
from phatlog.solver import c_available
from phatlog.solver.claims import solve_claim

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
    if state is None or (state.trump is None and not isinstance(state, OhHellState)):
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
        found = solve_claim(
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
    too_many = _phat_claimed(3, 0, 11)  # 10 tricks remain: PL313, and no audit of an impossible claim
    assert [d.code for d in verify(too_many).diagnostics if d.code.startswith("PL31")] == ["PL313"]


def test_a_claim_without_hands_or_cards_could_not_be_checked() -> None:
    record = _phat_claimed(11, 0, "rest")
    del record["deals"][0]["hands"]
    (note,) = _found(record, "PL318")
    assert note.severity is Severity.INFO
    assert "the hands are not recorded" in note.message
    assert not _found(record, "PL316")


@pytest.mark.parametrize("engine", ["c", "python"])
def test_the_audit_stops_at_its_budget(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim whose audit would search more than ``AUDIT_NODES`` positions is left unchecked (PL318,
    saying so) rather than stalling ``verify``: the same record is judged in full with the budget it
    needs, and the solver's table is as good afterwards (the same verdict again)."""
    from phatlog.solver import claims, search

    if engine == "c" and not c_available():
        pytest.skip("the C solver is not built")
    monkeypatch.setattr(search, "_c_solve", search._c_solve if engine == "c" else None)
    early = _phat_claimed(1, 0, 7)  # after the first trick: 12 tricks to solve
    monkeypatch.setattr(claims, "AUDIT_NODES", 200)
    monkeypatch.setattr(claims, "AUDIT_NODES_PYTHON", 200)
    (note,) = _found(early, "PL318")
    assert note.severity is Severity.INFO
    assert note.message == (
        "Ann's claim could not be checked against the cards: with 12 tricks left the audit did not reach a "
        "verdict within its limit (200 positions searched)"
    )
    assert not _found(early, "PL316") and not _found(early, "PL317")
    late = _phat_claimed(11, 0, "rest")
    monkeypatch.setattr(claims, "AUDIT_NODES", 10**9)
    monkeypatch.setattr(claims, "AUDIT_NODES_PYTHON", 10**9)
    (warning,) = _found(late, "PL316")
    assert warning.message.endswith("Dee wins")
    with pytest.raises(search.SearchBudget):
        solve_claim(*_position(late), budget=5)
    assert solve_claim(*_position(late), budget=None).least == 0  # as the PL316 says


def _position(record: Record) -> tuple[list[list[str]], list[str], int, int, FollowRule, int, int, int, bool]:
    """The arguments of ``solve_claim`` for Ann's claim after trick 11 of ``_phat_claimed``'s deal."""
    deal = record["deals"][0]
    held = [set(h) for h in deal["hands"]]
    for trick in deal["tricks"]:
        for i, card in enumerate(trick["cards"]):
            held[(trick["leader"] + i) % 4].discard(card)
    trump = "CDHS".index(deal["tricks"][0]["cards"][0][-1])
    leader = deal["tricks"][-1]["winner"]
    return ([sorted(h) for h in held], [], leader, trump, FollowRule.FOLLOW_OR_TRUMP, 0, 2, 11, True)


def test_an_unsound_claim_whose_line_runs_out_of_budget_still_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The defeating line has a budget of its own; where it runs out the warning stands, without it."""
    from phatlog.solver import claims, search

    def spent(*args: Any) -> Any:
        raise search.SearchBudget("spent")

    monkeypatch.setattr(claims, "_line", spent)
    (warning,) = _found(_phat_claimed(11, 0, "rest"), "PL316")
    assert warning.message.endswith(
        "could hold Ann & Cal to 0: the line of play was not worked out within the audit's limit"
    )


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


# ---------------------------------------------------------------------------- a partly played trick


def _phat_partial(cards: int, seat: int | None) -> Record:
    """phat-181's first deal cut in trick 12 after ``cards`` cards, claimed for the rest by ``seat``
    (None: no claim)."""
    record = _phat_claimed(12, seat or 0, "rest")
    deal = record["deals"][0]
    deal["tricks"][11]["cards"] = deal["tricks"][11]["cards"][:cards]
    deal["tricks"][11].pop("winner", None)
    if seat is None:
        del deal["rulings"]
    record["deals"] = record["deals"][:1]
    record["result"] = {"status": "unfinished"}
    return record


def test_a_claim_may_follow_a_partly_played_trick() -> None:
    game: Record = json.loads((ROOT / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    for cards in (1, 2, 3):
        record = _phat_partial(cards, 3)  # Ben & Dee took the last two tricks: Dee claims the rest
        found = verify(record)
        assert [d.code for d in found.diagnostics if d.severity is not Severity.INFO] == []
        assert found.totals == game["deals"][0]["score"]["total"]  # the claim takes the trick in progress too


def test_the_audit_starts_from_the_card_in_progress() -> None:
    (found,) = _found(_phat_partial(2, 0), "PL316")  # Ann claims; Dee's JH is already on the table
    assert "trick 12: Cal leads 3H, Dee JH, Ann" in found.message
    assert "of the 2 tricks left" in found.message  # the trick in progress counts among those left


@pytest.mark.parametrize("where", ["last-without-claim", "not-last"])
def test_any_other_short_trick_stays_the_error_it_was(where: str) -> None:
    if where == "last-without-claim":
        record = _phat_partial(2, None)
        pointer = "/deals/0/tricks/11/cards"
    else:
        record = _phat_partial(4, 3)
        record["deals"][0]["tricks"][5]["cards"] = record["deals"][0]["tricks"][5]["cards"][:3]
        pointer = "/deals/0/tricks/5/cards"
    found = verify(record)
    assert [(d.code, d.pointer) for d in found.diagnostics] == [("PL105", pointer)]  # refused as by format 1.0
    count = 2 if where == "last-without-claim" else 3
    assert found.diagnostics[0].message == f"the trick has {count} item(s); phat needs at least 4 here"


def test_oh_hell_partly_played_trick_before_a_claim() -> None:
    record: Record = json.loads((ROOT / "samples" / "rulings" / "oh-hell-claim.json").read_text(encoding="utf-8"))
    full: Record = json.loads((ROOT / "samples" / "games" / "oh-hell-default-3p.json").read_text(encoding="utf-8"))
    d = next(i for i, x in enumerate(record["deals"]) if x.get("rulings"))
    n = len(record["deals"][d]["tricks"])
    nxt = full["deals"][d]["tricks"][n]
    record["deals"][d]["tricks"].append({"leader": nxt["leader"], "cards": nxt["cards"][:1]})
    assert [x.code for x in verify(record).diagnostics if x.severity is not Severity.INFO] == []
    assert verify(record).totals == verify(full).totals
    del record["deals"][d]["rulings"]
    assert ("PL105", f"/deals/{d}/tricks/{n}/cards") in [(x.code, x.pointer) for x in verify(record).diagnostics]


def test_oh_hell_a_trick_short_of_the_players_is_pl207_unless_a_claim_follows() -> None:
    game: Record = json.loads((ROOT / "samples" / "games" / "oh-hell-default-5p.json").read_text(encoding="utf-8"))
    game["phatlog"] = "1.1"
    d = next(i for i, x in enumerate(game["deals"]) if len(x.get("tricks") or ()) >= 4)
    game["deals"] = game["deals"][: d + 1]
    game["result"] = {"status": "unfinished"}
    deal = game["deals"][d]
    third = deal["tricks"][2]
    deal["tricks"] = [*deal["tricks"][:2], {"leader": third["leader"], "cards": third["cards"][:3]}]
    deal.pop("score", None)
    found = [(x.code, x.pointer) for x in verify(game).diagnostics if x.severity is Severity.ERROR]
    assert found == [("PL207", f"/deals/{d}/tricks/2/cards")]
    deal["rulings"] = [{"kind": "claim", "seat": 0, "tricks": 0, "accepted": False, "decision": 0}]
    assert [x.code for x in verify(game).diagnostics if x.code == "PL207"] == []


def test_the_text_notation_carries_a_partly_played_trick() -> None:
    from phatlog.formats import text

    record = _phat_partial(2, 3)
    written = text.dumps(record)
    assert "  12. Cal: 3H JH\n  claim Dee rest\n" in written
    (parsed,) = list(text.loads(written))
    assert parsed.errors == [] and parsed.record is not None
    assert parsed.record["deals"][0]["tricks"][11] == {"leader": 2, "cards": ["3H", "JH"]}


# ---------------------------------------------------------------------------- score-sheet deals


def _sheet(rulings: list[Record]) -> Record:
    return {
        "phatlog": "1.1",
        "game": "phat",
        "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cal"}, {"name": "Dee"}],
        "deals": [{"dealer": 3, "score": {"points": [30, 50], "total": [30, 50]}, "rulings": rulings}],
        "result": {"status": "unfinished"},
    }


def test_rulings_on_a_score_sheet_deal() -> None:
    revoke = verify(_sheet([{"kind": "revoke", "trick": 3, "seat": 1, "penalty": {"side": 0, "points": 2}}]))
    assert [(d.code, d.pointer) for d in revoke.diagnostics if d.severity is Severity.ERROR] == [
        ("PL311", "/deals/0/rulings/0/trick")
    ]
    assert revoke.totals == [30, 50]  # nothing pegged for a revoke that cannot be matched
    (claim,) = [d for d in verify(_sheet([{"kind": "claim", "seat": 0, "tricks": 3}])).diagnostics if d.code == "PL318"]
    assert "the deal records no cards" in claim.message
    adjusted = verify(_sheet([{"kind": "adjustment", "side": 0, "points": -8}]))  # 38-50 played, then -8
    assert [d.code for d in adjusted.diagnostics if d.severity is Severity.ERROR] == []
    assert adjusted.totals == [30, 50]
    wrong = verify(_sheet([{"kind": "adjustment", "side": 0, "points": -5}]))  # 35-50: no deal pegs 85
    assert [d.code for d in wrong.diagnostics if d.severity is Severity.ERROR] == ["PL401"]


# ---------------------------------------------------------------------------- the replay


def test_the_replay_shows_each_ruling_where_it_applied() -> None:
    from phatlog.api import replay

    shown = replay(ROOT / "samples" / "rulings" / "phat-claim-partly-played.json")
    deal = next(d for d in shown["deals"] if "rulings" in d)
    (claim,) = deal["rulings"]
    assert (claim["kind"], claim["seat"], claim["audit"], claim["audit_note"]) == ("claim", 3, "sound", None)
    assert claim["trick"] == deal["tricks"][-1]["trick"] and claim["settled"][0] == claim["trick"]
    assert deal["tricks"][-1]["why"] == "claimed" and len(deal["tricks"][-1]["cards"]) < 4
    assert deal["tricks"][-1]["notes"] == ["ruling: Dee claims the rest: tricks 12-13, sound"]
    assert all("rulings" not in d for d in shown["deals"] if d is not deal)  # as before, without rulings

    unsound = replay(ROOT / "samples" / "rulings" / "irish-don-claim-unsound.json")
    (claim,) = next(d for d in unsound["deals"] if "rulings" in d)["rulings"]
    assert claim["audit"] == "unsound" and claim["audit_note"].startswith("Ann's claim of 2 of the 2 tricks left")

    revoked = replay(ROOT / "samples" / "rulings" / "phat-revoke-penalty-1.json")
    deal = revoked["deals"][0]
    assert [(r["kind"], r["trick"], r["seat"], r["points"]) for r in deal["rulings"]] == [("revoke", 1, 3, 1)]
    assert "ruling: a revoke here stands as played" in deal["tricks"][0]["notes"]

    conceded = replay(ROOT / "samples" / "rulings" / "oh-hell-conceded.json")
    last = conceded["deals"][-1]["rulings"][-1]
    assert (last["kind"], last["seat"]) == ("concession", 1)


def _every_deal_claimed(cut: int) -> Record:
    """phat-181 with every deal claimed ("rest") by the seat to play after ``cut`` tricks."""
    game: Record = json.loads((ROOT / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    game["phatlog"] = "1.1"
    game.pop("result", None)
    for deal in game["deals"]:
        deal["tricks"] = deal["tricks"][:cut]
        deal["rulings"] = [{"kind": "claim", "seat": 0, "tricks": "rest"}]
    return game


def test_a_records_claims_and_a_runs_share_a_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the positions a record's claims may search together, its claims left are PL318 ("the audit
    budget for this record is spent"); the next record starts afresh; past the run's, every claim is."""
    from phatlog.referee import claim_budget
    from phatlog.solver import claims

    monkeypatch.setattr(claims, "AUDIT_NODES", 300)
    monkeypatch.setattr(claims, "AUDIT_NODES_PYTHON", 300)
    monkeypatch.setattr(claim_budget, "RECORD_CLAIMS", 2)
    monkeypatch.setattr(claim_budget, "RUN_CLAIMS", 10**6)
    monkeypatch.setattr(claim_budget, "SPENT", claim_budget.Spent())
    claim_budget.begin_run()
    record = _every_deal_claimed(4)  # deals 1 and 2 spend 300 positions each; the game is won in deal 3
    for _ in range(2):  # and again: each record has its own account
        spent = [d for d in _found(record, "PL318") if "spent" in d.message]
        assert [d.pointer for d in spent] == ["/deals/2/rulings/0"]
        assert spent[0].message == (
            "Ann's claim could not be checked against the cards: the audit budget for this record is spent"
        )
    monkeypatch.setattr(claim_budget, "RUN_CLAIMS", 4)  # the two records spent 4 claims' worth: none is left
    again = [d for d in _found(record, "PL318") if "for this run is spent" in d.message]
    assert [d.pointer for d in again] == [f"/deals/{d}/rulings/0" for d in range(3)]
    claim_budget.end_run()
    assert not [d for d in _found(record, "PL318") if "for this run" in d.message]  # no run: the record's own


def test_out_of_memory_in_an_audit_is_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    from phatlog.solver import claims

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(claims, "solve_claim", no_memory)
    (note,) = _found(_phat_claimed(11, 0, "rest"), "PL318")
    assert note.message == "Ann's claim could not be checked against the cards: not enough memory for the audit"


@pytest.mark.parametrize(
    ("sheet", "tricks", "size"), [("score-sheet-phat.json", 15, 13), ("score-sheet-oh-hell.json", 9, 1)]
)
def test_a_score_sheet_claim_for_more_tricks_than_the_hand_has(sheet: str, tricks: int, size: int) -> None:
    """The hand's size is known without the cards: a claim for more is PL313, not an unchecked claim."""
    record: Record = json.loads((ROOT / "tests" / "golden" / "inputs" / sheet).read_text(encoding="utf-8"))
    record["phatlog"] = "1.1"
    record["deals"][0]["rulings"] = [{"kind": "claim", "seat": 0, "tricks": tricks}]
    (found,) = _found(record, "PL313")
    assert found.pointer == "/deals/0/rulings/0/tricks"
    assert found.message == f"the claim is for {tricks} tricks, but {size} remain"
    assert not _found(record, "PL318")
    record["deals"][0]["rulings"] = [{"kind": "claim", "seat": 0, "tricks": 1}]
    assert not _found(record, "PL313") and _found(record, "PL318")


def test_a_claim_after_the_game_was_won_is_said_to_have_no_effect() -> None:
    record: Record = json.loads((ROOT / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    record["phatlog"] = "1.1"
    record["deals"][-1]["rulings"] = [{"kind": "claim", "seat": 0, "tricks": "rest"}]
    (note,) = _found(record, "PL318")
    assert note.severity is Severity.INFO and note.pointer == "/deals/3/rulings/0"
    assert note.message.startswith("Ann's claim has no effect: the game was won in trick 1 of deal 4")


@pytest.mark.parametrize(
    ("ruling", "taken", "message"),
    [
        (
            {"kind": "claim", "seat": 0, "tricks": 1},
            [3, 0, 0],
            "Ann took 1 of the recorded tricks and the claim gives 1 of the 2 left, so 2, but the hand's taken gives 3",
        ),
        (
            {"kind": "claim", "seat": 0, "tricks": 1, "accepted": False, "decision": 1},
            [1, 2, 0],
            "Ann took 1 of the recorded tricks and the decision awards 1 of the 2 left, so 2, but the hand's taken "
            "gives 1",
        ),
        (
            {"kind": "claim", "seat": 0, "tricks": 1, "accepted": False},
            [1, 0, 2],
            None,
        ),
        (
            {"kind": "claim", "seat": 1, "tricks": 1, "accepted": False},
            [1, 0, 3],
            "Cal took 0 of the recorded tricks and 2 were left to the claim, so at most 2, but the hand's taken "
            "gives 3",
        ),
    ],
)
def test_oh_hell_a_claim_lets_no_impossible_score_pass(
    ruling: dict[str, Any], taken: list[int], message: str | None
) -> None:
    """A claim of some tricks, or a contested one, leaves the hand's taken to say who took the rest: the
    claimer's must be what the claim (or the decision) gives, nobody's more than the tricks left allow."""
    record: Record = json.loads((ROOT / "samples" / "games" / "oh-hell-worked-6-1.json").read_text(encoding="utf-8"))
    record["phatlog"] = "1.1"
    deal = record["deals"][0]
    deal["tricks"] = deal["tricks"][:1]  # Ann won the first trick
    deal["rulings"] = [ruling]
    deal["taken"] = taken
    found = [d for d in verify(record).diagnostics if d.code == "PL209"]
    if message is None:
        assert not found
        return
    wrong = found[0]  # (the last case's taken does not add up either: PL209 again, for the hand)
    assert wrong.message == message and wrong.pointer.startswith("/deals/0/taken/")
    (note,) = [d for d in verify(record).diagnostics if d.code == "PL406"]
    assert "a claim settled the rest of the hand" in note.message


def _claimed_before_play(seat: int, tricks: int | str, hands: list[list[str]] | None = None) -> Record:
    """Phat's first deal (dealer Dee, so Ann pitches), claimed before the first card: one deal, no result."""
    record = _phat_claimed(0, seat, tricks)
    record.pop("result", None)
    record["deals"] = record["deals"][:1]
    deal = record["deals"][0]
    del deal["tricks"]
    if hands is not None:
        deal["hands"] = hands
    return record


#: Ann (the pitcher) holds every spade: by pitching a spade Ann & Cal take every trick, Ben & Dee none.
_SPADES: Final = [
    [f"{r}S" for r in "23456789TJQKA"],
    [f"{r}C" for r in "23456789TJQKA"],
    [f"{r}D" for r in "23456789TJQKA"],
    [f"{r}H" for r in "23456789TJQKA"],
]


def test_a_claim_before_the_first_card_is_audited_over_every_lead_the_pitcher_may_make() -> None:
    """The suit of the pitcher's first lead is trump: Cal's claim of every trick stands on Ann's choice of
    a spade, so it is sound; Ben's claim of any trick at all fails against that same choice."""
    record = _claimed_before_play(2, "rest", _SPADES)
    record["deals"][0]["score"] = {"points": [88, 0], "total": [88, 0]}
    found = verify(record).diagnostics
    assert not [d for d in found if d.code in ("PL316", "PL317", "PL318", "PL401", "PL402")], found
    record = _claimed_before_play(1, 1, _SPADES)
    (unsound,) = _found(record, "PL316")
    assert unsound.message.startswith(
        "Ben's claim of 1 of the 13 tricks left was unsound: Ann & Cal could hold Ben & Dee to 0: trick 1: Ann leads"
    )
    assert unsound.message.split("trick 1: Ann leads ")[1][1] == "S"  # the lead that defeats it is a spade


def test_a_claim_before_the_first_card_counts_what_the_pitchers_side_cannot_fail_to_take() -> None:
    """Each seat holds one suit, so whatever Ann pitches, her lead makes her thirteen cards trumps: Cal's
    claim of one trick is an underclaim of thirteen, and Dee's of one is unsound, though Dee holds the
    spades (the pitch is Ann's, not Dee's)."""
    hands = [_SPADES[1], _SPADES[2], _SPADES[3], _SPADES[0]]
    (under,) = _found(_claimed_before_play(2, 1, hands), "PL317")
    assert under.message == "Cal claimed 1 of the 13 tricks left, but Ann & Cal could not fail to take 13"
    (unsound,) = _found(_claimed_before_play(3, 1, hands), "PL316")
    assert unsound.message.startswith("Dee's claim of 1 of the 13 tricks left was unsound: Ann & Cal could hold")


@given(seed=st.integers(0, 10**6), seat=st.integers(0, 3))
@settings(max_examples=examples(25), deadline=None)
def test_the_audit_before_the_first_card_is_plain_minimax_over_the_pitchers_leads(seed: int, seat: int) -> None:
    """Three cards each, the pitcher's lead choosing trump: the audit's sure tricks equal plain minimax in
    which the pitcher chooses the lead (best for the claimer where the pitcher is a partner, worst else)."""
    import random

    from phatlog.solver.claims import solve_claim_before_lead

    rng = random.Random(seed)
    deck = list(CARD_BY_TEXT.values())
    rng.shuffle(deck)
    hands = [set(deck[3 * s : 3 * s + 3]) for s in range(4)]
    pitcher = rng.randrange(4)
    side = [0 if s % 2 == seat % 2 else 1 for s in range(4)]
    options = []
    for lead in sorted(hands[pitcher]):
        rest = [set(h) for h in hands]
        rest[pitcher].discard(lead)
        options.append(brute(rest, [lead], pitcher, Suit(lead // 13), FollowRule.MUST_FOLLOW, side))
    expected = max(options) if side[pitcher] == 0 else min(options)
    texts = [[CARD_TEXT[c] for c in h] for h in hands]
    found = solve_claim_before_lead(texts, pitcher, FollowRule.MUST_FOLLOW, seat, 3)
    assert found.least == expected
    assert found.sound == (expected == 3)


def test_a_rest_claim_before_the_first_card_is_scored_from_the_hands() -> None:
    """Every card goes to the claimer's side: in Phat that is the whole 88, whatever the pitch; a record
    that says otherwise is wrong at its own deal, and says why."""
    record = _claimed_before_play(1, "rest", _SPADES)  # (unsound: Ann's spades take every trick)
    record["deals"][0]["score"] = {"points": [0, 88], "total": [0, 88]}
    assert not _found(record, "PL401") and not _found(record, "PL402")
    record["deals"][0]["score"] = {"points": [8, 80], "total": [8, 80]}
    (wrong,) = _found(record, "PL401")
    assert wrong.pointer == "/deals/0/score/points"
    assert wrong.message == (
        "deal 1 is recorded with 8-80, but the claim gives Ben & Dee every card before the first was played, "
        "and then the deal pegs 0-88, whichever suit Ann pitched"
    )


def test_a_rest_claim_before_the_first_card_in_nine_card_don_takes_the_score_the_pitch_gives() -> None:
    """In Don the awards follow trump (high, low, jack): each suit the pitcher holds scores the deal its own
    way. Each score named in the diagnostic is then accepted."""
    record: Record = json.loads((ROOT / "samples" / "games" / "nine-card-don-91-end-of-deal.json").read_text("utf-8"))
    record["phatlog"] = "1.1"
    record.pop("result", None)
    record["deals"] = record["deals"][:1]
    deal = record["deals"][0]
    del deal["tricks"]
    deal["rulings"] = [{"kind": "claim", "seat": (deal["dealer"] + 1) % 4, "tricks": "rest"}]
    deal["score"] = {"points": [100, 100], "total": [100, 100]}
    (wrong,) = _found(record, "PL401")
    listed = wrong.message.split("the deal pegs ")[1]
    scores = {tuple(int(x) for x in part.split(" ")[0].split("-")) for part in listed.split(", ")}
    assert len(scores) > 1, wrong.message  # the pitch makes a difference in this deal
    for points in scores:
        deal["score"] = {"points": list(points), "total": list(points)}
        assert not _found(record, "PL401") and not _found(record, "PL402"), points


def test_an_oh_hell_claim_before_the_first_card_is_audited_and_settles_the_hand() -> None:
    """Oh Hell's trump is the turned-up card's, so the hand is solved from the first lead: Ann's claim of
    the rest stands (the hand is then scored from it), and Ben's of the rest does not."""
    record: Record = json.loads((ROOT / "samples" / "rulings" / "oh-hell-claim.json").read_text("utf-8"))
    deal = record["deals"][3]
    del deal["tricks"]
    assert not [d for d in verify(record).diagnostics if d.severity is not Severity.INFO or d.code == "PL318"]
    deal["score"]["points"][0] = 0
    (wrong,) = _found(record, "PL401")
    assert wrong.pointer == "/deals/3/score/points/0" and "the rules give 14" in wrong.message
    deal["rulings"][0]["seat"] = 1
    (unsound,) = _found(record, "PL316")
    assert unsound.message.startswith("Ben's claim of 4 of the 4 tricks left was unsound")


def test_a_claim_before_the_first_card_with_no_proper_hands_says_why_it_is_not_audited() -> None:
    """Hands that are not a deal (a card twice) cannot be played: the claim is not audited, and says so."""
    hands = [list(h) for h in _SPADES]
    hands[1][0] = "2S"
    (note,) = _found(_claimed_before_play(0, "rest", hands), "PL318")
    assert note.message == "Ann's claim could not be checked against the cards: its hands are not a proper deal"


def test_an_oh_hell_claim_before_the_first_card_without_its_trump_keeps_the_sheets_tricks_taken() -> None:
    """The turned-up card is not recorded, so the claim cannot be audited (PL318); the hand's tricks taken,
    as its score sheet gives them, still score it, and a wrong point is found."""
    record: Record = json.loads((ROOT / "samples" / "rulings" / "oh-hell-claim.json").read_text("utf-8"))
    deal = record["deals"][3]
    del deal["tricks"], deal["turnup"]
    deal["taken"] = [4, 0, 0]
    (note,) = _found(record, "PL318")
    assert note.pointer == "/deals/3/rulings/0"
    assert not _found(record, "PL401")
    deal["score"]["points"][0] = 15
    (wrong,) = _found(record, "PL401")
    assert wrong.pointer == "/deals/3/score/points/0" and "the rules give 14" in wrong.message
