"""The one crop convention shared by detection, training and classification.

Training crops (renderer boxes, real photos) and runtime crops (detector boxes) must be cut the
same way, or the classifier sees a different framing at runtime than it learnt from.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

# Side of the square crop relative to the longer side of the die's box: a little context around
# the die (neighbour edges, shadow) so a slightly loose or tight box still shows the whole die.
CROP_MARGIN = 1.3


def square_bounds(box: Sequence[float]) -> tuple[int, int, int]:
    """Return (x0, y0, side) of the square crop for a box (x0, y0, x1, y1) in pixels."""
    x0, y0, x1, y1 = (float(v) for v in box)
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"empty box {tuple(box)}")
    side = max(1, round(CROP_MARGIN * max(x1 - x0, y1 - y0)))
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    return round(cx - side / 2.0), round(cy - side / 2.0), side


def widened(box: Sequence[float], factor: float) -> tuple[float, float, float, float]:
    """The box grown `factor` times about its centre (training keeps crops WIDE times the
    convention's side, so framing can be jittered both ways)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half_w, half_h = (x1 - x0) * factor / 2, (y1 - y0) * factor / 2
    return (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


def square_crop(image_bgr: np.ndarray, box: Sequence[float], size: int) -> np.ndarray:
    """Cut the square around a die's box, replicating edges outside the frame, as size x size.

    The square is centred on the box centre with side CROP_MARGIN * max(w, h), so the die's
    scale in the crop is the same whatever its aspect in the frame.
    """
    if image_bgr.ndim < 2 or image_bgr.shape[0] == 0 or image_bgr.shape[1] == 0:
        raise ValueError("empty image")
    h, w = image_bgr.shape[:2]
    sx, sy, side = square_bounds(box)
    pad_l, pad_t = max(0, -sx), max(0, -sy)
    pad_r, pad_b = max(0, sx + side - w), max(0, sy + side - h)
    cx0, cy0 = max(0, sx), max(0, sy)
    cx1, cy1 = min(w, sx + side), min(h, sy + side)
    if cx1 <= cx0 or cy1 <= cy0:
        raise ValueError(f"box {tuple(box)} lies outside the {w}x{h} image")
    patch = image_bgr[cy0:cy1, cx0:cx1]
    if pad_l or pad_t or pad_r or pad_b:
        patch = cv2.copyMakeBorder(patch, pad_t, pad_b, pad_l, pad_r, cv2.BORDER_REPLICATE)
    return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)


def fraction_outside(image_shape: Sequence[int], box: Sequence[float]) -> float:
    """Fraction of the box's area that lies outside the frame (a die half out of frame is unsure)."""
    h, w = int(image_shape[0]), int(image_shape[1])
    x0, y0, x1, y1 = (float(v) for v in box)
    area = max(1e-9, (x1 - x0) * (y1 - y0))
    ix = max(0.0, min(x1, w) - max(x0, 0.0))
    iy = max(0.0, min(y1, h) - max(y0, 0.0))
    return float(1.0 - ix * iy / area)


def crop_batch(crops: Sequence[np.ndarray], size: int) -> np.ndarray:
    """BGR uint8 crops -> the float32 (N, 3, size, size) batch the crop models read (the dice
    classifier, the memory's key); crops of another size are resized."""
    batch = np.empty((len(crops), 3, size, size), np.float32)
    for i, crop in enumerate(crops):
        if crop.ndim != 3 or crop.shape[2] != 3:
            raise ValueError(f"crop {i} is not a BGR image: shape {crop.shape}")
        if crop.shape[:2] != (size, size):
            crop = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)
        batch[i] = crop.transpose(2, 0, 1)
    return batch
