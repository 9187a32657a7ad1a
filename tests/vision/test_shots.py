"""The one die of a teaching shot, from tray distance to a close-up filling the photo."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import iou
from vision.shots import Found, ShotError, locate_one_die

H, W = 480, 640


def table(seed: int) -> np.ndarray:
    """A table of random colour with noise and a lighting falloff across it."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(30, 200, 3)
    falloff = np.linspace(0.85, 1.1, W, dtype=np.float32)[None, :, None]
    image = base * falloff + rng.normal(0, 4, (H, W, 3))
    return image.astype(np.float32)


def die_on(image: np.ndarray, centre: tuple[float, float], side: float, seed: int) -> tuple:
    """Draw a turned square die with a symbol on it; its true box, clipped to the photo."""
    rng = np.random.default_rng(seed)
    corners = cv2.boxPoints((centre, (side, side), float(rng.uniform(0, 90))))
    colour = rng.uniform(0, 255, 3)
    while np.linalg.norm(colour - image[H // 2, W // 2]) < 120:  # a die that stands out
        colour = rng.uniform(0, 255, 3)
    cv2.fillPoly(image, [corners.astype(np.int32)], colour.tolist(), cv2.LINE_AA)
    cv2.circle(image, (int(centre[0]), int(centre[1])), int(side * 0.25), (250, 250, 250), -1)
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    return (max(0, x0), max(0, y0), min(W, x1), min(H, y1))


@pytest.mark.parametrize("span", [0.45, 0.6, 0.75, 0.9, 1.0, 1.2])
def test_a_close_up_is_boxed_by_its_outline_not_its_symbol(span: float) -> None:
    for seed in range(4):
        image = table(seed)
        truth = die_on(image, (W / 2 + 20 * (seed - 2), H / 2), span * H, seed)
        found = locate_one_die(np.clip(image, 0, 255).astype(np.uint8))
        assert found.how in (Found.CLOSE_UP, Found.FILLS_FRAME)
        assert iou(found.box, truth) > 0.8, (seed, found.box, truth)


def test_a_shot_at_tray_distance_uses_the_tray_detector() -> None:
    image = table(7)
    truth = die_on(image, (400, 200), 0.18 * H, 7)
    found = locate_one_die(np.clip(image, 0, 255).astype(np.uint8))
    assert found.how is Found.TRAY and iou(found.box, truth) > 0.6


def test_no_die_or_several_dice_are_refused() -> None:
    with pytest.raises(ShotError, match="no die found"):
        locate_one_die(np.clip(table(3), 0, 255).astype(np.uint8))
    image = table(4)
    for i, x in enumerate((150, 330, 500)):
        die_on(image, (x, 240), 0.16 * H, 10 + i)
    with pytest.raises(ShotError, match="3 dice found"):
        locate_one_die(np.clip(image, 0, 255).astype(np.uint8))
