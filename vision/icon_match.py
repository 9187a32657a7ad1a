"""A taught face's icon compared pixel by pixel, turned to every angle: a second opinion beside
the classifier's embedding, which learnt numerals and pips and tells unseen icons apart poorly.

The middle of a die's crop (its top face) is sampled on a polar grid: rings around a centre,
each ring a row of points at equal angles. Turning the die shifts every ring along itself, so
one circular cross-correlation along the angle axis (by FFT) tries every rotation at once. The
shift never reverses a ring, so an icon is never matched to its mirror image. Each colour
channel keeps its own pattern (only its mean is taken away, and all three share one scale), so
the same icon in red and in blue plastic correlate poorly. The query's centre is searched over a
small grid, since a tilted die's top face sits off the crop's middle.

Sizes are fractions of the crop side, so any crop size works (the reader's are 96 px). Set on
validation frames of the symbol dice bench (seeds neither taught nor read by it): the face
nearest by icon alone was right for 94.5% of 599 crops within the expected die (the embedding
alone: 76.0%). The disc's size suits some solids better than others, so each taught die
chooses its own from its shots (fitted_radius): the octahedron's small icons, close to its
neighbours', want a smaller disc, cubes' plain icons a wider one.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

RADIUS = 0.19  # of the crop side: the disc compared (the top face's icon, little of the sides)
# A die's own shots choose its disc among these (fitted_radius): a solid's top face and icon
# size vary (an octahedron's small icons sit close to its neighbours' on a triangular face)
RADII = (0.13, 0.16, 0.19, 0.22)
FIT_SHOTS = 3  # every face needs this many shots for the choice (one left out, two to match)
RINGS = 12
ANGLES = 64  # points on a ring: rotations are tried in steps of 360/64 degrees
SHIFT = 8 / 96  # of the crop side: the query's centre searched this far each way ...
SHIFT_STEPS = 5  # ... on a grid of 5 x 5 centres
BLUR = 1.0  # px of Gaussian blur before sampling (a ring's points are ~1.2 px apart at its edge)
BEST_SHOTS = 2  # a face scores the mean of its two best-matching shots


def _discs(crop: np.ndarray, centres: np.ndarray, radius: float) -> np.ndarray:
    """The discs (`radius` of the side) around `centres` ((K, 2) pixels) as spectra along the
    angle axis, (K, RC, F): each disc less its mean colour and of unit length; outer rings
    weigh more (they cover more of the icon) but not in full proportion to their area."""
    if crop.ndim != 3 or crop.shape[2] != 3:
        raise ValueError(f"an icon crop must be BGR, not of shape {crop.shape}")
    image = cv2.GaussianBlur(crop.astype(np.float32), (0, 0), BLUR)
    rho = (np.arange(RINGS) + 0.5) / RINGS * radius * image.shape[0]
    theta = np.arange(ANGLES) / ANGLES * 2 * np.pi
    map_x = centres[:, 0, None, None] + rho[None, :, None] * np.cos(theta)[None, None]
    map_y = centres[:, 1, None, None] + rho[None, :, None] * np.sin(theta)[None, None]
    shape = (len(centres) * RINGS, ANGLES)
    sampled = cv2.remap(image, map_x.reshape(shape).astype(np.float32),
                        map_y.reshape(shape).astype(np.float32), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    discs = sampled.reshape(len(centres), RINGS, ANGLES, 3)
    discs = (discs - discs.mean(axis=(1, 2), keepdims=True)) * np.sqrt(rho)[None, :, None, None]
    discs /= np.maximum(np.linalg.norm(discs.reshape(len(centres), -1), axis=1), 1e-6)[
        :, None, None, None]
    spectra = np.fft.rfft(discs, axis=2).transpose(0, 1, 3, 2)  # (K, RINGS, 3, F)
    return spectra.reshape(len(centres), RINGS * 3, -1).astype(np.complex64)


def template(crop: np.ndarray, radius: float = RADIUS) -> np.ndarray:
    """A taught shot's disc, centred, as its spectrum along the angle axis: (RINGS*3, F)."""
    side = crop.shape[0]
    return _discs(crop, np.array([[side / 2, side / 2]]), radius)[0]


class IconBank:
    """The taught shots of some faces, ready to score a crop against every one of them at once."""

    def __init__(self, shots: Sequence[np.ndarray], radius: float = RADIUS) -> None:
        """`shots`: per face, its shots' templates (n, RINGS*3, F) made at `radius`; a face may
        have none."""
        self.faces = len(shots)
        self.radius = radius
        # each face's shots as a row of indices into the bank, padded with the index N (no shot)
        most = max((len(s) for s in shots), default=0)
        starts = np.cumsum([0, *(len(s) for s in shots)])
        total = int(starts[-1])
        self._rows = np.full((self.faces, max(most, 1)), total)
        for face, count in enumerate(len(s) for s in shots):
            self._rows[face, :count] = np.arange(starts[face], starts[face] + count)
        stacked = [s for s in shots if len(s)]
        bank = np.concatenate(stacked) if stacked else np.zeros((0, RINGS * 3, 1), np.complex64)
        self._conj = np.ascontiguousarray(np.conj(bank).transpose(2, 1, 0))  # (F, RC, N)

    def scores(self, crop: np.ndarray, without: tuple[int, int] | None = None) -> np.ndarray:
        """Per face: the mean of its BEST_SHOTS shots' best normalised correlations with the
        crop over every rotation and searched centre (-1 for a face with no shots). `without`:
        (face, shot) left out, for matching a taught shot against the others."""
        shots = np.append(similarities(crop, self._conj, self.radius), np.nan)  # padding: NaN
        if without is not None:
            shots[self._rows[without]] = np.nan
        best = -np.sort(-shots[self._rows], axis=1)[:, :BEST_SHOTS]  # NaN sorts last
        counts = (~np.isnan(best)).sum(axis=1)
        return np.where(counts > 0, np.nansum(best, axis=1) / np.maximum(counts, 1), -1.0)


def fitted_radius(crops: Sequence[Sequence[np.ndarray]]) -> float:
    """The disc (of RADII) by which one die's own shots (`crops`, per face) best tell its faces
    apart: each shot, left out in turn, is matched against the rest, and the disc with the most
    shots nearest their own face wins (ties: the widest mean margin to the next face). RADIUS
    when the die has one face or a face has fewer than FIT_SHOTS shots."""
    if len(crops) < 2 or min(len(shots) for shots in crops) < FIT_SHOTS:
        return RADIUS
    fits = []
    for radius in RADII:
        bank = IconBank([np.stack([template(c, radius) for c in shots]) for shots in crops],
                        radius)
        margins = [scores[face] - np.delete(scores, face).max()
                   for face, shots in enumerate(crops) for shot, crop in enumerate(shots)
                   for scores in [bank.scores(crop, without=(face, shot))]]
        fits.append((sum(m > 0 for m in margins), float(np.mean(margins)), radius))
    return max(fits)[2]


def similarities(crop: np.ndarray, conj: np.ndarray, radius: float = RADIUS) -> np.ndarray:
    """Per taught shot (`conj`: their templates' conjugates as (F, RC, N), made at `radius`):
    the crop's best normalised correlation with it over every rotation and searched centre, in
    [-1, 1]."""
    if conj.shape[2] == 0:
        return np.zeros(0)
    side = crop.shape[0]
    steps = np.linspace(-SHIFT * side, SHIFT * side, SHIFT_STEPS) + side / 2
    centres = np.array([(x, y) for x in steps for y in steps])
    query = np.ascontiguousarray(_discs(crop, centres, radius).transpose(2, 0, 1))  # (F, K, RC)
    correlation = np.fft.irfft(np.matmul(query, conj), n=ANGLES, axis=0)  # (ANGLES, K, N)
    return correlation.max(axis=(0, 1))
