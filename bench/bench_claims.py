"""The claim audit's benchmark (not a test): the figures in docs/analysis.md, "The claim audit".

    python bench/bench_claims.py             # ten-trick endings: Oh Hell (4 players), Phat, Irish Don; 10 seeds
    python bench/bench_claims.py --left 5    # five tricks left

Each position is a deal from a seed (``phatlog.start``), played at random up to ``--left`` tricks from its
end (10: Oh Hell, 4 players, a hand of 10 before its first card; Phat and Irish Don after three tricks).
Every seat claims every trick left: the audit finds what the claimer's side can make sure of and, where the claim is
unsound (the usual case), the line of play that defeats it. Times are wall clock, one process, the C
solver where built; the first audit of a run also builds the tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import phatlog
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import State
from phatlog.rules.cards import CARD_TEXT
from phatlog.solver import c_available
from phatlog.solver.claims import solve_claim


def ending(game: str, seed: int, left: int, players: int | None = None, rules: dict[str, Any] | None = None) -> State:
    """A deal from ``seed`` played at random until ``left`` tricks remain (Oh Hell: after random bids)."""
    rng = random.Random(seed)
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    while state.hand_size() - len(state.tricks) > left or state.trick:
        state.apply(rng.choice(state.legal_actions()))
    return state


def audit_all(state: State) -> tuple[list[float], int, int]:
    """Every seat's claim of every trick left, audited: the times, the unsound claims, the nodes."""
    partners = not isinstance(state, OhHellState)
    hands = [[CARD_TEXT[c] for c in h] for h in state._held]
    trump = None if state.trump is None else int(state.trump)
    left = len(hands[0])
    times, unsound, nodes = [], 0, 0
    for seat in range(state.seats):
        began = time.perf_counter()
        found = solve_claim(hands, [], state.leader, trump, state.follow, seat, left, len(state.tricks), partners)
        times.append(time.perf_counter() - began)
        unsound += not found.sound
        nodes += found.nodes
    return times, unsound, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--left", type=int, default=10, help="tricks left at the claim (default 10)")
    args = parser.parse_args()
    print(f"C solver: {'yes' if c_available() else 'no (pure Python)'}")
    cases = [
        (f"Oh Hell, 4 players, hands of 10, {args.left} tricks left", "oh_hell", 4, {"schedule": [10]}),
        (f"Phat, {args.left} tricks left", "phat", None, None),
        (f"Irish Don, {args.left} tricks left", "irish_don", None, None),
    ]
    for label, game, players, rules in cases:
        times: list[float] = []
        unsound = nodes = 0
        for seed in range(args.seeds):
            t, u, n = audit_all(ending(game, seed, args.left, players, rules))
            times += t
            unsound += u
            nodes += n
        print(
            f"{label}: {len(times)} claims, {unsound} unsound; "
            f"per audit median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; "
            f"{nodes / len(times):,.0f} nodes per audit"
        )


if __name__ == "__main__":
    main()
