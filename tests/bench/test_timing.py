"""bench/timing: every figure is a median of timed calls; rounds are timed one after another."""

from __future__ import annotations

import time

from bench.timing import median_ms, round_medians


def test_round_medians_gives_each_round_its_own_median_in_order() -> None:
    # rounds of 3 calls: the first round fast, the second slow, the third fast again
    delays = iter([0.0] * 3 + [0.06] * 3 + [0.0] * 3)
    medians = round_medians(lambda: time.sleep(next(delays)), runs=3, rounds=3)
    assert len(medians) == 3
    assert medians[1] >= 60.0
    assert medians[0] < 30.0 and medians[2] < 30.0
    assert next(delays, None) is None  # every call of every round was made


def test_median_ms_is_the_middle_call_not_the_mean() -> None:
    # two slow calls of five: their mean (~80 ms) or the slowest would be far over the median
    delays = iter([0.0, 0.2, 0.0, 0.2, 0.0])
    assert median_ms(lambda: time.sleep(next(delays)), runs=5) < 40.0
