"""The replay summary of one record, as data: what ``phatlog replay`` shows, built from the engine's events.

``build`` drives the record through the game-state engine (``phatlog.states``, a visitor keeping its events)
and takes the diagnostics from the referee's verdict. A deal the engine plays through as recorded is
summarised from its events alone, and so is an All Fours score-sheet deal it passes over as recorded; a deal
it cannot (a faulty play, whose tricks after the fault are shown unscored, an Oh Hell score-sheet hand, which
the referee scores from its bids and tricks taken, a deal after totals became unknown) is summarised from the
referee's trace, as before. Either way the summary is plain dataclasses: for each deal the dealer, the
pitcher or first bidder, the hands, the trump and how it was fixed, the bids, each trick (leader, cards,
winner and why, the counters it pegs and the running score), the end-of-deal bonuses, and each side's points
and totals beside what the scorer recorded; at the end, who won and when. Every diagnostic is attached where
it belongs: to the trick its JSON Pointer names (and the card, where it names one), else to its deal, else to
the game.

``Summary.to_json`` is the same summary for programs; its shape is documented in ``docs/replay.md`` and
versioned by ``REPLAY_VERSION``. Cards are canonical card text there (``"AD"``); the sentences meant for
people (``text``, ``why``, ``reason``, ``notes``) use suit symbols.

The rules stay in the engine: winners, reasons, counters, bonuses with the totals after each, the peg
that wins, the trump or why there is none, and scores come from its events (or, for the deals above,
the trace). What this module adds is bookkeeping (sums, whether the totals are known) and the wording.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, cast

import msgspec

from phatlog.cards import CARD_BY_TEXT, CARD_TEXT, Card, Suit
from phatlog.diagnostics import Diagnostic, Severity, pointer_parts, seat_name
from phatlog.engine import oh_hell
from phatlog.engine.oh_hell import OhHellHand
from phatlog.engine.pitch import DealRecord, PitchGame, TrickRecord, Verdict, side_label
from phatlog.engine.referee import RULES_MODULES, referee
from phatlog.engine.state import (
    BidMade,
    CardPlayed,
    DealBegins,
    DealScored,
    Event,
    GameOver,
    IllegalAction,
    Pegged,
    TrickShown,
    TrickWon,
)
from phatlog.engine.tricks import explain_winner
from phatlog.engine.view import game_of
from phatlog.model import RECORD_ADAPTER
from phatlog.reader import Loaded

#: The version of the JSON shape of a summary ("MAJOR.MINOR"); a new major version breaks readers.
REPLAY_VERSION: Final = "1.1"

GAME_NAMES: Final = {
    "phat": "Phat",
    "nine_card_don": "Nine-card Don",
    "irish_don": "Irish Don",
    "oh_hell": "Oh Hell",
}


class SelectionError(ValueError):
    """``--deal`` or ``--trick`` names something the record does not have."""


# --------------------------------------------------------------------------- the summary's parts


@dataclass(slots=True)
class Side:
    """A side that scores: a partnership (Phat, Don) or a player (Oh Hell)."""

    side: int
    seats: list[int]
    name: str


@dataclass(slots=True)
class Play:
    """One card of a trick: who played it, and whether a diagnostic points at it."""

    seat: int
    card: str
    flagged: bool = False


@dataclass(slots=True)
class Counter:
    """A card that pegs points at once for the side that wins the trick it is in."""

    card: str
    points: int
    name: str | None = None


@dataclass(slots=True)
class TrickSummary:
    """One trick as recorded and as the engine judged it."""

    trick: int
    leader: int
    plays: list[Play]
    replayed: bool
    scored: bool
    winner: int | None = None
    winning_card: str | None = None
    why: str | None = None
    side: int | None = None
    points: int | None = None
    counters: list[Counter] = field(default_factory=list)
    total: list[int] | None = None  # the running total by side after this trick
    taken: list[int] | None = None
    game_won: bool = False
    comment: str | None = None  # the record's comment on this trick
    notes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class Trump:
    """The deal's trump and how it was fixed: ``pitch``, ``turnup``, ``none`` or ``unknown``."""

    suit: str | None
    how: str
    card: str | None
    seat: int | None
    text: str


@dataclass(slots=True)
class Peg:
    """An end-of-deal award in pegging order (Phat's muck; Don's game, high, low and jack)."""

    label: str
    side: int | None
    points: int
    reason: str
    totals: list[int] | None
    game_won: bool = False


@dataclass(slots=True)
class Captured:
    """The muck (Phat) or game (Nine-card Don) count of the cards each side took."""

    label: str
    by_side: list[int]


@dataclass(slots=True)
class Row:
    """One side's line of a deal's score. A field the game or the record does not have is None."""

    side: int
    name: str
    bid: int | None = None
    taken: int | None = None
    made: bool | None = None
    counters: int | None = None
    captured: int | None = None
    bonus: int | None = None
    points: int | None = None
    points_from: str | None = None
    total: int | None = None
    recorded_points: int | None = None
    recorded_total: int | None = None
    points_wrong: bool = False
    total_wrong: bool = False


@dataclass(slots=True)
class DealSummary:
    """One deal (a hand, in Oh Hell). ``kind``: ``play``, ``score_sheet`` or ``not_replayed``."""

    deal: int
    kind: str
    dealer: int
    pitcher: int | None
    first_bidder: int | None
    cards_each: int | None
    hands: list[list[str]] | None
    hands_from: str | None
    undealt: list[str] | None
    trump: Trump | None
    bids: list[int] | None
    bidding_order: list[int] | None
    tricks: list[TrickSummary]
    bonuses: list[Peg]
    captured: Captured | None
    rows: list[Row]
    points: list[int] | None
    totals: list[int] | None
    scored: bool
    comment: str | None
    notes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class RecordedResult:
    """The result as the record gives it."""

    status: str
    reason: str | None
    winner: list[int] | None
    total: list[int] | None


@dataclass(slots=True)
class GameEnd:
    """Who won and when (``how``: ``trick``, ``bonus``, ``end_of_deal``, ``deal`` or ``last_hand``)."""

    winners: list[int]
    names: list[str]
    how: str | None
    deal: int | None
    trick: int | None
    bonus: str | None
    score: int | None
    totals: list[int] | None
    text: str
    recorded: RecordedResult | None


@dataclass(slots=True)
class Selection:
    deal: int | None = None
    trick: int | None = None


@dataclass(slots=True)
class Counts:
    """Diagnostics in the whole record by severity, and how many are outside the selection."""

    error: int = 0
    warning: int = 0
    info: int = 0
    outside_selection: int = 0


@dataclass(slots=True)
class Summary:
    """The replay of one record. ``status``: ``replayed``, ``invalid`` (schema) or ``unreadable``."""

    status: str
    source: str
    game: str | None
    game_name: str | None
    players: list[str]
    sides: list[Side]
    rules: dict[str, Any] | None
    event: dict[str, Any] | None
    comment: str | None
    selection: Selection
    deals: list[DealSummary]
    end: GameEnd | None
    diagnostics: list[Diagnostic]
    counts: Counts

    @property
    def clean(self) -> bool:
        """Replayed, and verify found no error (warnings and notes do not count)."""
        return self.status == "replayed" and self.counts.error == 0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (see docs/replay.md)."""
        body = _jsonify(dataclasses.replace(self, deals=[]))
        assert isinstance(body, dict)
        body["deals"] = [deal_json(deal) for deal in self.deals]
        return {"phatlog_replay": REPLAY_VERSION, **body, "clean": self.clean}


def deal_json(deal: DealSummary) -> dict[str, Any]:
    """One deal of :meth:`Summary.to_json`."""
    body = _jsonify(deal)
    assert isinstance(body, dict)
    for trick in body.get("tricks") or ():
        trick["cards"] = [play["card"] for play in trick["plays"]]  # in play order, from the leader
    return body


# --------------------------------------------------------------------------- printing JSON

#: ``json.dumps(value, ensure_ascii=False)``, made once: the encoder's separators are ``", "`` and ``": "``.
_ENCODE: Final = json.JSONEncoder(ensure_ascii=False).encode
#: Pieces of output gathered before they are handed on (by :func:`write_json`).
_CHUNK: Final = 512


def dumps(data: Any, indent: int = 2) -> str:
    """JSON text, indented, with lists of plain values (hands, totals) and small flat objects (a play,
    a counter) on one line each."""
    parts: list[str] = []
    _layout(data, 0, indent, parts)
    parts.append("\n")
    return "".join(parts)


def write_json(summary: Summary, write: Callable[[str], object], indent: int = 2) -> None:
    """``dumps(summary.to_json())``, written a piece at a time: the deals are made JSON data one by one
    and written as they are, so that neither the whole JSON data nor the whole text is ever held (replay's
    memory stays in proportion to the record, issue 16)."""
    head = dataclasses.replace(summary, deals=[]).to_json()
    head["deals"] = _Deals(summary.deals)
    parts: list[str] = []

    def flush() -> None:
        write("".join(parts))
        parts.clear()

    _layout(head, 0, indent, parts, flush)
    parts.append("\n")
    flush()


class _Deals(list[Any]):
    """The deals of :func:`write_json`, laid out one at a time (a list, so the layout treats it as one)."""

    def __init__(self, deals: list[DealSummary]) -> None:
        super().__init__(deals)


def _plain(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _layout(value: Any, level: int, indent: int, parts: list[str], flush: Callable[[], None] | None = None) -> None:
    """Append the text of ``value`` at nesting ``level`` to ``parts`` (see :func:`dumps`); ``flush``, if
    given, is called after each deal of a :class:`_Deals` and whenever ``parts`` grows long."""
    if isinstance(value, dict) and value:
        if all(_plain(v) for v in value.values()):
            line = _ENCODE(value)
            if len(line) <= 72:  # a small object (a play, a counter, a side) on one line
                parts.append(line)
                return
        pad, inner = " " * (indent * level), " " * (indent * (level + 1))
        parts.append("{\n")
        first = True
        for k, v in value.items():
            parts.append(f"{inner}{_ENCODE(k)}: " if first else f",\n{inner}{_ENCODE(k)}: ")
            first = False
            _layout(v, level + 1, indent, parts, flush)
        parts.append("\n" + pad + "}")
        return
    if isinstance(value, _Deals):
        if not value:
            parts.append("[]")
            return
        pad, inner = " " * (indent * level), " " * (indent * (level + 1))
        parts.append("[\n")
        for i, deal in enumerate(value):
            parts.append(inner if i == 0 else ",\n" + inner)
            _layout(deal_json(deal), level + 1, indent, parts)
            if flush is not None:
                flush()
        parts.append("\n" + pad + "]")
        return
    if isinstance(value, list) and value and not all(_plain(v) for v in value):
        pad, inner = " " * (indent * level), " " * (indent * (level + 1))
        parts.append("[\n")
        rows = all(isinstance(v, list) and all(_plain(x) for x in v) for v in value)
        for i, v in enumerate(value):
            parts.append(inner if i == 0 else ",\n" + inner)
            if rows:
                parts.append(_ENCODE(v))
            else:
                _layout(v, level + 1, indent, parts, flush)
        parts.append("\n" + pad + "]")
        if flush is not None and len(parts) > _CHUNK:
            flush()
        return
    parts.append(_ENCODE(value))


def _jsonify(value: Any) -> Any:
    if isinstance(value, Diagnostic):
        return value.as_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonify(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_jsonify(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonify(v) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------- building


def failed(loaded: Loaded) -> Summary:
    """The summary of a document that cannot be replayed: unreadable, or not a valid record."""
    found = [d.located(()) for d in loaded.diagnostics]
    return Summary(
        status="unreadable" if loaded.unreadable else "invalid",
        source=loaded.source,
        game=None,
        game_name=None,
        players=[],
        sides=[],
        rules=None,
        event=None,
        comment=None,
        selection=Selection(),
        deals=[],
        end=None,
        diagnostics=found,
        counts=_count(found),
    )


def build(loaded: Loaded, deal: int | None = None, trick: int | None = None) -> Summary:
    """Replay a read record and summarise it; ``deal`` and ``trick`` (from 1) select what is shown.

    The whole record is always replayed: the selection changes what is shown, never the verdict.
    Raises ``SelectionError`` if the selection names a deal or trick the record does not have.
    """
    record = loaded.record
    if record is None:
        return failed(loaded)
    deals = record.deals
    if trick is not None and deal is None:
        raise SelectionError("--trick needs --deal: say which deal the trick is in")
    if deal is not None and not 1 <= deal <= len(deals):
        raise SelectionError(f"there is no deal {deal}: the record has {_plural(len(deals), 'deal')}")
    if deal is not None and trick is not None:
        count = len(deals[deal - 1].tricks or ())
        if not 1 <= trick <= count:
            raise SelectionError(f"there is no trick {trick} in deal {deal}: it has {_plural(count, 'trick')}")
    names = [p.name for p in record.players]
    game = game_of(record)
    verdict = referee(record, trace=True)
    found = [d.located(names) for d in loaded.diagnostics] + list(verdict.diagnostics)
    rules = RULES_MODULES[game](record)
    if isinstance(rules, PitchGame):
        builder: _Builder = _PitchBuilder(record, verdict, names, rules)
    else:
        builder = _OhHellBuilder(record, verdict, names)
    summaries = builder.deals()
    _trick_comments(deals, summaries)
    leftover = _attach(found, summaries)
    selection = Selection(deal, trick)
    shown, outside = _select(summaries, selection)
    counts = _count(found)
    counts.outside_selection = outside
    event = None if record.event is None else _drop_none(msgspec.to_builtins(record.event))
    return Summary(
        status="replayed",
        source=loaded.source,
        game=game,
        game_name=GAME_NAMES.get(game, game),
        players=names,
        sides=builder.sides(),
        rules=msgspec.to_builtins(record.rules),
        event=event or None,
        comment=record.comment,
        selection=selection,
        deals=shown,
        end=builder.end(summaries) if deal is None else None,
        diagnostics=leftover,
        counts=counts,
    )


def _trick_comments(deals: Sequence[Any], summaries: list[DealSummary]) -> None:
    """Give each trick the record's comment on it (an annotator's remark), to be shown at the trick."""
    for deal, summary in zip(deals, summaries, strict=False):
        recorded = _record_tricks(deal)
        for trick in summary.tricks:
            if 1 <= trick.trick <= len(recorded):
                trick.comment = recorded[trick.trick - 1].comment


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _drop_none(data: Any) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v is not None} if isinstance(data, dict) else {}


def _count(found: Sequence[Diagnostic]) -> Counts:
    counts = Counts()
    for d in found:
        if d.severity is Severity.ERROR:
            counts.error += 1
        elif d.severity is Severity.WARNING:
            counts.warning += 1
        else:
            counts.info += 1
    return counts


def _where(ptr: str) -> tuple[int | None, int | None, int | None, list[str]]:
    """The deal, trick and card (from 0) that a JSON Pointer names, and its parts."""
    parts = pointer_parts(ptr)
    deal = trick = card = None
    if len(parts) >= 2 and parts[0] == "deals" and parts[1].isdigit():
        deal = int(parts[1])
        if len(parts) >= 4 and parts[2] == "tricks" and parts[3].isdigit():
            trick = int(parts[3])
            if len(parts) >= 6 and parts[4] == "cards" and parts[5].isdigit():
                card = int(parts[5])
    return deal, trick, card, parts


def _attach(found: Sequence[Diagnostic], deals: list[DealSummary]) -> list[Diagnostic]:
    """Put each diagnostic in its place: a trick, a deal, or (returned) the game."""
    game_level: list[Diagnostic] = []
    for diagnostic in found:
        d, t, c, parts = _where(diagnostic.pointer)
        if d is None or d >= len(deals):
            game_level.append(diagnostic)
            continue
        deal = deals[d]
        if t is not None and t < len(deal.tricks):
            trick = deal.tricks[t]
            trick.diagnostics.append(diagnostic)
            if c is not None and c < len(trick.plays):
                trick.plays[c].flagged = True
            continue
        deal.diagnostics.append(diagnostic)
        # A wrong recorded score is shown beside the right one: /deals/d/score/points/s or .../total/s.
        if len(parts) == 5 and parts[2] == "score" and parts[4].isdigit():
            side = int(parts[4])
            if side < len(deal.rows):
                if parts[3] == "points":
                    deal.rows[side].points_wrong = True
                elif parts[3] == "total":
                    deal.rows[side].total_wrong = True
    return game_level


def _select(deals: list[DealSummary], selection: Selection) -> tuple[list[DealSummary], int]:
    """The deals (and tricks) selected, and how many diagnostics the rest hold."""
    if selection.deal is None:
        return deals, 0
    outside = 0
    shown: list[DealSummary] = []
    for deal in deals:
        in_tricks = sum(len(t.diagnostics) for t in deal.tricks)
        if deal.deal != selection.deal:
            outside += len(deal.diagnostics) + in_tricks
            continue
        if selection.trick is not None:
            keep = [t for t in deal.tricks if t.trick == selection.trick]
            outside += in_tricks - sum(len(t.diagnostics) for t in keep)
            deal = dataclasses.replace(deal, tricks=keep, bonuses=[], captured=None, rows=[])
        shown.append(deal)
    return shown, outside


def _recorded(score: Any, sides: int) -> tuple[list[int] | None, list[int] | None]:
    """The deal's recorded points and running totals, where the record gives them for every side."""
    if score is None:
        return None, None
    points = list(score.points) if score.points is not None and len(score.points) == sides else None
    total = list(score.total) if score.total is not None and len(score.total) == sides else None
    return points, total


def _record_tricks(deal: Any) -> list[Any]:
    return list(deal.tricks or ())


def _unreplayed(t: int, trick: Any, seats: int) -> TrickSummary:
    """A recorded trick the engine did not replay: its cards, nobody judged (the deal's notes say why)."""
    plays = [Play((trick.leader + i) % seats, text) for i, text in enumerate(trick.cards)]
    return TrickSummary(t + 1, trick.leader, plays, replayed=False, scored=False)


def _score_columns(
    row: Row,
    side: int,
    points: Sequence[int] | None,
    points_from: str | None,
    totals: Sequence[int] | None,
    recorded_points: Sequence[int] | None,
    recorded_total: Sequence[int] | None,
) -> None:
    """A score row's points and total, by the rules and as recorded, where each is known."""
    if points is not None:
        row.points, row.points_from = points[side], points_from
    if totals is not None:
        row.total = totals[side]
    if recorded_points is not None:
        row.recorded_points = recorded_points[side]
    if recorded_total is not None:
        row.recorded_total = recorded_total[side]


def _numbers(numbers: Sequence[int]) -> str:
    """``[5, 6, 7]`` as "tricks 5-7", ``[5]`` as "trick 5"."""
    if len(numbers) == 1:
        return f"trick {numbers[0]}"
    return f"tricks {numbers[0]}-{numbers[-1]}"


def _plays(leader: int, cards: Sequence[Card], seats: int) -> list[Play]:
    return [Play((leader + i) % seats, CARD_TEXT[c]) for i, c in enumerate(cards)]


@dataclass(slots=True)
class _DealEvents:
    """What the engine told its visitors of one deal, in order."""

    begins: DealBegins | None = None
    bids: dict[int, int] = field(default_factory=dict)
    tricks: list[TrickWon] = field(default_factory=list)
    shown: list[TrickShown] = field(default_factory=list)  # a given-up deal's tricks from the illegal play on
    pegs: list[Pegged] = field(default_factory=list)
    scored: DealScored | None = None
    over: GameOver | None = None
    won_at: str | None = None  # "trick" or "peg": what the game was won with, in this deal

    def whole(self, recorded_tricks: int) -> bool:
        """The engine dealt and played this deal through as recorded, every trick (or up to a winning peg:
        the tricks recorded after the trick that won the game are not played)."""
        if self.begins is None or len(self.tricks) > recorded_tricks:
            return False
        if len(self.tricks) < recorded_tricks and not (self.over is not None and self.won_at == "trick"):
            return False
        if self.scored is not None:
            return not self.scored.passed_over and not self.scored.given_up
        return False


def _engine_events(record: Any) -> dict[int, _DealEvents]:
    """Drive the record through the engine (``phatlog.states``, faulty deals given up as recorded) and keep
    its events by deal; empty if the engine cannot take the record at all."""
    from phatlog.api import states  # the API builds summaries: imported when one is built

    by_deal: dict[int, _DealEvents] = {}

    def visit(event: Event) -> None:
        if type(event) is CardPlayed:  # the most frequent event, and the one not needed
            return
        got = by_deal.setdefault(event.deal, _DealEvents())
        if isinstance(event, DealBegins):
            got.begins = event
        elif isinstance(event, BidMade):
            got.bids[event.seat] = event.bid
        elif isinstance(event, TrickWon):
            got.tricks.append(event)
            got.won_at = "trick"
        elif isinstance(event, TrickShown):
            got.shown.append(event)
        elif isinstance(event, Pegged):
            got.pegs.append(event)
            got.won_at = "peg"
        elif isinstance(event, DealScored):
            got.scored = event
        elif isinstance(event, GameOver):
            got.over = event

    try:
        model = record if hasattr(record, "model_dump") else RECORD_ADAPTER.validate_python(msgspec.to_builtins(record))
        for _ in states(model, visitors=[visit], on_fault="pass"):
            pass
    except (ValueError, IllegalAction, IndexError, KeyError, TypeError):
        return {}  # every deal is then summarised from the referee's trace
    return by_deal


class _Builder:
    """What the two families share: names, sides, and the deals the engine did not replay."""

    seats: int

    def __init__(self, record: Any, verdict: Verdict, names: list[str]) -> None:
        self.record = record
        self.verdict = verdict
        self.names = names
        self.seats = len(names)
        self.events = _engine_events(record)

    def played_through(self, d: int, deal: Any, known: bool, before: list[DealSummary]) -> _DealEvents | None:
        """The engine's events of deal ``d`` if the summary can be built from them: the engine played the
        deal through as recorded, the totals are known, and it started from the totals shown so far."""
        got = self.events.get(d)
        if got is None or not known or not got.whole(len(_record_tricks(deal))):
            return None
        assert got.scored is not None
        return got if self._from_shown(got.scored, before) else None

    def passed_over(self, d: int, known: bool, before: list[DealSummary]) -> _DealEvents | None:
        """The engine's events of deal ``d`` if it is a score-sheet deal the engine passed over as its
        recorded points, the totals are known, and it started from the totals shown so far."""
        got = self.events.get(d)
        if got is None or not known or got.scored is None or not got.scored.passed_over or got.scored.given_up:
            return None
        return got if self._from_shown(got.scored, before) else None

    def given_up(self, d: int, deal: Any, known: bool, before: list[DealSummary]) -> _DealEvents | None:
        """The engine's events of deal ``d`` if the engine dealt it and gave it up at an illegal play, as the
        recorded points (its tricks from the illegal one on shown, unscored), the totals are known, and it
        started from the totals shown so far."""
        got = self.events.get(d)
        if got is None or not known or got.scored is None or not got.scored.given_up or got.begins is None:
            return None
        if not got.shown or len(got.tricks) + len(got.shown) != len(_record_tricks(deal)):
            return None
        return got if self._from_shown(got.scored, before) else None

    def _from_shown(self, scored: DealScored, before: list[DealSummary]) -> bool:
        """Whether the deal scored ``scored`` started from the totals the summary shows so far."""
        start = [t - p for t, p in zip(scored.totals, scored.points, strict=True)]
        shown = next((b.totals for b in reversed(before) if b.totals is not None), None)
        if before and (shown is None or before[-1].totals is None):
            return False
        return start == (shown if before else [0] * len(start))

    def name(self, seat: int) -> str:
        return seat_name(seat, self.names)

    def side_name(self, side: int) -> str:
        return self.name(side)

    def sides(self) -> list[Side]:
        return [Side(s, [s], self.name(s)) for s in range(self.seats)]

    def deals(self) -> list[DealSummary]:
        raise NotImplementedError

    def end(self, deals: list[DealSummary]) -> GameEnd | None:
        raise NotImplementedError

    def not_replayed(self, d: int, deal: Any, sides: int, why: str) -> DealSummary:
        """A recorded deal the engine did not replay (after the end of the game): what the record says."""
        points, total = _recorded(deal.score, sides)
        tricks = [_unreplayed(t, trick, self.seats) for t, trick in enumerate(_record_tricks(deal))]
        rows = [
            Row(
                s,
                self.side_name(s),
                recorded_points=None if points is None else points[s],
                recorded_total=None if total is None else total[s],
            )
            for s in range(sides)
        ]
        hands = None if deal.hands is None else [list(h) for h in deal.hands]
        return DealSummary(
            deal=d + 1,
            kind="not_replayed",
            dealer=deal.dealer,
            pitcher=None,
            first_bidder=None,
            cards_each=None,
            hands=hands,
            hands_from=None if hands is None else "record",
            undealt=None,
            trump=None,
            bids=None,
            bidding_order=None,
            tricks=tricks,
            bonuses=[],
            captured=None,
            rows=rows,
            points=None,
            totals=None,
            scored=False,
            comment=deal.comment,
            notes=[why],
        )

    def recorded_result(self) -> RecordedResult | None:
        result = self.record.result
        if result is None:
            return None
        return RecordedResult(
            result.status,
            result.reason,
            None if result.winner is None else list(result.winner),
            None if result.total is None else list(result.total),
        )

    def nobody(self) -> str:
        if self.verdict.trace is None:
            return "Not known: the record could not be replayed (see the problems below)"
        result = self.record.result
        if result is not None and result.status == "unfinished":
            why = f" ({result.reason})" if result.reason else ""
            return f"Nobody won: the game was stopped before its end{why}"
        return "Nobody won: the record ends before the game was won"


# --------------------------------------------------------------------------- Phat and the Don family


class _PitchBuilder(_Builder):
    def __init__(self, record: Any, verdict: Verdict, names: list[str], rules: PitchGame) -> None:
        super().__init__(record, verdict, names)
        self.rules = rules
        self.label = {"phat": "muck", "nine_card_don": "game"}.get(rules.game)
        # For each deal: the running totals after its last peg that ends the game, and how.
        self.won_with: dict[int, tuple[int, int | None, str | None]] = {}

    def side_name(self, side: int) -> str:
        return side_label(side, self.names)

    def sides(self) -> list[Side]:
        return [Side(s, [s, s + 2], self.side_name(s)) for s in (0, 1)]

    def deals(self) -> list[DealSummary]:
        trace: dict[int, DealRecord] = {r.index: r for r in self.verdict.trace or ()}
        known = True  # whether the running totals are known (see the engine's GameState.known)
        ended = self.verdict.ended_at
        out: list[DealSummary] = []
        for d, deal in enumerate(self.record.deals):
            if ended is not None and d > ended[0]:  # the referee stops at the deal that ends the game
                out.append(self.not_replayed(d, deal, 2, "recorded after the game was won: not replayed"))
                continue
            got = self.played_through(d, deal, known, out)
            if got is not None:
                out.append(self.from_events(d, deal, got))
                continue
            got = self.passed_over(d, known, out)
            if got is not None:
                out.append(self.as_recorded(d, deal, got))
                continue
            got = self.given_up(d, deal, known, out)
            if got is not None:
                out.append(self.as_recorded(d, deal, got))
                continue
            summary, known = self.deal(d, deal, trace[d], known)
            out.append(summary)
        return out

    def from_events(self, d: int, deal: Any, got: _DealEvents) -> DealSummary:
        """A deal the engine played through, from its events: the tricks with their winners, reasons,
        counters and running totals, the bonuses pegged with the totals after each, and the deal's score."""
        begins, scored = got.begins, got.scored
        assert begins is not None and scored is not None
        recorded_points, recorded_total = _recorded(deal.score, 2)
        trump = got.tricks[0].cards[0].suit if got.tricks else None  # the pitch: the first card led
        tricks = self.event_tricks(got, trump)
        played = _record_tricks(deal)
        after = [_unreplayed(t, played[t], 4) for t in range(len(tricks), len(played))]
        if got.over is not None and got.won_at == "trick" and self.rules.immediate:
            last, side = tricks[-1], got.over.winner[0]
            assert last.total is not None
            last.game_won = True
            last.notes.append(f"{self.side_name(side)} reach {last.total[side]}: they peg out and win")
            self.won_with[d] = (side, last.total[side], None)
        bonuses: list[Peg] = []
        for peg in got.pegs:
            bonuses.append(Peg(peg.label, peg.side, peg.points, peg.reason, list(peg.totals)))
        if got.over is not None and got.won_at == "peg" and self.rules.immediate:
            side = got.over.winner[0]
            bonuses[-1].game_won = True
            self.won_with[d] = (side, bonuses[-1].totals[side] if bonuses[-1].totals else None, bonuses[-1].label)
        captured = None
        if got.pegs and scored.captured is not None and self.label is not None:
            captured = Captured(self.label, list(scored.captured))
        points, totals = list(scored.points), list(scored.totals)
        rows: list[Row] = []
        for side in (0, 1):
            row = Row(side, self.side_name(side))
            row.counters = sum(t.points or 0 for t in tricks if t.side == side)
            if captured is not None:
                row.captured = captured.by_side[side]
            if got.pegs:
                row.bonus = sum(b.points for b in got.pegs if b.side == side)
            _score_columns(row, side, points, "rules", totals, recorded_points, recorded_total)
            rows.append(row)
        hands = [[CARD_TEXT[c] for c in h] for h in begins.hands]
        notes: list[str] = []
        if after:
            notes.append(f"{_numbers([t.trick for t in after])} not replayed: recorded after the game was won")
            tricks += after
        if got.over is not None and not self.rules.immediate:
            side = got.over.winner[0]
            notes.append(
                f"{self.side_name(side)} lead {totals[side]} to {totals[1 - side]} with {self.rules.target} "
                "reached at the end of the deal: they win"
            )
        if got.over is not None:
            self.won_with.setdefault(d, (got.over.winner[0], None, None))
        return DealSummary(
            deal=d + 1,
            kind="play",
            dealer=begins.dealer,
            pitcher=(begins.dealer + 1) % 4,
            first_bidder=None,
            cards_each=begins.size,
            hands=hands,
            hands_from="record" if deal.hands is not None else "play",
            undealt=None if getattr(deal, "undealt", None) is None else list(deal.undealt),
            trump=self.trump(_record_tricks(deal), trump),
            bids=None,
            bidding_order=None,
            tricks=tricks,
            bonuses=bonuses,
            captured=captured,
            rows=rows,
            points=points,
            totals=totals,
            scored=True,
            comment=deal.comment,
            notes=notes,
        )

    def event_tricks(self, got: _DealEvents, trump: Suit | None) -> list[TrickSummary]:
        """The tricks the engine played and scored: winners, reasons, counters and running totals."""
        tricks: list[TrickSummary] = []
        for tw in got.tricks:
            assert trump is not None
            counters = [Counter(CARD_TEXT[c], p, self.rules.counter_name(c, trump)) for c, p in tw.counters]
            summary = TrickSummary(
                tw.trick + 1,
                tw.leader,
                _plays(tw.leader, tw.cards, 4),
                replayed=True,
                scored=True,
                winner=tw.seat,
                winning_card=CARD_TEXT[tw.cards[tw.position]],
                why=tw.why,
                side=tw.seat & 1,
                points=tw.points,
                counters=sorted(counters, key=lambda c: -c.points),
                total=list(tw.totals),
            )
            tricks.append(summary)
        return tricks

    def as_recorded(self, d: int, deal: Any, got: _DealEvents) -> DealSummary:
        """A deal the engine passed over as its recorded points, from its events: a score-sheet deal, or a
        deal given up at an illegal play (its tricks before it scored, the rest shown unscored)."""
        scored, begins = got.scored, got.begins
        assert scored is not None
        played = _record_tricks(deal)
        trump = played[0].cards[0] if played and begins is not None else None  # the pitch: the first card led
        tricks = self.event_tricks(got, None if trump is None else CARD_BY_TEXT[trump].suit)
        tricks += [
            TrickSummary(
                ts.trick + 1,
                ts.leader,
                _plays(ts.leader, ts.cards, 4),
                replayed=True,
                scored=False,
                winner=ts.seat,
                winning_card=CARD_TEXT[ts.cards[ts.position]],
                why=ts.why,
                side=ts.seat & 1,
            )
            for ts in got.shown
        ]
        recorded_points, recorded_total = _recorded(deal.score, 2)
        points, totals = list(scored.points), list(scored.totals)
        rows: list[Row] = []
        for side in (0, 1):
            row = Row(side, self.side_name(side))
            _score_columns(row, side, points, "record", totals, recorded_points, recorded_total)
            rows.append(row)
        if begins is not None and played:
            hands: list[list[str]] | None = [[CARD_TEXT[c] for c in h] for h in begins.hands]
        else:
            hands = None if deal.hands is None else [list(h) for h in deal.hands]
        notes: list[str] = []
        if got.over is not None:
            side = got.over.winner[0]
            if not self.rules.immediate:
                notes.append(
                    f"{self.side_name(side)} lead {totals[side]} to {totals[1 - side]} with {self.rules.target} "
                    "reached at the end of the deal: they win"
                )
            self.won_with.setdefault(d, (side, None, None))
        return DealSummary(
            deal=d + 1,
            kind="play" if played else "score_sheet",
            dealer=deal.dealer,
            pitcher=(deal.dealer + 1) % 4,
            first_bidder=None,
            cards_each=self.rules.hand_size,
            hands=hands,
            hands_from=None if hands is None else ("record" if deal.hands is not None else "play"),
            undealt=None if getattr(deal, "undealt", None) is None else list(deal.undealt),
            trump=self.trump(played, None if trump is None else CARD_BY_TEXT[trump].suit),
            bids=None,
            bidding_order=None,
            tricks=tricks,
            bonuses=[],
            captured=None,
            rows=rows,
            points=points,
            totals=totals,
            scored=False,
            comment=deal.comment,
            notes=notes,
        )

    def deal(self, d: int, deal: Any, rec: DealRecord, known: bool) -> tuple[DealSummary, bool]:
        recorded_points, recorded_total = _recorded(deal.score, 2)
        start_known = known
        trump = rec.trump
        played = _record_tricks(deal)
        tricks = self.tricks(d, played, rec, trump, start_known)
        bonuses = self.bonuses(d, rec, start_known)
        captured = None
        if rec.bonuses and rec.captured is not None and self.label is not None:
            # Only with the bonuses: the trace's count is the previous deal's when no bonus was pegged.
            captured = Captured(self.label, list(rec.captured))
        if rec.scorable:
            points: list[int] | None = list(rec.points) if rec.points is not None else None
            points_from: str | None = "rules"
            if known and rec.totals is not None:
                totals: list[int] | None = list(rec.totals)
            elif recorded_total is not None:
                totals, known = recorded_total, True  # the engine re-anchors on the scorer's total
            else:
                totals = None
        elif recorded_points is not None:
            points, points_from = recorded_points, "record"
            totals = list(rec.totals) if known and rec.totals is not None else None
        elif recorded_total is not None:
            points = list(rec.points) if known and rec.points is not None else None
            points_from = "record" if points is not None else None
            totals, known = recorded_total, True
        else:
            points = totals = points_from = None
            known = False
        rows: list[Row] = []
        for side in (0, 1):
            row = Row(side, self.side_name(side))
            if rec.scorable and played:
                row.counters = sum(t.points or 0 for t in tricks if t.scored and t.side == side)
            if captured is not None:
                row.captured = captured.by_side[side]
            if rec.bonuses:
                row.bonus = sum(b.points for b in rec.bonuses if b.side == side)
            _score_columns(row, side, points, points_from, totals, recorded_points, recorded_total)
            rows.append(row)
        hands = None if rec.hands is None or not played else [[CARD_TEXT[c] for c in h] for h in rec.hands]
        if deal.hands is not None and (hands is None or not played):
            hands = [list(h) for h in deal.hands]  # faulty hands, as the record gives them
        notes: list[str] = []
        ended = self.verdict.ended_at
        skipped = [t.trick for t in tricks if not t.replayed]
        if skipped:
            after_win = ended is not None and ended[0] == d and ended[1] is not None and skipped[0] > ended[1] + 1
            why = "recorded after the game was won" if after_win else "the engine could not replay them"
            notes.append(f"{_numbers(skipped)} not replayed: {why}")
        if ended == (d, None) and not self.rules.immediate and self.verdict.winner and totals is not None:
            side = self.verdict.winner[0]
            notes.append(
                f"{self.side_name(side)} lead {totals[side]} to {totals[1 - side]} with {self.rules.target} "
                "reached at the end of the deal: they win"
            )
        if ended is not None and ended[0] == d and self.verdict.winner:
            self.won_with.setdefault(d, (self.verdict.winner[0], None, None))
        summary = DealSummary(
            deal=d + 1,
            kind="play" if played else "score_sheet",
            dealer=rec.dealer,
            pitcher=rec.pitcher,
            first_bidder=None,
            cards_each=self.rules.hand_size,
            hands=hands,
            hands_from=None if hands is None else ("record" if deal.hands is not None else "play"),
            undealt=None if getattr(deal, "undealt", None) is None else list(deal.undealt),
            trump=self.trump(played, trump),
            bids=None,
            bidding_order=None,
            tricks=tricks,
            bonuses=bonuses,
            captured=captured,
            rows=rows,
            points=points,
            totals=totals,
            scored=rec.scorable,
            comment=deal.comment,
            notes=notes,
        )
        return summary, known

    def trump(self, played: list[Any], trump: Suit | None) -> Trump | None:
        if not played:
            return None
        if trump is None:
            return Trump(None, "unknown", None, None, "not known: the deal could not be replayed")
        lead = played[0]
        card = CARD_BY_TEXT[lead.cards[0]]
        text = f"{self.name(lead.leader)} led {card.symbol}: {trump.name.lower()} are trump"
        return Trump(trump.letter, "pitch", CARD_TEXT[card], lead.leader, text)

    def tricks(self, d: int, played: list[Any], rec: DealRecord, trump: Suit | None, known: bool) -> list[TrickSummary]:
        traced: dict[int, TrickRecord] = {t.index: t for t in rec.tricks}
        out: list[TrickSummary] = []
        for t, trick in enumerate(played):
            tr = traced.get(t)
            if tr is None or trump is None:
                out.append(_unreplayed(t, trick, 4))
                continue
            summary = TrickSummary(
                t + 1,
                tr.leader,
                _plays(tr.leader, tr.cards, 4),
                replayed=True,
                scored=tr.scored,
                winner=tr.winner,
                winning_card=CARD_TEXT[tr.cards[tr.position]],
                why=self.why(tr.cards, trump),
                side=tr.winner & 1,
            )
            if tr.scored:
                summary.points = tr.points
                counters = [Counter(CARD_TEXT[c], p, self.rules.counter_name(c, trump)) for c, p in tr.counters]
                summary.counters = sorted(counters, key=lambda c: -c.points)
                summary.total = list(tr.totals) if known else None
            if tr.game_won:
                summary.game_won = True
                side = tr.winner & 1
                reach = tr.totals[side]
                summary.notes.append(f"{self.side_name(side)} reach {reach}: they peg out and win")
                self.won_with[d] = (side, reach, None)
            out.append(summary)
        return out

    def why(self, cards: Sequence[Card], trump: Suit) -> str:
        """Why the winning card won, under the game's follow rule."""
        return explain_winner(cards, trump, self.rules.follow)

    def bonuses(self, d: int, rec: DealRecord, known: bool) -> list[Peg]:
        if not rec.bonuses or rec.totals is None:
            return []
        running = list(rec.totals)
        for b in rec.bonuses:
            if b.side is not None:
                running[b.side] -= b.points
        target, immediate = self.rules.target, self.rules.immediate
        won = self.verdict.ended_at == (d, None) and immediate
        out: list[Peg] = []
        for b in rec.bonuses:
            peg = Peg(b.label, b.side, b.points, b.reason, None)
            if b.side is not None:
                running[b.side] += b.points
                if won and b.points and running[b.side] >= target:
                    won = False
                    peg.game_won = True
                    self.won_with[d] = (b.side, running[b.side], b.label)
            peg.totals = list(running) if known else None
            out.append(peg)
        return out

    def end(self, deals: list[DealSummary]) -> GameEnd | None:
        verdict = self.verdict
        recorded = self.recorded_result()
        totals = None if verdict.totals is None else list(verdict.totals)
        if not verdict.winner or verdict.ended_at is None:
            return GameEnd([], [], None, None, None, None, None, totals, self.nobody(), recorded)
        side = verdict.winner[0]
        d, t = verdict.ended_at
        who = self.side_name(side)
        _, reach, bonus = self.won_with.get(d, (side, None, None))
        score = reach if reach is not None else (None if totals is None else totals[side])
        with_score = "" if score is None else f" with {score}"
        if t is not None:
            how: str = "trick"
            text = f"{who} peg out at trick {t + 1} of deal {d + 1}{with_score}"
        elif bonus is not None:
            how = "bonus"
            text = f"{who} peg out with the {bonus} at the end of deal {d + 1}{with_score}"
        elif not self.rules.immediate:
            how = "end_of_deal"
            text = f"{who} win at the end of deal {d + 1}{with_score}"
        else:
            how = "deal"
            text = f"{who} win in deal {d + 1}, a score-sheet deal,{with_score}"
        if totals is not None:
            text += f" ({self.side_name(1 - side)} {totals[1 - side]})"
        return GameEnd([side], [who], how, d + 1, None if t is None else t + 1, bonus, score, totals, text, recorded)


# --------------------------------------------------------------------------- Oh Hell


class _OhHellBuilder(_Builder):
    def deals(self) -> list[DealSummary]:
        # Oh Hell's referee keeps an OhHellHand a hand in Verdict.trace.
        hands = cast(list[OhHellHand], self.verdict.trace or [])
        trace: dict[int, OhHellHand] = {h.index: h for h in hands}
        known = True
        out: list[DealSummary] = []
        for d, deal in enumerate(self.record.deals):
            hand = trace.get(d)
            if hand is None:
                why = (
                    "not replayed: the rules cannot be applied (see the problems at the end)"
                    if self.verdict.trace is None
                    else "recorded after the last hand: not replayed"
                )
                out.append(self.not_replayed(d, deal, self.seats, why))
                continue
            got = self.played_through(d, deal, known, out)
            if got is not None:
                out.append(self.from_events(d, deal, got))
                continue
            summary, known = self.hand(d, deal, hand, known)
            out.append(summary)
        return out

    def from_events(self, d: int, deal: Any, got: _DealEvents) -> DealSummary:
        """A hand the engine played through, from its events: the bids, each trick's winner and why with
        the tricks taken so far, the trump (or why there is none), and the hand's score."""
        begins, scored = got.begins, got.scored
        assert begins is not None and scored is not None
        n = self.seats
        recorded_points, recorded_total = _recorded(deal.score, n)
        first = (begins.dealer + 1) % n
        tricks = [
            TrickSummary(
                tw.trick + 1,
                tw.leader,
                _plays(tw.leader, tw.cards, n),
                replayed=True,
                scored=True,
                winner=tw.seat,
                winning_card=CARD_TEXT[tw.cards[tw.position]],
                why=tw.why,
                side=tw.seat,
                taken=list(tw.taken),
            )
            for tw in got.tricks
        ]
        bids = [got.bids[s] for s in range(n)]
        taken = list(got.tricks[-1].taken) if got.tricks else [0] * n
        points, totals = list(scored.points), list(scored.totals)
        rows: list[Row] = []
        for seat in range(n):
            row = Row(seat, self.name(seat), bid=bids[seat], taken=taken[seat], made=bids[seat] == taken[seat])
            _score_columns(row, seat, points, "rules", totals, recorded_points, recorded_total)
            rows.append(row)
        if begins.trump is not None and begins.turnup is not None:
            text = f"turned up {begins.turnup.symbol}: {begins.trump.name.lower()} are trump"
            trump = Trump(begins.trump.letter, "turnup", CARD_TEXT[begins.turnup], None, text)
        else:
            trump = Trump(None, "none", None, None, f"no trump: {begins.no_trump}")
        sequential = self.record.rules.bidding == "sequential"
        return DealSummary(
            deal=d + 1,
            kind="play",
            dealer=begins.dealer,
            pitcher=None,
            first_bidder=first,
            cards_each=begins.size,
            hands=[[CARD_TEXT[c] for c in h] for h in begins.hands],
            hands_from="record" if deal.hands is not None else "play",
            undealt=None,
            trump=trump,
            bids=bids,
            bidding_order=[(first + i) % n for i in range(n)] if sequential else None,
            tricks=tricks,
            bonuses=[],
            captured=None,
            rows=rows,
            points=points,
            totals=totals,
            scored=True,
            comment=deal.comment,
            notes=[],
        )

    def hand(self, d: int, deal: Any, hand: OhHellHand, known: bool) -> tuple[DealSummary, bool]:
        n = self.seats
        rules = self.record.rules
        recorded_points, recorded_total = _recorded(deal.score, n)
        first = (hand.dealer + 1) % n  # the dealer's left bids first and leads first
        played = _record_tricks(deal)
        start_known = known
        tricks = self.tricks(played, hand, start_known)
        if hand.points is not None:
            points: list[int] | None = list(hand.points)
            points_from: str | None = "rules"
        elif recorded_points is not None:
            points, points_from = recorded_points, "record"
        else:
            points = points_from = None
            known = False
        if not known and recorded_total is not None:
            known = True  # the engine re-anchors on the scorer's total
        totals = list(hand.totals) if known and hand.totals is not None else None
        bids = hand.bids if hand.bids is not None else (None if deal.bids is None else list(deal.bids))
        taken = hand.taken if hand.taken is not None else (None if deal.taken is None else list(deal.taken))
        rows: list[Row] = []
        for seat in range(n):
            row = Row(seat, self.name(seat))
            if bids is not None and seat < len(bids):
                row.bid = bids[seat]
            if taken is not None and seat < len(taken):
                row.taken = taken[seat]
            if hand.points is not None and row.bid is not None and row.taken is not None:
                row.made = row.bid == row.taken
            _score_columns(row, seat, points, points_from, totals, recorded_points, recorded_total)
            rows.append(row)
        hands = None if hand.hands is None else [[CARD_TEXT[c] for c in h] for h in hand.hands]
        if deal.hands is None and not played:
            hands = None  # a score sheet: the engine's "inferred" hands are empty
        sequential = rules.bidding == "sequential"
        trump = self.trump(d, hand)
        skipped = [t.trick for t in tricks if not t.replayed]
        notes = [f"{_numbers(skipped)} not replayed: the engine could not replay them"] if skipped else []
        summary = DealSummary(
            deal=d + 1,
            kind="play" if played else "score_sheet",
            dealer=hand.dealer,
            pitcher=None,
            first_bidder=first,
            cards_each=hand.size,
            hands=hands,
            hands_from=None if hands is None else ("record" if deal.hands is not None else "play"),
            undealt=None,
            trump=trump if played or trump.how != "unknown" else None,  # a score sheet need not say
            bids=bids,
            bidding_order=[(first + i) % n for i in range(n)] if sequential and bids is not None else None,
            tricks=tricks,
            bonuses=[],
            captured=None,
            rows=rows,
            points=points,
            totals=totals,
            scored=hand.scorable,
            comment=deal.comment,
            notes=notes,
        )
        return summary, known

    def trump(self, d: int, hand: OhHellHand) -> Trump:
        if hand.trump is not None and hand.turnup is not None:
            text = f"turned up {hand.turnup.symbol}: {hand.trump.name.lower()} are trump"
            return Trump(hand.trump.letter, "turnup", CARD_TEXT[hand.turnup], None, text)
        # The trace says there is no trump, not why: the reasons are oh_hell._hand's, in its order.
        sizes = oh_hell.hand_sizes(self.record.rules, self.seats)
        if self.seats * hand.size >= 52:
            why = "no card is left to turn up"
        elif d == len(sizes) - 1 and self.record.rules.no_trump == "last_hand":
            why = "the game's last hand is played without trump"
        elif hand.turnup is not None:
            text = f"not known: {hand.turnup.symbol} is recorded as turned up, but the hand could not be replayed"
            return Trump(None, "unknown", CARD_TEXT[hand.turnup], None, text)
        else:
            return Trump(None, "unknown", None, None, "not known: no turned-up card is recorded")
        return Trump(None, "none", None, None, f"no trump: {why}")

    def tricks(self, played: list[Any], hand: OhHellHand, known: bool) -> list[TrickSummary]:
        traced = {t.index: t for t in hand.tricks}
        n = self.seats
        out: list[TrickSummary] = []
        for t, trick in enumerate(played):
            tr = traced.get(t)
            if tr is None:
                out.append(_unreplayed(t, trick, n))
                continue
            summary = TrickSummary(
                t + 1,
                tr.leader,
                _plays(tr.leader, tr.cards, n),
                replayed=True,
                scored=tr.scored,
                winner=tr.winner,
                winning_card=CARD_TEXT[tr.cards[tr.position]],
                why=explain_winner(tr.cards, hand.trump),
                side=tr.winner,
            )
            if tr.scored:
                summary.taken = list(tr.taken)
            out.append(summary)
        return out

    def end(self, deals: list[DealSummary]) -> GameEnd | None:
        verdict = self.verdict
        recorded = self.recorded_result()
        totals = None if verdict.totals is None else list(verdict.totals)
        if not verdict.winner or totals is None:
            return GameEnd([], [], None, None, None, None, None, totals, self.nobody(), recorded)
        winners = list(verdict.winner)
        who = [self.name(s) for s in winners]
        best = totals[winners[0]]
        if len(winners) == 1:
            text = f"{who[0]} wins after the last hand with {best}"
        else:
            text = f"{', '.join(who[:-1])} and {who[-1]} share the win after the last hand with {best} each"
        last = len(self.record.deals)
        return GameEnd(winners, who, "last_hand", last, None, None, best, totals, text, recorded)
