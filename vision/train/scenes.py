"""Synthetic whole-frame dice scenes for training the dice detector (numpy + OpenCV only).

The detector must find every die, and nothing else, on tables it has never seen, so each scene
draws at random: a table (procedural, a board or patterned cloth, or a real surface photo),
mostly a tray on it, rendered or real cut-out dice spread, clustered or pressed against the rim,
things that are not dice (coins, cards, tokens, wooden pieces, miniatures, pencils, a hand), a
lamp, a tilted camera and the camera's own effects. Which die each pixel shows is kept in an
owner map through occlusion and the tilt, so a box is always the die's visible extent, and a die
mostly hidden or out of frame is not boxed. No torch: scenes are drawn in worker processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.train.materials import background, random_hue_colour, smooth_noise
from vision.train.realdata import die_alpha
from vision.train.render import (
    Sprite,
    camera_effects,
    paste,
    random_spec,
    random_style,
    render_die,
    shadow,
)

EMPTY_SHARE = 0.05  # of scenes with no die: the detector must also learn to answer nothing
MAX_DICE = 25
DIAMETER = (10.0, 80.0)  # px across, drawn log-uniform
BIG_SHARE = 0.15  # of scenes that are close-ups: one to three dice BIG_DIAMETER across, no tray
# (a photo of one die on a table, a die taught close to the camera: 5% left them unfound)
BIG_DIAMETER = (60.0, 240.0)
# of close-ups, those of one big die alone in a large tray that the frame cuts (issue 53: on
# such photos the tray was boxed as a die)
BIG_TRAY_SHARE = 0.5
SAME_SIZE_SHARE = 0.3  # of scenes whose dice are all about one size (one set, one camera height)
FLOOR_USE = 0.4  # at most this share of the free floor is covered by dice, so many dice fit
REAL_SHARE = 0.4  # of dice cut from real photos, when real dice are given
TRAY_SHARE = 0.7
TEXTURE_SHARE = 0.5  # of surfaces cut from real photos, when textures are given
PATTERN_SHARE = 0.2  # of surfaces drawn as a board game's board or a patterned cloth
TILT_SHARE = 0.4
SYMBOL_SHARE = 0.15  # of rendered dice marked with symbols: a taught custom die is a die too
TILT_DEG = (10.0, 45.0)
GLARE_SHARE = 0.25  # of scenes with shadows cast from out of view and a lamp's glints
HAND_SHARE = 0.1
MAX_THINGS = 6  # things that are not dice, per scene
CARD_OVER_SHARE = 0.3  # of cards dropped over the dice rather than lying under them
SPOT_TRIES = 30  # places tried for a die before it is left out
TOUCH = (0.8, 1.0)  # centre distance of touching dice, in sums of their radii (a little overlap)
MIN_VISIBLE = 0.4  # share of a die's in-frame pixels that must show past what covers it
MIN_IN_FRAME = 0.5  # share of a die's pixels that must lie within the frame
SOLID = 0.5  # alpha above which a pixel is the die's (as render.paste boxes it)
METALS = ((70, 175, 215), (185, 185, 190), (70, 115, 185), (95, 160, 200))  # BGR coin metals
WOODS = ((90, 150, 200), (60, 110, 170), (120, 180, 220))
MEEPLE = np.float32(
    [
        (-0.25, -0.3),
        (0.25, -0.3),
        (0.9, -0.1),
        (0.85, 0.12),
        (0.4, 0.08),
        (0.7, 0.95),
        (0.15, 0.95),
        (0.0, 0.55),
        (-0.15, 0.95),
        (-0.7, 0.95),
        (-0.4, 0.08),
        (-0.85, 0.12),
        (-0.9, -0.1),
    ]
)  # a meeple's body outline; its head is a circle above


@dataclass(frozen=True)
class Scene:
    """A rendered frame and the box and kind of every die that shows in it."""

    image: np.ndarray  # BGR uint8 (height, width, 3)
    boxes: np.ndarray  # float32 (n, 4) x0, y0, x1, y1 of each die's visible extent
    kinds: tuple[str, ...]  # per box, the die's kind
    values: tuple[int, ...]  # per box, its top value (0 for a real die given none)


@dataclass(frozen=True)
class _Die:
    """A die laid in the scene, as the owner map needs it to be boxed."""

    kind: str
    value: int
    centre: tuple[float, float]
    radius: float
    window: tuple[int, int, int, int]  # x0, y0, x1, y1 of its sprite within the frame
    own: int  # its solid pixels, in the frame or not
    framed: int  # those in the frame


def render_scene(
    rng: np.random.Generator,
    width: int = 512,
    height: int = 384,
    real_dice: Sequence[Sprite] = (),
    textures: Sequence[np.ndarray] = (),
    real_share: float = REAL_SHARE,
    with_dice: bool = True,
    hard_negatives: bool = False,
) -> Scene:
    """One random scene: table, maybe a tray, dice and not-dice, light, tilt, camera effects;
    `real_dice` (cut-out real dice) stand for `real_share` of the dice, `textures` (real
    surface photos) for some surfaces. Without dice: what a table shows when none was rolled.
    `hard_negatives` (issue 53): also paper, dice boxes, domes, spotted cloth, cast shadows and
    glints, and half the close-ups in a large tray the frame cuts. Off by default: the shipped
    detector was trained without them, and a fine-tune with them lost real dice
    (docs/reader-history.md); the bench draws both."""
    table = _surface(rng, height, width, textures, hard_negatives)
    big = rng.random() < BIG_SHARE
    floor = None
    if (not big or hard_negatives) and rng.random() < (BIG_TRAY_SHARE if big else TRAY_SHARE):
        outer, floor = tray_masks(rng, height, width, large=big)
        scene = _draw_tray(rng, table, outer, floor, textures)
    else:
        scene = table.copy()  # the bare table stays, to fill what a tilt brings into view
    owner = np.zeros((height, width), np.uint8)  # which die (1-based) each pixel shows
    taken: list[tuple[float, float, float]] = []  # circles of things dice keep off
    over = _things(rng, scene, taken, hard_negatives)
    dice = (_dice(rng, scene, owner, floor, taken, (real_dice, real_share), big)
            if with_dice else [])
    if rng.random() < HAND_SHARE:
        over.append((_hand(rng, height, width), width / 2, height / 2))
    for sprite, x, y in over:
        paste(scene, sprite, x, y, shadow(rng, min(sprite.alpha.shape)))
        part = _frame_part(sprite.alpha.shape, x, y, owner.shape)
        if part is not None:
            owner[part[1]][sprite.alpha[part[0]] > SOLID] = 0
    before = np.bincount(owner.ravel(), minlength=len(dice) + 1)
    hom = _tilt(rng, height, width) if rng.random() < TILT_SHARE else None
    if hom is not None:
        fill = cv2.warpPerspective(table, hom, (width, height), borderMode=cv2.BORDER_REFLECT)
        scene = cv2.warpPerspective(
            scene, hom, (width, height), dst=fill, borderMode=cv2.BORDER_TRANSPARENT
        )
        owner = cv2.warpPerspective(owner, hom, (width, height), flags=cv2.INTER_NEAREST)
    image = photographed(rng, scene, glare=hard_negatives)
    boxes, shown = _boxes(dice, owner, before, hom)
    return Scene(image, boxes, tuple(d.kind for d in shown), tuple(d.value for d in shown))


def tray_scene(
    rng: np.random.Generator, height: int, width: int, textures: Sequence[np.ndarray] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """A table with an empty tray on it (float BGR, unlit: `photographed` finishes it once
    what lies in it is drawn) and the tray's floor (uint8 0/255)."""
    outer, floor = tray_masks(rng, height, width)
    return _draw_tray(rng, _surface(rng, height, width, textures), outer, floor, textures), floor


def dark_tray_scene(rng: np.random.Generator, height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """A large black or dark grey tray nearly filling the frame (some of its rim out of view),
    its rim a little lighter, on a table: the scene of issue 53's failure, where the tray was
    read as a die. Float BGR, unlit, and the tray's floor (uint8 0/255)."""
    outer, floor = tray_masks(rng, height, width, large=True)
    scene = _surface(rng, height, width, ())
    dark = rng.uniform(6, 35)
    tint = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    scene[outer > 0] = tint * np.float32(dark * rng.uniform(1.2, 2.0))
    scene[floor > 0] = tint * np.float32(dark)
    return scene, floor


def cloth_scene(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A patterned cloth (spots among its patterns) or a table filling the frame, float BGR."""
    if rng.random() < 0.5:
        return _pattern(rng, height, width, spots=True)
    return _surface(rng, height, width, ())


def photographed(rng: np.random.Generator, scene: np.ndarray, glare: bool = False) -> np.ndarray:
    """A drawn scene (float BGR) under the room's light (`glare`: sometimes with shadows cast
    from out of view and a lamp's glints), through the camera: uint8 BGR."""
    return camera_effects(_light(rng, scene, glare), rng)


def real_sprites(
    crops: Sequence[np.ndarray], labels: Sequence[tuple[str, int]] = ()
) -> list[Sprite]:
    """Dice cut out of square real crops (die_alpha), to set real dice on synthetic tables;
    crops it cannot cut are skipped. `labels`, per crop, its kind and value (("", 0) when not
    given)."""
    out = []
    for i, crop in enumerate(crops):
        alpha = die_alpha(crop)
        if alpha is not None:
            rgb = crop.astype(np.float32) * alpha[..., None]
            kind, value = labels[i] if labels else ("", 0)
            out.append(Sprite(rgb, alpha, kind, value))
    return out


def tray_masks(
    rng: np.random.Generator, height: int, width: int, large: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """A tray's outline (rim included) and floor, uint8 0/255: a rectangle, some with rounded
    corners, some turned a few degrees, some partly out of frame or filling nearly all of it
    (`large`: always)."""
    frame = np.array((width, height), np.float64)
    if large or rng.random() < 0.2:
        size = frame * rng.uniform(0.92, 1.08, 2)
        centre = frame / 2 + rng.normal(0, 0.03, 2) * frame
    else:
        size = frame * rng.uniform(0.45, 0.9, 2)
        centre = frame / 2 + rng.normal(0, 0.12, 2) * frame
    turn = float(rng.normal(0, 4)) if rng.random() < 0.5 else 0.0
    radius = float(rng.uniform(0, 0.25) * size.min()) if rng.random() < 0.6 else 0.0
    rim = float(rng.uniform(0.015, 0.07) * min(width, height))
    outer = np.zeros((height, width), np.uint8)
    floor = np.zeros((height, width), np.uint8)
    cv2.fillPoly(outer, [_rounded(centre, size, radius, turn)], 255, cv2.LINE_AA, shift=4)
    inner = _rounded(centre, size - 2 * rim, max(0.0, radius - rim), turn)
    cv2.fillPoly(floor, [inner], 255, cv2.LINE_AA, shift=4)
    return outer, floor


def _rounded(centre: np.ndarray, size: np.ndarray, radius: float, degrees: float) -> np.ndarray:
    """Outline of a rectangle `size` (w, h) with corners rounded to `radius`, turned by
    `degrees` about `centre`, in 1/16 px for cv2's shift=4."""
    w, h = size
    r = min(radius, w / 2, h / 2)
    arcs = []
    for (sx, sy), start in zip(
        ((1, 1), (-1, 1), (-1, -1), (1, -1)), (0, 90, 180, 270), strict=True
    ):
        a = np.radians(start + np.linspace(0, 90, 7))
        arcs.append(
            np.stack([sx * (w / 2 - r) + r * np.cos(a), sy * (h / 2 - r) + r * np.sin(a)], axis=1)
        )
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return np.round((np.concatenate(arcs) @ turn.T + centre) * 16).astype(np.int32)


def _shifted(a: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """A mask moved by (dx, dy), its edges continued (a tray out of frame goes on)."""
    move = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(a, move, a.shape[::-1], borderMode=cv2.BORDER_REPLICATE)


def _soft(a: np.ndarray, sigma: float) -> np.ndarray:
    """A wide Gaussian blur done at a quarter of the size: full-size blurs of shadows and
    shading cost milliseconds a scene, and their edges are soft anyway."""
    h, w = a.shape
    small = cv2.resize(a, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, sigma / 4))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _draw_tray(
    rng: np.random.Generator,
    table: np.ndarray,
    outer: np.ndarray,
    floor: np.ndarray,
    textures: Sequence[np.ndarray],
) -> np.ndarray:
    """The table with a tray on it: the tray's drop shadow on the table, a rim of a similar or
    contrasting colour lit on one side, a floor of another surface shaded along the wall. The
    shading is gathered in one-channel weights and composited once: colour-image passes are
    what a tray costs."""
    h, w = outer.shape
    o = outer.astype(np.float32) / 255
    f = floor.astype(np.float32) / 255
    light = rng.uniform(0, 2 * np.pi)
    lx, ly = np.cos(light), np.sin(light)
    k = rng.uniform(3, 14)
    drop = _soft(_shifted(o, -lx * k, -ly * k), k) * np.float32(rng.uniform(0.2, 0.6))
    surface = _surface(rng, h, w, textures)
    u = rng.random()
    if u < 0.35:  # of the floor's own colour, lighter or darker
        colour = surface[::8, ::8].mean(axis=(0, 1)) * rng.uniform(0.5, 1.4)
    elif u < 0.55:
        colour = np.float32([rng.uniform(15, 50)] * 3)
    elif u < 0.65:
        colour = np.float32([rng.uniform(190, 240)] * 3)
    else:
        colour = random_hue_colour(rng, (0.15, 0.9), (0.15, 0.9))
    band = o - f
    lit = np.float32(rng.uniform(0.2, 0.6))
    rim = band * (1 + lit * (_shifted(band, 1.5 * lx, 1.5 * ly) - band))
    wall = np.clip(f - _soft(_shifted(f, lx * k, ly * k), k), 0, 1)
    on_table = (1 - o) * (1 - drop)
    on_floor = f * (1 - np.float32(rng.uniform(0.2, 0.6)) * wall)
    scene = cv2.blendLinear(table, surface, on_table, on_floor)
    return cv2.add(scene, _tinted(rim, np.clip(colour, 0, 255)))


def _tinted(gain: np.ndarray, colour: Sequence[float]) -> np.ndarray:
    """A one-channel map times a BGR colour, (h, w, 3): with cv2.merge, five times faster than
    numpy's broadcast over the colour axis, a frame-sized pass a tray and a light each need."""
    return cv2.merge([gain * np.float32(c) for c in colour])


def _surface(
    rng: np.random.Generator, h: int, w: int, textures: Sequence[np.ndarray], spots: bool = False
) -> np.ndarray:
    """A table or tray floor (float32 BGR): a real surface photo, a board or patterned cloth,
    or materials.background's, drawn at half size (a quarter of the cost; the camera's blur
    and noise hide the difference)."""
    u = rng.random()
    if textures and u < TEXTURE_SHARE:
        return _texture(rng, textures[int(rng.integers(len(textures)))], h, w)
    if u > 1 - PATTERN_SHARE:
        return _pattern(rng, h, w, spots)
    half = background(rng, (h + 1) // 2, (w + 1) // 2).astype(np.float32)
    return cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR)


def _texture(rng: np.random.Generator, photo: np.ndarray, h: int, w: int) -> np.ndarray:
    """A random piece of a real surface photo filling (h, w): turned to lie along the frame,
    rescaled, mirror-tiled where the photo is too small (enlarged enough that one mirrored seam
    at most shows each way: more tiles look like a kaleidoscope), flipped, colour jittered (a
    real cloth under other light)."""
    if (photo.shape[0] > photo.shape[1]) != (h > w):
        photo = photo.transpose(1, 0, 2)
    least = max(h / (2 * photo.shape[0]), w / (2 * photo.shape[1]))
    scale = max(least, float(np.exp(rng.uniform(np.log(0.6), np.log(2.5)))))  # px per photo px
    need_h, need_w = int(np.ceil(h / scale)) + 1, int(np.ceil(w / scale)) + 1
    tile = photo
    if photo.shape[0] < need_h or photo.shape[1] < need_w:
        row = np.concatenate([photo, photo[:, ::-1]], axis=1)
        block = np.concatenate([row, row[::-1]], axis=0)
        reps = (-(-need_h // block.shape[0]), -(-need_w // block.shape[1]), 1)
        tile = np.tile(block, reps)
    y = int(rng.integers(0, tile.shape[0] - need_h + 1))
    x = int(rng.integers(0, tile.shape[1] - need_w + 1))
    piece = cv2.resize(tile[y : y + need_h, x : x + need_w], (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        piece = piece[:, ::-1]
    if rng.random() < 0.3:  # another hue of the same weave
        hsv = cv2.cvtColor(np.ascontiguousarray(piece), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int16) + int(rng.integers(0, 180))) % 180
        piece = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    gain = rng.uniform(0.85, 1.15, 3) * rng.uniform(0.7, 1.3)
    return piece.astype(np.float32) * gain.astype(np.float32)


def _pattern(rng: np.random.Generator, height: int, width: int, spots: bool) -> np.ndarray:
    """A board game's board (a grid of coloured squares with lines) or a patterned cloth
    (stripes, checks, dots, blots; `spots`: also a cloth strewn with pip-sized spots): strong
    edges and colours that are not dice. Drawn at half size (as _surface's background) and
    enlarged."""
    h, w = (height + 1) // 2, (width + 1) // 2
    turn = rng.uniform(0, np.pi) if rng.random() < 0.6 else rng.normal(0, 0.05)
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    u = x * np.float32(np.cos(turn)) + y * np.float32(np.sin(turn))
    v = y * np.float32(np.cos(turn)) - x * np.float32(np.sin(turn))
    colours = np.stack([random_hue_colour(rng, (0.1, 0.9), (0.2, 0.95)) for _ in range(5)])
    style = rng.choice(["board", "stripes", "checks", "dots", "blots", "spots"][: 6 if spots else 5])
    p = float(rng.uniform(4, 30))
    if style == "board":
        cells = rng.integers(0, int(rng.integers(2, 6)), (64, 64))
        pick = cells[(v // p).astype(np.int64) % 64, (u // p).astype(np.int64) % 64]
        img = colours[pick]
        lines = ((u % p) < 1) | ((v % p) < 1)
        img[lines] = np.float32([rng.choice([25.0, 235.0])] * 3)
    elif style == "stripes":
        img = colours[(u // p).astype(np.int64) % int(rng.integers(2, 5))]
    elif style == "checks":
        mix = (((u // p) % 2) + ((v // p) % 2))[..., None] / 2
        img = colours[0] * (1 - mix) + colours[1] * mix
    elif style == "dots":
        du, dv = u % p - p / 2, v % p - p / 2
        dots = (du * du + dv * dv < (p * rng.uniform(0.15, 0.4)) ** 2)[..., None]
        img = np.where(dots, colours[1], colours[0])
    elif style == "spots":  # a cloth strewn with pip-sized spots, some in small groups:
        img = np.empty((h, w, 3), np.float32)  # taken for many small d6 (issue 53)
        img[:] = colours[0]
        canvas = np.zeros((h, w), np.uint8)
        for _ in range(int(h * w / rng.uniform(150, 900))):
            at = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            cv2.circle(canvas, at, int(rng.uniform(1, 4)), int(rng.integers(1, 3)), -1,
                       cv2.LINE_AA)
        img[canvas == 1] = colours[1]
        img[canvas == 2] = colours[2]
    else:
        img = colours[(smooth_noise(rng, h, w, p * 2) * 2.99).astype(np.int64)]
    weave = rng.standard_normal((h, w), dtype=np.float32) * np.float32(rng.uniform(0, 0.05))
    light = smooth_noise(rng, h, w, max(h, w) / 2) * np.float32(rng.uniform(0, 0.3))
    img = img.astype(np.float32) * (1 + weave - light)[..., None]
    return cv2.resize(img, (width, height), interpolation=cv2.INTER_LINEAR)


def _dice(
    rng: np.random.Generator,
    scene: np.ndarray,
    owner: np.ndarray,
    floor: np.ndarray | None,
    taken: list[tuple[float, float, float]],
    real: tuple[Sequence[Sprite], float],
    big: bool,
) -> list[_Die]:
    """Lay the dice in place, each over the last (render.paste, with a soft shadow), marking
    their solid pixels in `owner`; a die with no free spot is left out."""
    h, w = owner.shape
    if floor is None:
        dist = rim = None
        room = float(h * w)
    else:
        dist = cv2.distanceTransform(floor, cv2.DIST_L2, 3)
        rim = np.flatnonzero((dist > 0.5) & (dist < 2.5))
        room = float(np.count_nonzero(floor))
    cluster = rng.uniform(0, 0.8)  # chance a die is laid against one already down
    against = rng.uniform(0, 0.5) if rim is not None and rim.size else 0.0
    dice: list[_Die] = []
    for d in _diameters(rng, room, big):
        spot = _spot(rng, d / 2, (h, w), dice, taken, (dist, rim), (cluster, against))
        if spot is None:
            continue
        real_dice, real_share = real
        if real_dice and rng.random() < real_share:
            sprite = _real_die(rng, real_dice[int(rng.integers(len(real_dice)))], d)
        else:
            symbols = rng.random() < SYMBOL_SHARE
            style = replace(random_style(rng), symbols=True) if symbols else None
            sprite = render_die(random_spec(rng, diameter=d), rng, style)
        paste(scene, sprite, spot[0], spot[1], shadow(rng, d))
        solid = sprite.alpha > SOLID
        part = _frame_part(solid.shape, spot[0], spot[1], owner.shape)
        if part is None:
            continue
        inside = solid[part[0]]
        owner[part[1]][inside] = len(dice) + 1
        ys, xs = part[1]
        window = (xs.start, ys.start, xs.stop, ys.stop)
        dice.append(
            _Die(sprite.kind, sprite.value, spot, d / 2, window, int(solid.sum()), int(inside.sum()))
        )
    return dice


def _diameters(rng: np.random.Generator, room: float, big: bool) -> list[float]:
    """Sizes of the dice to lay: few dice more often than many (as players roll), all of about
    one size in some scenes, smaller when many share a small floor."""
    if big:
        return list(_log_uniform(rng, *BIG_DIAMETER, int(rng.integers(1, 4))))
    if rng.random() < EMPTY_SHARE:
        return []
    n = round(float(np.exp(rng.uniform(0, np.log(MAX_DICE + 0.5)))))
    top = float(np.clip(np.sqrt(FLOOR_USE * room / n), DIAMETER[0] + 1, DIAMETER[1]))
    if rng.random() < SAME_SIZE_SHARE:
        one = _log_uniform(rng, DIAMETER[0], top, 1)
        return list(one * rng.uniform(0.88, 1.12, n))
    return list(_log_uniform(rng, DIAMETER[0], top, n))


def _log_uniform(rng: np.random.Generator, lo: float, hi: float, n: int) -> np.ndarray:
    return np.exp(rng.uniform(np.log(lo), np.log(hi), n))


def _spot(
    rng: np.random.Generator,
    r: float,
    shape: tuple[int, int],
    dice: list[_Die],
    taken: list[tuple[float, float, float]],
    tray: tuple[np.ndarray | None, np.ndarray | None],
    odds: tuple[float, float],
) -> tuple[float, float] | None:
    """Where a die of radius r may lie: against a die already down (odds[0]), pressed against
    the tray's wall (odds[1]), or anywhere on the floor (on a bare table, anywhere its centre is
    in frame); None when SPOT_TRIES places all collide. `tray`: the floor's distance map and its
    pixels along the wall (flat indices), None without a tray."""
    h, w = shape
    dist, rim = tray
    for _ in range(SPOT_TRIES):
        u = rng.random()
        if dice and u < odds[0]:
            other = dice[int(rng.integers(len(dice)))]
            a = rng.uniform(0, 2 * np.pi)
            gap = (other.radius + r) * rng.uniform(*TOUCH)
            x, y = other.centre[0] + gap * np.cos(a), other.centre[1] + gap * np.sin(a)
        elif dist is not None and rim is not None and rim.size and u < odds[0] + odds[1]:
            py, px = divmod(int(rim[rng.integers(rim.size)]), w)
            nx = dist[py, min(px + 3, w - 1)] - dist[py, max(px - 3, 0)]
            ny = dist[min(py + 3, h - 1), px] - dist[max(py - 3, 0), px]
            norm = float(np.hypot(nx, ny)) or 1.0  # along the floor's depth, away from the wall
            step = r * rng.uniform(0.95, 1.1)
            x, y = px + nx / norm * step, py + ny / norm * step
        else:
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        if _fits(x, y, r, shape, dice, taken, dist):
            return float(x), float(y)
    return None


def _fits(
    x: float,
    y: float,
    r: float,
    shape: tuple[int, int],
    dice: list[_Die],
    taken: list[tuple[float, float, float]],
    dist: np.ndarray | None,
) -> bool:
    """Whether a die of radius r centred at (x, y) is in frame, on the floor (touching its wall
    at most), overlaps no die more than touching dice do and keeps off the things there."""
    h, w = shape
    if not (0 <= x < w and 0 <= y < h):
        return False
    if dist is not None and dist[int(y), int(x)] < 0.9 * r:
        return False
    if any(np.hypot(x - d.centre[0], y - d.centre[1]) < TOUCH[0] * (r + d.radius) for d in dice):
        return False
    return all(np.hypot(x - tx, y - ty) >= r + tr for tx, ty, tr in taken)


def _frame_part(
    shape: tuple[int, int], cx: float, cy: float, frame: tuple[int, int]
) -> tuple[tuple[slice, slice], tuple[slice, slice]] | None:
    """The part of a sprite of `shape` that render.paste, centring it at (cx, cy), puts in the
    frame: (its slices in the sprite, in the frame), or None when none is."""
    h, w = shape
    x0, y0 = round(cx - w / 2), round(cy - h / 2)
    ax0, ay0 = max(0, -x0), max(0, -y0)
    ax1, ay1 = min(w, frame[1] - x0), min(h, frame[0] - y0)
    if ax1 <= ax0 or ay1 <= ay0:
        return None
    inner = (slice(ay0, ay1), slice(ax0, ax1))
    return inner, (slice(y0 + ay0, y0 + ay1), slice(x0 + ax0, x0 + ax1))


def _real_die(rng: np.random.Generator, sprite: Sprite, diameter: float) -> Sprite:
    """A real cut-out die resized to `diameter` px across its solid part and turned at random
    (a photo's die may lie any way round); the sprite must hold a solid die."""
    ys, xs = np.nonzero(sprite.alpha > SOLID)
    f = diameter / (max(xs.max() - xs.min(), ys.max() - ys.min()) + 1)
    h, w = sprite.alpha.shape
    size = (max(2, round(w * f)), max(2, round(h * f)))
    rgb = cv2.resize(sprite.rgb, size, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(sprite.alpha, size, interpolation=cv2.INTER_AREA)
    return _turned(rgb, alpha, rng.uniform(0, 360), sprite.kind, sprite.value)


def _turned(
    rgb: np.ndarray, alpha: np.ndarray, degrees: float, kind: str = "", value: int = 0
) -> Sprite:
    """A sprite of premultiplied `rgb` and `alpha` turned by `degrees`, on a square canvas that
    holds every corner."""
    h, w = alpha.shape
    side = int(np.ceil(np.hypot(h, w))) + 2
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    turn[:, 2] += ((side - w) / 2, (side - h) / 2)
    return Sprite(
        cv2.warpAffine(rgb.astype(np.float32), turn, (side, side)),
        cv2.warpAffine(alpha.astype(np.float32), turn, (side, side)),
        kind,
        value,
    )


def _things(
    rng: np.random.Generator, scene: np.ndarray, taken: list[tuple[float, float, float]],
    big_things: bool,
) -> list[tuple[Sprite, float, float]]:
    """Draw the things that are not dice under where dice will lie (the compact ones noted in
    `taken` for dice to keep off); return the cards to drop over the dice, with their places.
    Without `big_things`: no paper, boxes or domes (the last BIG_THINGS of THINGS)."""
    h, w = scene.shape[:2]
    n = len(THINGS) - (0 if big_things else BIG_THINGS)
    odds = np.array(THING_ODDS[:n]) / sum(THING_ODDS[:n])
    over = []
    for _ in range(int(rng.integers(0, MAX_THINGS + 1))):
        make = THINGS[int(rng.choice(n, p=odds))]
        sprite = make(rng)
        x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        if make is _card and rng.random() < CARD_OVER_SHARE:
            over.append((sprite, x, y))
            continue
        paste(scene, sprite, x, y, shadow(rng, min(sprite.alpha.shape)))
        if make not in (_card, _pencil, _paper):  # dice may lie on a card, pencil or paper
            taken.append((x, y, 0.4 * max(sprite.alpha.shape)))
    return over


def _disc(d: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A disc d px across: x and y offsets from its centre ((1, s) and (s, 1)), the radius at
    each pixel and its antialiased alpha (s, s)."""
    s = int(np.ceil(d)) + 3
    x = np.arange(s, dtype=np.float32)[None, :] - (s - 1) / 2
    y = np.arange(s, dtype=np.float32)[:, None] - (s - 1) / 2
    r = np.hypot(x, y)
    return x, y, r, np.clip(d / 2 - r + 0.5, 0, 1)


def _coin(rng: np.random.Generator) -> Sprite:
    """A metal coin: lit across, a raised rim catching the light on one side, embossed relief
    and a glint; round and flat, unlike a die."""
    d = rng.uniform(15, 40)
    x, y, r, alpha = _disc(d)
    a = rng.uniform(0, 2 * np.pi)
    towards = (x * np.cos(a) + y * np.sin(a)) / np.maximum(r, 1)
    shade = 1 + 0.25 * (x * np.cos(a) + y * np.sin(a)) / d
    shade = shade + np.where(r > 0.4 * d, 0.45 * towards, 0)
    shade *= 1 - 0.35 * np.exp(-(((r - 0.4 * d) / 0.8) ** 2))
    s = alpha.shape[0]
    shade *= 0.85 + 0.3 * smooth_noise(rng, s, s, max(2.0, d / 6)) * (r < 0.38 * d)
    glint = 90 * np.exp(
        -((x - 0.2 * d * np.cos(a)) ** 2 + (y - 0.2 * d * np.sin(a)) ** 2) / (0.1 * d) ** 2
    )
    metal = np.float32(METALS[int(rng.integers(len(METALS)))]) * rng.uniform(0.7, 1.15)
    colour = np.clip(metal * shade[..., None] + glint[..., None], 0, 255)
    return Sprite((colour * alpha[..., None]).astype(np.float32), alpha, "", 0)


def _card(rng: np.random.Generator) -> Sprite:
    """A playing card: a white or coloured rounded rectangle with a border and a few marks
    (pips, letters), turned at random."""
    cw = rng.uniform(40, 100)
    ch = cw * rng.uniform(1.3, 1.5)
    h, w = int(ch) + 4, int(cw) + 4
    face = (
        np.float32([rng.uniform(215, 250)] * 3) * rng.uniform(0.95, 1.05, 3)
        if rng.random() < 0.6
        else random_hue_colour(rng, (0.3, 0.9), (0.3, 0.9))
    )
    img = np.empty((h, w, 3), np.uint8)  # cv2.putText draws on 8-bit images only
    img[:] = np.clip(face, 0, 255)
    mask = np.zeros((h, w), np.uint8)
    outline = _rounded(np.array((w / 2, h / 2)), np.array((cw, ch)), cw * 0.08, 0.0)
    cv2.fillPoly(mask, [outline], 255, cv2.LINE_AA, shift=4)
    ink = (40, 40, 200) if rng.random() < 0.5 else (30, 30, 30)
    if rng.random() < 0.5:
        m = int(cw * 0.12)
        cv2.rectangle(img, (m, m), (w - m, h - m), ink, 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 9))):  # small suit marks and letters, not die pips
        at = (int(rng.uniform(0.15, 0.85) * w), int(rng.uniform(0.1, 0.9) * h))
        size = max(2, int(cw * rng.uniform(0.03, 0.07)))
        if rng.random() < 0.5:
            cv2.circle(img, at, size, ink, -1, cv2.LINE_AA)
        else:
            text = str(rng.choice(list("AKQJ")))
            cv2.putText(img, text, at, cv2.FONT_HERSHEY_SIMPLEX, size / 8, ink, 1, cv2.LINE_AA)
    alpha = mask.astype(np.float32) / 255
    return _turned(img.astype(np.float32) * alpha[..., None], alpha, rng.uniform(0, 360))


def _token(rng: np.random.Generator) -> Sprite:
    """A flat round game token of a solid colour, its edge darker, some with a printed ring."""
    d = rng.uniform(15, 50)
    _x, _y, r, alpha = _disc(d)
    colour = random_hue_colour(rng, (0.4, 1.0), (0.3, 0.95))
    shade = np.where(r > 0.42 * d, 0.75, 1.0).astype(np.float32)
    img = colour * shade[..., None]
    if rng.random() < 0.5:
        ring = np.abs(r - d * rng.uniform(0.15, 0.3)) < max(1.0, d * 0.05)
        img[ring] = random_hue_colour(rng, (0.0, 1.0), (0.1, 1.0))
    return Sprite((img * alpha[..., None]).astype(np.float32), alpha, "", 0)


def _piece(rng: np.random.Generator) -> Sprite:
    """A wooden cube or meeple of a plain colour, rounded by soft shading; no pips or numbers,
    so the detector learns that a plain cube is not a die."""
    colour = (
        np.float32(WOODS[int(rng.integers(len(WOODS)))])
        if rng.random() < 0.4
        else random_hue_colour(rng, (0.5, 1.0), (0.3, 0.9))
    )
    s = int(rng.uniform(10, 24)) if rng.random() < 0.5 else int(rng.uniform(18, 36))
    mask = np.zeros((s + 4, s + 4), np.uint8)
    if s < 24 and rng.random() < 0.5 or s < 18:
        mask[2 : s + 2, 2 : s + 2] = 255
    else:
        c, half = (s + 4) / 2, s / 2
        cv2.fillPoly(
            mask, [np.round((MEEPLE * half + c) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4
        )
        cv2.circle(
            mask,
            (round(c * 16), round((c - 0.62 * half) * 16)),
            round(0.32 * half * 16),
            255,
            -1,
            cv2.LINE_AA,
            shift=4,
        )
    alpha = mask.astype(np.float32) / 255
    shade = 0.7 + 0.35 * cv2.GaussianBlur(alpha, (0, 0), max(1.0, s / 8))
    img = colour * shade[..., None] * alpha[..., None]
    return _turned(img, alpha, rng.uniform(0, 360))


def _miniature(rng: np.random.Generator) -> Sprite:
    """A miniature seen from above: an irregular grey or painted figure on a round base."""
    d = rng.uniform(22, 45)
    x, y, r, base = _disc(d)
    s = base.shape[0]
    img = np.empty((s, s, 3), np.float32)
    img[:] = np.float32([rng.uniform(20, 70)] * 3) * (1 + 0.3 * (r > 0.45 * d))[..., None]
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    radius = (
        0.32
        * d
        * (
            1
            + sum(
                rng.uniform(0, 0.4 / k) * np.cos(k * a + rng.uniform(0, 6.3)) for k in range(2, 6)
            )
        )
    )
    outline = np.stack([s / 2 + radius * np.cos(a), s / 2 + radius * np.sin(a)], axis=1)
    figure = np.zeros((s, s), np.uint8)
    cv2.fillPoly(figure, [np.round(outline * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    body = np.empty((s, s, 3), np.float32)
    body[:] = np.float32([rng.uniform(90, 170)] * 3)
    if rng.random() < 0.6:  # painted: a few colour patches split by lines across the figure
        for _ in range(int(rng.integers(1, 4))):
            t = rng.uniform(0, np.pi)
            side = x * np.cos(t) + y * np.sin(t) > rng.uniform(-0.2, 0.2) * d
            body[side] = random_hue_colour(rng, (0.2, 0.9), (0.2, 0.9))
    body *= (0.6 + 0.6 * smooth_noise(rng, s, s, max(2.0, d / 8)))[..., None]
    f = figure.astype(np.float32)[..., None] / 255
    img = img * (1 - f) + body * f
    return Sprite(img * base[..., None], base, "", 0)


def _pencil(rng: np.random.Generator) -> Sprite:
    """A pencil (painted body, sharpened wooden tip, graphite point) or a pen (blunt metal
    tip): a long thin bar lit as a cylinder, turned at random."""
    length, thick = rng.uniform(80, 240), rng.uniform(6, 12)
    w, h = int(length) + 4, int(thick) + 4
    along = np.arange(w, dtype=np.float32)[None, :] - 2
    across = np.arange(h, dtype=np.float32)[:, None] - (h - 1) / 2
    pencil = rng.random() < 0.6
    tip = length - (rng.uniform(2.0, 3.0) if pencil else 0.8) * thick
    half = np.where(
        along < tip,
        thick / 2,
        thick / 2 * (1 - (along - tip) / (length - tip) * (0.85 if pencil else 0.4)),
    )
    alpha = np.clip(half - np.abs(across) + 0.5, 0, 1) * np.clip(length - along, 0, 1)
    alpha *= np.clip(along + 1, 0, 1)
    body = random_hue_colour(rng, (0.3, 1.0), (0.2, 0.95))
    wood = np.float32((130, 180, 220)) if pencil else np.float32((170, 170, 175))
    point = along > tip + 0.7 * (length - tip)
    colour = np.where((along < tip)[..., None], body, np.where(point[..., None] & pencil, 50, wood))
    shade = 0.55 + 0.6 * np.cos(np.clip(across / (thick / 2), -1, 1) * 1.2 + 0.3)
    img = (colour * shade[..., None]).astype(np.float32)
    return _turned(img * alpha[..., None], alpha.astype(np.float32), rng.uniform(0, 360))


def _hand(rng: np.random.Generator, h: int, w: int) -> Sprite:
    """A hand and arm reaching in from one edge of the frame, fingers spread, some in a sleeve:
    a frame-sized sprite to paste at the frame's centre."""
    palm = 55 * w / 512 * rng.uniform(0.8, 1.3)
    edge = int(rng.integers(4))
    inward = np.array([(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)][edge])
    a = np.arctan2(inward[1], inward[0]) + rng.normal(0, 0.35)
    ahead = np.array((np.cos(a), np.sin(a)))
    side = np.array((-ahead[1], ahead[0]))
    t = rng.uniform(0.1, 0.9)
    entry = np.array([(0, t * h), (w, t * h), (t * w, 0), (t * w, h)][edge], np.float64)
    reach = rng.uniform(0.2, 0.55) * (w if edge < 2 else h)
    wrist = entry + ahead * reach
    centre = wrist + ahead * palm * 0.8
    mask = np.zeros((h, w), np.uint8)

    def limb(start: np.ndarray, stop: np.ndarray, thick: float) -> None:
        cv2.line(
            mask,
            tuple(np.round(start * 16).astype(int)),
            tuple(np.round(stop * 16).astype(int)),
            255,
            max(1, int(thick)),
            cv2.LINE_AA,
            shift=4,
        )

    limb(entry - ahead * palm, wrist, palm * rng.uniform(0.75, 0.95))
    cv2.ellipse(
        mask,
        (round(centre[0]), round(centre[1])),
        (int(palm * 0.6), int(palm * 0.5)),
        float(np.degrees(a)),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    spread = rng.uniform(0.08, 0.3)
    for k in range(4):
        f = a + (k - 1.5) * spread
        base = centre + ahead * palm * 0.35 + side * (k - 1.5) * palm * 0.22
        finger = palm * rng.uniform(0.45, 0.85) * (1 - 0.15 * abs(k - 1.5))
        limb(base, base + np.array((np.cos(f), np.sin(f))) * finger, palm * 0.2)
    hand_side = rng.choice([-1.0, 1.0])
    thumb = a + hand_side * rng.uniform(0.7, 1.2)
    base = centre + side * hand_side * palm * 0.4
    limb(base, base + np.array((np.cos(thumb), np.sin(thumb))) * palm * 0.55, palm * 0.24)
    alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255, (3, 3), 0)
    hsv = np.uint8(
        [[[rng.uniform(5, 18), rng.uniform(0.25, 0.6) * 255, rng.uniform(0.3, 0.95) * 255]]]
    )
    skin = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    shade = 0.65 + 0.45 * _soft(alpha, palm * 0.25)
    img = np.broadcast_to(skin, (h, w, 3)) * shade[..., None]
    if rng.random() < 0.5:  # a sleeve over the arm up to part way to the wrist
        x = np.arange(w, dtype=np.float32)[None, :] - entry[0]
        y = np.arange(h, dtype=np.float32)[:, None] - entry[1]
        sleeve = (x * ahead[0] + y * ahead[1]) < reach * rng.uniform(0.3, 0.8)
        img = np.where(
            sleeve[..., None],
            random_hue_colour(rng, (0.0, 0.8), (0.1, 0.8)) * shade[..., None],
            img,
        )
    return Sprite((img * alpha[..., None]).astype(np.float32), alpha, "", 0)


def _paper(rng: np.random.Generator) -> Sprite:
    """A sheet of paper (a score pad, a rules page): off-white, ruled or squared some, with
    rows of handwriting-like ink strokes, turned at random; large, flat and full of marks."""
    w, h = int(rng.uniform(90, 220)), int(rng.uniform(110, 280))
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.float32([rng.uniform(200, 250)] * 3) * rng.uniform(0.93, 1.05, 3)
    canvas = np.clip(img, 0, 255).astype(np.uint8)
    ink = (150, 60, 30) if rng.random() < 0.5 else (40, 40, 40)
    step = int(rng.uniform(8, 16))
    if rng.random() < 0.5:  # ruled (or squared) lines
        for y in range(step, h, step):
            cv2.line(canvas, (0, y), (w, y), (200, 170, 150), 1)
        if rng.random() < 0.4:
            for x in range(step, w, step):
                cv2.line(canvas, (x, 0), (x, h), (200, 170, 150), 1)
    for y in range(step, h - step // 2, step):
        x = int(rng.uniform(4, 15))
        while x < w - 10 and rng.random() < 0.92:  # a word: a run of small strokes
            length = int(rng.uniform(6, 30))
            points = np.stack([np.linspace(x, x + length, 6),
                               y - rng.uniform(0, 0.6 * step, 6)], axis=1).astype(np.int32)
            cv2.polylines(canvas, [points], False, ink, 1, cv2.LINE_AA)
            x += length + int(rng.uniform(4, 10))
    alpha = np.ones((h, w), np.float32)
    return _turned(canvas.astype(np.float32), alpha, rng.uniform(0, 360))


def _dice_box(rng: np.random.Generator) -> Sprite:
    """A dice box, a dice tower seen from above or a closed lid: a large rectangle of one
    colour, its walls lit on one side and shaded on the other, open (a dark or felt floor
    inside) or printed; square-cornered like a die, but far bigger and hollow."""
    w, h = int(rng.uniform(60, 200)), int(rng.uniform(60, 200))
    colour = (np.float32(WOODS[int(rng.integers(len(WOODS)))]) if rng.random() < 0.4
              else random_hue_colour(rng, (0.0, 0.8), (0.1, 0.8)))
    wall = int(max(3, rng.uniform(0.05, 0.15) * min(w, h)))
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    light = 0.85 + 0.3 * ((x / w - 0.5) * rng.choice([-1, 1]) + (y / h - 0.5) * rng.choice([-1, 1]))
    img = colour * light[..., None]
    inner = (slice(wall, h - wall), slice(wall, w - wall))
    if rng.random() < 0.6:  # open: the floor inside, a shadow along one wall
        floor = (random_hue_colour(rng, (0.2, 0.8), (0.1, 0.5)) if rng.random() < 0.5
                 else colour * 0.4)
        depth = np.clip(np.minimum(x[:, wall:w - wall] - wall, y[wall:h - wall] - wall) / wall,
                        0, 1)
        img[inner] = floor * (0.55 + 0.45 * depth)[..., None]
    else:  # a lid with a printed band and title
        img[inner] = img[inner] * 0.9 + random_hue_colour(rng, (0.2, 1.0), (0.2, 1.0)) * 0.1
        printed = np.clip(img, 0, 255).astype(np.uint8)  # cv2.putText draws on 8-bit images
        cv2.putText(printed, "DICE"[: int(rng.integers(2, 5))], (wall + 2, h // 2),
                    cv2.FONT_HERSHEY_SIMPLEX, max(0.3, w / 160), (235, 235, 235), 2)
        img = printed.astype(np.float32)
    alpha = np.ones((h, w), np.float32)
    return _turned(img * alpha[..., None], alpha, rng.uniform(0, 360))


def _dome(rng: np.random.Generator) -> Sprite:
    """A clear dice dome (or a glass) from above: the table through it barely tinted, a
    darker rim and a bright crescent of glare; round and see-through, never a die."""
    d = rng.uniform(70, 220)
    x, y, r, alpha = _disc(d)
    a = rng.uniform(0, 2 * np.pi)
    towards = (x * np.cos(a) + y * np.sin(a)) / np.maximum(r, 1)
    rim = np.exp(-(((r - 0.47 * d) / max(1.0, 0.03 * d)) ** 2))
    glare = np.exp(-(((r - 0.35 * d) / max(1.0, 0.06 * d)) ** 2)) * np.clip(towards, 0, 1) ** 3
    cover = alpha * np.float32(rng.uniform(0.1, 0.25)) + 0.5 * rim * alpha
    shine = np.maximum(rim * 0.5, glare) * alpha * 255 * rng.uniform(0.6, 1.0)
    img = np.broadcast_to(shine[..., None], (*shine.shape, 3)).astype(np.float32)
    cover = np.maximum(cover, glare * alpha * 0.9).astype(np.float32)
    return Sprite(img, cover, "", 0)


THINGS: tuple[Callable[[np.random.Generator], Sprite], ...] = (
    _coin,
    _card,
    _token,
    _piece,
    _miniature,
    _pencil,
    _paper,
    _dice_box,
    _dome,
)
# wooden pieces a minority: cubes look die-like; the big things (paper, boxes, domes) rarer, so
# they leave room for the dice
THING_ODDS = (0.19, 0.17, 0.15, 0.09, 0.12, 0.13, 0.06, 0.05, 0.04)
BIG_THINGS = 3  # the last of THINGS: paper, boxes, domes (hard negatives, issue 53)


def _light(rng: np.random.Generator, scene: np.ndarray, glare: bool) -> np.ndarray:
    """The room's light: a gradient across the table, maybe a lamp's hotspot or a vignette, a
    colour cast, and now and then a dark room or a glaring lamp (camera_effects adds more);
    `glare`: GLARE_SHARE of the time, shadows cast from out of view and a lamp's glints."""
    h, w = scene.shape[:2]
    x = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    y = np.linspace(-h / w, h / w, h, dtype=np.float32)[:, None]
    a = rng.uniform(0, 2 * np.pi)
    gain = 1 + np.float32(rng.uniform(0, 0.4)) * (
        x * np.float32(np.cos(a)) + y * np.float32(np.sin(a))
    )
    if rng.random() < 0.4:
        cx, cy, s = rng.uniform(-1, 1), rng.uniform(-0.7, 0.7), rng.uniform(0.3, 1.2)
        spot = np.exp(-((x - cx) ** 2) / s**2) * np.exp(-((y - cy) ** 2) / s**2)
        gain = gain + np.float32(rng.uniform(0.2, 0.8)) * spot
    if rng.random() < 0.4:
        gain = gain * (1 - np.float32(rng.uniform(0.1, 0.5)) * (x * x + y * y) / 1.6)
    if glare and rng.random() < GLARE_SHARE:
        gain = gain * _glare_and_shade(rng, h, w)
    u = rng.random()
    level = rng.uniform(0.3, 0.55) if u < 0.1 else rng.uniform(1.25, 1.6) if u < 0.2 else 1.0
    warmth = rng.normal(0, 0.12)
    return cv2.multiply(scene, _tinted(gain, np.float32((1 - warmth, 1.0, 1 + warmth)) * level))


def _glare_and_shade(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A gain over the frame: hard-edged shadows of things out of view (an arm, a lamp's
    stand, a box's side) and small blown-out glints of a lamp on a glossy tray, both about a
    die's size or larger, neither a die."""
    gain = np.ones((h, w), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        corners = rng.uniform(0, 1, (int(rng.integers(3, 6)), 2)) * (w, h)
        centre = corners.mean(axis=0)
        corners = centre + (corners - centre) * rng.uniform(0.2, 0.8)
        cv2.fillPoly(gain, [np.round(corners * 16).astype(np.int32)],
                     float(rng.uniform(0.35, 0.75)), cv2.LINE_AA, shift=4)
    gain = cv2.GaussianBlur(gain, (0, 0), float(rng.uniform(1, 6)))
    for _ in range(int(rng.integers(0, 4))):
        at = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(3, 40)), int(rng.uniform(2, 15)))
        cv2.ellipse(gain, at, axes, float(rng.uniform(0, 180)), 0, 360,
                    float(rng.uniform(1.8, 3.0)), -1, cv2.LINE_AA)
    return gain


def _tilt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """The homography of a camera tilted TILT_DEG off straight down about a random axis in the
    image, then zoomed and turned a little about the frame's centre, which stays in view."""
    f = w * rng.uniform(0.8, 1.5)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    a = rng.uniform(0, 2 * np.pi)
    axis = np.array([np.cos(a), np.sin(a), 0]) * np.radians(rng.uniform(*TILT_DEG))
    turn, _ = cv2.Rodrigues(axis)
    hom = k @ turn @ np.linalg.inv(k)
    c = hom @ (w / 2, h / 2, 1)
    back = np.array([[1, 0, w / 2 - c[0] / c[2]], [0, 1, h / 2 - c[1] / c[2]], [0, 0, 1]])
    zoom = cv2.getRotationMatrix2D((w / 2, h / 2), rng.normal(0, 8), rng.uniform(0.9, 1.25))
    return np.vstack([zoom, (0, 0, 1)]) @ back @ hom


def _boxes(
    dice: list[_Die], owner: np.ndarray, before: np.ndarray, hom: np.ndarray | None
) -> tuple[np.ndarray, list[_Die]]:
    """The box of each die's pixels in the (tilted) owner map, for the dice that show enough:
    MIN_VISIBLE of their in-frame pixels past what covers them, MIN_IN_FRAME of them in frame
    (counting what the tilt moved out; its local area scale is det(H) / w^3)."""
    h, w = owner.shape
    after = np.bincount(owner.ravel(), minlength=len(dice) + 1)
    boxes, shown = [], []
    for i, die in enumerate(dice, 1):
        if before[i] < MIN_VISIBLE * die.framed or after[i] == 0:
            continue
        framed = die.framed / die.own
        x0, y0, x1, y1 = die.window
        if hom is not None:
            scale = np.linalg.det(hom) / float(hom[2] @ (*die.centre, 1)) ** 3
            framed *= min(1.0, after[i] / (before[i] * scale))
            corners = np.float32([[[x0, y0], [x1, y0], [x0, y1], [x1, y1]]])
            moved = cv2.perspectiveTransform(corners, hom)[0]
            x0, y0 = np.maximum(np.floor(moved.min(axis=0)).astype(int) - 1, 0)
            x1, y1 = np.minimum(np.ceil(moved.max(axis=0)).astype(int) + 2, (w, h))
        if framed < MIN_IN_FRAME:
            continue
        ys, xs = np.nonzero(owner[y0:y1, x0:x1] == i)
        boxes.append((x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1))
        shown.append(die)
    return np.array(boxes, np.float32).reshape(-1, 4), shown
