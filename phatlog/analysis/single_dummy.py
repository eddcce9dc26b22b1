"""Single-dummy values: each card judged on what its player knew when it was played.

At a decision the player to act sees its own hand, the cards played, the voids shown and the turn-up
(:mod:`phatlog.analysis.views`). The analysis draws ``samples`` layouts of the unseen cards uniformly among
those consistent with that view, solves each double dummy, and gives every legal card its **mean value**
over the layouts (for the player's side, in the game's unit), a 95% confidence interval of that mean,
and how often it was **best** (tied the best in its layout). The single-dummy best is the card of the
highest mean; a card's **expected cost** is the best mean less its own, with an interval from the paired
differences (the same layouts value both cards, which makes the interval far narrower than the two
means'). A card is *clearly worse* when that interval lies wholly above 0.

The draws are deterministic: decision ``i`` of a run uses the seed ``(seed, i)``, so the figures do not
depend on the number of processes. With no unseen card (or a single consistent layout) the one layout is
the real deal, and the single-dummy values are the double-dummy ones.

The double-dummy solver is reached through one function, :func:`_card_values`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from phatlog.analysis.views import Layout, bid_weigher, count_layouts, layouts, place, view_of
from phatlog.diagnostics import Diagnostic
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import Phase, State
from phatlog.play.steps import states
from phatlog.record.load import Source, read
from phatlog.rules.cards import CARD_TEXT, Card
from phatlog.solver.search import holds_table
from phatlog.solver.values import solve

__all__ = ["CardEstimate", "Decision", "SingleDummy", "analyse_single_dummy", "single_dummy"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def _card_values(state: State) -> dict[Card, int]:
    """The double-dummy value of each legal card of the player to act, for that player's side (every hand
    known to ``state``). The one call into the solver."""
    return solve(state).cards


@dataclass(frozen=True, slots=True)
class CardEstimate:
    """One legal card over the sampled layouts: its ``mean`` value and the half-width ``ci`` of its 95%
    interval; ``best``, the share of layouts where it tied the best; ``cost``, the best mean less its own,
    with ``cost_ci`` from the paired differences."""

    card: Card
    mean: float
    ci: float
    best: float
    cost: float
    cost_ci: float

    @property
    def clearly_worse(self) -> bool:
        """The card's expected cost is above 0 beyond its interval."""
        return self.cost - self.cost_ci > 1e-9

    def to_json(self) -> dict[str, Any]:
        return {
            "card": CARD_TEXT[self.card],
            "mean": round(self.mean, 4),
            "ci": round(self.ci, 4),
            "best": round(self.best, 4),
            "cost": round(self.cost, 4),
            "cost_ci": round(self.cost_ci, 4),
        }


@dataclass(frozen=True, slots=True)
class SingleDummy:
    """The player to act's cards valued on its view: ``cards`` by card, ``samples`` layouts drawn (of
    ``layouts`` consistent ones: an int, exactly counted)."""

    seat: int
    samples: int
    layouts: int
    cards: dict[Card, CardEstimate]

    @property
    def best(self) -> list[Card]:
        """The cards of the highest mean."""
        top = max(e.mean for e in self.cards.values())
        return [c for c, e in self.cards.items() if e.mean >= top - 1e-9]

    def cost(self, card: Card | str) -> float:
        return self.cards[Card.parse(card) if isinstance(card, str) else card].cost


def _estimates(rows: list[dict[Card, int]], weights: list[int] | list[float]) -> dict[Card, CardEstimate]:
    """Each card's estimate over the solved layouts: integer ``weights`` count how often each was drawn;
    float ones (the bids as evidence) weigh each, and the interval is then the effective sample's."""
    n = sum(weights)
    cards = sorted(rows[0])
    counted = all(isinstance(w, int) for w in weights)
    n_eff = n if counted else n * n / sum(w * w for w in weights)

    def mean_ci(xs: list[float]) -> tuple[float, float]:
        m = sum(w * x for w, x in zip(weights, xs, strict=True)) / n
        if n_eff < 2 - 1e-9:
            return m, 0.0
        if counted:
            var = sum(w * (x - m) ** 2 for w, x in zip(weights, xs, strict=True)) / (n - 1)
            return m, Z95 * math.sqrt(var / n)
        var = sum(w * (x - m) ** 2 for w, x in zip(weights, xs, strict=True)) / n * n_eff / (n_eff - 1)
        return m, Z95 * math.sqrt(var / n_eff)

    means = {c: mean_ci([float(r[c]) for r in rows]) for c in cards}
    top = max(means, key=lambda c: (means[c][0], -c))
    out: dict[Card, CardEstimate] = {}
    for c in cards:
        best = sum(w for w, r in zip(weights, rows, strict=True) if r[c] == max(r.values())) / n
        cost, cost_ci = mean_ci([float(r[top] - r[c]) for r in rows])
        out[c] = CardEstimate(c, means[c][0], means[c][1], best, cost, cost_ci)
    return out


@holds_table
def single_dummy(
    state: State, samples: int = 100, seed: int = 0, *, exact_below: int = 0, bids: bool = False
) -> SingleDummy:
    """The player to act's legal cards in ``state`` valued on what that player knows: ``samples`` layouts
    of the cards it cannot see, drawn uniformly by ``seed``, each solved double dummy. Where the
    consistent layouts number no more than ``exact_below`` (or one), every one is solved once instead
    (exact). ``state`` is a deal in play with every hand known to it (``phatlog.start``, ``phatlog.states``).
    ``bids`` (Oh Hell): the other players' bids as soft evidence, each layout weighed by how likely it
    makes them (``views.bid_weigher``; off by default, see docs/analysis.md).

    >>> import phatlog
    >>> state = phatlog.start("nine_card_don", seed=3)
    >>> for _ in range(6):
    ...     state.apply(state.legal_actions()[0])
    >>> sd = phatlog.single_dummy(state, samples=20, seed=1)
    >>> sd.seat, sd.samples, len(sd.cards) == len(state.legal_actions())
    (3, 20, True)
    >>> e = sd.cards[sd.best[0]]
    >>> e.cost, 0 <= e.best <= 1
    (0.0, True)
    """
    view = view_of(state)
    total = count_layouts(view)
    rows: list[dict[Card, int]] = []
    weights: list[int] = []
    laid: list[Layout] = []
    if total == 1 or total <= exact_below:
        laid = [{}] if total == 1 else _every_layout(view, total)
        drawn = [state] if total == 1 else [place(state, lay, view.seat) for lay in laid]
        rows = [_card_values(s) for s in drawn]
        weights = [1] * len(rows)
        n = len(rows)
    else:
        # the same layout drawn twice is solved once, and counts twice
        counted = Counter(
            tuple(sorted((p, tuple(sorted(cs))) for p, cs in lay.items())) for lay in layouts(view, samples, seed)
        )
        for key, times in counted.items():
            lay = {p: frozenset(cs) for p, cs in key}
            laid.append(lay)
            rows.append(_card_values(place(state, lay, view.seat)))
            weights.append(times)
        n = samples
    if bids and isinstance(state, OhHellState):
        weigh = bid_weigher(state, view.seat)
        weighed = [w * weigh(lay) for w, lay in zip(weights, laid, strict=True)]
        if sum(weighed) > 0:
            return SingleDummy(view.seat, n, total, _estimates(rows, weighed))
    return SingleDummy(view.seat, n, total, _estimates(rows, weights))


def _every_layout(view: Any, total: int) -> list[dict[int, frozenset[Card]]]:
    """Every consistent layout (for a small count): drawn until all are found."""
    seen: dict[tuple[Any, ...], dict[int, frozenset[Card]]] = {}
    seed = 0
    while len(seen) < total:
        for lay in layouts(view, 4 * total, seed):
            seen.setdefault(tuple(sorted((p, tuple(sorted(cs))) for p, cs in lay.items())), lay)
        seed += 1
    return [seen[k] for k in sorted(seen)]


# ---------------------------------------------------------------------------- a record, card by card


@dataclass(frozen=True, slots=True)
class Decision:
    """One card played, valued both ways: double dummy (``dd_*``, every hand seen) and single dummy
    (``sd``, on what the player knew). ``lucky``: the card was best double dummy but clearly worse single
    dummy; ``chance``: some card was (a lucky play was open to the player)."""

    deal: int  # from 1
    trick: int  # from 1
    seat: int
    player: str
    card: Card
    dd_values: dict[Card, int]
    sd: SingleDummy

    @property
    def dd_cost(self) -> int:
        return max(self.dd_values.values()) - self.dd_values[self.card]

    @property
    def dd_best(self) -> list[Card]:
        top = max(self.dd_values.values())
        return [c for c, v in self.dd_values.items() if v == top]

    @property
    def mattered(self) -> bool:
        return len(set(self.dd_values.values())) > 1

    @property
    def sd_cost(self) -> float:
        return self.sd.cards[self.card].cost

    @property
    def sd_ci(self) -> float:
        return self.sd.cards[self.card].cost_ci

    @property
    def chance(self) -> bool:
        """Every card best double dummy was clearly worse single dummy: the play the view called for
        gives something away to where the hidden cards lie, and only sight of them finds the best."""
        return self.mattered and all(self.sd.cards[c].clearly_worse for c in self.dd_best)

    @property
    def lucky(self) -> bool:
        """At a chance, the player played a card best double dummy."""
        return self.chance and self.dd_cost == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "trick": self.trick,
            "seat": self.seat,
            "player": self.player,
            "card": CARD_TEXT[self.card],
            "dd_cost": self.dd_cost,
            "dd_best": [CARD_TEXT[c] for c in self.dd_best],
            "mattered": self.mattered,
            "sd_cost": round(self.sd_cost, 4),
            "sd_ci": round(self.sd_ci, 4),
            "sd_best": [CARD_TEXT[c] for c in self.sd.best],
            "samples": self.sd.samples,
            "layouts": str(self.sd.layouts),
            "lucky": self.lucky,
            "chance": self.chance,
            "cards": [e.to_json() for e in self.sd.cards.values()],
        }


@dataclass(slots=True)
class SingleDummyAnalysis:
    """A record analysed single dummy, card by card."""

    game: str
    players: list[str]
    unit: str
    decisions: list[Decision] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    samples: int = 100
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "unit": self.unit,
            "samples": self.samples,
            "seed": self.seed,
            "decisions": [d.to_json() for d in self.decisions],
            "diagnostics": [dg.as_json() for dg in self.diagnostics],
        }


class SingleDummyAsk(NamedTuple):
    """A single-dummy analysis asked for (``analyse --single-dummy``, ``replay --analyse --single-dummy``):
    ``samples`` layouts a decision, drawn by ``seed``, over ``jobs`` processes; ``bids``, Oh Hell's bids as
    soft evidence."""

    samples: int = 100
    seed: int = 0
    jobs: int = 1
    bids: bool = False

    def analyse(
        self,
        source: Source,
        *,
        deal: int | None = None,
        from_trick: int = 1,
        cluster: str | None = None,
        on_decision: Callable[[Decision], None] | None = None,
    ) -> SingleDummyAnalysis:
        """:func:`analyse_single_dummy` of ``source`` as asked."""
        return analyse_single_dummy(
            source,
            self.samples,
            self.seed,
            deal=deal,
            from_trick=from_trick,
            jobs=self.jobs,
            cluster=cluster,
            on_decision=on_decision,
            bids=self.bids,
        )


#: One decision's work: (decision index, deal from 1, trick from 1, seat, card, the state before it).
_Task = tuple[int, int, int, int, Card, State]


def _decide(task: _Task, samples: int, seed: int, bids: bool = False) -> tuple[int, dict[Card, int], SingleDummy]:
    index, _deal, _trick, _seat, _card, state = task
    return index, _card_values(state), single_dummy(state, samples, seed * 1_000_003 + index, bids=bids)


def _tasks(source: Source, deal: int | None, from_trick: int) -> Iterator[_Task]:
    index = 0
    for step in states(source, on_fault="pass"):
        state = step.state
        if state.phase is not Phase.PLAY or not step.legal:
            continue
        d = state.deal_index + 1
        trick = len(state.tricks) + 1
        if (deal is not None and d != deal) or trick < from_trick:
            continue
        card = step.action
        assert isinstance(card, Card)
        yield index, d, trick, step.seat, card, state.copy()
        index += 1


@holds_table
def analyse_single_dummy(
    source: Source,
    samples: int = 100,
    seed: int = 0,
    *,
    deal: int | None = None,
    from_trick: int = 1,
    jobs: int = 1,
    cluster: str | None = None,
    on_decision: Callable[[Decision], None] | None = None,
    bids: bool = False,
) -> SingleDummyAnalysis:
    """Every card of a record valued double dummy and single dummy (``samples`` layouts a decision, drawn
    by ``seed``), optionally one ``deal`` (from 1) and from a trick on. ``jobs`` > 1 spreads the decisions
    over that many processes; ``cluster`` (a Dask address, ``local:N``) over a Dask cluster instead (the
    figures are the same either way). ``on_decision`` is called with each decision as it is done, in
    order (to drive a progress bar). ``bids`` (Oh Hell): the bids as soft evidence (``single_dummy``).
    Raises ``phatlog.ReadError`` for input that is not a record."""
    from phatlog.analysis.records import unit_of

    record = read(source)
    names = [p.name for p in record.players]
    out = SingleDummyAnalysis(record.game, names, unit_of(record.game), samples=samples, seed=seed)
    if deal is not None and deal > len(record.deals):
        raise ValueError(f"the record has {len(record.deals)} deal(s), not {deal}")
    tasks = list(_tasks(record, deal, from_trick))
    by_index = {t[0]: t for t in tasks}
    for index, dd, sd in _run(tasks, samples, seed, jobs, cluster, bids):
        _, d, trick, seat, card, _state = by_index[index]
        decision = Decision(d, trick, seat, names[seat], card, dd, sd)
        out.decisions.append(decision)
        if on_decision is not None:
            on_decision(decision)
    return out


def _run(
    tasks: list[_Task], samples: int, seed: int, jobs: int, cluster: str | None, bids: bool = False
) -> Iterable[tuple[int, dict[Card, int], SingleDummy]]:
    if cluster is not None:
        from phatlog.archive.cluster import connect

        client, close = connect(cluster)
        try:
            futures = client.map(_decide, tasks, samples=samples, seed=seed, bids=bids, pure=False)
            for fut in futures:
                yield fut.result()
        finally:
            close()
        return
    if jobs <= 1 or len(tasks) < 2:
        for t in tasks:
            yield _decide(t, samples, seed, bids)
        return
    from concurrent.futures import ProcessPoolExecutor

    # the dearest decisions (the most cards in play) first, so that no worker is left with one at the end
    order = sorted(tasks, key=lambda t: -sum(len(h) for h in t[5].held))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {t[0]: pool.submit(_decide, t, samples, seed, bids) for t in order}
        for t in tasks:
            yield futures[t[0]].result()
