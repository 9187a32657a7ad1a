"""Find the dice in a frame with the learned detector (models/detector.onnx): frame -> boxes.

inputs (the frame's long side brought to the card's `side` and its smaller scales, padded to the
network's stride) -> run (a small CenterNet: a heatmap of die centres, each cell's box size and
offset) -> candidates and select (peaks over the card's threshold become boxes in frame
pixels). Each die is one peak, so touching dice, a tray's rim, a hand or a coin need no rules
of their own: they are what it was trained on (vision/train/scenes.py, nell-byler's real
trays). When the game says how many dice were rolled
and fewer peaks clear the threshold, the strongest peaks down to a floor are taken too; a few
more can be kept aside (`spare`) for an expected die none of those looks like.

A hand over the tray (the dice are not settled) is found by its skin colour (`skin_hand`), only
while waiting for the dice to settle.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import ModelError
from vision.model_file import load_card, open_session

DEFAULT_DETECTOR = Path(__file__).resolve().parents[1] / "models" / "detector.onnx"
OUTPUTS = ("heatmap", "size", "offset")
EDGE_MARGIN = 2  # a box within this many pixels of the frame border is cut by the frame
BIG_DIE = 64  # input pixels at one scale: a die this big is left to the next smaller one too
HELD = 0.5  # a die found at one scale this much of a smaller scale's box side: one die (twins)
OVERLAP = 0.6  # IoU over which two peaks are taken for one die (the weaker is dropped)
# A peak boxed under this many input pixels across is no die: the detector learnt dice 10 px
# across and more at its input (vision.train.scenes.DIAMETER); a cloth's spots and a die's pips,
# boxed 5-6 px there, are what it finds smaller (issue 53: a spotted cloth boxed as many d6s)
SMALLEST = 8.0
# A tray's dice are about one size. On a table the detector never saw it scores some of them
# under its threshold, among peaks on pips, edges and spots that are much smaller: so where
# SIZED_AMONG dice or more cleared the threshold (a roll), a weaker peak down to SIZED is a die
# if its side is within SIZED_SIDE of their median side either way and it lies in none of them
# (`sized`).
SIZED = 0.4
SIZED_SIDE = 0.7
SIZED_AMONG = 3
HAND_SIDE = 160  # long side of the image the hand check looks at
HAND_AREA = 0.07  # a skin blob over this fraction of the frame is a hand (or an arm)
HAND_EDGE_AREA = 0.03  # ... or over this fraction while reaching in from the frame border
HAND_MAX_AREA = 0.3  # ... but not one over this (a skin-coloured tray floor or table)
HAND_THICK = 0.2  # ... and this thick (of the frame's short side): a strip of rim is no hand
HAND_FILL = 0.3  # ... filling this share of its box
HAND_SOLID = 0.6  # ... and only one covering this share of its outline (a ring is a table)

Box = tuple[int, int, int, int]  # x0, y0, x1, y1


@dataclass(frozen=True)
class DieBox:
    """One die found in the frame, in full-frame pixels."""

    box: Box  # x0, y0, x1, y1 in pixels (x1, y1 exclusive)
    cut: bool  # touches the frame border: part of the die may be outside
    elongation: float  # long/short side of its box (a cocked d6 is long)
    guessed: bool = False  # not found by the detector: a fallback box (see vision.photo_mode)
    score: float = 1.0  # the detector's peak score (a fallback box: 1)


@dataclass(frozen=True)
class Detection:
    """The dice one frame shows, in reading order (rows a die's side high, left to right)."""

    dice: tuple[DieBox, ...]
    # the next strongest peaks below those, strongest first, when asked for (`spare`): where a
    # die the game expects may be, when no die found looks like it
    spare: tuple[DieBox, ...] = ()


def shrink(image: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """Scale an image down to `side` on its long edge; returns (image, scale factor).

    Area averaging by a whole factor first (fast, and it smooths away sensor noise), then
    bilinear for the rest: INTER_AREA by a fractional factor costs several times more.
    """
    h, w = image.shape[:2]
    scale = min(1.0, side / max(h, w))
    if scale == 1.0:
        return image, 1.0
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    whole = int(1.0 / scale)
    if whole >= 2:
        image = cv2.resize(image, (w // whole, h // whole), interpolation=cv2.INTER_AREA)
    if image.shape[1] != size[0] or image.shape[0] != size[1]:
        image = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    return image, scale


class Detector:
    """The ONNX dice detector; ModelError when the file is missing, corrupt or not a detector."""

    def __init__(self, model_path: Path | str | None = None, threads: int = 2) -> None:
        self.model_path = Path(model_path) if model_path else DEFAULT_DETECTOR
        self.card = load_card(self.model_path)
        try:
            self.side = int(self.card["input"]["side"])
            self.stride = int(self.card["input"]["stride"])
            self.multiple = int(self.card["input"]["multiple"])
            self.threshold = float(self.card["threshold"])
            self.floor = float(self.card["floor"])
            self.scales = tuple(float(v) for v in self.card["input"]["scales"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"detector card for {self.model_path} lacks {exc}") from exc
        self.session: Any = open_session(self.model_path, threads, OUTPUTS)
        self.input_name = self.session.get_inputs()[0].name

    def inputs(self, frame: np.ndarray) -> Iterator[tuple[np.ndarray, float]]:
        """The network's input at each of the frame's `levels`, largest first: the frame with its
        long side brought down to the level (a smaller photo keeps its size: enlarged, its dice
        would outgrow what the network learnt), zero-padded on the right and bottom to a multiple
        of the network's stride, as a float (1, 3, H, W) batch; and the scale from frame to
        input pixels. Each level is shrunk from the one before, by a whole factor where it can
        be: a third of the time of shrinking the whole frame again."""
        image, scale = frame, 1.0
        m = self.multiple
        for level in self.levels(frame):
            image, step = shrink(image, level)
            scale *= step
            sh, sw = image.shape[:2]
            batch = np.zeros((1, 3, -(-sh // m) * m, -(-sw // m) * m), np.float32)
            batch[0, :, :sh, :sw] = image.transpose(2, 0, 1)
            yield batch, scale

    def peaks(self, frame: np.ndarray) -> list[tuple[Box, float]]:
        """Every peak down to the floor as a box in frame pixels with its score: the frame is
        read at each of the card's scales (`inputs`), and the peaks of all of them are taken
        together. A smaller scale finds dice too big for the larger one, as in a close photo, and
        answers only for those: a die BIG_DIE input pixels across or more at the scale before."""
        found: list[tuple[Box, float]] = []
        larger = 0.0  # the frame-to-input scale of the level before
        for batch, scale in self.inputs(frame):
            heat, size, offset = self.session.run(None, {self.input_name: batch})
            peaks = self.candidates(heat[0, 0], size[0], offset[0], scale, frame.shape)
            if larger:
                peaks = [(box, score) for box, score in peaks if side(box) * larger >= BIG_DIE]
                found, peaks = twins(found, peaks, self.threshold)
            found += peaks
            larger = scale
        return found

    def levels(self, frame: np.ndarray) -> list[int]:
        """The long sides the frame is read at: each of the card's scales of `side`, but no
        larger than the frame itself (a photo smaller than `side` is read as it is, not
        enlarged), each once."""
        longest = max(frame.shape[:2])
        out: list[int] = []
        for share in self.scales:
            level = min(round(self.side * share), longest)
            if level not in out:
                out.append(level)
        return out

    def candidates(
        self, heat: np.ndarray, size: np.ndarray, offset: np.ndarray, scale: float,
        shape: tuple[int, ...],
    ) -> list[tuple[Box, float]]:
        """Every peak (the network keeps only local maxima) down to the floor, as a box in
        frame pixels with its score; none boxed smaller than any die it learnt (SMALLEST)."""
        h, w = shape[:2]
        ys, xs = np.nonzero(heat >= self.floor)
        cx = (xs.astype(np.float32) + offset[0, ys, xs]) * self.stride / scale
        cy = (ys.astype(np.float32) + offset[1, ys, xs]) * self.stride / scale
        bw, bh = size[0, ys, xs] / scale, size[1, ys, xs] / scale
        x0 = np.maximum(0, np.round(cx - bw / 2)).astype(int)
        y0 = np.maximum(0, np.round(cy - bh / 2)).astype(int)
        x1 = np.minimum(w, np.round(cx + bw / 2)).astype(int)
        y1 = np.minimum(h, np.round(cy + bh / 2)).astype(int)
        keep = (x1 - x0 >= 2) & (y1 - y0 >= 2) & (
            np.maximum(size[0, ys, xs], size[1, ys, xs]) >= SMALLEST)
        return [((int(a), int(b), int(c), int(d)), float(v)) for a, b, c, d, v in
                zip(x0[keep], y0[keep], x1[keep], y1[keep], heat[ys, xs][keep], strict=True)]

    def select(self, found: list[tuple[Box, float]], at_least: int = 0) -> list[tuple[Box, float]]:
        """The candidates over the threshold, or the `at_least` strongest down to the floor,
        strongest first; of two overlapping ones (one die seen twice) the stronger."""
        kept: list[tuple[Box, float]] = []
        for box, score in sorted(found, key=lambda f: -f[1]):
            if score < self.threshold and len(kept) >= at_least:
                break
            if all(iou(box, other) <= OVERLAP for other, _ in kept):
                kept.append((box, score))
        return kept + sized(found, kept, self.threshold)

    def __call__(self, frame: np.ndarray, at_least: int = 0, spare: int = 0) -> Detection:
        """Find every die in a BGR frame; `at_least`: how many dice the game says are there;
        `spare`: how many of the next strongest peaks to keep aside (Detection.spare)."""
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            raise ValueError(f"expected a BGR frame, got shape {frame.shape}")
        peaks = self.peaks(frame)
        found = self.select(peaks, at_least)
        rest = [(box, score) for box, score in peaks
                if all(iou(box, other) <= OVERLAP for other, _ in found)]
        spares = self.select(rest, spare)[:spare] if spare else []
        dice = [die_box(box, frame.shape, score) for box, score in found]
        return Detection(tuple(dice[i] for i in reading_order(dice)),
                         tuple(die_box(box, frame.shape, score) for box, score in spares))


def sized(found: list[tuple[Box, float]], kept: list[tuple[Box, float]],
          threshold: float) -> list[tuple[Box, float]]:
    """The weaker peaks (SIZED up to the threshold) of about the size of the frame's dice over
    the threshold (SIZED_AMONG of them at least; within SIZED_SIDE of their median side either
    way), strongest first, none inside a kept box or overlapping one."""
    sides = [side(box) for box, score in kept if score >= threshold]
    if len(sides) < SIZED_AMONG:
        return []
    middle, out = float(np.median(sides)), []
    for box, score in sorted(found, key=lambda f: -f[1]):
        if not (SIZED <= score < threshold
                and SIZED_SIDE * middle <= side(box) <= middle / SIZED_SIDE):
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if all(iou(box, other) <= OVERLAP and not (other[0] <= cx <= other[2]
                                                   and other[1] <= cy <= other[3])
               for other, _ in (*kept, *out)):
            out.append((box, score))
    return out


def reading_order(dice: Sequence[DieBox]) -> list[int]:
    """The dice's indices in reading order: rows a die's side high (the median side), left to
    right."""
    sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice]
    row = max(1, int(np.median(sides))) if dice else 1
    return sorted(range(len(dice)), key=lambda i: (dice[i].box[1] // row, dice[i].box[0]))


def die_box(box: Box, shape: tuple[int, ...], score: float = 1.0) -> DieBox:
    """A found box as a die: whether the frame's edge cuts it, and how long it is."""
    width, height = box[2] - box[0], box[3] - box[1]
    return DieBox(box=box, cut=bool(at_border(box[0], box[1], width, height, shape)),
                  elongation=max(width, height) / max(1, min(width, height)), score=score)


def at_border(x: Any, y: Any, w: Any, h: Any, shape: tuple[int, ...]) -> Any:
    """Whether boxes (scalars or arrays of them) touch the border of an image of this shape."""
    sh, sw = shape[:2]
    return (
        (x <= EDGE_MARGIN)
        | (y <= EDGE_MARGIN)
        | (x + w >= sw - EDGE_MARGIN)
        | (y + h >= sh - EDGE_MARGIN)
    )


def skin_hand(frame: np.ndarray) -> bool:
    """A large, solid skin-coloured blob: a hand or an arm over the tray. A wooden table round
    the tray is skin-coloured too, but it is a ring: its outline holds the tray as a hole."""
    small, _ = shrink(frame, HAND_SIDE)
    ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, (50, 135, 80), (255, 175, 130))
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    size = float(skin.shape[0] * skin.shape[1])
    short = min(skin.shape[:2])
    for i, (x, y, w, h, area) in enumerate(stats[1:], 1):
        touches = bool(at_border(x, y, w, h, skin.shape))
        big = area > HAND_AREA * size or (touches and area > HAND_EDGE_AREA * size)
        if not big or area >= HAND_MAX_AREA * size or min(w, h) < HAND_THICK * short:
            continue
        if area < HAND_FILL * w * h:  # an L of table round a tray's corner
            continue
        outline, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                      cv2.CHAIN_APPROX_SIMPLE)
        if area >= HAND_SOLID * max(cv2.contourArea(c) for c in outline):
            return True
    return False


def twins(finer: list[tuple[Box, float]], coarser: list[tuple[Box, float]], threshold: float
          ) -> tuple[list[tuple[Box, float]], list[tuple[Box, float]]]:
    """The larger scales' peaks (`finer`) and a smaller scale's (`coarser`) without the twins
    among them: a coarser box holding finer dice (over the `threshold`, centred in it and at least
    HELD of its side) is one die seen at both scales, and the stronger reading stays. A die too
    big for the larger scale is often boxed there as a mark on it, HELD of it or more but weaker
    than the whole die at the smaller scale: the finer box always staying lost those dice (on
    rendered photos of 2-4 dice apart 93.3% found against 95.8%)."""
    dropped: set[int] = set()
    kept = []
    for box, score in coarser:
        held = [i for i, (die, strength) in enumerate(finer) if i not in dropped
                and strength >= threshold and centred_in(die, box)
                and side(die) >= HELD * side(box)]
        if held and max(finer[i][1] for i in held) >= score:
            continue
        dropped.update(held)
        kept.append((box, score))
    return [peak for i, peak in enumerate(finer) if i not in dropped], kept


def side(box: Sequence[float]) -> float:
    """A box's longer side."""
    return max(box[2] - box[0], box[3] - box[1])


def centred_in(inner: Sequence[float], outer: Sequence[float]) -> bool:
    """Whether `inner`'s centre lies in `outer` (x0, y0, x1, y1 boxes)."""
    x, y = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] <= x <= outer[2] and outer[1] <= y <= outer[3]


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two (x0, y0, x1, y1) boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def pairs(
    found: Sequence[Sequence[float]], truth: Sequence[Sequence[float]]
) -> list[tuple[int, int]]:
    """Found boxes matched one to one with true boxes (IoU >= 0.5, best pairs first), as
    (found index, true index): which die was read as which."""
    scored = sorted(
        ((iou(f, t), i, j) for i, f in enumerate(found) for j, t in enumerate(truth)),
        reverse=True,
    )
    used_f: set[int] = set()
    used_t: set[int] = set()
    out = []
    for score, i, j in scored:
        if score < 0.5:
            break
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            out.append((i, j))
    return out


def matched(found: Sequence[Sequence[float]], truth: Sequence[Sequence[float]]) -> int:
    """How many found boxes match a true box one to one (`pairs`): the count behind detection
    recall (/ truth) and precision (/ found)."""
    return len(pairs(found, truth))
