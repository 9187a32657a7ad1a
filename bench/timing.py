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
    machine that outlasts a round shows as one round out of line, not as the figure (seen here
    on 2026-11-25: read_frame rounds of 20 at 31.8-32.5 ms, and one at 47.3 ms)."""
    return [median_ms(fn, runs) for _ in range(rounds)]
