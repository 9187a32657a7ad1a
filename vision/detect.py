"""Find the dice in a frame: pure functions from a BGR frame to die boxes, no I/O.

Nothing is known in advance about the tray or table colour, so the background is found in the
frame itself: the tray floor, its rim and the table are the large regions without colour edges
(lighting falloff and soft shadows change colour too slowly to count), and the seams where two
of them meet belong to neither. Everything else (dice, closed off by their outlines) is
foreground. Touching dice are split at the peaks of the distance transform, one per die, with
the flat ridge of dice lying side by side cut into one seed per die. Blobs too thin, too small,
spanning the frame or big and solid (a hand) are not dice.

All of it runs on a frame scaled down to WORK_SIDE pixels on its long side, so it costs a few
milliseconds; boxes are mapped back to the full frame, where the crops are cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

WORK_SIDE = 320  # long side of the working image
SMALL_DICE = 5.0  # working pixels of die inradius under which detection looks again, closer
MAX_SIDE = 1280  # ... up to this long side
GRADIENT_FLOOR = 2.0  # Lab units per pixel under which a surface counts as smooth
# ... and the most that bar rises on a busy frame (3x the median gradient): a floor of soft
# blotches, as a patterned mat has, raised it past the outlines of the dice lying on it
GRADIENT_CEILING = 8.0
SURFACE_AREA = 0.04  # a smooth region this big reaching the frame border is tray or table
TRAY_AREA = 0.25  # ... and one this big anywhere is the tray floor
SURFACE_SPAN = 0.5  # ... and so is one spanning over half the frame (a tray rim)
SURFACE_SPREAD = 6.0  # Lab units: a surface more varied than this has a pattern
ODD_COLOUR = 22.0  # Lab units from a plain surface's colour: a die leaking into it
SEAM = 8  # working pixels: half the widest seam or rim between two surfaces
OPEN_SIZE = 5  # working pixels: lines thinner than this between surfaces are dropped
HALO = 3  # working pixels: the gradient band around a die's outline
BOX_TRIM = 1.0  # working pixels per side between a die's region and its true outline
LIGHTNESS_WEIGHT = 0.5  # shading and shadows move L far more than they move a/b
EDGE_MARGIN = 2  # a box within this many working pixels of the border is cut by the frame
MERGED_SIZE = 1.8  # a region this many times the median die is dice pressed together ...
MERGED_ASPECT = 1.7  # ... and so is a lone region this elongated (when more are expected)
HAND_AREA = 0.07  # a blob over this fraction of the frame is a hand (or an arm), not a die
HAND_EDGE_AREA = 0.03  # ... or over this fraction while reaching in from the frame border
HAND_MAX_AREA = 0.3  # a blob over this fraction of the frame is the tray itself, not a hand
BESIDE_TRAY = 0.1  # share of the frame's side: a strip this narrow between tray and edge is table


Box = tuple[int, int, int, int]  # x0, y0, x1, y1


@dataclass(frozen=True)
class DieBox:
    """One die found in the frame, in full-frame pixels."""

    box: Box  # x0, y0, x1, y1 in pixels (x1, y1 exclusive)
    cut: bool  # touches the frame border: part of the die may be outside
    elongation: float  # long/short side of its min-area rectangle (a cocked d6 is long)
    guessed: bool = False  # not found by its outline: a fallback box (see vision.reader)


@dataclass(frozen=True)
class Detection:
    """What one frame shows: the dice, whether a hand is in it, and the typical die size."""

    dice: tuple[DieBox, ...]
    hand: bool
    die_side: float  # typical die side in full-frame pixels (0 when no dice)


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


def working_image(frame: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """The frame at working scale; returns (image, scale factor)."""
    return shrink(frame, side)


def _odd(n: float) -> int:
    return max(3, int(n) | 1)


def smooth_lab(small_bgr: np.ndarray) -> np.ndarray:
    """Float Lab with lightness down-weighted, after a median filter that wipes out thin
    texture (wood grain, felt) but keeps a die's outline."""
    lab = cv2.cvtColor(cv2.GaussianBlur(cv2.medianBlur(small_bgr, 5), (5, 5), 0), cv2.COLOR_BGR2LAB)
    lab = lab.astype(np.float32)
    lab[..., 0] *= LIGHTNESS_WEIGHT
    return lab


def colour_gradient(lab: np.ndarray) -> np.ndarray:
    """Per-pixel colour change of a smooth_lab image (Lab units per pixel)."""
    gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
    gx *= gx
    gx += gy * gy
    return np.sqrt(_channel_sum(gx)) / 8.0


def _channel_sum(v: np.ndarray) -> np.ndarray:
    """v summed over its last axis of three channels: the same sums as `v.sum(axis=-1)`, added in
    the same order, without numpy's slow reduction over a short last axis (a 320x240x3 float32
    image: 1.64 ms -> 0.11 ms here)."""
    return v[..., 0] + v[..., 1] + v[..., 2]


def _odd_colours(lab: np.ndarray, surface: np.ndarray) -> np.ndarray:
    """Pixels of a one-coloured surface whose colour is far from it: a die whose outline is too
    faint against the table (a dark die on wood) leaks into the surface but keeps its colour.
    A surface of two colours or more (a patterned cloth) is left alone."""
    pixels = lab.reshape(-1, 3)
    sample = pixels[np.flatnonzero(surface)[::7]]
    centre = np.median(sample, axis=0)
    spread = float(np.median(_distance(sample, centre)))
    if spread > SURFACE_SPREAD:
        return np.zeros(surface.shape, bool)
    # every pixel's distance, then masked: cheaper than gathering the surface's pixels first
    far = _distance(pixels, centre).reshape(surface.shape) > max(ODD_COLOUR, 6.0 * spread)
    return far & surface


def _distance(pixels: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Euclidean distance of each (N, 3) pixel from a colour."""
    diff = pixels - centre
    diff *= diff
    return np.sqrt(_channel_sum(diff))


def background_mask(small_bgr: np.ndarray) -> tuple[np.ndarray, Box]:
    """Pixels of the large smooth surfaces (tray floor, rim, table, whatever their colour), and
    the box of the largest one, the tray floor (the whole image when there is none).

    A die is a small region closed off by colour edges; the tray and table are the regions that
    stay connected over a large area. Lighting falloff and soft shadows change colour slowly
    and stay inside their surface.
    """
    lab = smooth_lab(small_bgr)
    grad = colour_gradient(lab)
    bar = min(GRADIENT_CEILING, max(GRADIENT_FLOOR, 3.0 * float(np.median(grad))))
    smooth = (grad < bar).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=4)
    h, w = smooth.shape
    wide = stats[:, cv2.CC_STAT_WIDTH] > SURFACE_SPAN * w
    wide |= stats[:, cv2.CC_STAT_HEIGHT] > SURFACE_SPAN * h  # a rim: thin but spans the frame
    area = stats[:, cv2.CC_STAT_AREA]
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    # A die's face seen close up is smooth and large too, but closed off inside the frame.
    border = at_border(x, y, stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], (h, w))
    big = ((area >= SURFACE_AREA * smooth.size) & border) | (area >= TRAY_AREA * smooth.size)
    surfaces = [i for i in range(1, count) if big[i] or wide[i]]
    background = np.isin(labels, surfaces)
    tray: Box = (0, 0, w, h)
    if surfaces:
        x, y, bw, bh, _ = stats[max(surfaces, key=lambda i: stats[i, cv2.CC_STAT_AREA])]
        tray = (int(x), int(y), int(x + bw), int(y + bh))
    for i in surfaces:
        background &= ~_odd_colours(lab, labels == i)
    if len(surfaces) > 1:
        # The blurred seam where two surfaces meet (tray rim on table) belongs to neither die.
        near = np.zeros(labels.shape, np.uint8)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * SEAM + 1,) * 2)
        for i in surfaces:
            near += cv2.dilate((labels == i).astype(np.uint8), kernel)
        background |= near >= 2
    return background, tray


def foreground_mask(small_bgr: np.ndarray) -> tuple[np.ndarray, Box]:
    """Binary mask (uint8 0/255) of everything that is not tray or table, holes filled, and the
    tray floor's box."""
    background, tray = background_mask(small_bgr)
    mask = (~background).astype(np.uint8) * 255
    # A die's face is a hole in its outline, even where the outline has a small gap; the gap
    # itself is not filled, so the seam between two touching dice stays open. Filled before
    # the thin lines go, or a die with a thin outline would go with them.
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc)
    mask = _fill_holes(mask) | (_fill_holes(closed) & ~closed)
    # Thin lines between two surfaces (the tray rim, a shadow's edge) are not dice.
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (OPEN_SIZE,) * 2)
    )
    # The colour edge is a few pixels wide; shave it so boxes hug the die, not its halo.
    return cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (HALO,) * 2)), tray


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill small enclosed holes (a smooth face inside a die's outline, a numeral's bowl)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(mask), connectivity=4)
    h, w = mask.shape
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    inner = (x > 0) & (y > 0) & (x + stats[:, cv2.CC_STAT_WIDTH] < w)
    inner &= y + stats[:, cv2.CC_STAT_HEIGHT] < h
    inner &= stats[:, cv2.CC_STAT_AREA] < SURFACE_AREA * mask.size
    filled = mask.copy()
    filled[inner[labels]] = 255
    return filled


def _peaks(dist: np.ndarray, window: int, floor: float) -> tuple[int, np.ndarray]:
    """Label the regional maxima of the distance map (one per die when dice touch); maxima
    within a window of each other (the flat ridge of two dice side by side) are one."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (window, window))
    peaks = ((dist >= cv2.dilate(dist, kernel)) & (dist >= floor)).astype(np.uint8)
    if window > 5:
        half = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(0.75 * window),) * 2)
        peaks = cv2.dilate(peaks, half) & (dist > 0)
    return cv2.connectedComponents(peaks.astype(np.uint8), connectivity=8)


def die_radius(dist: np.ndarray) -> float:
    """Typical die inradius in working pixels: the median depth of the distance map's peaks.

    Each die keeps its own peak even inside a cluster, and the shallow peaks of rim slivers
    and crumbs (under half the deepest) are left out.
    """
    count, labels = _peaks(dist, 5, 2.5)
    if count <= 1:
        return 0.0
    depth = np.zeros(count, np.float32)
    np.maximum.at(depth, labels.ravel(), dist.ravel())
    depth = depth[1:]
    return float(np.median(depth[depth >= 0.45 * depth.max()]))


def label_points(labels: np.ndarray, count: int) -> list[np.ndarray]:
    """The (x, y) pixels of each label 1..count-1 as int32 arrays, in one pass over the image
    (index 0 is empty: the background)."""
    ys, xs = np.nonzero(labels > 0)
    values = labels[ys, xs]
    order = np.argsort(values, kind="stable")
    points = np.column_stack([xs, ys]).astype(np.int32)[order]
    cuts = np.searchsorted(values[order], np.arange(count + 1))
    return [points[cuts[i] : cuts[i + 1]] for i in range(count)]


def _ridges_to_seeds(
    markers: np.ndarray, count: int, dist: np.ndarray, merge: int, radius: float
) -> None:
    """Dice lying side by side make one flat ridge in the distance map, running from one die's
    centre to the next, instead of one peak each: cut each long ridge into evenly spaced seeds
    one die apart (in place; new labels follow the old ones)."""
    next_label = count
    for i, pixels in enumerate(label_points(markers, count)):
        if i == 0 or len(pixels) == 0:
            continue
        xs, ys = pixels[:, 0], pixels[:, 1]
        points = pixels.astype(np.float32)
        depth = float(dist[ys, xs].max())
        centre = points.mean(axis=0)
        _, axes = cv2.PCACompute(points, mean=centre[None, :])
        along = (points - centre) @ axes[0]
        length = float(along.max() - along.min()) - merge
        if length < 1.4 * depth or depth < 0.7 * radius:
            continue  # one die, or a streak (rim, shadow) that is no die at all
        pieces = 1 + round(length / (2.0 * depth))
        markers[ys, xs] = 0
        ends = (float(along.min()) + merge / 2, float(along.max()) - merge / 2)
        for k, t in enumerate(np.linspace(ends[0], ends[1], pieces)):
            x, y = centre + t * axes[0]
            label = i if k == 0 else next_label
            next_label += k > 0
            cv2.circle(markers, (round(float(x)), round(float(y))), max(1, merge // 2), label, -1)


def split_dice(mask: np.ndarray, dist: np.ndarray, radius: float) -> tuple[int, np.ndarray]:
    """One label per die: blob pixels go to the nearest seed of their own blob.

    Seeds are the distance map's peaks, one per die even in a cluster, with flat ridges cut
    into one seed per die. Returns (number of labels + 1, label image; 0 = background).
    """
    window = _odd(1.2 * radius)
    count, markers = _peaks(dist, window, 0.45 * radius)
    _ridges_to_seeds(markers, count, dist, _odd(0.75 * window), radius)
    _, blob_labels = cv2.connectedComponents(mask, connectivity=8)
    sites = (markers == 0).astype(np.uint8)
    _, nearest = cv2.distanceTransformWithLabels(
        sites, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
    )
    site_blob = np.zeros(int(nearest.max()) + 1, np.int32)
    site_blob[nearest[markers > 0]] = blob_labels[markers > 0]
    own = (mask > 0) & (site_blob[nearest] == blob_labels)
    return len(site_blob), np.where(own, nearest, 0)


def _box_of(
    points: np.ndarray,
    work_shape: tuple[int, ...],
    scale: float,
    shape: tuple[int, ...],
    radius: float,
) -> DieBox | None:
    """Full-frame box of one die region (its pixels), or None if it is not die-shaped."""
    area = float(len(points))
    if area == 0:
        return None
    if area < 1.2 * radius * radius:
        return None  # a crumb: glint, dust, the tail of a watershed cut
    (_, _), (rw, rh), _ = cv2.minAreaRect(points)
    long_side, short_side = max(rw, rh, 1.0), max(min(rw, rh), 1.0)
    if long_side / short_side > 3.0 or area / (rw * rh + 1e-6) < 0.35:
        return None  # a thin streak (tray rim, shadow line), not a die
    x, y, w, h = cv2.boundingRect(points)
    cut = at_border(x, y, w, h, work_shape)
    full_h, full_w = shape[:2]
    # What is left of the colour edge and the die's contact shadow widens the region by about
    # BOX_TRIM on every side; the crop convention wants the die itself.
    # (not on a side cut by the frame edge: the die goes on past it).
    trim = min(BOX_TRIM, 0.15 * min(w, h))
    sh, sw = work_shape[:2]
    box = (
        max(0, round((x + trim * (x > EDGE_MARGIN)) / scale)),
        max(0, round((y + trim * (y > EDGE_MARGIN)) / scale)),
        min(full_w, round((x + w - trim * (x + w < sw - EDGE_MARGIN)) / scale)),
        min(full_h, round((y + h - trim * (y + h < sh - EDGE_MARGIN)) / scale)),
    )
    return DieBox(box=box, cut=bool(cut), elongation=float(long_side / short_side))


def detect(frame: np.ndarray, side: int = WORK_SIDE, at_least: int = 0) -> Detection:
    """Find every die in a BGR frame (any tray, 1-25 dice, touching or not).

    `at_least`: how many dice are known to be there (the roll the game asked for); when fewer
    are found, the regions most likely to be dice pressed together are cut in two.
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
        raise ValueError(f"expected a BGR frame, got shape {frame.shape}")
    small, scale = working_image(frame, side)
    mask, tray = foreground_mask(small)
    drop, hand = _not_dice(mask, tray)
    hand = hand or skin_hand(small, tray)
    mask[drop] = 0
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    radius = die_radius(_off_the_strips(dist, tray))
    if radius < SMALL_DICE and scale < 1.0 and side < MAX_SIDE:
        return detect(frame, side * 2, at_least)  # dice too small here (a big photo): look closer
    if radius < 2.0:
        return Detection(dice=(), hand=hand, die_side=0.0)
    count, labels = split_dice(mask, dist, radius)
    regions = [
        p for p in label_points(labels, count)[1:] if len(p) and not _beside_tray(p, tray, mask.shape)
    ]
    regions = _split_to(regions, at_least)
    dice = [
        found
        for points in regions
        if (found := _box_of(points, mask.shape, scale, frame.shape, radius))
    ]
    row = max(1, int(2 * radius / scale))
    dice.sort(key=lambda d: (d.box[1] // row, d.box[0]))
    return Detection(dice=tuple(dice), hand=hand, die_side=2.0 * radius / scale)


def _off_the_strips(dist: np.ndarray, tray: Box) -> np.ndarray:
    """The distance map with the narrow strips beside the tray (_strips) cleared, for judging
    the dice's size: a patterned table there breaks into pieces far bigger than dice, and their
    depth taken for the dice's made every die on one rendered tray a crumb (8 of 8 missed)."""
    x0, y0, x1, y1 = _strips(tray, dist.shape)
    inside = np.zeros_like(dist)
    inside[y0:y1, x0:x1] = dist[y0:y1, x0:x1]
    return inside


def _beside_tray(points: np.ndarray, tray: Box, shape: tuple[int, ...]) -> bool:
    """Whether a region's (x, y) pixels lie wholly in a narrow strip beside the tray (_strips):
    the table or rim around a tray, which a patterned table breaks into a row of die-sized
    pieces along the frame. A die on the floor reaches into the floor's box; a wide margin (a
    photo whose largest plain surface is a mat on the table) keeps its dice. Judged on the split
    regions, not with _not_dice's blobs: the band is one blob with the rim, which reaches into
    the floor's box (judged as blobs, the bench's precision stayed at 93.3% instead of 97.3%)."""
    x0, y0, x1, y1 = _strips(tray, shape)
    xs, ys = points[:, 0], points[:, 1]
    return bool((xs < x0).all() or (xs >= x1).all() or (ys < y0).all() or (ys >= y1).all())


def _strips(tray: Box, shape: tuple[int, ...]) -> Box:
    """The box whose outside is the narrow strips between the tray floor's box and the frame's
    edge (BESIDE_TRAY of the frame's side at most); a wider margin is no strip."""
    x0, y0, x1, y1 = tray
    h, w = shape[:2]
    return (
        x0 if x0 <= BESIDE_TRAY * w else 0,
        y0 if y0 <= BESIDE_TRAY * h else 0,
        x1 if w - x1 <= BESIDE_TRAY * w else w,
        y1 if h - y1 <= BESIDE_TRAY * h else h,
    )


def _split_to(regions: list[np.ndarray], wanted: int) -> list[np.ndarray]:
    """Cut the biggest regions in two (k-means on their pixels) until there are `wanted`: a
    region well over the typical die's size, or a lone region twice as long as it is wide."""
    regions = list(regions)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    while 0 < len(regions) < wanted:
        sizes = [len(r) for r in regions]
        biggest = int(np.argmax(sizes))
        points = regions[biggest].astype(np.float32)
        if len(regions) > 1:
            merged = sizes[biggest] >= MERGED_SIZE * float(np.median(sizes))
        else:
            (_, _), (rw, rh), _ = cv2.minAreaRect(points)
            merged = max(rw, rh) >= MERGED_ASPECT * max(min(rw, rh), 1.0)
        if not merged:
            break
        _, halves, _ = cv2.kmeans(points, 2, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
        pixels = regions.pop(biggest)
        regions += [pixels[halves.ravel() == 0], pixels[halves.ravel() == 1]]
    return regions


def _not_dice(mask: np.ndarray, tray: Box) -> tuple[np.ndarray, bool]:
    """Blobs that cannot be dice: too big and not die-shaped (a hand or arm, a patch of busy
    table) or spanning the frame (a band of textured table around the tray). Returns their
    mask, and whether one of them is a hand: big, solid, and mostly over the tray floor.

    A big blob that is compact and convex is a die seen close up (a photo of one die), not a
    hand: hands and arms are long, or reach in from the border, or both.
    """
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sh, sw = mask.shape
    big = _large(stats, mask.shape)
    for i in np.flatnonzero(big):
        big[i] = i > 0 and not _die_shaped(labels == i)
    span = stats[:, cv2.CC_STAT_WIDTH] > SURFACE_SPAN * sw
    span |= stats[:, cv2.CC_STAT_HEIGHT] > SURFACE_SPAN * sh
    for i in np.flatnonzero(span & ~big):
        span[i] = i > 0 and not _die_shaped(labels == i)
    big[0] = span[0] = False
    hand = big & _solid_over(stats, labels, tray)
    return (big | span)[labels], bool(hand.any())


def _die_shaped(blob: np.ndarray) -> bool:
    """Compact and convex like a die from above (a hand with its arm is neither, nor a ring)."""
    points = cv2.findNonZero(blob.astype(np.uint8))
    hull = cv2.contourArea(cv2.convexHull(points))
    (_, _), (rw, rh), _ = cv2.minAreaRect(points)
    aspect = max(rw, rh) / max(min(rw, rh), 1.0)
    return hull > 0 and len(points) / hull >= 0.85 and aspect <= 1.6


def at_border(x: Any, y: Any, w: Any, h: Any, shape: tuple[int, ...]) -> Any:
    """Whether boxes (scalars or arrays of them) touch the border of an image of this shape."""
    sh, sw = shape[:2]
    return (
        (x <= EDGE_MARGIN)
        | (y <= EDGE_MARGIN)
        | (x + w >= sw - EDGE_MARGIN)
        | (y + h >= sh - EDGE_MARGIN)
    )


def _large(stats: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Components too big for a die: a hand, an arm, a patch of table."""
    x, y, w, h, area = (stats[:, i] for i in range(5))
    size = float(shape[0] * shape[1])
    touches = at_border(x, y, w, h, shape)
    big = (area > HAND_AREA * size) | (touches & (area > HAND_EDGE_AREA * size))
    return big & (area < HAND_MAX_AREA * size)


def _solid_over(stats: np.ndarray, labels: np.ndarray, tray: Box) -> np.ndarray:
    """Components that are solid (a ring is not a hand) with most pixels over the tray floor."""
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, 4]
    x0, y0, x1, y1 = tray
    inside = np.bincount(labels[y0:y1, x0:x1].ravel(), minlength=len(stats))
    return (area > 0.2 * w * h) & (inside >= 0.6 * area)


def skin_hand(small_bgr: np.ndarray, tray: Box) -> bool:
    """A large skin-coloured blob over the tray: a smooth hand can look like one more surface to
    the background model, so its colour gives it away."""
    ycrcb = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, (50, 135, 80), (255, 175, 130))
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    hand = _large(stats, skin.shape) & _solid_over(stats, labels, tray)
    return bool(hand[1:].any())


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
