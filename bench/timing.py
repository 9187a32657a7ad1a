"""The one way bench/ times things: the median of several runs, in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of `runs` calls of fn, in ms (the median shrugs off a stray slow run)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def round_medians(fn: Callable[[], object], runs: int, rounds: int) -> list[float]:
    """The median_ms of `rounds` rounds of `runs` calls each, in order. A slow spell of the
    machine that outlasts one round (seen here: a whole round of 30 frames 10 ms slower) shows
    as one round out of line, not as the figure."""
    return [median_ms(fn, runs) for _ in range(rounds)]
