"""Synthetic tray frames with known die boxes, for the reader's settling and thumbnail tests.

Flat polygons with a numeral, a soft shadow and lighting falloff on any tray/table colour: quick
frames of a tray for the parts that need no model. What the learned detector finds is tested on
the renderer's trays (vision.train.render), which look like what it learnt from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SHAPES = {"d4": 3, "d6": 4, "d8": 6, "d10": 5, "d12": 10, "d20": 6}


@dataclass(frozen=True)
class Scene:
    frame: np.ndarray
    boxes: tuple[tuple[int, int, int, int], ...]


def _colour(rng: np.random.Generator, away_from: np.ndarray, gap: float = 90.0) -> np.ndarray:
    for _ in range(200):
        c = rng.integers(0, 256, 3)
        if np.linalg.norm(c - away_from) > gap:
            return c
    return 255 - away_from


def _polygon(cx: float, cy: float, r: float, sides: int, angle: float) -> np.ndarray:
    pts = [
        (
            cx + r * math.cos(angle + 2 * math.pi * k / sides),
            cy + r * math.sin(angle + 2 * math.pi * k / sides),
        )
        for k in range(sides)
    ]
    return np.array(pts, np.int32)


def _centres(
    rng: np.random.Generator, n: int, r: float, area: tuple[int, int, int, int], touching: bool
) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = area
    centres: list[tuple[float, float]] = []
    tries = 0
    while len(centres) < n and tries < 5000:
        tries += 1
        if touching and centres and rng.random() < 0.6:
            bx, by = centres[int(rng.integers(len(centres)))]
            a = rng.uniform(0, 2 * math.pi)
            cx, cy = bx + 2.0 * r * math.cos(a), by + 2.0 * r * math.sin(a)
        else:
            cx, cy = rng.uniform(x0 + r, x1 - r), rng.uniform(y0 + r, y1 - r)
        if not (x0 + r <= cx <= x1 - r and y0 + r <= cy <= y1 - r):
            continue
        if all(math.hypot(cx - px, cy - py) >= 1.95 * r for px, py in centres):
            centres.append((cx, cy))
    return centres


def make_scene(
    seed: int,
    n_dice: int = 10,
    size: tuple[int, int] = (960, 1280),
    touching: bool = False,
    die_px: float = 90.0,
) -> Scene:
    """A tray of a random colour on a table of another, with n flat dice of random colours."""
    rng = np.random.default_rng(seed)
    h, w = size
    table = rng.integers(0, 256, 3)
    tray = _colour(rng, table, 60)
    frame = np.empty((h, w, 3), np.float32)
    frame[:] = table
    mx, my = int(w * rng.uniform(0.03, 0.1)), int(h * rng.uniform(0.03, 0.1))
    cv2.rectangle(frame, (mx, my), (w - mx, h - my), tray.tolist(), -1)
    r = die_px / 2.0 * rng.uniform(0.85, 1.15)
    centres = _centres(rng, n_dice, r, (mx + 8, my + 8, w - mx - 8, h - my - 8), touching)
    boxes = []
    shadow = np.zeros((h, w), np.float32)
    polys = []
    for cx, cy in centres:
        sides = SHAPES[list(SHAPES)[int(rng.integers(len(SHAPES)))]]
        poly = _polygon(cx, cy, r * (1.15 if sides == 3 else 1.0), sides, rng.uniform(0, 6.3))
        polys.append((poly, sides))
        cv2.fillPoly(shadow, [poly + np.array([6, 8], np.int32)], 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 6)
    frame = (frame * (1.0 - 0.35 * shadow)[..., None]).astype(np.uint8)
    for poly, _ in polys:
        body = _colour(rng, tray)
        cv2.fillPoly(frame, [poly], body.tolist())
        cv2.polylines(frame, [poly], True, (body * 0.6).tolist(), 3)
        ink = (255 - body).tolist()
        cx, cy = poly.mean(axis=0)
        text = str(int(rng.integers(1, 21)))
        cv2.putText(
            frame,
            text,
            (int(cx - 14 * len(text)), int(cy + 14)),
            cv2.FONT_HERSHEY_SIMPLEX,
            1.3,
            ink,
            3,
            cv2.LINE_AA,
        )
        x, y, bw, bh = cv2.boundingRect(poly)
        boxes.append((x, y, x + bw, y + bh))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    light = 1.1 - 0.3 * np.hypot(xx - gx, yy - gy) / math.hypot(w, h)
    frame = frame.astype(np.float32) * light[..., None] + rng.normal(0, 3.0, frame.shape)
    return Scene(np.clip(frame, 0, 255).astype(np.uint8), tuple(boxes))

