"""The card-by-card analysis (:mod:`phatlog.analysis.records`) made to read as a player reads a deal.

Three things beside each card's cost, each from the solver's own functions (``solve``) through small calls:

- **Values that chain.** A card's ``before`` and ``after`` are "from here" values for its player's side, so
  trick 1 may end at 48 and trick 2 start at 26 (the counters of trick 1 have been pegged in between, and
  the next card is the other side's). In the All Fours games the chained values are one side's (N & S,
  side 0) *deal margin*: the points it has pegged in this deal so far over the other side's, plus what best
  play adds from here. So each card starts where the last one ended, a best card keeps the value, a
  costly card moves it by its cost against its player's side, and the last card ends at the deal's real
  margin. In Oh Hell a value is already the whole hand's (how far its player ends from its bid).
- **The best line.** From the first position analysed, every player plays a best card (the first of the
  best cards, in the solver's order) to the end of the deal: what best play looks like, trick by trick.
- **The pitch** (All Fours, when the analysis starts at the deal's first card): the value of every card the
  pitcher could lead, grouped by the trump it would make, as a bridge player reads a double-dummy table by
  strain. The first lead is the deal's biggest decision.

The best line costs about what the analysis of the deal's cards does (a search a card). The pitch table
values every card exactly at the first lead, every trump at once: a second for a 9-card deal, minutes for
a 13-card deal; it is made only when asked (``pitch``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from phatlog.analysis.records import Analysis
from phatlog.engine.pitch_state import PitchState
from phatlog.engine.state import Phase, State
from phatlog.play.steps import states
from phatlog.record.load import Source, read
from phatlog.rules.cards import CARD_TEXT, Card
from phatlog.rules.table import side_of
from phatlog.solver.search import holds_table
from phatlog.solver.values import Solution, review, solve

#: The trump suits in the order a table shows them.
SUITS = ("S", "H", "D", "C")


@dataclass(frozen=True, slots=True)
class LineCard:
    """One card of the best line: the trick (from 1), the seat and player, the card; ``margin`` after a
    trick's last card: the deal margin pegged so far (All Fours, for side 0), else None."""

    trick: int
    seat: int
    player: str
    card: str
    margin: int | None = None


@dataclass(frozen=True, slots=True)
class PitchTable:
    """The pitcher's first lead: ``leads`` maps each trump suit (``S``, ``H``, ``D``, ``C``) to the cards of
    that suit the pitcher holds, high to low, each with its value for the pitcher's side to the end of the
    deal (best play after it)."""

    seat: int
    player: str
    leads: dict[str, list[tuple[str, int]]]

    def best(self, suit: str) -> int | None:
        """The most the pitcher's side can make with ``suit`` as trump (None: no card of it to lead)."""
        values = [v for _, v in self.leads.get(suit, [])]
        return max(values) if values else None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "by_trump": {
                suit: {"best": self.best(suit), "leads": [{"card": c, "value": v} for c, v in cards]}
                for suit, cards in self.leads.items()
            },
        }


@dataclass(slots=True)
class Reading:
    """One analysed deal made readable: ``chained`` (trick, seat) -> (before, after), the chained values
    (All Fours: side ``side``'s deal margin; Oh Hell: the card's player's, as analysed); the best line;
    the pitch table (All Fours, from the first card only)."""

    deal: int
    side: int | None
    chained: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    start: int | None = None  # the chained value at the first card analysed
    line: list[LineCard] = field(default_factory=list)
    pitch: PitchTable | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "start": self.start}
        out["line"] = [
            {"trick": c.trick, "seat": c.seat, "player": c.player, "card": c.card, "margin": c.margin}
            for c in self.line
        ]
        if self.pitch is not None:
            out["pitch"] = self.pitch.to_json()
        return out


def margin(state: State) -> int:
    """All Fours: side 0's points pegged in this deal so far, less side 1's."""
    assert isinstance(state, PitchState)
    start = state.start_totals
    return (state.totals[0] - start[0]) - (state.totals[1] - start[1])


def _sign(seat: int) -> int:
    return 1 if side_of(seat) == 0 else -1


@holds_table
def read_analysis(
    source: Source, analysis: Analysis, *, line: bool = True, pitch: bool = False, engine: str = "auto"
) -> list[Reading]:
    """The readings of every analysed deal of ``analysis`` (made from ``source``), in its order:
    the chained values always; the best line (``line``) and the pitch table (``pitch``) at a search a step."""
    record = read(source)
    names = [p.name for p in record.players]
    all_fours = record.game != "oh_hell"
    by_deal = {d.deal: d for d in analysis.deals}
    wanted = {(c.deal, c.trick, c.seat): c for d in analysis.deals for c in d.cards}
    readings: dict[int, Reading] = {}
    for step in states(record, on_fault="pass"):
        state = step.state
        if state.phase is not Phase.PLAY or not step.legal:
            continue
        key = (state.deal_index + 1, len(state.tricks) + 1, step.seat)
        found = wanted.get(key)
        if found is None:
            continue
        reading = readings.get(found.deal)
        first = reading is None
        if reading is None:
            reading = readings[found.deal] = Reading(found.deal, 0 if all_fours else None)
        if all_fours:
            base, sign = margin(state), _sign(step.seat)
            values = (base + sign * found.before, base + sign * found.after)
        else:
            values = (found.before, found.after)
        reading.chained[found.trick, found.seat] = values
        if first:
            reading.start = values[0]
            if line or pitch:
                _from_here(reading, state.copy(), names, line, pitch, engine)
    return [readings[d] for d in sorted(readings) if d in by_deal]


def _from_here(reading: Reading, state: State, names: list[str], line: bool, pitch: bool, engine: str) -> None:
    """The best line (and at the pitcher's first lead, the pitch table) from ``state``, a copy to play on."""
    deal = state.deal_index
    all_fours = isinstance(state, PitchState)
    if pitch and isinstance(state, PitchState) and state.trump is None and not state.trick:
        reading.pitch = pitch_table(solve(state, engine=engine), names)
    while line and state.phase is Phase.PLAY and state.deal_index == deal:
        seat = state.current_seat
        assert seat is not None
        card = best_card(state, engine)
        trick = len(state.tricks) + 1
        state.apply(card)
        done = len(state.tricks) >= trick or state.phase is not Phase.PLAY
        shown = margin(state) if all_fours and done and state.deal_index == deal else None
        reading.line.append(LineCard(trick, seat, names[seat], CARD_TEXT[card], shown))


def best_card(state: State, engine: str = "auto") -> Card:
    """A best card for the player to act: the first of the best cards, found as ``review`` finds them (a
    null-window test a card, far fewer full searches than valuing every card)."""
    legal = [a for a in state.legal_actions() if isinstance(a, Card)]
    if len(legal) == 1:
        return legal[0]
    return review(state, legal[0], engine=engine).best[0]


def pitch_table(solution: Solution, names: list[str]) -> PitchTable:
    """The pitcher's every first lead, valued (``solve`` at the first lead: each card makes its suit trump)."""
    leads: dict[str, list[tuple[str, int]]] = {}
    for card, value in sorted(solution.cards.items(), key=lambda cv: (SUITS.index(cv[0].suit.letter), -int(cv[0]))):
        leads.setdefault(card.suit.letter, []).append((CARD_TEXT[card], value))
    return PitchTable(solution.seat, names[solution.seat], {s: leads[s] for s in SUITS if s in leads})


def analysis_json(analysis: Analysis, readings: list[Reading]) -> dict[str, Any]:
    """``analysis.to_json()`` with each deal's reading: ``side`` and ``start`` (the chained values' side and
    first value), ``line``, ``pitch`` where made, and each card's chained ``deal_before``/``deal_after``."""
    out = analysis.to_json()
    by_deal = {r.deal: r for r in readings}
    for deal in out["deals"]:
        reading = by_deal.get(deal["deal"])
        if reading is None:
            continue
        deal.update(reading.to_json())
        for trick in deal["tricks"]:
            for card in trick["cards"]:
                before, after = reading.chained[trick["trick"], card["seat"]]
                card["deal_before"], card["deal_after"] = before, after
    return out
