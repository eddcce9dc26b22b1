"""How fast the HTML replay opens, in a real browser (a benchmark, not a test).

Makes a 200-deal Phat record (a simulated game to a high target, cut at 200 deals and marked
unfinished), builds its page (``replay --format html``), and opens it in headless Chromium (Debian's
``chromium``, driven by Playwright) several times: the time from the start of navigation to the end of
the load event (the page parsed, its data parsed and the first deal drawn, since the script runs before
the load event), and the cost of a step (a key press to the next card, and to the last deal). Prints the
page sizes of the bundled samples too.

    python bench/bench_html.py [--deals 200] [--repeat 5] [--json]

Needs ``playwright`` (a dev extra) and Chromium at ``/usr/bin/chromium`` (or ``PHATLOG_CHROMIUM``);
never ``playwright install``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from phatlog.play.simulate import simulate
from phatlog.record.reader import read_bytes, read_path
from phatlog.report import build, html

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("PHATLOG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The samples the docs show (docs/replay.md), with their page sizes.
SHOWN = [
    "samples/games/phat-worked-6-2.json",
    "samples/games/phat-181.json",
    "samples/games/nine-card-don-worked-6-3.json",
    "samples/games/oh-hell-default-7p.json",
    "samples/invalid/revoke.json",
]


def long_record(deals: int, seed: int = 3) -> dict[str, Any]:
    """A simulated Phat game of at least ``deals`` deals, cut at ``deals`` and marked unfinished."""
    record = next(iter(simulate("phat", seed, 1, rules={"target": 50 * deals})))
    assert len(record["deals"]) >= deals, len(record["deals"])
    record["deals"] = record["deals"][:deals]
    record["result"] = {"status": "unfinished", "reason": f"cut at {deals} deals for the benchmark"}
    return record


def launch(p: Any) -> Any:
    return p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def measure(page_path: Path, repeat: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    loads: list[float] = []
    walls: list[float] = []
    steps: list[float] = []
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for _ in range(repeat):
            page.goto("about:blank")
            start = time.perf_counter()
            page.goto(page_path.as_uri())
            page.wait_for_selector("#verdict")
            walls.append(time.perf_counter() - start)
            loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000)
            # A step: the next card, then the last deal, each drawn before the promise resolves.
            step = (
                "() => { const t = performance.now();"
                " document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));"
                " for (let i = 0; i < 20; i++) document.dispatchEvent(new KeyboardEvent('keydown', {key: 'PageDown'}));"
                " return (performance.now() - t) / 21; }"
            )
            steps.append(page.evaluate(step) / 1000)
        browser.close()
    if errors:
        raise SystemExit(f"the page has errors: {errors}")
    return {
        "load_best": min(loads),
        "load_median": statistics.median(loads),
        "wall_median": statistics.median(walls),
        "step_median": statistics.median(steps),
    }


def sizes() -> dict[str, int]:
    return {rel: len(html.render(build(read_path(ROOT / rel))).encode()) for rel in SHOWN}


def all_sizes() -> list[int]:
    paths = sorted((ROOT / "samples" / "games").glob("*.json"))
    return sorted(len(html.render(build(read_path(p))).encode()) for p in paths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    record = long_record(args.deals)
    data = json.dumps(record).encode()
    start = time.perf_counter()
    summary = build(read_bytes(data, f"phat-{args.deals}-deals.json"))
    page_text = html.render(summary)
    built = time.perf_counter() - start
    assert summary.clean, "the benchmark's record must verify clean"
    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "long.html"
        page_path.write_text(page_text, encoding="utf-8")
        figures = measure(page_path, args.repeat)
    result: dict[str, Any] = {
        "deals": args.deals,
        "record_bytes": len(data),
        "page_bytes": len(page_text.encode()),
        "build_seconds": built,
        **figures,
        "sample_pages": sizes(),
        "all_sample_pages": {"count": len(all_sizes()), "smallest": all_sizes()[0], "largest": all_sizes()[-1]},
    }
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return
    print(f"record: {args.deals} deals, {len(data):,} bytes of JSON; page {result['page_bytes']:,} bytes")
    print(f"build the page (replay and render, Python): {built:.2f} s")
    print(
        f"open in Chromium (navigation start to load event end): best {figures['load_best']:.3f} s, "
        f"median {figures['load_median']:.3f} s (wall, with Playwright: {figures['wall_median']:.3f} s)"
    )
    print(f"one step (a key press, drawn): {figures['step_median'] * 1000:.1f} ms")
    for rel, size in result["sample_pages"].items():
        print(f"  {rel}: {size:,} bytes")
    a = result["all_sample_pages"]
    print(f"  all {a['count']} samples/games: {a['smallest']:,} to {a['largest']:,} bytes")


if __name__ == "__main__":
    main()
