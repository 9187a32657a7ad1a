"""Training and evaluation arrays: synthetic renders and real photo crops, cached on disk.

Rendering is the slow part of `make model`, so crops are made once (in parallel worker processes,
seeded per chunk so the result does not depend on the worker count) and cached under artifacts/.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import TypeVar

import numpy as np

from vision.train.labels import KINDS, VALUE_LABELS, value_label
from vision.train.realdata import REPO, Photo, real_crop, seen_level
from vision.train.render import RENDER_VERSION, render_crop

CACHE_SIZE = 96  # crops are cached larger than the model input so augmentation can resample
STATES = ("flat", "cocked", "empty")
IGNORE = -100  # label index the losses skip (no value for a cocked die, no kind for an empty crop)
CHUNK = 500
T = TypeVar("T")


@dataclass(frozen=True)
class Arrays:
    """Crops (N, S, S, 3) uint8 BGR with kind, value and state label indices, and which crops
    show a die as a level camera sees it from the side (training turns those only a little)."""

    images: np.ndarray
    kinds: np.ndarray
    values: np.ndarray
    states: np.ndarray
    level: np.ndarray

    def __len__(self) -> int:
        return len(self.images)

    def take(self, keep: np.ndarray) -> Arrays:
        """The rows `keep` selects (a bool mask or indices), every column alike."""
        return Arrays(*(getattr(self, f)[keep] for f in Arrays.__annotations__))

    def of_kinds(self, kinds: tuple[str, ...]) -> np.ndarray:
        """Which rows show a die of one of `kinds` (empty crops, of no kind, never do)."""
        return np.isin(self.kinds, [KINDS.index(k) for k in kinds])


def artifacts_dir() -> Path:
    """Where caches and checkpoints go (gitignored)."""
    path = REPO / "artifacts"
    path.mkdir(exist_ok=True)
    return path


def _labels(kind: str, value: int, state: str) -> tuple[int, int, int]:
    k = KINDS.index(kind) if state != "empty" else IGNORE
    v = VALUE_LABELS.index(value_label(kind, value)) if state == "flat" else IGNORE
    return k, v, STATES.index(state)


def _render_chunk(
    args: tuple[int, int, int], kinds: tuple[str, ...] = KINDS
) -> tuple[np.ndarray, np.ndarray]:
    """Render one seeded chunk, the dice's kinds taken in turn from `kinds`: images and (kind,
    value, state, level) rows."""
    seed, count, size = args
    rng = np.random.default_rng(seed)
    images = np.empty((count, size, size, 3), np.uint8)
    labels = np.empty((count, 4), np.int64)
    for i in range(count):
        r = rng.random()
        state = "flat" if r < 0.88 else ("cocked" if r < 0.94 else "empty")
        crop = render_crop(rng, size, kinds[(seed + i) % len(kinds)], None, state)
        images[i] = crop.image
        labels[i] = (*_labels(crop.kind, crop.value, state), crop.level)
    return images, labels


def render_chunks(
    render: Callable[[tuple[int, int, int]], T], count: int, seed: int, size: int, workers: int
) -> list[T]:
    """`render((chunk seed, n, size))` over chunks of CHUNK making `count` in all, in `workers`
    spawned processes; each chunk is seeded by its place, so the worker count changes nothing."""
    jobs = [
        (seed * 100_000 + start, min(CHUNK, count - start), size)
        for start in range(0, count, CHUNK)
    ]
    with get_context("spawn").Pool(workers) as pool:
        return pool.map(render, jobs)


def cached_patches(
    name: str,
    draw: Callable[[tuple[int, int, int]], tuple[np.ndarray, np.ndarray]],
    count: int,
    seed: int,
    workers: int,
    size: int,
) -> tuple[np.ndarray, np.ndarray]:
    """`count` patches (N, size, size, 3) and their text indices, drawn by `draw` over seeded
    chunks (render_chunks) and cached under artifacts/ as `name` (with its version) and the
    count, seed and size."""
    cache = artifacts_dir() / f"{name}-{count}-{seed}-{size}.npz"
    if cache.exists():
        data = np.load(cache)
        return data["images"], data["texts"]
    parts = render_chunks(draw, count, seed, size, workers)
    images = np.concatenate([p[0] for p in parts])
    labels = np.concatenate([p[1] for p in parts])
    np.savez(cache, images=images, texts=labels)
    return images, labels


def synthetic(
    count: int,
    seed: int,
    workers: int = 2,
    size: int = CACHE_SIZE,
    kinds: tuple[str, ...] = KINDS,
) -> Arrays:
    """`count` rendered crops of `kinds` (cached by kinds/count/seed/size), rendered by `workers`
    processes. Of every kind alike, cocked dice and empty crops included."""
    named = "" if kinds == KINDS else "-" + "-".join(kinds)
    cache = artifacts_dir() / f"synthetic-v{RENDER_VERSION}{named}-{count}-{seed}-{size}.npz"
    if cache.exists():
        data = np.load(cache)
        return Arrays(*(data[f] for f in Arrays.__annotations__))
    parts = render_chunks(partial(_render_chunk, kinds=kinds), count, seed, size, workers)
    images = np.concatenate([p[0] for p in parts])
    labels = np.concatenate([p[1] for p in parts])
    data = Arrays(images, labels[:, 0], labels[:, 1], labels[:, 2], labels[:, 3].astype(bool))
    np.savez(cache, **{f: getattr(data, f) for f in Arrays.__annotations__})
    return data


def _crop_photo(args: tuple[Photo, int]) -> np.ndarray:
    photo, size = args
    return real_crop(photo, size)


def real(photos: list[Photo], name: str, workers: int = 2, size: int = CACHE_SIZE) -> Arrays:
    """Crops of real photos (cached under `name` and a digest of the photos and their labels:
    a table's photo folder grows, and a count alone would find a stale cache), labelled flat;
    level as realdata.seen_level says."""
    level = np.array([seen_level(p) for p in photos], bool)
    digest = hashlib.sha1()
    for p in photos:
        digest.update(f"{p.path}|{p.kind}|{p.value}\n".encode())
    cache = artifacts_dir() / f"real-{name}-{len(photos)}-{digest.hexdigest()[:10]}-{size}.npz"
    if cache.exists():
        data = np.load(cache)
        return Arrays(data["images"], data["kinds"], data["values"], data["states"], level)
    with get_context("spawn").Pool(workers) as pool:
        images = np.stack(pool.map(_crop_photo, [(p, size) for p in photos], chunksize=64))
    labels = np.array([_labels(p.kind, p.value, "flat") for p in photos], np.int64)
    np.savez(cache, images=images, kinds=labels[:, 0], values=labels[:, 1], states=labels[:, 2])
    return Arrays(images, labels[:, 0], labels[:, 1], labels[:, 2], level)


def concat(*parts: Arrays) -> Arrays:
    """One Arrays holding all the parts' rows, in order."""
    return Arrays(*(np.concatenate([getattr(p, f) for p in parts]) for f in Arrays.__annotations__))
