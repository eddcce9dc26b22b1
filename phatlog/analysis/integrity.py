"""Integrity statistics that tell skill from sight: a player's cards judged both ways, against the field.

A strong player plays well on what it can see; a player who sees the hidden hands plays well on what it
cannot. Double dummy (every hand seen) the two look alike: both play mostly best cards. Single dummy
(on the player's view) they part at the **chances**: decisions where every card that is best double
dummy is *clearly worse* single dummy (its expected cost over the layouts the player could not tell apart
lies above 0 beyond its 95% interval). Playing such a card there is a **lucky** play: it only pays
because of where the hidden cards happen to lie. An honest player takes it now and then (by mistake, or by a
judgement the sampling does not share); one who sees the cards takes it whenever it is the best.

Per player: the double-dummy figures (best share, mean cost where the choice mattered), the single-dummy
mean expected cost, and the **lucky rate**: lucky plays among chances. It is set against the rest of the
field by a two-proportion test (the player's rate against the pooled rate of every other player, z in
standard errors), which holds with a field of only a few players. A screening statistic: a high z is a
reason to look at the deals, never proof of anything; a bold player, or a field of weak ones, can
show it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from phatlog.analysis.single_dummy import SingleDummyAnalysis

__all__ = ["SightStats", "sight_stats"]


@dataclass(slots=True)
class SightStats:
    """One player's decisions, both ways, in one unit."""

    player: str
    unit: str
    cards: int = 0
    decisions: int = 0  # where the choice mattered double dummy
    dd_best: int = 0  # of those, best double dummy
    dd_cost: int = 0
    sd_cost: float = 0.0  # the expected cost single dummy, over every card
    chances: int = 0  # decisions where every double-dummy best card was clearly worse single dummy
    lucky: int = 0  # of those, the player played such a card
    z: float | None = None  # the lucky rate against the rest of the field (two-proportion)

    @property
    def dd_share(self) -> float | None:
        return self.dd_best / self.decisions if self.decisions else None

    @property
    def dd_mean_cost(self) -> float | None:
        return self.dd_cost / self.decisions if self.decisions else None

    @property
    def sd_mean_cost(self) -> float | None:
        return self.sd_cost / self.cards if self.cards else None

    @property
    def lucky_rate(self) -> float | None:
        return self.lucky / self.chances if self.chances else None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "unit": self.unit,
            "cards": self.cards,
            "decisions": self.decisions,
            "dd_share": self.dd_share,
            "dd_mean_cost": self.dd_mean_cost,
            "sd_mean_cost": self.sd_mean_cost,
            "chances": self.chances,
            "lucky": self.lucky,
            "lucky_rate": self.lucky_rate,
            "z": self.z,
        }


def two_proportion_z(k: int, n: int, k_rest: int, n_rest: int) -> float | None:
    """(k/n - k_rest/n_rest) over the pooled standard error; None without chances on either side."""
    if n == 0 or n_rest == 0:
        return None
    pooled = (k + k_rest) / (n + n_rest)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / n_rest))
    diff = k / n - k_rest / n_rest
    if se == 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return diff / se


def sight_stats(analyses: Iterable[SingleDummyAnalysis], min_chances: int = 10) -> list[SightStats]:
    """Add the decisions up by player (name and unit) and set each player's lucky rate against the rest
    of the field's, for players with at least ``min_chances`` chances (``z`` None for the others)."""
    table: dict[tuple[str, str], SightStats] = {}
    for analysis in analyses:
        for d in analysis.decisions:
            s = table.setdefault((d.player, analysis.unit), SightStats(d.player, analysis.unit))
            s.cards += 1
            s.sd_cost += d.sd_cost
            if d.mattered:
                s.decisions += 1
                s.dd_cost += d.dd_cost
                s.dd_best += d.dd_cost == 0
            if d.chance:
                s.chances += 1
                s.lucky += d.lucky
    players = sorted(table.values(), key=lambda p: (p.unit, p.player))
    for p in players:
        if p.chances < min_chances:
            continue
        rest = [q for q in players if q is not p and q.unit == p.unit]
        p.z = two_proportion_z(p.lucky, p.chances, sum(q.lucky for q in rest), sum(q.chances for q in rest))
    return players
