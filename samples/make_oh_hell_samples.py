"""Write the Oh Hell samples and the score-sheet samples, valid and invalid.

Run from the project root (or anywhere: paths are relative to this file)::

    .venv/bin/python samples/make_oh_hell_samples.py

It writes, and removes before writing, only its own files, so it does not matter whether the other
sample scripts run before or after it:

- ``games/oh-hell-*.json``: complete Oh Hell games for 3, 5 and 7 players under the default rules and
  under each variant (descending, up-and-down, down-and-up, the hook, simultaneous bidding, La Podrida,
  each scoring variant, trump in every hand), the worked hand of the rules reference (B.6.1) and a game
  with a shared win;
- ``games/score-sheet-*.json``: games scored on paper, Oh Hell (bids and tricks taken) and Phat (dealer
  and score), one of them mixing full and score-sheet deals;
- ``invalid/oh-hell-*.json`` and ``invalid/sheet-*.json``, one fault each, and
  ``invalid/expected-oh-hell.json``: for each file the error and warning diagnostics (code, JSON Pointer)
  that ``phatlog verify`` must report, in the format of ``invalid/expected.json``.

Everything is deterministic: the full games are seeded simulations (``phatlog.play.simulate``, random legal
play), and every trick's winner, hand's points, running total and result is worked out here from the
cards, bids and tricks (plain code, apart from the engine), then checked by ``phatlog verify``. Each
invalid record's expected diagnostics are worked out from its fault, not read off the tool; where the
tool disagrees the script writes nothing for that case, says so, and exits 1.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any, Final

from phatlog.archive.check import check_loaded
from phatlog.diagnostics import Severity
from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import as_bytes, dumps, hand_points, trick_winner

Record = dict[str, Any]
Expected = list[dict[str, str]]

HERE: Final = Path(__file__).resolve().parent
GAMES_DIR: Final = HERE / "games"
INVALID_DIR: Final = HERE / "invalid"
MANIFEST: Final = INVALID_DIR / "expected-oh-hell.json"
DATA: Final = HERE.parent / "tests" / "data"
OWN_GAMES: Final = ("oh-hell-*.json", "score-sheet-*.json")
OWN_INVALID: Final = ("oh-hell-*.json", "sheet-*.json")

EVENT_NAME: Final = "phatlog sample games"
SITE: Final = "Wherry Inn, Geldeston"
DATE: Final = "2026-11-21"
HIGH_TO_LOW: Final = "AKQJT98765432"
SERIOUS: Final = frozenset({Severity.ERROR.value, Severity.WARNING.value})

#: The seed of every simulated game: players * 100 + the variant's number (VARIANTS), so that each
#: game is the same every run.
VARIANTS: Final[list[tuple[str, Record, str]]] = [
    ("default", {}, "the default rules: hands of 1, 2, ... N cards, the last hand without trump"),
    ("descending", {"schedule": "down"}, "schedule down: the largest hand first, down to 1 card"),
    ("up-and-down", {"schedule": "up_down"}, "schedule up_down: 1 to N cards and back to 1, the N-card hand once"),
    ("down-and-up", {"schedule": "down_up"}, "schedule down_up: N cards down to 1 and back up, the 1-card hand once"),
    ("hook", {"hook": True}, "the hook: the dealer may not bid so that the bids add up to the hand size"),
    ("simultaneous", {"bidding": "simultaneous"}, "simultaneous bidding: the bids may add up to the hand size"),
    ("la-podrida", {"must_trump": True}, "La Podrida: a player who cannot follow suit must trump if able"),
    ("miss-tricks", {"miss": "tricks"}, "miss tricks: a missed bid scores one point a trick taken"),
    ("miss-minus-diff", {"miss": "minus_diff"}, "miss minus_diff: a missed bid scores minus the difference"),
    ("zero-five-plus", {"zero_bid": "five_plus_cards"}, "zero_bid five_plus_cards: a made 0 scores 5 + the hand size"),
    ("trump-every-hand", {"no_trump": "never"}, "no_trump never: every hand that leaves a card to turn has a trump"),
]
PLAYERS: Final = (3, 5, 7)


def reported(data: bytes) -> Expected:
    """What ``phatlog verify`` reports for a file's bytes: every (code, pointer, severity)."""
    report = check_loaded(read_bytes(data, "sample"), replay=True)
    return [{"code": d.code, "pointer": d.pointer, "severity": d.severity.value} for d in report.diagnostics]


def serious(found: Expected) -> list[tuple[str, str]]:
    return sorted((x["code"], x["pointer"]) for x in found if x.get("severity", "error") in SERIOUS)


# --------------------------------------------------------------------------- Oh Hell, by the engine's rules


def winner_of(trick: Record, players: int, trump: str | None) -> int:
    """The seat that wins the trick (the engine's rule)."""
    return trick_winner(trick["leader"], trick["cards"], trump, players)


def taken_in(deal: Record, players: int) -> list[int]:
    """The tricks each player took: as the score sheet says, or counted from the tricks."""
    if "taken" in deal and "tricks" not in deal:
        return list(deal["taken"])
    trump = deal["turnup"][1] if deal.get("turnup") else None
    taken = [0] * players
    for trick in deal["tricks"]:
        taken[winner_of(trick, players, trump)] += 1
    return taken


def add_winners(record: Record) -> Record:
    """Record every trick's winner (optional in the format, checked by the engine)."""
    n = len(record["players"])
    for deal in record["deals"]:
        trump = deal["turnup"][1] if deal.get("turnup") else None
        for trick in deal.get("tricks", ()):
            trick["winner"] = winner_of(trick, n, trump)
    return record


def rescore(record: Record, finished: bool = True) -> Record:
    """Every hand's points (the engine's ``hand_score``) and running totals, and the result."""
    n = len(record["players"])
    rules = record.get("rules", {})
    totals = [0] * n
    for deal in record["deals"]:
        taken = taken_in(deal, n)
        size = sum(taken)
        points = [hand_points(rules, deal["bids"][s], taken[s], size) for s in range(n)]
        totals = [totals[s] + points[s] for s in range(n)]
        deal["score"] = {"points": points, "total": list(totals)}
    if finished:
        best = max(totals)
        record["result"] = {"winner": [s for s in range(n) if totals[s] == best], "total": totals}
    return record


def simulated(players: int, rules: Record, seed: int) -> Record:
    record = next(iter(simulate("oh_hell", seed, 1, players=players, rules=rules)))
    return add_winners(record)  # scored by the engine as it was played


def to_sheet(record: Record, hands: list[int] | None = None) -> Record:
    """The chosen hands (all by default) cut down to a score sheet: tricks taken instead of the cards."""
    n = len(record["players"])
    for h, deal in enumerate(record["deals"]):
        if hands is not None and h not in hands:
            continue
        taken = taken_in(deal, n)
        for key in ("hands", "turnup", "tricks", "score"):
            deal.pop(key, None)
        deal["taken"] = taken
        deal["score"] = {}
    return rescore(record, finished="result" in record and "winner" in record["result"])


def dressed(record: Record, comment: str, round_: str, source: str, scorer: str = "make_oh_hell_samples.py") -> Record:
    """The record with its metadata, its keys in the canonical order."""
    event = {"name": EVENT_NAME, "site": SITE, "date": DATE, "round": round_, "scorer": scorer, "source": source}
    out: Record = {"phatlog": record["phatlog"], "game": record["game"], "comment": comment, "event": event}
    for key in ("rules", "players", "deals", "result"):
        if key in record:
            out[key] = record[key]
    return out


def _winners(record: Record) -> str:
    names = [p["name"] for p in record["players"]]
    result = record["result"]
    who = " and ".join(names[s] for s in result["winner"])
    best = result["total"][result["winner"][0]]
    return f"{who} win{'s' if len(result['winner']) == 1 else ''} with {best}."


def find(start: int, make: Callable[[int], Record], good: Callable[[Record], bool], what: str) -> tuple[int, Record]:
    """The first seed from ``start`` whose game has the property."""
    for seed in count(start):
        record = make(seed)
        if good(record):
            return seed, record
        if seed > start + 5000:
            break
    raise SystemExit(f"no seed from {start} gives {what}")


# --------------------------------------------------------------------------- the valid games


def oh_hell_games() -> dict[str, Record]:
    games: dict[str, Record] = {}
    for v, (name, rules, what) in enumerate(VARIANTS):
        for players in PLAYERS:
            seed = players * 100 + v
            record = simulated(players, rules, seed)
            hands = len(record["deals"])
            comment = f"Oh Hell, {players} players, {hands} hands; {what}. Random legal play. " + _winners(record)
            games[f"oh-hell-{name}-{players}p.json"] = dressed(
                record, comment, f"{name} {players}p", f"phatlog simulate, seed {seed} (random legal play)"
            )
    seed, record = find(
        400, lambda s: simulated(4, {}, s), lambda r: len(r["result"]["winner"]) > 1, "a game with a shared win"
    )
    games["oh-hell-shared-win-4p.json"] = dressed(
        record,
        "Oh Hell, 4 players, default rules: two players finish level on top, and equal totals share the win "
        "(A.5). " + _winners(record),
        "shared win",
        f"phatlog simulate, seed {seed} (random legal play)",
    )
    worked = json.loads((DATA / "worked_6_1.json").read_text(encoding="utf-8"))
    games["oh-hell-worked-6-1.json"] = dressed(
        add_winners(worked),
        worked["comment"] + " Ann bid 1 and took 2 (0), Ben bid 1 and took 1 (11), Cal bid 0 and took 0 (10).",
        "worked example",
        "rules reference B.6.1",
    )
    return games


SEED_NAMES: Final = ("Evelyn", "Frank", "George", "Helen")
#: Hands 4, 5 and 7 (by index 3, 4, 6) hold the seed's examples; the rest follow a seeded pattern.
SEED_HANDS: Final = {
    3: ([4, 0, 1, 0], [4, 0, 0, 0]),  # Evelyn bids 4 and takes 4; Frank bids 0 and takes 0
    4: ([1, 1, 3, 0], [1, 0, 4, 0]),  # George bids 3 and takes 4
    6: ([3, 2, 1, 0], [3, 2, 2, 0]),  # Helen bids 0 and takes 0 in the seventh hand, 7 tricks
}


def seed_sheet(rules: Record) -> Record:
    """The seed's four players, Evelyn, Frank, George and Helen, over the seed's 13 hands for four."""
    rng = random.Random(2)
    deals: list[Record] = []
    for h in range(13):
        size = h + 1
        dealer = (3 + h) % 4
        if h in SEED_HANDS:
            bids, taken = SEED_HANDS[h]
        else:
            taken = [0] * 4
            for _ in range(size):
                taken[rng.randrange(4)] += 1
            bids = [t if rng.random() < 0.55 else max(0, min(size, t + rng.choice((-1, 1)))) for t in taken]
        deals.append({"dealer": dealer, "bids": list(bids), "taken": list(taken)})
    record: Record = {
        "phatlog": "1.0",
        "game": "oh_hell",
        "rules": rules,
        "players": [{"name": n} for n in SEED_NAMES],
        "deals": deals,
        "result": {"winner": [], "total": []},
    }
    return rescore(record)


def phat_sheet(rows: list[tuple[int, int]], rules: Record, result: Record, first_dealer: int = 3) -> Record:
    totals = [0, 0]
    deals: list[Record] = []
    for d, (a, b) in enumerate(rows):
        totals = [totals[0] + a, totals[1] + b]
        deals.append({"dealer": (first_dealer + d) % 4, "score": {"points": [a, b], "total": list(totals)}})
    record: Record = {"phatlog": "1.0", "game": "phat", "rules": rules}
    record["players"] = [{"name": n} for n in ("Ann", "Ben", "Cal", "Dee")]
    record["deals"] = deals
    record["result"] = result
    return record


#: Phat to 181: deal 3's muck is tied 40-40 (80, nobody pegs the 8); NS 165, EW 179 after deal 4; EW
#: peg out early in deal 5, which stops there (peg_out immediate), and win 183-174.
PHAT_181: Final = [(50, 38), (30, 58), (40, 40), (45, 43), (9, 4)]
#: Under muck_tie carry: deal 1's tied muck carries 8 to deal 2's muck winner (96 that deal); deal 4's
#: muck ties again, but NS peg out in deal 5 before any muck, so that 8 is never collected.
PHAT_CARRY: Final = [(40, 40), (52, 44), (36, 52), (43, 37), (12, 3)]


def score_sheet_games(full: dict[str, Record]) -> dict[str, Record]:
    games: dict[str, Record] = {}
    sheet = "a score sheet: no cards"
    base = seed_sheet({})
    games["score-sheet-oh-hell-seed-examples.json"] = dressed(
        base,
        "Oh Hell score sheet (bids and tricks taken, no cards), 4 players over the seed's 13 hands, default "
        "scoring. It holds the seed's examples: in hand 4 Evelyn bids 4 and takes 4 (14) and Frank bids 0 and "
        "takes 0 (10); in hand 5 George bids 3 and takes 4 (0); in hand 7 Helen bids 0 and takes 0 (10). "
        + _winners(base),
        "seed examples",
        sheet,
        scorer="Helen",
    )
    variants = seed_sheet({"miss": "tricks", "zero_bid": "five_plus_cards"})
    games["score-sheet-oh-hell-seed-variants.json"] = dressed(
        variants,
        "The same bids and tricks scored with both of the seed's variations: a miss scores 1 a trick taken (George's "
        "3-bid, 4-taken hand 5 scores 4) and a made 0 scores 5 + the hand size (Helen's in hand 7 scores 12, "
        "Frank's in hand 4 only 9). " + _winners(variants),
        "seed variations",
        sheet,
        scorer="Helen",
    )
    hook = to_sheet(simulated(6, {"schedule": "down_up", "hook": True}, 6001))
    games["score-sheet-oh-hell-6p-hook.json"] = dressed(
        hook,
        "Oh Hell score sheet, 6 players, down_up (8 cards down to 1 and back up: 15 hands) with the hook: no "
        "hand's bids add up to its size. " + _winners(hook),
        "hook sheet",
        "score sheet transcribed from a seeded simulation (seed 6001)",
    )
    mixed = to_sheet(copy.deepcopy(full["oh-hell-default-5p.json"]), hands=list(range(3, 10)))
    mixed["comment"] = (
        "Oh Hell, 5 players: hands 1-3 recorded card by card, then only the score sheet (bids and tricks taken) "
        "for hands 4-10. " + _winners(mixed)
    )
    mixed["event"] = {**mixed["event"], "round": "mixed", "source": "oh-hell-default-5p.json, cut down"}
    games["score-sheet-oh-hell-mixed-5p.json"] = mixed

    phat = phat_sheet(PHAT_181, {}, {"winner": [1], "total": [174, 183]})
    games["score-sheet-phat-181.json"] = dressed(
        phat,
        "Phat score sheet (dealer and score only). Deals 1, 2 and 4 peg 88 (the 80 of the phat and the muck's "
        "8); deal 3's muck is tied 40-40, so nobody pegs its 8 and it scores 80 (muck_tie none). EW, at 179, "
        "peg out early in deal 5, which stops there at 9-4: Ben and Dee win 183-174.",
        "league sheet",
        "club score sheet",
        scorer="Cal",
    )
    carry = phat_sheet(PHAT_CARRY, {"muck_tie": "carry"}, {"winner": [0], "total": [183, 176]})
    games["score-sheet-phat-carry.json"] = dressed(
        carry,
        "Phat score sheet under muck_tie carry: deal 1's muck is tied (80); its 8 goes to deal 2's muck winner "
        "(96 that deal). Deal 4 ties again (80), but Ann and Cal peg out in deal 5 before its muck, so that 8 "
        "is lost. Ann and Cal win 183-176.",
        "carry sheet",
        "club score sheet",
        scorer="Cal",
    )
    worked = json.loads((DATA / "worked_6_2.json").read_text(encoding="utf-8"))
    mixed_phat = phat_sheet(
        [(50, 38), (30, 58), (54, 34), (40, 48), (7, 2)], {}, {"winner": [0], "total": [181, 180]}, first_dealer=1
    )
    played = worked["deals"][0]
    mixed_phat["deals"][2] = {**played, "score": mixed_phat["deals"][2]["score"]}
    games["score-sheet-phat-mixed.json"] = dressed(
        mixed_phat,
        "Phat: deals 1, 2, 4 and 5 from the score sheet; deal 3 (the rules reference's B.6.2 deal, dealt by Dee) "
        "recorded card by card, which scores 54-34. Ann and Cal peg out in deal 5 and win 181-180.",
        "mixed sheet",
        "score sheet, with one deal transcribed card by card",
        scorer="Cal",
    )
    return games


# --------------------------------------------------------------------------- the invalid records


@dataclass
class Case:
    name: str
    record: Record
    expected: Expected
    why: str


def e(code: str, ptr: str) -> dict[str, str]:
    return {"code": code, "pointer": ptr}


def broken(record: Record, why: str) -> Record:
    out = copy.deepcopy(record)
    out["comment"] = f"Invalid on purpose: {why}."
    return out


def plays(deal: Record, players: int) -> dict[tuple[int, int], tuple[int, str]]:
    """(trick, position) -> (seat, card) for every card played in a hand."""
    return {
        (t, i): ((trick["leader"] + i) % players, card)
        for t, trick in enumerate(deal["tricks"])
        for i, card in enumerate(trick["cards"])
    }


def swap(deal: Record, a: tuple[int, int], b: tuple[int, int]) -> None:
    tricks = deal["tricks"]
    (t, i), (t2, i2) = a, b
    tricks[t]["cards"][i], tricks[t2]["cards"][i2] = tricks[t2]["cards"][i2], tricks[t]["cards"][i]


def revoke_spot(deal: Record, players: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """A player who followed suit, and a later card of theirs of another suit they could have played."""
    played = plays(deal, players)
    for (t, i), (seat, card) in played.items():
        led = deal["tricks"][t]["cards"][0][1]
        if i and card[1] == led:
            for (t2, i2), (seat2, card2) in played.items():
                if t2 > t and seat2 == seat and card2[1] != led:
                    return (t, i), (t2, i2)
    raise SystemExit("no revoke spot")


def podrida_spot(deal: Record, players: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """A player who trumped because they could not follow, and a later non-trump of theirs."""
    trump = deal["turnup"][1]
    played = plays(deal, players)
    for (t, i), (seat, card) in played.items():
        if i and card[1] == trump != deal["tricks"][t]["cards"][0][1]:
            for (t2, i2), (seat2, card2) in played.items():
                if t2 > t and seat2 == seat and card2[1] != trump:
                    return (t, i), (t2, i2)
    raise SystemExit("no La Podrida spot")


def oh_hell_cases(games: dict[str, Record]) -> Iterator[Case]:
    base = games["oh-hell-default-5p.json"]
    n = 5
    d = 6  # hand 7: 7 cards each
    deal = base["deals"][d]

    rec = broken(base, "hand 7: a player who could follow suit plays another suit")
    at, later = revoke_spot(rec["deals"][d], n)
    swap(rec["deals"][d], at, later)
    yield Case(
        "oh-hell-revoke.json",
        rec,
        [e("PL303", f"/deals/{d}/tricks/{at[0]}/cards/{at[1]}"), e("PL307", f"/deals/{d}")],
        f"hand {d + 1}, trick {at[0] + 1}: a card of another suit played while holding the suit led",
    )

    podrida = games["oh-hell-la-podrida-5p.json"]
    h = next(h for h, x in enumerate(podrida["deals"]) if x.get("turnup") and _has_podrida_spot(x, n))
    rec = broken(podrida, f"hand {h + 1}: under must_trump a player void in the suit led discards, holding a trump")
    at, later = podrida_spot(rec["deals"][h], n)
    swap(rec["deals"][h], at, later)
    yield Case(
        "oh-hell-la-podrida-no-trump.json",
        rec,
        [e("PL303", f"/deals/{h}/tricks/{at[0]}/cards/{at[1]}"), e("PL307", f"/deals/{h}")],
        "La Podrida: a discard instead of a trump",
    )

    rec = broken(base, f"hand {d + 1}, trick 3 led by the wrong player")
    rec["deals"][d]["tricks"][2]["leader"] = (deal["tricks"][2]["leader"] + 1) % n
    yield Case(
        "oh-hell-wrong-leader.json",
        rec,
        [e("PL301", f"/deals/{d}/tricks/2/leader"), e("PL307", f"/deals/{d}")],
        "trick led by the wrong player",
    )

    rec = broken(base, f"hand {d + 1}, trick 2: a card that nobody was dealt")
    dealt = {c for hand in deal["hands"] for c in hand} | {deal["turnup"]}
    stranger = next(r + s for s in "SHDC" for r in HIGH_TO_LOW if r + s not in dealt)
    rec["deals"][d]["tricks"][1]["cards"][1] = stranger
    yield Case(
        "oh-hell-card-not-held.json",
        rec,
        [e("PL302", f"/deals/{d}/tricks/1/cards/1"), e("PL307", f"/deals/{d}")],
        f"{stranger} played, a card nobody was dealt",
    )

    rec = broken(base, f"hand {d + 1} without its hands: a card played in trick 1 is played again in trick 4")
    x = rec["deals"][d]
    del x["hands"]
    x["tricks"][3]["cards"][2] = x["tricks"][0]["cards"][2]
    yield Case(
        "oh-hell-card-played-twice.json",
        rec,
        [e("PL302", f"/deals/{d}/tricks/3/cards/2"), e("PL307", f"/deals/{d}")],
        "a card played twice",
    )

    rec = broken(base, f"hand {d + 1}: the first player holds 8 cards, one more than the schedule deals")
    rec["deals"][d]["hands"][0].append(stranger)
    yield Case(
        "oh-hell-wrong-hand-size.json",
        rec,
        [e("PL205", f"/deals/{d}/hands/0"), e("PL307", f"/deals/{d}")],
        "a hand of the wrong size",
    )

    rec = broken(base, f"hand {d + 1}: a card dealt to two players")
    rec["deals"][d]["hands"][1][0] = deal["hands"][0][0]
    yield Case(
        "oh-hell-duplicate-card.json",
        rec,
        [e("PL201", f"/deals/{d}/hands/1/0"), e("PL307", f"/deals/{d}")],
        "a card dealt twice",
    )

    rec = broken(base, f"hand {d + 1}: the turned-up card is a card of the trump suit that a player was dealt")
    trump = deal["turnup"][1]
    rec["deals"][d]["turnup"] = next(c for hand in deal["hands"] for c in hand if c[1] == trump)
    yield Case("oh-hell-turnup-dealt.json", rec, [e("PL206", f"/deals/{d}/turnup")], "turn-up dealt to a player")

    rec = broken(base, f"hand {d + 1} has a trump, but its turned-up card is not recorded")
    del rec["deals"][d]["turnup"]
    yield Case("oh-hell-turnup-missing.json", rec, [e("PL206", f"/deals/{d}/turnup")], "turn-up missing")

    small, last, card = _no_trump_turnup_game()
    rec = broken(small, "a card is recorded as turned up in the game's last hand, which has no trump")
    rec["deals"][last]["turnup"] = card
    yield Case("oh-hell-turnup-last-hand.json", rec, [e("PL206", f"/deals/{last}/turnup")], "turn-up, no trump")

    hook, h, dealer, forbidden = next(
        (games[name], h, x["dealer"], len(x["tricks"]) - (sum(x["bids"]) - x["bids"][x["dealer"]]))
        for name in ("oh-hell-hook-5p.json", "oh-hell-hook-3p.json", "oh-hell-hook-7p.json")
        for h, x in enumerate(games[name]["deals"])
        if 0 <= len(x["tricks"]) - (sum(x["bids"]) - x["bids"][x["dealer"]]) <= len(x["tricks"])
    )
    rec = broken(hook, f"hand {h + 1}: the dealer's bid makes the bids add up to the hand size, under the hook")
    rec["deals"][h]["bids"][dealer] = forbidden
    yield Case("oh-hell-hook-violation.json", rescore(rec), [e("PL208", f"/deals/{h}/bids/{dealer}")], "hook")

    rec = broken(base, "hand 3 (3 cards): a bid of 4")
    rec["deals"][2]["bids"][1] = 4
    yield Case("oh-hell-bid-too-high.json", rescore(rec), [e("PL208", "/deals/2/bids/1")], "bid above the hand size")

    rec = broken(games["oh-hell-simultaneous-3p.json"], "the hook with simultaneous bidding")
    rec["rules"]["hook"] = True
    yield Case("oh-hell-hook-simultaneous.json", rec, [e("PL601", "/rules/hook")], "an invalid rules combination")

    rec = broken(games["oh-hell-default-7p.json"], "max_cards 8 for 7 players: 56 cards")
    rec["rules"]["max_cards"] = 8
    yield Case("oh-hell-max-cards-too-large.json", rec, [e("PL601", "/rules/max_cards")], "max_cards too large")

    rec = broken(games["oh-hell-default-5p.json"], "a schedule of 11-card hands for 5 players: 55 cards")
    rec["rules"]["schedule"] = [*range(1, 11), 11]
    yield Case("oh-hell-schedule-too-large.json", rec, [e("PL601", "/rules/schedule/10")], "schedule too large")

    rec = broken(base, "hand 4: one player's points one too many")
    rec["deals"][3]["score"]["points"][2] += 1
    yield Case("oh-hell-wrong-points.json", rec, [e("PL401", "/deals/3/score/points/2")], "wrong points")

    rec = broken(base, "hand 5: one player's running total 10 out")
    rec["deals"][4]["score"]["total"][0] += 10
    yield Case("oh-hell-wrong-total.json", rec, [e("PL402", "/deals/4/score/total/0")], "wrong running total")

    rec = broken(base, "the result names a player who did not win")
    rec["result"]["winner"] = [next(s for s in range(n) if s not in base["result"]["winner"])]
    yield Case("oh-hell-wrong-result-winner.json", rec, [e("PL403", "/result/winner")], "wrong winner")

    shared = games["oh-hell-shared-win-4p.json"]
    rec = broken(shared, "two players finish level on top, but the result names only one")
    rec["result"]["winner"] = shared["result"]["winner"][:1]
    yield Case("oh-hell-shared-win-not-shared.json", rec, [e("PL403", "/result/winner")], "a shared win")

    rec = broken(base, "the result's final total for one player is 10 out")
    rec["result"]["total"][3] += 10
    yield Case("oh-hell-wrong-result-total.json", rec, [e("PL404", "/result/total/3")], "wrong final total")

    rec = broken(base, "the last hand is left out, and the result does not say the game was stopped")
    rec["deals"].pop()
    del rec["result"]
    yield Case("oh-hell-missing-hand.json", rec, [e("PL405", "/deals")], "a hand missing")

    rec = broken(base, "an eleventh hand after the schedule's ten")
    rec["deals"].append(copy.deepcopy(base["deals"][0]))
    yield Case("oh-hell-extra-hand.json", rec, [e("PL308", "/deals/10")], "a hand after the end")

    rec = broken(base, "hand 2 (2 cards) records a third trick")
    extra = rec["deals"][1]["tricks"][1]
    rec["deals"][1]["tricks"].append({"leader": extra["winner"], "cards": list(reversed(extra["cards"]))})
    yield Case("oh-hell-extra-trick.json", rec, [e("PL309", "/deals/1/tricks/2")], "more tricks than cards")

    rec = broken(base, f"hand {d + 1} stops after its sixth trick, and the game is not said to be stopped")
    rec["deals"][d]["tricks"].pop()
    yield Case("oh-hell-hand-incomplete.json", rec, [e("PL306", f"/deals/{d}/tricks")], "a hand cut short")

    rec = broken(base, f"hand {d + 1}, trick 5: the recorded winner is another player")
    trick = rec["deals"][d]["tricks"][4]
    trick["winner"] = (trick["winner"] + 1) % n
    yield Case("oh-hell-wrong-trick-winner.json", rec, [e("PL304", f"/deals/{d}/tricks/4/winner")], "winner")

    rec = broken(base, f"hand {d + 1} records both its tricks and tricks taken, and they disagree")
    taken = taken_in(deal, n)
    seat = next(s for s in range(n) if taken[s])
    taken[seat] -= 1
    taken[(seat + 1) % n] += 1
    rec["deals"][d]["taken"] = taken
    yield Case(
        "oh-hell-taken-disagrees.json",
        rec,
        [e("PL209", f"/deals/{d}/taken/{min(seat, (seat + 1) % n)}")],
        "tricks taken that disagree with the tricks",
    )

    rec = broken(base, "hand 2 records six bids for five players")
    rec["deals"][1]["bids"].append(0)
    yield Case("oh-hell-bids-per-player.json", rec, [e("PL207", "/deals/1/bids")], "a list of the wrong length")

    rec = broken(base, "eight players: Oh Hell is for 3 to 7")
    rec["players"].extend([{"name": "Hal"}, {"name": "Ivy"}, {"name": "Jo"}])
    yield Case("oh-hell-eight-players.json", rec, [e("PL105", "/players")], "eight players")

    rec = broken(base, 'the schedule "sideways", not a schedule')
    rec["rules"] = {"schedule": "sideways"}
    yield Case("oh-hell-bad-schedule.json", rec, [e("PL108", "/rules/schedule")], "an unknown schedule")


def _has_podrida_spot(deal: Record, players: int) -> bool:
    try:
        podrida_spot(deal, players)
    except SystemExit:
        return False
    return True


def _no_trump_turnup_game() -> tuple[Record, int, str]:
    """A short game (3 players, 3-2-1 cards) and an undealt card whose suit, as trump, would change no trick
    of the last hand: turning it up there is the one fault."""
    for seed in count(1):
        record = simulated(3, {"schedule": [3, 2, 1]}, seed)
        last = len(record["deals"]) - 1
        deal = record["deals"][last]
        dealt = {c for hand in deal["hands"] for c in hand}
        for suit in "SHDC":
            if all(winner_of(t, 3, suit) == t["winner"] for t in deal["tricks"]):
                card = next((r + suit for r in HIGH_TO_LOW if r + suit not in dealt), None)
                if card is not None:
                    return record, last, card
    raise AssertionError("unreachable")


def sheet_cases(games: dict[str, Record]) -> Iterator[Case]:
    oh = games["score-sheet-oh-hell-seed-examples.json"]

    rec = broken(oh, "hand 6 (6 tricks): the tricks taken add up to 7")
    rec["deals"][5]["taken"][0] += 1
    yield Case("sheet-oh-hell-taken-sum.json", rec, [e("PL209", "/deals/5/taken")], "tricks taken do not add up")

    rec = broken(oh, "hand 2 (2 cards): Frank bids 3")
    rec["deals"][1]["bids"][1] = 3
    yield Case("sheet-oh-hell-bid-too-high.json", rescore(rec), [e("PL208", "/deals/1/bids/1")], "bid too high")

    rec = broken(oh, "under the hook, hand 4's dealer (George) bids so that the bids add up to 4")
    rec["rules"] = {"hook": True}
    for deal in rec["deals"]:
        size = sum(deal["taken"])
        if sum(deal["bids"]) == size and deal is not rec["deals"][3]:
            deal["bids"][deal["dealer"]] += 1 if deal["bids"][deal["dealer"]] < size else -1
    rec["deals"][3]["bids"] = [4, 0, 0, 0]
    yield Case("sheet-oh-hell-hook.json", rescore(rec), [e("PL208", "/deals/3/bids/2")], "the hook")

    rec = broken(oh, "hand 4: Evelyn's 4-bid, 4-taken hand recorded as 4 points instead of 14")
    rec["deals"][3]["score"]["points"][0] = 4
    yield Case("sheet-oh-hell-wrong-points.json", rec, [e("PL401", "/deals/3/score/points/0")], "wrong points")

    rec = broken(oh, "hand 6 dealt by the wrong player")
    rec["deals"][5]["dealer"] = (rec["deals"][5]["dealer"] + 2) % 4
    yield Case("sheet-oh-hell-wrong-dealer.json", rec, [e("PL202", "/deals/5/dealer")], "wrong dealer")

    rec = broken(oh, "a turned-up card noted for the last hand, which is played without trump")
    rec["deals"][12]["turnup"] = "7H"
    yield Case("sheet-oh-hell-turnup-last-hand.json", rec, [e("PL206", "/deals/12/turnup")], "turn-up, no trump")

    rec = broken(oh, "the sheet stops after 12 of the 13 hands, and does not say the game was stopped")
    rec["deals"].pop()
    del rec["result"]
    yield Case("sheet-oh-hell-missing-hand.json", rec, [e("PL405", "/deals")], "a hand missing")

    phat = games["score-sheet-phat-181.json"]
    rec = broken(phat, "deal 2 recorded as 30-60: a complete deal pegs 88 (or 80 on a tied muck)")
    _phat_points(rec, 1, [30, 60])
    yield Case("sheet-phat-impossible-points.json", rec, [e("PL401", "/deals/1/score/points")], "90 in a deal")

    rec = broken(phat, "deal 2 recorded as -8 to 96: points are never negative")
    _phat_points(rec, 1, [-8, 96])
    yield Case("sheet-phat-negative-points.json", rec, [e("PL401", "/deals/1/score/points")], "negative points")

    carry = games["score-sheet-phat-carry.json"]
    rec = broken(carry, "under muck_tie carry, deal 2 pegs 88 although 8 was carried to its muck winner")
    _phat_points(rec, 1, [44, 44])
    yield Case("sheet-phat-carry-not-paid.json", rec, [e("PL401", "/deals/1/score/points")], "carry unpaid")

    rec = broken(phat, "under peg_out end_of_deal the last deal is played out, so it cannot score 9-4")
    rec["rules"] = {"peg_out": "end_of_deal"}
    yield Case("sheet-phat-end-of-deal-short.json", rec, [e("PL401", "/deals/4/score/points")], "short deal")

    rec = broken(phat, "deal 3's running total is 10 out")
    rec["deals"][2]["score"]["total"][1] += 10
    yield Case("sheet-phat-wrong-total.json", rec, [e("PL402", "/deals/2/score/total/1")], "wrong running total")

    rec = broken(phat, "the sheet stops at 165-179 and does not say the game was stopped")
    rec["deals"].pop()
    del rec["result"]
    yield Case("sheet-phat-stops-before-181.json", rec, [e("PL405", "/deals")], "stops before 181")

    rec = broken(phat, "a sixth deal after EW won")
    rec["deals"].append({"dealer": 0, "score": {"points": [44, 44], "total": [218, 227]}})
    yield Case("sheet-phat-deal-after-win.json", rec, [e("PL308", "/deals/5")], "a deal after the end")

    rec = broken(phat, "deal 5 dealt by the wrong player")
    rec["deals"][4]["dealer"] = (rec["deals"][4]["dealer"] + 1) % 4
    yield Case("sheet-phat-wrong-dealer.json", rec, [e("PL202", "/deals/4/dealer")], "wrong dealer")


def _phat_points(record: Record, d: int, points: list[int]) -> None:
    """Set one deal's points, the sheet cut short after it (marked as stopped there, so that the end of
    the game does not come into it), and its running total made to agree: one fault only."""
    old = record["deals"][d]["score"]["points"]
    delta = [points[0] - old[0], points[1] - old[1]]
    record["deals"] = record["deals"][: d + 1]
    record["deals"][d]["score"]["points"] = points
    for deal in record["deals"][d:]:
        deal["score"]["total"] = [deal["score"]["total"][s] + delta[s] for s in (0, 1)]
    record["result"] = {"status": "unfinished", "reason": "the sheet is torn after this deal"}


# --------------------------------------------------------------------------- writing


def main() -> int:
    full = oh_hell_games()
    games = {**full, **score_sheet_games(full)}
    for pattern in OWN_GAMES:
        for old in GAMES_DIR.glob(pattern):
            old.unlink()
    for pattern in OWN_INVALID:
        for old in INVALID_DIR.glob(pattern):
            old.unlink()
    MANIFEST.unlink(missing_ok=True)
    GAMES_DIR.mkdir(parents=True, exist_ok=True)
    INVALID_DIR.mkdir(parents=True, exist_ok=True)
    problems = 0
    for name, record in sorted(games.items()):
        data = as_bytes(record)
        found = reported(data)
        if serious(found):
            print(f"error: sample game {name} does not verify clean: {found}", file=sys.stderr)
            problems += 1
            continue
        (GAMES_DIR / name).write_bytes(data)
    expected: dict[str, Expected] = {}
    for case in [*oh_hell_cases(games), *sheet_cases(games)]:
        assert case.name not in expected, case.name
        data = as_bytes(case.record)
        found = reported(data)
        if serious(found) != serious(case.expected):
            print(
                f"DISPUTED {case.name} ({case.why}): expected {case.expected}, phatlog gives {found}", file=sys.stderr
            )
            problems += 1
            continue
        (INVALID_DIR / case.name).write_bytes(data)
        expected[case.name] = sorted(case.expected, key=lambda x: (x["code"], x["pointer"]))
    MANIFEST.write_text(dumps(dict(sorted(expected.items()))), encoding="utf-8")
    print(f"{len(games)} games, {len(expected)} invalid records, {problems} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
