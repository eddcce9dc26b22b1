"""Issue 16's figures as ratios, in one run (a benchmark, not a test): start-up, verify per game against
the strongest parsers, printing, convert, the text notation, replay, OpenSpiel and ``--jobs 2``.

    python bench/bench_ratios.py [--rounds 5] [--games 200] [--hands 1000] [--json] [--only SECTION ...]

The machine this project runs on is shared, so every comparison is run side by side: the things compared
are timed in turn, round after round (``--rounds``), and each keeps its best round. In-process figures are
CPU time of this process (``time.process_time``), which waiting for a processor does not inflate; whole
processes are timed both by the wall clock and by their CPU time (user + system, from ``getrusage``). The
load average is printed before and after. Compare the ratios, not the absolute figures, across runs.

Sections (``--only``): startup, verify, read, print, convert, text, replay, openspiel, jobs.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Final

from phatlog.archive.check import check_all, check_loaded
from phatlog.play.simulate import simulate
from phatlog.record.read_limits import ReadLimits
from phatlog.record.reader import read_bytes

REPO: Final = Path(__file__).resolve().parent.parent
SECTIONS: Final = ("startup", "verify", "read", "print", "convert", "text", "replay", "openspiel", "jobs")


def side_by_side(work: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Seconds of CPU for each piece of work, the best of ``rounds`` rounds run in turn (collector off)."""
    best = dict.fromkeys(work, float("inf"))
    for _ in range(rounds):
        for name, run in work.items():
            gc.collect()
            gc.disable()
            try:
                start = time.process_time()
                run()
                best[name] = min(best[name], time.process_time() - start)
            finally:
                gc.enable()
    return best


def processes(commands: dict[str, list[str]], rounds: int) -> dict[str, tuple[float, float]]:
    """(wall seconds, CPU seconds) of each command run as a process, the best of ``rounds``, in turn."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as installed: bytecode kept
    for command in commands.values():  # once first, so that every module's bytecode is written
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    best = {name: (float("inf"), float("inf")) for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def records(game: str, count: int, seed: int = 1, **options: Any) -> list[bytes]:
    return [json.dumps(g, separators=(",", ":")).encode() for g in simulate(game, seed, count, **options)]


def records_of(game: str, deals: int, seed: int = 1, **options: Any) -> list[bytes]:
    """Simulated games, compact JSON, until they hold at least ``deals`` deals."""
    out: list[bytes] = []
    held = 0
    for g in simulate(game, seed, 10**9, **options):
        out.append(json.dumps(g, separators=(",", ":")).encode())
        held += len(g["deals"])
        if held >= deals:
            break
    return out


def deals_in(lines: list[bytes]) -> int:
    return sum(len(json.loads(r)["deals"]) for r in lines)


# ---------------------------------------------------------------------------- sections


def startup(args: argparse.Namespace) -> dict[str, Any]:
    record = REPO / "samples" / "games" / "phat-181.json"
    py = sys.executable
    commands = {
        "python -c json.load": [py, "-c", f"import json; json.load(open({str(record)!r}))"],
        "phatlog --version": [py, "-m", "phatlog", "--version"],
        "phatlog verify one-record.json": [py, "-m", "phatlog", "verify", str(record)],
        "phatlog verify --help (typer)": [py, "-m", "phatlog", "verify", "--help"],
    }
    best = processes(commands, args.rounds * 2)
    wall0, cpu0 = best["python -c json.load"]
    return {
        name: {"wall_ms": wall * 1000, "cpu_ms": cpu * 1000, "wall_ratio": wall / wall0, "cpu_ratio": cpu / cpu0}
        for name, (wall, cpu) in best.items()
    }


#: The games of the per-game table: label, game, simulate's options.
GAMES: Final[list[tuple[str, str, dict[str, Any]]]] = [
    ("Phat", "phat", {}),
    ("Nine-card Don", "nine_card_don", {}),
    ("Nine-card Don (five_high_low_jack)", "nine_card_don", {"rules": {"bonus": "five_high_low_jack"}}),
    ("Irish Don", "irish_don", {}),
    ("Oh Hell, 3 players", "oh_hell", {"players": 3}),
    ("Oh Hell, 4 players", "oh_hell", {"players": 4}),
    ("Oh Hell, 7 players", "oh_hell", {"players": 7}),
]


def verify_by_game(args: argparse.Namespace) -> dict[str, Any]:
    """A JSON Lines archive of each game on disk (``--verify-deals`` deals, 100,000 by default, as issue 16
    says): a line at a time through ``json.loads`` (and ``orjson``,
    if installed), against ``phatlog verify -q FILE`` as users run it (its default ``--duplicates deals``:
    every record's and every deal's duplicate check) and with ``--duplicates off``, both through the CLI's
    own run loop (``cli_run._run``: read, check, the duplicate tracker, the output), in this process."""
    orjson: Any
    try:
        import orjson
    except ImportError:
        orjson = None
    from phatlog.cli.run import Duplicates, OutputFormat, _run

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, game, options in GAMES:
            lines = records_of(game, args.verify_deals, **options)
            deals = deals_in(lines)
            archive = Path(tmp) / f"{game}.jsonl"
            archive.write_bytes(b"\n".join(lines) + b"\n")

            def per_line(parse: Callable[[bytes], object], archive: Path = archive) -> Callable[[], None]:
                def run() -> None:
                    with archive.open("rb") as f:
                        for line in f:
                            parse(line)

                return run

            def verify(duplicates: Duplicates, archive: Path = archive, game: str = game) -> Callable[[], None]:
                def run() -> None:  # `phatlog verify -q archive.jsonl [--duplicates off] > /dev/null`
                    saved = sys.stdout
                    with open(os.devnull, "w", encoding="utf-8") as sys.stdout:  # a deal dealt twice is told
                        try:
                            code = _run(
                                [str(archive)], True, OutputFormat.text, ReadLimits(), True, 1, duplicates=duplicates
                            )
                        finally:
                            sys.stdout = saved
                    if code:
                        raise SystemExit(f"a simulated {game} record did not verify clean")

                return run

            work: dict[str, Callable[[], object]] = {"json.loads": per_line(json.loads)}
            if orjson is not None:
                work["orjson.loads"] = per_line(orjson.loads)
            work["verify"] = verify(Duplicates.deals)
            work["verify --duplicates off"] = verify(Duplicates.off)
            best = side_by_side(work, args.rounds)
            row = {f"{k} deals/s": deals / v for k, v in best.items()}
            for name in ("verify", "verify --duplicates off"):
                row[f"{name} / json.loads"] = best["json.loads"] / best[name]
                if orjson is not None:
                    row[f"{name} / orjson.loads"] = best["orjson.loads"] / best[name]
            out[label] = row
    return out


def reading(args: argparse.Namespace) -> dict[str, Any]:
    """What reading a record costs, a deal at a time, against the parsers: ``json.loads``, ``orjson.loads``,
    the fast path's parse and schema check (``wire.decode``), the repeated-key scan, all of ``read_bytes``."""
    from phatlog.record import decoder as wire

    try:
        import orjson

        parsers: dict[str, Callable[[bytes], object]] = {"json.loads": json.loads, "orjson.loads": orjson.loads}
    except ImportError:
        parsers = {"json.loads": json.loads}
    parsers.update(
        {"wire.decode": wire.decode, "repeated-key scan": wire.maybe_duplicate_keys, "read_bytes": read_bytes}
    )
    out: dict[str, Any] = {}
    for label, game, options in (GAMES[0], GAMES[5]):
        lines = records(game, args.games, **options)
        deals = deals_in(lines)

        def each(parse: Callable[[bytes], object], lines: list[bytes] = lines) -> Callable[[], None]:
            def run() -> None:
                for line in lines:
                    parse(line)

            return run

        best = side_by_side({k: each(fn) for k, fn in parsers.items()}, args.rounds)
        row: dict[str, Any] = {f"{k}, µs a deal": v * 1e6 / deals for k, v in best.items()}
        row["read_bytes / json.loads (time)"] = best["read_bytes"] / best["json.loads"]
        out[label] = row
    return out


def printing(args: argparse.Namespace) -> dict[str, Any]:
    """Diagnostic lines printed a second (``verify``'s writer, to a file, not a terminal)."""
    from phatlog.cli.say import Say

    try:
        from phatlog.cli.run import OutputFormat, _emit
    except ImportError:  # a tree from before issue 16 (for a before/after run with PYTHONPATH)
        from phatlog.cli.app import OutputFormat, _emit  # type: ignore[attr-defined,no-redef]

    lines = records("phat", args.games)
    faulty = []
    for raw in lines:
        record = json.loads(raw)
        record["deals"][0]["score"]["total"][0] += 1
        faulty.append(json.dumps(record).encode())
    reports = [check_loaded(read_bytes(r), replay=True) for r in faulty]
    count = sum(len(r.diagnostics) for r in reports)
    sink = io.StringIO()

    def emitted(fmt: OutputFormat) -> str:
        """Every report written as ``verify`` writes it in ``fmt``: the text (the sink emptied after)."""
        saved = sys.stdout
        sys.stdout = sink
        try:
            out = Say()
            for report in reports:
                _emit(out, report, fmt)
            return sink.getvalue()
        finally:
            sys.stdout = saved
            sink.seek(0)
            sink.truncate()

    # the lines each writes (JSON adds a record line a record)
    written = {fmt.value: emitted(fmt).count("\n") for fmt in (OutputFormat.text, OutputFormat.json)}
    best = side_by_side(
        {"text": partial(emitted, OutputFormat.text), "json": partial(emitted, OutputFormat.json)}, args.rounds
    )
    out_rows: dict[str, Any] = {f"{k} diagnostic lines/s": count / v for k, v in best.items()}
    out_rows.update({f"{k} lines written/s": written[k] / v for k, v in best.items()})
    return out_rows


def convert(args: argparse.Namespace) -> dict[str, Any]:
    """jsonl to jsonl (read, check, canonical form, write the file) against verify of the same archive."""
    from phatlog.archive.convert import convert_file

    lines = records("phat", args.games)
    deals = deals_in(lines)
    data = b"\n".join(lines) + b"\n"
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "games.jsonl"
        archive.write_bytes(data)

        def convert_all() -> None:  # what `phatlog convert games.jsonl -o copy.jsonl` runs
            report = convert_file(str(archive), str(Path(tmp) / "copy.jsonl"))
            if report.problems or report.records != len(lines):
                raise SystemExit("the archive did not convert")

        def verify() -> None:
            for _ in check_all([str(archive)], replay=True):
                pass

        best = side_by_side({"convert jsonl -> jsonl": convert_all, "verify": verify}, args.rounds)
    row: dict[str, Any] = {f"{k} deals/s": deals / v for k, v in best.items()}
    row["convert / verify"] = best["verify"] / best["convert jsonl -> jsonl"]
    return row


def text_notation(args: argparse.Namespace) -> dict[str, Any]:
    """Reading the text notation: a game a document, Phat and 5-player Oh Hell (in-process, CPU time), by
    ``text.loads`` (the fast path, the full reader for what it declines) and by the full reader alone; the
    reader of ``verify`` alone (a text archive's games to the structs it checks, no referee); and
    ``phatlog verify`` of the games ten times over as a text archive and as JSON Lines (whole processes)."""
    from phatlog.formats import text
    from phatlog.formats.text_files import read_games

    games = [*simulate("phat", 1, args.games // 2), *simulate("oh_hell", 1, args.games // 4, players=5)]
    texts = [text.dumps(g) for g in games]
    deals = sum(len(g["deals"]) for g in games)

    def read() -> None:
        for t in texts:
            if next(iter(text.loads(t))).record is None:
                raise SystemExit("a text did not read back")

    def full() -> None:
        for t in texts:
            if text.full_parse(t).record is None:
                raise SystemExit("a text did not read back")

    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "archive.txt"
        with archive.open("w", encoding="utf-8") as f:
            text.dump(games, f)
        # For whole processes, the games ten times over (so that start-up is not most of the time), checked
        # with --duplicates off (the repeats would be reported), as text and as JSON Lines.
        big, lines = Path(tmp) / "big.txt", Path(tmp) / "big.jsonl"
        with big.open("w", encoding="utf-8") as f:
            text.dump(games * 10, f)
        lines.write_text("".join(json.dumps(g, separators=(",", ":")) + "\n" for g in games * 10), encoding="utf-8")

        def verify_reader() -> None:
            if sum(1 for _, loaded in read_games(str(archive), 1 << 26) if loaded.record is not None) != len(games):
                raise SystemExit("a game of the archive did not read")

        best = side_by_side({"text read": read, "full reader": full, "verify's reader": verify_reader}, args.rounds)
        py = sys.executable
        whole = processes(
            {
                "verify archive.txt": [py, "-m", "phatlog", "verify", "-q", "--duplicates", "off", str(big)],
                "verify archive.jsonl": [py, "-m", "phatlog", "verify", "-q", "--duplicates", "off", str(lines)],
            },
            args.rounds,
        )
    return {
        "text read deals/s": deals / best["text read"],
        "full reader alone deals/s": deals / best["full reader"],
        "verify's reader alone (text archive to structs) deals/s": deals / best["verify's reader"],
        "phatlog verify archive.txt deals/s, wall": 10 * deals / whole["verify archive.txt"][0],
        "phatlog verify archive.txt deals/s, CPU": 10 * deals / whole["verify archive.txt"][1],
        "phatlog verify archive.jsonl deals/s, wall": 10 * deals / whole["verify archive.jsonl"][0],
        "phatlog verify archive.jsonl deals/s, CPU": 10 * deals / whole["verify archive.jsonl"][1],
        "verify archive.txt / archive.jsonl (CPU)": whole["verify archive.jsonl"][1] / whole["verify archive.txt"][1],
        "deals (in-process; whole processes: ten times as many)": deals,
    }


def replay(args: argparse.Namespace) -> dict[str, Any]:
    """``phatlog replay --format json|text`` of one long record and one five times as long: CPU per deal
    (linear: the same for both), and the peak resident memory against the record's size."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for target in (args.replay_target, args.replay_target * 5):  # and a sample: the interpreter's own size
            game = next(iter(simulate("phat", 3, 1, rules={"target": target})))
            path = Path(tmp) / f"game-{target}.json"
            path.write_text(json.dumps(game, indent=1), encoding="utf-8")
            files[target] = (path, len(game["deals"]))
        probe = (
            "import resource, subprocess, sys, time\n"
            "start = time.perf_counter()\n"
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)\n"
            "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(use.ru_utime + use.ru_stime, use.ru_maxrss * 1024, time.perf_counter() - start)\n"
        )
        small = REPO / "samples" / "games" / "phat-181.json"
        files[0] = (small, len(json.loads(small.read_text(encoding="utf-8"))["deals"]))
        for fmt in ("json", "text"):
            for path, deals in files.values():
                best_cpu, best_rss = float("inf"), float("inf")
                for _ in range(max(1, args.rounds // 2)):
                    command = [sys.executable, "-m", "phatlog", "replay", "--format", fmt, str(path)]
                    shown = subprocess.run(
                        [sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True
                    )
                    cpu, rss, _ = (float(x) for x in shown.stdout.split())
                    best_cpu, best_rss = min(best_cpu, cpu), min(best_rss, rss)
                size = path.stat().st_size
                out[f"{fmt}, {deals} deals ({size / 1e6:.1f} MB)"] = {
                    "ms CPU a deal": best_cpu * 1000 / deals,
                    "peak RSS MB": best_rss / 1e6,
                    "peak RSS / record size": best_rss / size,
                }
    return out


def openspiel(args: argparse.Namespace) -> dict[str, Any]:
    """The same random ``oh_hell`` hands (4 players, 10 tricks) replayed with legality checks by OpenSpiel
    and verified by phatlog, parse excluded on both sides, then parse included on both sides."""
    try:
        import pyspiel
    except ImportError:
        return {}
    from phatlog.formats import openspiel as spiel_format
    from phatlog.referee.games import referee

    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    rng = random.Random(args.seed)
    histories: list[list[int]] = []
    texts: list[str] = []
    for _ in range(args.hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        histories.append(state.history())
        texts.append(pyspiel.serialize_game_and_state(game, state))
    encoded = [json.dumps(next(iter(spiel_format.loads(t))).record).encode() for t in texts]
    parsed = [loaded for r in encoded if (loaded := read_bytes(r).record) is not None]
    assert len(parsed) == len(encoded)  # every hand reads as a record

    def python_checked() -> None:  # the Python-level checked replay: legal_actions() before each action
        for history in histories:
            state = game.new_initial_state()
            for action in history:
                if action not in state.legal_actions():
                    raise SystemExit("OpenSpiel refused its own history")
                state.apply_action(action)

    def cpp_checked() -> None:  # the legality check in C++
        for history in histories:
            state = game.new_initial_state()
            for action in history:
                state.apply_action_with_legality_check(action)

    def cpp_checked_from_text() -> None:  # the same, the actions read from the serialized text first
        for text in texts:
            state = game.new_initial_state()
            for action in text.partition("[State]\n")[2].split():
                state.apply_action_with_legality_check(int(action))

    def deserialize() -> None:  # C++ parse and replay of the serialized text
        for text in texts:
            pyspiel.deserialize_game_and_state(text)

    def verify_parsed() -> None:
        for record in parsed:
            if any(d.severity.value == "error" for d in referee(record).diagnostics):
                raise SystemExit("an OpenSpiel hand did not verify clean")

    def verify_bytes() -> None:
        for r in encoded:
            if not check_loaded(read_bytes(r), replay=True).clean:
                raise SystemExit("an OpenSpiel hand did not verify clean")

    def verify_spiel_text() -> None:  # phatlog reading OpenSpiel's own serialized text, then verifying
        for text in texts:
            record = next(iter(spiel_format.loads(text))).record
            if not check_loaded(read_bytes(json.dumps(record).encode()), replay=True).clean:
                raise SystemExit("an OpenSpiel hand did not verify clean")

    best = side_by_side(
        {
            "OpenSpiel legal_actions() + apply_action (Python check)": python_checked,
            "OpenSpiel apply_action_with_legality_check (C++ check)": cpp_checked,
            "phatlog verify, parsed records": verify_parsed,
            "OpenSpiel apply_action_with_legality_check, actions read from the text": cpp_checked_from_text,
            "OpenSpiel deserialize_game_and_state (C++ parse and replay)": deserialize,
            "phatlog read (JSON bytes) and verify": verify_bytes,
        },
        args.rounds,
    )
    rates = {k: args.hands / v for k, v in best.items()}
    rates["verify parsed / apply_action_with_legality_check"] = (
        rates["phatlog verify, parsed records"] / rates["OpenSpiel apply_action_with_legality_check (C++ check)"]
    )
    rates["verify parsed / legal_actions + apply_action"] = (
        rates["phatlog verify, parsed records"] / rates["OpenSpiel legal_actions() + apply_action (Python check)"]
    )
    rates["read+verify / deserialize_game_and_state"] = (
        rates["phatlog read (JSON bytes) and verify"]
        / rates["OpenSpiel deserialize_game_and_state (C++ parse and replay)"]
    )
    rates["read+verify / checked replay from the text"] = (
        rates["phatlog read (JSON bytes) and verify"]
        / rates["OpenSpiel apply_action_with_legality_check, actions read from the text"]
    )
    # one more, not timed side by side (it is slower): phatlog reading OpenSpiel's own text
    rates["phatlog read OpenSpiel's text and verify (hands/s, alone)"] = args.hands / min(
        side_by_side({"x": verify_spiel_text}, 1).values()
    )
    return rates


def jobs(args: argparse.Namespace) -> dict[str, Any]:
    """``phatlog verify -q`` of a Phat archive of about ``--archive-deals`` deals as a process, ``--jobs 1``
    and ``--jobs 2`` in turn: wall time (what ``--jobs`` is for) and the CPU time of the processes."""
    lines = records("phat", 500)
    deals = deals_in(lines)
    copies = max(1, -(-args.archive_deals // deals))
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "games.jsonl"
        archive.write_bytes((b"\n".join(lines) + b"\n") * copies)
        py = sys.executable
        best = processes(
            {
                "--jobs 1": [py, "-m", "phatlog", "verify", "-q", "--jobs", "1", str(archive)],
                "--jobs 2": [py, "-m", "phatlog", "verify", "-q", "--jobs", "2", str(archive)],
            },
            args.rounds,
        )
    total = deals * copies
    return {
        "deals": total,
        "cpus": len(os.sched_getaffinity(0)),
        "--jobs 1 deals/s (wall)": total / best["--jobs 1"][0],
        "--jobs 2 deals/s (wall)": total / best["--jobs 2"][0],
        "--jobs 2 / --jobs 1 (wall)": best["--jobs 1"][0] / best["--jobs 2"][0],
        "CPU seconds, --jobs 1": best["--jobs 1"][1],
        "CPU seconds, --jobs 2 (all processes)": best["--jobs 2"][1],
    }


RUN: Final[dict[str, Callable[[argparse.Namespace], dict[str, Any]]]] = {
    "startup": startup,
    "verify": verify_by_game,
    "read": reading,
    "print": printing,
    "convert": convert,
    "text": text_notation,
    "replay": replay,
    "openspiel": openspiel,
    "jobs": jobs,
}


def show(name: str, figures: dict[str, Any]) -> None:
    print(f"\n== {name}")
    for key, value in figures.items():
        if isinstance(value, dict):
            print(f"  {key}")
            for k, v in value.items():
                print(f"    {k:58}{v:14,.2f}" if isinstance(v, float) else f"    {k:58}{v:>14}")
        else:
            print(f"  {key:60}{value:14,.2f}" if isinstance(value, float) else f"  {key:60}{value:>14}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds side by side; each keeps its best")
    parser.add_argument("--games", type=int, default=200, help="simulated games of each game")
    parser.add_argument(
        "--verify-deals", type=int, default=100_000, help="deals in each game's archive of the verify section"
    )
    parser.add_argument("--hands", type=int, default=1000, help="OpenSpiel oh_hell hands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--archive-deals", type=int, default=100_000, help="deals in the --jobs archive")
    parser.add_argument("--replay-target", type=int, default=20_000, help="target score of the replayed game")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load average before": os.getloadavg(),
    }
    for name in args.only:
        figures[name] = RUN[name](args)
        if not args.json:
            show(name, figures[name])
    figures["load average after"] = os.getloadavg()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"\nload average before {figures['load average before']}, after {figures['load average after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
