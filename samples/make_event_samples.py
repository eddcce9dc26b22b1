"""Write the sample event: a club night of Phat pairs and Oh Hell, several rounds and tables.

Run from the project root (or anywhere: paths are relative to this file)::

    .venv/bin/python samples/make_event_samples.py

It empties ``events/`` and writes one record a game, ``events/<game>/round-R-table-T.json``:

- Phat (Parlett's target of 121, so that records stay small): four fixed partnerships of the eight
  players, a round robin of three rounds at two tables;
- Oh Hell (hands of 1 to 5 cards, 5 hands): the eight players, two rounds at two tables of four, seated
  anew each round;
- the game of the third round's second table is recorded with a revoke (two of a player's cards swapped
  between tricks), so that standings list a record that is not clean (and count it, marked, with
  ``--include-problems``) and stats attribute the fault.

Every player has an ``id`` (their club number): standings and stats join players by it. The games are
played by the engine (``phatlog.start``) with random legal choices from one seeded generator a game, so
the files are the same on every run.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path
from typing import Any, Final

import phatlog

HERE: Final = Path(__file__).resolve().parent
OUT: Final = HERE / "events"
EVENT: Final = {"name": "Wherry Club Night", "site": "Wherry Inn, Geldeston", "date": "2026-11-28"}
PLAYERS: Final = {
    "ann": "Ann",
    "ben": "Ben",
    "cal": "Cal",
    "dee": "Dee",
    "eve": "Eve",
    "fay": "Fay",
    "gus": "Gus",
    "hal": "Hal",
}
#: Phat pairs, partners opposite: a pair is (seat 0 or 1, seat 2 or 3).
PAIRS: Final = (("ann", "cal"), ("ben", "dee"), ("eve", "gus"), ("fay", "hal"))
#: The round robin of the four pairs: in each round, two tables, each (pair on seats 0/2, pair on 1/3).
ROUNDS: Final = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))
#: Oh Hell: two rounds, two tables of four, by seat.
OH_HELL_TABLES: Final = (
    (("ann", "ben", "cal", "dee"), ("eve", "fay", "gus", "hal")),
    (("ann", "eve", "ben", "fay"), ("cal", "gus", "dee", "hal")),
)


def play(game: str, ids: list[str], rules: dict[str, Any], seed: int, where: dict[str, str]) -> dict[str, Any]:
    """One game played to its end by random legal choices; the record with the event and the players' ids."""
    rng = random.Random(seed)
    state = phatlog.start(game, players=[PLAYERS[i] for i in ids], rules=rules, seed=seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    out = {k: record[k] for k in ("phatlog", "game", "rules")}
    out["event"] = {**EVENT, **where, "source": f"samples/make_event_samples.py, seed {seed}"}
    out["players"] = [{"name": PLAYERS[i], "id": i} for i in ids]
    out["deals"] = record["deals"]
    out["result"] = record["result"]
    return out


def with_revoke(record: dict[str, Any]) -> dict[str, Any]:
    """The record with a revoke in its first deal: a follower's card of the suit led swapped with one of
    another suit that the same player plays later (so the player held the suit led and did not follow)."""
    faulty = copy.deepcopy(record)
    tricks = faulty["deals"][0]["tricks"]
    for t, trick in enumerate(tricks):
        led = trick["cards"][0][1]
        for i in range(1, 4):
            seat = (trick["leader"] + i) % 4
            if trick["cards"][i][1] != led:
                continue
            for later in tricks[t + 1 :]:
                j = (seat - later["leader"]) % 4
                if later["cards"][j][1] != led:
                    trick["cards"][i], later["cards"][j] = later["cards"][j], trick["cards"][i]
                    faulty["event"]["source"] += " (a revoke put in by hand)"
                    return faulty
    raise SystemExit("no trick to put a revoke in")


def write(path: Path, record: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    seed = 1200
    for r, tables in enumerate(ROUNDS, 1):
        for t, (a, b) in enumerate(tables, 1):
            seed += 1
            ids = [PAIRS[a][0], PAIRS[b][0], PAIRS[a][1], PAIRS[b][1]]
            where = {"round": str(r), "table": str(t)}
            record = play("phat", ids, {"target": 121}, seed, where)
            if (r, t) == (3, 2):
                record = with_revoke(record)
            write(OUT / "phat" / f"round-{r}-table-{t}.json", record)
    for r, seatings in enumerate(OH_HELL_TABLES, 1):
        for t, seated in enumerate(seatings, 1):
            seed += 1
            where = {"round": str(r), "table": str(t)}
            rules = {"schedule": [1, 2, 3, 4, 5]}
            write(OUT / "oh-hell" / f"round-{r}-table-{t}.json", play("oh_hell", list(seated), rules, seed, where))


if __name__ == "__main__":
    main()
