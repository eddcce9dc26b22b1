"""Two checkouts of phatlog timed side by side (a benchmark, not a test): the speed gates of a change that
must not cost speed, such as moving the modules into subpackages.

    python bench/bench_trees.py --before /work/before --after /work/main                  # every section
    python bench/bench_trees.py --before /work/before --after /work/main --only verify startup
    python bench/bench_trees.py --before /work/before --after /work/before --only verify  # the noise
    python bench/bench_trees.py --before /work/before --after /work/before --make-archives  # only those

Each tree is a checkout root with its own ``.venv`` (``make .venv/.installed-dev``). Only the CLI
(``python -m phatlog``) and each tree's own ``bench/bench_solver.py`` are run, so the script does not
depend on where the package's modules live. Times are CPU seconds (user + system) of each child process
(``os.wait4``), which waiting for a processor on a shared machine does not inflate; wall seconds are shown
too. The two trees run in turn, A B A B, round after round; a ratio is after / before (below 1: faster).

Sections (``--only``):

* ``verify``: ``python -m phatlog verify -q --jobs 1 ARCHIVE`` (its default ``--duplicates deals``) and
  with ``--duplicates off``, on a JSON Lines archive of 100,000 deals of each game, as
  ``bench/bench_ratios.py --only verify`` builds them (``records_of``: simulated games from seed 1,
  compact JSON, until they hold ``--deals`` deals; the same seven games and options). The archives are
  made once, by the BEFORE tree's Python (``phatlog.simulate``, as that tree has it), into ``--archives``,
  and reused; ``--rounds`` rounds (5 by default); per game the median of the rounds' after / before
  ratios, and each tree's median CPU seconds and deals a second.
* ``startup``: ``python -c 'import json; json.load(open(F))'`` (the floor: the interpreter and a parse),
  ``python -m phatlog --version``, ``verify F`` (one record: ``samples/games/phat-181.json``) and
  ``verify --help`` (typer), ``--rounds`` x 4 rounds; the median and the best, and each command's ratio to
  the floor of its own tree.
* ``solver``: ``bench/bench_solver.py --only GROUP --seeds N --timeout S`` from each tree's root, for each
  of ``--solver-groups`` (don, big, oh_hell, techniques: the fixed positions from seeds), the trees in turn
  for each group (``--solver-rounds`` times); every row's median nodes (exact: they must be equal), its
  median seconds and the sum of its solves' seconds (bench_solver's CPU seconds; a capped solve counts at
  the cap), and each group's whole-process CPU seconds, side by side.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

#: The games of bench/bench_ratios.py's per-game table: label, game, simulate's options.
GAMES: Final[list[tuple[str, str, dict[str, Any]]]] = [
    ("Phat", "phat", {}),
    ("Nine-card Don", "nine_card_don", {}),
    ("Nine-card Don (five_high_low_jack)", "nine_card_don", {"rules": {"bonus": "five_high_low_jack"}}),
    ("Irish Don", "irish_don", {}),
    ("Oh Hell, 3 players", "oh_hell", {"players": 3}),
    ("Oh Hell, 4 players", "oh_hell", {"players": 4}),
    ("Oh Hell, 7 players", "oh_hell", {"players": 7}),
]
SECTIONS: Final = ("verify", "startup", "solver")
SOLVER_GROUPS: Final = ("don", "big", "oh_hell", "techniques")
#: bench_solver.py's table columns that name a row (the rest are figures).
KEY_COLUMNS: Final = ("what", "position", "techniques")

#: Run by the BEFORE tree's Python: bench_ratios.records_of, one archive (argv: game, options as JSON,
#: deals, seed, path). Imports that tree's own simulate (its layout is fixed: the tree is a baseline).
MAKE_ARCHIVE: Final = r"""
import json, sys
from phatlog.simulate import simulate

game, options, deals, seed, path = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
out, held = [], 0
for g in simulate(game, seed, 10**9, **options):
    out.append(json.dumps(g, separators=(",", ":")).encode())
    held += len(g["deals"])
    if held >= deals:
        break
with open(path, "wb") as f:
    f.write(b"\n".join(out) + b"\n")
print(json.dumps({"records": len(out), "deals": held}))
"""


@dataclass(frozen=True, slots=True)
class Tree:
    """A checkout: its root and its virtualenv's Python."""

    label: str
    root: Path

    @property
    def python(self) -> str:
        return str(self.root / ".venv" / "bin" / "python")


@dataclass(frozen=True, slots=True)
class Timed:
    """One process: wall and CPU seconds, exit code."""

    wall: float
    cpu: float
    rc: int


def environment() -> dict[str, str]:
    """This environment, as installed: bytecode kept, the C kernels on."""
    drop = ("PYTHONDONTWRITEBYTECODE", "PHATLOG_PURE_PYTHON")
    return {k: v for k, v in os.environ.items() if k not in drop}


def timed(argv: list[str], cwd: Path) -> Timed:
    """Run one process in ``cwd``, its output to /dev/null: its own wall and CPU seconds. ``cwd`` is the
    tree's own root: ``python -m`` and ``-c`` put the working directory first on ``sys.path``, so run from
    another checkout a tree's Python would import that checkout's ``phatlog``."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=cwd, env=environment(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Timed(wall, usage.ru_utime + usage.ru_stime, proc.returncode)


def side_by_side(
    commands: dict[str, dict[str, list[str]]], trees: tuple[Tree, Tree], rounds: int
) -> dict[str, dict[str, list[Timed]]]:
    """Every command of every tree once untimed (bytecode written, files cached), then ``rounds`` rounds,
    in each the commands in turn and for each command the trees in turn (A B A B)."""
    roots = {t.label: t.root for t in trees}
    for per_tree in commands.values():
        for label, argv in per_tree.items():
            timed(argv, roots[label])
    runs: dict[str, dict[str, list[Timed]]] = {name: {t: [] for t in per} for name, per in commands.items()}
    for _ in range(rounds):
        for name, per_tree in commands.items():
            for tree, argv in per_tree.items():
                runs[name][tree].append(timed(argv, roots[tree]))
    return runs


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


# ------------------------------------------------------------------------------------------------ verify


def slug(label: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in label.lower()).strip("-").replace("--", "-")


def archives(before: Tree, where: Path, deals: int, seed: int) -> dict[str, tuple[Path, int]]:
    """Each game's archive (made once by the BEFORE tree, then reused): path and deals, by label."""
    where.mkdir(parents=True, exist_ok=True)
    index_file = where / "archives.json"
    index: dict[str, Any] = json.loads(index_file.read_text()) if index_file.exists() else {}
    out: dict[str, tuple[Path, int]] = {}
    for label, game, options in GAMES:
        path = where / f"{slug(label)}.jsonl"
        want = {"game": game, "options": options, "deals_asked": deals, "seed": seed}
        known = index.get(label)
        if known is None or {k: known.get(k) for k in want} != want or not path.exists():
            began = time.perf_counter()
            argv = [before.python, "-c", MAKE_ARCHIVE, game, json.dumps(options), str(deals), str(seed), str(path)]
            made = json.loads(
                subprocess.run(argv, cwd=before.root, capture_output=True, check=True, env=environment()).stdout
            )
            known = {**want, **made, "bytes": path.stat().st_size, "sha256": digest(path)}
            index[label] = known
            index_file.write_text(json.dumps(index, indent=2) + "\n")
            print(
                f"  made {path.name}: {made['records']:,} records, {made['deals']:,} deals, "
                f"{known['bytes'] / 1e6:.1f} MB in {time.perf_counter() - began:.0f} s",
                flush=True,
            )
        out[label] = (path, int(known["deals"]))
    return out


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def ratio_line(name: str, a: list[Timed], b: list[Timed], unit: float = 1.0) -> dict[str, float]:
    """The medians of each tree and the median of the rounds' ratios after / before (CPU)."""
    ratios = [y.cpu / x.cpu for x, y in zip(a, b, strict=True) if x.cpu > 0]
    return {
        "before cpu s": statistics.median(t.cpu for t in a) * unit,
        "after cpu s": statistics.median(t.cpu for t in b) * unit,
        "median ratio": statistics.median(ratios),
        "min ratio": min(ratios),
        "max ratio": max(ratios),
        "before wall s": statistics.median(t.wall for t in a) * unit,
        "after wall s": statistics.median(t.wall for t in b) * unit,
    }


def verify_section(trees: tuple[Tree, Tree], args: argparse.Namespace) -> dict[str, Any]:
    print(f"\n== verify: {args.rounds} rounds, A B A B ({load()})", flush=True)
    made = archives(trees[0], args.archives, args.deals, args.seed)
    modes = {"verify": [], "verify --duplicates off": ["--duplicates", "off"]}
    out: dict[str, Any] = {}
    print(f"  {'game':38}{'mode':26}{'deals':>9}{'before s':>10}{'after s':>10}{'ratio':>8}{'min':>7}{'max':>7}")
    for label, (path, deals) in made.items():
        commands = {
            mode: {
                t.label: [t.python, "-m", "phatlog", "verify", "-q", "--jobs", "1", *extra, str(path)] for t in trees
            }
            for mode, extra in modes.items()
        }
        runs = side_by_side(commands, trees, args.rounds)
        for mode in modes:
            a, b = runs[mode][trees[0].label], runs[mode][trees[1].label]
            bad = [t.rc for t in a + b if t.rc != 0]
            if bad:
                raise SystemExit(f"verify of {path} exited {bad[0]} (the archive must verify clean)")
            row = ratio_line(mode, a, b)
            row.update(
                {
                    "deals": deals,
                    "before deals/s": deals / row["before cpu s"],
                    "after deals/s": deals / row["after cpu s"],
                }
            )
            out[f"{label} | {mode}"] = row
            print(
                f"  {label:38}{mode:26}{deals:>9,}{row['before cpu s']:>10.3f}{row['after cpu s']:>10.3f}"
                f"{row['median ratio']:>8.3f}{row['min ratio']:>7.3f}{row['max ratio']:>7.3f}",
                flush=True,
            )
    return out


# ----------------------------------------------------------------------------------------------- startup


def startup_section(trees: tuple[Tree, Tree], args: argparse.Namespace) -> dict[str, Any]:
    rounds = args.rounds * 4
    print(f"\n== startup: {rounds} rounds, A B A B ({load()})", flush=True)
    record = trees[0].root / "samples" / "games" / "phat-181.json"
    shapes: dict[str, Callable[[str], list[str]]] = {
        "python -c json.load": lambda py: [py, "-c", f"import json; json.load(open({str(record)!r}))"],
        "phatlog --version": lambda py: [py, "-m", "phatlog", "--version"],
        "phatlog verify one-record.json": lambda py: [py, "-m", "phatlog", "verify", str(record)],
        "phatlog verify --help (typer)": lambda py: [py, "-m", "phatlog", "verify", "--help"],
    }
    commands = {name: {t.label: shape(t.python) for t in trees} for name, shape in shapes.items()}
    runs = side_by_side(commands, trees, rounds)
    out: dict[str, Any] = {}
    floor = {t.label: statistics.median(r.cpu for r in runs["python -c json.load"][t.label]) for t in trees}
    print(
        f"  {'command':34}{'before ms':>10}{'after ms':>10}{'best b':>8}{'best a':>8}{'ratio':>8}"
        f"{'b/floor':>9}{'a/floor':>9}{'wall b':>8}{'wall a':>8}"
    )
    for name in shapes:
        a, b = runs[name][trees[0].label], runs[name][trees[1].label]
        row = ratio_line(name, a, b, unit=1000.0)
        row = {k.replace(" s", " ms"): v for k, v in row.items()}
        row["before best cpu ms"] = min(t.cpu for t in a) * 1000
        row["after best cpu ms"] = min(t.cpu for t in b) * 1000
        row["before / floor"] = row["before cpu ms"] / 1000 / floor[trees[0].label]
        row["after / floor"] = row["after cpu ms"] / 1000 / floor[trees[1].label]
        out[name] = row
        print(
            f"  {name:34}{row['before cpu ms']:>10.1f}{row['after cpu ms']:>10.1f}{row['before best cpu ms']:>8.1f}"
            f"{row['after best cpu ms']:>8.1f}{row['median ratio']:>8.3f}{row['before / floor']:>9.2f}"
            f"{row['after / floor']:>9.2f}{row['before wall ms']:>8.1f}{row['after wall ms']:>8.1f}",
            flush=True,
        )
    return out


# ------------------------------------------------------------------------------------------------ solver


def parse_tables(text: str) -> dict[str, dict[str, str]]:
    """bench_solver.py's markdown rows by their name (the key columns), each as column -> cell; a row
    followed by its solves' ``seconds:`` line gets their sum as ``sum s`` (a capped solve counted at the cap)."""
    rows: dict[str, dict[str, str]] = {}
    header: list[str] = []
    last: dict[str, str] | None = None
    for line in text.splitlines():
        if line.strip().startswith("seconds:") and last is not None:
            solves = [float(x.strip().rstrip("+")) for x in line.split(":", 1)[1].split(",") if x.strip()]
            last["sum s"] = f"{sum(solves):.3f}"
            continue
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            continue
        if cells[0] in KEY_COLUMNS:
            header = cells
            continue
        last = dict(zip(header, cells, strict=False))
        rows[" / ".join(last[k] for k in header if k in KEY_COLUMNS)] = last
    return rows


def number(cell: str | None) -> float | None:
    try:
        return float((cell or "").replace(",", ""))
    except ValueError:
        return None


def captured(argv: list[str], cwd: Path) -> tuple[Timed, str, str]:
    """Run one process in ``cwd``: its times, standard output and error."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=environment(), stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        text = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    return Timed(wall, usage.ru_utime + usage.ru_stime, proc.returncode), *text


def median_of(runs: list[dict[str, dict[str, str]]], name: str, column: str) -> float:
    values = [v for r in runs if (v := number(r.get(name, {}).get(column))) is not None]
    return statistics.median(values) if values else float("nan")


def solver_section(trees: tuple[Tree, Tree], args: argparse.Namespace) -> dict[str, Any]:
    print(
        f"\n== solver: bench/bench_solver.py --seeds {args.solver_seeds} --timeout {args.solver_timeout}, "
        f"each tree's own, {args.solver_rounds} round(s) ({load()})",
        flush=True,
    )
    out: dict[str, Any] = {}
    all_same = True
    for group in args.solver_groups:
        texts: dict[str, list[str]] = {t.label: [] for t in trees}
        cpu: dict[str, list[float]] = {t.label: [] for t in trees}
        for _ in range(args.solver_rounds):
            for t in trees:
                argv = [t.python, "bench/bench_solver.py", "--only", group, "--seeds", str(args.solver_seeds)]
                argv += ["--timeout", str(args.solver_timeout)]
                done, stdout, stderr = captured(argv, t.root)
                if done.rc != 0:
                    raise SystemExit(f"{t.root}: {' '.join(argv[1:])} exited {done.rc}:\n{stderr[-3000:]}")
                if "C kernel: built" not in stdout:
                    print(f"  WARNING: {t.root}: the solver's C kernel is not built", flush=True)
                texts[t.label].append(stdout)
                cpu[t.label].append(done.cpu)
                print(f"  {group} ({t.label}): {done.cpu:.1f} s CPU, {done.wall:.1f} s wall", flush=True)
        a_runs = [parse_tables(x) for x in texts[trees[0].label]]
        b_runs = [parse_tables(x) for x in texts[trees[1].label]]
        cpus = [statistics.median(cpu[t.label]) for t in trees]
        print(
            f"  {group}: the process's CPU {cpus[0]:.2f} s before, {cpus[1]:.2f} s after, ratio {cpus[1] / cpus[0]:.3f}"
        )
        print(
            f"\n  {'row':72}{'nodes before':>14}{'nodes after':>14}{'same':>6}"
            f"{'median s b':>11}{'median s a':>11}{'sum s b':>9}{'sum s a':>9}{'ratio':>7}"
        )
        group_rows: dict[str, Any] = {}
        for name in a_runs[0]:
            nodes_col = next((c for c in a_runs[0][name] if c.startswith("median nodes")), "")
            nodes = [[r.get(name, {}).get(nodes_col, "?") for r in runs] for runs in (a_runs, b_runs)]
            median = [median_of(runs, name, "median s") for runs in (a_runs, b_runs)]
            total = [median_of(runs, name, "sum s") for runs in (a_runs, b_runs)]
            if total[0] != total[0]:  # no seconds line (techniques): the median is the figure
                total = median
            same = len(set(nodes[0] + nodes[1])) == 1
            all_same = all_same and same
            ratio = total[1] / total[0] if total[0] else float("nan")
            group_rows[name] = {
                "nodes before": nodes[0],
                "nodes after": nodes[1],
                "same nodes": same,
                "median s before": median[0],
                "median s after": median[1],
                "sum s before": total[0],
                "sum s after": total[1],
                "ratio": ratio,
                "rows before": [r.get(name) for r in a_runs],
                "rows after": [r.get(name) for r in b_runs],
            }
            print(
                f"  {name[:72]:72}{nodes[0][0]:>14}{nodes[1][0]:>14}{'yes' if same else 'NO':>6}"
                f"{median[0]:>11.3f}{median[1]:>11.3f}{total[0]:>9.2f}{total[1]:>9.2f}{ratio:>7.3f}",
                flush=True,
            )
        missing = sorted(set().union(*b_runs) - set(a_runs[0]))
        if missing:
            print(f"  rows only after: {missing}")
            all_same = False
        out[group] = {"cpu before": cpu[trees[0].label], "cpu after": cpu[trees[1].label], "rows": group_rows}
        print()
    print(f"  every row's nodes the same in both trees: {'yes' if all_same else 'NO'}")
    out["same nodes"] = all_same
    return out


# -------------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="the BEFORE checkout (with .venv)")
    parser.add_argument("--after", type=Path, required=True, help="the AFTER checkout (with .venv)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS))
    parser.add_argument("--rounds", type=int, default=5, help="rounds of verify (startup: 4 x as many)")
    parser.add_argument("--archives", type=Path, default=Path("/work/diff/archives"), help="the archives' directory")
    parser.add_argument("--deals", type=int, default=100_000, help="deals in each game's archive")
    parser.add_argument("--seed", type=int, default=1, help="the archives' seed")
    parser.add_argument("--solver-groups", nargs="+", choices=[*SOLVER_GROUPS, "first"], default=list(SOLVER_GROUPS))
    parser.add_argument("--solver-seeds", type=int, default=10)
    parser.add_argument("--solver-timeout", type=float, default=60.0)
    parser.add_argument("--solver-rounds", type=int, default=1, help="runs of each group a tree, in turn")
    parser.add_argument("--json", type=Path, default=None, help="also write every figure here")
    parser.add_argument("--make-archives", action="store_true", help="only make the verify archives (once)")
    args = parser.parse_args(argv)
    trees = (Tree("before", args.before.resolve()), Tree("after", args.after.resolve()))
    if args.make_archives:
        archives(trees[0], args.archives, args.deals, args.seed)
        return 0
    for t in trees:
        if not Path(t.python).exists():
            raise SystemExit(f"{t.python} does not exist (make .venv/.installed-dev in {t.root})")
        version = subprocess.run(
            [t.python, "-m", "phatlog", "--version"], cwd=t.root, capture_output=True, text=True, check=False
        )
        head = subprocess.run(
            ["git", "-C", str(t.root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        )
        print(f"{t.label}: {t.root} ({head.stdout.strip() or '?'}), {version.stdout.strip()}")
    figures: dict[str, Any] = {"before": str(trees[0].root), "after": str(trees[1].root), "load before": load()}
    began = time.perf_counter()
    run = {"verify": verify_section, "startup": startup_section, "solver": solver_section}
    for name in SECTIONS:
        if name in args.only:
            figures[name] = run[name](trees, args)
    figures["load after"] = load()
    figures["seconds"] = time.perf_counter() - began
    print(f"\n{figures['load before']} before, {figures['load after']} after; {figures['seconds']:.0f} s")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
