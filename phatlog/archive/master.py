"""Seat views checked against the master record (``phatlog verify --master``; docs/archives.md).

A seat's view is the record as that seat saw it, as ``phatlog convert --view SEAT`` writes it
(:func:`phatlog.archive.convert.seat_view`): no hands (the seat's own in each deal's ``ext.phatlog_view.hand``),
no undealt cards, everything public kept, the seat named in ``ext.phatlog_view``. A view is consistent
with the master when it is exactly the master's view for that seat. Both are compared in canonical form
(:mod:`phatlog.record.canonical`: defaults explicit, key order and spelling irrelevant), and every difference is
a diagnostic at its JSON Pointer in the view, with a code for what differs:

- PL803 not-a-view: the record names no seat (``ext.phatlog_view.seat``) of the master;
- PL804 view-other-game: the game, rules, event, players, cut, a dealer, the number of deals or a comment;
- PL805 view-hand: the seat's own hand;
- PL806 view-card: a card seen (a trick's leader or card, the turned-up card), or a trick missing or added;
- PL807 view-bid: a bid or a number of tricks taken;
- PL808 view-score: a deal's score or the result;
- PL809 view-hidden-card (warning): the view shows cards its seat did not see (hands, undealt cards).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any, Final

import msgspec

from phatlog.archive.check import Batch, BatchResult, DocumentReport
from phatlog.archive.convert import VIEW_EXT, seat_view
from phatlog.diagnostics import Diagnostic, diag, pointer
from phatlog.formats.base import ConversionError
from phatlog.record.canonical import canonical_bytes
from phatlog.record.read_limits import ReadLimits
from phatlog.record.reader import read_bytes

_MISSING: Final = object()


def _plain(record: object) -> Any:
    """A record (a wire struct) as JSON data in canonical form."""
    return msgspec.json.decode(canonical_bytes(record))


def expected_view(master: Any, seat: int) -> Any:
    """The master's view for ``seat``, as JSON data in canonical form."""
    view = seat_view(_plain_dict(master), seat)
    loaded = read_bytes(json.dumps(view).encode("utf-8"))
    assert loaded.record is not None, loaded.diagnostics
    return _plain(loaded.record)


def _plain_dict(record: object) -> dict[str, Any]:
    """A wire struct as a JSON-ready dict, keys as written in the format, absent values dropped."""
    data = msgspec.to_builtins(record)
    return _drop_none(data)  # type: ignore[no-any-return]


def _drop_none(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _drop_none(v) for k, v in node.items() if v is not None}
    if isinstance(node, list):
        return [_drop_none(x) for x in node]
    return node


def view_seat(view: Any) -> int | None:
    """The seat a view names in ``ext.phatlog_view.seat``, or None."""
    ext = view.ext if isinstance(view.ext, dict) else {}
    marker = ext.get(VIEW_EXT)
    seat = marker.get("seat") if isinstance(marker, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def compare(master: Any, view: Any) -> list[Diagnostic]:
    """Every difference between a seat's view and the master's view for that seat (both wire structs)."""
    seat = view_seat(view)
    players = len(master.players)
    if seat is None or not 0 <= seat < players:
        said = "names no seat" if seat is None else f"names seat {seat}, and the master's seats are 0 to {players - 1}"
        return [
            diag(
                "PL803",
                f"this record {said} in ext.{VIEW_EXT}.seat: it is not a seat's view of the master "
                "(phatlog convert --view SEAT writes one)",
                f"/ext/{VIEW_EXT}/seat",
            )
        ]
    try:
        expected = expected_view(master, seat)
    except ConversionError as exc:
        return exc.diagnostics
    return list(_differences(expected, _plain(view), []))


def _differences(want: object, got: object, path: list[str | int]) -> Iterator[Diagnostic]:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            a, b = want.get(key, _MISSING), got.get(key, _MISSING)
            if a is _MISSING or b is _MISSING or a is None or b is None:
                if a != b and not (a in (None, _MISSING) and b in (None, _MISSING)):
                    yield _finding([*path, key], a, b)
                continue
            yield from _differences(a, b, [*path, key])
        return
    if isinstance(want, list) and isinstance(got, list):
        for i, (a, b) in enumerate(zip(want, got, strict=False)):
            yield from _differences(a, b, [*path, i])
        if len(want) != len(got):
            yield _count(path, want, got)
        return
    if want != got or type(want) is not type(got):
        yield _finding(path, want, got)


def _code(path: list[str | int]) -> str:
    if path[:1] == ["result"]:
        return "PL808"
    if path[:1] == ["deals"] and len(path) >= 3:
        field = path[2]
        if field == "ext" and path[3:5] == [VIEW_EXT, "hand"]:
            return "PL805"
        if field in ("tricks", "turnup"):
            return "PL806"
        if field in ("bids", "taken"):
            return "PL807"
        if field == "score":
            return "PL808"
        if field in ("hands", "undealt"):
            return "PL809"
    return "PL804"


_WHAT: Final = {
    "PL804": "the game",
    "PL805": "the seat's hand",
    "PL806": "a card seen",
    "PL807": "the bidding",
    "PL808": "the score",
    "PL809": "a hidden card",
}


def _shown(value: object) -> str:
    if value is _MISSING or value is None:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 80 else text[:77] + "..."


def _finding(path: list[str | int], want: object, got: object) -> Diagnostic:
    code = _code(path)
    if code == "PL809":
        message = f"the view shows {_shown(got)} here, which its seat did not see (a view has no hands)"
    else:
        message = f"{_WHAT[code]} differs from the master: the master has {_shown(want)}, the view {_shown(got)}"
    return diag(code, message, pointer(*path))


def _count(path: list[str | int], want: list[object], got: list[object]) -> Diagnostic:
    noun = str(path[-1]) if path and isinstance(path[-1], str) else "items"
    message = f"the master has {len(want)} {noun} here, the view {len(got)}"
    return diag(_code(path) if _code(path) != "PL809" else "PL804", message, pointer(*path))


def view_results(master: bytes, files: list[str], limits: ReadLimits, jobs: int = 1) -> Iterator[BatchResult]:
    """Every view of ``files`` compared with the master (its bytes, a valid record), batch by batch, in
    order: what ``verify --master`` reports (a view that cannot be read has its reader's diagnostics
    instead). ``jobs`` > 1 compares batches in that many processes (``check.map_batches``), each reading
    the master once."""
    from phatlog.archive.check import map_batches

    yield from map_batches(files, _compare_batch, master, limits, jobs)


@cache
def _master(data: bytes) -> Any:
    """The master record read from its bytes (once a process: the workers get the bytes, not the struct)."""
    record = read_bytes(data).record
    if record is None:
        raise ValueError("the master is not a valid record")  # the CLI checks it before
    return record


def _compare_batch(batch: Batch, master: bytes) -> BatchResult:
    """One batch of views compared with the master (a module-level function: picklable)."""
    from phatlog.archive.records import entries

    record = _master(master)
    result = BatchResult(size=batch.size)
    for entry in entries(batch):
        loaded = entry.loaded
        report = DocumentReport(entry.source, entry.line, list(loaded.diagnostics), loaded.unreadable)
        if loaded.record is not None:
            report.deals = len(loaded.record.deals)
            report.diagnostics.extend(compare(record, loaded.record))
            names = [p.name for p in loaded.record.players]
        else:
            names = []
        report.diagnostics = [d.located(names) for d in report.diagnostics]
        if entry.line is not None:
            report.diagnostics = [d.on_line(entry.line) for d in report.diagnostics]
        result.add(report)
    return result
