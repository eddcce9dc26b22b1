"""The benchmarks' timers: one solve in CPU seconds with an optional cap (``--timeout`` of the solver
benchmarks), and the best rate of a stretch of work run again and again."""

from __future__ import annotations

import gc
import signal
import time
from collections.abc import Callable
from typing import Any


class TimedOut(Exception):
    """A call hit its cap."""


def _alarm(signum: int, frame: Any) -> None:
    raise TimedOut


def cpu_timed(fn: Callable[[], Any], cap: float = 0.0) -> tuple[float, Any]:
    """CPU seconds and the result of ``fn``; past ``cap`` CPU seconds (0: none) the result is a
    :class:`TimedOut` and the seconds are the cap."""
    start = time.process_time()
    if cap:
        signal.signal(signal.SIGVTALRM, _alarm)
        signal.setitimer(signal.ITIMER_VIRTUAL, cap)
    try:
        result = fn()
    except TimedOut:
        result = TimedOut()
    finally:
        if cap:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    seconds = time.process_time() - start
    if isinstance(result, TimedOut):
        seconds = max(seconds, cap)
    return seconds, result


def best_rate(work: Callable[[], int], repeat: int) -> float:
    """Items a second (``work`` returns how many it did), the best of ``repeat`` runs, with the collector
    off as timeit has it: on a shared machine a long run is always interrupted somewhere."""
    best = 0.0
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            items = work()
            best = max(best, items / (time.perf_counter() - start))
        finally:
            gc.enable()
    return best
