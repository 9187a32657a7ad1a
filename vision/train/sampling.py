"""Which crops a training batch draws: real kinds evenly, renders by how hard each kind is."""

from __future__ import annotations

import numpy as np


def real_weights(kinds: np.ndarray) -> np.ndarray:
    """Sampling weights giving each real kind the same share."""
    counts = np.bincount(kinds, minlength=int(kinds.max()) + 1)
    w = 1.0 / counts[kinds]
    return w / w.sum()


class KindFocus:
    """Sampling weights for the renders that follow each kind's running value loss."""

    def __init__(self, kinds: np.ndarray, evenly: float = 0.5, memory: float = 0.98) -> None:
        self.kinds = kinds
        self.n = int(kinds.max()) + 1
        self.loss = np.ones(self.n)
        self.evenly, self.memory = evenly, memory
        self.counts = np.bincount(kinds[kinds >= 0], minlength=self.n).astype(float)

    def weights(self) -> np.ndarray:
        """Per render: its chance of being drawn (crops with no kind keep their share)."""
        share = self.loss / self.loss.sum()
        share = self.evenly / self.n + (1 - self.evenly) * share
        per_kind = share / np.maximum(self.counts, 1) * self.counts.sum() / len(self.kinds)
        w = np.where(self.kinds >= 0, per_kind[np.maximum(self.kinds, 0)], 1.0 / len(self.kinds))
        return w / w.sum()

    def update(self, kinds: np.ndarray, row_loss: np.ndarray) -> None:
        """Fold one batch's per-render value losses (rows with a value only) into the means."""
        for k in np.unique(kinds):
            mean = float(row_loss[kinds == k].mean())
            self.loss[k] = self.memory * self.loss[k] + (1 - self.memory) * mean
