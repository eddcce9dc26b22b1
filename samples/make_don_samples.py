"""Write the Don family's samples: valid games of Nine-card Don and Irish Don, and their part of the
conformance set of invalid records.

Run from the project root (or anywhere: paths are relative to this file)::

    .venv/bin/python samples/make_don_samples.py

It writes only its own files: ``games/nine-card-don-*.json``, ``games/irish-don-*.json``,
``invalid/don-*.json`` and ``invalid/expected-don.json`` (the same format as ``invalid/expected.json``;
``tests/test_conformance.py`` merges every ``expected*.json``). Those files are removed and written
again on every run; nothing else in ``samples/`` is touched.

Everything is deterministic. Each sample game is a seeded simulation (``phatlog.play.simulate``, random legal
play) or a hand-worked deal from ``tests/data``. The seed of each simulated game is fixed below and
checked to give the game the property it is kept for (a 7-point bonus, a win by a bonus peg, ...). If a
change to the simulator ever breaks that, the search goes on from the fixed seed to the next seed that
has the property, and says so: update the constant then.

The invalid records are made by mutating those games (or written by hand). Each comes with the
diagnostics that the rules say ``phatlog verify`` must report, worked out here from the fault itself
(with the rules spelled out in this file), not read off the tool; the script then runs the checker and
compares. A case where the two disagree is not written: it is printed as DISPUTED, for a person to
settle, and the script exits 1.

Under ``peg_out: immediate`` the game ends at the peg that reaches the target: in a game won by a bonus,
the awards of the last deal that come after the winning one are not pegged (rules reference A.2, A.3).
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any, Final

from phatlog.engine.state import Pegged, TrickWon
from phatlog.play.simulate import simulate
from phatlog.record.reader import UNREADABLE_CODES
from phatlog.referee.pitch import Findings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (
    actual_diagnostics,
    as_bytes,
    card_points,
    code_pointer,
    dumps,
    events_of,
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
MANIFEST: Final = INVALID_DIR / "expected-don.json"
DATA: Final = HERE.parent / "tests" / "data"
OWN_GAMES: Final = ("nine-card-don-*.json", "irish-don-*.json")
OWN_INVALID: Final = "don-*.json"

# The seeds found for each sample game (see the module docstring).
SEED_GAME_8_CUT_TIE: Final = 33
SEED_SEVEN_POINT_BONUS: Final = 2
SEED_LOW_HOLDER: Final = 2
SEED_LOW_CAPTURER: Final = 1
SEED_JACK_WINS: Final = 132
SEED_BONUS_WINS: Final = 2
SEED_GAME_WINS_BEFORE_HIGH: Final = 20
SEED_FOLLOW_OR_TRUMP: Final = 1
SEED_END_OF_DEAL_91: Final = 13
SEED_IRISH: Final = 1
SEED_IRISH_END_OF_DEAL: Final = 147

EVENT_NAME: Final = "phatlog sample games: the Don family"
SITE: Final = "The Plough, Worcester"
DATE: Final = "2026-11-21"
RANKS: Final = "23456789TJQKA"
TARGET: Final = {"nine_card_don": 121, "irish_don": 81}


# --------------------------------------------------------------------------- the rules, by the engine


def rank(card: str) -> int:
    return RANKS.index(card[0])


def winner_of(trick: Record, trump: str) -> int:
    """The seat that wins the trick (the engine's rule)."""
    return trick_winner(trick["leader"], trick["cards"], trump, 4)


def trump_of(deal: Record) -> str:
    return str(deal["tricks"][0]["cards"][0][1])


def add_winners(record: Record) -> None:
    """Record every trick's winner (optional in the format, checked by the engine)."""
    for deal in record["deals"]:
        for trick in deal.get("tricks") or []:
            trick["winner"] = winner_of(trick, trump_of(deal))


def plays(deal: Record) -> Iterator[tuple[int, int, int, str, set[str]]]:
    """Every card played in a deal with its hands: (trick, position, seat, card, the hand before it)."""
    held = [set(h) for h in deal["hands"]]
    for t, trick in enumerate(deal["tricks"]):
        for i, card in enumerate(trick["cards"]):
            seat = (trick["leader"] + i) % 4
            yield t, i, seat, card, set(held[seat])
            held[seat].discard(card)


def trumped_while_able(deal: Record) -> list[tuple[int, int, str]]:
    """(trick, position, card) of each trump played while its player held the (plain) suit led."""
    trump = trump_of(deal)
    out = []
    for t, i, _seat, card, hand in plays(deal):
        led = deal["tricks"][t]["cards"][0][1]
        if i and led != trump and card[1] == trump and any(c[1] == led for c in hand):
            out.append((t, i, card))
    return out


def taken(deal: Record) -> tuple[list[str], list[str]]:
    trump = trump_of(deal)
    sides: tuple[list[str], list[str]] = ([], [])
    for trick in deal["tricks"]:
        sides[winner_of(trick, trump) % 2].extend(trick["cards"])
    return sides


def low_trump(deal: Record) -> tuple[str, int, int]:
    """The lowest trump dealt: (card, the side dealt it, the side that won it)."""
    trump = trump_of(deal)
    card, seat = min(
        ((c, s) for s, h in enumerate(deal["hands"]) for c in h if c[1] == trump), key=lambda x: rank(x[0])
    )
    return card, seat % 2, 0 if card in taken(deal)[0] else 1


def seven_point_deal(deal: Record) -> bool:
    """A played-out deal whose game is won and whose jack of trumps was not dealt: 6 + 1, or 5 + 1 + 1."""
    if len(deal["tricks"]) < 9:
        return False
    mine, theirs = taken(deal)
    return card_points(mine) != card_points(theirs) and "J" + trump_of(deal) not in mine + theirs


# --------------------------------------------------------------------------- the sample games


def simulated(game: str, seed: int, rules: Record | None = None, with_cut: bool = False) -> Record:
    record = next(iter(simulate(game, seed, 1, rules=rules or {}, with_cut=with_cut)))
    add_winners(record)
    return record


def find(start: int, make: Callable[[int], Record], good: Callable[[Record, Findings], bool], what: str) -> Record:
    """The first game from seed ``start`` that has the property; says so if it is not ``start`` itself."""
    for seed in count(start):
        record = make(seed)
        if good(record, verdict(record)):
            if seed != start:
                print(f"note: {what}: seed {start} does not have the property; seed {seed} does", file=sys.stderr)
            record["event"] = {"source": f"phatlog simulate, seed {seed} (random legal play)"}
            return record
        if seed > start + 20000:
            break
    raise SystemExit(f"no seed from {start} gives {what}")


def dressed(record: Record, comment: str, round_: str) -> Record:
    """The record with its metadata, its keys in the canonical order."""
    event = {"name": EVENT_NAME, "site": SITE, "date": DATE, "round": round_, "scorer": "make_don_samples.py"}
    event["source"] = record.get("event", {}).get("source", "hand-worked")
    out: Record = {"phatlog": record["phatlog"], "game": record["game"], "comment": comment, "event": event}
    for key in ("rules", "players", "cut", "deals", "result"):
        if key in record:
            out[key] = record[key]
    return out


def _names(record: Record) -> list[str]:
    return [p["name"] for p in record["players"]]


def _sides(record: Record, side: int) -> str:
    names = _names(record)
    return f"{names[side]} and {names[side + 2]}"


def _ending(record: Record) -> str:
    v = verdict(record)
    assert v.ended_at is not None and v.winner is not None and v.totals is not None
    d, t = v.ended_at
    final = f"{v.totals[0]}-{v.totals[1]}"
    where = f"at trick {t + 1} of deal {d + 1}" if t is not None else f"at the end of deal {d + 1}"
    return f"{_sides(record, v.winner[0])} win {where}, {final}."


def winning_award(record: Record, v: Findings) -> str | None:
    """For a game won at the end of a deal: the first award whose peg (the engine's ``Pegged`` event) took
    a side to the target in that deal."""
    if v.ended_at is None or v.ended_at[1] is not None:
        return None
    target = record.get("rules", {}).get("target", TARGET[record["game"]])
    for event in events_of(record):
        if not isinstance(event, Pegged) or event.deal != v.ended_at[0] or event.side is None:
            continue
        if event.points and event.totals is not None and event.totals[event.side] >= target:
            return event.label
    return None


def _cut_tie(record: Record, v: Findings) -> bool:
    return len(record["cut"]) >= 2


def _seven(record: Record, v: Findings) -> bool:
    return any(seven_point_deal(d) for d in record["deals"])


def _low_split(record: Record, v: Findings) -> bool:
    """A played-out deal whose lowest trump was won by the side it was not dealt to."""
    return any(len(d["tricks"]) == 9 and low_trump(d)[1] != low_trump(d)[2] for d in record["deals"])


def _won_by(label: str) -> Callable[[Record, Findings], bool]:
    def good(record: Record, v: Findings) -> bool:
        return winning_award(record, v) == label

    return good


def _awards_left_unpegged(record: Record, v: Findings) -> list[str]:
    """The awards of the winning deal that come after the winning peg (by the rules, not pegged)."""
    label = winning_award(record, v)
    if label is None or v.ended_at is None:
        return []
    deal = record["deals"][v.ended_at[0]]
    mine, theirs = taken(deal)
    trump = trump_of(deal)
    later = {"game": ["high", "jack"], "high": ["jack"]}.get(label, [])
    scored = ["jack"] if "J" + trump in mine + theirs else []
    return [x for x in later if x == "high" or x in scored]


def _trumps_instead(record: Record, v: Findings) -> bool:
    return any(trumped_while_able(d) for d in record["deals"])


def _first_to_target_loses(record: Record, v: Findings) -> bool:
    """Under end_of_deal: the side that first reached the target during a deal did not win."""
    assert v.winner is not None
    target = record["rules"]["target"] if "target" in record["rules"] else TARGET[record["game"]]
    for event in events_of(record):
        if isinstance(event, TrickWon):
            for side in (0, 1):
                if event.totals is not None and event.totals[side] >= target:
                    return side != v.winner[0]
    return False


def _seven_point_story(record: Record) -> str:
    d = next(k for k, deal in enumerate(record["deals"]) if seven_point_deal(deal))
    trump = trump_of(record["deals"][d])
    return (
        f"In deal {d + 1} the J{trump} (trumps are {trump}) is among the 16 undealt cards, so nobody scores "
        "the jack: 7 points"
    )


def sample_games() -> dict[str, Record]:
    games: dict[str, Record] = {}

    rec = find(
        SEED_GAME_8_CUT_TIE,
        lambda s: simulated("nine_card_don", s, with_cut=True),
        _cut_tie,
        "a Nine-card Don game whose cut needs a second round",
    )
    names = _names(rec)
    first = rec["cut"][0]
    tied = " and ".join(f"{names[s]} ({c})" for s, c in enumerate(first) if c is not None)
    pitcher = (rec["deals"][0]["dealer"] + 1) % 4
    games["nine-card-don-game-8.json"] = dressed(
        rec,
        f"Nine-card Don under the default rules (8 for game, 121 up, must follow). The cut: {tied} cut equal "
        f"ranks and cut again; {names[pitcher]} cuts highest and pitches first. " + _ending(rec),
        "1",
    )

    rules: Record = {"bonus": "six_high_jack"}
    rec = find(
        SEED_SEVEN_POINT_BONUS,
        lambda s: simulated("nine_card_don", s, rules),
        _seven,
        "a six_high_jack game with a deal whose jack of trumps was not dealt",
    )
    games["nine-card-don-six-high-jack.json"] = dressed(
        rec,
        "Nine-card Don, bonus six_high_jack: 6 for game, 1 for the highest trump dealt, 1 for the jack of "
        f"trumps. {_seven_point_story(rec)} (6 for game, 1 for high). " + _ending(rec),
        "2",
    )

    rules = {"bonus": "five_high_low_jack"}
    rec = find(
        SEED_LOW_HOLDER,
        lambda s: simulated("nine_card_don", s, rules),
        lambda r, v: _low_split(r, v) and _seven(r, v),
        "a five_high_low_jack game where low is won by the side not dealt it, and a 7-point deal",
    )
    d = next(k for k, x in enumerate(rec["deals"]) if len(x["tricks"]) == 9 and low_trump(x)[1] != low_trump(x)[2])
    low, holder, _ = low_trump(rec["deals"][d])
    games["nine-card-don-five-high-low-jack.json"] = dressed(
        rec,
        "Nine-card Don, bonus five_high_low_jack (5 for game, 1 each for high, low and jack), low to the side "
        f"dealt it (the default). In deal {d + 1} the lowest trump dealt, {low}, is won by the other side, "
        f"but the low point goes to {_sides(rec, holder)}, who were dealt it. {_seven_point_story(rec)}. "
        + _ending(rec),
        "3",
    )

    rules = {"bonus": "five_high_low_jack", "low_to": "capturer", "target": 91}
    rec = find(
        SEED_LOW_CAPTURER,
        lambda s: simulated("nine_card_don", s, rules),
        _low_split,
        "a low_to capturer game where low is won by the side not dealt it",
    )
    d = next(k for k, x in enumerate(rec["deals"]) if len(x["tricks"]) == 9 and low_trump(x)[1] != low_trump(x)[2])
    low, _, capturer = low_trump(rec["deals"][d])
    games["nine-card-don-low-to-capturer-91.json"] = dressed(
        rec,
        "Nine-card Don to 91, bonus five_high_low_jack with low_to capturer: low goes to the side that wins "
        f"the lowest trump dealt. In deal {d + 1} that is {low}, and {_sides(rec, capturer)} win it and score "
        "low. " + _ending(rec),
        "4",
    )

    rules = {"bonus": "six_high_jack"}
    rec = find(
        SEED_JACK_WINS,
        lambda s: simulated("nine_card_don", s, rules),
        _won_by("jack"),
        "a six_high_jack game won by the jack point",
    )
    games["nine-card-don-won-by-the-jack.json"] = dressed(
        rec,
        "Nine-card Don, bonus six_high_jack, won by a bonus peg: after the last trick of the last deal "
        "nobody has 121, and the awards are pegged in the order game, high, jack; the jack point, the last "
        "of them, is the peg that wins. " + _ending(rec),
        "5",
    )

    rec = find(
        SEED_BONUS_WINS,
        lambda s: simulated("nine_card_don", s),
        _won_by("game"),
        "a game_8 game won by the 8 for game",
    )
    games["nine-card-don-won-by-game.json"] = dressed(
        rec,
        "Nine-card Don under the default rules, won by the 8 for game: after the last trick of the last deal "
        "nobody has 121, and the 8 is the winning peg. " + _ending(rec),
        "6",
    )

    rules = {"bonus": "six_high_jack"}
    rec = find(
        SEED_GAME_WINS_BEFORE_HIGH,
        lambda s: simulated("nine_card_don", s, rules),
        lambda r, v: winning_award(r, v) == "game" and bool(_awards_left_unpegged(r, v)),
        "a six_high_jack game won by the 6 for game, before high",
    )
    left = " and ".join(_awards_left_unpegged(rec, verdict(rec)))
    games["nine-card-don-won-before-high.json"] = dressed(
        rec,
        "Nine-card Don, bonus six_high_jack, won by the 6 for game at the end of the last deal. The game ends "
        f"at that peg, so the {left} that would come after it are not pegged, and the last deal's points and "
        "the final totals leave them out. " + _ending(rec),
        "7",
    )

    rules = {"follow": "follow_or_trump"}
    rec = find(
        SEED_FOLLOW_OR_TRUMP,
        lambda s: simulated("nine_card_don", s, rules),
        _trumps_instead,
        "a follow_or_trump game in which a player trumps while able to follow",
    )
    d = next(k for k, x in enumerate(rec["deals"]) if trumped_while_able(x))
    t, i, card = trumped_while_able(rec["deals"][d])[0]
    seat = (rec["deals"][d]["tricks"][t]["leader"] + i) % 4
    games["nine-card-don-follow-or-trump.json"] = dressed(
        rec,
        "Nine-card Don under the old rule, follow follow_or_trump: a player may trump even when able to "
        f"follow suit. In trick {t + 1} of deal {d + 1}, {_names(rec)[seat]} plays the trump {card} while "
        "holding the suit led, which must_follow would not allow. " + _ending(rec),
        "8",
    )

    rules = {"target": 91, "peg_out": "end_of_deal"}
    rec = find(
        SEED_END_OF_DEAL_91,
        lambda s: simulated("nine_card_don", s, rules),
        _first_to_target_loses,
        "an end_of_deal game to 91 where the first side to 91 loses",
    )
    games["nine-card-don-91-end-of-deal.json"] = dressed(
        rec,
        "Nine-card Don to 91 with peg_out end_of_deal: the target is looked at only after the bonus, and the "
        "higher total wins. The first side to pass 91 in mid-deal plays the deal out and finishes behind. "
        + _ending(rec),
        "9",
    )

    worked = json.loads((DATA / "don_6_3.json").read_text(encoding="utf-8"))
    worked["rules"] = {"bonus": "six_high_jack"}
    worked["deals"][0]["score"] = {"points": [18, 19], "total": [18, 19]}
    add_winners(worked)
    worked["event"] = {"source": "rules reference B.6.3, hand-worked"}
    games["nine-card-don-worked-6-3.json"] = dressed(
        worked,
        "Rules reference B.6.3 as a deal, under six_high_jack: trumps in play AH QH 9H 7H 3H, the JH undealt. "
        "N+S (X) are dealt AH and 3H, E+W (Y) capture the 3H; game 30-25. Counters N+S 11, E+W 19; X pegs "
        "6 for game and 1 for high, and nobody the jack: 7 bonus points, 18-19.",
        "worked example",
    )

    rec = find(SEED_IRISH, lambda s: simulated("irish_don", s), lambda r, v: True, "an Irish Don game")
    holder = (rec["deals"][0]["dealer"] + 1) % 4
    games["irish-don-81.json"] = dressed(
        rec,
        f"Irish Don under the default rules: Phat's counters, no muck, 80 a deal, first side over 80 wins. "
        f"{_names(rec)[holder]} holds the 2D in the first deal and pitches it. " + _ending(rec),
        "10",
    )

    rules = {"peg_out": "end_of_deal"}
    rec = find(
        SEED_IRISH_END_OF_DEAL,
        lambda s: simulated("irish_don", s, rules),
        _first_to_target_loses,
        "an end_of_deal Irish Don game where the first side over 80 loses",
    )
    games["irish-don-end-of-deal.json"] = dressed(
        rec,
        "Irish Don with peg_out end_of_deal: the first side over 80 plays the deal out and loses it on the "
        "last deal's totals. " + _ending(rec),
        "11",
    )

    worked = json.loads((DATA / "don_irish_6_2.json").read_text(encoding="utf-8"))
    add_winners(worked)
    worked["event"] = {"source": "rules reference B.6.2, adapted by hand"}
    games["irish-don-worked-6-2.json"] = dressed(worked, worked["comment"], "worked example")
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


def case(name: str, content: Record, expected: Expected, why: str) -> Case:
    record = {**content, "comment": f"Invalid on purpose: {why}."}
    return Case(name, as_bytes(record), expected, why)


def first_deals(record: Record, deals: int) -> Record:
    """The record cut down to its first deals, marked as stopped (no winner yet)."""
    out = copy.deepcopy(record)
    out["deals"] = out["deals"][:deals]
    out["result"] = {"status": "unfinished", "reason": "sample cut short"}
    return out


def seat_of(trick: Record, i: int) -> int:
    return int(trick["leader"] + i) % 4


def invalid_cases(games: dict[str, Record]) -> Iterator[Case]:
    full = games["nine-card-don-game-8.json"]
    one = first_deals(full, 1)
    assert not verdict(one).diagnostics, "the base must be clean"

    # ---- the rules
    rec = copy.deepcopy(full)
    rec["rules"] = {"low_to": "holder"}
    yield case(
        "don-low-to-with-game-8.json",
        rec,
        [e("PL603", "/rules/low_to")],
        "rules low_to with the game_8 bonus, which has no low (a warning: the record is still refereed)",
    )
    rec = copy.deepcopy(games["nine-card-don-six-high-jack.json"])
    rec["rules"]["low_to"] = "capturer"
    yield case(
        "don-low-to-with-six-high-jack.json",
        rec,
        [e("PL603", "/rules/low_to")],
        "rules low_to with the six_high_jack bonus, which has no low (a warning: the record is still refereed)",
    )
    rec = copy.deepcopy(one)
    rec["rules"] = {"bonus": "eight_for_game"}
    yield case("don-bad-bonus.json", rec, [e("PL108", "/rules/bonus")], 'rules bonus "eight_for_game"')

    # ---- the deal
    rec = copy.deepcopy(one)
    deal = rec["deals"][0]
    card = deal["hands"][2][4]
    deal["undealt"][7] = card
    yield case(
        "don-undealt-overlaps-hand.json",
        rec,
        # The cards are not a proper deal, so the deal cannot be replayed: its recorded score is taken.
        [e("PL201", "/deals/0/undealt/7"), e("PL307", "/deals/0")],
        f"{card}, dealt to seat 2, is also listed as undealt",
    )
    rec = copy.deepcopy(one)
    deal = rec["deals"][0]
    del deal["hands"]
    card = deal["tricks"][3]["cards"][1]
    deal["undealt"][0] = card
    yield case(
        "don-undealt-played.json",
        rec,
        [e("PL201", "/deals/0/undealt/0"), e("PL307", "/deals/0")],
        f"no hands recorded; {card}, played in trick 4, is listed as undealt",
    )
    rec = copy.deepcopy(one)
    undealt = rec["deals"][0]["undealt"]
    undealt[15] = undealt[3]
    yield case(
        "don-undealt-twice.json",
        rec,
        [e("PL201", "/deals/0/undealt/15"), e("PL307", "/deals/0")],
        f"{undealt[3]} listed twice as undealt",
    )
    rec = copy.deepcopy(one)
    rec["deals"][0]["undealt"].pop()
    yield case("don-undealt-15.json", rec, [e("PL105", "/deals/0/undealt")], "15 undealt cards instead of 16")
    rec = copy.deepcopy(one)
    hands = rec["deals"][0]["hands"]
    hands[1].append(rec["deals"][0]["undealt"][0])
    yield case("don-hand-of-10.json", rec, [e("PL105", "/deals/0/hands/1")], "seat 1 dealt 10 cards")

    # ---- the play
    base = games["nine-card-don-follow-or-trump.json"]
    d = next(k for k, x in enumerate(base["deals"]) if trumped_while_able(x))
    rec = first_deals(base, d + 1)
    del rec["rules"]["follow"]  # back to the default, must_follow
    t, i, card = trumped_while_able(rec["deals"][d])[0]
    yield case(
        "don-revoke-trump-under-must-follow.json",
        rec,
        [e("PL303", f"/deals/{d}/tricks/{t}/cards/{i}"), e("PL307", f"/deals/{d}")],
        f"deal {d + 1} trick {t + 1}: {card}, a trump, played while holding the suit led; the game was played "
        "under follow_or_trump, which allows it, but the record leaves the rule at must_follow",
    )
    rec = copy.deepcopy(base)
    t, i, u, j = _discard_spot(rec["deals"][0])
    tricks = rec["deals"][0]["tricks"]
    tricks[t]["cards"][i], tricks[u]["cards"][j] = tricks[u]["cards"][j], tricks[t]["cards"][i]
    yield case(
        "don-revoke-under-follow-or-trump.json",
        rec,
        [e("PL303", f"/deals/0/tricks/{t}/cards/{i}"), e("PL307", "/deals/0")],
        f"follow_or_trump, deal 1 trick {t + 1}: {tricks[t]['cards'][i]}, neither the suit led nor a trump, "
        "played while holding the suit led",
    )
    rec = copy.deepcopy(one)
    trick = rec["deals"][0]["tricks"][2]
    undealt = rec["deals"][0]["undealt"][5]
    trick["cards"][3] = undealt
    yield case(
        "don-card-undealt-played.json",
        rec,
        [e("PL302", "/deals/0/tricks/2/cards/3"), e("PL307", "/deals/0")],
        f"trick 3: {undealt}, one of the undealt cards, played",
    )
    rec = copy.deepcopy(_won_in_mid_deal(games))
    last = rec["deals"][-1]
    stop = len(last["tricks"])
    _play_one_more(last)
    yield case(
        "don-tricks-after-win.json",
        rec,
        [e("PL305", f"/deals/{len(rec['deals']) - 1}/tricks/{stop}")],
        "a trick recorded after the one that won the game",
    )

    # ---- scores
    base = games["nine-card-don-six-high-jack.json"]
    d = next(k for k, x in enumerate(base["deals"]) if seven_point_deal(x))
    rec = first_deals(base, d + 1)
    mine, theirs = taken(rec["deals"][d])
    side = 0 if card_points(mine) > card_points(theirs) else 1
    rec["deals"][d]["score"]["points"][side] += 1
    yield case(
        "don-wrong-bonus-points.json",
        rec,
        [e("PL401", f"/deals/{d}/score/points/{side}")],
        f"deal {d + 1}: the jack of trumps was not dealt, so six_high_jack gives 7, but the scorer pegged 8",
    )
    base = games["nine-card-don-five-high-low-jack.json"]
    d = next(k for k, x in enumerate(base["deals"]) if len(x["tricks"]) == 9 and low_trump(x)[1] != low_trump(x)[2])
    rec = first_deals(base, d + 1)
    _, holder, capturer = low_trump(rec["deals"][d])
    rec["deals"][d]["score"]["points"][holder] -= 1
    rec["deals"][d]["score"]["points"][capturer] += 1
    yield case(
        "don-low-to-the-capturer.json",
        rec,
        [e("PL401", f"/deals/{d}/score/points/0"), e("PL401", f"/deals/{d}/score/points/1")],
        f"deal {d + 1}: low given to the side that won it, but low_to is the default, holder",
    )
    rec = copy.deepcopy(one)
    deal = rec["deals"][0]
    phat_nines = _points_with_phat_nines(deal)
    wrong = [s for s in (0, 1) if phat_nines[s] != deal["score"]["points"][s]]
    assert wrong, "the first deal of the base game has a nine in it"
    deal["score"]["points"] = phat_nines
    yield case(
        "don-phat-nines.json",
        rec,
        [e("PL401", f"/deals/0/score/points/{s}") for s in wrong],
        "deal 1 scored with Phat's nines (18 for the nine of trumps, 9 for the others) instead of Don's 9 and 0",
    )
    rec = copy.deepcopy(full)
    rec["deals"][0]["score"]["total"][1] += 8
    yield case("don-wrong-total.json", rec, [e("PL402", "/deals/0/score/total/1")], "deal 1's running total 8 out")
    rec = copy.deepcopy(full)
    rec["result"]["winner"] = [1 - rec["result"]["winner"][0]]
    yield case("don-wrong-winner.json", rec, [e("PL403", "/result/winner")], "the result names the losing side")

    # ---- the end of an end_of_deal game
    base = games["nine-card-don-91-end-of-deal.json"]
    rec = copy.deepcopy(base)
    deals = told(rec)
    d, t, side = next(
        (x.index, y.trick, s)
        for x in deals
        for y in x.tricks
        for s in (0, 1)
        if y.totals is not None and y.totals[s] >= rec["rules"]["target"]
    )
    rec["deals"] = rec["deals"][: d + 1]
    deal = rec["deals"][d]
    deal["tricks"] = deal["tricks"][: t + 1]
    totals = list(deals[d].tricks[t].totals or ())
    start = deals[d - 1].totals if d else (0, 0)
    assert start is not None
    deal["score"] = {"points": [totals[0] - start[0], totals[1] - start[1]], "total": totals}
    rec["result"] = {"winner": [side], "total": totals}
    yield case(
        "don-end-of-deal-stopped-at-target.json",
        rec,
        # Under end_of_deal nothing ends in mid-deal: the deal stops short, nobody has won, and the
        # recorded winner is a winner of a game nobody won.
        [e("PL306", f"/deals/{d}/tricks"), e("PL405", "/deals"), e("PL407", "/result/winner")],
        f"peg_out end_of_deal, but the record stops at trick {t + 1} of deal {d + 1}, where a side passed 91, "
        "as if the game had ended there",
    )

    # ---- the cut
    rec = copy.deepcopy(one)
    last_round = rec["cut"][-1]
    cutters = [s for s in range(4) if last_round[s] is not None]
    assert len(cutters) == 2
    a, b = cutters
    last_round[a], last_round[b] = last_round[b], last_round[a]
    yield case(
        "don-cut-wrong-pitcher.json",
        rec,
        [e("PL501", "/deals/0/dealer")],
        "the last round of the cut exchanged: the other cutter is highest and should pitch",
    )
    rec = copy.deepcopy(one)
    rec["cut"] = [[None, None, None, None]]
    pitcher = (rec["deals"][0]["dealer"] + 1) % 4
    rec["cut"][0][pitcher] = "AS"
    rec["cut"][0][(pitcher + 2) % 4] = "2C"
    yield case("don-cut-by-partners.json", rec, [e("PL501", "/cut/0")], "the cut made by two partners")
    rec = copy.deepcopy(one)
    first_round = rec["cut"][0]
    rec["cut"] = [first_round]
    yield case(
        "don-cut-tie-not-cut-again.json",
        rec,
        [e("PL501", "/cut/0")],
        "the cut's first round is a tie and is not cut again",
    )

    # ---- Irish Don
    original = json.loads((DATA / "worked_6_2.json").read_text(encoding="utf-8"))
    rec = copy.deepcopy(games["irish-don-worked-6-2.json"])
    deal = copy.deepcopy(original["deals"][0])
    deal["score"] = {"points": [46, 34], "total": [46, 34]}
    rec["deals"] = [deal]
    yield case(
        "don-irish-wrong-first-dealer.json",
        rec,
        [e("PL202", "/deals/0/dealer")],
        "the holder of the 2D (E) must pitch the first deal, so N deals it, not W",
    )
    sheet_rows = [
        {"dealer": 0, "score": {"points": [45, 40], "total": [45, 40]}},
        {"dealer": 1, "score": {"points": [30, 50], "total": [75, 90]}},
    ]
    rec = {
        "phatlog": "1.0",
        "game": "irish_don",
        "players": games["irish-don-81.json"]["players"],
        "deals": sheet_rows,
        "result": {"winner": [1], "total": [75, 90]},
    }
    yield case(
        "don-irish-sheet-not-80.json",
        rec,
        [e("PL401", "/deals/0/score/points")],
        "a score-sheet deal of 45-40: an Irish Don deal shares out exactly 80",
    )
    rec = copy.deepcopy(games["irish-don-81.json"])
    rec["cut"] = [["2C", "3C", "4C", "5C"]]
    yield case("don-irish-cut.json", rec, [e("PL102", "/cut")], "a cut in an Irish Don record")
    rec = copy.deepcopy(games["irish-don-81.json"])
    rec["deals"][0]["score"]["points"][0] += 8
    rec["deals"][0]["score"]["total"][0] += 8
    for later in rec["deals"][1:]:
        later["score"]["total"][0] += 8
    rec["result"]["total"][0] += 8
    # The 8 carried into every later total: the mistake is reported once, on the row where it was made
    # (its points and its running total), and in the final total.
    yield case(
        "don-irish-muck-scored.json",
        rec,
        [e("PL401", "/deals/0/score/points/0"), e("PL402", "/deals/0/score/total/0"), e("PL404", "/result/total/0")],
        "deal 1 scored with a muck 8, as in Phat: Irish Don has no muck",
    )


def _discard_spot(deal: Record) -> tuple[int, int, int, int]:
    """A follower who followed suit in trick t and later played a card of a third suit (not trumps):
    swapping the two is a revoke at trick t, under either follow rule."""
    tricks = deal["tricks"]
    trump = trump_of(deal)
    for t, trick in enumerate(tricks):
        led = trick["cards"][0][1]
        for i in range(1, 4):
            if trick["cards"][i][1] != led:
                continue
            seat = seat_of(trick, i)
            for u in range(t + 1, len(tricks)):
                j = (seat - tricks[u]["leader"]) % 4
                if tricks[u]["cards"][j][1] not in (led, trump):
                    return t, i, u, j
    raise AssertionError("no place for a revoke")


def _won_in_mid_deal(games: dict[str, Record]) -> Record:
    for rec in games.values():
        immediate = rec.get("rules", {}).get("peg_out", "immediate") == "immediate"
        if rec["game"] == "nine_card_don" and immediate and len(rec["deals"][-1]["tricks"]) < 9:
            return rec
    raise AssertionError("no sample game won in mid-deal")


def _play_one_more(deal: Record) -> None:
    """Append a trick after the last: led by its winner, each player's lowest card left."""
    played = {c for trick in deal["tricks"] for c in trick["cards"]}
    leader = winner_of(deal["tricks"][-1], trump_of(deal))
    left = [sorted(set(h) - played, key=lambda c: ("CDHS".index(c[1]), rank(c))) for h in deal["hands"]]
    deal["tricks"].append({"leader": leader, "cards": [left[(leader + k) % 4][0] for k in range(4)]})


def _points_with_phat_nines(deal: Record) -> list[int]:
    """The deal's points as a scorer who used Phat's nines (trump 18, plain 9) would write them."""
    trump = trump_of(deal)
    points = list(deal["score"]["points"])
    for trick in deal["tricks"]:
        side = winner_of(trick, trump) % 2
        for card in trick["cards"]:
            if card[0] == "9":
                points[side] += 9  # trump 9: 18 instead of 9; plain 9: 9 instead of 0
    return points


# --------------------------------------------------------------------------- writing


def main() -> int:
    games = sample_games()
    for pattern in OWN_GAMES:
        for old in GAMES_DIR.glob(pattern):
            old.unlink()
    for old in INVALID_DIR.glob(OWN_INVALID):
        old.unlink()
    MANIFEST.unlink(missing_ok=True)
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
    names: set[str] = set()
    for item in invalid_cases(games):
        assert item.name not in names and item.name.startswith("don-"), item.name
        names.add(item.name)
        found, unreadable = actual_diagnostics(item.data)
        want_unreadable = any(x["code"] in UNREADABLE_CODES for x in item.expected)
        agree = serious_of(found) == serious_of(item.expected) and unreadable == want_unreadable
        agree = agree and all(code_pointer(x) in {code_pointer(y) for y in found} for x in item.expected)
        if agree:
            (INVALID_DIR / item.name).write_bytes(item.data)
            expected[item.name] = sorted(item.expected, key=code_pointer)
        else:
            print(
                f"DISPUTED {item.name} ({item.why}): expected {item.expected}, phatlog gives {found}", file=sys.stderr
            )
            problems += 1
    MANIFEST.write_text(dumps(dict(sorted(expected.items()))), encoding="utf-8")
    print(f"{len(games)} Don games, {len(expected)} invalid Don records, {problems} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
