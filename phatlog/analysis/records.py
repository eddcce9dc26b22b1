"""Card-by-card analysis of a record, and the integrity statistics over many records.

For every card played (stepping through the record with ``phatlog.states``), the position before it is
solved double dummy: ``before`` is the best the player's side could make sure of, ``after`` what it could
make sure of once this card was played, ``cost`` the difference (0 for a best card). In the All Fours
family the unit is points (for the player's partnership, to the end of the deal); in Oh Hell it is tricks
of the player's miss of its bid (others playing against it). A choice *mattered* when the player's legal
cards did not all come to the same.

The integrity statistics add these up by player over many records: the share of best cards and the mean
cost among the cards where the choice mattered, set against the rest of the field. A screening aid: a
share far above the field's is a reason to look closer, not proof of anything.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from phatlog.diagnostics import Diagnostic, diag
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import Phase
from phatlog.play.steps import states
from phatlog.record.load import Source, read
from phatlog.rules.cards import CARD_TEXT, Card
from phatlog.solver.problem import review
from phatlog.solver.search import holds_table
from phatlog.solver.values import trick_range


@dataclass(frozen=True, slots=True)
class CardCost:
    """One card played, valued against best play."""

    deal: int  # from 1
    trick: int  # from 1
    seat: int
    player: str
    card: str
    before: int
    after: int
    cost: int
    best: list[str]
    mattered: bool
    nodes: int


@dataclass(frozen=True, slots=True)
class SeatRange:
    """Oh Hell, at the first card of a hand: the most and the fewest tricks a seat could make sure of,
    its bid, whether it could make sure of exactly that, and the tricks it took."""

    seat: int
    player: str
    bid: int | None
    fewest: int
    most: int
    exact: bool | None
    took: int


@dataclass(slots=True)
class DealAnalysis:
    """One deal (Oh Hell: hand) analysed."""

    deal: int  # from 1
    unit: str  # "points" or "tricks"
    cards: list[CardCost] = field(default_factory=list)
    ranges: list[SeatRange] = field(default_factory=list)
    value: int | None = None  # the value at the first card analysed, for the player then to act's side
    first_seat: int | None = None

    def cost_by_seat(self, seats: int) -> list[int]:
        out = [0] * seats
        for c in self.cards:
            out[c.seat] += c.cost
        return out

    def tricks(self) -> list[list[CardCost]]:
        """The cards, trick by trick."""
        out: dict[int, list[CardCost]] = {}
        for c in self.cards:
            out.setdefault(c.trick, []).append(c)
        return [out[k] for k in sorted(out)]


@dataclass(slots=True)
class Analysis:
    """A record analysed: its deals, and why any deal could not be."""

    game: str
    players: list[str]
    deals: list[DealAnalysis]
    diagnostics: list[Diagnostic]

    def to_json(self) -> dict[str, Any]:
        deals = []
        for d in self.deals:
            item: dict[str, Any] = {
                "deal": d.deal,
                "unit": d.unit,
                "value": d.value,
                "first_seat": d.first_seat,
                "cost_by_seat": d.cost_by_seat(len(self.players)),
                "tricks": [
                    {"trick": t[0].trick, "cost": sum(c.cost for c in t), "cards": [_card_json(c) for c in t]}
                    for t in d.tricks()
                ],
            }
            if d.ranges:
                item["ranges"] = [asdict(r) for r in d.ranges]
            deals.append(item)
        return {
            "game": self.game,
            "players": list(self.players),
            "deals": deals,
            "diagnostics": [dg.as_json() for dg in self.diagnostics],
        }


def _card_json(c: CardCost) -> dict[str, Any]:
    out = asdict(c)
    del out["deal"], out["trick"]
    return out


def unit_of(game: str) -> str:
    return "tricks" if game == "oh_hell" else "points"


@holds_table
def analyse(
    source: Source,
    deal: int | None = None,
    from_trick: int = 1,
    engine: str = "auto",
    ranges: bool = False,
    on_card: Callable[[CardCost], None] | None = None,
) -> Analysis:
    """Analyse a record card by card (``deal``: only that deal, from 1; ``from_trick``: skip the tricks
        before it, from 1; ``ranges``: Oh Hell, each seat's trick range at the first card of each hand, three
        more searches a seat, slow for large hands of many players; ``on_card``: called with each card's
    :class:`CardCost` as soon as it is valued, to drive a progress display). A deal whose hands are neither recorded
        nor shown by complete tricks cannot be analysed: PL840. Raises ``phatlog.ReadError`` for input that is
        not a record."""
    record = read(source)
    names = [p.name for p in record.players]
    unit = unit_of(record.game)
    out: list[Diagnostic] = []
    deals: dict[int, DealAnalysis] = {}
    took: dict[int, list[int]] = {}
    for d, recorded in enumerate(record.deals):
        if deal is not None and d + 1 != deal:
            continue
        if recorded.tricks and not _hands_known(recorded, record.game, len(names)):
            out.append(
                diag(
                    "PL840",
                    f"deal {d + 1}: the hands are not recorded and the tricks do not show them all (the deal "
                    "stops short): it cannot be analysed",
                    f"/deals/{d}/hands",
                )
            )
        elif not recorded.tricks and deal is not None:
            out.append(
                diag("PL841", f"deal {d + 1} records no cards (a score-sheet deal): nothing to analyse", f"/deals/{d}")
            )
    if deal is None and not any(recorded.tricks for recorded in record.deals):
        out.append(diag("PL841", "no deal records its cards (a score sheet): nothing to analyse", "/deals"))
    for step in states(record, on_fault="pass"):
        state = step.state
        if state.phase is not Phase.PLAY or not step.legal:
            if not step.legal:
                out.append(
                    diag(
                        "PL842",
                        f"deal {state.deal_index + 1}: {step.action} is not a legal play; the analysis of this deal "
                        "stops there",
                        f"/deals/{state.deal_index}",
                    )
                )
            continue
        d = state.deal_index
        trick = len(state.tricks) + 1
        if (deal is not None and d + 1 != deal) or trick < from_trick:
            continue
        analysis = deals.get(d)
        if analysis is None:
            analysis = deals[d] = DealAnalysis(d + 1, unit)
            if isinstance(state, OhHellState) and ranges:
                took[d] = _tricks_taken(record.deals[d], len(names))
                for seat in range(state.seats):
                    tr = trick_range(state, seat, engine=engine)
                    analysis.ranges.append(
                        SeatRange(seat, names[seat], tr.bid, tr.fewest, tr.most, tr.exact, took[d][seat])
                    )
        card = step.action
        assert isinstance(card, Card)
        r = review(state, card, engine=engine)  # the public solver (phatlog.solver.problem)
        if analysis.value is None:
            analysis.value = r.before
            analysis.first_seat = step.seat
        analysis.cards.append(
            CardCost(
                d + 1,
                trick,
                step.seat,
                names[step.seat],
                CARD_TEXT[card],
                r.before,
                r.after,
                r.cost,
                [CARD_TEXT[c] for c in r.best],
                r.mattered,
                r.nodes,
            )
        )
        if on_card is not None:
            on_card(analysis.cards[-1])
    if deal is not None and deal > len(record.deals):
        raise ValueError(f"the record has {len(record.deals)} deal(s), not {deal}")
    return Analysis(record.game, names, [deals[k] for k in sorted(deals)], out)


def _hands_known(deal: Any, game: str, seats: int) -> bool:
    if deal.hands is not None:
        return True
    tricks = deal.tricks or []
    if not tricks or any(len(t.cards) != seats for t in tricks):
        return False
    if game == "oh_hell":
        return True  # a hand's size is its tricks: the tricks show every card when all are complete
    size = {"phat": 13, "irish_don": 13, "nine_card_don": 9}[game]
    return len(tricks) == size


def _tricks_taken(deal: Any, seats: int) -> list[int]:
    from phatlog.rules.trick import text_winning_position

    taken = [0] * seats
    turnup = getattr(deal, "turnup", None)
    trump = 4 if turnup is None else int(Card.parse(turnup).suit)
    for t in deal.tricks or []:
        if len(t.cards) == seats:
            taken[(t.leader + text_winning_position(list(t.cards), trump)) % seats] += 1
    return taken


# ---------------------------------------------------------------------------- integrity statistics


@dataclass(slots=True)
class PlayerStats:
    """One player's cards across records, in one unit (points or tricks)."""

    player: str
    unit: str
    cards: int = 0
    decisions: int = 0  # cards where the choice mattered
    best: int = 0  # of those, best cards
    cost: int = 0  # of those, the total cost
    records: int = 0
    z: float | None = None  # the share of best cards against the rest of the field, in standard deviations

    @property
    def share(self) -> float | None:
        return self.best / self.decisions if self.decisions else None

    @property
    def mean_cost(self) -> float | None:
        return self.cost / self.decisions if self.decisions else None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "unit": self.unit,
            "records": self.records,
            "cards": self.cards,
            "decisions": self.decisions,
            "best": self.best,
            "share": self.share,
            "mean_cost": self.mean_cost,
            "z": self.z,
        }


@dataclass(slots=True)
class FieldStats:
    """The players, and the field's distribution of the share of best cards."""

    players: list[PlayerStats]
    shares: list[float]
    diagnostics: list[tuple[str, Diagnostic]]
    min_decisions: int

    def quantiles(self) -> dict[str, float] | None:
        if not self.shares:
            return None
        s = sorted(self.shares)
        q = statistics.quantiles(s, n=4, method="inclusive") if len(s) > 1 else [s[0]] * 3
        return {"min": s[0], "q1": q[0], "median": q[1], "q3": q[2], "max": s[-1]}

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "field": self.quantiles(),
            "min_decisions": self.min_decisions,
            "diagnostics": [{"file": f, **d.as_json()} for f, d in self.diagnostics],
        }


def player_stats(analyses: Iterable[tuple[str, Analysis]], min_decisions: int = 20) -> FieldStats:
    """Add up the analyses by player (by name and unit) and set each player's share of best cards against
    the rest of the field: ``z`` is (share - the others' mean) / the others' standard deviation, among
    players with at least ``min_decisions`` cards where the choice mattered."""
    table: dict[tuple[str, str], PlayerStats] = {}
    notes: list[tuple[str, Diagnostic]] = []
    for name, analysis in analyses:
        notes += [(name, d) for d in analysis.diagnostics]
        seen: set[tuple[str, str]] = set()
        for deal in analysis.deals:
            for c in deal.cards:
                key = (c.player, deal.unit)
                stats = table.setdefault(key, PlayerStats(c.player, deal.unit))
                if key not in seen:
                    seen.add(key)
                    stats.records += 1
                stats.cards += 1
                if c.mattered:
                    stats.decisions += 1
                    stats.cost += c.cost
                    if c.cost == 0:
                        stats.best += 1
    players = sorted(table.values(), key=lambda p: (p.unit, p.player))
    eligible = [p for p in players if p.decisions >= min_decisions]
    for p in eligible:
        others = [q.share for q in eligible if q is not p and q.unit == p.unit and q.share is not None]
        if len(others) >= 2 and p.share is not None:
            mean = statistics.fmean(others)
            sd = statistics.stdev(others)
            p.z = (p.share - mean) / sd if sd > 0 else (math.inf if p.share > mean else 0.0)
    shares = [p.share for p in eligible if p.share is not None]
    return FieldStats(players, shares, notes, min_decisions)
