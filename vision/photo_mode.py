"""Photo mode: the dice of a photo, which may show one die closer or less plainly than a tray
camera ever would (`rollscribe read` on anyone's photos, never the tray camera).

The tray detector (vision.detect) learnt dice of tray size, 25-200 px across in a tray camera's
frame. A photo may show one die far larger: the detector may then box the marks on its face as
dice, take it apart into pieces, or find nothing. Each rule below reads a larger box as one die
and keeps it only when the classifier backs it (surer than the boxes it stands for), so that
photos of several dice apart still read as several dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

import cv2
import numpy as np

from companion.reading import DieReading, join_reasons
from vision.crops import widened
from vision.detect import Box, DieBox, at_border, centred_in, shrink, side
from vision.shots import close_up_in, unlike_corners

FALLBACK_SIDE = 0.6  # of the image's short side: the box read when no die outline is found
FRAGMENTS_SPAN = 3.5  # the pieces of one die span at most this many piece sides
SPECK = 0.3  # of the side of the largest die surely there: a doubted box this small is no die
SURE_PIECE = 0.5  # two boxes read at least this surely may be a photo of dice, not a close-up
MARKS_INSIDE = 0.75  # share of the boxes inside a close-up die for them to be its marks ...
MARK_SIDE = 0.3  # ... each under this share of the die's side
REGION_SPAN = 2.0  # a die's region spans at most this many times what its marks span
# A region unlike the corners this large both ways (of the photo's sides) with the detector's
# strongest peak under FAINT_SIDE of its side in it is a tray or a cloth holding a die, not a
# close-up die (whose faint peaks are marks on it, a third of its side or more)
TRAY_REGION = 0.75
FAINT_SIDE = 0.3
PLAIN = 0.05  # ... and under this share of the rest of it on an edge: trays 0.02-0.03, close-up
EDGE = 60.0  # dice 0.07-0.26 (a Sobel gradient this strong, grey levels, is an edge)
EDGES_SIDE = 320  # px across the photo is looked at for edges
# Dice cannot overlap: this many boxes or more whose centres lie, in the median, closer to their
# nearest neighbour than CROWDED_GAP box sides, most of them (CROWDED_UNSURE) read unsure, are the
# marks and facets of one large die taken apart. Dice lying apart on a tray keep a median gap of
# more than a side.
CROWDED = 5
CROWDED_GAP = 1.0
CROWDED_UNSURE = 0.75
# A lone doubted box is a close-up die's mark only with its centre in this middle share of the
# die's region (lone_mark): a die at the edge of the part of a tray in the photo is a die. Chosen
# on the frames of docs/reader-history.md: the middle half read fewer upscaled photos (255).
MIDDLE = 0.75
# A peak the detector scored under its threshold, read as the photo's die, is never sure: its
# box may hold part of the die (a d4 seen from above boxed on one face, read surely as a
# numbered d6 showing its 3: docs/reader-history.md)
FAINT_PEAK = "found only faintly: the box may hold part of the die"


def photo_dice(
    frame: np.ndarray,
    boxes: Sequence[DieBox],
    dice: list[DieReading],
    read_as: Callable[[DieBox], list[DieReading]],
    faint: Sequence[DieBox] = (),
) -> list[DieReading]:
    """The dice of a photo, given the tray detector's `boxes` and the `dice` read from them;
    `read_as` reads one box as a die (an empty list when the classifier sees no die in it);
    `faint`: the detector's peaks under its threshold, strongest first."""

    @cache
    def unlike() -> Box | None:  # the region unlike the photo's corners, found once if at all
        return unlike_corners(frame)

    kept = without_pieces(dice)  # first: a die boxed twice is one die, not a close-up's marks
    dropped = {d.box for d in dice} - {d.box for d in kept}
    boxes, dice = [b for b in boxes if b.box not in dropped], kept
    if not dice and faint and held_by_table(frame, faint[0].box, unlike()):
        # nothing cleared the threshold, and the strongest peak lies small in a region that is a
        # tray, not a close-up die: one die on a table the detector never saw (a small die in a
        # large dark tray scores under the threshold), which the region would read as a die
        whole = faintly(read_as(faint[0]))
        if whole:
            return whole
        faint = faint[1:]  # read: no die
    one_mark = len(dice) == 1 and dice[0].unsure and lone_mark(frame, dice[0], boxes, unlike())
    shot = close_up_in(frame.shape, unlike()) if len(dice) != 1 or one_mark else None
    if shot is not None:
        # a photo of a die taken close: the tray detector, which learnt dice of tray size, may
        # box its marks as dice (or nothing); the region unlike the corners is the die
        sure = [d.confidence for d in dice if d.confidence >= SURE_PIECE]
        # pieces read surely are dice, unless they lie on the close-up die, small beside
        # it, and the die reads surer than any of them
        if len(sure) < 2 or marks_on(shot.box, boxes):
            whole = read_as(close_up_box(frame, shot.box))
            if whole and (len(sure) < 2 or whole[0].confidence > max(sure)) and (
                    not one_mark or seen_whole(whole[0])):
                return whole
    if not dice:
        # nothing read: no outline found (a plain die the detector scores low, on a plain table:
        # the region unlike the corners is where it is), or only parts of a die that fills the
        # photo (its pips), which the classifier saw hold no die
        region = unlike()
        if shot is None and region is not None:
            whole = read_as(guessed_box(frame, region))
            if whole:
                return whole
        for peak in faint:  # a weaker peak the classifier reads as a die, before a blind guess
            whole = faintly(read_as(peak))
            if whole:
                return whole
        return read_as(guessed_box(frame, middle_box(frame)))
    if crowded_marks(dice):
        # boxes overlapping like no dice can: one die's marks; read it whole (flagged if the
        # classifier doubts it) rather than report its marks as dice
        whole = read_as(die_of_marks(frame, boxes, unlike()))
        if whole:
            return whole
    doubted = all(d.unsure for d in dice)
    region = die_region(unlike(), boxes) if doubted else None
    if region is not None:
        # every box doubted, all on the one region unlike the photo's corners: the marks or
        # pieces of a die whose outline the detector missed (a dark die on a dark table, a
        # d4 cut in two by its edge); kept if read surer than any box, and sure unless the
        # boxes are small marks on it
        whole = read_as(close_up_box(frame, region))
        surer = bool(whole) and whole[0].confidence > max(d.confidence for d in dice)
        if surer and (marks_on(region, boxes) or not whole[0].unsure):
            return whole
    pieces = fragments_of_one(boxes)
    if pieces is not None:
        # one die on a busy surface can fall apart into a few pieces: read it whole too and
        # keep that if the classifier is surer of it than of any piece, and sure of it
        # unless it doubts every piece too (then one doubtful die, not several)
        joined = read_as(pieces)
        best = max(d.confidence for d in dice)
        if joined and joined[0].confidence > best and (doubted or not joined[0].unsure):
            return joined
    return dice


def without_pieces(dice: list[DieReading]) -> list[DieReading]:
    """The dice without the doubted boxes that are no die beside a die surely there. Dice
    cannot overlap: a doubted box centred on a larger die is a piece of it. Surely a die, not
    surely read: a taught die whose face is in doubt (two of its faces alike) is a die all the
    same, and its doubt must not make its pieces dice. Nor is a doubted box far smaller than a
    die surely there: the dice of one photo lie at one distance from the camera, and a spot of a
    cloth or a die's pip is no die."""
    dies = [d.box for d in dice if not d.unsure or d.confidence >= SURE_PIECE]
    biggest = max(map(side, dies), default=0)
    return [d for d in dice if not d.unsure or not (
        side(d.box) < SPECK * biggest or any(piece_of(d.box, s) for s in dies))]


def faintly(dice: list[DieReading]) -> list[DieReading]:
    """Dice read from a peak under the detector's threshold, each asked (FAINT_PEAK)."""
    return [replace(d, unsure=True, why_unsure=join_reasons(d.why_unsure, FAINT_PEAK))
            for d in dice]


def seen_whole(die: DieReading) -> bool:
    """Whether a region read in place of one die's box, as the close-up die that box would be a
    mark on, reads as a die: its face settled it (its numeral read, its pips counted), or its
    kind and face sure. A tray's floor round a die alone reads as a doubted pipped d6 (a 1: no
    pips), and the die, read by its numeral, would be lost to it (issue 53's tray boxed as a
    d6)."""
    return die.settled or not die.unsure


def held_by_table(frame: np.ndarray, peak: Box, region: Box | None) -> bool:
    """Whether the region unlike the photo's corners is no close-up die round the detector's
    peak: none, one too small for a close-up (a patch of the table, or the die itself), or a
    tray: one nearly filling the photo with the peak small in it and plain round it (a close-up
    die shows its facets' edges and other marks there)."""
    if close_up_in(frame.shape, region) is None:
        return True
    return (tray_sized(frame, region) and side(peak) < FAINT_SIDE * side(region)
            and edges_round(frame, region, peak) < PLAIN)


def tray_sized(frame: np.ndarray, region: Box | None) -> bool:
    """Whether the region unlike the photo's corners nearly fills it both ways, as a tray does."""
    if region is None:
        return False
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = region
    return x1 - x0 >= TRAY_REGION * w and y1 - y0 >= TRAY_REGION * h


def edges_round(frame: np.ndarray, region: Box, peak: Box) -> float:
    """The share of the region's pixels, the peak's box grown by half left out, on a strong
    edge (seen at EDGES_SIDE px across)."""
    small, scale = shrink(frame, EDGES_SIDE)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    strength = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    inside = np.zeros(grey.shape, bool)
    x0, y0, x1, y1 = (round(v * scale) for v in region)
    inside[y0:y1, x0:x1] = True
    px0, py0, px1, py1 = peak
    gx, gy = (px1 - px0) / 2, (py1 - py0) / 2
    inside[max(0, round((py0 - gy) * scale)):round((py1 + gy) * scale),
           max(0, round((px0 - gx) * scale)):round((px1 + gx) * scale)] = False
    return float((strength[inside] > EDGE).mean()) if inside.any() else 0.0


def piece_of(inner: Box, outer: Box) -> bool:
    """Whether `inner` is centred in `outer` and smaller than it."""
    def area(box: Box) -> float:
        return float((box[2] - box[0]) * (box[3] - box[1]))
    return centred_in(inner, outer) and area(inner) < area(outer)


def lone_mark(frame: np.ndarray, die: DieReading, boxes: Sequence[DieBox],
              region: Box | None) -> bool:
    """Whether the one doubted box a photo holds is a mark on a die it holds close (a phone's
    full-size photo: the tray detector boxed the numeral): small on the close-up region, in its
    MIDDLE, and that region no tray holding the die (tray-sized) nor a part of a tray with the
    die at its edge. ucffool's photos upscaled 4 times, every 32nd of each run: 249 -> 264 of
    303 read right (at their own size 262 -> 267; docs/reader-history.md)."""
    shot = close_up_in(frame.shape, region)
    return (shot is not None and not tray_sized(frame, region) and marks_on(shot.box, boxes)
            and centred_in(die.box, widened(shot.box, MIDDLE)))


def marks_on(box: Box, pieces: Sequence[DieBox]) -> bool:
    """Whether boxes look like the marks on one big die in `box`: most of them inside it and
    each far smaller than it (dice huddled in a clump are each a good part of the clump)."""
    x0, y0, x1, y1 = box
    inside = [p for p in pieces if centred_in(p.box, box)]
    if len(inside) < MARKS_INSIDE * len(pieces):
        return False
    side = float(np.median([max(p.box[2] - p.box[0], p.box[3] - p.box[1]) for p in inside]))
    return side < MARK_SIDE * max(x1 - x0, y1 - y0)


def around(boxes: Sequence[Box]) -> Box:
    """The box around boxes."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def crowded_marks(dice: Sequence[DieReading]) -> bool:
    """Whether read boxes crowd and overlap like the marks of one die, not lie apart like dice."""
    if len(dice) < CROWDED or sum(d.unsure for d in dice) < CROWDED_UNSURE * len(dice):
        return False
    boxes = np.array([d.box for d in dice], np.float64)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    side = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    np.fill_diagonal(gaps, np.inf)
    return float(np.median(gaps.min(axis=1))) < CROWDED_GAP * side


def die_region(region: Box | None, pieces: Sequence[DieBox]) -> Box | None:
    """The region unlike the photo's corners (shots.unlike_corners) when it holds most of the
    boxes and is not far larger than they span: on a blotchy table the region is a blotch, or
    the whole photo."""
    if region is None:
        return None
    x0, y0, x1, y1 = region
    inside = [p for p in pieces if centred_in(p.box, region)]
    if not inside or len(inside) < MARKS_INSIDE * len(pieces):
        return None
    a0, b0, a1, b1 = around([p.box for p in inside])
    return region if max(x1 - x0, y1 - y0) <= REGION_SPAN * max(a1 - a0, b1 - b0) else None


def die_of_marks(frame: np.ndarray, marks: Sequence[DieBox], unlike: Box | None) -> DieBox:
    """The die whose marks the boxes are: `unlike`, the region unlike the photo's corners, when
    they lie on it (it holds the die's outline, which the marks miss), else the box around them."""
    region = die_region(unlike, marks)
    if region is not None and marks_on(region, marks):
        return close_up_box(frame, region)
    return DieBox(box=around([m.box for m in marks]), cut=any(m.cut for m in marks), elongation=1.0)


def fragments_of_one(dice: Sequence[DieBox]) -> DieBox | None:
    """The box around three or more small boxes huddled together as the pieces of one die, or
    None when they are spread like separate dice."""
    if len(dice) < 3:
        return None
    x0, y0, x1, y1 = around([d.box for d in dice])
    piece = float(np.median([max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice]))
    span, short = max(x1 - x0, y1 - y0), max(1, min(x1 - x0, y1 - y0))
    # a die's pieces stay within a few piece sides of each other, in a squarish box (dice
    # huddled together look the same: the reader keeps the whole only if the classifier is sure)
    if span > FRAGMENTS_SPAN * piece or span > 1.6 * short:
        return None
    return DieBox(box=(x0, y0, x1, y1), cut=any(d.cut for d in dice), elongation=1.0)


def close_up_box(frame: np.ndarray, box: Box) -> DieBox:
    """A close-up photo's die as a DieBox (cut when it reaches the photo's edge)."""
    x0, y0, x1, y1 = box
    return DieBox(
        box=box, cut=bool(at_border(x0, y0, x1 - x0, y1 - y0, frame.shape)), elongation=1.0
    )


def middle_box(frame: np.ndarray) -> Box:
    """The middle of a photo, where its one die most likely is."""
    h, w = frame.shape[:2]
    side = int(FALLBACK_SIDE * min(h, w))
    return ((w - side) // 2, (h - side) // 2, (w + side) // 2, (h + side) // 2)


def guessed_box(frame: np.ndarray, box: Box) -> DieBox:
    """A box read as a die that the detector did not find (marked as a guess)."""
    return replace(close_up_box(frame, box), guessed=True)
