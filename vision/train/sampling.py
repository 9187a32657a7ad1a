"""Which crops a training batch draws: real kinds evenly, renders by how hard each kind is."""

from __future__ import annotations

import numpy as np

# Share of a batch's real crops drawn from tables' own photos (`rollscribe photos`) when training
# has any: few beside the shared sets' 11,573, but the only ones of that table's dice, tray,
# light and camera, which is where the model will read.
TABLE_SHARE = 0.25


def _even(kinds: np.ndarray) -> np.ndarray:
    counts = np.bincount(kinds, minlength=int(kinds.max()) + 1)
    w = 1.0 / counts[kinds]
    return w / w.sum()


def real_weights(kinds: np.ndarray, table: np.ndarray | None = None) -> np.ndarray:
    """Sampling weights giving each real kind the same share; the photos marked `table` get
    TABLE_SHARE of the draws between them (their kinds evenly too)."""
    if table is None or not table.any() or table.all():
        return _even(kinds)
    w = np.empty(len(kinds))
    w[~table] = (1 - TABLE_SHARE) * _even(kinds[~table])
    w[table] = TABLE_SHARE * _even(kinds[table])
    return w


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
