"""Standings and crosstables of events, as data: built a record at a time from the referee's verdicts.

Each record is reduced (where it is checked, possibly in a worker) to its :class:`RecordFacts`: game,
event, players, the engine's totals and winner, and for Oh Hell the bids each seat made. A
:class:`Standings` takes them one at a time, so memory grows with the players and the pairs that met,
never with the records. Records are grouped by event (``event.name``; records without one form the
event "(no event)") and game; in each group:

- **All Fours family** (Phat, Nine-card Don, Irish Don), by partnership and by player: games played, won,
  lost, points for and against, point difference. A game with no winner (unfinished, or a record whose
  result the engine could not work out) counts as played, neither won nor lost; its points count where
  the engine knows them. Order: games won, then point difference, then points for, then the name.
- **Oh Hell**, by player: games, wins (a shared win counts for each), placement points (one for each
  opponent who finished below, a half for each who finished level: 3, 2, 1, 0 in a four-player game,
  ties sharing), total score, and bids made out of hands bid. Order: placement points, then total
  score, then bids made, then the name.
- **A crosstable**: each pair of partnerships (All Fours) or players (Oh Hell) that met, with the result
  from the row's side: wins-losses (All Fours, and a third figure for games they played without a
  winner, where there were any), and in Oh Hell finishes ahead-behind-level.

Only records that verify clean count; the others are listed (``excluded``) with their status. With
``include_problems`` a record with problems that the engine could still score counts too and is listed
as ``counted`` (marked); an unreadable record never counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from phatlog.events.record import PlayerKey, RecordFacts

ALL_FOURS: Final = ("phat", "nine_card_don", "irish_don")
#: A row's key: a player's key (their id, or their name), or a partnership's two, in order.
TeamKey: TypeAlias = str | tuple[str, str]
NO_EVENT: Final = "(no event)"
#: The most partnerships (or Oh Hell players) a crosstable is drawn for: it grows as their square.
CROSSTABLE_MOST: Final = 60


@dataclass(slots=True)
class Line:
    """One row of an All Fours table (a partnership or a player); ``key`` joins it to the crosstable: a
    player's key, or a partnership's two (in order)."""

    key: TeamKey
    name: str
    played: int = 0
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    with_problems: int = 0  # of the games played, those counted with problems (``include_problems``)

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    def add(self, won: bool | None, mine: int | None, theirs: int | None, marked: bool = False) -> None:
        self.played += 1
        self.with_problems += marked
        self.won += won is True
        self.lost += won is False
        if mine is not None and theirs is not None:
            self.points_for += mine
            self.points_against += theirs

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "key": list(self.key) if isinstance(self.key, tuple) else self.key,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "difference": self.difference,
            "with_problems": self.with_problems,
        }


@dataclass(slots=True)
class OhHellLine:
    """One row of an Oh Hell table (a player)."""

    key: str
    name: str
    played: int = 0
    wins: int = 0
    placement: float = 0.0
    score: int = 0
    bids_made: int = 0
    hands_bid: int = 0
    with_problems: int = 0  # of the games played, those counted with problems (``include_problems``)

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "key": self.key,
            "played": self.played,
            "wins": self.wins,
            "placement_points": self.placement,
            "score": self.score,
            "bids_made": self.bids_made,
            "hands_bid": self.hands_bid,
            "with_problems": self.with_problems,
        }


@dataclass(slots=True)
class Meeting:
    """What the row's side did against the column's: wins, losses, and (Oh Hell) level finishes."""

    won: int = 0
    lost: int = 0
    level: int = 0

    def as_json(self) -> dict[str, int]:
        return {"won": self.won, "lost": self.lost, "level": self.level}


@dataclass(frozen=True, slots=True)
class Game:
    """A record counted in a group, for a report that links each game: where it is, its sides' keys (the
    partnerships in the All Fours family, the players in Oh Hell), and whether it counted with problems."""

    file: str
    line: int | None
    sides: tuple[TeamKey, ...]
    marked: bool
    round: str | None = None  # the record's event.round and event.table, as given
    table: str | None = None
    totals: tuple[int, ...] | None = None  # the engine's final totals, by side (Oh Hell: by seat)
    winner: tuple[int, ...] | None = None  # the engine's winner: indexes into ``sides``; None: nobody won


@dataclass(slots=True)
class Group:
    """The standings of one game at one event."""

    event: str
    game: str
    records: int = 0
    marked: int = 0  # of them, records with problems counted (``include_problems``)
    teams: dict[tuple[str, str], Line] = field(default_factory=dict)
    players: dict[str, Line] = field(default_factory=dict)
    oh_hell: dict[str, OhHellLine] = field(default_factory=dict)
    meetings: dict[tuple[TeamKey, TeamKey], Meeting] = field(default_factory=dict)
    names: dict[TeamKey, str] = field(default_factory=dict)  # a crosstable key: its name
    games: list[Game] = field(default_factory=list)  # the records counted, in input order

    @property
    def all_fours(self) -> bool:
        return self.game in ALL_FOURS

    def ranked_teams(self) -> list[Line]:
        return sorted(self.teams.values(), key=_line_order)

    def ranked_players(self) -> list[Line]:
        return sorted(self.players.values(), key=_line_order)

    def ranked_oh_hell(self) -> list[OhHellLine]:
        return sorted(self.oh_hell.values(), key=lambda r: (-r.placement, -r.score, -r.bids_made, r.name))

    def crosstable(self) -> tuple[list[TeamKey], dict[tuple[TeamKey, TeamKey], Meeting]]:
        """The keys in standings order, and the meetings between them."""
        ranked = self.ranked_teams() if self.all_fours else self.ranked_oh_hell()
        return [line.key for line in ranked], self.meetings

    @property
    def crosstable_drawn(self) -> bool:
        """Whether the crosstable is drawn as a table: a row and a column a partnership (or player) is
        quadratic in them, so past :data:`CROSSTABLE_MOST` only the meetings are listed (JSON)."""
        return len(self.teams if self.all_fours else self.oh_hell) <= CROSSTABLE_MOST

    def as_json(self) -> dict[str, object]:
        order, meetings = self.crosstable()
        rank = {key: i for i, key in enumerate(order)}
        against: dict[TeamKey, list[TeamKey]] = {}
        for a, b in meetings:  # the meetings of each, in standings order: linear in the meetings
            against.setdefault(a, []).append(b)
        cross = [
            {
                "name": self.names[a],
                "against": [
                    {"name": self.names[b], **meetings[a, b].as_json()}
                    for b in sorted(against.get(a, ()), key=rank.__getitem__)
                ],
            }
            for a in order
        ]
        out: dict[str, object] = {"event": self.event, "game": self.game, "records": self.records}
        out["counted_with_problems"] = self.marked
        if self.all_fours:
            out["partnerships"] = [r.as_json() for r in self.ranked_teams()]
            out["players"] = [r.as_json() for r in self.ranked_players()]
        else:
            out["players"] = [r.as_json() for r in self.ranked_oh_hell()]
        out["crosstable"] = cross
        return out


def _line_order(line: Line) -> tuple[int, int, int, str]:
    return (-line.won, -line.difference, -line.points_for, line.name)


@dataclass(frozen=True, slots=True)
class Listed:
    """A record that did not count (or counted with problems): where it is and its status."""

    file: str
    line: int | None
    status: str
    errors: int
    counted: bool

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "status": self.status,
            "errors": self.errors,
            "counted": self.counted,
        }


@dataclass(slots=True)
class Standings:
    """Every event's standings, built a record at a time (:meth:`add`)."""

    include_problems: bool = False
    groups: dict[tuple[str, str], Group] = field(default_factory=dict)
    listed: list[Listed] = field(default_factory=list)
    records: int = 0
    counted: int = 0
    #: A player key's name as first seen (the name shown for a player joined by ``id``).
    shown: dict[str, str] = field(default_factory=dict)

    def add(self, file: str, line: int | None, status: str, errors: int, found: RecordFacts | None) -> None:
        """One checked record: ``status`` is ``clean``, ``problems`` or ``unreadable``."""
        self.records += 1
        scorable = found is not None and found.game is not None and found.players
        counts = status == "clean" or (status == "problems" and self.include_problems and scorable)
        if status != "clean":
            self.listed.append(Listed(file, line, status, errors, bool(counts)))
        if not counts or found is None or found.game is None:
            return
        self.counted += 1
        event = (found.event or {}).get("name") or NO_EVENT
        group = self.groups.get((event, found.game))
        if group is None:
            group = self.groups[event, found.game] = Group(event, found.game)
        group.records += 1
        group.marked += status != "clean"
        keys = [self._key(p) for p in found.players]
        marked = status != "clean"
        if group.all_fours:
            sides: tuple[TeamKey, ...] = tuple(self._all_fours(group, keys, found, marked))
        else:
            self._oh_hell(group, keys, found, marked)
            sides = tuple(keys)
        facts = found.event or {}
        group.games.append(
            Game(
                file,
                line,
                sides,
                status != "clean",
                facts.get("round"),
                facts.get("table"),
                None if found.totals is None else tuple(found.totals),
                tuple(found.winner) if found.winner else None,
            )
        )

    def _key(self, player: PlayerKey) -> str:
        key = player.key
        self.shown.setdefault(key, player.name)
        return key

    def name(self, key: str) -> str:
        return self.shown.get(key, key)

    def _all_fours(
        self, group: Group, keys: list[str], found: RecordFacts, marked: bool = False
    ) -> list[tuple[str, str]]:
        totals, winner = found.totals, found.winner
        decided = winner is not None and len(winner) == 1
        teams: list[tuple[str, str]] = []
        counted: set[str] = set()
        for side in (0, 1):
            a, b = keys[side], keys[side + 2]
            team = (a, b) if a <= b else (b, a)
            teams.append(team)
            line = group.teams.get(team)
            if line is None:
                shown = sorted((self.name(a), self.name(b)))
                line = group.teams[team] = Line(team, " & ".join(shown))
                group.names[team] = line.name
            won = (winner[0] == side) if decided and winner is not None else None
            mine = None if totals is None else totals[side]
            theirs = None if totals is None else totals[1 - side]
            line.add(won, mine, theirs, marked)
            for key in team:
                if key in counted:  # one player in two seats (verify warns, PL210): counted once a game
                    continue
                counted.add(key)
                row = group.players.get(key)
                if row is None:
                    row = group.players[key] = Line(key, self.name(key))
                row.add(won, mine, theirs, marked)
        meetings = group.meetings
        if decided and winner is not None:
            a_team, b_team = (teams[0], teams[1]) if winner[0] == 0 else (teams[1], teams[0])
            (meetings.get((a_team, b_team)) or meetings.setdefault((a_team, b_team), Meeting())).won += 1
            (meetings.get((b_team, a_team)) or meetings.setdefault((b_team, a_team), Meeting())).lost += 1
        else:  # met, with no winner: unfinished, or not scored
            meetings.setdefault((teams[0], teams[1]), Meeting()).level += 1
            meetings.setdefault((teams[1], teams[0]), Meeting()).level += 1
        return teams

    def _oh_hell(self, group: Group, keys: list[str], found: RecordFacts, marked: bool = False) -> None:
        totals, winner = found.totals, found.winner
        first = {key: seat for seat, key in reversed(list(enumerate(keys)))}
        for seat, key in enumerate(keys):
            if first[key] != seat:  # one player in two seats (verify warns, PL210): the first seat counts
                continue
            row = group.oh_hell.get(key)
            if row is None:
                row = group.oh_hell[key] = OhHellLine(key, self.name(key))
                group.names[key] = row.name
            row.played += 1
            row.with_problems += marked
            if winner is not None and seat in winner:
                row.wins += 1
            if totals is not None:
                mine = totals[seat]
                row.score += mine
                below = sum(1 for t in totals if t < mine)
                level = sum(1 for t in totals if t == mine) - 1
                row.placement += below + level / 2
            if found.made is not None:
                row.bids_made += found.made[seat]
                row.hands_bid += found.bid_hands
        if totals is None:
            return
        for i, a in enumerate(keys):
            for j, b in enumerate(keys):
                if i == j or a == b:
                    continue
                meeting = group.meetings.setdefault((a, b), Meeting())
                if totals[i] > totals[j]:
                    meeting.won += 1
                elif totals[i] < totals[j]:
                    meeting.lost += 1
                else:
                    meeting.level += 1

    def sorted_groups(self) -> list[Group]:
        return [self.groups[k] for k in sorted(self.groups)]

    def as_json(self) -> dict[str, object]:
        return {
            "records": self.records,
            "counted": self.counted,
            "include_problems": self.include_problems,
            "events": [g.as_json() for g in self.sorted_groups()],
            "not_clean": [x.as_json() for x in self.listed],
        }


def standings(
    rows: Iterable[tuple[str, int | None, str, int, RecordFacts | None]], include_problems: bool = False
) -> Standings:
    """Standings from (file, line, status, errors, facts) of each record, in order."""
    out = Standings(include_problems)
    for row in rows:
        out.add(*row)
    return out
