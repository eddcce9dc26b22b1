"""``phatlog export`` against ``phatlog verify`` on a large archive: speed and peak memory (a benchmark, not a test).

Builds a JSON Lines archive of about ``--deals`` deals (default 100,000) of simulated Phat games (as
``bench_archives.py`` builds its archive), then runs, as a user would (``phatlog ...`` in a new process,
under ``/usr/bin/time``), alternately: ``verify -q``, ``export --to parquet``, ``--to sqlite`` and ``--to
duckdb``, and the same on an archive a fifth of the size, to show the memory does not grow with it. Prints
the deals a CPU second, the ratio of each to verify's and the peak resident memory.

    python bench/bench_export.py [--deals 100000] [--games 2000] [--seed 1] [--repeat 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_archives import build, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command, alternating; the best counts")
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    if not shutil.which("/usr/bin/time"):
        sys.exit("needs /usr/bin/time (GNU time) for the peak memory")
    runs: list[tuple[str, list[str]]] = [
        ("verify -q", ["verify", "-q", "archive.jsonl"]),
        ("export --to parquet", ["export", "archive.jsonl", "--to", "parquet", "-o", "out.parquet"]),
        ("export --to sqlite", ["export", "archive.jsonl", "--to", "sqlite", "-o", "out.sqlite"]),
        ("export --to duckdb", ["export", "archive.jsonl", "--to", "duckdb", "-o", "out.duckdb"]),
    ]
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        for size in (opts.deals // 5, opts.deals):
            records, deals = build(cwd / "archive.jsonl", size, opts.games, opts.seed)
            best: dict[str, dict[str, float]] = {}
            for _ in range(opts.repeat):
                for what, args in runs:
                    wall, cpu, peak, code = timed(args, cwd)
                    if code not in (0,):
                        sys.exit(f"phatlog {' '.join(args)} exited {code}")
                    seen = best.get(what)
                    if seen is None or cpu < seen["cpu"]:
                        best[what] = {"wall": wall, "cpu": cpu, "peak_kb": peak}
                    for out in ("out.parquet", "out.sqlite", "out.duckdb"):
                        target = cwd / out
                        if target.is_dir():
                            shutil.rmtree(target)
                        target.unlink(missing_ok=True)
            report[str(deals)] = {"records": records, "deals": deals, "results": best}
    if opts.json:
        print(json.dumps(report, indent=1))
        return
    for part in report.values():
        deals = part["deals"]
        base = part["results"]["verify -q"]
        print(f"\n{part['records']:,} records, {deals:,} deals")
        print(f"{'what':24} {'wall s':>7} {'CPU s':>7} {'deals/CPU s':>12} {'vs verify':>9} {'peak MB':>8}")
        for what, r in part["results"].items():
            ratio = base["cpu"] / r["cpu"] if r["cpu"] else 0.0
            rate = deals / r["cpu"] if r["cpu"] else 0.0
            print(f"{what:24} {r['wall']:7.1f} {r['cpu']:7.1f} {rate:12,.0f} {ratio:9.2f} {r['peak_kb'] / 1024:8.0f}")


if __name__ == "__main__":
    main()
