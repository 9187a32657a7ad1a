"""The top-face locator on fresh renders (seeds it never trained on), and its model file checks."""

import dataclasses
import shutil

import numpy as np
import pytest

from vision.crops import CROP_MARGIN, widened
from vision.errors import ModelError
from vision.top_face import DEFAULT_MODEL, TopFaceLocator
from vision.train.render import random_style, render_crop

KINDS = ("d4", "d6", "d8", "d10", "d%", "d12", "d20")
SIZE = 128  # the test's "frame": a rendered crop, the die's box its convention square inside


@pytest.fixture(scope="module")
def located() -> list[tuple[float, float, float, float]]:
    """(angle error in degrees, centre error in die sides, facing, visible) per render; one in
    ten is of bare table (no numeral: NaN errors, facing 0)."""
    rng = np.random.default_rng(20260)  # training seeds its renders (0, shard)
    locator = TopFaceLocator()
    half = SIZE / CROP_MARGIN / 2
    box = (SIZE / 2 - half, SIZE / 2 - half, SIZE / 2 + half, SIZE / 2 + half)
    out = []
    for i in range(200):
        style = dataclasses.replace(random_style(rng), pips=False)
        state = "empty" if i % 10 == 9 else "flat"
        crop = render_crop(rng, SIZE, KINDS[i % len(KINDS)], state=state, style=style)
        (face,) = locator.locate(crop.image, [box])
        n = crop.numeral
        if n is None:
            out.append((np.nan, np.nan, 0.0, face.visible))
            continue
        turn = abs((face.angle_deg - n.angle + 180) % 360 - 180)
        centre = np.hypot(face.x - n.x, face.y - n.y) / (2 * half)
        out.append((turn, centre, n.facing, face.visible))
    return out


def test_angle_and_centre_of_showing_numerals(located):
    shown = [(turn, centre) for turn, centre, facing, _ in located if facing >= 0.4]
    assert len(shown) > 140
    turns = np.array([t for t, _ in shown])
    centres = np.array([c for _, c in shown])
    # the shipped model on these renders: 81% and 78% (176 numerals: a share's spread is 3%)
    assert (turns <= 20).mean() > 0.6, np.median(turns)
    assert (centres <= 0.1).mean() > 0.6, np.median(centres)


def test_visible_follows_the_face(located):
    facing = np.array([f for *_, f, _ in located])
    visible = np.array([v for *_, v in located])
    # measured 97.5%, and every crop of bare table said not to show
    assert ((visible > 0.5) == (facing >= 0.4)).mean() > 0.85
    assert (visible[facing == 0] < 0.5).mean() > 0.8


def test_the_dies_side_whatever_the_box():
    """The die's side as the locator sees it through a box too tight or too loose (the reader
    cuts its windows to it): near the die's own, not the box's."""
    rng = np.random.default_rng(20261)
    locator = TopFaceLocator()
    half = SIZE / CROP_MARGIN / 2
    box = (SIZE / 2 - half, SIZE / 2 - half, SIZE / 2 + half, SIZE / 2 + half)
    seen = {loose: [] for loose in (0.8, 1.25)}
    for i in range(60):
        style = dataclasses.replace(random_style(rng), pips=False)
        image = render_crop(rng, SIZE, KINDS[i % len(KINDS)], style=style).image
        for loose, sides in seen.items():
            (face,) = locator.locate(image, [widened(box, loose)])
            sides.append(face.side / (2 * half))
    for loose, sides in seen.items():
        errors = np.abs(np.array(sides) - 1)
        # the box alone would be 20% / 25% off; the shipped model: a median 5% off, 95% and
        # 98% of dice within 15%
        assert np.median(errors) < 0.1 and (errors < 0.15).mean() > 0.7, (loose, np.median(sides))


def test_a_die_seen_from_the_side_by_a_level_camera_is_found_above_its_middle():
    """Seen from the side by a camera held level (a photo), a die's top face lies above its
    middle, squashed, and the face turned to the camera is not it: the locator, taught by such
    renders kept the right way up, finds that numeral: of these 100, within a tenth of the die's
    side 54 (the model before them, which saw every die turned any way round: 16)."""
    rng = np.random.default_rng(20262)
    locator = TopFaceLocator()
    half = SIZE / CROP_MARGIN / 2
    box = (SIZE / 2 - half, SIZE / 2 - half, SIZE / 2 + half, SIZE / 2 + half)
    near, shown = 0, 0
    for i in range(100):
        style = dataclasses.replace(random_style(rng), pips=False)
        crop = render_crop(rng, SIZE, KINDS[i % len(KINDS)], style=style, level_deg=(30.0, 55.0))
        if crop.numeral is None or crop.numeral.facing < 0.4:
            continue
        shown += 1
        (face,) = locator.locate(crop.image, [box])
        near += np.hypot(face.x - crop.numeral.x, face.y - crop.numeral.y) < half / 5
    assert shown > 70 and near > 0.4 * shown, (near, shown)


def test_locate_nothing_is_nothing():
    assert TopFaceLocator().locate(np.zeros((50, 50, 3), np.uint8), []) == []


def test_missing_model_is_a_model_error(tmp_path):
    with pytest.raises(ModelError):
        TopFaceLocator(tmp_path / "top_face.onnx")


def test_corrupt_model_is_a_model_error(tmp_path):
    for suffix in (".onnx", ".json"):
        shutil.copy(DEFAULT_MODEL.with_suffix(suffix), tmp_path / f"top_face{suffix}")
    path = tmp_path / "top_face.onnx"
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(ModelError):
        TopFaceLocator(path)
