"""Write the format 1.1 ruling samples: ``samples/rulings/`` (clean games with rulings) and the rulings'
part of the conformance set (``samples/invalid/rulings-*.json`` and ``expected-rulings.json``).

Run from anywhere: ``.venv/bin/python samples/make_ruling_samples.py``. Deterministic: every clean sample is
made from a bundled 1.0 sample game by a ruling a director could have made on it (a claim of tricks the
claimer's side did take, the same claim made in the middle of its trick, an unsound claim of the rest that
the defence could have defeated (it verifies with the warning PL316 alone), a revoke made by swapping two of
a player's cards, a misdeal redealt, an adjustment, a concession), then scored by the engine. The faulty
records are small, hand-written, and their expected diagnostics are worked out from the fault
(docs/format.md, "Rulings"), not read off the tool.

The ruling samples live apart from ``samples/games`` because the text notation and the CSV sheet do not
carry rulings yet (their round trips run over ``samples/games``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Final

from phatlog.api import replay, verify
from phatlog.diagnostics import Severity
from phatlog.rules.trick import SUIT_BY_TEXT

HERE: Final = Path(__file__).resolve().parent
GAMES: Final = HERE / "games"
OUT: Final = HERE / "rulings"
INVALID: Final = HERE / "invalid"

Record = dict[str, Any]

SOURCES: Final = {
    "phat": "phat-181.json",
    "nine-card-don": "nine-card-don-game-8.json",
    "irish-don": "irish-don-81.json",
    "oh-hell": "oh-hell-default-3p.json",
}

#: Other games to make a sample from where the first has no fitting deal (a claim needs an ending one side took).
ALTERNATIVES: Final = {"irish-don": ("irish-don-end-of-deal.json", "irish-don-worked-6-2.json")}


def _load(name: str) -> Record:
    record: Record = json.loads((GAMES / name).read_text(encoding="utf-8"))
    record["phatlog"] = "1.1"
    record["event"] = {"source": f"samples/make_ruling_samples.py, from samples/games/{name}"}
    return record


def _seats(record: Record) -> int:
    return len(record["players"])


def _side(record: Record, seat: int) -> int:
    return seat if record["game"] == "oh_hell" else seat % 2


def _rescore(record: Record) -> Record | None:
    """The record with every score and the result as the engine works them out; None if the game is not
    then won (a sample must be a whole game)."""
    for deal in record["deals"]:
        deal.pop("score", None)
    status = record.get("result", {}).get("status", "finished")
    by = record.get("result", {}).get("by")
    record.pop("result", None)
    summary = replay(record)
    for deal, shown in zip(record["deals"], summary["deals"], strict=True):
        if shown["points"] is None or shown["totals"] is None:
            return None
        deal["score"] = {"points": shown["points"], "total": shown["totals"]}
    end = summary["end"]
    if status == "finished":
        if not end or not end["winners"]:
            return None
        record["result"] = {"winner": end["winners"], "total": end["totals"]}
    else:
        record["result"] = {"status": status, "by": by, "total": summary["deals"][-1]["totals"]}
    return record


def _clean(record: Record) -> bool:
    return all(d.severity is Severity.INFO for d in verify(record).diagnostics)


def _winners(record: Record, d: int) -> list[int]:
    """The seat winning each trick of deal ``d``, as the replay shows it."""
    return [t["winner"] for t in replay(record)["deals"][d]["tricks"]]


def claimed(record: Record) -> Record | None:
    """A deal whose last tricks one side (one player) took all of: cut there, and claimed for the rest."""
    for d, deal in enumerate(record["deals"]):
        tricks = deal.get("tricks") or []
        if len(tricks) < 4:
            continue
        winners = _winners(record, d)
        # Tricks t..end-1 whose winners (known up to the second last) are all of one side: claim at t.
        for t in range(len(tricks) - 2, 0, -1):
            sides = {_side(record, w) for w in winners[t:]}
            if len(sides) == 1:
                out = copy.deepcopy(record)
                out["deals"][d]["tricks"] = tricks[:t]
                out["deals"][d]["rulings"] = [
                    {"kind": "claim", "seat": winners[t], "tricks": "rest", "by": "the director"}
                ]
                if _clean(out):
                    return out
    return None


def _serious(record: Record) -> list[str]:
    return [d.code for d in verify(record).diagnostics if d.severity is not Severity.INFO]


def claimed_unsound(record: Record) -> Record | None:
    """A claim for the rest that the defence could have defeated (every hand known): the claim was
    accepted, so the claimer's side takes the rest, and the scores follow (the game rescored); the record
    verifies with the one warning PL316."""
    for d, deal in enumerate(record["deals"]):
        tricks = deal.get("tricks") or []
        if len(tricks) < 4 or not deal.get("hands"):
            continue
        for t in range(len(tricks) - 2, max(len(tricks) - 6, 0), -1):  # near the end: a small audit
            for seat in range(_seats(record)):
                out = copy.deepcopy(record)
                out["deals"][d]["tricks"] = tricks[:t]
                out["deals"][d]["rulings"] = [
                    {"kind": "claim", "seat": seat, "tricks": "rest", "by": "the director", "comment": "unsound"}
                ]
                if _serious(out)[:1] != ["PL316"]:
                    continue
                rescored = _rescore(out)
                if rescored is not None and _serious(rescored) == ["PL316"]:
                    return rescored
    return None


def claimed_partly(record: Record) -> Record | None:
    """The sound claim of ``claimed``, made in the middle of its trick: the first cards of that trick are
    recorded, and the claim covers the rest of it."""
    made = claimed(copy.deepcopy(record))
    if made is None:
        return None
    d = next(i for i, deal in enumerate(made["deals"]) if deal.get("rulings"))
    t = len(made["deals"][d]["tricks"])
    nxt = record["deals"][d]["tricks"][t]
    for k in range(_seats(record) - 1, 0, -1):
        out = copy.deepcopy(made)
        out["deals"][d]["tricks"].append({"leader": nxt["leader"], "cards": nxt["cards"][:k]})
        if _clean(out) and "PL316" not in [x.code for x in verify(out).diagnostics]:
            return out
    return None


def revoked(record: Record) -> Record | None:
    """A revoke made by swapping two cards a player played, ruled and penalised under ``revoke_penalty: 1``."""
    n = _seats(record)
    for d, deal in enumerate(record["deals"]):
        tricks = deal.get("tricks") or []
        for t, trick in enumerate(tricks):
            led = SUIT_BY_TEXT[trick["cards"][0]]
            for i in range(1, n):
                seat = (trick["leader"] + i) % n
                card = trick["cards"][i]
                if SUIT_BY_TEXT[card] != led:
                    continue
                for u in range(t + 1, len(tricks)):
                    later = tricks[u]
                    j = (seat - later["leader"]) % n
                    other = later["cards"][j]
                    if SUIT_BY_TEXT[other] == led or j == 0:
                        continue
                    out = copy.deepcopy(record)
                    out["rules"] = {**out.get("rules", {}), "revoke_penalty": 1}
                    od = out["deals"][d]
                    od["tricks"][t]["cards"][i], od["tricks"][u]["cards"][j] = other, card
                    opponents = [s for s in range(n if record["game"] == "oh_hell" else 2) if s != _side(record, seat)]
                    od["rulings"] = [
                        {
                            "kind": "revoke",
                            "trick": t + 1,
                            "seat": seat,
                            "penalty": [{"side": s, "points": 1} for s in opponents],
                            "comment": "established; the revoke stands as played",
                        }
                    ]
                    if len(opponents) == 1:
                        od["rulings"][0]["penalty"] = od["rulings"][0]["penalty"][0]
                    rescored = _rescore(out)
                    if rescored is not None and _clean(rescored):
                        codes = [x.code for x in verify(rescored).diagnostics]
                        if "PL310" in codes:
                            return rescored
    return None


def misdealt(record: Record) -> Record:
    """The second deal first misdealt: a void deal by the same dealer."""
    out = copy.deepcopy(record)
    again = out["deals"][1]["dealer"]
    total = out["deals"][0]["score"]["total"]
    void = {
        "dealer": again,
        "score": {"points": [0] * len(total), "total": total},
        "rulings": [{"kind": "misdeal", "by": "the director", "comment": "a card was exposed in the deal"}],
    }
    out["deals"].insert(1, void)
    return out


def adjusted(record: Record) -> Record | None:
    out = copy.deepcopy(record)
    out["deals"][0]["rulings"] = [{"kind": "adjustment", "side": 0, "points": -2, "reason": "slow play"}]
    return _rescore(out)


def conceded(record: Record) -> Record | None:
    out = copy.deepcopy(record)
    out["deals"] = out["deals"][: max(1, len(out["deals"]) - 1)]
    out["result"] = {"status": "conceded", "by": 1}
    rescored = _rescore(out)
    if rescored is not None:
        rescored["result"]["winner"] = [0]
    return rescored


# --------------------------------------------------------------------------- the conformance set

P4: Final = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cal"}, {"name": "Dee"}]
TWO_TRICKS: Final = [
    {"leader": 0, "cards": ["AD", "2D", "9D", "3C"]},
    {"leader": 0, "cards": ["KD", "5D", "8D", "3D"]},
]
CLEAN_TRICKS: Final = [
    {"leader": 0, "cards": ["AD", "2D", "9D", "3C"]},
    {"leader": 0, "cards": ["KD", "5D", "8D", "3H"]},
]


def _phat(deals: list[Record], result: Record | None = None, rules: Record | None = None) -> Record:
    record: Record = {"phatlog": "1.1", "game": "phat", "players": P4, "deals": deals}
    if rules:
        record["rules"] = rules
    record["result"] = result or {"status": "unfinished"}
    return record


def _oh_hell_claim(turnup: str, tricks: int | str, hands: bool = True) -> Record:
    """Oh Hell, hands of 3: Ann wins the first trick with AH and claims ``tricks`` of the two left."""
    deal: Record = {"dealer": 2}
    if hands:
        deal["hands"] = [["AH", "KH", "QH"], ["2H", "3C", "4D"], ["3H", "9S", "AC"]]
    deal |= {
        "turnup": turnup,
        "bids": [3, 0, 0],
        "tricks": [{"leader": 0, "cards": ["AH", "2H", "3H"]}],
        "rulings": [{"kind": "claim", "seat": 0, "tricks": tricks}],
    }
    return {
        "phatlog": "1.1",
        "game": "oh_hell",
        "rules": {"schedule": [3, 3], "no_trump": "never"},
        "players": P4[:3],
        "deals": [deal],
        "result": {"status": "unfinished"},
    }


def _e(code: str, pointer: str) -> dict[str, str]:
    return {"code": code, "pointer": pointer}


INVALID_RECORDS: Final[dict[str, tuple[Record, list[dict[str, str]]]]] = {
    # An adjustment for side 2 of a two-side game.
    "rulings-side-out-of-range.json": (
        _phat(
            [
                {
                    "dealer": 3,
                    "score": {"points": [30, 50], "total": [30, 50]},
                    "rulings": [{"kind": "adjustment", "side": 2, "points": -5}],
                }
            ]
        ),
        [_e("PL311", "/deals/0/rulings/0/side")],
    ),
    # A revoke ruled in trick 2, where Ben followed suit.
    "rulings-revoke-not-made.json": (
        _phat([{"dealer": 3, "tricks": CLEAN_TRICKS, "rulings": [{"kind": "revoke", "trick": 2, "seat": 1}]}]),
        [_e("PL312", "/deals/0/rulings/0")],
    ),
    # Two tricks played, 11 remain: a claim of 12.
    "rulings-claim-too-many.json": (
        _phat([{"dealer": 3, "tricks": CLEAN_TRICKS, "rulings": [{"kind": "claim", "seat": 0, "tricks": 12}]}]),
        [_e("PL313", "/deals/0/rulings/0/tricks")],
    ),
    # revoke_penalty 1, but the director gave 5.
    "rulings-wrong-penalty.json": (
        _phat(
            [
                {
                    "dealer": 3,
                    "tricks": TWO_TRICKS,
                    "rulings": [{"kind": "revoke", "trick": 1, "seat": 3, "penalty": {"side": 0, "points": 5}}],
                }
            ],
            rules={"revoke_penalty": 1},
        ),
        [_e("PL310", "/deals/0/tricks/0/cards/3"), _e("PL314", "/deals/0/rulings/0/penalty")],
    ),
    # A misdeal that records a trick.
    "rulings-misdeal-played.json": (
        _phat(
            [
                {
                    "dealer": 3,
                    "tricks": [{"leader": 0, "cards": ["AD", "2D", "9D", "3D"]}],
                    "rulings": [{"kind": "misdeal"}],
                },
                {"dealer": 3, "score": {"points": [40, 40], "total": [40, 40]}},
            ]
        ),
        [_e("PL315", "/deals/0")],
    ),
    # Ann & Cal conceded, and are named the winner.
    "rulings-conceding-side-wins.json": (
        _phat(
            [{"dealer": 3, "score": {"points": [30, 50], "total": [30, 50]}}],
            {"status": "conceded", "by": 0, "winner": [0], "total": [30, 50]},
        ),
        [_e("PL410", "/result/winner")],
    ),
    # An abandoned game with a winner.
    "rulings-abandoned-with-winner.json": (
        _phat(
            [{"dealer": 3, "score": {"points": [30, 50], "total": [30, 50]}}],
            {"status": "abandoned", "winner": [1], "total": [30, 50]},
        ),
        [_e("PL410", "/result/winner")],
    ),
    # Ann claims the rest of a hand of 3 after the first trick, but Cal can ruff her hearts (PL316).
    "rulings-claim-unsound.json": (
        _oh_hell_claim("7S", "rest"),
        [_e("PL316", "/deals/0/rulings/0/tricks")],
    ),
    # Hearts are trump: Ann's two hearts take both tricks left, and she claims one (PL317).
    "rulings-claim-underclaimed.json": (
        _oh_hell_claim("7H", 1),
        [_e("PL317", "/deals/0/rulings/0/tricks"), _e("PL406", "/deals")],
    ),
    # The hands are not recorded: the claim cannot be checked against the cards (PL318).
    "rulings-claim-unchecked.json": (
        _oh_hell_claim("7S", "rest", hands=False),
        [_e("PL203", "/deals/0"), _e("PL318", "/deals/0/rulings/0")],
    ),
    # A revoke without a ruling is still PL303 under format 1.1.
    "rulings-unruled-revoke.json": (
        _phat([{"dealer": 3, "tricks": TWO_TRICKS, "rulings": [{"kind": "adjustment", "side": 0, "points": 1}]}]),
        [_e("PL303", "/deals/0/tricks/0/cards/3"), _e("PL307", "/deals/0")],
    ),
}


def _dumps(record: Record) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    written: list[str] = []
    for stem, name in SOURCES.items():
        source = _load(name)
        makers = {"claim": claimed, "revoke-penalty-1": revoked, "adjustment": adjusted, "conceded": conceded}
        makers |= {"claim-unsound": claimed_unsound, "claim-partly-played": claimed_partly}
        makers["misdeal"] = misdealt
        for kind, make in makers.items():
            made = make(copy.deepcopy(source))
            for other in ALTERNATIVES.get(stem, ()) if made is None else ():
                made = make(_load(other))
                if made is not None:
                    break
            if made is None:
                print(f"{stem}: no {kind} sample could be made")
                continue
            want = ["PL316"] if kind == "claim-unsound" else []
            assert _serious(made) == want, (stem, kind, [(x.code, x.message) for x in verify(made).diagnostics])
            path = OUT / f"{stem}-{kind}.json"
            path.write_text(_dumps(made), encoding="utf-8")
            written.append(path.name)
    manifest: dict[str, list[dict[str, str]]] = {}
    for name, (record, expected) in INVALID_RECORDS.items():
        (INVALID / name).write_text(_dumps(record), encoding="utf-8")
        manifest[name] = expected
    lines = ",\n".join(
        f"  {json.dumps(name)}: [{', '.join(json.dumps(e) for e in want)}]" for name, want in sorted(manifest.items())
    )
    (INVALID / "expected-rulings.json").write_text("{\n" + lines + "\n}\n", encoding="utf-8")
    print(f"wrote {len(written)} samples to {OUT} and {len(manifest)} faulty records to {INVALID}")


if __name__ == "__main__":
    main()
