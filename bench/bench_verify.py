"""Throughput of reading, validating and verifying Phat records (a benchmark, not a test).

Simulates a few thousand Phat games, then times, over the same encoded records, one record at a time
as an archive is read: ``json.loads`` alone (the yardstick), the fast validator (parse and check in one
pass), the pure-Python ``jsonschema`` validator on the published schema (on a sample: it is slow),
pydantic's validation, and ``verify`` end to end (read, check, replay, compare every score). Prints
deals per second and the ratio of verify to ``json.loads``. Each figure is the best of several runs.

    python bench/bench_verify.py [--games 2000] [--seed 1] [--repeat 3] [--jobs 2] [--json]
    python bench/bench_verify.py --each-game-only [--each-game 400]

``--each-game``: for every game (Phat, Nine-card Don, Irish Don, Oh Hell with 3, 4 and 7 players), that
many simulated games, ``json.loads`` of each record against ``verify`` of it (read, check, replay), in
deals per second and as a ratio; ``--each-game-only`` prints just that table (the quick before/after).

Then, for archives, the same games as a JSON Lines file on disk: ``json.loads`` a line at a time against
``verify`` reading the file itself (``check_all``, the code behind ``phatlog verify``), with one process
and with ``--jobs`` processes.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import timing
from spiel_games import OH_HELL, random_hands

from phatlog.archive.check import check_all, check_loaded
from phatlog.play.simulate import simulate
from phatlog.record import decoder as wire
from phatlog.record.model import RECORD_ADAPTER
from phatlog.record.reader import read_bytes
from phatlog.record.schema import published_schema


def best_rate(work: Callable[[], object], items: int, repeat: int) -> float:
    """Items per second of ``work`` (which does ``items``), the best of ``repeat`` runs (``timing.best_rate``)."""
    return timing.best_rate(lambda: (work(), items)[1], repeat)


def openspiel_rates(hands: int, seed: int, repeat: int) -> dict[str, float]:
    """OpenSpiel's own legality-checked replay (``apply_action_with_legality_check``, the check in C++) of
    random oh_hell hands against phatlog's verify of the same hands (imported with phatlog's OpenSpiel
    reader). Empty if OpenSpiel is not installed. ``bench_ratios.py`` has every fair baseline."""
    try:
        import pyspiel
    except ImportError:
        return {}
    from phatlog.formats import openspiel
    from phatlog.referee.games import referee

    game = pyspiel.load_game("oh_hell", OH_HELL)
    played = random_hands(game, hands, seed)
    histories: list[list[int]] = [state.history() for state in played]
    texts: list[str] = [pyspiel.serialize_game_and_state(game, state) for state in played]

    def spiel_replay() -> None:  # the legality check in C++ (issue 16: the fair baseline; see bench_ratios.py)
        for history in histories:
            state = game.new_initial_state()
            for action in history:
                state.apply_action_with_legality_check(action)

    encoded = [json.dumps(next(iter(openspiel.loads(t))).record).encode() for t in texts]
    parsed = [loaded for r in encoded if (loaded := read_bytes(r).record) is not None]
    assert len(parsed) == len(encoded)  # every hand reads as a record

    def verify_parsed() -> None:
        for record in parsed:
            if any(d.severity.value == "error" for d in referee(record).diagnostics):
                raise SystemExit("an OpenSpiel hand did not verify clean")

    def verify_bytes() -> None:
        for r in encoded:
            if not check_loaded(read_bytes(r), replay=True).clean:
                raise SystemExit("an OpenSpiel hand did not verify clean")

    return {
        "OpenSpiel: apply_action_with_legality_check": best_rate(spiel_replay, hands, repeat),
        "phatlog: verify parsed hands": best_rate(verify_parsed, hands, repeat),
        "phatlog: read and verify (JSON bytes)": best_rate(verify_bytes, hands, repeat),
    }


#: The games of ``--each-game``: a label, the game, and ``simulate``'s options.
EACH_GAME: list[tuple[str, str, dict[str, Any]]] = [
    ("Phat", "phat", {}),
    ("Nine-card Don", "nine_card_don", {}),
    ("Nine-card Don (five_high_low_jack)", "nine_card_don", {"rules": {"bonus": "five_high_low_jack"}}),
    ("Irish Don", "irish_don", {}),
    ("Oh Hell, 3 players", "oh_hell", {"players": 3}),
    ("Oh Hell, 4 players", "oh_hell", {"players": 4}),
    ("Oh Hell, 4 players (must_trump)", "oh_hell", {"players": 4, "rules": {"must_trump": True}}),
    ("Oh Hell, 7 players", "oh_hell", {"players": 7}),
]


def each_game_rates(games: int, seed: int, repeat: int) -> dict[str, dict[str, float]]:
    """For each game of ``EACH_GAME``: deals a second of ``json.loads`` alone and of ``verify``, a record
    at a time, on the same simulated records."""
    out: dict[str, dict[str, float]] = {}
    for label, game, options in EACH_GAME:
        records = [json.dumps(g, separators=(",", ":")).encode() for g in simulate(game, seed, games, **options)]
        deals = sum(len(json.loads(r)["deals"]) for r in records)

        def loads(records: list[bytes] = records) -> None:
            for r in records:
                json.loads(r)

        def verify(records: list[bytes] = records, game: str = game) -> None:
            for r in records:
                if not check_loaded(read_bytes(r), replay=True).clean:
                    raise SystemExit(f"a simulated {game} record did not verify clean")

        out[label] = {"json.loads": best_rate(loads, deals, repeat), "verify": best_rate(verify, deals, repeat)}
    return out


def print_each_game(rates: dict[str, dict[str, float]]) -> None:
    print(f"{'verify, game by game':38}{'json.loads/s':>14}{'verify/s':>12}{'ratio':>8}")
    for label, r in rates.items():
        print(f"{label:38}{r['json.loads']:14,.0f}{r['verify']:12,.0f}{r['verify'] / r['json.loads']:8.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="processes for the parallel archive run")
    parser.add_argument("--hands", type=int, default=2000, help="OpenSpiel oh_hell hands to compare with")
    parser.add_argument("--archive-deals", type=int, default=100_000, help="deals in the archive on disk")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--each-game", type=int, default=400, help="simulated games of each game for the table")
    parser.add_argument("--each-game-only", action="store_true", help="print only the game-by-game table")
    args = parser.parse_args(argv)
    if args.each_game_only:
        by_game = each_game_rates(args.each_game, args.seed, args.repeat)
        if args.json:
            print(json.dumps({k: {n: round(v) for n, v in r.items()} for k, r in by_game.items()}, indent=2))
        else:
            print_each_game(by_game)
        return 0

    records = [json.dumps(g, separators=(",", ":")).encode() for g in simulate("phat", args.seed, args.games)]
    deals = sum(len(json.loads(r)["deals"]) for r in records)
    size = sum(map(len, records))
    sample = records[: max(1, len(records) // 40)]
    sample_deals = sum(len(json.loads(r)["deals"]) for r in sample)
    validator = jsonschema.Draft202012Validator(published_schema())

    def each(fn: Callable[[bytes], object], data: list[bytes] = records) -> Callable[[], None]:
        def run() -> None:
            for r in data:
                fn(r)

        return run

    def verify(r: bytes) -> object:
        report = check_loaded(read_bytes(r), replay=True)
        if not report.clean:
            raise SystemExit(f"a simulated record did not verify clean: {report.diagnostics[:3]}")
        return report

    rates: dict[str, float] = {
        "json.loads": best_rate(each(json.loads), deals, args.repeat),
        "validate (fast path)": best_rate(each(wire.decode), deals, args.repeat),
        "validate (pydantic)": best_rate(each(RECORD_ADAPTER.validate_json), deals, args.repeat),
        "validate (jsonschema)": best_rate(each(lambda r: validator.validate(json.loads(r)), sample), sample_deals, 1),
        "verify": best_rate(each(verify), deals, args.repeat),
    }
    with tempfile.TemporaryDirectory() as tmp:
        # Large enough that starting the worker processes does not count: the games again and again.
        copies = max(1, -(-args.archive_deals // deals))
        archive = Path(tmp) / "games.jsonl"
        archive.write_bytes((b"\n".join(records) + b"\n") * copies)
        archive_deals = deals * copies

        def loads_lines() -> None:
            with archive.open("rb") as f:
                for line in f:
                    json.loads(line)

        def verify_archive(jobs: int) -> Callable[[], None]:
            def run() -> None:
                for result in check_all([str(archive)], replay=True, jobs=jobs):
                    if result.problems or result.unreadable:
                        raise SystemExit("a simulated record did not verify clean")

            return run

        rates["archive: json.loads a line"] = best_rate(loads_lines, archive_deals, args.repeat)
        rates["archive: verify"] = best_rate(verify_archive(1), archive_deals, args.repeat)
        rates[f"archive: verify --jobs {args.jobs}"] = best_rate(verify_archive(args.jobs), archive_deals, args.repeat)
    base = rates["json.loads"]
    spiel = openspiel_rates(args.hands, args.seed, args.repeat)
    by_game = each_game_rates(args.each_game, args.seed, args.repeat)
    figures: dict[str, Any] = {
        "games": len(records),
        "deals": deals,
        "bytes_per_deal": round(size / deals),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "deals_per_second": {k: round(v) for k, v in rates.items()},
        "ratio_to_json_loads": {k: round(v / base, 3) for k, v in rates.items()},
        "oh_hell_hands_per_second": {k: round(v) for k, v in spiel.items()},
        "each_game_deals_per_second": {k: {n: round(v) for n, v in r.items()} for k, r in by_game.items()},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{len(records)} Phat games, {deals} deals, {size / deals:.0f} bytes a deal, Python {figures['python']}")
    print(f"{'':26}{'deals/s':>12}{'vs json.loads':>16}")
    for name, rate in rates.items():
        print(f"{name:26}{rate:12,.0f}{rate / base:16.2f}")
    print(f"verify / json.loads = {rates['verify'] / base:.2f} (target: at least 0.5)")
    jobs = rates[f"archive: verify --jobs {args.jobs}"] / rates["archive: verify"]
    print(f"archive: verify --jobs {args.jobs} / verify = {jobs:.2f} (target for 2 jobs: at least 1.7)")
    print()
    print_each_game(by_game)
    if spiel:
        print()
        print(f"{args.hands} OpenSpiel oh_hell hands (4 players, 10 tricks), the same hands both ways:")
        print(f"{'':40}{'hands/s':>12}")
        for name, rate in spiel.items():
            print(f"{name:40}{rate:12,.0f}")
        ratio = spiel["phatlog: verify parsed hands"] / spiel["OpenSpiel: apply_action_with_legality_check"]
        print(f"phatlog verify / OpenSpiel replay = {ratio:.2f} (target: at least 1.0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
