"""Does the single-dummy telltale tell a player who sees the hands from a strong honest one?

Simulated events of Oh Hell bots through ``phatlog.start``: a **cheater** that sees every hand and plays
a double-dummy best card, two **strong** honest players that play the single-dummy best card on their own
sample of the layouts they cannot tell apart, and a **weak** one that plays a random legal card. Every
card is then analysed both ways (double dummy; single dummy on a fresh sample, another seed), and each
event's players are set against each other with :func:`phatlog.analysis.integrity.sight_stats` (the lucky
rate) and, for comparison, by the double-dummy best share alone (the same two-proportion test).

    python bench/bench_sight.py --events 40 --hands 12 --jobs 2

prints, over the events, how often each kind of player is flagged (z >= 3) by each statistic.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import phatlog
from phatlog.analysis.integrity import sight_stats, two_proportion_z
from phatlog.analysis.single_dummy import Decision, SingleDummyAnalysis, _card_values, single_dummy
from phatlog.engine.state import State
from phatlog.rules.cards import Card

KINDS = ("cheater", "strong", "strong", "weak")
NAMES = ("Cheat", "Strong1", "Strong2", "Weak")


def _bid(state: State) -> int:
    """A plain bid: the aces, kings and trumps above ten held, within what the rules allow."""
    seat = state.current_seat
    assert seat is not None
    hand = state.hand(seat)
    trump = state.trump
    guess = sum(1 for c in hand if c % 13 >= 11 or (trump is not None and c // 13 == trump and c % 13 >= 8))
    legal: list[int] = state.legal_actions()
    return min(legal, key=lambda b: (abs(b - guess), b))


def _play(kind: str, state: State, rng: random.Random, samples: int) -> Card:
    legal: list[Card] = state.legal_actions()
    if kind == "weak":
        return rng.choice(legal)
    if kind == "cheater":
        values = _card_values(state)
        top = max(values.values())
        return rng.choice([c for c, v in values.items() if v == top])
    sd = single_dummy(state, samples, rng.randrange(1 << 30))
    return rng.choice(sd.best)


@dataclass
class EventResult:
    decisions: dict[str, int]
    dd_best: dict[str, int]
    lucky_z: dict[str, float | None]
    dd_z: dict[str, float | None]
    chances: dict[str, int]
    lucky: dict[str, int]
    dd_share: dict[str, float | None]


def event(seed: int, hands: int, size: int, bot_samples: int, samples: int) -> EventResult:
    rng = random.Random(seed)
    state = phatlog.start("oh_hell", players=list(NAMES), rules={"schedule": [size] * hands}, seed=seed)
    analysis = SingleDummyAnalysis("oh_hell", list(NAMES), "tricks", samples=samples, seed=seed)
    index = 0
    while not state.is_over:
        if state.is_chance:
            continue  # a seeded game deals by itself
        if state.phase.value == "bid":
            state.apply(_bid(state))
            continue
        seat = state.current_seat
        assert seat is not None
        dd = _card_values(state)
        sd = single_dummy(state, samples, seed * 1_000_003 + index)
        card = _play(KINDS[seat], state, rng, bot_samples)
        analysis.decisions.append(
            Decision(state.deal_index + 1, len(state.tricks) + 1, seat, NAMES[seat], card, dd, sd)
        )
        index += 1
        state.apply(card)
    stats = {s.player: s for s in sight_stats([analysis], min_chances=1)}
    dd_z: dict[str, float | None] = {}
    for name, s in stats.items():
        rest = [q for q in stats.values() if q is not s]
        dd_z[name] = two_proportion_z(
            s.dd_best, s.decisions, sum(q.dd_best for q in rest), sum(q.decisions for q in rest)
        )
    return EventResult(
        {n: s.decisions for n, s in stats.items()},
        {n: s.dd_best for n, s in stats.items()},
        {n: s.z for n, s in stats.items()},
        dd_z,
        {n: s.chances for n, s in stats.items()},
        {n: s.lucky for n, s in stats.items()},
        {n: s.dd_share for n, s in stats.items()},
    )


def _run(args: tuple[int, int, int, int, int]) -> EventResult:
    return event(*args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--hands", type=int, default=12, help="hands an event")
    parser.add_argument("--size", type=int, default=4, help="cards a hand")
    parser.add_argument("--bot-samples", type=int, default=20, help="layouts the strong bots sample")
    parser.add_argument("--samples", type=int, default=30, help="layouts the analysis samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    tasks = [
        (args.seed * 10_000 + e, args.hands, args.size, args.bot_samples, args.samples) for e in range(args.events)
    ]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_run, tasks))
    else:
        results = [_run(t) for t in tasks]
    took = time.perf_counter() - start
    print(
        f"{args.events} events of {args.hands} Oh Hell hands of {args.size} cards, 4 players; "
        f"bots sample {args.bot_samples} layouts, the analysis {args.samples}; {took:.0f} s"
    )
    print("player   kind     chances/event  lucky rate  DD share  flagged by lucky z>=3  flagged by DD-share z>=3")
    for name, kind in zip(NAMES, KINDS, strict=True):
        chances = sum(r.chances[name] for r in results)
        lucky = sum(r.lucky[name] for r in results)
        shares = [x for x in (r.dd_share[name] for r in results) if x is not None]
        flag_l = sum(1 for r in results if (r.lucky_z[name] or 0) >= 3)
        flag_d = sum(1 for r in results if (r.dd_z[name] or 0) >= 3)
        rate = lucky / chances if chances else float("nan")
        share = sum(shares) / len(shares) if shares else float("nan")
        print(
            f"{name:8} {kind:8} {chances / len(results):13.1f}  {rate:10.3f}  {share:8.3f}  "
            f"{flag_l:3d}/{len(results)} ({flag_l / len(results):.0%})          "
            f"{flag_d:3d}/{len(results)} ({flag_d / len(results):.0%})"
        )
    print("pooled over every event (as one long event): z of the lucky rate, z of the DD best share")
    for name in NAMES:
        rest = [n for n in NAMES if n != name]

        def total(field: str, who: list[str]) -> int:
            return sum(getattr(r, field)[n] for r in results for n in who)

        zl = two_proportion_z(
            total("lucky", [name]), total("chances", [name]), total("lucky", rest), total("chances", rest)
        )
        zd = two_proportion_z(
            total("dd_best", [name]), total("decisions", [name]), total("dd_best", rest), total("decisions", rest)
        )
        print(f"{name:8} lucky z {_z(zl)}  DD-share z {_z(zd)}")
    return 0


def _z(z: float | None) -> str:
    return "-" if z is None else f"{z:+.1f}"


if __name__ == "__main__":
    sys.exit(main())
