"""The State for search: copies, moves and undos a second, side by side with OpenSpiel's ``oh_hell`` (a
benchmark, not a test).

On the same Oh Hell hands (4 players, 10 tricks: random games of OpenSpiel's ``oh_hell``, read into
phatlog with its OpenSpiel reader and stepped through with ``phatlog.states``), and on Phat deals in
progress (simulated games, every position of their first deal):

- copies: ``State.copy()`` of every position against pyspiel's ``clone()`` of the same positions;
- moves: every bid and card of each hand applied from its first bid (``State.apply``, the referee's and
  a bot's path) against ``apply_action``;
- undos: the same actions applied with ``State.push``, then taken back with ``State.undo``, against
  pyspiel's ``undo_action`` where the game has one.

Each figure is the best of ``--repeat`` runs of each stretch of about 500 items, with the collector off,
as timeit takes the best of its runs: on a shared machine a long run is always interrupted somewhere.

    python bench/bench_state.py [--hands 300] [--games 100] [--seed 1] [--repeat 3]
    PHATLOG_PURE_PYTHON=1 python bench/bench_state.py   # the same: the State is Python either way
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from collections.abc import Callable
from typing import Any

from spiel_games import OH_HELL, random_hands
from timing import best_rate

import phatlog
from phatlog.play.simulate import simulate

CHUNK = 500


def chunks(items: list[Any], size: int = CHUNK) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def best_of_chunks(items: list[Any], work: Callable[[list[Any]], int], repeat: int) -> float:
    """The best rate of ``work`` over stretches of ``items`` (``work`` returns how many it did)."""
    rates = []
    for part in chunks(items):

        def one(part: list[Any] = part) -> int:
            return work(part)

        rates.append(best_rate(one, repeat))
    return max(rates)


def phatlog_rates(hands: list[tuple[phatlog.State, list[Any]]], repeat: int) -> dict[str, float]:
    """copies, moves and undos a second on phatlog's State, for hands given as (the state before their
    first action, the actions)."""
    positions: list[phatlog.State] = []
    for first, actions in hands:
        state = first.copy()
        for action in actions:
            positions.append(state.copy())
            state.apply(action)

    def copies(part: list[phatlog.State]) -> int:
        for position in part:
            position.copy()
        return len(part)

    def timed_moves() -> float:
        best = 0.0
        for part in chunks(hands, 10):
            for _ in range(repeat):
                fresh = [first.copy() for first, _ in part]
                gc.collect()
                gc.disable()
                try:
                    start = time.perf_counter()
                    for state, (_, actions) in zip(fresh, part, strict=True):
                        for action in actions:
                            state.apply(action)
                    elapsed = time.perf_counter() - start
                finally:
                    gc.enable()
                best = max(best, sum(len(a) for _, a in part) / elapsed)
        return best

    def undos() -> float:
        best = 0.0
        for part in chunks(hands, 10):
            for _ in range(repeat):
                pushed = []
                for first, actions in part:
                    state = first.copy()
                    for action in actions:
                        state.push(action)
                    pushed.append(state)
                gc.collect()
                gc.disable()
                try:
                    start = time.perf_counter()
                    count = 0
                    for state in pushed:
                        while state.pushed:
                            state.undo()
                            count += 1
                    best = max(best, count / (time.perf_counter() - start))
                finally:
                    gc.enable()
        return best

    return {"copies": best_of_chunks(positions, copies, repeat), "moves": timed_moves(), "undos": undos()}


def oh_hell_hands(count: int, seed: int) -> tuple[Any, list[list[int]], list[tuple[phatlog.State, list[Any]]]]:
    """Random OpenSpiel ``oh_hell`` hands (their histories) and the same hands in phatlog."""
    import pyspiel

    from phatlog.formats import openspiel

    game = pyspiel.load_game("oh_hell", OH_HELL)
    histories, ours = [], []
    for state in random_hands(game, count, seed):
        histories.append(state.history())
        record = next(iter(openspiel.loads(pyspiel.serialize_game_and_state(game, state)))).record
        steps = list(phatlog.states(json.loads(json.dumps(record))))
        first = phatlog.states(json.loads(json.dumps(record)))
        start = next(iter(first)).state.copy()
        ours.append((start, [s.action for s in steps]))
    return game, histories, ours


def openspiel_rates(game: Any, histories: list[list[int]], repeat: int) -> dict[str, float]:
    """clone, apply_action and undo_action a second on OpenSpiel's ``oh_hell``, the same hands."""
    dealt = []
    for history in histories:
        state = game.new_initial_state()
        k = 0
        while state.is_chance_node():
            state.apply_action(history[k])
            k += 1
        dealt.append((state, history[k:]))
    positions = []
    for state, actions in dealt:
        s = state.clone()
        for action in actions:
            positions.append(s.clone())
            s.apply_action(action)

    def clones(part: list[Any]) -> int:
        for position in part:
            position.clone()
        return len(part)

    def moves() -> float:
        best = 0.0
        for part in chunks(dealt, 10):
            for _ in range(repeat):
                fresh = [state.clone() for state, _ in part]
                start = time.perf_counter()
                for s, (_, actions) in zip(fresh, part, strict=True):
                    for action in actions:
                        s.apply_action(action)
                best = max(best, sum(len(a) for _, a in part) / (time.perf_counter() - start))
        return best

    def undos() -> float | None:
        played = []
        for state, actions in dealt:
            s = state.clone()
            steps = []
            for action in actions:
                steps.append((s.current_player(), action))
                s.apply_action(action)
            played.append((s, steps))
        try:
            probe = played[0][0].clone()
            player, action = played[0][1][-1]
            probe.undo_action(player, action)
        except Exception:
            return None
        start = time.perf_counter()
        count = 0
        for s, steps in played:
            for player, action in reversed(steps):
                s.undo_action(player, action)
                count += 1
        return count / (time.perf_counter() - start)

    return {"copies": best_of_chunks(positions, clones, repeat), "moves": moves(), "undos": undos() or 0.0}


def phat_hands(games: int, seed: int) -> list[tuple[phatlog.State, list[Any]]]:
    """The first deal of simulated Phat games: the state before its first card, and its cards."""
    out = []
    for record in simulate("phat", seed, games):
        steps = [s for s in phatlog.states(record) if s.state.deal_index == 0]
        first = next(iter(phatlog.states(record))).state.copy()
        out.append((first, [s.action for s in steps]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300, help="OpenSpiel oh_hell hands")
    parser.add_argument("--games", type=int, default=100, help="simulated Phat games (their first deal)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    opts = parser.parse_args()
    rows: list[tuple[str, dict[str, float]]] = []
    rows.append(("phatlog: Phat, a 52-card deal", phatlog_rates(phat_hands(opts.games, opts.seed), opts.repeat)))
    try:
        game, histories, ours = oh_hell_hands(opts.hands, opts.seed)
    except ImportError:
        game = None
    if game is not None:
        rows.append(("phatlog: Oh Hell, 4 players, 10 tricks", phatlog_rates(ours, opts.repeat)))
        rows.append(("OpenSpiel oh_hell, the same hands", openspiel_rates(game, histories, opts.repeat)))
    print(f"{'a second':42}{'copies':>12}{'moves':>12}{'undos':>12}")
    for name, rates in rows:
        undo = f"{rates['undos']:12,.0f}" if rates["undos"] else f"{'(none)':>12}"
        print(f"{name:42}{rates['copies']:12,.0f}{rates['moves']:12,.0f}{undo}")
    print("copy() target: at least 100,000 a second; undo(): at least 200,000")


if __name__ == "__main__":
    main()
