"""Training data figures: milliseconds per rendered crop, pip patch and numeral patch, one core.

Why: `make model` must end within the hour, and drawing its data (48,000 renders for the dice
model, 24,000 d4s for the d4 expert, the readers' patches) takes a fifth of it; every minute
saved there goes to the dice model's training (vision.train.deadline). Medians of several rounds,
after WARM_UP items that fill the per-process caches of numerals and pip patterns (a rendering
process draws thousands: its first hundred took 11-12 ms a render, the next ones 8-9 ms). Printed,
never asserted.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from bench.timing import round_medians
from vision.train.dataset import CACHE_SIZE
from vision.train.labels import KINDS
from vision.train.numeral_patches import TEXTS as NUMERAL_TEXTS
from vision.train.numeral_patches import numeral_patch
from vision.train.pip_patches import TEXTS as PIP_TEXTS
from vision.train.pip_patches import pip_patch
from vision.train.render import render_crop

COUNT = 200  # items a round
ROUNDS = 3
WARM_UP = 300
Draw = Callable[[np.random.Generator, int], object]  # draws item i


def per_item_ms(draw: Draw) -> list[float]:
    """Per-item milliseconds of ROUNDS rounds of COUNT items, each round its own seed."""
    warm = np.random.default_rng(ROUNDS)
    for i in range(WARM_UP):
        draw(warm, i)
    seeds = iter(range(ROUNDS))

    def one_round() -> None:
        rng = np.random.default_rng(next(seeds))
        for i in range(COUNT):
            draw(rng, i)

    return [ms / COUNT for ms in round_medians(one_round, 1, ROUNDS)]


def main() -> None:
    cv2.setNumThreads(1)  # a rendering process holds one core
    items: list[tuple[str, Draw]] = [
        (f"dice model render, {CACHE_SIZE} px (a die, its neighbours, table, camera)",
         lambda rng, i: render_crop(rng, CACHE_SIZE, KINDS[i % len(KINDS)])),
        ("pip reader patch", lambda rng, i: pip_patch(rng, PIP_TEXTS[i % len(PIP_TEXTS)])),
        ("numeral reader patch",
         lambda rng, i: numeral_patch(rng, NUMERAL_TEXTS[i % len(NUMERAL_TEXTS)])),
    ]
    for name, draw in items:
        ms = per_item_ms(draw)
        rounds = ", ".join(f"{m:.2f}" for m in ms)
        print(f"{name}: {sorted(ms)[len(ms) // 2]:.2f} ms (median of {ROUNDS} rounds of "
              f"{COUNT}, one core: {rounds})")


if __name__ == "__main__":
    main()
