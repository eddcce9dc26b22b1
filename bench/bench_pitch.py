"""What the pitch table costs ``phatlog analyse`` (a benchmark, not a test): the figures in docs/analysis.md.

Each deal is analysed from its first card with its best line, as ``phatlog analyse --deal N`` does, without
and with the pitch table, alternating, best of ``--repeat``; each from a cold table, as the command does.

    python bench/bench_pitch.py                              # the Don samples (about a minute)
    python bench/bench_pitch.py samples/games/phat-worked-6-2.json --repeat 1   # a 13-card Phat deal (minutes)

Seconds are the CPU time of this process (``time.process_time``): on a shared machine the wall clock of
a long search is mostly other work.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import msgspec

from phatlog.cli.analyse import analyse_task

ROOT = Path(__file__).resolve().parent.parent
DON = [
    "samples/games/nine-card-don-worked-6-3.json",
    "samples/games/nine-card-don-game-8.json",
    "samples/games/irish-don-worked-6-2.json",
]


def cost(path: str, deal: int, pitch: bool) -> float:
    """CPU seconds to analyse one deal from its first card, with its best line, with or without the pitch."""
    raw = msgspec.json.encode(json.loads((ROOT / path).read_text(encoding="utf-8")))
    start = time.process_time()
    analyse_task((path, False, raw, deal, 1, False, True, pitch))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("paths", nargs="*", default=DON)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for path in args.paths:
        record = json.loads((ROOT / path).read_text(encoding="utf-8"))
        deals = [i + 1 for i, d in enumerate(record["deals"]) if d.get("tricks")]
        total = {False: 0.0, True: 0.0}
        for deal in deals:
            best = {False: float("inf"), True: float("inf")}
            for _ in range(args.repeat):
                for pitch in (False, True):
                    best[pitch] = min(best[pitch], cost(path, deal, pitch))
            total[False] += best[False]
            total[True] += best[True]
            print(
                f"{path} deal {deal}: {best[False]:.2f} s without the pitch, {best[True]:.2f} s with it "
                f"({best[True] / best[False]:.2f} times)",
                flush=True,
            )
        if len(deals) > 1:
            print(f"{path}, {len(deals)} deals: {total[False]:.2f} s against {total[True]:.2f} s", flush=True)


if __name__ == "__main__":
    main()
