"""The facts of one checked record, from its reading and the referee's verdict: what ``verify --format
json`` prints a line of for every record, and what standings are made of. No second replay: the
verdict the check computed anyway is the source of the winner and the totals."""

from __future__ import annotations

from collections.abc import Sequence, Sized
from dataclasses import dataclass
from typing import Final, Protocol

from phatlog.record.view import PlayerView, game_of
from phatlog.referee.pitch import Findings

#: The keys of ``event`` that a record line carries, in the order phatlog writes them.
EVENT_KEYS: Final = ("name", "site", "date", "round", "table", "board", "scorer", "source")


@dataclass(frozen=True, slots=True)
class PlayerKey:
    """A player as records join them: ``id`` when the record gives one, else the name."""

    name: str
    id: str | None

    @property
    def key(self) -> str:
        return self.id if self.id else self.name


@dataclass(slots=True)
class RecordFacts:
    """What standings need of one record, small enough to send back from a worker process.

    ``winner`` and ``totals`` are the engine's (by side in the All Fours family, by seat in Oh Hell),
    None where it could not know them (validate, or a record it could not score). ``made``: Oh Hell only,
    the bids each seat made as the referee judged them, over ``bid_hands`` hands (hands whose points
    could not be worked out are not counted)."""

    game: str | None = None
    event: dict[str, str] | None = None
    players: tuple[PlayerKey, ...] = ()
    deals: int = 0
    winner: list[int] | None = None
    totals: list[int] | None = None
    made: list[int] | None = None
    bid_hands: int = 0


class FactsSource(Protocol):
    """What :func:`facts` reads of a record (a model or the fast path's struct): the event is read by
    attribute (``EVENT_KEYS``), each player's ``id`` with ``getattr``."""

    @property
    def event(self) -> object: ...
    @property
    def players(self) -> Sequence[PlayerView]: ...
    @property
    def deals(self) -> Sized: ...


def facts(record: FactsSource, verdict: Findings | None) -> RecordFacts:
    """The facts of a read record (a model or the fast path's struct) and its verdict (None: not replayed)."""
    event = record.event
    shown: dict[str, str] | None = None
    if event is not None:
        shown = {k: v for k in EVENT_KEYS if (v := getattr(event, k, None)) is not None}
    players = tuple(PlayerKey(p.name, getattr(p, "id", None)) for p in record.players)
    game = game_of(record)
    found = RecordFacts(game, shown, players, len(record.deals))
    if verdict is not None:
        found.winner = None if verdict.winner is None else list(verdict.winner)
        found.totals = None if verdict.totals is None else list(verdict.totals)
        made = verdict.made
        if made is not None and verdict.judged is not None:
            found.made, found.bid_hands = made or [0] * len(players), len(verdict.judged)
    return found
