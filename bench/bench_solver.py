"""The solver's benchmark (not a test): the figures in docs/performance.md, section "Solver".

    python bench/bench_solver.py                 # every figure (a few minutes)
    python bench/bench_solver.py --only don      # one group: don, big, oh_hell, techniques, check
    python bench/bench_solver.py --check 2000    # random small endings of every game against plain minimax
    python bench/bench_solver.py --only first --seeds 5 --timeout 120   # Phat, Irish Don from the first lead
    python bench/bench_solver.py --only first --seeds 5 --timeout 120 --no-deepening   # the same, without

Seconds are the CPU time of this process (``time.process_time``), not wall clock: on a shared machine the
wall clock of a long solve is mostly other work. ``--timeout S`` caps each solve at S CPU seconds: a solve
that hits it counts as S in the median and the maximum (so a median at the cap is a lower bound), and the
row says how many hit it.

Deals are drawn from seeds (``phatlog.start``), the play before a position at random from the same seed,
so every run measures the same positions. Times are CPU seconds on whatever machine runs it (below).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from timing import TimedOut, cpu_timed

import phatlog
from phatlog.analysis.records import analyse
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import State
from phatlog.solver import c_available, reference_value, value
from phatlog.solver.search import Techniques
from phatlog.solver.values import _searchers


def position(
    game: str, seed: int, tricks: int, players: int | None = None, rules: dict[str, Any] | None = None
) -> State:
    """A deal from ``seed`` with ``tricks`` tricks played at random (Oh Hell: after random bids)."""
    rng = random.Random(seed)
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    while len(state.tricks) < tricks or state.trick:
        state.apply(rng.choice(state.legal_actions()))
    return state


TIMEOUT: float = 0.0  # --timeout: the cap on one solve, in CPU seconds (0: none)


def timed(fn: Callable[[], Any]) -> tuple[float, int, Any]:
    """CPU seconds, nodes searched and the result of one fresh solve (the transposition tables emptied first);
    the result is :class:`TimedOut` where the solve hit ``--timeout`` (the nodes are then those of the
    probes that finished)."""
    _searchers.clear()
    if c_available():
        from phatlog._native import _solve

        _solve.clear()
    seconds, result = cpu_timed(fn, TIMEOUT)
    nodes = sum(s.nodes for s in _searchers.values())
    _searchers.clear()
    return seconds, nodes, result


def report(label: str, runs: list[tuple[float, int, Any]]) -> None:
    times = [r[0] for r in runs]
    done = [r for r in runs if not isinstance(r[2], TimedOut)]
    nodes = sum(r[1] for r in done)
    seconds = sum(r[0] for r in done)
    rate = nodes / seconds if seconds else 0.0
    capped = len(runs) - len(done)
    median_nodes = f"{statistics.median([r[1] for r in done]):,.0f}" if done else "-"
    print(
        f"| {label} | {len(runs)} | {statistics.median(times):.3f} | {max(times):.3f} | "
        f"{median_nodes} | {rate:,.0f} | {capped} |",
        flush=True,
    )
    print("    seconds: " + ", ".join(f"{t:.2f}" + ("+" if isinstance(r, TimedOut) else "") for t, _, r in runs))


def header() -> None:
    print("| what | runs | median s | max s | median nodes (finished) | nodes/s (finished) | hit the cap |")
    print("|---|---|---|---|---|---|---|")


def don(seeds: int) -> None:
    header()
    report(
        "Nine-card Don, whole deal from the first lead",
        [timed(partial(value, position("nine_card_don", s, 0))) for s in range(seeds)],
    )
    report(
        "Nine-card Don, five_high_low_jack, low to capturer, from the first lead",
        [
            timed(
                partial(
                    value, position("nine_card_don", s, 0, rules={"bonus": "five_high_low_jack", "low_to": "capturer"})
                )
            )
            for s in range(seeds)
        ],
    )
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for s in range(max(3, seeds // 4)):
            state = position("nine_card_don", s, 0)
            rng = random.Random(s)
            while state.deal_index == 0 and not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
            path = Path(tmp) / f"d{s}.json"
            import json

            record = state.record()
            record["deals"] = record["deals"][:1]
            record["result"] = {"status": "unfinished"}
            path.write_text(json.dumps(record))
            runs.append(timed(partial(analyse, str(path), deal=1)))
    report("Nine-card Don, per-card analysis of a whole deal (36 cards)", runs)


def big(seeds: int, first: bool) -> None:
    header()
    for game in ("irish_don", "phat"):
        report(
            f"{game}, from trick 5",
            [timed(partial(value, position(game, s, 4))) for s in range(seeds)],
        )
        report(
            f"{game}, from trick 3",
            [timed(partial(value, position(game, s, 2))) for s in range(seeds)],
        )
        if first:
            report(
                f"{game}, whole deal from the first lead",
                [timed(partial(value, position(game, s, 0))) for s in range(seeds)],
            )


def first(seeds: int, deepening: bool = True) -> None:
    """Phat and Irish Don from the first lead (the pitcher's lead chooses trump), a solve a seed
    (``--no-deepening``: without iterative deepening, for its row in the docs)."""
    header()
    tech = Techniques(deepening=deepening)
    for game in ("irish_don", "phat"):
        report(
            f"{game}, whole deal from the first lead" + ("" if deepening else ", no iterative deepening"),
            [timed(partial(value, position(game, s, 0), techniques=tech)) for s in range(seeds)],
        )


def oh_hell(seeds: int) -> None:
    from phatlog.solver import trick_range

    header()
    states = []
    for s in range(seeds):
        state = position("oh_hell", s, 0, players=4, rules={"schedule": [10]})
        assert isinstance(state, OhHellState)
        states.append(state)
    report("Oh Hell, 4 x 10 cards, one seat's most tricks", [timed(partial(most_tricks, st)) for st in states])
    report(
        "Oh Hell, 4 x 10 cards, one seat's range (most, fewest, exact bid)",
        [timed(partial(trick_range, st, 0)) for st in states],
    )


def most_tricks(state: OhHellState) -> int:
    """The most tricks seat 0 can make sure of (one search)."""
    from phatlog.solver.search import ALL
    from phatlog.solver.values import _oh_hell_problem, _side0_value

    return _side0_value(_oh_hell_problem(state, 0, "most"), "auto", ALL)


def techniques(seeds: int) -> None:
    """Each technique switched off in turn, on the same positions."""
    cases = [
        ("Nine-card Don from the first lead", [position("nine_card_don", s, 0) for s in range(seeds)]),
        ("Phat from trick 5", [position("phat", s, 4) for s in range(seeds)]),
    ]
    variants = [
        ("all", Techniques(), "c"),
        ("no MTD(f) (one full-window search)", Techniques(mtdf=False), "c"),
        ("no bounds", Techniques(bounds=False), "c"),
        ("no move ordering", Techniques(ordering=False), "c"),
        ("no touching-card equivalence", Techniques(equivalence=False), "c"),
        ("no transposition table", Techniques(tt=False, mtdf=False), "c"),
        ("no relative ranks (absolute ranks and counts in the key)", Techniques(relative=False), "c"),
        ("no ranges of counts (the count in the key)", Techniques(counts=False), "c"),
        ("no counters' game", Techniques(split=False), "c"),
        ("all, in Python", Techniques(), "python"),
    ]
    print("| position | techniques | median s | median nodes | nodes/s |")
    print("|---|---|---|---|---|")
    for label, states in cases:
        for name, tech, engine in variants:
            if engine == "c" and not c_available():
                continue
            states_used = states[:2] if engine == "python" else states
            runs = [timed(partial(value, st, engine=engine, techniques=tech)) for st in states_used]
            times = [r[0] for r in runs]
            total = sum(times)
            rate = sum(r[1] for r in runs) / total if total else 0.0
            print(
                f"| {label} | {name} | {statistics.median(times):.3f} | "
                f"{statistics.median([r[1] for r in runs]):,.0f} | {rate:,.0f} |",
                flush=True,
            )


GAMES: list[tuple[str, dict[str, Any], int | None]] = [
    ("phat", {}, None),
    ("phat", {"muck_tie": "both"}, None),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}, None),
    ("nine_card_don", {"bonus": "six_high_jack", "follow": "follow_or_trump"}, None),
    ("irish_don", {}, None),
    ("oh_hell", {"schedule": [5]}, 4),
    ("oh_hell", {"must_trump": True, "schedule": [6]}, 3),
    ("oh_hell", {"no_trump": "never", "schedule": [4]}, 5),
]


def check(count: int) -> None:
    """``count`` random endings (1 or 2 tricks to go) of each game: the fast solver (C and Python)
    against plain minimax over the engine's state."""
    for game, rules, players in GAMES:
        agreed = 0
        start = time.perf_counter()
        for seed in range(count):
            rng = random.Random(seed)
            state = phatlog.start(game, players=players, rules=rules, seed=seed)
            while state.phase.value == "bid":
                state.apply(rng.choice(state.legal_actions()))
            left = 1 + seed % 2
            into = rng.randrange(state.seats)
            size = state.hand_size()
            while len(state.tricks) < size - left or (len(state.tricks) == size - left and len(state.trick) < into):
                state.apply(rng.choice(state.legal_actions()))
            ref = reference_value(state)
            sign = 1 if isinstance(state, OhHellState) or (state.current_seat or 0) % 2 == 0 else -1
            engines = ["python", "c"] if c_available() else ["python"]
            if all(value(state, engine=e) == sign * ref for e in engines):
                agreed += 1
            else:
                print(f"DISAGREE: {game} {rules} seed {seed}", file=sys.stderr)
        print(f"{game} {rules}: {agreed}/{count} endings agree ({time.perf_counter() - start:.1f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["don", "big", "first", "oh_hell", "techniques", "check"])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first", action="store_true", help="also Phat and Irish Don from the first lead (slow)")
    parser.add_argument("--check", type=int, default=200, help="endings a game for --only check")
    parser.add_argument("--timeout", type=float, default=0.0, help="cap each solve at this many seconds")
    parser.add_argument("--no-deepening", action="store_true", help="--only first without iterative deepening")
    args = parser.parse_args()
    global TIMEOUT
    TIMEOUT = args.timeout
    print(f"C kernel: {'built' if c_available() else 'not built (Python)'}")
    groups: dict[str, Callable[[], None]] = {
        "don": lambda: don(args.seeds),
        "big": lambda: big(args.seeds, args.first),
        "first": lambda: first(args.seeds, not args.no_deepening),
        "oh_hell": lambda: oh_hell(args.seeds),
        "techniques": lambda: techniques(min(args.seeds, 5)),
        "check": lambda: check(args.check),
    }
    for name, run in groups.items():
        if args.only == name or (args.only is None and name != "first"):
            print(f"\n## {name}\n", flush=True)
            run()


if __name__ == "__main__":
    main()
