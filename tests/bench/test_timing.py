"""bench/timing: every figure is a median of timed calls; rounds are timed one after another."""

from __future__ import annotations

import time

from bench.timing import median_ms, round_medians


def test_round_medians_times_every_call_of_every_round() -> None:
    calls: list[float] = []

    def sleepy() -> None:
        calls.append(time.perf_counter())
        time.sleep(0.002)

    medians = round_medians(sleepy, runs=4, rounds=3)
    assert len(calls) == 12
    assert len(medians) == 3
    assert all(2.0 <= m < 200.0 for m in medians)


def test_median_ms_ignores_one_slow_call() -> None:
    delays = iter([0.0, 0.0, 0.05, 0.0, 0.0])
    assert median_ms(lambda: time.sleep(next(delays)), runs=5) < 40.0
