"""The frames the dice detector is judged on, rig by rig (bench/detector_rigs_bench.py).

The detector must find every die and box nothing else on tables it never saw, so each rig of
../shared gives frames of its own: its real photos as they are (ucffool's one die on a cloth,
wood or a turntable, skovy's webcam crops, nell-byler's trays), the same tables with no die (a
one-die photo's strip beside its die; a tray with its dice painted out), and for ucffool's rigs
one of its dice cut out and dropped big (150-400 px) into a large empty rendered tray of a
1280x960 frame (one die alone in a big tray: the failure of issue 53, the tray boxed as a die),
or half out of the frame. Rendered scenes holding no die (trays, cloths, wood, cards, coins,
hands; drawn with and without the hard negatives of issue 53: paper, dice boxes, domes, spotted
cloth, shadows and glints) belong to no rig. Truth boxes of the real photos are those training uses
(realdata.die_box, nell-byler's boxes.csv).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.train import realsets
from vision.train.realdata import (
    Photo,
    datasets_root,
    die_box,
    die_sprite,
    is_held_out,
    load_photos,
    read_bgr,
)
from vision.train.realdata import read_photo as read_die_photo
from vision.train.render import (
    DieStyle,
    Sprite,
    paste,
    random_spec,
    random_style,
    render_die,
    shadow,
)
from vision.train.scenes import cloth_scene, dark_tray_scene, photographed, render_scene, tray_scene

# a frame with one die: the frame, the die's box (x0, y0, x1, y1), its kind and value
Lone = tuple[np.ndarray, tuple[float, float, float, float], tuple[str, int]]
FRAME = (1280, 960)  # width, height of the pasted frames: the tray camera's
BIG = (150.0, 400.0)  # px across a die dropped alone into a large tray, log-uniform
ALONE = (40.0, 350.0)  # ... photographed alone on a black tray or a cloth (bench reader)
ABOVE = (100.0, 350.0)  # ... a rendered die seen from above on a black tray (bench reader)
ABOVE_TILT = (0.0, 8.0)  # ... that many degrees off straight down
CUT = (60.0, 300.0)  # ... and one cut by the frame's edge
IN_FRAME = (0.55, 0.8)  # share of a cut die's width (or height) inside the frame
PAINT_GROW = 0.25  # a die is painted out (or kept out) over its box grown by this share
MIN_BARE = 48  # px across both ways, a bare strip of a one-die photo kept as a frame
SPRITE_TRIES = 40  # photos tried for a die that can be cut out of its surface
BENCH_PHOTOS = 60  # photos a rig bench/detector_rigs_bench.py reads (rig_photos)
ONE_DIE_PHOTOS = 200  # photos a rig bench/reader_bench.py sets alone on drawn tables (rig_photos)
NEAR = 2  # frames of a run this close to a bench photo are its near twins: not trained on


@dataclass
class FrameSet:
    """Frames of one source on one rig ("render": none), each with its dice's boxes."""

    rig: str
    source: str
    images: list[np.ndarray] = field(default_factory=list)
    boxes: list[np.ndarray] = field(default_factory=list)  # per frame (n, 4) x0, y0, x1, y1

    def add(self, image: np.ndarray, boxes: list | np.ndarray) -> None:
        self.images.append(image)
        self.boxes.append(np.asarray(boxes, np.float32).reshape(-1, 4))


def _by_rig() -> dict[str, list[Photo]]:
    """Every rig's photos (nell-byler's aside) in path order (a run's frames in turn)."""
    table = realsets.rig_table(datasets_root())
    by_rig: dict[str, list[Photo]] = {}
    for photo in load_photos():
        by_rig.setdefault(realsets.rig_of(table, photo), []).append(photo)
    return {rig: sorted(photos, key=lambda p: str(p.path)) for rig, photos in sorted(by_rig.items())}


def _spread(count: int, per_rig: int) -> list[int]:
    step = max(1, count // per_rig)
    return list(range(0, count, step))[:per_rig]


def rig_photos(per_rig: int) -> dict[str, list[Photo]]:
    """Per rig of rigs.csv (nell-byler's aside), `per_rig` of its photos spread evenly over them
    in path order (neighbouring turntable frames are near twins)."""
    return {rig: [photos[i] for i in _spread(len(photos), per_rig)]
            for rig, photos in _by_rig().items()}


def training_photos(per_rig: int) -> dict[str, list[Photo]]:
    """Per rig, up to `per_rig` photos spread over those the benches do not read: none of
    rig_photos(BENCH_PHOTOS) (the detector's bench) or rig_photos(ONE_DIE_PHOTOS) (the
    reader's dice alone on drawn tables), nor a frame within NEAR of one (its near twin), nor
    one of the held-out runs the reader's benches read (realdata.is_held_out). The reader
    bench's detection_on_real_photos spreads over labels.csv instead and may share a few."""
    picked = {}
    for rig, photos in _by_rig().items():
        near = {i + d for n in (BENCH_PHOTOS, ONE_DIE_PHOTOS) for i in _spread(len(photos), n)
                for d in range(-NEAR, NEAR + 1)}
        free = [p for i, p in enumerate(photos) if i not in near and not is_held_out(p)]
        picked[rig] = [free[i] for i in _spread(len(free), per_rig)]
    return picked


def painted_out(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The photo with every die painted over by its surroundings (OpenCV's Telea inpainting of
    each box grown by PAINT_GROW): the same table with no die on it."""
    mask = np.zeros(image.shape[:2], np.uint8)
    for x0, y0, x1, y1 in boxes:
        gx, gy = (x1 - x0) * PAINT_GROW, (y1 - y0) * PAINT_GROW
        cv2.rectangle(mask, (int(x0 - gx), int(y0 - gy)), (int(x1 + gx), int(y1 + gy)), 255, -1)
    return cv2.inpaint(image, mask, 5, cv2.INPAINT_TELEA)


def bare_part(image: np.ndarray, box: np.ndarray) -> np.ndarray | None:
    """The largest strip of a one-die photo beside its die's box (grown by PAINT_GROW): the
    same real table with no die and no painting's smear; None when no strip is MIN_BARE px
    across both ways."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box
    gx, gy = (x1 - x0) * PAINT_GROW, (y1 - y0) * PAINT_GROW
    left, right = max(0, int(x0 - gx)), min(w, int(np.ceil(x1 + gx)))
    top, bottom = max(0, int(y0 - gy)), min(h, int(np.ceil(y1 + gy)))
    strips = [image[:, :left], image[:, right:], image[:top], image[bottom:]]
    best = max(strips, key=lambda s: s.shape[0] * s.shape[1])
    return best.copy() if min(best.shape[:2]) >= MIN_BARE else None


def _sprite(rng: np.random.Generator, photos: list[Photo], diameter: float) -> Sprite:
    for _ in range(SPRITE_TRIES):
        sprite = die_sprite(photos[int(rng.integers(len(photos)))], diameter)
        if sprite is not None:
            return sprite
    raise ValueError(f"no die could be cut out of {SPRITE_TRIES} of these photos")


def _size(rng: np.random.Generator, span: tuple[float, float]) -> float:
    return float(np.exp(rng.uniform(np.log(span[0]), np.log(span[1]))))


def big_alone(rng: np.random.Generator, photos: list[Photo]) -> tuple[np.ndarray, list]:
    """One of the photos' dice, BIG px across, dropped on the floor of a large empty tray."""
    scene, floor = tray_scene(rng, FRAME[1], FRAME[0])
    d = _size(rng, BIG)
    frame, box = laid_alone(rng, scene, floor, _sprite(rng, photos, d), d)
    return frame, [box]


def alone_in_dark_tray(rng: np.random.Generator, photos: list[Photo]) -> Lone:
    """One of the photos' dice, ALONE px across, on the floor of a large black tray."""
    scene, floor = dark_tray_scene(rng, FRAME[1], FRAME[0])
    d = _size(rng, ALONE)
    sprite = _sprite(rng, photos, d)
    return (*laid_alone(rng, scene, floor, sprite, d), (sprite.kind, sprite.value))


def alone_from_above(rng: np.random.Generator, kind: str, style: DieStyle | None) -> Lone:
    """One rendered die of `kind`, ABOVE px across, seen within ABOVE_TILT of straight down,
    on the floor of a large black tray; drawn in `style` (None: training's random styles). No
    rig of ../shared holds such a photo (issue 52's hidden top-down photos do)."""
    scene, floor = dark_tray_scene(rng, FRAME[1], FRAME[0])
    d = _size(rng, ABOVE)
    sprite = render_die(random_spec(rng, kind, diameter=d, tilt_deg=ABOVE_TILT), rng,
                        style or random_style(rng))
    return (*laid_alone(rng, scene, floor, sprite, d), (sprite.kind, sprite.value))


def alone_on_cloth(rng: np.random.Generator, photos: list[Photo]) -> Lone:
    """One of the photos' dice, ALONE px across, on a cloth or table filling the frame."""
    scene = cloth_scene(rng, FRAME[1], FRAME[0])
    floor = np.full(scene.shape[:2], 255, np.uint8)
    d = _size(rng, ALONE)
    sprite = _sprite(rng, photos, d)
    return (*laid_alone(rng, scene, floor, sprite, d), (sprite.kind, sprite.value))


def laid_alone(rng: np.random.Generator, scene: np.ndarray, floor: np.ndarray, sprite: Sprite,
               d: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The scene (float BGR) photographed with `sprite`, a die `d` px across, wholly on its
    `floor` (uint8 0/255), and the die's box."""
    floor[[0, -1]] = 0  # the frame's edge bounds the floor too: the die lies wholly in view
    floor[:, [0, -1]] = 0
    room = cv2.distanceTransform(floor, cv2.DIST_L2, 3)
    ys, xs = np.nonzero(room >= 0.5 * d)
    if len(xs) == 0:  # a tray too narrow for it: it lies in the middle, over the rim
        x, y = scene.shape[1] / 2, scene.shape[0] / 2
    else:
        i = int(rng.integers(len(xs)))
        x, y = float(xs[i]), float(ys[i])
    box = paste(scene, sprite, x, y, shadow(rng, d))
    return photographed(rng, scene), box


def cut_by_edge(rng: np.random.Generator, photos: list[Photo]) -> tuple[np.ndarray, list]:
    """One of the photos' dice, CUT px across, lying over one edge of the frame (IN_FRAME of
    it inside), in a large tray or on the bare table beyond it."""
    width, height = FRAME
    scene, _ = tray_scene(rng, height, width)
    d = _size(rng, CUT)
    sprite = _sprite(rng, photos, d)
    inside = rng.uniform(*IN_FRAME) * d
    edge = int(rng.integers(4))
    along = rng.uniform(0.15, 0.85)
    x, y = [(inside - d / 2, along * height), (width - inside + d / 2, along * height),
            (along * width, inside - d / 2), (along * width, height - inside + d / 2)][edge]
    box = paste(scene, sprite, x, y, shadow(rng, d))
    return photographed(rng, scene), [box]


def rendered_empty(count: int, seed: int, hard_negatives: bool) -> FrameSet:
    """`count` rendered scenes with no die (scenes.render_scene's tables, trays and things;
    `hard_negatives`: paper, boxes, domes, spotted cloth, cast shadows and glints among them)."""
    rng = np.random.default_rng(seed)
    out = FrameSet("render", "no die, negatives" if hard_negatives else "rendered, no die")
    for _ in range(count):
        out.add(render_scene(rng, with_dice=False, hard_negatives=hard_negatives).image, [])
    return out


def rig_frames(per_rig: int, pasted: int, seed: int) -> list[FrameSet]:
    """Every rig's frame sets: `per_rig` real photos and their bare strips; for ucffool's
    rigs `pasted` big-alone and cut-by-the-edge frames; nell-byler's 250 trays and the same
    painted out."""
    sets = []
    for rig, photos in rig_photos(per_rig).items():
        real, empty = FrameSet(rig, "photos"), FrameSet(rig, "bare beside the die")
        for photo in photos:
            image = read_die_photo(photo)
            box = np.array(die_box(photo, image), np.float32)
            real.add(image, box)
            bare = bare_part(image, box)
            if bare is not None:
                empty.add(bare, [])
        sets += [real, empty]
        if rig.startswith("ucffool"):
            sets += [_drawn(rig, "big alone in a tray", big_alone, photos, pasted, seed),
                     _drawn(rig, "cut by the edge", cut_by_edge, photos, pasted, seed + 1)]
    trays = FrameSet("nell-byler-trays", "trays")
    empty = FrameSet("nell-byler-trays", "painted out")
    for path, dice in realsets.tray_photos(datasets_root() / realsets.NELL).items():
        image = read_bgr(path)
        boxes = np.array([b for _, b in dice], np.float32)
        trays.add(image, boxes)
        empty.add(painted_out(image, boxes), [])
    return [*sets, trays, empty]


def _drawn(rig: str, source: str, draw: Callable, photos: list[Photo], count: int,
           seed: int) -> FrameSet:
    rng = np.random.default_rng(seed)
    out = FrameSet(rig, source)
    for _ in range(count):
        out.add(*draw(rng, photos))
    return out
