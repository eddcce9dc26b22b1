"""Throughput of ``verify`` on a Dask cluster on this machine, against a local run (a benchmark, not a test).

Writes an archive (``--games`` simulated Phat games, repeated ``--copies`` times), then times over it,
each the best of ``--repeat`` runs: a local run with one process and with ``--jobs 2`` (``check_all``,
the code behind ``phatlog verify``), and ``verify --cluster`` on a ``LocalCluster`` of 1 and of 2 worker
processes (the code behind ``--cluster``: plan, count, check, merge in order; the cluster is started
before the clock starts, and its start-up is given apart). Prints records and deals a second, and the
Dask path's cost per record against the local run with as many processes. Also the line-count pass on
its own (what numbering lines across parts costs).

    python bench/bench_dask.py [--games 2000] [--copies 5] [--partition-mb 2] [--repeat 3] [--json]

Needs ``phatlog[dask]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import tempfile
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from phatlog.check import BatchResult, check_all
from phatlog.distributed import count_lines, merge_verify, partials, plan, verify_piece
from phatlog.reader import DEFAULT_MAX_BYTES
from phatlog.simulate import simulate

distributed: Any = importlib.import_module("distributed")


def consume(results: Iterable[BatchResult]) -> tuple[int, int]:
    records = deals = 0
    for result in results:
        records += result.records
        deals += result.deals
    return records, deals


def best(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def on_cluster(client: Any, path: str, partition_bytes: int) -> tuple[int, int]:
    parts = plan([path], partition_bytes)
    work = partial(verify_piece, replay=True, max_bytes=DEFAULT_MAX_BYTES)
    return consume(merge_verify(partials(client, parts, work)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--partition-mb", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    part_bytes = int(args.partition_mb * (1 << 20))
    lines = [json.dumps(g, separators=(",", ":")) + "\n" for g in simulate("phat", args.seed, args.games)]
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "archive.jsonl")
        Path(path).write_text("".join(lines) * args.copies, encoding="utf-8")
        size = Path(path).stat().st_size
        records, deals = consume(check_all([path], True))
        figures["archive"] = {"bytes": size, "records": records, "deals": deals, "partition_bytes": part_bytes}
        figures["parts"] = len(plan([path], part_bytes))
        t = best(lambda: sum(count_lines(p) for p in plan([path], part_bytes)), args.repeat)
        figures["count_pass_mb_per_s"] = size / t / 1e6
        for jobs in (1, 2):
            t = best(lambda jobs=jobs: consume(check_all([path], True, jobs=jobs)), args.repeat)  # type: ignore[misc]
            figures[f"local_jobs_{jobs}"] = {"seconds": t, "records_per_s": records / t, "deals_per_s": deals / t}
        for workers in (1, 2):
            start = time.perf_counter()
            with (
                distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.CRITICAL,
                ) as cluster,
                distributed.Client(cluster) as client,
            ):
                started = time.perf_counter() - start
                assert on_cluster(client, path, part_bytes) == (records, deals)  # warm: workers import phatlog
                t = best(lambda client=client: on_cluster(client, path, part_bytes), args.repeat)  # type: ignore[misc]
            local = figures[f"local_jobs_{workers}"]["seconds"]
            figures[f"dask_{workers}_workers"] = {
                "seconds": t,
                "records_per_s": records / t,
                "deals_per_s": deals / t,
                "cluster_start_s": started,
                "overhead_us_per_record": (t - local) / records * 1e6,
            }
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    a = figures["archive"]
    print(
        f"archive: {a['bytes'] / 1e6:.1f} MB, {a['records']:,} records, {a['deals']:,} deals, {figures['parts']} parts"
    )
    print(f"line-count pass alone: {figures['count_pass_mb_per_s']:,.0f} MB/s (one process)")
    print(f"{'run':<26}{'seconds':>9}{'records/s':>12}{'deals/s':>11}{'overhead us/rec':>17}")
    for key in ("local_jobs_1", "local_jobs_2", "dask_1_workers", "dask_2_workers"):
        f = figures[key]
        extra = f"{f['overhead_us_per_record']:>17.1f}" if "overhead_us_per_record" in f else ""
        print(f"{key:<26}{f['seconds']:>9.2f}{f['records_per_s']:>12,.0f}{f['deals_per_s']:>11,.0f}{extra}")
    for workers in (1, 2):
        print(f"LocalCluster of {workers} started in {figures[f'dask_{workers}_workers']['cluster_start_s']:.1f} s")


if __name__ == "__main__":
    main()
