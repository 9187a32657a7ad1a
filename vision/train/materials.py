"""Random looks for synthetic scenes: table backgrounds and die materials (numpy + OpenCV only).

Real trays and dice vary in colour, texture and light far more than any one photo set shows, so
every render draws its looks at random from broad families (felt, wood, paper, plastic trays;
opaque, pearl/marbled, speckled and translucent dice).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

INK_COLOURS = (
    (250, 250, 250),
    (235, 235, 235),
    (40, 190, 230),
    (30, 160, 210),
    (20, 20, 20),
    (40, 40, 200),
    (60, 60, 60),
    (200, 200, 200),
)


def smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Low-frequency noise in [0, 1]: grains of `scale` pixels, bicubically enlarged."""
    gh, gw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    grid = rng.random((gh, gw)).astype(np.float32)
    big = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big, 0.0, 1.0)


def random_hue_colour(
    rng: np.random.Generator, sat: tuple[float, float], val: tuple[float, float]
) -> np.ndarray:
    """A BGR colour (float 0-255) of random hue within saturation/value ranges."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.uniform(*sat) * 255, rng.uniform(*val) * 255]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table or tray surface: felt, wood, paper, plastic or a photo-like blotchy mix."""
    style = rng.choice(
        ["felt", "wood", "paper", "plastic", "blotchy"], p=[0.28, 0.25, 0.17, 0.15, 0.15]
    )
    if style == "paper":
        base = np.full((h, w, 3), rng.uniform(185, 245), np.float32)
        base *= (1 + rng.normal(0, 0.04, 3)).astype(np.float32)
    else:
        sat = (0.05, 0.35) if style == "wood" else (0.2, 0.95)
        val = (0.35, 0.85) if style == "wood" else (0.12, 0.9)
        colour = random_hue_colour(rng, sat, val)
        if style == "wood":
            colour = np.float32(
                [rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(140, 225)]
            )
        base = np.broadcast_to(colour, (h, w, 3)).astype(np.float32).copy()
    if style == "wood":
        ang = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = xx * np.cos(ang) + yy * np.sin(ang)
        warp = smooth_noise(rng, h, w, rng.uniform(20, 80)) * rng.uniform(5, 30)
        period = rng.uniform(4, 18)
        grain = 0.5 + 0.5 * np.sin((t + warp) * 2 * np.pi / period)
        base *= (1 - rng.uniform(0.1, 0.3) * grain)[..., None]
    elif style == "felt":
        base *= (1 + rng.normal(0, rng.uniform(0.02, 0.07), (h, w, 1))).astype(np.float32)
    elif style == "blotchy":
        other = random_hue_colour(rng, (0.1, 0.8), (0.2, 0.9))
        mix = smooth_noise(rng, h, w, rng.uniform(30, 150))[..., None]
        base = base * (1 - mix) + other * mix
    # uneven light across the surface
    light = smooth_noise(rng, h, w, max(h, w) / 2) * rng.uniform(0.1, 0.5)
    base *= 1 - light[..., None] + rng.uniform(0, 0.2)
    return np.clip(base, 0, 255)


@dataclass(frozen=True)
class Material:
    """How one die looks: body colour field, ink colour, translucency, speckles."""

    body: np.ndarray  # (h, w, 3) float BGR colour field in the die canvas
    ink: tuple[float, float, float]
    opacity: float
    shininess: float


def die_material(rng: np.random.Generator, h: int, w: int) -> Material:
    """Random die plastic: opaque, pearl/marbled, speckled, or translucent, with a contrasting ink."""
    look = rng.choice(["opaque", "marbled", "speckled", "translucent"], p=[0.35, 0.25, 0.2, 0.2])
    if rng.random() < 0.2:
        colour = (
            np.float32([rng.uniform(10, 60)] * 3)
            if rng.random() < 0.5
            else np.float32([rng.uniform(190, 245)] * 3)
        )
    else:
        colour = random_hue_colour(rng, (0.35, 1.0), (0.25, 0.95))
    body = np.broadcast_to(colour, (h, w, 3)).astype(np.float32)  # a new array
    if look == "marbled":
        other = (
            np.float32([rng.uniform(180, 255)] * 3)
            if rng.random() < 0.6
            else random_hue_colour(rng, (0.2, 1.0), (0.3, 1.0))
        )
        # pearl and marbled plastic swirls on the scale of the die, not of a pixel
        swirl = smooth_noise(rng, h, w, max(h, w) * rng.uniform(0.1, 0.35))
        swirl = 0.5 + 0.5 * np.sin(swirl * rng.uniform(4, 12))
        body = body * (1 - 0.7 * swirl[..., None]) + other * 0.7 * swirl[..., None]
    elif look == "speckled":
        spots = rng.random((h, w)) < rng.uniform(0.01, 0.05)
        spot_colour = (
            np.float32([rng.uniform(0, 60)] * 3)
            if rng.random() < 0.6
            else random_hue_colour(rng, (0.3, 1.0), (0.5, 1.0))
        )
        spots = cv2.dilate(spots.astype(np.uint8), np.ones((2, 2), np.uint8)).astype(bool)
        body[spots] = spot_colour
    luminance = float(colour @ np.float32([0.114, 0.587, 0.299]))
    candidates = [c for c in INK_COLOURS if abs(np.dot(c, (0.114, 0.587, 0.299)) - luminance) > 70]
    ink = candidates[rng.integers(len(candidates))] if candidates else (250, 250, 250)
    opacity = rng.uniform(0.55, 0.85) if look == "translucent" else 1.0
    return Material(body, tuple(float(c) for c in ink), opacity, rng.uniform(0.0, 0.6))
