"""A best-play bot, written with the public API, for the integrity statistics' demonstration in
docs/analysis.md (not a test).

    python bench/best_play_bot.py OUT.jsonl --games 10 --seed 1 [--game nine_card_don]

Plays ``--games`` games through ``phatlog.start``: the seat named Bot plays a best card by the
double-dummy solver (``phatlog.solve``: it sees every hand, as a player with an accomplice or a
marked deck would), the three others (Eve, Fay, Gus) a random legal card, as ``phatlog simulate``'s
players do. The records go to OUT.jsonl, one a line.
"""

from __future__ import annotations

import argparse
import json
import random

import phatlog
from phatlog.solver.search import held_table

PLAYERS = ["Bot", "Eve", "Fay", "Gus"]


def play(game: str, seed: int) -> dict[str, object]:
    """One game: Bot plays best, the others at random (the bot's seat turns with the seed)."""
    rng = random.Random(seed)
    seat = seed % 4
    names = PLAYERS[-seat:] + PLAYERS[:-seat] if seat else list(PLAYERS)
    state = phatlog.start(game, players=names, seed=seed)
    with held_table():  # the solver's table kept from move to move, given back when the game ends
        while not state.is_over:
            actions = state.legal_actions()
            if state.current_seat == names.index("Bot") and state.phase is phatlog.Phase.PLAY:
                state.apply(phatlog.solve(state).best[0])
            else:
                state.apply(rng.choice(actions))
    record = state.record()
    record["event"] = {"source": "bench/best_play_bot.py"}
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="nine_card_don", choices=["phat", "nine_card_don", "irish_don"])
    args = parser.parse_args()
    with open(args.out, "w", encoding="utf-8") as out:
        for i in range(args.games):
            out.write(json.dumps(play(args.game, args.seed + i)) + "\n")


if __name__ == "__main__":
    main()
