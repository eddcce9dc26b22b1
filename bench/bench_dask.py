"""Throughput of ``verify`` on a Dask cluster on this machine, against a local run (a benchmark, not a test).

Writes an archive (``--games`` simulated Phat games, repeated ``--copies`` times), then times over it,
each the best of ``--repeat`` runs, interleaved: a local run with one process and with ``--jobs 2`` (``check_all``,
the code behind ``phatlog verify``), and ``verify --cluster`` on a ``LocalCluster`` of 1 and of 2 worker
processes (the code behind ``--cluster``: plan, count, check, merge in order; the cluster is started
before the clock starts, and its start-up is given apart). Prints records and deals a second, and the
Dask path's cost per record against the local run with as many processes. Also the line-count pass on
its own (what numbering lines across parts costs).

    python bench/bench_dask.py [--games 2000] [--copies 5] [--partition-mb 2] [--repeat 7] [--json]

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

from phatlog.archive.check import BatchResult, check_all
from phatlog.archive.cluster import count_lines, merge_verify, partials, plan, verify_piece
from phatlog.play.simulate import simulate

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
    work = partial(verify_piece, replay=True)
    return consume(merge_verify(partials(client, parts, work)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--partition-mb", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=7)
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
        clusters: dict[int, tuple[Any, Any, float]] = {}
        for workers in (1, 2):
            start = time.perf_counter()
            cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.CRITICAL,
            )
            client = distributed.Client(cluster)
            clusters[workers] = (cluster, client, time.perf_counter() - start)
            assert on_cluster(client, path, part_bytes) == (records, deals)  # warm: the workers import phatlog
        runs: dict[str, Callable[[], object]] = {
            "local_jobs_1": lambda: consume(check_all([path], True, jobs=1)),
            "local_jobs_2": lambda: consume(check_all([path], True, jobs=2)),
            "dask_1_workers": lambda: on_cluster(clusters[1][1], path, part_bytes),
            "dask_2_workers": lambda: on_cluster(clusters[2][1], path, part_bytes),
        }
        seconds = dict.fromkeys(runs, float("inf"))
        here = dict.fromkeys(
            runs, float("inf")
        )  # CPU seconds of this process (the client, and a LocalCluster's scheduler)
        for _ in range(args.repeat):  # interleaved, so that a busy moment of the machine hits them all alike
            for key, work in runs.items():
                cpu = time.process_time()
                seconds[key] = min(seconds[key], best(work, 1))
                here[key] = min(here[key], time.process_time() - cpu)
        logging.disable(logging.CRITICAL)  # the clusters' shutdown chatter
        for cluster, client, _ in clusters.values():
            client.close()
            cluster.close()
        logging.disable(logging.NOTSET)
        for key, t in seconds.items():
            figures[key] = {"seconds": t, "records_per_s": records / t, "deals_per_s": deals / t}
        for workers in (1, 2):
            figures[f"dask_{workers}_workers"]["cluster_start_s"] = clusters[workers][2]
            figures[f"dask_{workers}_workers"]["client_cpu_us_per_record"] = (
                here[f"dask_{workers}_workers"] / records * 1e6
            )
            local = seconds[f"local_jobs_{workers}"]
            figures[f"dask_{workers}_workers"]["overhead_us_per_record"] = (
                (seconds[f"dask_{workers}_workers"] - local) / records * 1e6
            )
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
        f = figures[f"dask_{workers}_workers"]
        print(
            f"LocalCluster of {workers} started in {f['cluster_start_s']:.1f} s; client and scheduler CPU: "
            f"{f['client_cpu_us_per_record']:.1f} us a record"
        )


if __name__ == "__main__":
    main()
