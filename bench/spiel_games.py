"""OpenSpiel's ``oh_hell`` played at random, for the benchmarks that set phatlog beside it (``bench_state.py``,
``bench_verify.py``): the same hands for both, drawn from one seed."""

from __future__ import annotations

import random
from typing import Any

#: The game the benchmarks play: four players, ten tricks a hand.
OH_HELL: dict[str, int] = {"players": 4, "num_tricks_fixed": 10}


def random_hands(game: Any, count: int, seed: int) -> list[Any]:
    """``count`` hands of ``game`` (a pyspiel game) played to the end at random, chance included."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        out.append(state)
    return out
