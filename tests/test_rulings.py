"""Format 1.1's rulings (issue 11): claims, ruled revokes, misdeals, adjustments and concessions, as the
referees apply and check them, and the version a writer puts in a record."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any, Final

import pytest

from phatlog.api import replay, start, verify
from phatlog.diagnostics import Severity
from phatlog.formats import csv_sheet, openspiel, text
from phatlog.formats.base import ConversionError
from phatlog.record import model

ROOT: Final = Path(__file__).resolve().parent.parent
RULING_SAMPLES: Final = sorted((ROOT / "samples" / "rulings").glob("*.json"))
P4: Final = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cal"}, {"name": "Dee"}]
REVOKE: Final[list[dict[str, Any]]] = [
    {"leader": 0, "cards": ["AD", "2D", "9D", "3C"]},
    {"leader": 0, "cards": ["KD", "5D", "8D", "3D"]},
]

Record = dict[str, Any]


def _codes(record: Record | Path) -> list[str]:
    return [d.code for d in verify(record).diagnostics]


def _serious(record: Record | Path) -> list[str]:
    return [d.code for d in verify(record).diagnostics if d.severity is not Severity.INFO]


def _phat(deals: list[Record], result: Record | None = None, **rules: Any) -> Record:
    return {
        "phatlog": "1.1",
        "game": "phat",
        "rules": rules,
        "players": P4,
        "deals": deals,
        "result": result or {"status": "unfinished"},
    }


def _sample(name: str, version: str | None = None) -> Record:
    """A sample game; with ``version``, that format version (1.1, to add a ruling: a 1.0 record has none)."""
    data: Record = json.loads((ROOT / "samples" / "games" / name).read_text(encoding="utf-8"))
    if version is not None:
        data["phatlog"] = version
    return data


def test_there_are_ruling_samples_of_every_kind_in_every_game() -> None:
    names = {p.stem for p in RULING_SAMPLES}
    for game in ("phat", "nine-card-don", "irish-don", "oh-hell"):
        for kind in ("revoke-penalty-1", "misdeal", "adjustment", "conceded"):
            assert f"{game}-{kind}" in names
    for game in ("phat", "nine-card-don", "irish-don", "oh-hell"):
        for kind in ("claim", "claim-unsound", "claim-partly-played"):  # sound, unsound, mid-trick
            assert f"{game}-{kind}" in names


@pytest.mark.parametrize("path", RULING_SAMPLES, ids=lambda p: p.name)
def test_every_ruling_sample_verifies_clean_and_shows_its_rulings(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["phatlog"] == "1.1" and model.version_for(record) == "1.1"
    found = verify(path).diagnostics
    unsound = ["PL316"] if path.stem.endswith("claim-unsound") else []  # a warning: still clean (exit 0)
    assert [d.code for d in found if d.severity is not Severity.INFO] == unsound
    if "claim" in path.stem:  # every claim sample has its hands: the audit runs
        assert "PL318" not in [d.code for d in found]
    if path.stem.endswith("claim-partly-played"):
        deal = next(d for d in record["deals"] if d.get("rulings"))
        assert len(deal["tricks"][-1]["cards"]) < len(record["players"])
    if "revoke" in path.stem:
        assert "PL310" in [d.code for d in found]
    if "conceded" not in path.stem:
        notes = [n for d in replay(path)["deals"] for n in d["notes"]]
        assert any(n.startswith("ruling: ") for n in notes), notes


def test_a_ruled_revoke_stands_and_an_unruled_one_is_still_an_error() -> None:
    ruled = _phat([{"dealer": 3, "tricks": REVOKE, "rulings": [{"kind": "revoke", "trick": 1, "seat": 3}]}])
    assert _serious(ruled) == []
    assert "PL310" in _codes(ruled)
    unruled = copy.deepcopy(ruled)
    unruled["deals"][0]["rulings"] = [{"kind": "adjustment", "side": 0, "points": 0}]
    assert _serious(unruled) == ["PL303", "PL307"]


def test_the_revoke_penalty_is_pegged_at_the_end_of_the_deal_and_the_law_fixes_it() -> None:
    deal = {"dealer": 3, "tricks": REVOKE, "score": {"points": [1, 0], "total": [1, 0]}}
    # Two tricks of the pitcher's diamonds, no counter among them but the ace (4) and king (3) to Ann & Cal.
    base = _phat([{**deal, "rulings": [{"kind": "revoke", "trick": 1, "seat": 3}]}])
    got = verify(base)
    assert got.totals is None or got.totals  # scored (totals known or not) without an error
    law = _phat([{**deal, "rulings": [{"kind": "revoke", "trick": 1, "seat": 3}]}], revoke_penalty=1)
    director = _phat(
        [{**deal, "rulings": [{"kind": "revoke", "trick": 1, "seat": 3, "penalty": {"side": 0, "points": 1}}]}]
    )
    wrong = _phat(
        [{**deal, "rulings": [{"kind": "revoke", "trick": 1, "seat": 3, "penalty": {"side": 0, "points": 2}}]}],
        revoke_penalty=1,
    )
    assert verify(law).totals == verify(director).totals == verify(wrong).totals
    assert "PL314" in _codes(wrong) and "PL314" not in _codes(law) and "PL314" not in _codes(director)


def test_a_revoke_ruling_where_no_revoke_was_made_is_an_error() -> None:
    clean = copy.deepcopy(REVOKE)
    clean[1] = {"leader": 0, "cards": ["KD", "5D", "8D", "3H"]}
    record = _phat([{"dealer": 3, "tricks": clean, "rulings": [{"kind": "revoke", "trick": 2, "seat": 1}]}])
    assert _serious(record) == ["PL312"]
    beyond = _phat([{"dealer": 3, "tricks": clean, "rulings": [{"kind": "revoke", "trick": 5, "seat": 1}]}])
    assert _serious(beyond) == ["PL311"]


def test_a_misdeal_is_void_and_the_same_dealer_deals_again() -> None:
    game = _sample("phat-181.json", "1.1")
    void = {"dealer": game["deals"][1]["dealer"], "rulings": [{"kind": "misdeal"}]}
    redealt = copy.deepcopy(game)
    redealt["deals"].insert(1, void)
    assert _serious(redealt) == []
    rotated = copy.deepcopy(redealt)
    rotated["deals"][1]["dealer"] = (void["dealer"] + 3) % 4  # the misdeal by the seat before
    assert "PL202" in _serious(rotated)
    played = copy.deepcopy(redealt)
    played["deals"][1]["tricks"] = game["deals"][1]["tricks"][:1]
    assert _serious(played) == ["PL315"]


def test_an_adjustment_is_added_after_the_deal_and_can_peg_a_side_out() -> None:
    sheet = [
        {"dealer": (3 + d) % 4, "score": {"points": [44, 44], "total": [44 * (d + 1), 44 * (d + 1)]}} for d in range(4)
    ]
    adjusted = _phat(sheet, {"winner": [0], "total": [181, 176]})
    adjusted["deals"].append(
        {
            "dealer": 3,
            "score": {"points": [5, 0], "total": [181, 176]},
            "rulings": [
                {"kind": "misdeal"},
                {"kind": "adjustment", "side": 0, "points": 5, "reason": "Ben's slow play"},
            ],
        }
    )
    assert _serious(adjusted) == []
    assert verify(adjusted).winner == [0]
    played = _sample("phat-181.json", "1.1")
    played["deals"][0]["rulings"] = [{"kind": "adjustment", "side": 1, "points": -3}]
    codes = _serious(played)
    assert "PL401" in codes and "PL402" in codes  # the recorded points must include the adjustment


def test_a_claim_for_the_rest_gives_the_unplayed_cards_to_the_claimers_side() -> None:
    game = _sample("phat-181.json")
    shown = replay(game)["deals"][0]["tricks"]
    assert {t["winner"] % 2 for t in shown[11:]} == {1}  # Ben & Dee took the last two tricks
    claimed = copy.deepcopy(game)
    claimed["phatlog"] = "1.1"
    claimed["deals"][0]["tricks"] = game["deals"][0]["tricks"][:11]
    claimed["deals"][0]["rulings"] = [{"kind": "claim", "seat": shown[11]["winner"], "tricks": "rest"}]
    assert _serious(claimed) == []
    assert verify(claimed).totals == verify(game).totals
    wrong_side = copy.deepcopy(claimed)
    wrong_side["deals"][0]["rulings"][0]["seat"] = (shown[11]["winner"] + 1) % 4
    assert "PL401" in _serious(wrong_side)
    cut = copy.deepcopy(claimed)
    del cut["deals"][0]["rulings"]
    assert "PL306" in _serious(cut)
    unknown = copy.deepcopy(claimed)
    del unknown["deals"][0]["hands"]  # the unplayed cards are not known: the score is checked as a sheet's
    assert _serious(unknown) == []
    assert "PL406" in _codes(unknown)


def test_a_contested_claim_is_checked_as_a_score_sheet_and_too_many_tricks_is_an_error() -> None:
    game = _sample("phat-181.json", "1.1")
    contested = copy.deepcopy(game)
    contested["deals"][0]["tricks"] = game["deals"][0]["tricks"][:11]
    contested["deals"][0]["rulings"] = [{"kind": "claim", "seat": 1, "tricks": 2, "accepted": False, "decision": 1}]
    assert _serious(contested) == []
    contested["deals"][0]["rulings"][0]["decision"] = 3
    assert _serious(contested) == ["PL313"]


@pytest.mark.parametrize(
    ("result", "codes"),
    [
        ({"status": "conceded", "by": 1, "winner": [0]}, []),
        ({"status": "conceded", "by": 1}, []),
        ({"status": "conceded", "by": 0, "winner": [0]}, ["PL410"]),
        ({"status": "conceded"}, ["PL410"]),
        ({"status": "forfeited", "by": 2, "winner": [1]}, []),
        ({"status": "abandoned"}, []),
        ({"status": "abandoned", "winner": [1]}, ["PL410"]),
        ({"status": "conceded", "by": 6}, ["PL311"]),
    ],
)
def test_a_conceded_game_may_stop_anywhere_and_its_winner_is_checked(result: Record, codes: list[str]) -> None:
    record = _phat([{"dealer": 3, "score": {"points": [30, 50], "total": [30, 50]}}], result)
    assert _serious(record) == codes


def test_oh_hell_rulings() -> None:
    game = _sample("oh-hell-default-3p.json", "1.1")
    conceded = copy.deepcopy(game)
    conceded["deals"] = game["deals"][:3]
    conceded["result"] = {"status": "conceded", "by": 2, "winner": [2]}
    assert _serious(conceded) == ["PL410"]
    conceded["result"] = {"status": "conceded", "by": 2, "winner": [0]}
    assert _serious(conceded) == []
    void = copy.deepcopy(game)
    void["deals"].insert(2, {"dealer": game["deals"][2]["dealer"], "rulings": [{"kind": "misdeal"}]})
    assert _serious(void) == []  # the redeal keeps the hand's place in the schedule


def test_writers_keep_1_0_unless_a_1_1_feature_is_used() -> None:
    state = start("phat", ["A", "B", "C", "D"], {})
    assert state.record()["phatlog"] == "1.0"
    assert model.version_for(_sample("phat-181.json")) == "1.0"
    assert model.version_for({"rules": {"revoke_penalty": 1}}) == "1.1"
    assert model.version_for({"rules": {"revoke_penalty": None}}) == "1.0"
    assert model.version_for({"result": {"status": "abandoned"}}) == "1.1"
    assert model.version_for({"deals": [{"dealer": 0, "rulings": [{"kind": "misdeal"}]}]}) == "1.1"
    assert model.version_for({"event": {"table": "2"}, "players": [{"name": "A", "id": "a"}]}) == "1.0"


def test_1_0_and_1_1_are_read_and_1_2_is_refused() -> None:
    game = _sample("phat-181.json")
    assert _serious(game) == []
    assert _serious({**game, "phatlog": "1.1"}) == []
    assert _serious({**game, "phatlog": "1.2"}) == ["PL005"]


# ------------------------------------------------------------------------------------------ formats


def _canonical(record: Record) -> Record:
    out = {k: v for k, v in record.items() if k != "rules" or v}
    return out


@pytest.mark.parametrize("path", RULING_SAMPLES, ids=lambda p: p.name)
def test_the_text_notation_carries_every_ruling(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    written = text.dumps(record)
    (back,) = list(text.loads(written))
    assert back.record is not None, back.diagnostics
    assert _canonical(back.record) == _canonical(record)


def test_the_text_notation_has_a_short_form_for_each_ruling() -> None:
    typed = """[Game "phat"] [Player Ann] [Player Ben] [Player Cal] [Player Dee] [Status conceded] [By 1]
deal 1 dealer Dee misdeal
deal 2 dealer Dee 1. AD 2D 9D 3C 2. Ann: KD 5D 8D 3D revoke 1 Dee claim Ann rest adjust 1 -2
  ruling {"kind": "revoke", "trick": 2, "seat": 3, "penalty": {"side": 0, "points": 1}, "by": "TD"}
"""
    (parsed,) = list(text.loads(typed))
    assert parsed.record is not None, parsed.diagnostics
    record = parsed.record
    assert record["phatlog"] == "1.1" and record["result"] == {"status": "conceded", "by": 1}
    assert record["deals"][0]["rulings"] == [{"kind": "misdeal"}]
    assert record["deals"][1]["rulings"] == [
        {"kind": "revoke", "trick": 1, "seat": 3},
        {"kind": "claim", "seat": 0, "tricks": "rest"},
        {"kind": "adjustment", "side": 1, "points": -2},
        {"kind": "revoke", "trick": 2, "seat": 3, "penalty": {"side": 0, "points": 1}, "by": "TD"},
    ]
    again = text.dumps(record)
    assert "  misdeal\n" in again and "  revoke 1 Dee\n" in again and "  claim Ann rest\n" in again
    assert "  adjust 1 -2\n" in again and '  ruling {"kind": "revoke"' in again and '[By "1"]' in again


@pytest.mark.parametrize("kind", ["misdeal", "adjustment", "conceded"])
def test_a_csv_score_sheet_carries_adjustments_misdeals_and_concessions(kind: str) -> None:
    record = json.loads((ROOT / "samples" / "rulings" / f"phat-{kind}.json").read_text(encoding="utf-8"))
    sheet = csv_sheet.dumps(record, lossy=True)
    (back,) = list(csv_sheet.loads(sheet))
    assert back.record is not None, back.diagnostics
    assert back.record["phatlog"] == "1.1"
    assert [d.get("rulings") for d in back.record["deals"]] == [d.get("rulings") for d in record["deals"]]
    assert back.record.get("result") == record.get("result")
    assert _serious(back.record) == []


def test_a_csv_sheet_keeps_oh_hells_schedule_across_a_misdeal() -> None:
    record = json.loads((ROOT / "samples" / "rulings" / "oh-hell-misdeal.json").read_text(encoding="utf-8"))
    (back,) = list(csv_sheet.loads(csv_sheet.dumps(record, lossy=True)))
    assert back.record is not None, back.diagnostics
    assert _serious(back.record) == []


def test_openspiel_export_refuses_a_hand_with_rulings() -> None:
    record = json.loads((ROOT / "samples" / "rulings" / "oh-hell-adjustment.json").read_text(encoding="utf-8"))
    record["rules"] = {"hook": True, "miss": "tricks"}
    with pytest.raises(ConversionError) as caught:
        openspiel.render(record, deal=0)
    assert ("PL703", "/deals/0/rulings") in [(d.code, d.pointer) for d in caught.value.diagnostics]


def test_the_replay_says_how_a_conceded_game_ended() -> None:
    end = replay(ROOT / "samples" / "rulings" / "phat-conceded.json")["end"]
    assert end["text"] == "The game was conceded by Ben & Dee; the result names Ann & Cal"


@pytest.mark.parametrize("name", ["oh-hell-revoke-penalty-1", "phat-revoke-penalty-1", "oh-hell-adjustment"])
def test_each_peg_of_a_ruling_is_told_with_the_totals_after_it(name: str) -> None:
    """Penalties and adjustments are steps of the score race in every game: each Ruled event carries the
    game's totals just after it (two pegs of one deal, two different totals), and the deal's score ends
    where its last peg left it."""
    from phatlog.referee.heard import referee_events

    record = json.loads((ROOT / "samples" / "rulings" / f"{name}.json").read_text(encoding="utf-8"))
    verdict, deals = referee_events(model.RECORD_ADAPTER.validate_python(record))
    assert not [d for d in verdict.diagnostics if d.severity is not Severity.INFO]
    told = 0
    for deal in deals:
        pegs = [r for r in deal.rulings if r.kind in ("revoke", "adjustment")]
        for before, peg in itertools.pairwise(pegs):
            assert peg.totals is not None and before.totals is not None
            assert [a - b for a, b in zip(peg.totals, before.totals, strict=True)] == [
                peg.points if side == peg.side else 0 for side in range(len(peg.totals))
            ]
        if pegs:
            told += len(pegs)
            assert deal.scored is not None and pegs[-1].totals == deal.scored.totals
    assert told >= 1


RULING_ERRORS = [
    ({"kind": "phat", "seat": 0}, "PL108", "/kind", 'unknown ruling kind "phat": a ruling is one of'),
    ({"seat": 0, "tricks": 1}, "PL101", "/kind", "the key 'kind' is required: a ruling is one of"),
    ({"kind": "claim", "seat": 0, "tricks": -1}, "PL108", "/tricks", "'tricks' is -1"),
    ({"kind": "revoke", "seat": 0, "trick": "x"}, "PL103", "/trick", "'trick' must be an integer"),
    ({"kind": "adjustment", "side": "x", "points": 1}, "PL103", "/side", "'side' must be an integer"),
    ({"kind": "claim", "seat": 0, "tricks": 1, "extra": 1}, "PL102", "/extra", "unknown key 'extra'"),
    ({"kind": "revoke", "seat": 0, "trick": 1, "tricks": 1}, "PL102", "/tricks", "did you mean 'trick'?"),
    ({"kind": "revoke", "seat": 0, "trick": 1, "penalty": {"side": "x", "points": 1}}, "PL103", "/penalty/side", ""),
]


@pytest.mark.parametrize(("ruling", "code", "where", "words"), RULING_ERRORS)
@pytest.mark.parametrize("notation", ["json", "text", "csv"])
def test_a_ruling_error_is_at_its_fields_pointer_in_the_rulings_words(
    ruling: dict[str, Any], code: str, where: str, words: str, notation: str
) -> None:
    """Never "unknown game" for a ruling's kind, never the kind's name as the place: the field itself, in
    JSON, in the text notation (its ``ruling {...}`` item) and in a CSV sheet's rulings cell."""
    from phatlog.formats import FORMATS

    record = json.loads((ROOT / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    record["phatlog"] = "1.1"
    record["deals"][1]["rulings"] = [{"kind": "adjustment", "side": 0, "points": 1}]
    good = json.dumps(record["deals"][1]["rulings"][0])
    if notation == "json":
        record["deals"][1]["rulings"] = [ruling]
        data = json.dumps(record).encode()
    elif notation == "text":
        written = FORMATS["text"].dumps(record, lossy=True)
        lines = [line for line in written.splitlines() if line.strip().startswith("adjust")]
        assert lines, written
        data = written.replace(lines[0].strip(), "ruling " + json.dumps(ruling)).encode()
    else:
        written = FORMATS["csv"].dumps(record, lossy=True)
        assert good.replace('"', '""') in written, written
        data = written.replace(good.replace('"', '""'), json.dumps(ruling).replace('"', '""')).encode()
    found = [d for parsed in FORMATS[notation].loads(data, "x") for d in parsed.diagnostics]
    assert any(d.code == code and d.pointer == "/deals/1/rulings/0" + where and words in d.message for d in found), (
        found
    )
    assert not any(d.code == "PL107" or d.pointer == "/game" for d in found), found


def test_a_sheet_deal_whose_points_leave_out_a_ruling_names_the_ruling() -> None:
    """40-40 is a tied muck's score, so "or 80 when the muck is tied" alone contradicted itself: the cause is
    the adjustment, which the recorded points include; the message says so."""
    record: Record = json.loads((ROOT / "tests" / "golden" / "inputs" / "score-sheet-phat.json").read_text("utf-8"))
    record["phatlog"] = "1.1"
    record["deals"][0]["score"]["points"] = [40, 40]
    record["deals"][0]["rulings"] = [{"kind": "adjustment", "side": 1, "points": 3}]
    (found,) = [d for d in verify(record).diagnostics if d.code == "PL401"]
    assert found.message.endswith(
        "; the recorded points include what the deal's rulings peg (+3 to Ben & Dee), so the deal's own play "
        "pegged 40-37"
    )
