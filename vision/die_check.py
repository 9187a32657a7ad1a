"""Whether a peak the detector scored under its threshold is a die, judged by what the
classifier makes of its crop (models/die_check.json, fitted by vision/train/die_check.py).

Why: on tables it never saw the detector scores real dice under its threshold (a die alone in
a large dark tray 0.38-0.48, ucffool's photos: 42-70% of their dice over it), while lowering the
threshold boxes a cloth's spots and a tray's corners too. The classifier, pretrained on ImageNet,
reads every crop anyway: its kind, value and state probabilities with the peak's score tell a
die from a spot better than the score alone (leave-one-rig-out: docs/reader-history.md). A peak
over the threshold is kept as before; this only adds dice.

The check is a logistic regression over FEATURES, fitted for one detector and one classifier:
its card names their checksums, and a check fitted for other models is refused (ModelError).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from vision.detect import centred_in
from vision.errors import ModelError
from vision.model_file import softmax

DEFAULT_CHECK = Path(__file__).resolve().parents[1] / "models" / "die_check.json"
FEATURES = (
    "score", "log score",
    "flat logit", "cocked logit", "empty logit", "flat", "cocked", "empty",
    "d4", "d6", "d8", "d10", "d%", "d12", "d20", "kind", "value",
)


def features(scores: np.ndarray, outputs: dict[str, np.ndarray]) -> np.ndarray:
    """Per peak, FEATURES: its score, the classifier's state logits and probabilities (flat,
    cocked, empty), kind probabilities, and the likeliest kind's and value's probabilities."""
    scores = np.asarray(scores, np.float64).reshape(-1, 1)
    state = outputs["state"].astype(np.float64)
    kind = softmax(outputs["kind"].astype(np.float64))
    value = softmax(outputs["value"].astype(np.float64))
    return np.hstack([scores, np.log(np.clip(scores, 1e-6, None)), state, softmax(state), kind,
                      kind.max(axis=1, keepdims=True), value.max(axis=1, keepdims=True)])


def chance(fitted: Mapping, x: np.ndarray) -> np.ndarray:
    """A fitted regression's (`mean`, `scale`, `weights`, `bias`) chance per row of features."""
    z = (x - np.asarray(fitted["mean"])) / np.asarray(fitted["scale"])
    return 1.0 / (1.0 + np.exp(-(z @ np.asarray(fitted["weights"]) + float(fitted["bias"]))))


def taken(peaks: Sequence[Sequence[float]], dice: Sequence[bool],
          found: Sequence[Sequence[float]]) -> list[int]:
    """Which of the weighed peaks (boxes, strongest first) become dice: those the check calls
    dice, never one centred in a die found or taken before it (a piece of that die)."""
    out: list[int] = []
    for i, (box, die) in enumerate(zip(peaks, dice, strict=True)):
        if die and not any(centred_in(box, b) for b in (*found, *(peaks[j] for j in out))):
            out.append(i)
    return out


class DieCheck:
    """The fitted check; ModelError when its card is missing, unreadable, or fitted for other
    models than `classifier_sha256` / `detector_sha256` (the loaded models' checksums)."""

    def __init__(self, classifier_sha256: str, detector_sha256: str,
                 path: Path | str | None = None) -> None:
        self.path = Path(path) if path else DEFAULT_CHECK
        try:
            card = json.loads(self.path.read_text())
            self.fitted = {key: card[key] for key in ("mean", "scale", "weights", "bias")}
            self.threshold = float(card["threshold"])
            fitted_for = (card["classifier_sha256"], card["detector_sha256"])
            names = tuple(card["features"])
            sizes = {len(card[key]) for key in ("mean", "scale", "weights")}
            float(card["bias"])
        except FileNotFoundError as exc:
            raise ModelError(f"die check not found: {self.path} (run `make model`)") from exc
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"die check {self.path} is unreadable: {exc}") from exc
        if names != FEATURES or sizes != {len(FEATURES)}:
            raise ModelError(f"die check {self.path} does not fit this reader's features")
        if fitted_for != (classifier_sha256, detector_sha256):
            raise ModelError(f"die check {self.path} was fitted for other models: run "
                             "`python -m vision.train.die_check --out models`")

    def chance(self, scores: np.ndarray, outputs: dict[str, np.ndarray]) -> np.ndarray:
        """Per peak, the chance it is a die."""
        return chance(self.fitted, features(scores, outputs))

    def dice(self, scores: np.ndarray, outputs: dict[str, np.ndarray]) -> np.ndarray:
        """Per peak, whether it is taken for a die."""
        return self.chance(scores, outputs) >= self.threshold
