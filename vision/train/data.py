"""The training data of the reader's two models, drawn in worker processes: renders of every
kind as wide crops (vision.train.render), synthetic whole scenes whose real dice and surfaces come
from one rig at a time (vision.train.scenes, so a fold can leave a rig's scenes out), and
nell-byler's real tray photos, and the other rigs' one-die photos as whole frames.

Worker functions live here, not in vision.train.__main__: spawned workers import them by module.
"""

from __future__ import annotations

from multiprocessing import get_context
from pathlib import Path

import numpy as np

from vision.train import crossrig, detector_frames, realsets
from vision.train.labels import KINDS, VALUE_LABELS, value_label
from vision.train.realdata import die_box, read_bgr, read_photo
from vision.train.realsets import IGNORE, SIZE, STATES, WIDE, CropSet
from vision.train.render import render_crop
from vision.train.scenes import real_sprites, render_scene

SCENE_SIZE = (512, 384)
SPRITES_PER_RIG = 300  # real dice a rig lends the scenes
CHUNK = 250  # renders a worker draws at a time
SCENE_CHUNK = 50  # ... and scenes

def _render_chunk(args: tuple[int, int]) -> CropSet:
    """`count` rendered dice of every kind in turn (88% flat, 6% cocked, 6% bare), wide crops."""
    seed, count = args
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(count):
        r = rng.random()
        state = "flat" if r < 0.88 else ("cocked" if r < 0.94 else "empty")
        crop = render_crop(rng, SIZE, KINDS[(seed + i) % len(KINDS)], None, state, widen=WIDE)
        k = KINDS.index(crop.kind) if state != "empty" else IGNORE
        v = VALUE_LABELS.index(value_label(crop.kind, crop.value)) if state == "flat" else IGNORE
        rows.append((crop.image, k, v, STATES.index(state), crop.level))
    images, kinds, values, states, level = zip(*rows, strict=True)
    n = len(rows)
    return CropSet(np.stack(images), np.array(kinds), np.array(values), np.array(states),
                   np.full(n, "render"), np.full(n, "render"), np.array(level, bool),
                   np.ones(n, bool), np.ones(n, bool))


_SPRITES: dict[str, list] = {}
_TEXTURES: dict[str, list[np.ndarray]] = {}


def _init_scenes(crops: dict[str, tuple[np.ndarray, list]], bare: dict[str, np.ndarray]) -> None:
    """Worker set-up: each rig's real dice cut out once, its bare surfaces as textures."""
    for rig, (images, labels) in crops.items():
        _SPRITES[rig] = real_sprites(list(images), labels)
        _TEXTURES[rig] = list(bare.get(rig, ()))


def _scene_chunk(
    args: tuple[int, int, str, float, bool],
) -> list[tuple[np.ndarray, np.ndarray, list]]:
    """`count` scenes whose real dice (`real_share` of them) and surfaces all come from one rig
    ("render": none), drawn with the hard negatives or not."""
    seed, count, rig, share, hard = args
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        scene = render_scene(rng, *SCENE_SIZE, _SPRITES.get(rig, ()), _TEXTURES.get(rig, ()),
                             share, hard_negatives=hard)
        out.append((scene.image, scene.boxes, list(zip(scene.kinds, scene.values, strict=True))))
    return out


def rig_material(real: CropSet, seed: int) -> tuple[dict, dict]:
    """Per rig (nell-byler's excepted: its trays are real scenes already), up to
    SPRITES_PER_RIG of its clearly labelled die crops to cut out, and its bare-surface crops."""
    rng = np.random.default_rng(seed)
    flat, empty = STATES.index("flat"), STATES.index("empty")
    crops, bare = {}, {}
    for rig in np.unique(real.rigs):
        if rig in realsets.RIG_FOLDS[-1] or rig == realsets.TABLE_HELD_OUT:
            continue
        rows = np.flatnonzero((real.rigs == rig) & (real.states == flat) & real.measurable)
        pick = rng.choice(rows, min(SPRITES_PER_RIG, len(rows)), replace=False)
        labels = [(k, int(v)) for k, v in (VALUE_LABELS[i].rsplit(":", 1) for i in
                                           real.values[pick])]
        crops[str(rig)] = (real.images[pick], labels)
        bare[str(rig)] = real.images[(real.rigs == rig) & (real.states == empty)]
    return crops, bare


def tray_frames(folder: Path) -> list[tuple[np.ndarray, list[crossrig.Truth]]]:
    """nell-byler's real tray photos with every die's truth."""
    frames = []
    for path, dice in realsets.tray_photos(folder).items():
        frames.append((read_bgr(path), [("d6", value, box) for value, box in dice]))
    return frames


def renders(count: int, seed: int, workers: int) -> CropSet:
    """`count` rendered wide crops, drawn in seeded chunks (the worker count changes nothing)."""
    jobs = [(seed * 1_000_000 + s, min(CHUNK, count - s)) for s in range(0, count, CHUNK)]
    with get_context("spawn").Pool(workers) as pool:
        return realsets.concat(*pool.map(_render_chunk, jobs))


Scene = tuple[np.ndarray, np.ndarray, list[tuple[str, int]]]  # image, boxes, (kind, value)s


def scenes(
    real: CropSet, count: int, held_out: tuple[str, ...], per_held_out: int, seed: int,
    workers: int, real_share: float, hard_negatives: bool = False,
) -> tuple[list[tuple[Scene, str]], dict[str, list[Scene]]]:
    """`count` training scenes, each tagged with the rig its real dice and surfaces came from
    ("render": none), drawn from every rig in turn (rendered-only ones twice as often); and per
    rig in `held_out`, `per_held_out` scenes of its real dice alone, to read whole frames of a
    rig its models never saw. `hard_negatives`: scenes.render_scene's."""
    rigs = sorted(str(r) for r in set(real.rigs)
                  if r not in realsets.RIG_FOLDS[-1] and r != realsets.TABLE_HELD_OUT)
    sources = ["render", "render", *rigs]
    jobs = [(seed * 1_000_000 + 500_000 + s, min(SCENE_CHUNK, count - s),
             sources[i % len(sources)], real_share, hard_negatives)
            for i, s in enumerate(range(0, count, SCENE_CHUNK))]
    held = [(seed * 1_000_000 + 900_000 + i * 1000, per_held_out, rig, 1.0, hard_negatives)
            for i, rig in enumerate(held_out) if rig in rigs]
    crops, bare = rig_material(real, seed)
    with get_context("spawn").Pool(workers, _init_scenes, (crops, bare)) as pool:
        drawn = pool.map(_scene_chunk, jobs + held)
    train = [(scene, rig) for (_, _, rig, *_), part in zip(jobs, drawn, strict=False)
             for scene in part]
    return train, {rig: part for (_, _, rig, *_), part in zip(held, drawn[len(jobs):],
                                                            strict=True)}


def photo_frames(per_rig: int) -> list[tuple[Scene, str]]:
    """Each rig's one-die photos (nell-byler's trays aside) as whole frames, `per_rig` a rig,
    framed as they are: ucffool's 256 px photos with the die most of their side, skovy's crops
    of about 100 px. Photo mode reads frames so framed; no drawn scene is. None is a photo
    the benches read (detector_frames.training_photos)."""
    out = []
    for rig, photos in detector_frames.training_photos(per_rig).items():
        for photo in photos:
            image = read_photo(photo)
            box = np.array([die_box(photo, image)], np.float32)
            out.append(((image, box, [(photo.kind, photo.value)]), rig))
    return out
