"""The solver against DDS, the bridge double-dummy solver (not a test): the figures in docs/performance.md.

    pip install -e '.[bench]'       # endplay, which carries DDS
    python bench/bench_dds.py       # bridge: 200 deals, the value and every card; then the point rows
    python bench/bench_dds.py --only bridge --deals 50
    python bench/bench_dds.py --only points --seeds 50 --timeout 20

**Bridge** (the tricks objective, four seats in partnerships): a deal of 13 cards a seat from a seed, a
random seat leads a random card, trump is the led card's suit, every player must follow suit. Then the
second player is to play: how many of the 13 tricks can its side make sure of? That is a bridge
double-dummy problem, asked of phatlog (:func:`phatlog.solve`, ``objective="tricks"``) and of DDS
(``endplay.dds.solve_board``) in turn, each on a fresh table. Two rows: the value only (DDS: one card,
``SolveMode.OptimalOne``), and every legal card's value (DDS: every card scored, ``SolveMode.Default``:
target 0, solutions 3). Every value
is checked equal; a difference stops the run.

**Points** (the point objective, from the first lead): Phat, Irish Don and Nine-card Don from the pitcher's
lead (every card under its own trump), Oh Hell (4 x 13, 5 x 10, 7 x 7 cards) one seat's most tricks and its
whole range; phatlog only (DDS has no such objective).

Seconds are CPU time of this process (``time.process_time``), so load from other work weighs little; the
bridge rows take no ``--timeout`` (while a CPU timer is armed the clock counts in the kernel's ticks, 4 ms
here, too coarse for solves of a few milliseconds); the peak memory is the process's (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from timing import TimedOut, cpu_timed

import phatlog
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import State
from phatlog.rules.cards import DECK

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PBN_SUITS = (3, 2, 1, 0)  # a PBN hand lists spades, hearts, diamonds, clubs


def deal(seed: int) -> tuple[list[list[int]], int, int]:
    """Four hands of 13 cards (card indices), the leader and its lead, from ``seed``."""
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sorted(cards[13 * s : 13 * s + 13]) for s in range(4)]
    leader = rng.randrange(4)
    lead = rng.choice(hands[leader])
    return hands, leader, lead


def pbn(hands: list[list[int]]) -> str:
    """The deal in PBN, seat 0 as north, seats clockwise (phatlog's play passes to the left: the same)."""
    out = []
    for hand in hands:
        suits = ("".join(RANKS[c % 13] for c in sorted(hand, reverse=True) if c // 13 == s) for s in PBN_SUITS)
        out.append(".".join(suits))
    return "N:" + " ".join(out)


def text(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def dds_solve(hands: list[list[int]], leader: int, lead: int, every: bool) -> dict[str, int]:
    """DDS's tricks for the second player's side after each of its cards (``every``), or its one best card."""
    from endplay.dds import solve_board  # type: ignore[import-not-found,unused-ignore]
    from endplay.dds.solve import SolveMode  # type: ignore[import-not-found,unused-ignore]
    from endplay.types import Deal, Denom, Player  # type: ignore[import-not-found,unused-ignore]

    trump = Denom([3, 2, 1, 0][lead // 13])  # endplay: spades 0 ... clubs 3
    d = Deal(pbn(hands), first=Player(leader), trump=trump)
    d.play(SUITS[lead // 13] + RANKS[lead % 13])  # endplay writes a card suit first
    solved = solve_board(d, SolveMode.Default if every else SolveMode.OptimalOne)
    return {f"{card.rank.abbr}{'SHDC'[int(card.suit)]}": tricks for card, tricks in solved}


def phatlog_solve(hands: list[list[int]], leader: int, lead: int, every: bool) -> tuple[int, dict[str, int], int]:
    """phatlog's tricks for the second player's side: the value, each card's (``every``), the nodes searched."""
    position = phatlog.Position.of_hands(
        [[DECK[c] for c in h if c != lead] for h in hands],
        played=[DECK[lead]],
        leader=leader,
        trump=lead // 13,
        follow="must_follow",
    )
    solution = phatlog.solve(position, objective="tricks", cards=every)
    return solution.value, {str(c): v for c, v in solution.cards.items()}, solution.nodes


TIMEOUT = 0.0


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds and the result of ``fn`` (:class:`TimedOut` past ``--timeout``)."""
    return cpu_timed(fn, TIMEOUT)


def p90(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.9 * len(xs)) - 1)]


def figures(xs: list[float]) -> str:
    return f"{statistics.median(xs):.4f} | {p90(xs):.4f} | {max(xs):.4f}"


def bridge(deals: int, first_seed: int, rows: tuple[bool, ...] = (False, True)) -> None:
    print(
        "| bridge, after a random first lead (trump: its suit) | deals | phatlog median s | p90 | worst | "
        "DDS median s | p90 | worst | median ratio | p90 ratio | phatlog nodes |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for every in rows:
        nodes = 0
        ours: list[float] = []
        theirs: list[float] = []
        for seed in range(first_seed, first_seed + deals):
            hands, leader, lead = deal(seed)
            # alternate who goes first, so that neither always finds the caches warm
            runs = (
                [("dds", dds_solve), ("phatlog", phatlog_solve)]
                if seed % 2
                else [("phatlog", phatlog_solve), ("dds", dds_solve)]
            )
            got: dict[str, Any] = {}
            for name, fn in runs:
                # no cap: while a CPU timer is armed the process clock counts in ticks (4 ms here)
                seconds, result = cpu_timed(partial(fn, hands, leader, lead, every))
                (ours if name == "phatlog" else theirs).append(seconds)
                got[name] = result
            value, cards, searched = got["phatlog"]
            nodes += searched
            dds = got["dds"]
            if every and len(dds) == 1:
                continue  # DDS does not search a forced card (its value is checked in the value row)
            if value != max(dds.values()) or (every and any(cards.get(c) != v for c, v in dds.items())):
                print(f"DIFFERENT on seed {seed}: phatlog {value} {cards}, DDS {dds}", file=sys.stderr)
                sys.exit(1)
        label = "every legal card" if every else "the value"
        print(
            f"| {label} | {deals} | {figures(ours)} | {figures(theirs)} | "
            f"{statistics.median(ours) / statistics.median(theirs):.2f} | {p90(ours) / p90(theirs):.2f} | "
            f"{nodes:,} |",
            flush=True,
        )
    print(f"every value equal to DDS's ({deals} deals x {len(rows)} rows)")


def first_lead(game: str, seed: int, players: int | None = None, rules: dict[str, Any] | None = None) -> State:
    """A deal from ``seed`` at its first card (Oh Hell: after random bids)."""
    rng = random.Random(seed)
    state = phatlog.start(game, players=players, rules=rules, seed=seed)
    while state.phase.value == "bid":
        state.apply(rng.choice(state.legal_actions()))
    return state


def points(seeds: int, only: str | None = None) -> None:
    print("| point objective, from the first lead | deals | median s | p90 s | worst s | capped |")
    print("|---|---:|---:|---:|---:|---:|")
    rows: list[tuple[str, Callable[[int], Any]]] = [
        ("Phat", partial(_points_value, "phat")),
        ("Irish Don", partial(_points_value, "irish_don")),
        ("Nine-card Don", partial(_points_value, "nine_card_don")),
    ]
    for players, cards in ((4, 13), (5, 10), (7, 7)):
        rows.append((f"Oh Hell {players} x {cards}, one seat's most tricks", partial(_most, players, cards)))
        rows.append((f"Oh Hell {players} x {cards}, one seat's range", partial(_range, players, cards)))
    for label, fn in rows:
        if only and only.lower() not in label.lower():
            continue
        times, capped = [], 0
        for seed in range(seeds):
            _fresh()
            seconds, result = timed(partial(fn, seed))
            if isinstance(result, TimedOut):
                capped += 1
                seconds = max(seconds, TIMEOUT)
            times.append(seconds)
        print(
            f"| {label} | {seeds} | {statistics.median(times):.3f} | {p90(times):.3f} | {max(times):.3f}"
            f"{'+' if capped else ''} | {capped} |",
            flush=True,
        )


def _points_value(game: str, seed: int) -> int:
    from phatlog.solver import value

    return value(first_lead(game, seed))


def _oh_hell(players: int, cards: int, seed: int) -> OhHellState:
    state = first_lead("oh_hell", seed, players, {"schedule": [cards]})
    assert isinstance(state, OhHellState)
    return state


def _range(players: int, cards: int, seed: int) -> Any:
    from phatlog.solver import trick_range

    return trick_range(_oh_hell(players, cards, seed), 0)


def _most(players: int, cards: int, seed: int) -> int:
    state = _oh_hell(players, cards, seed)
    from phatlog.solver.search import ALL
    from phatlog.solver.values import _oh_hell_problem, _side0_value

    return _side0_value(_oh_hell_problem(state, 0, "most"), "auto", ALL)


def _fresh() -> None:
    from phatlog.solver.values import _searchers

    _searchers.clear()
    try:
        from phatlog._native import _solve

        _solve.clear()
    except ImportError:
        pass


def main() -> None:
    global TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("bridge", "points"))
    parser.add_argument("--deals", type=int, default=200, help="bridge deals (default 200)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument(
        "--row", choices=("value", "every"), help="bridge: only the value row, or only every card's (default both)"
    )
    parser.add_argument("--seeds", type=int, default=20, help="deals a point row (default 20)")
    parser.add_argument("--timeout", type=float, default=60.0, help="cap a point solve at S CPU seconds")
    parser.add_argument("--rows", help="only the point rows whose label holds this text (e.g. 'Oh Hell')")
    args = parser.parse_args()
    TIMEOUT = args.timeout
    if args.only in (None, "bridge"):
        rows = (False, True) if args.row is None else (args.row == "every",)
        bridge(args.deals, args.first_seed, rows)
    if args.only in (None, "points"):
        points(args.seeds, args.rows)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
