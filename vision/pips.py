"""A pipped d6's pips counted in its crop: evidence for its value that no rig taught.

Why: the classifier learns the pipped dice of the rigs it trained on. Trained as `make model`
does on this CPU but without nell-byler's trays, it read their 1,795 dice 78.0% right; counting
the pips, which needs no training, read 86.0%, and the two weighed together 85.7%
(docs/reader-history.md). A table it never saw is every player's table.

How: the die's body is the colour of the crop's middle (its median: pips cover less than half
of it). Pips are blobs unlike the body (a Laplacian of Gaussian over a few pip sizes) that the
body rings, which keeps the die's edge and its neighbours out. They are sought on three maps of
how unlike the body a pixel is: the whole colour distance (red pips on white, white on blue),
and redness and yellowness alone (red pips on a black die marbled with pale swirls, which
outshine them in the whole distance). On each map every legal face (1 to 6 pips) is fitted to
every choice of the strongest blobs: the pips' mean near the crop's middle, alike in size and
strength, spaced as a die's are, in place under an affine map (a die seen a little from the
side squashes its face), and no strong blob left over inside the face. The face whose fit
scores best on any map is the count; every face that fits on that map is kept too, since a
face that no choice of blobs fits is unlikely whatever the classifier says.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

SIDE = 96  # px: crops are read at this side (the classifier's)
SIGMAS = (2.2, 3.0, 4.0, 5.2)  # blob scales in px at SIDE: pips about 6-15 px across
FLOOR = 4.0  # a blob's least response (colour distance units)
STRONGEST = 7  # blobs whose subsets are fitted
RING = 2.4  # a pip's ring of body is sampled this many of its scale out ...
RING_SHARE = 0.6  # ... and this share of it must be body-coloured
BODY_NEAR = (20.0, 3.0)  # body-coloured: within max(this, that times the middle's spread)
OFF_MIDDLE = 0.28  # of the side: how far the pips' mean may lie from the crop's middle
ALIKE = (0.4, 1.9)  # a face's weakest pip this share of its strongest; scales within this ratio
MISFIT = 0.35  # the largest residual of a face's fit, in pip spacings
SPACING = (0.07, 0.3)  # a face's pip spacing (half the corner pips' distance), of the side
PIP_SIZE = (0.2, 0.75)  # a pip's scale, of the spacing
SQUASH = 2.5  # the affine map's longest over shortest axis: a face seen no more aslant
LEFT_OVER = 0.5  # an unused blob inside the face this share as strong as the weakest pip counts
# against the face, weighed so
LEFT_OVER_WEIGHT = 0.7
OFF_WEIGHT = 20.0
# The counted face's weight, and an unfitted face's penalty, against the classifier's log odds:
# picked on half of nell-byler's trays read by a classifier trained without them, and skovy's
# crops, heavier weights costing numbered d6s whose numeral is not read (docs/reader-history.md)
COUNTED_BONUS = 1.0
UNFITTED_PENALTY = 2.0

# A classifier this sure of a face keeps it whatever the count says (the count moves another
# face at most COUNTED_BONUS + UNFITTED_PENALTY in log odds against it) (worth_counting)
_MOST = np.exp(COUNTED_BONUS + UNFITTED_PENALTY)
DECIDED = float(_MOST / (1 + _MOST))  # 0.953

# A pipped d6 is sure by its count where the counted face is one of these and is the value the
# weighing gives at SURE_WEIGHED or more: four to six pips fit only a grid of pips (a 1 is any
# blob, a 2 any pair, a 3 any line, which a numeral's strokes or a glint fit too). Measured with
# classifiers that never saw the rig (docs/reader-history.md, the thirtieth session):
# nell-byler's trays 21% sure, 1 wrong of 373 (a 6 the set labels 5); skovy's crops 15%, none
# wrong; ucffool's numbered d6s whose numeral is not read 3%, none wrong (a rule with 1-3 too
# made 2 of them sure, and wrong). The kind is asked below the numerals' bar (reader.kind_doubt).
SETTLING_FACES = frozenset({4, 5, 6})
SURE_WEIGHED = 0.99

_CIRCLE = np.stack([np.cos(np.linspace(0, 2 * np.pi, 16, endpoint=False)),
                    np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False))], 1)


def _around(points: np.ndarray) -> np.ndarray:
    """The points in order of their angle about their mean (an affine map with a positive
    determinant keeps that order, so a face's corners are matched up to a turn or a flip)."""
    d = points - points.mean(0)
    return points[np.argsort(np.arctan2(d[:, 1], d[:, 0]))]


_LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (1, 1), (-1, 1)],
    5: [(-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
# the faces' pips, corners in order about the middle (a five's middle pip last), in spacings
FACES = {v: np.array(p, np.float32) for v, p in _LAYOUTS.items()}
FACES[4], FACES[6] = _around(FACES[4]), _around(FACES[6])
FACES[5] = np.vstack([_around(FACES[5][:4]), FACES[5][4:]])


def _orders(value: int) -> np.ndarray:
    """The matches of a face's pips, in order about their middle, to its layout's: each turn of
    the ring both ways round (a five's middle pip stays last)."""
    ring = 4 if value == 5 else value
    turns = [np.roll(r, k) for r in (np.arange(ring), np.arange(ring)[::-1]) for k in range(ring)]
    return np.array([np.append(t, 4) if value == 5 else t for t in turns])


_ORDERS = {v: _orders(v) for v in (4, 5, 6)}
_LAYOUT = {v: np.hstack([FACES[v], np.ones((v, 1), np.float32)]) for v in (4, 5, 6)}
_SOLVE = {v: np.linalg.pinv(layout) for v, layout in _LAYOUT.items()}


# every choice of `value` of `n` blobs, as index rows
_CHOICES = {(n, value): np.array(list(combinations(range(n), value)))
            for n in range(1, STRONGEST + 1) for value in range(1, min(6, n) + 1)}


@dataclass(frozen=True)
class Blob:
    """A pip candidate: centre (px at SIDE), scale, response."""

    x: float
    y: float
    sigma: float
    strength: float


@dataclass(frozen=True)
class PipCount:
    """What the pips say: the face fitted best (None: no face fits) and every face that fits."""

    best: int | None
    fits: frozenset[int]


def contrasts(crop: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """Maps of how unlike the die's body each pixel of a SIDE px BGR crop is, each with the
    distance under which a pixel counts as body: the whole colour distance, then redness and
    yellowness alone. Pips of one colour stand out in one of them even where the body is
    marbled with light swirls that outshine them in the whole distance (red on black)."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] = (lab[..., 1:] - 128) * 1.5  # OpenCV squeezes a and b; colour counts here
    side = lab.shape[0]
    lo, hi = int(0.3 * side), int(0.7 * side)
    middle = lab[lo:hi, lo:hi].reshape(-1, 3)
    body = np.median(middle, 0)
    spread = np.abs(middle - body)
    maps = [(np.linalg.norm(lab - body, axis=2),
             float(np.median(np.linalg.norm(middle - body, axis=1))))]
    maps += [(np.abs(lab[..., k] - body[k]), float(np.median(spread[:, k]))) for k in (1, 2)]
    return [(m, max(BODY_NEAR[0], BODY_NEAR[1] * s)) for m, s in maps]


def blobs(distance: np.ndarray, near: float) -> list[Blob]:
    """The STRONGEST pip candidates on one of `contrasts`' maps, strongest first."""
    side = distance.shape[0]
    responses = np.stack([
        -cv2.Laplacian(cv2.GaussianBlur(distance, (0, 0), s), cv2.CV_32F, ksize=3) * s * s
        for s in SIGMAS])
    peak, scale = responses.max(0), responses.argmax(0)
    ys, xs = np.nonzero((peak >= cv2.dilate(peak, np.ones((5, 5), np.uint8))) & (peak > FLOOR))
    sigma = np.array(SIGMAS)[scale[ys, xs]]
    r = RING * sigma
    inside = np.minimum.reduce([xs, ys, side - 1 - xs, side - 1 - ys]) >= r
    ring = np.round(np.stack([xs, ys], 1)[:, None] + r[:, None, None] * _CIRCLE).astype(int)
    ring = np.clip(ring, 0, side - 1)
    ringed = (distance[ring[..., 1], ring[..., 0]] < near).mean(1) >= RING_SHARE
    strength = peak[ys, xs]
    kept: list[Blob] = []
    for i in np.argsort(-strength, kind="stable"):
        if not (inside[i] and ringed[i]):
            continue
        b = Blob(float(xs[i]), float(ys[i]), float(sigma[i]), float(strength[i]))
        # one blob a pip: a weaker one within the larger's reach is the same pip
        if all((b.x - o.x) ** 2 + (b.y - o.y) ** 2 > (1.6 * max(b.sigma, o.sigma)) ** 2
               for o in kept):
            kept.append(b)
            if len(kept) == STRONGEST:
                break
    return kept


def misfit(value: int, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far each choice of pips in `points` (choices x value x 2) lies from the face
    `value`'s layout (in pip spacings), and its spacing (px); inf where no map fits. A 1 and a 2
    have no shape to fit; a 3 is three pips on a line, the middle one half way."""
    n = len(points)
    if value == 1:
        return np.zeros(n), np.zeros(n)
    if value == 2:
        return np.zeros(n), np.linalg.norm(points[:, 1] - points[:, 0], axis=1) / (2 * np.sqrt(2))
    d = points - points.mean(1, keepdims=True)
    if value == 3:
        axes = np.linalg.svd(d)[2]
        along = np.sort(np.einsum("npk,nk->np", d, axes[:, 0]), axis=1)
        length = along[:, 2] - along[:, 0]
        line = length > 0
        length = np.where(line, length, 1.0)
        crooked = np.abs(np.einsum("npk,nk->np", d, axes[:, 1])).max(1) / length
        uneven = np.abs(along[:, 1] - (along[:, 0] + along[:, 2]) / 2) / length
        return (np.where(line, 2 * (crooked + uneven), np.inf),
                np.where(line, length / (2 * np.sqrt(2)), 0.0))
    if value == 5:  # the middle pip last, the ring about its own four's mean
        centre = np.argmin((d ** 2).sum(2), axis=1)
        rows = np.arange(n)
        d = points - (points.sum(1) - points[rows, centre])[:, None] / 4
        angle = np.arctan2(d[..., 1], d[..., 0])
        angle[rows, centre] = np.inf
    else:
        angle = np.arctan2(d[..., 1], d[..., 0])
    ring = np.take_along_axis(points, np.argsort(angle, axis=1)[..., None], axis=1)
    placed = ring[:, _ORDERS[value]]  # every match of the points to the layout, at once
    affine = _SOLVE[value] @ placed
    axes = np.linalg.svd(affine[..., :2, :], compute_uv=False)
    fair = (axes[..., 1] > 1e-6) & (axes[..., 0] <= SQUASH * axes[..., 1])
    spacing = np.sqrt(np.where(fair, axes[..., 0] * axes[..., 1], 1.0))
    left = placed - _LAYOUT[value] @ affine
    err = np.where(fair, np.sqrt((left ** 2).sum(-1).mean(-1)) / spacing, np.inf)
    best = np.argmin(err, axis=1)
    rows = np.arange(n)
    return err[rows, best], np.where(fair[rows, best], spacing[rows, best], 0.0)


def count_pips(crop: np.ndarray) -> PipCount:
    """The pips of the die in a square BGR crop (vision.crops.square_crop's framing), counted on
    the contrast map whose best fit scores highest; the faces that fit are that map's (every
    map's together would let almost any face fit, and an unfitted face tell nothing)."""
    if crop.shape[:2] != (SIDE, SIDE):
        crop = cv2.resize(crop, (SIDE, SIDE), interpolation=cv2.INTER_AREA
                          if crop.shape[0] > SIDE else cv2.INTER_LINEAR)
    fitted = [_fits(blobs(distance, near)) for distance, near in contrasts(crop)]
    scores = max(fitted, key=lambda s: max(s.values(), default=-np.inf))
    best = max(scores, key=scores.__getitem__) if scores else None
    return PipCount(best, frozenset(scores))


def _fits(found: list[Blob]) -> dict[int, float]:
    """Each face's best score over every choice of `found` that fits it."""
    scores: dict[int, float] = {}
    if not found:
        return scores
    xy = np.array([(b.x, b.y) for b in found], np.float32)
    strength = np.array([b.strength for b in found], np.float32)
    sigma = np.array([b.sigma for b in found], np.float32)
    middle = np.array([SIDE / 2, SIDE / 2], np.float32)
    for value in range(1, min(6, len(found)) + 1):
        chosen = _CHOICES[len(found), value]  # first the tests that need no fit
        mean = xy[chosen].mean(1)
        off = np.linalg.norm(mean - middle, axis=1) / SIDE
        weakest = strength[chosen].min(1)
        alike = ((off <= OFF_MIDDLE) & (weakest >= ALIKE[0] * strength[chosen].max(1))
                 & (sigma[chosen].max(1) <= ALIKE[1] * sigma[chosen].min(1)))
        if not alike.any():
            continue
        chosen, mean, off, weakest = chosen[alike], mean[alike], off[alike], weakest[alike]
        err, spacing = misfit(value, xy[chosen])
        size = sigma[chosen].mean(1)
        fits = err <= MISFIT
        if value > 1:
            fits &= ((SPACING[0] * SIDE <= spacing) & (spacing <= SPACING[1] * SIDE)
                     & (PIP_SIZE[0] * spacing <= size) & (size <= PIP_SIZE[1] * spacing))
        if not fits.any():
            continue
        chosen, mean, off, weakest = chosen[fits], mean[fits], off[fits], weakest[fits]
        err, spacing = err[fits], spacing[fits]
        reach = 1.6 * spacing if value > 1 else np.full(len(chosen), 0.3 * SIDE)
        spare = ((np.linalg.norm(xy[None] - mean[:, None], axis=2) < reach[:, None])
                 & (strength[None] > LEFT_OVER * weakest[:, None]))
        np.put_along_axis(spare, chosen, False, axis=1)
        score = (weakest * value ** 0.5 * (1 - err) - LEFT_OVER_WEIGHT * (spare * strength).sum(1)
                 - OFF_WEIGHT * off)
        scores[value] = float(score.max())
    return scores


def weigh(faces: tuple[int, ...], value_p: np.ndarray, count: PipCount) -> np.ndarray:
    """The classifier's probabilities of a d6's `faces` weighed by its counted pips: the face
    counted gains COUNTED_BONUS in log odds, a face no pips fit loses UNFITTED_PENALTY.
    Nothing counted changes nothing."""
    logp = np.log(np.asarray(value_p, np.float64) + 1e-9)
    if count.fits:
        shown = np.array(faces)
        logp += np.where(shown == count.best, COUNTED_BONUS, 0.0)
        logp -= np.where(np.isin(shown, list(count.fits)), 0.0, UNFITTED_PENALTY)
    p = np.exp(logp - logp.max())
    return p / p.sum()


def settles(count: PipCount, value: int, weighed_p: float) -> bool:
    """Whether the pips counted make a d6's weighed `value` (at `weighed_p`) sure on their own
    (SETTLING_FACES, SURE_WEIGHED)."""
    return count.best == value and value in SETTLING_FACES and weighed_p >= SURE_WEIGHED


def worth_counting(faces: tuple[int, ...], value_p: np.ndarray) -> bool:
    """Whether a d6's pips could change the classifier's face (it is under DECIDED) or settle
    it (a face of SETTLING_FACES): elsewhere the count is skipped, at five or so ms a die."""
    return bool(value_p.max() < DECIDED or faces[int(np.argmax(value_p))] in SETTLING_FACES)
