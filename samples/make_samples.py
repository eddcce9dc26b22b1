"""Write the bundled samples: valid Phat games and the conformance set of invalid records.

Run from the project root (or anywhere: paths are relative to this file)::

    .venv/bin/python samples/make_samples.py

Everything is deterministic. Each sample game is a seeded simulation (``phatlog.play.simulate``, random legal
play); the seed of each is fixed below and checked to give the game the property it is kept for (a cut
with a tie, a peg in mid-deal, ...). If a change to the simulator ever breaks that, the search goes on
from the fixed seed to the next seed that has the property, and says so: update the constant then.

The invalid records are made by mutating those games (or written by hand for input-level faults). Each
mutation comes with the diagnostics that the rules say ``phatlog verify`` must report, worked out from
the fault itself, not read off the tool; the script then runs the checker and compares. A case where
the two disagree is not written to ``invalid/`` but to ``disputed/``, with both lists, for a person to
settle.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any, Final

from phatlog.play.simulate import simulate
from phatlog.record.reader import UNREADABLE_CODES
from phatlog.referee.pitch import Findings
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Card
from phatlog.rules.trick import FollowRule, legal_plays

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (
    actual_diagnostics,
    as_bytes,
    code_pointer,
    dumps,
    phat_deal_points,
    serious_of,
    told,
    trick_winner,
    verdict,
)

Record = dict[str, Any]
Expected = list[dict[str, str]]

HERE: Final = Path(__file__).resolve().parent
GAMES_DIR: Final = HERE / "games"
INVALID_DIR: Final = HERE / "invalid"
DISPUTED_DIR: Final = HERE / "disputed"
WORKED: Final = HERE.parent / "tests" / "data" / "worked_6_2.json"

# The seeds found for each sample game (see the module docstring).
SEED_181_CUT_TIE: Final = 15
SEED_MIDGAME_PEG: Final = 1
SEED_MUCK_DECIDES: Final = 4
SEED_MUCK_CARRY: Final = 23
SEED_121_END_OF_DEAL: Final = 15
DEPTH: Final = 5000  # nesting beyond what the parser reads (phatlog reads as deep as the interpreter's stack)
SEED_CONTINUATION: Final = 2024  # the random legal play of cards recorded after the end

EVENT_NAME: Final = "phatlog sample games"
SITE: Final = "Wherry Inn, Geldeston"
DATE: Final = "2026-11-14"


# --------------------------------------------------------------------------- Phat, by the engine's rules


def add_winners(record: Record) -> None:
    """Record every trick's winner (optional in the format, checked by the engine)."""
    for deal in record["deals"]:
        tricks = deal.get("tricks") or []
        if not tricks:
            continue
        trump = tricks[0]["cards"][0][1]
        for trick in tricks:
            trick["winner"] = trick_winner(trick["leader"], trick["cards"], trump, 4)


def play_out(hands: list[list[str]], leader: int, tricks: list[Record], rng: random.Random, upto: int = 13) -> None:
    """Append random legal tricks to ``tricks`` (already played from ``hands``) until ``upto`` are recorded."""
    held = [{CARD_BY_TEXT[c] for c in h} for h in hands]
    for trick in tricks:
        for i, text in enumerate(trick["cards"]):
            held[(trick["leader"] + i) % 4].discard(CARD_BY_TEXT[text])
    trump = tricks[0]["cards"][0][1] if tricks else None
    while len(tricks) < upto:
        cards: list[Card] = []
        for i in range(4):
            seat = (leader + i) % 4
            options = legal_plays(held[seat], cards[0].suit if cards else None, None, FollowRule.MUST_FOLLOW)
            card = rng.choice(options)
            held[seat].remove(card)
            cards.append(card)
        texts = [CARD_TEXT[c] for c in cards]
        if trump is None:
            trump = texts[0][1]
        winner = trick_winner(leader, texts, trump, 4)
        tricks.append({"leader": leader, "cards": texts, "winner": winner})
        leader = winner


# --------------------------------------------------------------------------- the sample games


def simulated(seed: int, rules: Record | None = None, with_cut: bool = False) -> Record:
    record = next(iter(simulate("phat", seed, 1, rules=rules or {}, with_cut=with_cut)))
    add_winners(record)
    return record


def dressed(record: Record, comment: str, seed: int | None, round_: str) -> Record:
    """The record with its metadata, its keys in the canonical order."""
    source = f"phatlog simulate, seed {seed} (random legal play)" if seed is not None else "rules reference B.6.2"
    event = {"name": EVENT_NAME, "site": SITE, "date": DATE, "round": round_, "scorer": "make_samples.py"}
    event["source"] = source
    out: Record = {"phatlog": record["phatlog"], "game": record["game"], "comment": comment, "event": event}
    for key in ("rules", "players", "cut", "deals", "result"):
        if key in record:
            out[key] = record[key]
    return out


def find(
    start: int, make: Callable[[int], Record], good: Callable[[Record, Findings], bool], what: str
) -> tuple[int, Record]:
    """The first seed from ``start`` whose game has the property; says so if it is not ``start`` itself."""
    for seed in count(start):
        record = make(seed)
        if good(record, verdict(record)):
            if seed != start:
                print(f"note: {what}: seed {start} no longer has the property; seed {seed} does", file=sys.stderr)
            return seed, record
        if seed > start + 20000:
            break
    raise SystemExit(f"no seed from {start} gives {what}")


def _names(record: Record) -> list[str]:
    return [p["name"] for p in record["players"]]


def _cut_story(record: Record) -> str:
    """The recorded cut in words."""
    names = _names(record)
    rounds = []
    for r, cards in enumerate(record["cut"]):
        shown = ", ".join(f"{names[s]} {c}" for s, c in enumerate(cards) if c is not None)
        rounds.append(f"round {r + 1}: {shown}")
    pitcher = (record["deals"][0]["dealer"] + 1) % 4
    return (
        f"Cut ({'; '.join(rounds)}): the lowest cards of the first round tie, so those players cut again; "
        f"{names[pitcher]} cuts lowest and pitches first, and {names[(pitcher + 3) % 4]} on the pitcher's right deals."
    )


def _ending(record: Record) -> str:
    """How the game was won, in words."""
    v = verdict(record)
    d, t = _ended(v)
    assert v.winner is not None and v.totals is not None
    side = v.winner[0]
    names = _names(record)
    who = f"{names[side]} and {names[side + 2]}"
    final = f"{v.totals[0]}-{v.totals[1]}"
    if t is None:
        return f"{who} win at the end of deal {d + 1}, {final}."
    return f"{who} win at trick {t + 1} of deal {d + 1}, {final}."


def _ended(v: Findings) -> tuple[int, int | None]:
    assert v.ended_at is not None
    return v.ended_at


def _carry_received(record: Record, v: Findings) -> bool:
    """A 40-40 muck whose 8 is carried, and a later deal's muck winner who collects it."""
    deals = told(record)
    tied = [d.index for d in deals if any("40-40" in b.reason and "carried" in b.reason for b in d.bonuses)]
    paid = [d.index for d in deals if any("carried from tied mucks" in b.reason for b in d.bonuses)]
    return any(p > t for t in tied for p in paid)


def _first_to_target_loses(record: Record, v: Findings) -> bool:
    """Under end_of_deal: the side that first reached the target during the last deal did not win."""
    assert v.winner is not None
    target = record["rules"]["target"]
    for deal in told(record):
        for trick in deal.tricks:
            for side in (0, 1):
                if trick.totals is not None and trick.totals[side] >= target:
                    return side != v.winner[0]
    return False


def sample_games() -> dict[str, Record]:
    games: dict[str, Record] = {}

    seed, rec = find(
        SEED_181_CUT_TIE,
        lambda s: simulated(s, with_cut=True),
        lambda r, v: len(r["cut"]) >= 2,
        "a game to 181 whose cut needs a second round",
    )
    games["phat-181.json"] = dressed(
        rec,
        f"An ordinary game to 181 under the default rules, with the cut for the first pitcher. {_cut_story(rec)} "
        + _ending(rec),
        seed,
        "1",
    )

    seed, rec = find(
        SEED_MIDGAME_PEG,
        lambda s: simulated(s),
        lambda r, v: v.ended_at is not None and _ended(v)[1] is not None and (_ended(v)[1] or 0) < 11,
        "a game won by a peg in mid-deal",
    )
    d, t = _ended(verdict(rec))
    games["phat-midgame-peg.json"] = dressed(
        rec,
        f"Won by a peg in the middle of a deal (peg_out immediate): the counters of trick {(t or 0) + 1} of "
        f"deal {d + 1} take the winners to 181, the game ends at once, and that deal's last {12 - (t or 0)} "
        "tricks are not played and its muck is not counted. " + _ending(rec),
        seed,
        "2",
    )

    seed, rec = find(
        SEED_MUCK_DECIDES,
        lambda s: simulated(s),
        lambda r, v: v.ended_at is not None and _ended(v)[1] is None,
        "a game decided by the muck's 8",
    )
    final = told(rec)
    before = final[-1].tricks[-1].totals
    assert before is not None
    muck = final[-1].captured or (0, 0)
    games["phat-muck-decides.json"] = dressed(
        rec,
        f"Decided by the muck: after the last trick of the last deal neither side has 181 ({before[0]}-"
        f"{before[1]}); the muck is {muck[0]}-{muck[1]}, and the 8 for it is the peg that wins the game. "
        + _ending(rec),
        seed,
        "3",
    )

    seed, rec = find(
        SEED_MUCK_CARRY,
        lambda s: simulated(s, rules={"muck_tie": "carry"}),
        _carry_received,
        "a carried 40-40 muck",
    )
    deals = told(rec)
    tie = next(x.index for x in deals if any("40-40" in b.reason for b in x.bonuses))
    paid = next(x for x in deals if x.index > tie and any("carried from" in b.reason for b in x.bonuses))
    bonus = next(b for b in paid.bonuses if b.side is not None)
    games["phat-muck-carry.json"] = dressed(
        rec,
        f"Rules muck_tie carry: the muck of deal {tie + 1} is tied 40-40, so nobody pegs its 8; the 8 is carried, "
        f"and the side that wins the muck of deal {paid.index + 1} pegs {bonus.points} ({bonus.reason}). "
        + _ending(rec),
        seed,
        "4",
    )

    seed, rec = find(
        SEED_121_END_OF_DEAL,
        lambda s: simulated(s, rules={"target": 121, "peg_out": "end_of_deal"}),
        _first_to_target_loses,
        "an end_of_deal game to 121 where the first side to 121 loses",
    )
    names = _names(rec)
    first = next(
        (x.index, y.trick, side)
        for x in told(rec)
        for y in x.tricks
        for side in (0, 1)
        if y.totals is not None and y.totals[side] >= 121
    )
    games["phat-121-end-of-deal.json"] = dressed(
        rec,
        "Parlett's game to 121 with peg_out end_of_deal: the target is looked at only after the muck, and the "
        f"higher total wins. {names[first[2]]} and {names[first[2] + 2]} reach 121 at trick {first[1] + 1} of "
        f"deal {first[0] + 1}, but play goes on to the end of the deal, and the other side finishes ahead. "
        + _ending(rec),
        seed,
        "5",
    )

    worked = json.loads(WORKED.read_text(encoding="utf-8"))
    add_winners(worked)
    games["phat-worked-6-2.json"] = dressed(
        worked,
        worked.get("comment", "") + " NS take 46 in counters and win the muck 48-32, so the deal scores 54-34.",
        None,
        "worked example",
    )
    return games


# --------------------------------------------------------------------------- the conformance set


@dataclass
class Case:
    """One invalid record: its bytes and the diagnostics the rules say it must get."""

    name: str
    data: bytes
    expected: Expected
    why: str


def e(code: str, ptr: str = "") -> dict[str, str]:
    return {"code": code, "pointer": ptr}


def case(name: str, content: Record | bytes, expected: Expected, why: str) -> Case:
    """A case from its bytes, or from a record whose comment then says what is wrong with it."""
    if isinstance(content, bytes):
        return Case(name, content, expected, why)
    record = {**content, "comment": f"Invalid on purpose: {why}."} if "comment" in content else content
    return Case(name, as_bytes(record), expected, why)


def seat_of(trick: Record, i: int) -> int:
    return int(trick["leader"] + i) % 4


def first_deal_only(record: Record, deals: int) -> Record:
    """The record cut down to its first deals, marked as stopped (no winner yet)."""
    out = copy.deepcopy(record)
    out["deals"] = out["deals"][:deals]
    out["comment"] = f"The first {'deal' if deals == 1 else f'{deals} deals'} of phat-181.json, stopped there."
    out["result"] = {"status": "unfinished", "reason": "sample cut short"}
    return out


def invalid_cases(games: dict[str, Record]) -> Iterator[Case]:
    full = games["phat-181.json"]
    one = first_deal_only(full, 1)
    two = first_deal_only(full, 2)
    for base in (one, two):
        assert not verdict(base).diagnostics, "the bases must be clean"

    # ---- input that is not a record at all (exit 2), and a document that is not an object
    yield case("not-json.json", b"phatlog 1.0: Ann, Ben, Cal, Dee\n", [e("PL002")], "not JSON")
    text = as_bytes(one)
    yield case("truncated.json", text[: len(text) // 2], [e("PL002")], "truncated JSON")
    yield case("empty.json", b"", [e("PL006")], "empty file")
    deep = as_bytes({**one, "ext": {"deep": "@"}}).replace(b'"@"', b"[" * DEPTH + b"]" * DEPTH)
    yield case("too-deep.json", deep, [e("PL004")], f"an extension nested {DEPTH} deep")
    latin1 = copy.deepcopy(one)
    latin1["comment"] = "Played at the caf\u00e9 (this file is Latin-1, not UTF-8)."
    yield case("not-utf8.json", dumps(latin1).encode("latin-1"), [e("PL002")], "not UTF-8")
    yield case("array-not-object.json", dumps([one]).encode(), [e("PL103")], "a JSON array instead of an object")

    # ---- the format and the schema
    rec = copy.deepcopy(one)
    rec["phatlog"] = "2.0"
    yield case(
        "unknown-version-2.0.json", rec, [e("PL005", "/phatlog")], "format version 2.0, an unknown major version"
    )
    rec = copy.deepcopy(one)
    del rec["phatlog"]
    yield case("missing-version.json", rec, [e("PL101", "/phatlog")], 'no format version ("phatlog" key)')
    rec = copy.deepcopy(one)
    rec["game"] = "bridge"
    yield case("unknown-game.json", rec, [e("PL107", "/game")], 'the game "bridge"')
    rec = copy.deepcopy(one)
    del rec["deals"][0]["tricks"][2]["leader"]
    yield case(
        "missing-key.json", rec, [e("PL101", "/deals/0/tricks/2/leader")], "a trick without its leader (missing key)"
    )
    rec = copy.deepcopy(one)
    rec["deals"][0] = {("scroe" if k == "score" else k): v for k, v in rec["deals"][0].items()}
    yield case("unknown-key-scroe.json", rec, [e("PL102", "/deals/0/scroe")], 'the typo "scroe"')
    rec = copy.deepcopy(one)
    rec["deals"][0]["dealer"] = str(rec["deals"][0]["dealer"])
    yield case("wrong-type.json", rec, [e("PL103", "/deals/0/dealer")], "the dealer as a string (wrong type)")
    rec = copy.deepcopy(one)
    rec["deals"][0]["dealer"] = 4
    yield case("out-of-range.json", rec, [e("PL106", "/deals/0/dealer")], "dealer seat 4 (seats are 0-3)")
    rec = copy.deepcopy(one)
    rec["rules"] = {"peg_out": "never"}
    yield case("bad-rules-value.json", rec, [e("PL108", "/rules/peg_out")], 'rules peg_out "never"')
    for name, bad in (
        ("bad-card-1H.json", "1H"),
        ("bad-card-trailing-space.json", "AH "),
        ("bad-card-10H.json", "10H"),
    ):
        rec = copy.deepcopy(one)
        hands = rec["deals"][0]["hands"]
        seat = next(s for s in range(4) if any(c[1] == "H" for c in hands[s]))
        index = next(i for i, c in enumerate(hands[seat]) if c[1] == "H")
        hands[seat][index] = bad
        yield case(name, rec, [e("PL104", f"/deals/0/hands/{seat}/{index}")], f"the card {bad!r}")
    rec = copy.deepcopy(one)
    removed = rec["deals"][0]["hands"][2].pop()
    yield case("hand-of-12.json", rec, [e("PL105", "/deals/0/hands/2")], f"seat 2's {removed} left out")
    rec = copy.deepcopy(one)
    rec["players"].pop()
    yield case("three-players.json", rec, [e("PL105", "/players")], "three players in a four-player game")

    # ---- the deal
    rec = copy.deepcopy(one)
    hands = rec["deals"][0]["hands"]
    hands[1][0] = hands[0][0]
    yield case(
        "duplicate-card.json",
        rec,
        # The hands are not a proper deal, so the deal cannot be replayed or scored: a warning says so.
        # Four hands of 13 with a card twice leave one card of the pack in no hand: that is said too.
        [e("PL201", "/deals/0/hands/1/0"), e("PL204", "/deals/0/hands"), e("PL307", "/deals/0")],
        f"{hands[0][0]} dealt to seats 0 and 1",
    )
    rec = copy.deepcopy(two)
    deal = rec["deals"][1]
    # Seats turned by two: the same play, partners swapped, so every score stands; only the dealer is wrong.
    deal["dealer"] = (deal["dealer"] + 2) % 4
    deal["hands"] = [deal["hands"][(s + 2) % 4] for s in range(4)]
    for trick in deal["tricks"]:
        trick["leader"] = (trick["leader"] + 2) % 4
        trick["winner"] = (trick["winner"] + 2) % 4
    yield case("wrong-dealer.json", rec, [e("PL202", "/deals/1/dealer")], "deal 2 dealt by the wrong seat")

    # ---- the play (an illegal play makes the rest of the deal unscorable: a warning says so)
    rec = copy.deepcopy(one)
    tricks = rec["deals"][0]["tricks"]
    t, i, t2, i2 = _revoke_spot(tricks)
    tricks[t]["cards"][i], tricks[t2]["cards"][i2] = tricks[t2]["cards"][i2], tricks[t]["cards"][i]
    yield case(
        "revoke.json",
        rec,
        [e("PL303", f"/deals/0/tricks/{t}/cards/{i}"), e("PL307", "/deals/0")],
        f"trick {t + 1}: {tricks[t]['cards'][i]} played while holding {tricks[t2]['cards'][i2]} of the suit led",
    )
    rec = copy.deepcopy(one)
    trick = rec["deals"][0]["tricks"][3]
    trick["leader"] = (trick["leader"] + 1) % 4
    yield case(
        "wrong-leader.json",
        rec,
        [e("PL301", "/deals/0/tricks/3/leader"), e("PL307", "/deals/0")],
        "trick 4 led by the wrong seat",
    )
    rec = copy.deepcopy(one)
    t, i, card = _not_held_spot(rec["deals"][0])
    rec["deals"][0]["tricks"][t]["cards"][i] = card
    yield case(
        "card-not-held.json",
        rec,
        [e("PL302", f"/deals/0/tricks/{t}/cards/{i}"), e("PL307", "/deals/0")],
        f"trick {t + 1}: {card}, dealt to another player",
    )
    rec = copy.deepcopy(one)
    del rec["deals"][0]["hands"]
    tricks = rec["deals"][0]["tricks"]
    tricks[9]["cards"][2] = tricks[4]["cards"][1]
    yield case(
        "card-played-twice.json",
        rec,
        # Without hands, the deal is inferred from the tricks; the repeat makes that impossible.
        [e("PL302", "/deals/0/tricks/9/cards/2"), e("PL307", "/deals/0")],
        "no hands recorded; a card played in trick 5 is played again in trick 10",
    )
    rec = copy.deepcopy(one)
    trick = rec["deals"][0]["tricks"][5]
    trick["winner"] = (trick["winner"] + 1) % 4
    yield case(
        "wrong-trick-winner.json",
        rec,
        [e("PL304", "/deals/0/tricks/5/winner")],
        "trick 6 recorded as won by the wrong seat",
    )
    rec = copy.deepcopy(two)
    deal = rec["deals"][0]
    del deal["tricks"][10:]
    points = phat_deal_points(deal)  # the counters of the tricks played; no muck without the last trick
    deal["score"] = {"points": points, "total": points}
    after = rec["deals"][1]["score"]
    after["total"] = [points[s] + after["points"][s] for s in (0, 1)]
    yield case(
        "deal-incomplete.json",
        rec,
        [e("PL306", "/deals/0/tricks")],
        "deal 1 stops after 10 tricks (scored as played: counters, no muck)",
    )

    # ---- scores
    rec = copy.deepcopy(one)
    rec["deals"][0]["score"]["points"][0] += 1
    yield case("wrong-points.json", rec, [e("PL401", "/deals/0/score/points/0")], "deal 1's points one too many")
    rec = copy.deepcopy(two)
    rec["deals"][0]["score"]["total"][1] += 10
    yield case("wrong-total.json", rec, [e("PL402", "/deals/0/score/total/1")], "a running total 10 out")

    # ---- the end of the game
    winner = full["result"]["winner"][0]
    rec = copy.deepcopy(full)
    rec["result"]["winner"] = [1 - winner]
    yield case("wrong-result-winner.json", rec, [e("PL403", "/result/winner")], "the result names the losing side")
    rec = copy.deepcopy(full)
    rec["result"]["total"][0] += 10
    yield case("wrong-result-total.json", rec, [e("PL404", "/result/total/0")], "the result's final total 10 out")
    rec = copy.deepcopy(full)
    rec["result"]["status"] = "unfinished"
    yield case("unfinished-but-won.json", rec, [e("PL403", "/result/status")], "a won game called unfinished")
    rec = copy.deepcopy(two)
    rec["result"]["winner"] = [0]
    yield case("winner-of-unfinished.json", rec, [e("PL407", "/result/winner")], "a stopped game with a winner")
    rec = copy.deepcopy(full)
    rec["deals"].pop()
    del rec["result"]
    yield case("stops-before-win.json", rec, [e("PL405", "/deals")], "the last deal left out, no result")
    rec = copy.deepcopy(games["phat-midgame-peg.json"])
    deal = rec["deals"][-1]
    stop = len(deal["tricks"])
    play_out(deal["hands"], deal["tricks"][-1]["winner"], deal["tricks"], random.Random(SEED_CONTINUATION))
    yield case(
        "tricks-after-win.json",
        rec,
        [e("PL305", f"/deals/{len(rec['deals']) - 1}/tricks/{stop}")],
        "the winning deal played out to the end",
    )
    rec = copy.deepcopy(full)
    rec["deals"].append(_one_more_deal(rec))
    yield case(
        "deal-after-win.json",
        rec,
        [e("PL308", f"/deals/{len(rec['deals']) - 1}")],
        "a legal deal played after the game was won",
    )

    # ---- the cut
    rec = copy.deepcopy(one)
    cut = rec["cut"]
    last_round = cut[-1]
    cutters = [s for s in range(4) if last_round[s] is not None]
    low = min(cutters, key=lambda s: CARD_BY_TEXT[last_round[s]] % 13)
    high = max(cutters, key=lambda s: CARD_BY_TEXT[last_round[s]] % 13)
    last_round[low], last_round[high] = last_round[high], last_round[low]
    yield case("bad-cut.json", rec, [e("PL501", "/deals/0/dealer")], "the cut gives another first dealer")
    rec = copy.deepcopy(one)
    rec["cut"].pop()
    yield case(
        "cut-tie-not-cut-again.json",
        rec,
        [e("PL501", f"/cut/{len(rec['cut']) - 1}")],
        "the cut ends in a tie",
    )
    rec = copy.deepcopy(one)
    last_round = rec["cut"][-1]
    outsider = next(s for s in range(4) if last_round[s] is None)
    used = {c for r in rec["cut"] for c in r if c is not None}
    last_round[outsider] = next(c for c in CARD_TEXT if c not in used and c[0] == "A")
    yield case(
        "cut-wrong-cutters.json",
        rec,
        [e("PL501", f"/cut/{len(rec['cut']) - 1}")],
        "a player who was not tied cuts again",
    )


def _revoke_spot(tricks: list[Record]) -> tuple[int, int, int, int]:
    """A follower who followed suit in trick t and later played another suit: swapping the two is a revoke."""
    for t in range(1, 13):
        trick = tricks[t]
        led = trick["cards"][0][1]
        for i in range(1, 4):
            if trick["cards"][i][1] != led:
                continue
            seat = seat_of(trick, i)
            for t2 in range(t + 1, 13):
                i2 = next(j for j in range(4) if seat_of(tricks[t2], j) == seat)
                if tricks[t2]["cards"][i2][1] != led:
                    return t, i, t2, i2
    raise AssertionError("no place for a revoke")


def _not_held_spot(deal: Record) -> tuple[int, int, str]:
    """A follower in trick t, and a card of another player that is still in that player's hand."""
    tricks = deal["tricks"]
    for t in range(2, 13):
        i = 2
        seat = seat_of(tricks[t], i)
        later = {c for x in tricks[t + 1 :] for c in x["cards"]}
        for other in range(4):
            if other == seat:
                continue
            for card in deal["hands"][other]:
                if card in later:
                    return t, i, card
    raise AssertionError("no place for a card not held")


def _one_more_deal(record: Record) -> Record:
    """A legal deal by the next dealer, scored as a scorer who did not notice the game had ended would."""
    rng = random.Random(SEED_CONTINUATION)
    dealer = (record["deals"][-1]["dealer"] + 1) % 4
    pack = list(CARD_TEXT)
    rng.shuffle(pack)
    hands: list[list[str]] = [[], [], [], []]
    for k, card in enumerate(pack):
        hands[(dealer + 1 + k) % 4].append(card)
    hands = [sorted(h, key=CARD_BY_TEXT.__getitem__) for h in hands]
    tricks: list[Record] = []
    play_out(hands, (dealer + 1) % 4, tricks, rng)
    points = phat_deal_points({"dealer": dealer, "hands": hands, "tricks": tricks})
    before = record["deals"][-1]["score"]["total"]
    return {
        "dealer": dealer,
        "hands": hands,
        "tricks": tricks,
        "score": {"points": points, "total": [before[0] + points[0], before[1] + points[1]]},
    }


# --------------------------------------------------------------------------- writing

GAME_NOTES: Final = {
    "phat-181.json": "an ordinary game to 181 (default rules), with a cut whose first round ties",
    "phat-midgame-peg.json": "won by a peg in mid-deal (`peg_out: immediate`): its last deal stops at that trick",
    "phat-muck-decides.json": "won by the muck's 8 after the last trick of the last deal",
    "phat-muck-carry.json": "`muck_tie: carry`: a 40-40 muck's 8 carried to the next deal's muck winner",
    "phat-121-end-of-deal.json": "`target: 121, peg_out: end_of_deal`: the first side to 121 plays on and loses",
    "phat-worked-6-2.json": "the rules reference's worked deal (B.6.2), one deal, stopped there",
}


def readme(expected: dict[str, Expected], cases: dict[str, Case]) -> str:
    """samples/phat.md: one table of what each Phat sample shows."""
    lines = [
        "# Phat samples",
        "",
        "Written by `make_samples.py` (`.venv/bin/python samples/make_samples.py`; deterministic, do not edit by",
        "hand). The `phat-*` files in `games/` are valid Phat games. Each file of `invalid/` listed below has",
        "one fault, and `invalid/expected.json` lists the diagnostics",
        "(code, JSON Pointer) that `phatlog verify --format json` must report for it; `tests/test_conformance.py`",
        "holds the CLI to that. A case where phatlog disagrees with the expected diagnostics is written to",
        "`disputed/` instead, with both lists, for a person to settle.",
        "",
        "| file | shows | diagnostics |",
        "| --- | --- | --- |",
    ]
    assert set(GAME_NOTES) <= {p.name for p in GAMES_DIR.glob("*.json")}
    for name, note in GAME_NOTES.items():
        lines.append(f"| `games/{name}` | {note} | none |")
    for name, items in expected.items():
        codes = ", ".join(f"{x['code']} " + (f"`{x['pointer']}`" if x["pointer"] else "(document)") for x in items)
        lines.append(f"| `invalid/{name}` | {cases[name].why} | {codes} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    games = sample_games()
    # Remove only what this script wrote last time: other generators share these folders.
    manifest = INVALID_DIR / "expected.json"
    if manifest.exists():
        for name in json.loads(manifest.read_text(encoding="utf-8")):
            (INVALID_DIR / name).unlink(missing_ok=True)
    for name in games:
        (GAMES_DIR / name).unlink(missing_ok=True)
    if DISPUTED_DIR.exists():
        shutil.rmtree(DISPUTED_DIR)
    GAMES_DIR.mkdir(parents=True, exist_ok=True)
    INVALID_DIR.mkdir(parents=True, exist_ok=True)
    problems = 0
    for name, record in games.items():
        data = as_bytes(record)
        found, _ = actual_diagnostics(data)
        if serious_of(found):
            print(f"error: sample game {name} does not verify clean: {found}", file=sys.stderr)
            problems += 1
        (GAMES_DIR / name).write_bytes(data)
    expected: dict[str, Expected] = {}
    disputed: dict[str, Record] = {}
    cases: dict[str, Case] = {}
    for case in invalid_cases(games):
        assert case.name not in cases, case.name
        cases[case.name] = case
        found, unreadable = actual_diagnostics(case.data)
        want_unreadable = any(x["code"] in UNREADABLE_CODES for x in case.expected)
        agree = serious_of(found) == serious_of(case.expected) and unreadable == want_unreadable
        agree = agree and all(code_pointer(x) in {code_pointer(y) for y in found} for x in case.expected)
        if agree:
            (INVALID_DIR / case.name).write_bytes(case.data)
            expected[case.name] = sorted(case.expected, key=code_pointer)
        else:
            DISPUTED_DIR.mkdir(exist_ok=True)
            (DISPUTED_DIR / case.name).write_bytes(case.data)
            disputed[case.name] = {"fault": case.why, "expected": case.expected, "actual": found}
            print(f"DISPUTED {case.name}: expected {case.expected}, phatlog gives {found}", file=sys.stderr)
    (INVALID_DIR / "expected.json").write_text(dumps(dict(sorted(expected.items()))), encoding="utf-8")
    (HERE / "phat.md").write_text(readme(dict(sorted(expected.items())), cases), encoding="utf-8")
    if disputed:
        (DISPUTED_DIR / "disputed.json").write_text(dumps(dict(sorted(disputed.items()))), encoding="utf-8")
    print(f"{len(games)} games, {len(expected)} invalid records, {len(disputed)} disputed", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
