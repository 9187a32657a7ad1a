"""Real dice set on other tables: the photo's surface swapped for a rendered one in training.

Each real die appears on one surface per capture sequence and shows one value there, so a model
can learn "this die on the red cloth is an 8" instead of reading the 8. Swapping the surface
behind the die (cut out with realdata.die_alpha) takes that cue away, and shows the real dice on
the many tables the reader will meet.
"""

from __future__ import annotations

import numpy as np

from vision.train.materials import background
from vision.train.realdata import die_alpha

BACKGROUNDS = 512


class Backdrops:
    """Cut-out masks of real crops and a bank of rendered surfaces to set them on."""

    def __init__(self, images: np.ndarray, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        size = images.shape[1]
        self.alphas = np.zeros(images.shape[:3], np.uint8)
        self.cut = np.zeros(len(images), bool)  # crops whose die could be cut out
        for i, image in enumerate(images):
            alpha = die_alpha(image)
            if alpha is not None:
                self.alphas[i] = np.round(alpha * 255).astype(np.uint8)
                self.cut[i] = True
        self.surfaces = np.stack(
            [background(rng, size, size).astype(np.uint8) for _ in range(BACKGROUNDS)]
        )

    def apply(
        self, images: np.ndarray, idx: np.ndarray, share: float, rng: np.random.Generator
    ) -> np.ndarray:
        """`images` (the real crops at `idx`) with about `share` of them on another surface."""
        swap = (rng.random(len(idx)) < share) & self.cut[idx]
        if not swap.any():
            return images
        out = images.copy()
        alpha = self.alphas[idx[swap]][..., None].astype(np.float32) / 255.0
        surface = self.surfaces[rng.integers(0, len(self.surfaces), int(swap.sum()))]
        mixed = alpha * images[swap] + (1 - alpha) * surface
        out[swap] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)
        return out
