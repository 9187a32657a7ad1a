"""Measuring a model: the per-run breakdown that shows shortcuts (a run read as another value),
and the held-out crops as smaller dice give them."""

from pathlib import Path

import cv2
import numpy as np

from vision.classify import FaceReading
from vision.crops import square_crop
from vision.train.dataset import Arrays
from vision.train.evaluate import as_small_die, run_lines, small_dice
from vision.train.realdata import Photo


def _photo(run: str, kind: str, value: int) -> Photo:
    return Photo(Path(f"{run}.jpg"), kind, value, "d20_top", run, True)


def _read(die: str, value: int) -> FaceReading:
    return FaceReading(die, value, 0.9, "flat", np.zeros(64, np.float32))


def test_each_run_gets_its_share_read_right_and_what_it_is_read_as() -> None:
    photos = [_photo("black", "d20", 1)] * 4 + [_photo("red", "d20", 20)] * 2
    readings = [_read("d20", 20)] * 3 + [_read("d20", 1)] + [_read("d20", 20), _read("d12", 20)]
    black, red = run_lines(photos, readings)
    assert black.startswith("d20    1 n=   4 right 25.0%  read as d20:20 x3, d20:1 x1")
    assert black.endswith("(d20_top: black)")
    assert red.startswith("d20   20 n=   2 right 50.0%  read as d20:20 x1, d12:20 x1")


def test_a_small_die_crop_is_what_square_crop_cuts_from_a_frame_where_the_die_is_that_small() -> None:
    """as_small_die stands for a camera further off: the held-out crop brought down and enlarged
    back gives the crop the runtime would cut from the frame scaled so the die spans 37 px."""
    rng = np.random.default_rng(0)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (260, 260, 3), dtype=np.uint8), (0, 0), 1.5)
    box = (65, 65, 195, 195)  # a 130 px die, as the held-out photos' dice are
    crop = square_crop(frame, box, 96)
    scale = 37 / 130
    far = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    expected = square_crop(far, [v * scale for v in box], 96).astype(float)
    small = as_small_die(crop[None], 37)[0].astype(float)
    assert small.shape == crop.shape
    # within a few grey levels of the far camera's crop (the two square the die's box apart
    # by a fraction of a pixel), and half as far from it as the held-out crop itself is
    off = np.abs(small - expected).mean()
    assert off < 3.0 and off < 0.6 * np.abs(crop.astype(float) - expected).mean()
    data = Arrays(crop[None], np.zeros(1, int), np.zeros(1, int), np.zeros(1, int), np.zeros(1, bool))
    assert np.array_equal(small_dice(data, 37).images[0], small.astype(np.uint8))
