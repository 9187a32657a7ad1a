"""Where a die's value numeral lies, how it stands, whether it shows, and how big the die is:
models/top_face.onnx.

Why: the numeral reader (vision.numerals) turns 24 windows about a die's centre because it knows
neither where the numeral is nor how it stands, and an oblique view puts the numeral off the
centre, where no window looks. This small CNN, trained on renders only
(`python -m vision.train.top_face`), says both from the die's crop, so one or two windows do.
It also says the die's size, which the windows are cut to: a detector's box may be looser or
tighter than the die.

numpy, OpenCV and onnxruntime only; vision.numerals cuts the recognizer's windows on what it
finds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.crops import square_bounds, square_crop
from vision.errors import ModelError
from vision.model_file import input_size, load_card, open_session

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "top_face.onnx"
OUTPUTS = ("offset", "angle", "visible", "side")


@dataclass(frozen=True)
class TopFace:
    """A die's value numeral in the frame.

    (x, y): its centre in frame pixels. angle_deg: the angle, in cv2.getRotationMatrix2D's
    convention (counter-clockwise on screen), that stands it upright when the frame is turned
    by it about (x, y), as vision.numerals.cut_windows turns its windows: 0 when it stands
    upright, 90 when its top points right. visible: the chance it shows at all (its face not
    turned away, or no die in the box). side: the die's box's longer side in frame pixels."""

    x: float
    y: float
    angle_deg: float
    visible: float
    side: float


class TopFaceLocator:
    """The locator model and the crops it reads (vision.crops.square_crop, like the classifier's)."""

    def __init__(self, model_path: Path | str | None = None, threads: int = 1) -> None:
        self.model_path = Path(model_path) if model_path else DEFAULT_MODEL
        self.size = input_size(load_card(self.model_path), self.model_path)
        self.session = open_session(self.model_path, threads, OUTPUTS)
        self.input_name = self.session.get_inputs()[0].name

    def locate(self, frame: np.ndarray, boxes: Sequence[Sequence[float]]) -> list[TopFace]:
        """Each box's (x0, y0, x1, y1) numeral in the BGR frame, all boxes in one batch."""
        if not boxes:
            return []
        crops = np.stack([square_crop(frame, box, self.size) for box in boxes])
        batch = crops.astype(np.float32).transpose(0, 3, 1, 2)
        offset, angle, visible, die = self.session.run(None, {self.input_name: batch})
        if (offset.shape != (len(boxes), 2) or angle.ndim != 2 or len(angle) != len(boxes)
                or die.shape != (len(boxes), 1)):
            raise ModelError(f"locator {self.model_path} gave outputs of shapes "
                             f"{offset.shape}, {angle.shape}, {die.shape}")
        out = []
        for box, (dx, dy), logits, (v,), (d,) in zip(boxes, offset, angle, visible, die,
                                                     strict=True):
            sx, sy, side = square_bounds(box)
            out.append(TopFace(
                x=sx + (float(dx) + 0.5) * side - 0.5,
                y=sy + (float(dy) + 0.5) * side - 0.5,
                angle_deg=peak_angle(logits),
                visible=1.0 / (1.0 + math.exp(-float(v))),
                side=float(d) * side,
            ))
        return out


def peak_angle(logits: np.ndarray) -> float:
    """The angle (degrees) of the likeliest of the model's angle bins (bin k is 360 k / bins),
    refined by the mean of it and its two neighbours: a mean over all bins would fall between
    the two peaks of a numeral that reads alike half a turn round."""
    bins = len(logits)
    k = int(np.argmax(logits))
    near = np.array([k - 1, k, k + 1]) % bins
    p = np.exp(logits[near] - logits[k])
    t = near * (2 * math.pi / bins)
    return math.degrees(math.atan2(float(p @ np.sin(t)), float(p @ np.cos(t))))
