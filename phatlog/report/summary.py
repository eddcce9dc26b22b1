"""The replay summary of one record, as data: what ``phatlog replay`` shows, built from the engine's events.

``build`` has the referee judge the record with a visitor (``referee.Gather``: the events of each deal)
and summarises every deal from those events alike: a deal played through, a score-sheet deal, a deal
given up at an illegal play (its tricks from there on shown unscored), a deal whose hands are not a
proper deal, a deal after the totals became unknown. The summary is plain dataclasses: for each deal the
dealer, the pitcher or first bidder, the hands, the trump and how it was fixed, the bids, each trick
(leader, cards, winner and why, the counters it pegs and the running score), the end-of-deal bonuses, and
each side's points and totals beside what the scorer recorded; at the end, who won and when. Every
diagnostic (the same referee's verdict) is attached where it belongs: to the trick its JSON Pointer names
(and the card, where it names one), else to its deal, else to the game.

``Summary.to_json`` is the same summary for programs; its shape is documented in ``docs/replay.md`` and
versioned by ``REPLAY_VERSION``. Cards are canonical card text there (``"AD"``); the sentences meant for
people (``text``, ``why``, ``reason``, ``notes``) use suit symbols.

The rules stay in the engine: winners, reasons, counters, bonuses with the totals after each, the peg
that wins, the trump or why there is none, the points and whether the totals are known come from its
events. What this module adds is bookkeeping (sums) and the wording.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from phatlog.diagnostics import Diagnostic, Severity, pointer_parts, seat_name
from phatlog.engine.state import DealBegins, TrickWon
from phatlog.record.reader import Loaded
from phatlog.record.view import game_of
from phatlog.referee.all_fours import AllFours
from phatlog.referee.games import RULES_MODULES, Referee
from phatlog.referee.heard import DealEvents, Gather
from phatlog.referee.pitch import side_label
from phatlog.referee.rulings import kind_of
from phatlog.rules.cards import CARD_TEXT, Card, Suit
from phatlog.rules.oh_hell import made
from phatlog.rules.table import first_leader, pitcher, side_of, trump_of_pitch

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
    """One card of a trick: who played it, and whether a diagnostic points at it. ``cost``: what the card
    cost against best play, set only by ``phatlog.report.marks`` (``replay --analyse``); the builder leaves it
    None, and None is left out of the JSON."""

    seat: int
    card: str
    flagged: bool = False
    cost: int | None = None
    #: With ``replay --analyse``, a card that cost something: the cards that were best, what they were worth
    #: and what this card was worth (to its player's side, from here to the end of the deal; Oh Hell: minus
    #: its player's miss of its bid). None otherwise, and left out of the JSON.
    best: list[str] | None = None
    best_value: int | None = None
    value: int | None = None
    #: With ``replay --analyse --single-dummy``: the card's expected cost on what its player knew (sampled
    #: layouts of the unseen cards, each solved), its 95% interval's half width, and the cards best on
    #: average. None otherwise, and left out of the JSON.
    sd_cost: float | None = None
    sd_ci: float | None = None
    sd_best: list[str] | None = None


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
class RulingShown:
    """Format 1.1: one ruling where it applied (the replay JSON's ``rulings``, docs/replay.md). ``kind``:
    ``claim``, ``revoke`` (a ruled revoke, marked in its trick; a penalty pegged), ``misdeal``, ``adjustment``
    or ``concession``; ``trick`` the trick it concerns (from 1; a claim: the first it settled), ``seat`` the
    claimer or the revoker, ``side``/``points``/``totals`` what it pegged and the totals after it. A claim
    has ``settled`` (the tricks it settled, from 1) and its ``audit``: ``sound``, ``unsound`` (with the
    line that defeats it in ``audit_note``), ``underclaimed`` or ``unchecked``."""

    kind: str
    text: str
    trick: int | None = None
    seat: int | None = None
    side: int | None = None
    points: int = 0
    totals: list[int] | None = None
    settled: list[int] | None = None
    audit: str | None = None
    audit_note: str | None = None


#: The claim audit's verdict by diagnostic code (none of them: the claim was sound).
AUDIT_VERDICT: Final = {"PL316": "unsound", "PL317": "underclaimed", "PL318": "unchecked"}


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
    rulings: list[RulingShown] = field(default_factory=list)  # format 1.1; left out of the JSON when empty
    #: ``replay --analyse --line/--pitch``: the deal's best line and pitch table (``analysis.reading``'s
    #: ``Reading.to_json``); None otherwise, and left out of the JSON.
    best: dict[str, Any] | None = None


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
    if not body["rulings"]:
        del body["rulings"]  # a deal without rulings (every 1.0 deal): the JSON is as it always was
    if body["best"] is None:
        del body["best"]  # no best line asked for: the JSON is as it always was
    for trick in body.get("tricks") or ():
        trick["cards"] = [play["card"] for play in trick["plays"]]  # in play order, from the leader
        for play in trick["plays"]:
            if play["cost"] is None:  # not analysed (no replay --analyse): the JSON is as it always was
                del play["cost"]
            for key in ("best", "best_value", "value", "sd_cost", "sd_ci", "sd_best"):  # only where analysed so
                if play[key] is None:
                    del play[key]
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


def _as_data(value: Any) -> Any:
    """A part of a record as JSON data, whichever way it was read: the reader's fast path gives msgspec
    structs, ``phatlog.read`` (and a record handed to ``phatlog.replay``) the pydantic models."""
    dump = getattr(value, "model_dump", None)
    return dump(mode="json") if dump is not None else msgspec.to_builtins(value)


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
    rules = RULES_MODULES[game](record)
    if isinstance(rules, AllFours):
        builder: _Builder = _PitchBuilder(record, names, rules)
    else:
        builder = _OhHellBuilder(record, names, rules)
    found = [d.located(names) for d in loaded.diagnostics] + list(builder.verdict.diagnostics)
    summaries = builder.deals()
    _trick_comments(deals, summaries)
    leftover = _attach(found, summaries)
    selection = Selection(deal, trick)
    shown, outside = _select(summaries, selection)
    counts = _count(found)
    counts.outside_selection = outside
    event = None if record.event is None else _drop_none(_as_data(record.event))
    return Summary(
        status="replayed",
        source=loaded.source,
        game=game,
        game_name=GAME_NAMES.get(game, game),
        players=names,
        sides=builder.sides(),
        rules=_rules(record.rules),
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


def _rules(rules: Any) -> dict[str, Any]:
    """The rules as the replay shows them: format 1.1's ``revoke_penalty`` only where it is set, so that a
    1.0 record's replay is as before."""
    out: dict[str, Any] = _as_data(rules)
    if out.get("revoke_penalty", 0) is None:
        del out["revoke_penalty"]
    return out


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


class _Builder:
    """Every deal's summary from the referee's events; each family supplies what it shows beyond the
    shared shape (the pitch and the bonuses, or the bids and tricks taken)."""

    seats: int
    side_count: int
    after_end: str  # why a deal recorded after the end of the game is not replayed

    def __init__(self, record: Any, names: list[str], rules: Referee) -> None:
        self.record = record
        self.names = names
        self.seats = len(names)
        gather = Gather()
        self.verdict = rules.referee(record, gather)
        self.events = gather.by_deal

    def deals(self) -> list[DealSummary]:
        """Every deal's summary, once. Each deal's events are let go as its summary is made, so that the
        events and the summaries of a long game are not held in full at the same time (replay's memory)."""
        out: list[DealSummary] = []
        for d, deal in enumerate(self.record.deals):
            out.append(self.deal(d, deal, self.events.pop(d, None)))
        result = self.record.result
        if out and result is not None and result.status in ("conceded", "forfeited", "abandoned"):  # format 1.1
            who = "" if result.by is None else f" by {self.side_name(self.side_of(result.by))}"
            why = f" ({result.reason})" if result.reason else ""
            out[-1].rulings.append(RulingShown("concession", f"the game was {result.status}{who}{why}", seat=result.by))
        return out

    def not_replayed_why(self) -> str:
        return self.after_end

    def deal(self, d: int, deal: Any, got: DealEvents | None) -> DealSummary:
        """A deal as the referee judged it: the tricks it replayed (won, or shown unscored after an illegal
        play) and the rest as recorded, the bonuses with the totals after each, and the deal's score by the
        rules or as recorded, beside what the scorer recorded. A deal it did not judge (no events: after
        the end of the game) is shown as the record gives it, ``not_replayed``."""
        scored = None if got is None else got.scored
        played = _record_tricks(deal)
        tricks: list[TrickSummary] = []
        for t, trick in enumerate(played):
            event = None if got is None or scored is None else got.trick(t)
            if event is None:
                tricks.append(_unreplayed(t, trick, self.seats))
                continue
            shown = TrickSummary(
                t + 1,
                event.leader,
                _plays(event.leader, event.cards, self.seats),
                replayed=True,
                scored=isinstance(event, TrickWon),
                winner=event.seat,
                winning_card=CARD_TEXT[event.cards[event.position]],
                why=event.why,
                side=self.side_of(event.seat),
            )
            if isinstance(event, TrickWon) and got is not None:
                self.won(shown, event, got)
            tricks.append(shown)
        points = None if scored is None or scored.points is None else list(scored.points)
        points_from = None if scored is None or points is None else ("record" if scored.passed_over else "rules")
        totals = None if scored is None or scored.totals is None else list(scored.totals)
        recorded_points, recorded_total = _recorded(deal.score, self.side_count)
        rows = [Row(side, self.side_name(side)) for side in range(self.side_count)]
        for side, row in enumerate(rows):
            _score_columns(row, side, points, points_from, totals, recorded_points, recorded_total)
        summary = DealSummary(
            deal=d + 1,
            kind=_kind(played, got),
            dealer=deal.dealer,
            pitcher=None,
            first_bidder=None,
            cards_each=None,
            hands=None,
            hands_from=None,
            undealt=None,
            trump=None,
            bids=None,
            bidding_order=None,
            tricks=tricks,
            bonuses=[],
            captured=None,
            rows=rows,
            points=points,
            totals=totals,
            scored=scored is not None and not scored.passed_over,
            comment=deal.comment,
            notes=[],
        )
        if got is None or scored is None:
            if deal.hands is not None:
                summary.hands, summary.hands_from = [list(h) for h in deal.hands], "record"
            summary.notes.append(self.not_replayed_why())
            return summary
        if got.begins is None and any(r.kind == "misdeal" for r in got.rulings):  # format 1.1: a void deal
            summary.notes.extend(self.ruled(got))
            summary.rulings = self.rulings_shown(d, deal, got, summary)
            return summary
        self.fill(summary, d, deal, got)
        summary.rulings = self.rulings_shown(d, deal, got, summary)
        claimed = next((r for r in summary.rulings if r.kind == "claim"), None)
        if claimed is not None and claimed.trick is not None:
            for trick in tricks[claimed.trick - 1 :]:  # format 1.1: a trick partly played before the claim
                trick.why, trick.replayed = "claimed", True
        skipped = [t.trick for t in tricks if not t.replayed]
        if skipped:
            summary.notes.insert(0, f"{_numbers(skipped)} not replayed: {self.why_skipped(got, skipped[0] - 1)}")
        summary.notes.extend(self.ruled(got))
        return summary

    def rulings_shown(self, d: int, deal: Any, got: DealEvents, summary: DealSummary) -> list[RulingShown]:
        """Format 1.1: the deal's rulings where they applied, in the order the referee applied them; a ruled
        revoke is marked in its trick too (a note), and a claim carries the tricks it settled and the
        audit's verdict (from the verdict's PL316-PL318 on the claim)."""
        out: list[RulingShown] = []
        prefix = f"/deals/{d}/rulings/"
        audit = [x for x in self.verdict.diagnostics if x.code in AUDIT_VERDICT and x.pointer.startswith(prefix)]
        size = summary.cards_each or (len(deal.hands[0]) if deal.hands else len(summary.tricks))
        for event in got.rulings:
            shown = RulingShown(
                event.kind,
                event.text,
                None if event.trick is None else event.trick + 1,
                event.seat,
                event.side,
                event.points,
                None if event.totals is None else list(event.totals),
            )
            if event.kind in ("claim", "revoke") and event.seat is None:  # the seat as the ruling gives it
                shown.seat = next(
                    (
                        r.seat
                        for r in deal.rulings or ()
                        if kind_of(r) == event.kind and (event.kind == "claim" or r.trick == shown.trick)
                    ),
                    None,
                )
            if event.kind == "claim":
                first = (event.trick or 0) + 1
                shown.trick, shown.settled = first, list(range(first, size + 1))
                shown.audit = AUDIT_VERDICT[audit[0].code] if audit else "sound"
                shown.audit_note = audit[0].message if audit else None
                if shown.side is None and shown.seat is not None:
                    shown.side = self.side_of(shown.seat)
                if summary.tricks:  # the claim in place: on the last recorded trick
                    which = _numbers(shown.settled) if shown.settled else "no trick"
                    summary.tricks[-1].notes.append(f"ruling: {event.text}: {which}, {shown.audit}")
            out.append(shown)
        pegged = {r.trick for r in out if r.kind == "revoke"}
        for x in self.verdict.diagnostics:  # a ruled revoke stands as played: marked in its trick
            if x.code != "PL310" or not x.pointer.startswith(f"/deals/{d}/tricks/"):
                continue
            t = int(x.pointer.split("/")[4])
            if t < len(summary.tricks):
                summary.tricks[t].notes.append("ruling: a revoke here stands as played")
            if t + 1 not in pegged:
                out.append(RulingShown("revoke", f"revoke (trick {t + 1}) stands as played", t + 1))
        return out

    def ruled(self, got: DealEvents) -> list[str]:
        """Format 1.1: each ruling applied to the deal, in words: a voided deal, a claim and the tricks it
        settled, a penalised revoke (marked in its trick too), an adjustment and the totals after it."""
        notes = []
        for event in got.rulings:
            text = f"ruling: {event.text}"
            if event.side is not None and event.points:
                text += f": {event.points:+d} to {self.side_name(event.side)}"
            if event.totals is not None:
                text += f" (totals {'-'.join(map(str, event.totals))})"
            notes.append(text)
        return notes

    def side_of(self, seat: int) -> int:
        return seat

    def won(self, summary: TrickSummary, event: TrickWon, got: DealEvents) -> None:
        """What a scored trick shows beyond its winner."""

    def fill(self, summary: DealSummary, d: int, deal: Any, got: DealEvents) -> None:
        """What the family shows of a deal beyond the shared shape."""

    def why_skipped(self, got: DealEvents, first: int) -> str:
        return "the engine could not replay them"

    def name(self, seat: int) -> str:
        return seat_name(seat, self.names)

    def side_name(self, side: int) -> str:
        return self.name(side)

    def sides(self) -> list[Side]:
        return [Side(s, [s], self.name(s)) for s in range(self.seats)]

    def end(self, deals: list[DealSummary]) -> GameEnd | None:
        raise NotImplementedError

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
        if self.verdict.refused:
            return "Not known: the record could not be replayed (see the problems below)"
        result = self.record.result
        if result is not None and result.status == "unfinished":
            why = f" ({result.reason})" if result.reason else ""
            return f"Nobody won: the game was stopped before its end{why}"
        if result is not None and result.status in ("conceded", "forfeited", "abandoned"):  # format 1.1
            who = "" if result.by is None else f" by {self.side_name(self.side_of(result.by))}"
            why = f" ({result.reason})" if result.reason else ""
            won = "" if not result.winner else f"; the result names {', '.join(map(self.side_name, result.winner))}"
            return f"The game was {result.status}{who}{why}{won}"
        return "Nobody won: the record ends before the game was won"


# --------------------------------------------------------------------------- Phat and the Don family


class _PitchBuilder(_Builder):
    side_count = 2
    after_end = "recorded after the game was won: not replayed"

    def __init__(self, record: Any, names: list[str], rules: AllFours) -> None:
        self.rules = rules
        self.label = {"phat": "muck", "nine_card_don": "game"}.get(rules.game)
        # For each deal: the running totals after its last peg that ends the game, and how.
        self.won_with: dict[int, tuple[int, int | None, str | None]] = {}
        super().__init__(record, names, rules)

    def side_name(self, side: int) -> str:
        return side_label(side, self.names)

    def sides(self) -> list[Side]:
        return [Side(s, [s, s + 2], self.side_name(s)) for s in (0, 1)]

    def side_of(self, seat: int) -> int:
        return side_of(seat)

    def won(self, summary: TrickSummary, event: TrickWon, got: DealEvents) -> None:
        summary.points = event.points
        trump = trump_of_pitch(got.tricks[0].cards[0])
        counters = [Counter(CARD_TEXT[c], p, self.rules.counter_name(c, trump)) for c, p in event.counters]
        summary.counters = sorted(counters, key=lambda c: -c.points)
        summary.total = None if event.totals is None else list(event.totals)

    def why_skipped(self, got: DealEvents, first: int) -> str:
        if got.over is not None and isinstance(got.last, TrickWon) and first > got.last.trick:
            return "recorded after the game was won"
        return "the engine could not replay them"

    def fill(self, summary: DealSummary, d: int, deal: Any, got: DealEvents) -> None:
        """The pitch, the trump it made, the counters and bonuses, and the peg that won the game."""
        scored, begins, over = got.scored, got.begins, got.over
        assert scored is not None
        rules = self.rules
        played = _record_tricks(deal)
        first = got.trick(0)
        trump = None if first is None else trump_of_pitch(first.cards[0])
        won = over is not None and bool(over.winner) and rules.immediate and not scored.passed_over
        if won and isinstance(got.last, TrickWon) and over is not None:
            trick = summary.tricks[got.last.trick]
            side = over.winner[0]
            assert trick.total is not None
            trick.game_won = True
            trick.notes.append(f"{self.side_name(side)} reach {trick.total[side]}: they peg out and win")
            self.won_with[d] = (side, trick.total[side], None)
        for peg in got.bonuses:
            shown = Peg(peg.label, peg.side, peg.points, peg.reason, None if peg.totals is None else list(peg.totals))
            if won and peg is got.last and over is not None:
                shown.game_won = True
                reach = None if peg.totals is None else peg.totals[over.winner[0]]
                self.won_with[d] = (over.winner[0], reach, peg.label)
            summary.bonuses.append(shown)
        if got.bonuses and scored.captured is not None and self.label is not None:
            summary.captured = Captured(self.label, list(scored.captured))
        for side, row in enumerate(summary.rows):
            if not scored.passed_over and played:
                row.counters = sum(t.points or 0 for t in summary.tricks if t.scored and t.side == side)
            if summary.captured is not None:
                row.captured = summary.captured.by_side[side]
            if got.bonuses:
                row.bonus = sum(p.points for p in got.bonuses if p.side == side)
        if begins is not None and begins.hands is not None and played:
            summary.hands = [[CARD_TEXT[c] for c in h] for h in begins.hands]
        elif deal.hands is not None:
            summary.hands = [list(h) for h in deal.hands]  # as the record gives them (faulty, or no play)
        summary.hands_from = None if summary.hands is None else ("record" if deal.hands is not None else "play")
        summary.pitcher = pitcher(deal.dealer)
        summary.cards_each = rules.hand_size
        summary.undealt = None if getattr(deal, "undealt", None) is None else list(deal.undealt)
        summary.trump = self.trump(played, got, trump)
        totals = summary.totals
        if over is not None and over.winner:
            side = over.winner[0]
            if not rules.immediate and totals is not None:
                summary.notes.append(
                    f"{self.side_name(side)} lead {totals[side]} to {totals[1 - side]} with {rules.target} "
                    "reached at the end of the deal: they win"
                )
            self.won_with.setdefault(d, (side, None, None))

    def trump(self, played: list[Any], got: DealEvents, trump: Suit | None) -> Trump | None:
        if not played:
            return None
        if trump is None:
            return Trump(None, "unknown", None, None, "not known: the deal could not be replayed")
        first = got.trick(0)
        assert first is not None
        card = first.cards[0]
        text = f"{self.name(first.leader)} led {card.symbol}: {trump.name.lower()} are trump"
        return Trump(trump.letter, "pitch", CARD_TEXT[card], first.leader, text)

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
    after_end = "recorded after the last hand: not replayed"

    def __init__(self, record: Any, names: list[str], rules: Referee) -> None:
        self.side_count = len(names)
        super().__init__(record, names, rules)

    def not_replayed_why(self) -> str:
        if self.verdict.refused:
            return "not replayed: the rules cannot be applied (see the problems at the end)"
        return self.after_end

    def won(self, summary: TrickSummary, event: TrickWon, got: DealEvents) -> None:
        summary.taken = list(event.taken)

    def fill(self, summary: DealSummary, d: int, deal: Any, got: DealEvents) -> None:
        """The bids and tricks taken, whether each bid was made, and the trump or why there is none."""
        begins, scored = got.begins, got.scored
        assert begins is not None and scored is not None
        n = self.seats
        played = _record_tricks(deal)
        bids = None if deal.bids is None else list(deal.bids)
        taken = list(scored.taken) if scored.taken is not None else (None if deal.taken is None else list(deal.taken))
        for seat, row in enumerate(summary.rows):
            if bids is not None and seat < len(bids):
                row.bid = bids[seat]
            if taken is not None and seat < len(taken):
                row.taken = taken[seat]
            if not scored.passed_over and row.bid is not None and row.taken is not None:
                row.made = made(row.bid, row.taken)
        hands = begins.hands
        if hands is not None and (deal.hands is not None or played):  # a score sheet's hands are not inferred
            summary.hands = [[CARD_TEXT[c] for c in h] for h in hands]
            summary.hands_from = "record" if deal.hands is not None else "play"
        first = first_leader(deal.dealer, n)  # bids first and leads first
        summary.first_bidder = first
        summary.cards_each = begins.size
        summary.bids = bids
        if self.record.rules.bidding == "sequential" and bids is not None:
            summary.bidding_order = [(first + i) % n for i in range(n)]
        trump = self.trump(begins)
        summary.trump = trump if played or trump.how != "unknown" else None  # a score sheet need not say

    def trump(self, begins: DealBegins) -> Trump:
        if begins.trump is not None and begins.turnup is not None:
            text = f"turned up {begins.turnup.symbol}: {begins.trump.name.lower()} are trump"
            return Trump(begins.trump.letter, "turnup", CARD_TEXT[begins.turnup], None, text)
        if begins.no_trump is not None:
            return Trump(None, "none", None, None, f"no trump: {begins.no_trump}")
        if begins.turnup is not None:
            text = f"not known: {begins.turnup.symbol} is recorded as turned up, but the hand could not be replayed"
            return Trump(None, "unknown", CARD_TEXT[begins.turnup], None, text)
        return Trump(None, "unknown", None, None, "not known: no turned-up card is recorded")

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


def _kind(played: Sequence[Any], got: DealEvents | None) -> str:
    """What the deal shows: its play; a claim made before the first card, which settled the deal from its
    hands (``claimed``); a score sheet; or nothing judged (``not_replayed``)."""
    scored = None if got is None else got.scored
    if scored is None or got is None:
        return "not_replayed"
    if played:
        return "play"
    if not scored.passed_over and any(r.kind == "claim" for r in got.rulings):
        return "claimed"
    return "score_sheet"
