"""``phatlog rescore``: a record with its scores as the engine scores them.

A director whose scorer added up wrongly needs the record with the right figures, not only a list of
the wrong ones. :func:`rescore` replays the record through the referee (the one rules source, as
``verify`` does) and writes, into a copy of the record's data, each deal's points and running totals
where the engine worked them out, and the result's winner and final totals where the engine knows them.
Everything else (the cards, the bids, the comments, ``ext``) is left exactly as it was, key order
included. Each figure changed is a :class:`Change`, in record order.

What rescoring does not change: a deal whose points the rules cannot work out (a score-sheet deal of
Phat or the Don games, or one given up at an illegal play) keeps its recorded points (its running totals
are still those the engine adds up); a game the engine finds unfinished keeps its result as recorded. An
illegal play stays in the record: ``verify`` still reports it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phatlog.diagnostics import seat_name
from phatlog.record.load import read
from phatlog.referee.heard import referee_events
from phatlog.referee.pitch import side_label


@dataclass(frozen=True, slots=True)
class Change:
    """One figure rescored: where (a JSON Pointer), in words, what the record said, what it now says."""

    pointer: str
    place: str
    old: Any
    new: Any


@dataclass(frozen=True, slots=True)
class Rescored:
    """The record's data with the engine's scores (``data``), and each figure that changed."""

    data: dict[str, Any]
    changes: list[Change]


def _side_name(game: str, side: int, names: Sequence[str]) -> str:
    return seat_name(side, names) if game == "oh_hell" else side_label(side, names)


def _by_side(game: str, values: Sequence[int] | None, names: Sequence[str]) -> str:
    if values is None:
        return "none"
    return ", ".join(f"{_side_name(game, s, names)} {v}" for s, v in enumerate(values))


def rescore(data: dict[str, Any]) -> Rescored:
    """``data`` (a record as JSON data) with every deal's points and totals, and the result, as the engine
    scores them; ``data`` itself is not changed. Raises ``phatlog.ReadError`` if it is not a record."""
    record = read(data)
    verdict, events = referee_events(record)
    out = copy.deepcopy(data)
    changes: list[Change] = []

    def put(holder: dict[str, Any], key: str, value: list[int], pointer: str, place: str) -> None:
        old = holder.get(key)
        if old != value:
            holder[key] = value
            changes.append(Change(pointer, place, old, value))

    for got in events:
        scored = got.scored
        if scored is None or got.index >= len(out["deals"]):
            continue
        deal = out["deals"][got.index]
        score = deal.get("score")
        if score is None:
            score = deal["score"] = {}
        where = f"/deals/{got.index}/score"
        if scored.points is not None and not scored.passed_over:
            put(score, "points", list(scored.points), f"{where}/points", f"deal {got.index + 1}'s points")
        if scored.totals is not None:
            put(score, "total", list(scored.totals), f"{where}/total", f"the totals after deal {got.index + 1}")
    result = out.get("result")
    if verdict.winner and verdict.totals is not None and (result or {}).get("status", "finished") == "finished":
        if result is None:
            result = out["result"] = {}
        put(result, "winner", list(verdict.winner), "/result/winner", "the result's winner")
        put(result, "total", list(verdict.totals), "/result/total", "the result's final totals")
    return Rescored(out, changes)


def describe(change: Change, data: dict[str, Any]) -> str:
    """A change in words: ``deal 1's points: Ann & Cal 28, Ben & Dee 53 -> Ann & Cal 27, Ben & Dee 53``."""
    game = str(data.get("game", ""))
    names = [str(p.get("name", "")) for p in data.get("players", []) if isinstance(p, dict)]
    if change.pointer == "/result/winner":

        def who(sides: Any) -> str:
            if not isinstance(sides, list) or not sides:
                return "none"
            return " and ".join(_side_name(game, int(s), names) for s in sides)

        return f"{change.place}: {who(change.old)} -> {who(change.new)}"
    old = change.old if isinstance(change.old, list) else None
    return f"{change.place}: {_by_side(game, old, names)} -> {_by_side(game, change.new, names)}"
