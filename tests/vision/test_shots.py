"""The one die of a teaching shot, from tray distance to a close-up filling the photo."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import Detection, Detector, DieBox, iou
from vision.shots import Found, ShotError, locate_one_die
from vision.train.labels import KINDS
from vision.train.render import paste, random_spec, render_die, shadow

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


SPANS = (0.45, 0.6, 0.75, 0.9, 1.0, 1.2)  # a close-up die's side, in the photo's height
CLOSE_UPS = 16  # close-ups drawn at each span


def test_a_close_up_is_boxed_by_its_outline_not_its_symbol() -> None:
    """Pooled over CLOSE_UPS shots at each span: nearly all boxed by the die's outline, and at
    every span most. Over 200 other seeds each span below 1.2 missed at most one shot, and a
    die larger than the photo (1.2) about one in nine (a box on part of it): four seeds a span,
    every one required, held only on seeds 0-3."""
    def no_detector(frame: np.ndarray, at_least: int = 0) -> Detection:
        raise AssertionError("a close-up is found without the detector")

    boxed: dict[float, list[bool]] = {span: [] for span in SPANS}
    for span in SPANS:
        for seed in range(CLOSE_UPS):
            image = table(seed)
            truth = die_on(image, (W / 2 + 20 * (seed % 4 - 2), H / 2), span * H, seed)
            found = locate_one_die(np.clip(image, 0, 255).astype(np.uint8), no_detector)
            assert found.how in (Found.CLOSE_UP, Found.FILLS_FRAME)
            boxed[span].append(iou(found.box, truth) > 0.8)
    assert all(sum(b) > CLOSE_UPS / 2 for b in boxed.values()), boxed
    assert sum(map(sum, boxed.values())) >= 0.9 * CLOSE_UPS * len(SPANS), boxed


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


def rendered_dice_on(image: np.ndarray, spots: list[tuple[float, float]], seed: int) -> list:
    """Rendered dice (70 px across, kinds in turn) pasted at these spots; their boxes."""
    rng = np.random.default_rng(seed)
    boxes = []
    for i, (x, y) in enumerate(spots):
        spec = random_spec(rng, KINDS[(seed + i) % len(KINDS)], diameter=70.0)
        boxes.append(paste(image, render_die(spec, rng), x, y, shadow(rng, spec.diameter)))
    return boxes


TRAY_SHOTS = 32  # shots of one die at tray distance


def test_a_shot_at_tray_distance_uses_the_tray_detector(detector: Detector) -> None:
    """A die at tray size on a table is boxed by the tray detector, pooled over TRAY_SHOTS
    shots (300 other seeds: 97.7%, so 7 of 8 shots, the bar once, failed a set in 70)."""
    right = 0
    for seed in range(TRAY_SHOTS):
        image = table(20 + seed)
        k = seed % 8
        [truth] = rendered_dice_on(image, [(400 - 20 * k, 200 + 10 * k)], seed)
        try:
            found = locate_one_die(np.clip(image, 0, 255).astype(np.uint8), detector)
        except ShotError:
            continue
        right += found.how is Found.TRAY and iou(found.box, truth) > 0.5
    assert right >= 7 / 8 * TRAY_SHOTS, f"{right} of {TRAY_SHOTS} shots boxed by the detector"


def test_the_detector_given_is_the_one_asked() -> None:
    """Not a close-up: the detector passed in is asked, and its one die is the shot's."""
    seen = []

    def one_die(frame: np.ndarray, at_least: int = 0) -> Detection:
        seen.append(frame.shape)
        return Detection((DieBox((10, 20, 60, 70), cut=False, elongation=1.0),))

    image = np.clip(table(5), 0, 255).astype(np.uint8)
    found = locate_one_die(image, one_die)  # type: ignore[arg-type]
    assert seen == [(H, W, 3)] and found.box == (10, 20, 60, 70) and found.how is Found.TRAY


def test_no_die_or_several_dice_are_refused(detector: Detector) -> None:
    with pytest.raises(ShotError, match="no die found"):
        locate_one_die(np.clip(table(3), 0, 255).astype(np.uint8), detector)
    refused = 0
    for seed in range(6):
        image = table(40 + seed)
        rendered_dice_on(image, [(150, 240), (330, 240), (500, 240)], 10 + seed)
        try:
            locate_one_die(np.clip(image, 0, 255).astype(np.uint8), detector)
        except ShotError as exc:
            refused += "dice found" in str(exc)
    assert refused >= 5, f"{refused} of 6 shots of three dice refused"


def test_a_die_the_detector_finds_nothing_on_is_the_part_unlike_the_table() -> None:
    """A plain die (a lone circle) on which the detector has no peak at all: on a shot's plain
    table it is the region unlike the corners; a table with nothing on it is still refused."""
    def nothing(frame: np.ndarray, at_least: int = 0) -> Detection:
        return Detection(())

    image = np.clip(table(7), 0, 255).astype(np.uint8)
    with pytest.raises(ShotError, match="no die found"):
        locate_one_die(image, nothing)  # type: ignore[arg-type]
    cv2.rectangle(image, (380, 150), (470, 240), (200, 90, 30), -1)  # a blue die, 90 px
    cv2.circle(image, (425, 195), 28, (245, 245, 245), 4)
    found = locate_one_die(image, nothing)  # type: ignore[arg-type]
    assert found.how is Found.UNLIKE_TABLE and iou(found.box, (380, 150, 471, 241)) > 0.8
