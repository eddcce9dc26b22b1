"""The archive commands on a large archive: speed and peak memory (a benchmark, not a test).

Builds a JSON Lines archive of about ``--deals`` deals (default 1,000,000) from ``--games`` simulated Phat
games, each copy made a different record (its ``event.source`` numbered), then runs, as a user would
(``phatlog ...`` in a new process, under ``/usr/bin/time``): ``verify`` (with each ``--duplicates``
setting), ``fingerprint``, ``select`` (a filter that keeps every record, written to a file; a filter that
keeps none; ``--dedupe``), with one process and with ``--jobs``. Prints deals a second, the ratio to
``verify`` (the default, one process), and the peak resident memory of the command.

    python bench/bench_archives.py [--deals 1000000] [--games 2000] [--seed 1] [--jobs 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from phatlog.play.simulate import simulate

PHATLOG = str(Path(sys.executable).parent / "phatlog")


def build(path: Path, deals: int, games: int, seed: int) -> tuple[int, int]:
    """An archive of at least ``deals`` deals: the simulated games, copied, each copy its own record."""
    lines = [json.dumps(g, separators=(",", ":")) for g in simulate("phat", seed, games)]
    per = [len(json.loads(x)["deals"]) for x in lines]
    marker = '"source":"phatlog simulate"'
    assert all(marker in x for x in lines)
    written = records = 0
    with path.open("w", encoding="utf-8") as out:
        copy = 0
        while written < deals:
            for text, n in zip(lines, per, strict=True):
                out.write(text.replace(marker, f'"source":"copy {copy}"', 1) + "\n")
                written += n
                records += 1
                if written >= deals:
                    break
            copy += 1
    return records, written


def timed(args: list[str], cwd: Path) -> tuple[float, float, int, int]:
    """Seconds (wall clock and CPU, user and system), peak resident memory (KB) and exit code of ``phatlog
    ARGS`` (standard output discarded). The CPU time of one process is the figure to compare on a shared
    machine; with ``--jobs`` only the wall clock says what the workers gained (the CPU time adds them up)."""
    timing = cwd / "time.txt"
    start = time.perf_counter()
    run = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %M", "-o", str(timing), PHATLOG, *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    elapsed = time.perf_counter() - start
    found = re.findall(r"^([\d.]+) ([\d.]+) (\d+)$", timing.read_text(), re.M)
    user, system, peak = found[-1] if found else ("0", "0", "0")
    return elapsed, float(user) + float(system), int(peak), run.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    if not shutil.which("/usr/bin/time"):
        sys.exit("needs /usr/bin/time (GNU time) for the peak memory")
    jobs = str(opts.jobs)
    big: list[tuple[str, list[str]]] = [
        ("verify (duplicate records: the default)", ["verify", "-q", "archive.jsonl"]),
        ("verify --duplicates off (as before)", ["verify", "-q", "--duplicates", "off", "archive.jsonl"]),
        ("fingerprint", ["fingerprint", "archive.jsonl"]),
        (
            "select --game phat -o (every record written)",
            ["select", "--game", "phat", "-o", "out.jsonl", "archive.jsonl"],
        ),
        ("select --player Zed --count (none kept)", ["select", "--player", "Zed", "--count", "archive.jsonl"]),
        ("select --dedupe -o", ["select", "--dedupe", "-o", "out.jsonl", "archive.jsonl"]),
        (f"verify --jobs {jobs}", ["verify", "-q", "--jobs", jobs, "archive.jsonl"]),
        (f"fingerprint --jobs {jobs}", ["fingerprint", "--jobs", jobs, "archive.jsonl"]),
        (
            f"select --game phat --jobs {jobs} -o",
            ["select", "--game", "phat", "--jobs", jobs, "-o", "out.jsonl", "archive.jsonl"],
        ),
    ]
    # The deal check on games that are all different (the big archive's copies share their deals).
    small: list[tuple[str, list[str]]] = [
        ("verify --duplicates off", ["verify", "-q", "--duplicates", "off", "distinct.jsonl"]),
        ("verify --duplicates records", ["verify", "-q", "--duplicates", "records", "distinct.jsonl"]),
        ("verify --duplicates deals", ["verify", "-q", "--duplicates", "deals", "distinct.jsonl"]),
    ]
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        for name, path, deals_wanted, runs in (
            ("archive", cwd / "archive.jsonl", opts.deals, big),
            ("distinct", cwd / "distinct.jsonl", 0, small),
        ):
            records, deals = build(path, deals_wanted, opts.games, opts.seed) if deals_wanted else _distinct(path, opts)
            results = []
            for what, args in runs:
                wall, cpu, peak, code = timed(args, cwd)
                results.append({"what": what, "wall": wall, "cpu": cpu, "peak_kb": peak, "exit": code})
                (cwd / "out.jsonl").unlink(missing_ok=True)
            report[name] = {"records": records, "deals": deals, "bytes": path.stat().st_size, "results": results}
            path.unlink()
    if opts.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for name, part in report.items():
        deals = part["deals"]
        base = part["results"][0]
        print(f"\n{name}: {part['records']:,} records, {deals:,} deals, {part['bytes'] / 1e6:,.0f} MB")
        print(f"{'what':46} {'wall s':>7} {'CPU s':>7} {'deals/CPU s':>12} {'vs first':>8} {'peak MB':>8}")
        for r in part["results"]:
            ratio = base["cpu"] / r["cpu"] if r["cpu"] else 0.0
            rate = deals / r["cpu"] if r["cpu"] else 0.0
            print(
                f"{r['what']:46} {r['wall']:7.1f} {r['cpu']:7.1f} {rate:12,.0f} {ratio:8.2f} {r['peak_kb'] / 1024:8.0f}"
            )


def _distinct(path: Path, opts: argparse.Namespace) -> tuple[int, int]:
    """``--games`` simulated games, each once (another seed than the big archive's)."""
    games = [json.dumps(g, separators=(",", ":")) for g in simulate("phat", opts.seed + 1, opts.games)]
    path.write_text("".join(g + "\n" for g in games), encoding="utf-8")
    return len(games), sum(len(json.loads(g)["deals"]) for g in games)


if __name__ == "__main__":
    main()
