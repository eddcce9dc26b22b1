"""What the referee told a listener, gathered by deal: the events of each deal it judged, for the replay's
summary and for rescoring. Apart from the referee itself (``games``), so that checking a record loads none
of the game machine's event types until something listens."""

from __future__ import annotations

from dataclasses import dataclass, field

from phatlog.engine.state import DealBegins, DealScored, Event, GameOver, Pegged, Ruled, TrickShown, TrickWon
from phatlog.record.view import AnyRecordView
from phatlog.referee.games import referee
from phatlog.referee.pitch import Findings
from phatlog.rules.cards import Card, Suit
from phatlog.rules.table import pitcher, trump_of_pitch


@dataclass(slots=True)
class DealEvents:
    """What the referee told its visitor of one deal, gathered (``referee_events``)."""

    index: int
    begins: DealBegins | None = None
    tricks: list[TrickWon] = field(default_factory=list)  # the tricks won (scored)
    shown: list[TrickShown] = field(default_factory=list)  # the tricks shown unscored after an illegal play
    bonuses: list[Pegged] = field(default_factory=list)
    scored: DealScored | None = None
    over: GameOver | None = None
    last: TrickWon | Pegged | None = None  # the deal's last peg: where a game that ends in this deal was won
    rulings: list[Ruled] = field(default_factory=list)  # format 1.1: the rulings applied, in order

    def trick(self, t: int) -> TrickWon | TrickShown | None:
        """Trick ``t`` (from 0) as the referee judged it: won (scored), shown unscored, or None (not replayed)."""
        if t < len(self.tricks):
            return self.tricks[t]
        for shown in self.shown:
            if shown.trick == t:
                return shown
        return None

    @property
    def points(self) -> tuple[int, ...] | None:
        return None if self.scored is None else self.scored.points

    @property
    def totals(self) -> tuple[int, ...] | None:
        return None if self.scored is None else self.scored.totals

    @property
    def captured(self) -> tuple[int, ...] | None:
        return None if self.scored is None else self.scored.captured

    @property
    def taken(self) -> list[int] | None:
        return None if self.scored is None or self.scored.taken is None else list(self.scored.taken)

    @property
    def scorable(self) -> bool:
        return self.scored is not None and not self.scored.passed_over

    @property
    def dealer(self) -> int:
        assert self.begins is not None, "the deal was not dealt"
        return self.begins.dealer

    @property
    def pitcher(self) -> int:
        """All Fours: the dealer's left, who leads first."""
        return pitcher(self.dealer)

    @property
    def trump(self) -> Suit | None:
        """Oh Hell: the turned-up card's suit; All Fours: the suit of the first card led."""
        if self.begins is not None and self.begins.trump is not None:
            return self.begins.trump
        first = self.tricks[:1] or self.shown[:1]
        return trump_of_pitch(first[0].cards[0]) if first else None

    @property
    def hands(self) -> list[list[Card]] | None:
        return None if self.begins is None or self.begins.hands is None else [list(h) for h in self.begins.hands]


class Gather:
    """A visitor gathering the referee's events by deal (``DealEvents``), in the order told."""

    def __init__(self) -> None:
        self.by_deal: dict[int, DealEvents] = {}

    def __call__(self, event: Event) -> None:
        got = self.by_deal.get(event.deal)
        if got is None:
            got = self.by_deal[event.deal] = DealEvents(event.deal)
        if isinstance(event, TrickWon):
            got.tricks.append(event)
            got.last = event
        elif isinstance(event, TrickShown):
            got.shown.append(event)
        elif isinstance(event, Pegged):
            got.bonuses.append(event)
            got.last = event
        elif isinstance(event, DealBegins):
            got.begins = event
        elif isinstance(event, DealScored):
            got.scored = event
        elif isinstance(event, GameOver):
            got.over = event
        elif isinstance(event, Ruled):
            got.rulings.append(event)

    def deals(self) -> list[DealEvents]:
        return [self.by_deal[d] for d in sorted(self.by_deal)]


def referee_events(record: AnyRecordView) -> tuple[Findings, list[DealEvents]]:
    """The verdict and the events of each deal the referee judged (a deal after the end has none)."""
    gather = Gather()
    verdict = referee(record, gather)
    return verdict, gather.deals()
