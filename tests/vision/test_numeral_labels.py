"""The locator's real examples: where a photo's true numeral reads best (vision.train.
numeral_labels), found by the real recognizer on a drawn die."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.numerals import DEFAULT_MODEL, NumeralReader
from vision.train.numeral_labels import Labelled, numeral_place

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/numerals.onnx missing")


def die_showing(numerals: dict[str, tuple[int, int]], angle: float) -> np.ndarray:
    """A 200 px disc with each numeral drawn at its (x, y), all turned `angle` degrees about
    their own centres (cv2's sense: a window turned `angle` stands them upright)."""
    frame = np.full((320, 320, 3), 60, np.uint8)
    cv2.circle(frame, (160, 160), 100, (200, 190, 170), -1)
    for numeral, (x, y) in numerals.items():
        ink = np.zeros((320, 320), np.uint8)
        size, _ = cv2.getTextSize(numeral, cv2.FONT_HERSHEY_DUPLEX, 1.3, 4)
        cv2.putText(ink, numeral, (x - size[0] // 2, y + size[1] // 2),
                    cv2.FONT_HERSHEY_DUPLEX, 1.3, 255, 4, cv2.LINE_AA)
        ink = cv2.warpAffine(ink, cv2.getRotationMatrix2D((x, y), -angle, 1.0), (320, 320))
        frame[ink > 128] = (30, 30, 30)
    return frame


@needs_model
@pytest.mark.parametrize("angle", [0, 40, 200])
def test_the_true_numeral_is_found_where_it_lies_and_as_it_stands(angle: float) -> None:
    """A die seen from the side: its top face's 17 above the centre, the 4 facing the camera
    below; the label is the 17's place and turn, not the 4's."""
    frame = die_showing({"17": (160, 112), "4": (160, 205)}, angle)
    x, y, turn, share = numeral_place(NumeralReader(threads=1), frame, (60, 60, 260, 260),
                                      "d20", 17)
    assert share >= 0.8
    assert np.hypot(x - 160, y - 112) <= 0.12 * 200
    assert abs((turn - angle + 180) % 360 - 180) <= 30


def test_a_rig_is_left_out_whole() -> None:
    crops = Labelled(np.zeros((3, 4, 4, 3), np.uint8), np.zeros((3, 4), np.float32),
                     ("a", "b", "a"))
    kept = crops.without("a")
    assert kept.rigs == ("b",) and len(kept.images) == len(kept.labels) == 1
    assert crops.without(None).rigs == crops.rigs


def test_real_crops_are_turned_only_a_little_in_training() -> None:
    """Photos are taken upright: the top face of a die seen from the side lies towards the
    photo's top, which a full turn in training would teach the locator to ignore."""
    top_face = pytest.importorskip("vision.train.top_face")  # needs torch (the train extra)
    rng = np.random.default_rng(3)
    image = np.zeros((top_face.RENDER, top_face.RENDER, 3), np.uint8)
    label = np.array((48.0, 30.0, 0.0, 1.0), np.float32)
    turns = []
    for upright in (True, False):
        targets = [top_face.augment(image, label, rng, upright=upright)[1] for _ in range(200)]
        turns.append(np.degrees(np.abs(np.arctan2([t[3] for t in targets],
                                                  [t[2] for t in targets]))))
    assert turns[0].max() <= top_face.REAL_TURN + 1e-3
    assert turns[1].max() > 90
