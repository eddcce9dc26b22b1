"""Player statistics across records, as data: every number from the engine's events as it replays.

Each record is stepped through with :func:`phatlog.states` (``on_fault="pass"``, as the referee scores a
faulty deal: given up and taken as recorded), and a visitor counts what the events say. A player is
joined across records by ``players[].id`` (the name where there is none). Groups (``by``): all records
together, or by event name, by game, or by game and rules.

All Fours family (Phat, Nine-card Don, Irish Don), per player:

- ``deals``: deals played (score-sheet deals included); ``points``: the points the player's side won in
  them (``DealScored``), and so points per deal;
- ``counters``: the points of the counters in the tricks the player won (``TrickWon``);
- ``muck``, ``game``, ``high``, ``low``, ``jack``: the end-of-deal awards the player's side pegged
  (``Pegged``; Phat's is the muck);
- ``pitches``: deals the player pitched (the seat on the dealer's left); ``pitches_made``: of them, deals
  in which the pitcher's side won more points than the other side;
- faults: each illegal action is attributed to the seat the record says took it (the ``Step`` that is not
  legal): ``revokes`` (a card held but not allowed: not following suit, or Oh Hell's must-trump),
  ``faults`` (anything else: a card not held, a play out of turn, a bid not allowed).

Oh Hell, per player: ``hands``; bids and tricks taken in the hands the engine played through
(``BidMade``, ``TrickWon.taken``): ``exact`` (bid made), ``over`` and ``under``, the sums of bids and of
tricks taken (for the means), zero bids and zero bids made; the points of each hand (``DealScored``) by
hand size; the same faults.

A deal passed over (a score sheet) or given up (after a fault) counts its points but none of its
trick-by-trick figures, as the engine scores it only as recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from phatlog.engine.state import (
    BidMade,
    DealBegins,
    DealScored,
    Event,
    Pegged,
    TrickWon,
)
from phatlog.events.record import EVENT_KEYS, PlayerKey
from phatlog.play.steps import states
from phatlog.rules.cards import Card
from phatlog.rules.nine_card_don import SCHEME_AWARDS
from phatlog.rules.oh_hell import made
from phatlog.rules.table import first_leader, side_of

if TYPE_CHECKING:
    from phatlog.engine.state import Action, State
    from phatlog.record.model import IrishDonRecord, NineCardDonRecord, OhHellRecord, PhatRecord

#: A record as the models read it (statistics read the rules with ``model_dump``).
ModelRecord: TypeAlias = "PhatRecord | NineCardDonRecord | IrishDonRecord | OhHellRecord"

AWARDS: Final = ("muck", "game", "high", "low", "jack")
BY: Final = ("all", "event", "game", "rules")


@dataclass(slots=True)
class PlayerStats:
    """One player's figures in one group."""

    key: str
    name: str
    records: int = 0
    deals: int = 0
    points: int = 0
    counters: int = 0
    awards: dict[str, int] = field(default_factory=lambda: dict.fromkeys(AWARDS, 0))
    pitches: int = 0
    pitches_made: int = 0
    revokes: int = 0
    faults: int = 0
    # Oh Hell
    hands: int = 0
    bid_hands: int = 0
    exact: int = 0
    over: int = 0
    under: int = 0
    bids: int = 0
    taken: int = 0
    zero_bids: int = 0
    zero_made: int = 0
    by_size: dict[int, list[int]] = field(default_factory=dict)  # hand size: [hands, points]

    def merge(self, other: PlayerStats) -> None:
        """Add another part's figures of the same player (the name seen first stays)."""
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for label, n in other.awards.items():
            self.awards[label] = self.awards.get(label, 0) + n
        for size, (hands, points) in other.by_size.items():
            count = self.by_size.setdefault(size, [0, 0])
            count[0] += hands
            count[1] += points

    def as_json(self, oh_hell: bool) -> dict[str, Any]:  # Any: the event reports read its figures as numbers
        out: dict[str, Any] = {"name": self.name, "key": self.key, "records": self.records}
        if not oh_hell:
            out.update(
                deals=self.deals,
                points=self.points,
                points_per_deal=_ratio(self.points, self.deals),
                counters=self.counters,
                **self.awards,
                pitches=self.pitches,
                pitches_made=self.pitches_made,
            )
        else:
            out.update(
                hands=self.hands,
                bid_hands=self.bid_hands,
                exact=self.exact,
                exact_percent=_ratio(100 * self.exact, self.bid_hands, 1),
                over=self.over,
                under=self.under,
                mean_bid=_ratio(self.bids, self.bid_hands),
                mean_taken=_ratio(self.taken, self.bid_hands),
                zero_bids=self.zero_bids,
                zero_made=self.zero_made,
                points=self.points,
                points_per_hand=_ratio(self.points, self.hands),
                by_hand_size={
                    str(size): {"hands": n, "points": p, "per_hand": _ratio(p, n)}
                    for size, (n, p) in sorted(self.by_size.items())
                },
            )
        out.update(revokes=self.revokes, faults=self.faults)
        return out


#: The figures of :class:`PlayerStats` that parts add up.
_COUNTS: Final = (
    *("records", "deals", "points", "counters", "pitches", "pitches_made", "revokes", "faults", "hands"),
    *("bid_hands", "exact", "over", "under", "bids", "taken", "zero_bids", "zero_made"),
)


def awards_of(record: ModelRecord) -> tuple[str, ...]:
    """The end-of-deal awards a record's game can peg: Phat's muck; Nine-card Don's, by its bonus scheme
    (``SCHEME_AWARDS``); none in Irish Don and Oh Hell."""
    if record.game == "phat":
        return ("muck",)
    if record.game == "nine_card_don":
        return SCHEME_AWARDS[record.rules.bonus]
    return ()


def _ratio(a: int, b: int, places: int = 2) -> float | None:
    return None if b == 0 else round(a / b, places)


@dataclass(slots=True)
class StatsGroup:
    """The players of one group (``by``) and one family: the All Fours games or Oh Hell."""

    name: str
    oh_hell: bool
    records: int = 0
    players: dict[str, PlayerStats] = field(default_factory=dict)
    #: The end-of-deal awards the group's games can peg (:func:`awards_of`): the columns its table shows.
    awards: set[str] = field(default_factory=set)

    def ranked(self) -> list[PlayerStats]:
        return sorted(self.players.values(), key=lambda p: (p.name.casefold(), p.key))

    def as_json(self) -> dict[str, object]:
        return {
            "group": self.name,
            "family": "oh_hell" if self.oh_hell else "all_fours",
            "records": self.records,
            "players": [p.as_json(self.oh_hell) for p in self.ranked()],
        }


@dataclass(slots=True)
class Stats:
    """Statistics built a record at a time (:meth:`add`)."""

    by: str = "all"
    player: str | None = None
    groups: dict[tuple[str, bool], StatsGroup] = field(default_factory=dict)
    records: int = 0
    with_problems: int = 0
    unreadable: list[tuple[str, int | None]] = field(default_factory=list)

    def group_name(self, record: ModelRecord) -> str:
        if self.by == "event":
            event = record.event
            return (getattr(event, "name", None) if event is not None else None) or "(no event)"
        if self.by == "game":
            return str(record.game)
        if self.by == "rules":
            rules = record.rules.model_dump(exclude_defaults=True)
            shown = " ".join(f"{k}={_rule(v)}" for k, v in sorted(rules.items()))
            return f"{record.game} {shown}".strip()
        return "all records"

    def add(self, record: ModelRecord, clean: bool) -> None:
        """One read record (a ``phatlog.record.model`` record) and whether it verified clean. With ``player``,
        a record that player is not in is passed over."""
        keys = [PlayerKey(p.name, p.id) for p in record.players]
        if self.player is not None and not any(self.player in (p.key, p.name) for p in keys):
            return
        self.records += 1
        self.with_problems += not clean
        oh_hell = record.game == "oh_hell"
        name = self.group_name(record)
        group = self.groups.get((name, oh_hell))
        if group is None:
            group = self.groups[name, oh_hell] = StatsGroup(name, oh_hell)
        group.records += 1
        group.awards.update(awards_of(record))
        rows: list[PlayerStats] = []
        for p in keys:
            if any(p.key == other.key for other in keys[: len(rows)]):
                rows.append(PlayerStats(p.key, p.name))  # the same player in a second seat (PL210): not counted
                continue
            row = group.players.get(p.key)
            if row is None:
                row = group.players[p.key] = PlayerStats(p.key, p.name)
            row.records += 1
            rows.append(row)
        counter = _Counter(rows, oh_hell)
        for step in states(record, visitors=[counter], on_fault="pass"):
            if not step.legal:
                counter.fault(step.state, step.action, step.seat)
        if self.player is not None:
            for key in [k for k, row in group.players.items() if self.player not in (k, row.name)]:
                del group.players[key]

    def merge(self, other: Stats) -> None:
        """Add the statistics of the records that come after these (a later part of the input, from a
        worker): the figures add up; a player's or group's first-seen name stays the earlier one."""
        self.records += other.records
        self.with_problems += other.with_problems
        self.unreadable.extend(other.unreadable)
        for key, theirs in other.groups.items():
            group = self.groups.get(key)
            if group is None:
                self.groups[key] = theirs
                continue
            group.records += theirs.records
            group.awards.update(theirs.awards)
            for pkey, row in theirs.players.items():
                mine = group.players.get(pkey)
                if mine is None:
                    group.players[pkey] = row
                else:
                    mine.merge(row)

    def sorted_groups(self) -> list[StatsGroup]:
        return [self.groups[k] for k in sorted(self.groups)]

    def as_json(self) -> dict[str, object]:
        return {
            "records": self.records,
            "with_problems": self.with_problems,
            "by": self.by,
            "player": self.player,
            "groups": [g.as_json() for g in self.sorted_groups()],
            "unreadable": [{"file": f, "line": n} for f, n in self.unreadable],
        }


def _rule(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


class _Counter:
    """The visitor: counts one record's events into its players' rows (a deal's trick figures are kept
    aside until the deal is scored, and dropped if it is passed over or given up)."""

    def __init__(self, rows: list[PlayerStats], oh_hell: bool) -> None:
        self.rows = rows
        self.oh_hell = oh_hell
        self.seats = len(rows)
        self.pending: list[Callable[[], None]] = []
        self.size = 0
        self.dealer = 0
        self.bids: list[int | None] = [None] * self.seats
        self.taken: list[int] = [0] * self.seats
        self.awarded: list[tuple[int, str]] = []

    def side(self, seat: int) -> int:
        return seat if self.oh_hell else side_of(seat)

    def __call__(self, event: Event) -> None:
        if isinstance(event, DealBegins):
            self.pending = []
            self.size, self.dealer = event.size, event.dealer
            self.bids = [None] * self.seats
            self.taken = [0] * self.seats
        elif isinstance(event, BidMade):
            self.bids[event.seat] = event.bid
        elif isinstance(event, TrickWon):
            self.taken = list(event.taken)
            if event.points:
                row, points = self.rows[event.seat], event.points
                self.pending.append(lambda: _add_counters(row, points))
        elif isinstance(event, Pegged):
            if event.side is not None and event.label in AWARDS:
                side, label = event.side, event.label
                self.pending.append(lambda: self._award(side, label))
        elif isinstance(event, DealScored):
            self._scored(event)

    def _award(self, side: int, label: str) -> None:
        for seat in range(self.seats):
            if self.side(seat) == side:
                self.rows[seat].awards[label] += 1

    def _scored(self, event: DealScored) -> None:
        scored = event.points
        assert scored is not None, "a State always knows the deal's points (only the referee may not)"
        played = not event.passed_over
        for seat, row in enumerate(self.rows):
            points = scored[self.side(seat)]
            row.points += points
            if self.oh_hell:
                row.hands += 1
                if played:
                    count = row.by_size.setdefault(self.size, [0, 0])
                    count[0] += 1
                    count[1] += points
            else:
                row.deals += 1
        if not played:
            self.pending = []
            return
        for action in self.pending:
            action()
        self.pending = []
        if self.oh_hell:
            for seat, row in enumerate(self.rows):
                bid = self.bids[seat]
                if bid is None:
                    continue
                took = self.taken[seat]
                row.bid_hands += 1
                row.bids += bid
                row.taken += took
                row.exact += made(bid, took)
                row.over += took > bid
                row.under += took < bid
                row.zero_bids += bid == 0
                row.zero_made += bid == 0 and took == 0
        else:
            pitcher = first_leader(self.dealer, self.seats)
            mine, theirs = scored[side_of(pitcher)], scored[1 - side_of(pitcher)]
            self.rows[pitcher].pitches += 1
            self.rows[pitcher].pitches_made += mine > theirs

    def fault(self, state: State, action: Action, seat: int) -> None:
        """An illegal action, attributed to the seat the record says took it."""
        if not 0 <= seat < self.seats:
            return
        row = self.rows[seat]
        if isinstance(action, Card) and state.current_seat == seat and action in state.hand(seat):
            row.revokes += 1
        else:
            row.faults += 1


def _add_counters(row: PlayerStats, points: int) -> None:
    row.counters += points


__all__ = ["AWARDS", "BY", "EVENT_KEYS", "PlayerStats", "Stats", "StatsGroup"]
