"""Synthetic patches of a die's top-face numeral, for the numeral reader (2D, no 3D die).

Seen from above, a numbered die shows its top face in the middle of its outline: one numeral,
upright at any angle, inside a triangle (d8, d20), kite (d10, d%) or pentagon (d12), with the
neighbouring faces' numerals, shaded and foreshortened, around it. The whole-die renders teach
the classifier the kind; the numeral reader only has to read the middle, and a flat 2D patch of
print on plastic is far easier to draw like a real die than a 3D one.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.train.dataset import cached_patches
from vision.train.labels import FACE_VALUES, face_text
from vision.train.materials import die_material
from vision.train.render import (
    GLYPH_HEIGHT,
    DieStyle,
    camera_effects,
    fit_glyph,
    glyph,
    random_style,
)

NUMBERED = ("d8", "d10", "d%", "d12", "d20")
# every text printed on a numbered die's face, each the reader's class once
TEXTS: tuple[str, ...] = tuple(
    sorted({face_text(k, v) for k in NUMBERED for v in FACE_VALUES[k]}, key=lambda t: (len(t), t))
)
# the kinds each text is printed on ("10" on a d20, a d12 and a d%)
PRINTED_ON: dict[str, list[str]] = {
    t: [k for k in NUMBERED if t in {face_text(k, v) for v in FACE_VALUES[k]}] for t in TEXTS
}
SIDES = {"d8": 3, "d20": 3, "d10": 4, "d%": 4, "d12": 5}
PATCHES_VERSION = 3  # part of the patch caches' names: bump when the patches change
# Share of patches whose top face is off the middle (and its numeral foreshortened more), as a die
# away from the camera's axis shows it. Measured (10-minute runs, read with model 3.2.0's own
# value at weight 0): held-out real d20 95.3% -> 95.7%, rendered d20s 55.1% -> 60.5%.
TILTED_SHARE = 0.3
PATCH_SIZE = 48  # the reader's input: the middle of a 96 px crop is ~41 px wide
_SS = 2  # drawn at twice the size, then shrunk


def _face_polygon(sides: int, inradius: float, angle: float) -> np.ndarray:
    """Vertices (sides, 2) of a regular polygon centred at 0 with one edge below the numeral
    when angle is the numeral's turn (radians; a kite is drawn as a rhombus, near enough)."""
    circum = inradius / np.cos(np.pi / sides)
    # an edge's midpoint straight below the numeral (direction +y in image coordinates)
    first = angle + np.pi / 2 + np.pi / sides
    t = first + 2 * np.pi * np.arange(sides) / sides
    stretch = 1.35 if sides == 4 else 1.0  # a kite is longer along the numeral's up axis
    up = np.array([np.sin(angle), -np.cos(angle)])
    pts = np.stack([np.cos(t), np.sin(t)], 1) * circum
    along = pts @ up
    return pts + np.outer(along * (stretch - 1), up)


def _stamp(
    canvas: np.ndarray, mask: np.ndarray, centre: tuple[float, float], height: float,
    angle: float, squash: float, squash_dir: float,
) -> None:
    """Add a GLYPH mask onto canvas (float, same size as the patch) turned by `angle`, scaled so
    the numeral is `height` px tall, squashed by `squash` along `squash_dir` (foreshortening)."""
    g = mask.shape[0]
    s = height / (GLYPH_HEIGHT * g)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    d = np.array([np.cos(squash_dir), np.sin(squash_dir)])
    squeeze = np.eye(2) - (1 - squash) * np.outer(d, d)
    m = squeeze @ rot * s
    offset = np.array(centre) - m @ np.array([g / 2, g / 2])
    affine = np.hstack([m, offset[:, None]]).astype(np.float32)
    size = (canvas.shape[1], canvas.shape[0])
    canvas[:] = np.maximum(canvas, cv2.warpAffine(mask, affine, size, flags=cv2.INTER_LINEAR))


# Share of texts holding a 1 whose 1s are drawn as strokes (text_mask): the fonts here give the
# 1 a short flag, real dice often a long one, and a reader that never saw one reads it as a 7.
# Measured (10-minute runs): held-out real d20s read alone 73.8% -> 95.3% (the black die's 1
# 0% -> 68%, the speckled blue's 11 46% -> 100%).
DRAWN_ONE_SHARE = 0.5


def _drawn_one(rng: np.random.Generator, height: int, stroke: int) -> np.ndarray:
    """A 1 drawn as strokes on a mask `height` px tall: a stem, a flag of random length and
    slope, sometimes a foot."""
    flag = rng.uniform(0.15, 0.35) * height
    slope = np.radians(rng.uniform(25, 60))  # below the horizontal (a flatter, longer one is a 7)
    foot = rng.random() < 0.4
    width = int(max(flag * np.cos(slope), 0.35 * height if foot else 0) + 3 * stroke)
    mask = np.zeros((height + 2 * stroke, width * 2), np.uint8)
    x, top, bottom = width, stroke, height + stroke
    cv2.line(mask, (x, top), (x, bottom), 255, stroke, cv2.LINE_AA)
    end = (int(x - flag * np.cos(slope)), int(top + flag * np.sin(slope)))
    cv2.line(mask, (x, top), end, 255, stroke, cv2.LINE_AA)
    if foot:
        half = int(0.35 * height / 2 + stroke)
        cv2.line(mask, (x - half, bottom), (x + half, bottom), 255, stroke, cv2.LINE_AA)
    return mask


def _ink_columns(mask: np.ndarray) -> np.ndarray:
    cols = np.flatnonzero(mask.max(axis=0) > 0)
    return mask[:, cols.min() : cols.max() + 1]


def text_mask(rng: np.random.Generator, text: str, style: DieStyle) -> np.ndarray:
    """The numeral's GLYPH x GLYPH float mask: the style's face, or (DRAWN_ONE_SHARE of texts
    holding a 1) the face's other digits beside 1s drawn as strokes."""
    if "1" not in text or text in ("6", "9") or rng.random() >= DRAWN_ONE_SHARE:
        return glyph(text, style.font, style.thickness, style.six_nine_mark)
    digits = [(glyph(ch, style.font, style.thickness, "") * 255).astype(np.uint8) for ch in text]
    height = int(np.ptp(np.flatnonzero(digits[0].max(axis=1) > 0))) + 1
    stroke = max(2, int(height * rng.uniform(0.08, 0.16)))
    parts = []
    for ch, mask in zip(text, digits, strict=True):
        part = _drawn_one(rng, height, stroke) if ch == "1" else mask
        rows = np.flatnonzero(part.max(axis=1) > 0)
        part = _ink_columns(part[rows.min() : rows.max() + 1])
        parts.append(cv2.resize(part, (part.shape[1], height)))
    gap = np.zeros((height, max(1, height // 10)), np.uint8)
    return fit_glyph(np.hstack([p for part in parts for p in (part, gap)][:-1]))


def numeral_patch(
    rng: np.random.Generator, text: str, size: int = PATCH_SIZE
) -> np.ndarray:
    """A BGR uint8 patch of a die's top face showing `text`, as vision.numerals.centre_patch
    cuts it from a crop of a die seen from above."""
    kind = str(rng.choice(PRINTED_ON[text]))
    s = size * _SS
    style = random_style(rng)
    material = die_material(rng, s, s)
    body = material.body.copy()
    # light across the patch: a ramp and a soft glint
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / s - 0.5
    ramp = rng.uniform(-0.25, 0.25) * (xx * np.cos(a := rng.uniform(0, 6.3)) + yy * np.sin(a))
    body *= (1 + ramp)[..., None]

    angle = rng.uniform(0, 2 * np.pi)
    height = s * rng.uniform(0.3, 0.62)  # the numeral's height in the patch
    centre = np.array([s / 2, s / 2]) + rng.normal(0, 0.04 * s, 2)
    if rng.random() < TILTED_SHARE:  # seen at a slant, the top face lies off the outline's middle
        shift = rng.uniform(0.04, 0.15) * s
        away = rng.uniform(0, 6.3)
        centre += shift * np.array([np.cos(away), np.sin(away)])
    sides = SIDES[kind]
    inradius = height * rng.uniform(0.85, 1.35)
    poly = _face_polygon(sides, inradius, angle + rng.normal(0, 0.05)) + centre
    # neighbour faces: each beyond one edge, turned away from the light by its own amount
    pts = np.stack([xx, yy], -1) * s + s / 2
    normals, beyond = [], []
    for i in range(sides):
        a0, a1 = poly[i], poly[(i + 1) % sides]
        edge = a1 - a0
        n = np.array([edge[1], -edge[0]]) / np.linalg.norm(edge)
        if np.dot(n, a0 - centre) < 0:
            n = -n
        normals.append(n)
        beyond.append((pts - a0) @ n)
    dist = np.stack(beyond)  # (sides, s, s): > 0 outside that edge
    outside = dist.max(axis=0) > 0
    nearest = dist.argmax(axis=0)
    shade = rng.uniform(0.55, 1.1, sides).astype(np.float32)
    factor = np.where(outside, shade[nearest], 1.0).astype(np.float32)
    body *= factor[..., None]
    # the face's edges: a rounded ridge catches light or shadow
    ridge = np.exp(-(dist.max(axis=0) ** 2) / (2 * (rng.uniform(0.6, 2.5) * _SS) ** 2))
    body *= (1 + rng.uniform(-0.3, 0.35) * ridge)[..., None]

    ink_mask = np.zeros((s, s), np.float32)
    _stamp(ink_mask, text_mask(rng, text, style), tuple(centre), height, angle,
           rng.uniform(0.65, 1.0), rng.uniform(0, np.pi))
    # the neighbours' numerals, foreshortened across the edge they lie beyond
    others = [t for t in TEXTS if t != text]
    for n in normals:
        if rng.random() < 0.15:
            continue
        where = centre + n * inradius * rng.uniform(1.5, 2.3) + rng.normal(0, 0.05 * s, 2)
        other = str(rng.choice(others))
        _stamp(ink_mask, text_mask(rng, other, style), tuple(where),
               height * rng.uniform(0.8, 1.0), rng.uniform(0, 2 * np.pi),
               rng.uniform(0.45, 0.85), float(np.arctan2(n[1], n[0])))
    ink = np.array(material.ink, np.float32) * (factor * 0.3 + 0.7)[..., None]
    img = body * (1 - ink_mask[..., None]) + ink * ink_mask[..., None]
    if rng.random() < 0.5:  # a specular glint
        gx, gy = rng.uniform(0, s, 2)
        glint = np.exp(-((pts[..., 0] - gx) ** 2 + (pts[..., 1] - gy) ** 2)
                       / (2 * (s * rng.uniform(0.05, 0.2)) ** 2))
        img = img + (255 - img) * (glint * rng.uniform(0.2, 0.7))[..., None]
    small = cv2.resize(np.clip(img, 0, 255), (size, size), interpolation=cv2.INTER_AREA)
    return camera_effects(small.astype(np.float32), rng)


def _patch_chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """One seeded chunk of patches, texts drawn evenly: images and text indices."""
    seed, count, size = args
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(TEXTS), count)
    return np.stack([numeral_patch(rng, TEXTS[i], size) for i in labels]), labels


def patches(
    count: int, seed: int, workers: int = 2, size: int = PATCH_SIZE
) -> tuple[np.ndarray, np.ndarray]:
    """`count` numeral patches (N, size, size, 3) and their TEXTS indices, cached like renders."""
    return cached_patches(f"numerals-v{PATCHES_VERSION}", _patch_chunk, count, seed, workers, size)
