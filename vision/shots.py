"""Find the one die in a teaching shot, however close the camera was.

A shot for `rollscribe enroll` shows one die alone. Taken as the tray camera sees it, the die is
small and the tray detector boxes it. Held close to the camera, the die fills much of the photo:
the detector, tuned for dice of tray size, then boxes the symbol on the face (or nothing), and the
taught prototype would be that of a symbol crop, never seen at the table. So a close-up is found
as what differs from the photo's corners: a die held close is centred, and even when it reaches
past the frame edges the corners show the table (or hand, or cloth) behind it. The largest
connected region unlike them is the die, cut by the frame edge or not. A die so close that it
covers all four corners leaves nothing to tell its face from a table: its symbol is then taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from vision.detect import Detector, shrink

SIDE = 160  # long side of the image the background is judged on
CORNER = 0.1  # of the short side: the corner squares taken as background
LAB_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)  # shading moves L far more than a and b
MIN_CONTRAST = 18.0  # Lab distance from the background below which a pixel is background
CLOSE_UP = 0.4  # of the photo's short side: a region at least this long is a close-up die
FILLS_FRAME = 0.97  # of both sides: a region this large is the die with no table left around it


class Found(Enum):
    """How a shot's die was found."""

    TRAY = "tray detector"
    UNLIKE_TABLE = "unlike the table"
    CLOSE_UP = "close-up"
    FILLS_FRAME = "fills the frame"


@dataclass(frozen=True)
class ShotDie:
    """Where the shot's die is (pixels of the shot), and how it was found."""

    box: tuple[int, int, int, int]
    how: Found


class ShotError(ValueError):
    """A shot that does not show exactly one die (the message says what was seen)."""


def _distance(lab_difference: np.ndarray) -> np.ndarray:
    """Colour distance, with lightness (moved by shading) counting half."""
    return np.linalg.norm(lab_difference * LAB_WEIGHTS, axis=-1)


def table_colour(lab: np.ndarray) -> np.ndarray:
    """The table's Lab colour at every pixel, spread bilinearly from the four corners (lighting
    falls off across a photo). Corners unlike the table's (the die reaching into them) take
    the median colour of those that are the table."""
    h, w = lab.shape[:2]
    c = max(2, round(CORNER * min(h, w)))
    corners = np.array(
        [
            np.median(lab[ys, xs].reshape(-1, 3), axis=0)
            for ys in (slice(0, c), slice(h - c, h))
            for xs in (slice(0, c), slice(w - c, w))
        ]
    )
    # the table is the largest set of corners alike; between two pairs, the one least like
    # the middle of the photo, where a die held close is
    alike = [
        [j for j in range(4) if _distance(corners[k] - corners[j]) <= 2 * MIN_CONTRAST]
        for k in range(4)
    ]
    middle = np.median(lab[h // 2 - c : h // 2 + c, w // 2 - c : w // 2 + c].reshape(-1, 3), 0)
    table = max(
        alike,
        key=lambda ks: (len(ks), _distance(np.median(corners[ks], axis=0) - middle)),
    )
    corners[[k for k in range(4) if k not in table]] = np.median(corners[table], axis=0)
    u = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    v = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    top = corners[0] * (1 - u) + corners[1] * u
    bottom = corners[2] * (1 - u) + corners[3] * u
    return top * (1 - v) + bottom * v


def unlike_corners(frame: np.ndarray) -> tuple[int, int, int, int] | None:
    """Box (in frame pixels) of the largest region that differs from the colour of the photo's
    corners (most of them table even when the die, held close, reaches the edges),
    or None when nothing stands out."""
    small, scale = shrink(frame, SIDE)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    distance = _distance(lab - table_colour(lab))
    # Otsu splits die from table; the floor keeps sensor noise on an empty table background
    scaled = np.clip(distance * 2, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (distance > max(MIN_CONTRAST, otsu / 2)).astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        return None
    x, y, bw, bh, _ = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))]
    return (
        int(x / scale),
        int(y / scale),
        min(frame.shape[1], round((x + bw) / scale)),
        min(frame.shape[0], round((y + bh) / scale)),
    )


def close_up_in(shape: tuple[int, ...], region: tuple[int, int, int, int] | None) -> ShotDie | None:
    """The die of a close-up photo of `shape` (`region`, the one unlike its corners, spanning
    CLOSE_UP of the short side or more), or None when the photo is not a close-up."""
    h, w = shape[:2]
    if region is None:
        return None
    x0, y0, x1, y1 = region
    if x1 - x0 >= FILLS_FRAME * w and y1 - y0 >= FILLS_FRAME * h:
        # no table is left around it: the die fills the photo, its outline out of frame
        return ShotDie((0, 0, w, h), Found.FILLS_FRAME)
    if max(x1 - x0, y1 - y0) >= CLOSE_UP * min(h, w):
        return ShotDie(region, Found.CLOSE_UP)
    return None


def locate_one_die(frame: np.ndarray, detector: Detector) -> ShotDie:
    """The die of a one-die shot: a close-up by its contrast with the corners, else the tray
    detector's one die (the caller loads it once for all its shots), else, when the detector
    has no peak at all, the region unlike the corners. ShotError when there is no die or there
    are several."""
    region = unlike_corners(frame)
    shot = close_up_in(frame.shape, region)
    if shot is not None:
        return shot
    dice = detector(frame, at_least=1).dice  # a shot shows one die
    if not dice and region is not None:
        # the detector, trained on numbered dice, finds no peak at all on some plain symbol
        # dice (a lone circle); on the plain table of a shot, the region unlike it is the die
        return ShotDie(region, Found.UNLIKE_TABLE)
    if len(dice) != 1:
        found = "no die found" if not dice else f"{len(dice)} dice found"
        raise ShotError(f"{found}; a shot must show the one die being taught")
    return ShotDie(dice[0].box, Found.TRAY)
