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
