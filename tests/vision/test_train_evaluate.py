"""Measuring a model: the per-run breakdown that shows shortcuts (a run read as another value)."""

from pathlib import Path

import numpy as np

from vision.classify import FaceReading
from vision.train.evaluate import run_lines
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
