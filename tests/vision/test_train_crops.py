"""The shared crop convention: centre, margin, edge padding, output size."""

import numpy as np
import pytest

from vision.crops import CROP_MARGIN, fraction_outside, square_bounds, square_crop


def test_square_is_centred_with_margin() -> None:
    x0, y0, side = square_bounds((100, 200, 140, 220))
    assert side == round(CROP_MARGIN * 40)
    assert x0 + side / 2 == pytest.approx(120, abs=1)
    assert y0 + side / 2 == pytest.approx(210, abs=1)


def test_crop_keeps_the_die_centred_and_sized() -> None:
    img = np.zeros((300, 400, 3), np.uint8)
    img[100:140, 200:240] = 255  # a 40 px white "die"
    crop = square_crop(img, (200, 100, 240, 140), 52)
    assert crop.shape == (52, 52, 3)
    # the die fills 1/1.3 of the crop, centred: corners dark, centre white
    assert crop[26, 26].tolist() == [255, 255, 255]
    assert crop[1, 1].tolist() == [0, 0, 0]
    white = (crop[:, :, 0] > 127).sum()
    assert white == pytest.approx((52 / CROP_MARGIN) ** 2, rel=0.1)


def test_crop_outside_the_frame_replicates_edges() -> None:
    img = np.zeros((100, 100, 3), np.uint8)
    img[:, :10] = 200  # left border column is bright
    crop = square_crop(img, (-10, 40, 20, 70), 39)
    assert crop.shape == (39, 39, 3)
    assert crop[20, 0].tolist() == [200, 200, 200]  # replicated, not black


def test_bad_boxes_raise() -> None:
    img = np.zeros((50, 50, 3), np.uint8)
    with pytest.raises(ValueError):
        square_crop(img, (10, 10, 10, 20), 32)
    with pytest.raises(ValueError):
        square_crop(img, (500, 500, 520, 520), 32)


def test_fraction_outside() -> None:
    assert fraction_outside((100, 100), (10, 10, 20, 20)) == 0.0
    assert fraction_outside((100, 100), (90, 10, 110, 20)) == pytest.approx(0.5)
