"""Patches of a d6's top face for the pip reader: the middle of a rendered die crop.

The shared photo sets hold no real pipped d6 (ucffool's d6s are numbered), so the dice model has
only ever seen pips on its renders, drawn one size and one spacing: another camera's pipped d6s
it read 60.3% right (model 3.2.0). The pip reader sees the renders' pipped d6s with pips of many
sizes and spacings, and learns a last text, OTHER, from everything that is not a pipped face (a
numbered d6, the other kinds), so that it can stand aside for the dice model there.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.numerals import centre_patch
from vision.train.dataset import cached_patches
from vision.train.labels import KINDS
from vision.train.render import GRAIN, random_style, render_crop

PIP_VALUES = (1, 2, 3, 4, 5, 6)
OTHER = "other"  # not a face of pips: the reader stands aside
TEXTS: tuple[str, ...] = (*(str(v) for v in PIP_VALUES), OTHER)
# The middle of the die's box the reader reads: seen from above, a d6's top face fills its box
# (turned 45 degrees, 0.71 of it), and its corner pips lie 0.3 of a face side from the middle.
PIP_SHARE = 0.85
PATCH_SIZE = 48
CROP_SIZE = 96  # the dice model's crop, cut as the runtime cuts it, before the middle is taken
# Share of patches that show no pips, and of those the share that show another kind than a
# numbered d6. Reader 1.0.0's first run (0.3, half) stood aside on every held-out real numbered
# die, but took 14 of 2,100 rendered dice of other kinds (blurred, speckled, small numerals) for
# pips; more of them teach it otherwise.
OTHER_SHARE = 0.4
OTHER_KINDS_SHARE = 0.65
# Share of patches blurred as by a lens out of focus (a Gaussian of 1-3 px on the 96 px crop).
# Reader 1.0.0, which saw only the renders' own light blur, took 16 of 120 rendered dice of other
# kinds for pips in the lighting bench's out-of-focus tray (blurred numerals look like pips).
BLURRED_SHARE = 0.25
# Share of patches whose die is seen OBLIQUE_DEG degrees off vertical, pipped or not. The renders
# draw most dice within 20 degrees of straight above, but photos are often taken at a slant, and
# reader 1.0.0 stood aside on 41.7% of the other camera's pipped d6s, all seen at a slant. Past 45
# degrees a side face shows larger than the top one, so no photo's top face can be told that way.
OBLIQUE_SHARE = 0.35
OBLIQUE_DEG = (20.0, 45.0)
# Share of patches whose die has a sandy grain (DieStyle.grain) of render.GRAIN grey levels.
# Readers without it stood aside on two thirds of the other camera's grainy red d6s, reading them
# far better once a median filter had taken the grain away (26% -> 66% right).
GRAINY_SHARE = 0.3
# Share of pipped dice whose pips are drilled PIP_DEPTH pip radii deep (DieStyle.pip_depth): the
# other camera's red d6 shows its gold pips as lit crescents, which flat-painted pips never do.
DRILLED_SHARE = 0.5
PIP_DEPTH = (0.3, 1.5)
# part of the patch caches' names: bump when the patches change. 4: pip sizes and spreads drawn
# exactly, no longer rounded to hundredths (under a hundredth of a pip's radius; reader 1.0.0 had
# 3); 5: OBLIQUE_SHARE of dice seen at a slant; 6: GRAINY_SHARE of grainy dice; 7: DRILLED_SHARE
# of pipped dice with drilled pips; 8: render v7 (the camera's effects on the crop's part alone)
PATCHES_VERSION = 8


def pip_patch(rng: np.random.Generator, text: str, size: int = PATCH_SIZE) -> np.ndarray:
    """A BGR uint8 patch showing `text`: a pipped d6 of that value, or (OTHER) a die that shows
    no pips on top, as vision.numerals.centre_patch cuts it from the die's crop."""
    style = random_style(rng)
    if rng.random() < GRAINY_SHARE:
        style = replace(style, grain=float(rng.uniform(*GRAIN)))
    tilt = OBLIQUE_DEG if rng.random() < OBLIQUE_SHARE else None
    if text == OTHER:
        others = [k for k in KINDS if k != "d6"]
        kind = str(rng.choice(others)) if rng.random() < OTHER_KINDS_SHARE else "d6"
        crop = render_crop(rng, CROP_SIZE, kind, style=replace(style, pips=False), tilt_deg=tilt)
    else:
        depth = float(rng.uniform(*PIP_DEPTH)) if rng.random() < DRILLED_SHARE else 0.0
        pips = replace(style, pips=True, pip_size=float(rng.uniform(0.7, 1.4)),
                       pip_spread=float(rng.uniform(0.85, 1.2)), pip_depth=depth)
        crop = render_crop(rng, CROP_SIZE, "d6", int(text), style=pips, tilt_deg=tilt)
    image = crop.image
    if rng.random() < BLURRED_SHARE:  # a lens out of focus: blurred pips, blurred numerals
        image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(1.0, 3.0)))
    return centre_patch(image, size, PIP_SHARE)


def _patch_chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """One seeded chunk of patches: images and TEXTS indices."""
    seed, count, size = args
    rng = np.random.default_rng(seed)
    other = TEXTS.index(OTHER)
    labels = np.where(rng.random(count) < OTHER_SHARE, other, rng.integers(0, other, count))
    return np.stack([pip_patch(rng, TEXTS[i], size) for i in labels]), labels


def patches(
    count: int, seed: int, workers: int = 2, size: int = PATCH_SIZE
) -> tuple[np.ndarray, np.ndarray]:
    """`count` pip patches (N, size, size, 3) and their TEXTS indices, cached like renders."""
    return cached_patches(f"pips-v{PATCHES_VERSION}", _patch_chunk, count, seed, workers, size)
