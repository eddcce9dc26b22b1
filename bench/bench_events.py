"""Standings on a large archive against verify of the same archive (a benchmark, not a test).

Builds a JSON Lines archive of ``--records`` simulated games (``--distinct`` games simulated, repeated
with other players and events: the referee caches nothing, so a repeat costs what a new game does),
spread over 10 events, played by 32 fixed partnerships (Phat and the Dons) or 64 players (Oh Hell), each
with an id. Then, each in a fresh process, run as the commands run (output to /dev/null):

- ``phatlog verify --quiet ARCHIVE``
- ``phatlog standings --format json ARCHIVE``, on the whole archive and on its first fifth (memory stays
  flat when the peak resident memory is the same for both)

and prints the seconds (best of ``--repeat``), the peak resident memory and the ratio standings/verify.

    python bench/bench_events.py [--records 100000] [--distinct 2000] [--game phat] [--jobs 1] [--repeat 1]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from phatlog.play.simulate import simulate


def build(path: Path, game: str, records: int, distinct: int, seed: int) -> int:
    """Write the archive; returns its size in bytes."""
    made = simulate(game, seed, distinct, players=4) if game == "oh_hell" else simulate(game, seed, distinct)
    base = list(made)
    rng = random.Random(seed)
    pairs = [(f"p{2 * i}", f"p{2 * i + 1}") for i in range(32)]
    pool = [f"p{i}" for i in range(64)]
    with path.open("w", encoding="utf-8") as out:
        for i in range(records):
            rec: dict[str, Any] = dict(base[i % distinct])
            if game == "oh_hell":
                ids = rng.sample(pool, 4)
            else:
                a, b = rng.sample(pairs, 2)
                ids = [a[0], b[0], a[1], b[1]]
            rec["players"] = [{"name": f"Player {p[1:]}", "id": p} for p in ids]
            rec["event"] = {"name": f"Event {i % 10}", "round": str(i // 10 % 50 + 1), "table": str(i % 8 + 1)}
            out.write(json.dumps(rec, separators=(",", ":")) + "\n")
    return path.stat().st_size


def child(command: str, archive: str, jobs: int) -> None:
    """In a fresh process: run one command as the CLI does, print its seconds and peak memory as JSON."""
    from phatlog.cli.app import app

    args = ["verify", "--quiet"] if command == "verify" else ["standings", "--format", "json"]
    args += ["--jobs", str(jobs), archive]
    start = time.perf_counter()
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        try:
            app(args, standalone_mode=False)
        except SystemExit:
            pass
        except Exception as exc:  # typer.Exit
            if type(exc).__name__ != "Exit":
                raise
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_kb": peak}))


def measure(command: str, archive: Path, jobs: int, repeat: int) -> dict[str, float]:
    best: dict[str, float] = {}
    for _ in range(repeat):
        run = subprocess.run(
            [sys.executable, __file__, "--child", command, str(archive), "--jobs", str(jobs)],
            check=True,
            capture_output=True,
            text=True,
        )
        got = json.loads(run.stdout.strip().splitlines()[-1])
        if not best or got["seconds"] < best["seconds"]:
            best = got
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=2000)
    parser.add_argument("--game", default="phat", choices=["phat", "nine_card_don", "irish_don", "oh_hell"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--child", nargs=2, metavar=("COMMAND", "ARCHIVE"))
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.jobs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "archive.jsonl"
        size = build(archive, args.game, args.records, args.distinct, args.seed)
        fifth = Path(tmp) / "fifth.jsonl"
        with archive.open("rb") as src, fifth.open("wb") as dst:
            for n, line in enumerate(src):
                if n >= args.records // 5:
                    break
                dst.write(line)
        print(f"{args.records:,} {args.game} records, {size / 1e6:.0f} MB, --jobs {args.jobs}")
        verify = measure("verify", archive, args.jobs, args.repeat)
        standings = measure("standings", archive, args.jobs, args.repeat)
        small = measure("standings", fifth, args.jobs, args.repeat)
        rows = [
            ("verify --quiet", verify),
            ("standings --format json", standings),
            (f"standings, first {args.records // 5:,} records", small),
        ]
        for name, got in rows:
            print(f"  {name:<34} {got['seconds']:8.2f} s  peak {got['peak_kb'] / 1024:6.0f} MB")
        print(f"  standings / verify: {standings['seconds'] / verify['seconds']:.2f}")


if __name__ == "__main__":
    main()
