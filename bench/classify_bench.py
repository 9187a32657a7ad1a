"""Classifier figures: model size, load time, and milliseconds per batch of crops (1, 10, 25 dice).

Medians of several runs with the shipped model, printed, never asserted. The issue's budget for a
whole 1280x960 frame with 10 dice is 40 ms end to end (reader_bench); the classifier's share is
the 10-crop line: one model call for every die of the frame.
"""

from __future__ import annotations

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
            f"classify {n:2d} crops: {ms:6.2f} ms median of 30 ({ms / n:.2f} ms per crop; the "
            f"model call alone: {once:.2f} ms)"
        )


if __name__ == "__main__":
    main()
