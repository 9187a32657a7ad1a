"""Read a die's kind and top value from crops with the shipped ONNX model (onnxruntime, CPU).

preprocess -> run -> postprocess, nothing kept on self but the session and the model card, so one
Classifier serves any number of frames and threads. The model (models/dice.onnx, an ImageNet
EfficientNet-Lite0 fine-tuned by `python -m vision.train`) reads every kind, its value, whether
the die lies flat, and an embedding for taught custom dice, from one look at each crop. The card
(models/<name>.json beside the .onnx) names the labels and input, and its sha256 must match the
file: a truncated or swapped model is refused with a ModelError instead of giving silent nonsense.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.crops import crop_batch, square_crop
from vision.errors import ModelError
from vision.model_file import load_card, open_session, softmax
from vision.numerals import NUMBERED

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "dice.onnx"
OUTPUTS = ("kind", "value", "state", "embedding")
# Below this confidence a reading is reported unsure. The card's "always_check" (under
# "accuracy") names the kinds whose sure readings were too often wrong on real photos.
UNSURE_BELOW = 0.7


@dataclass(frozen=True)
class FaceReading:
    """One crop's reading: kind, value in game convention, confidence, and the raw embedding."""

    die: str
    value: int
    confidence: float  # P(kind) * P(value | kind) * P(die lies flat), P(kind) over every kind
    state: str  # "flat", "cocked" (no face up) or "empty" (no die in the crop)
    embedding: np.ndarray = field(compare=False, repr=False)
    # the probability of the likeliest kind among every kind, whatever was expected: how sure
    # the model is of what kind of die this is
    best_kind_p: float = 1.0

    @property
    def why_unsure(self) -> str | None:
        """Why this reading should not be trusted, or None when it can be."""
        if self.state == "cocked":
            return "die is cocked (no face flat on top)"
        if self.state == "empty":
            return "no die found in the box"
        if self.confidence < UNSURE_BELOW:
            return "low confidence"  # the figure itself is the reading's confidence
        return None

    @property
    def unsure(self) -> bool:
        return self.why_unsure is not None


class Classifier:
    """The ONNX dice classifier: give it square crops, get FaceReadings."""

    def __init__(self, model_path: Path | str | None = None, threads: int = 2) -> None:
        self.model_path = Path(model_path) if model_path else DEFAULT_MODEL
        self.card = load_card(self.model_path)
        try:
            self.kinds: tuple[str, ...] = tuple(self.card["kinds"])
            self.value_labels: tuple[str, ...] = tuple(self.card["values"])
            self.states: tuple[str, ...] = tuple(self.card["states"])
            self.input_size = int(self.card["input"]["size"])
            # kinds a player must always check, with the share of sure readings that were right;
            # only kinds whose values this model gives (numbered dice's are the recognizer's,
            # with its own rule for when they are sure)
            checks = self.card.get("accuracy", {}).get("always_check", {})
            self.always_check: dict[str, float | None] = {
                str(k): None if v is None else float(v) for k, v in checks.items()
                if k not in NUMBERED
            }
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelError(f"model card for {self.model_path} lacks {exc}") from exc
        self.session = open_session(self.model_path, threads, OUTPUTS)
        self.input_name = self.session.get_inputs()[0].name
        # the value labels of each kind, as indices into the value logits
        self._kind_values = {
            k: np.array(
                [i for i, lab in enumerate(self.value_labels) if lab.rsplit(":", 1)[0] == k]
            )
            for k in self.kinds
        }

    def crops(self, frame: np.ndarray, boxes: Sequence[Sequence[float]]) -> list[np.ndarray]:
        """Cut the model's crops for die boxes from a BGR frame (the shared convention)."""
        return [square_crop(frame, box, self.input_size) for box in boxes]

    def preprocess(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """BGR uint8 crops -> float32 (N, 3, S, S) batch; crops of another size are resized."""
        return crop_batch(crops, self.input_size)

    def run(self, batch: np.ndarray) -> dict[str, np.ndarray]:
        """The raw model outputs (logits and embeddings) for a preprocessed batch."""
        if len(batch) == 0:
            return {name: np.zeros((0, 0), np.float32) for name in OUTPUTS}
        return dict(zip(OUTPUTS, self.session.run(None, {self.input_name: batch}), strict=True))

    def look(self, crops: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
        """The model's outputs (kind, value and state logits, embeddings) for square BGR crops."""
        return self.run(self.preprocess(crops))

    def embed(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """The unit embeddings of square BGR crops (taught dice are matched by them)."""
        return self.look(crops)["embedding"]

    def check_reason(self, kind: str) -> str | None:
        """Why a value of this kind the classifier reads alone (no numeral read, no pips that
        settle it: vision.reader.die_value) waits for a player's check, or None if it need not."""
        if kind not in self.always_check:
            return None
        right = self.always_check[kind]
        if right is None:
            return f"{kind} values by the classifier alone are checked (no real photo measured)"
        return (f"{kind} values by the classifier alone are checked (sure ones {right:.0%} right "
                "on a rig it never saw)")

    def check_expect(self, expect: Sequence[str] | None) -> list[str]:
        """The kinds a reading may take: all, or the expected ones (which must be known)."""
        if expect is None:
            return list(self.kinds)
        unknown = [k for k in expect if k not in self.kinds]
        if unknown or not expect:
            raise ValueError(f"cannot expect {unknown or 'nothing'}; known kinds: {self.kinds}")
        return list(dict.fromkeys(expect))

    def value_probabilities(self, value_logits: np.ndarray, kind: str) -> np.ndarray:
        """One crop's probabilities of `kind`'s faces, in the order of `faces(kind)`."""
        return softmax(value_logits[self._kind_values[kind]])

    def faces(self, kind: str) -> tuple[int, ...]:
        """`kind`'s values as the model gives them, in its card's order."""
        return tuple(int(self.value_labels[j].rsplit(":", 1)[1]) for j in self._kind_values[kind])

    def postprocess(
        self, outputs: dict[str, np.ndarray], expect: Sequence[str] | None = None
    ) -> list[FaceReading]:
        """Decide kind (among the expected ones), then the value among that kind's faces.

        The confidence weighs the chosen kind by its probability among every kind, not only the
        expected ones: an expectation may pick the kind, it never makes a die look surer."""
        allowed = self.check_expect(expect)
        mask = np.array([k in allowed for k in self.kinds])
        readings = []
        for i in range(len(outputs["kind"])):
            kind_p = softmax(outputs["kind"][i])
            k = int(np.argmax(np.where(mask, kind_p, -1.0)))
            idx = self._kind_values[self.kinds[k]]
            value_p = self.value_probabilities(outputs["value"][i], self.kinds[k])
            v = int(np.argmax(value_p))
            state_p = softmax(outputs["state"][i])
            s = int(np.argmax(state_p))
            label = self.value_labels[idx[v]]
            confidence = float(kind_p[k] * value_p[v] * state_p[self.states.index("flat")])
            readings.append(
                FaceReading(
                    self.kinds[k],
                    int(label.rsplit(":", 1)[1]),
                    round(confidence, 4),
                    self.states[s],
                    outputs["embedding"][i].copy(),
                    round(float(kind_p.max()), 4),
                )
            )
        return readings

    def classify(
        self, crops: Sequence[np.ndarray], expect: Sequence[str] | None = None
    ) -> list[FaceReading]:
        """Read a batch of square BGR crops (see vision.crops.square_crop)."""
        self.check_expect(expect)
        return self.postprocess(self.look(crops), expect)
