"""Training data figures: milliseconds per rendered crop, one core.

Why: `make model` draws its classifier renders (vision.train.render.render_crop, at the size and
width the training cuts real crops) in worker processes while the GPU or the CPU trains; a slow
renderer starves it. Medians of several rounds, after WARM_UP renders that fill the per-process
caches of numerals and pip patterns (a rendering process draws thousands). Printed, never
asserted.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from bench.timing import round_medians
from vision.train.labels import KINDS
from vision.train.realsets import SIZE, WIDE
from vision.train.render import render_crop

COUNT = 200  # renders a round
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
    ms = per_item_ms(lambda rng, i: render_crop(rng, SIZE, KINDS[i % len(KINDS)], widen=WIDE))
    rounds = ", ".join(f"{m:.2f}" for m in ms)
    print(f"classifier render, {SIZE} px, {WIDE}x wide (a die, its neighbours, table, camera): "
          f"{sorted(ms)[len(ms) // 2]:.2f} ms (median of {ROUNDS} rounds of {COUNT}, one core: "
          f"{rounds})")


if __name__ == "__main__":
    main()
