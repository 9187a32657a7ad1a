"""Classifier figures: model size, load time, and milliseconds per batch of crops (1, 10, 25 dice),
each linked patch reader's share (the numeral reader on 10 d20 crops, the pip reader on 10 d6
crops) and each kind expert's (the d4 expert on 10 d4 crops).

Medians of several runs with the shipped model, printed, never asserted. The issue's budget for a
whole 1280x960 frame with 10 dice is 40 ms end to end; the classifier's share is the 10-crop line
(rendered crops are often doubtful, so most of them get the second, turned look).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench.timing import median_ms
from vision.classify import DEFAULT_MODEL, Classifier
from vision.train.labels import KINDS
from vision.train.render import render_crop


def main() -> None:
    load = median_ms(lambda: Classifier(DEFAULT_MODEL), 5)
    classifier = Classifier(DEFAULT_MODEL)
    size = DEFAULT_MODEL.stat().st_size / 1e6
    print(f"model {DEFAULT_MODEL.name}: {size:.2f} MB, load {load:.1f} ms (median of 5)")
    rng = np.random.default_rng(0)
    crops = [
        render_crop(rng, classifier.input_size, KINDS[i % len(KINDS)]).image for i in range(25)
    ]
    for n in (1, 10, 25):
        batch = crops[:n]
        classifier.classify(batch)  # warm-up
        ms = median_ms(lambda b=batch: classifier.classify(b), 30)
        tensor = classifier.preprocess(batch)
        once = median_ms(lambda t=tensor: classifier.run(t), 30)
        print(
            f"classify {n:2d} crops: {ms:6.2f} ms median of 30 ({ms / n:.2f} ms per crop; one "
            f"model call without the second look at doubtful crops: {once:.2f} ms)"
        )
    for link in classifier.links:
        _ten_crops(rng, classifier.input_size, link.kinds, link.reader.probabilities,
                   link.reader.model_path, "patch reader", "four turns each")
    for expert in classifier.experts:
        _ten_crops(rng, classifier.input_size, expert.kinds, expert.model.look,
                   expert.model.model_path, "kind expert", "second look included")


def _ten_crops(
    rng: np.random.Generator,
    size: int,
    kinds: tuple[str, ...],
    read: Callable[[list[np.ndarray]], object],
    model: Path,
    what: str,
    how: str,
) -> None:
    """Print how long a linked model takes over 10 rendered crops (of the dice model's `size`)
    of the first kind it reads."""
    dice = [render_crop(rng, size, kinds[0]).image for _ in range(10)]
    read(dice)  # warm-up
    ms = median_ms(lambda: read(dice), 30)
    print(
        f"{what} {model.name} ({model.stat().st_size / 1e6:.2f} MB): 10 {kinds[0]} crops, {how}, "
        f"{ms:.2f} ms median of 30 (only crops likely of {', '.join(kinds)} are read by it)"
    )

if __name__ == "__main__":
    main()
