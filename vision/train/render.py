"""Synthetic dice: projected 3D solids with numerals/pips, composed into crops and tray scenes.

numpy + OpenCV only, so tests, the demo and the runtime engineer's detection checks can render
without torch. Orthographic projection of a rotated solid: every face of a convex die facing the
camera is drawn, shaded by a random light, with its numeral warped onto the face plane (an
affine map is exact under orthographic projection). The label is always the face that points up
in the world, whatever the camera tilt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

import cv2
import numpy as np

from vision.crops import square_bounds, square_crop, widened
from vision.train.geometry import Solid, cross3, solid
from vision.train.labels import FACE_VALUES, KINDS, face_text
from vision.train.materials import Material, background, die_material, smooth_noise

# numerals drawn this many times their usual size, at random (real dice vary)
GLYPH_SCALES = (0.8, 1.15)
SUPERSAMPLE = 2
PIP_RADIUS = 0.09  # a pip's usual radius, in sides of the pip pattern's glyph
PIPS_HALF_SIDE = 0.95  # half the pip pattern's side, in the face's inradius
GLYPH = 64  # side of the square canvas a numeral or pip pattern is drawn on
GLYPH_HEIGHT = 0.62  # a numeral's height on that canvas (unless a long one fills its width)
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)
# TrueType faces (Debian's fonts-dejavu-core and fonts-liberation) drawn with Pillow: real dice
# use narrow sans faces whose 1 carries a flag, which the Hershey faces above lack (model 3.1.0
# read the held-out black d20's 1 as 7). A face missing on this machine, or Pillow missing, is
# drawn with a Hershey face instead, so the random draws stay the same everywhere. Measured
# (`make model` runs, seeds 0 and 1, against renders v3's two): held-out real value 67.2% / 68.1%
# -> 72.1% / 71.9%, d20 18% / 20% -> 30% / 35%, but another camera's d6 kind 80% / 83% -> 68% /
# 70% until training also drew bands of replicated edge (train.EDGE_BAND_SHARE).
TRUETYPE = tuple(
    f"/usr/share/fonts/truetype/{name}.ttf"
    for name in (
        "dejavu/DejaVuSans",
        "dejavu/DejaVuSans-Bold",
        "dejavu/DejaVuSansCondensed",
        "dejavu/DejaVuSansCondensed-Bold",
        "dejavu/DejaVuSans-ExtraLight",
        "dejavu/DejaVuSerif",
        "liberation/LiberationSans-Regular",
        "liberation/LiberationSans-Bold",
        "liberation/LiberationSansNarrow-Regular",
        "liberation/LiberationSansNarrow-Bold",
        "liberation/LiberationSerif-Regular",
        "liberation/LiberationMono-Regular",
    )
)
TRUETYPE_SHARE = 0.5  # of dice drawn with a TrueType face
MAX_TILT_DEG = 45.0
# A tetrahedral d4 seen from straight above shows its three faces squashed to a third (each leans
# 70.5 degrees from the table), so its numerals are barely legible; photos of d4s are taken from
# the side, where one or two faces turn towards the camera. The shared photos' d4s are all such
# views, and a model that had seen d4s only up to MAX_TILT_DEG (mostly within 20 degrees) read
# renders of them at 60-63% up to 20 degrees but 44% at 40, 30% at 50 and 25% at 60 (model 3.2.0,
# 200 renders each). So this share of d4s is drawn from the side, OBLIQUE_D4_DEG degrees off, by
# a camera held level (turned at most LEVEL_ROLL_DEG about its axis, so the apex is up), as
# photos are taken: seen from the side, one face may fill the view, and then only the photo's up
# tells its apex from its two other corners (the numeral standing upright is the value, for
# either style of d4). Training does not turn these crops over the full circle (Crop.level).
OBLIQUE_D4_SHARE = 0.5
OBLIQUE_D4_DEG = (30.0, 65.0)
LEVEL_ROLL_DEG = 10.0
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


@dataclass(frozen=True)
class DieStyle:
    """How the faces of one die are marked."""

    font: int | str  # a Hershey face (cv2.FONT_*) or a TrueType file
    thickness: int
    glyph_scale: float  # numeral size relative to the face's inscribed circle
    pips: bool  # d6 only: pips instead of numerals
    edge_read: bool  # tetrahedral d4 only: numbers along the bottom edges, not at the vertices
    six_nine_mark: str  # "underline" | "dot" | "bar": how 6 and 9 are told apart
    # a d6's pips: radius and distance from the face's middle, times the usual (real dice vary;
    # the dice model's renders keep 1.0, the pip reader's patches draw them at random)
    pip_size: float = 1.0
    pip_spread: float = 1.0
    # standard deviation (grey levels) of a sandy grain on the plastic, pixel by pixel as the
    # camera sees it (the supersampled speckles average out); the dice model's renders keep 0
    grain: float = 0.0
    # how deep a d6's pips are drilled, in pip radii: the wall on the light's side shades part of
    # the paint, so a pip shows as a lit crescent (0: paint flush with the face)
    pip_depth: float = 0.0
    # a custom die's symbols (SYMBOLS, picked per face by its value) instead of numerals or pips:
    # the detector must box the symbol dice players teach the table, not only numbered ones
    symbols: bool = False
    # a symbol die of its own: the symbol of each face value (value 1 is the first), drawn
    # mirrored or not, on plastic of one colour with ink of another (BGR); empty / None: random
    symbol_faces: tuple[str, ...] = ()
    mirrored: bool = False
    plastic: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None


@dataclass(frozen=True)
class Numeral:
    """Where the numeral that tells a die's value lies in an image, known exactly from the pose:
    what a top-face locator learns. `angle` (degrees) is the one cv2.getRotationMatrix2D turns
    the image by, about (x, y), to stand the numeral upright (0: upright; 90: its top points
    right); `facing` is the cosine between its face's normal and the view (1: face-on)."""

    x: float
    y: float
    angle: float
    facing: float

    def moved(self, dx: float, dy: float, scale: float = 1.0) -> Numeral:
        """The same numeral in an image offset by (dx, dy) and then scaled."""
        return Numeral((self.x + dx) * scale, (self.y + dy) * scale, self.angle, self.facing)


@dataclass(frozen=True)
class Sprite:
    """A rendered die: premultiplied colour, alpha, and where its centre sits in the sprite."""

    rgb: np.ndarray  # float32 (h, w, 3), already multiplied by alpha
    alpha: np.ndarray  # float32 (h, w) in [0, 1]
    kind: str
    value: int
    numeral: Numeral | None = None  # in sprite pixels; None: pips, a blank face, not rendered


@dataclass(frozen=True)
class DieSpec:
    """What to render: a kind (d4-barrel is drawn but labelled d4), a value and a pose."""

    kind: str
    value: int
    diameter: float
    spin: float
    tilt: float
    view_roll: float
    cocked: float = 0.0  # degrees the die leans on a neighbour or the wall (0 = flat)
    level: bool = False  # a photo from the side by a camera held level: the die's top is up


def random_style(rng: np.random.Generator) -> DieStyle:
    """Random marking style, spread over what real dice use."""
    return DieStyle(
        font=(
            str(rng.choice(TRUETYPE))
            if rng.random() < TRUETYPE_SHARE
            else int(rng.choice(FONTS, p=[0.3, 0.25, 0.15, 0.15, 0.15]))
        ),
        # the real photos' numerals are mostly thin strokes (about an eighth of their height)
        thickness=int(rng.choice([1, 2, 3, 4], p=[0.35, 0.35, 0.2, 0.1])),
        glyph_scale=float(rng.uniform(*GLYPH_SCALES)),
        pips=bool(rng.random() < 0.5),
        edge_read=bool(rng.random() < 0.35),
        six_nine_mark=str(rng.choice(["underline", "dot", "bar"], p=[0.6, 0.3, 0.1])),
    )


def _can_draw(face: str) -> bool:
    """Whether Pillow (the `train` and `dev` extras) and the face's file are both here."""
    return find_spec("PIL") is not None and Path(face).is_file()


def missing_faces() -> list[str]:
    """The TrueType faces this machine cannot draw (they fall back to Hershey faces, so a model
    trained here would differ from one trained where they exist)."""
    return [face for face in TRUETYPE if not _can_draw(face)]


def _truetype_text(canvas: np.ndarray, text: str, font: str, thickness: int) -> tuple | None:
    """Draw text centred on the canvas in a TrueType face; (org, width, height, baseline gap)
    as cv2.getTextSize/putText would give them, or None when the face cannot be drawn here."""
    if not _can_draw(font):
        return None
    from PIL import Image, ImageDraw, ImageFont  # only training and tests draw glyphs

    face = ImageFont.truetype(font, GLYPH * 2)
    stroke = 2 * (thickness - 1)  # font size 128: each step thickens strokes by ~4% of height
    image = Image.new("L", (canvas.shape[1], canvas.shape[0]), 0)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=face, stroke_width=stroke)
    tw, th = x1 - x0, y1 - y0
    left, top = canvas.shape[1] // 2 - tw // 2, canvas.shape[0] // 2 - th // 2
    draw.text(
        (left - x0, top - y0), text, fill=255, font=face, stroke_width=stroke, stroke_fill=255
    )
    canvas[:] = np.asarray(image)
    return (left, top + th), tw, th, max(4, th // 10)


def _hershey_text(canvas: np.ndarray, text: str, font: int, thickness: int) -> tuple:
    scale = 4.0
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness * 4)
    org = (canvas.shape[1] // 2 - tw // 2, canvas.shape[0] // 2 + th // 2)
    cv2.putText(canvas, text, org, font, scale, 255, thickness * 4, cv2.LINE_AA)
    return org, tw, th, base


def glyph(text: str, font: int | str, thickness: int, mark: str) -> np.ndarray:
    """A numeral (with its 6/9 mark) centred on a GLYPH x GLYPH float mask, top pointing up."""
    return _glyph(text, font, thickness, mark if text in ("6", "9") else "")


# Every text of every kind in every face and thickness (about 2,800 masks, 16 KB each) stays
# drawn: a 512-mask cache, keyed by the 6/9 mark on every text, missed two draws in three.
@lru_cache(maxsize=4096)
def _glyph(text: str, font: int | str, thickness: int, mark: str) -> np.ndarray:
    canvas = np.zeros((GLYPH * 4, GLYPH * 4), np.uint8)
    drawn = _truetype_text(canvas, text, font, thickness) if isinstance(font, str) else None
    if drawn is None:
        hershey = font if isinstance(font, int) else FONTS[len(font) % len(FONTS)]
        drawn = _hershey_text(canvas, text, hershey, thickness)
    org, tw, th, base = drawn
    if text in ("6", "9"):
        if mark == "underline":
            y = org[1] + max(8, base)
            cv2.line(canvas, (org[0], y), (org[0] + tw, y), 255, max(6, thickness * 5))
        elif mark == "dot":
            cv2.circle(canvas, (org[0] + tw + 14, org[1] - 4), 8 + thickness * 2, 255, -1)
        else:
            cv2.line(canvas, (org[0] + tw + 12, org[1]), (org[0] + tw + 12, org[1] - th), 255, 10)
    ys, xs = np.nonzero(canvas)
    return fit_glyph(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def fit_glyph(box: np.ndarray) -> np.ndarray:
    """A uint8 mask cut tight around a numeral, centred on a GLYPH x GLYPH float mask and scaled
    to fill GLYPH_HEIGHT of its height or 0.95 of its width, whichever comes first."""
    f = min(GLYPH_HEIGHT * GLYPH / box.shape[0], 0.95 * GLYPH / box.shape[1])
    small = cv2.resize(
        box,
        (max(1, round(box.shape[1] * f)), max(1, round(box.shape[0] * f))),
        interpolation=cv2.INTER_AREA,
    )
    out = np.zeros((GLYPH, GLYPH), np.float32)
    oy, ox = (GLYPH - small.shape[0]) // 2, (GLYPH - small.shape[1]) // 2
    out[oy : oy + small.shape[0], ox : ox + small.shape[1]] = small / 255.0
    return out


SYMBOLS = ("circle", "ring", "cross", "triangle", "star", "square", "diamond", "bolt", "arrow",
           "moon", "drop", "skull")
BLANK = "blank"  # in a symbol die's faces: a face with no mark
# symbols with no mirror symmetry: drawn mirrored they are another face (the bench's mirrored die)
CHIRAL_SYMBOLS = ("bolt", "flag", "hook", "note", "boot", "windmill")


def symbol_face(faces: Sequence[str], value: int) -> str:
    """Which of a symbol die's `faces` (DieStyle.symbol_faces) shows where a d6 shows `value`:
    fewer than six repeat."""
    return faces[(value - 1) % len(faces)]


@lru_cache(maxsize=256)  # the shapes and lettered symbols of the dice drawn, each thickness
def symbol_glyph(name: str, thickness: int) -> np.ndarray:
    """A custom die's symbol on a GLYPH x GLYPH float mask: simple shapes, outlined or filled,
    as symbol dice (Fate, Zombie Dice, a game's own) carry them, or letters."""
    n = GLYPH * 4
    canvas = np.zeros((n, n), np.uint8)
    c, r, t = n // 2, n * 3 // 8, max(4, thickness * 6)
    polygon = {
        "triangle": [(0, -1), (-0.9, 0.75), (0.9, 0.75)],
        "square": [(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)],
        "diamond": [(0, -1), (0.7, 0), (0, 1), (-0.7, 0)],
        "bolt": [(0.2, -1), (-0.6, 0.1), (-0.05, 0.1), (-0.3, 1), (0.6, -0.2), (0.05, -0.2)],
        "arrow": [(0, -1), (0.8, 0), (0.3, 0), (0.3, 1), (-0.3, 1), (-0.3, 0), (-0.8, 0)],
        "drop": [(0, -1), (0.7, 0.3), (0.4, 0.9), (-0.4, 0.9), (-0.7, 0.3)],
        "flag": [(-0.6, 1), (-0.6, -1), (0.8, -0.6), (-0.35, -0.2), (-0.35, 1)],
        "boot": [(-0.5, -1), (-0.1, -1), (-0.1, 0.5), (0.9, 0.5), (0.9, 1), (-0.5, 1)],
    }
    if name in polygon:
        points = np.int32([[c + x * r, c + y * r] for x, y in polygon[name]])
        if thickness > 2:
            cv2.fillPoly(canvas, [points], 255)
        else:
            cv2.polylines(canvas, [points], True, 255, t)
    elif name.startswith(LETTERED):
        _lettered(canvas, name.removeprefix(LETTERED), thickness)
    elif name == "star":
        a = np.pi / 2 + np.arange(10) * np.pi / 5
        radii = np.where(np.arange(10) % 2 == 0, r, 0.42 * r)
        corners = np.stack([c + radii * np.cos(a), c - radii * np.sin(a)], 1)
        cv2.fillPoly(canvas, [np.int32(corners)], 255)
    elif name == "cross":
        cv2.line(canvas, (c - r, c - r), (c + r, c + r), 255, t * 2)
        cv2.line(canvas, (c - r, c + r), (c + r, c - r), 255, t * 2)
    elif name == "hook":
        cv2.line(canvas, (c + r // 3, c - r), (c + r // 3, c + r // 4), 255, t * 2)
        cv2.ellipse(canvas, (c - r // 6, c + r // 4), (r // 2, r // 2), 0, 0, 180, 255, t * 2)
    elif name == "note":
        cv2.ellipse(canvas, (c - r // 3, c + r * 2 // 3), (r // 3, r // 4), -20, 0, 360, 255, -1)
        cv2.line(canvas, (c, c + r * 2 // 3), (c, c - r), 255, t)
        cv2.line(canvas, (c, c - r), (c + r * 2 // 3, c - r // 3), 255, t)
    elif name == "windmill":
        for k in range(4):
            turn = np.array([[np.cos(k * np.pi / 2), -np.sin(k * np.pi / 2)],
                             [np.sin(k * np.pi / 2), np.cos(k * np.pi / 2)]])
            blade = np.array([(0.05, 0.0), (0.05, -1.0), (0.75, -0.3)]) @ turn.T
            cv2.fillPoly(canvas, [np.int32(c + blade * r)], 255)
    elif name == "moon":
        cv2.circle(canvas, (c, c), r, 255, -1)
        cv2.circle(canvas, (c + r // 2, c - r // 4), r, 0, -1)
    elif name == "skull":
        cv2.circle(canvas, (c, c - r // 5), int(r * 0.8), 255, -1)
        cv2.rectangle(canvas, (c - r // 2, c + r // 3), (c + r // 2, c + r), 255, -1)
        for dx in (-r // 3, r // 3):
            cv2.circle(canvas, (c + dx, c - r // 5), r // 5, 0, -1)
    else:  # circle or ring
        cv2.circle(canvas, (c, c), r, 255, -1 if name == "circle" else t)
    ys, xs = np.nonzero(canvas)
    return fit_glyph(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


LETTERED = "letters:"  # a symbol of letters: "letters:BK", a face's short name


def _lettered(canvas: np.ndarray, text: str, thickness: int) -> None:
    """A face's short name (1 to 3 letters or signs) as the whole symbol: a game of more faces
    than there are simple shapes tells each by its letters, as a player reads them. Shapes and
    letters in a frame were tried: the reader's embedding told shapes apart 67% of the time,
    framed letters 23%, bare letters 55% (three renders a face)."""
    if not 1 <= len(text) <= 3:
        raise ValueError(f"a lettered symbol has 1 to 3 letters, not {text!r}")
    font, weight = cv2.FONT_HERSHEY_DUPLEX, max(4, thickness * 4)
    (tw, th), _ = cv2.getTextSize(text, font, 4.0, weight)
    c = canvas.shape[0] // 2
    cv2.putText(canvas, text, (c - tw // 2, c + th // 2), font, 4.0, 255, weight, cv2.LINE_AA)


@lru_cache(maxsize=16)  # the dice model's renders draw only the usual six patterns
def pip_glyph(value: int, size: float = 1.0, spread: float = 1.0) -> np.ndarray:
    """The pip pattern of a d6 face on a GLYPH x GLYPH float mask, pips `size` times the usual
    radius and `spread` times the usual distance from the middle."""
    canvas = np.zeros((GLYPH * 4, GLYPH * 4), np.uint8)
    c, step, r = GLYPH * 2, GLYPH * spread, int(4 * GLYPH * PIP_RADIUS * size)
    for dx, dy in PIPS[value]:
        cv2.circle(canvas, (int(c + dx * step), int(c + dy * step)), r, 255, -1, cv2.LINE_AA)
    return cv2.resize(canvas, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA) / np.float32(255)


def grainy(
    colour: np.ndarray, paint: np.ndarray, strength: float, rng: np.random.Generator
) -> np.ndarray:
    """Float (H, W, 3) colour with a sandy grain of `strength` grey levels (std) on the plastic,
    pixel by pixel, and none where `paint` (H, W, 0-1) covers it."""
    h, w = paint.shape
    grain = rng.normal(0, strength, (h, w, 1)) * (1 + rng.normal(0, 0.15, 3))
    return np.clip(colour + grain * (1 - paint)[..., None], 0, 255)


def pip_shadow(ink: np.ndarray, light: np.ndarray, depth: float) -> np.ndarray:
    """Where the drilled pips' floor lies in the shadow of their wall: a point of a pip is shaded
    when the point `depth` times the light's slant towards the light is off the pip (camera
    coordinates, +y up; image rows grow downwards)."""
    slant = np.hypot(light[0], light[1]) / max(float(light[2]), 0.2)
    if slant * depth < 0.5:
        return np.zeros_like(ink)
    step = depth * slant * np.array((light[0], -light[1])) / np.hypot(light[0], light[1])
    move = np.float32([[1, 0, step[0]], [0, 1, step[1]]])
    towards_light = cv2.warpAffine(ink, move, ink.shape[::-1], flags=cv2.WARP_INVERSE_MAP)
    return ink * (1 - towards_light)


def rotation_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rotation matrix turning unit vector a onto unit vector b."""
    v = np.cross(a, b)
    c = float(np.dot(a, b))
    if np.linalg.norm(v) < 1e-9:
        if c > 0:
            return np.eye(3)
        axis = np.cross(a, (1.0, 0.0, 0.0))
        if np.linalg.norm(axis) < 1e-6:
            axis = np.cross(a, (0.0, 1.0, 0.0))
        axis /= np.linalg.norm(axis)
        return 2 * np.outer(axis, axis) - np.eye(3)
    vx = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + vx + vx @ vx / (1 + c)


def axis_rotation(axis: int, angle: float) -> np.ndarray:
    """Rotation by `angle` radians about the x (0), y (1) or z (2) axis."""
    c, s = np.cos(angle), np.sin(angle)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    m = np.eye(3)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def world_pose(body: Solid, spec: DieSpec) -> np.ndarray:
    """Rotation taking the die's coordinates to the world (z up), resting showing spec.value."""
    face = body.rest_face(spec.value)
    down = body.kind == "d4"  # a tetrahedron shows its value at the vertex opposite the table
    target = np.array((0.0, 0.0, -1.0 if down else 1.0))
    rest = rotation_between(body.normal(face), target)
    lean = axis_rotation(0, np.radians(spec.cocked)) if spec.cocked else np.eye(3)
    return axis_rotation(2, spec.spin) @ lean @ rest


def camera_pose(spec: DieSpec) -> np.ndarray:
    """World to camera: tilt the view by spec.tilt and roll it about the optical axis."""
    return axis_rotation(2, spec.view_roll) @ axis_rotation(0, np.radians(spec.tilt))


# Where a tetrahedral d4's numerals sit on a face, in the face's inradius r (its centre is 2r from
# each vertex and r from each edge), so that at the largest glyph_scale each stays clear of its
# face's edges and of the face's two other numerals. By a vertex: half-size D4_VERTEX_GLYPH r,
# D4_VERTEX_AT of the way from the centre to the vertex. Along an edge (edge-read): three numerals
# share the middle of the face, so they are smaller, half-size D4_EDGE_GLYPH r, D4_EDGE_AT r from
# the centre towards their edge. With GLYPH_HEIGHT that draws numerals 0.18 and 0.14 of the edge
# tall (times glyph_scale); photos in shared/datasets, judged by eye, show about 0.23-0.25
# (top-vertex dice) and 0.14-0.2 (edge-read): the vertex numerals cannot grow much more and stay
# clear of the edges. Renders v4 drew the edge-read ones as large as the others (0.20 of the edge,
# 0.45 r from the centre), overlapping in the face's middle.
D4_VERTEX_GLYPH = 0.5
D4_VERTEX_AT = 0.42
D4_EDGE_GLYPH = 0.38
D4_EDGE_AT = 0.54


@lru_cache(maxsize=256)
def face_inradius(kind: str, face: int) -> float:
    """Distance from a face's centroid to its nearest edge."""
    body = solid(kind)
    pts = body.vertices[list(body.faces[face])]
    return edge_distance(pts.mean(axis=0), pts)


def edge_distance(point: np.ndarray, corners: np.ndarray) -> float:
    """Distance from a point on a face to the nearest of its edges (`corners` in order)."""
    best = np.inf
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        e = b - a
        t = np.clip(np.dot(point - a, e) / np.dot(e, e), 0, 1)
        best = min(best, float(np.linalg.norm(point - (a + t * e))))
    return best


def decals(
    body: Solid, face: int, style: DieStyle
) -> list[tuple[np.ndarray, np.ndarray, float, np.ndarray]]:
    """The marks on one face: (centre, up, half-size, mask) in the die's own coordinates."""
    c = body.centroid(face)
    r = face_inradius(body.kind, face)
    kind = body.kind
    if kind == "d4":
        verts = list(body.faces[face])
        out = []
        for vtx in verts:
            towards = body.vertices[vtx] - c
            up = towards / np.linalg.norm(towards)
            if style.edge_read:
                centre, half = c - D4_EDGE_AT * r * up, D4_EDGE_GLYPH * r
            else:
                centre, half = c + D4_VERTEX_AT * np.linalg.norm(towards) * up, D4_VERTEX_GLYPH * r
            mask = glyph(str(vtx + 1), style.font, style.thickness, style.six_nine_mark)
            out.append((centre, up, half * style.glyph_scale, mask))
        return out
    value = body.face_values[face]
    if value == 0:  # barrel d4 end caps carry no number
        return []
    if style.symbol_faces:
        name = symbol_face(style.symbol_faces, value)
        if name == BLANK:  # a face that carries nothing (Village Attacks' Day die has three)
            return []
        mask = symbol_glyph(name, style.thickness)
        return [(c, body.face_up[face], r * style.glyph_scale,
                 np.ascontiguousarray(mask[:, ::-1]) if style.mirrored else mask)]
    if style.symbols:
        mask = symbol_glyph(SYMBOLS[value % len(SYMBOLS)], style.thickness)
        return [(c, body.face_up[face], r * style.glyph_scale, mask)]
    if kind == "d6" and style.pips:
        pips = pip_glyph(value, style.pip_size, style.pip_spread)
        return [(c, body.face_up[face], PIPS_HALF_SIDE * r, pips)]
    text = face_text(kind if kind != "d4-barrel" else "d4", value)
    size = r * style.glyph_scale * (1.25 if kind in ("d10", "d%") else 1.0)
    if kind in ("d10", "d%"):  # numerals sit in the wide part of the kite, away from the pole
        c = c - 0.25 * r * body.face_up[face]
    mask = glyph(text, style.font, style.thickness, style.six_nine_mark)
    return [(c, body.face_up[face], size, mask)]


def render_die(spec: DieSpec, rng: np.random.Generator, style: DieStyle | None = None) -> Sprite:
    """Draw one die as a sprite: shaded faces, numerals, translucency and specular highlight;
    marked in `style`, else in a random one."""
    kind = spec.kind
    body = solid(kind)
    style = style or random_style(rng)
    rot = camera_pose(spec) @ world_pose(body, spec)
    ss = SUPERSAMPLE
    radius = spec.diameter / 2 * ss
    side = int(np.ceil(radius * 2 + 4 * ss))
    centre = side / 2.0

    def project(p: np.ndarray) -> np.ndarray:
        q = rot @ p
        return np.array((centre + q[0] * radius, centre - q[1] * radius), np.float32)

    material = die_material(rng, side, side)
    if style.plastic is not None:  # the die's own colours, its gloss as drawn
        body_bgr, ink_bgr = style.plastic
        material = Material(np.broadcast_to(np.float32(body_bgr), (side, side, 3)).copy(),
                            ink_bgr, 1.0, material.shininess)
    light = rng.normal(0, 1, 3)
    light[2] = abs(light[2]) + 0.8
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.35, 0.65)
    shade = np.zeros((side, side), np.float32)
    spec_map = np.zeros((side, side), np.float32)
    alpha = np.zeros((side, side), np.float32)
    ink = np.zeros((side, side), np.float32)
    half = (light + np.array((0.0, 0.0, 1.0))) / np.linalg.norm(light + np.array((0.0, 0.0, 1.0)))
    bevel = max(ss, round(radius * rng.uniform(0.03, 0.08)))  # real dice have rounded edges
    for f, verts in enumerate(body.faces):
        n = rot @ body.normal(f)
        if n[2] <= 1e-3:
            continue
        poly = np.array([project(body.vertices[v]) for v in verts])
        pts = np.round(poly * 16).astype(np.int32)
        lum = ambient + (1 - ambient) * max(0.0, float(n @ light))
        cv2.fillPoly(shade, [pts], lum, cv2.LINE_AA, shift=4)
        cv2.fillPoly(alpha, [pts], 1.0, cv2.LINE_AA, shift=4)
        highlight = material.shininess * max(0.0, float(n @ half)) ** 24
        if highlight > 0.01:
            cv2.fillPoly(spec_map, [pts], highlight, cv2.LINE_AA, shift=4)
        rim = lum * rng.uniform(0.75, 1.15)  # a rounded edge catches or loses the light
        cv2.polylines(shade, [pts], True, rim, bevel, cv2.LINE_AA, shift=4)
        # the face's ink is drawn in the face's own rectangle: a d20 shows ten faces
        x0, y0 = np.maximum(pts.min(axis=0) // 16 - 1, 0)
        x1, y1 = np.minimum(pts.max(axis=0) // 16 + 2, side)
        face_ink = np.zeros((y1 - y0, x1 - x0), np.float32)
        for dc, up, size, mask in decals(body, f, style):
            right = cross3(up, body.normal(f))
            src = np.float32([[0, 0], [GLYPH, 0], [0, GLYPH]])
            dst = np.float32(
                [
                    project(dc - size * right + size * up),
                    project(dc + size * right + size * up),
                    project(dc - size * right - size * up),
                ]
            ) - np.float32([x0, y0])
            warp = cv2.getAffineTransform(src, dst)
            drawn = cv2.warpAffine(mask, warp, (int(x1 - x0), int(y1 - y0)))
            face_ink = np.maximum(face_ink, drawn)
        if face_ink.any():
            clip = np.zeros_like(face_ink)
            cv2.fillPoly(clip, [pts - np.int32([x0, y0]) * 16], 1.0, cv2.LINE_AA, shift=4)
            window = ink[y0:y1, x0:x1]
            np.maximum(window, face_ink * clip, out=window)
    shade *= curvature(light, side, rng.uniform(0.0, 0.25))
    colour = material.body * shade[..., None]
    ink_rgb = np.float32(material.ink) * shade[..., None] * 1.1
    if style.pips and kind == "d6" and style.pip_depth > 0:
        face_side = 2 * PIPS_HALF_SIDE * face_inradius(kind, 0) * radius  # of the pattern, px
        depth = style.pip_depth * PIP_RADIUS * style.pip_size * face_side
        ink_rgb *= 1 - 0.75 * pip_shadow(ink, light, depth)[..., None]
    colour = colour * (1 - ink[..., None]) + ink_rgb * ink[..., None]
    colour += 255 * spec_map[..., None]
    opacity = alpha * (material.opacity + (1 - material.opacity) * ink)
    if material.opacity < 1:  # translucent plastic glows a little where light passes through
        glow = smooth_noise(rng, side, side, side / 3) * 40
        colour += glow[..., None]
    size = max(2, round(side / ss))
    colour = cv2.resize(np.clip(colour, 0, 255), (size, size), interpolation=cv2.INTER_AREA)
    opacity = cv2.resize(opacity, (size, size), interpolation=cv2.INTER_AREA)
    if style.grain > 0:
        paint = cv2.resize(ink, (size, size), interpolation=cv2.INTER_AREA)
        colour = grainy(colour, paint, style.grain, rng)
    label_kind = "d4" if kind == "d4-barrel" else kind
    numeral = value_numeral(body, rot, spec, style, lambda p: (project(p) + 0.5) / ss - 0.5)
    return Sprite(colour * opacity[..., None], opacity, label_kind, spec.value, numeral)


def value_numeral(
    body: Solid,
    rot: np.ndarray,
    spec: DieSpec,
    style: DieStyle,
    project: Callable[[np.ndarray], np.ndarray],
) -> Numeral | None:
    """The numeral a player reads the value by, `project`ed into the image: the one on the face
    pointing up in the world (the label's face, even where the camera's tilt turns another face
    more towards it), and for a tetrahedral d4 the one at its top vertex on the face turned most
    towards the camera. None for a d6's pips and a blank face."""
    if body.kind == "d6" and style.pips:
        return None
    if body.kind == "d4":
        top = next(v for v in range(len(body.vertices))
                   if v not in body.faces[body.rest_face(spec.value)])
        faces = [f for f, verts in enumerate(body.faces) if top in verts]
        face = max(faces, key=lambda f: float((rot @ body.normal(f))[2]))
        marks = [decals(body, face, style)[list(body.faces[face]).index(top)]]
    else:
        face = body.rest_face(spec.value)
        marks = decals(body, face, style)
    if not marks:
        return None
    centre, up, size = marks[0][:3]
    at, tip = project(centre), project(centre + size * up)
    angle = np.degrees(np.arctan2(tip[0] - at[0], at[1] - tip[1]))
    return Numeral(float(at[0]), float(at[1]), float(angle), float((rot @ body.normal(face))[2]))


def curvature(light: np.ndarray, side: int, strength: float) -> np.ndarray:
    """A gentle brightness ramp towards the light across the whole die.

    Flat-shaded faces each have one brightness; real dice, with rounded edges and corners and
    glossy plastic, brighten smoothly towards the light across the die.
    """
    line = np.arange(side, dtype=np.float32) / max(1, side - 1) - 0.5
    ramp = line[None, :] * light[0] - line[:, None] * light[1]
    return (1.0 + strength * 2 * ramp).astype(np.float32)


def random_spec(
    rng: np.random.Generator,
    kind: str | None = None,
    value: int | None = None,
    diameter: float = 60.0,
    cocked: float = 0.0,
    tilt_deg: tuple[float, float] | None = None,
    level_deg: tuple[float, float] | None = None,
) -> DieSpec:
    """A random pose (full 360 degree spin, camera tilt up to MAX_TILT_DEG, or for some
    tetrahedral d4s OBLIQUE_D4_DEG) for a die; `tilt_deg` draws the tilt evenly within it instead,
    the camera turned any way about its axis (a d4 drawn so is not level); `level_deg` draws it
    so from a camera held level, as a photo from the side is taken."""
    if kind is None:
        kind = str(rng.choice(KINDS))
    if kind == "d4" and rng.random() < 0.2:
        kind = "d4-barrel"
    values = FACE_VALUES["d4" if kind == "d4-barrel" else kind]
    if value is None:
        value = int(rng.choice(values))
    level = level_deg is not None or (
        tilt_deg is None and kind == "d4" and rng.random() < OBLIQUE_D4_SHARE)
    if level:  # camera_pose's roll of pi puts the die's top at the top of the image
        tilt = float(rng.uniform(*(level_deg or OBLIQUE_D4_DEG)))
        roll = float(np.pi + np.radians(rng.normal(0, LEVEL_ROLL_DEG)))
    elif tilt_deg is not None:
        tilt = float(rng.uniform(*tilt_deg))
        roll = float(rng.uniform(0, 2 * np.pi))
    else:
        tilt = float(min(MAX_TILT_DEG, abs(rng.normal(0, 18))))
        roll = float(rng.uniform(0, 2 * np.pi))
    return DieSpec(
        kind,
        value,
        diameter,
        float(rng.uniform(0, 2 * np.pi)),
        tilt,
        roll,
        cocked,
        level,
    )


def paste(
    scene: np.ndarray,
    sprite: Sprite,
    cx: float,
    cy: float,
    shadow: tuple[float, float, float] | None = None,
) -> tuple[float, float, float, float]:
    """Composite a sprite centred at (cx, cy) with an optional soft shadow; return its box."""
    h, w = sprite.alpha.shape
    x0, y0 = round(cx - w / 2), round(cy - h / 2)
    sh, sw = scene.shape[:2]
    if shadow is not None:
        dx, dy, strength = shadow
        blur = max(3, int(w * 0.15) | 1)
        soft = cv2.GaussianBlur(sprite.alpha, (blur, blur), 0) * strength
        _blend(scene, None, soft, x0 + round(dx), y0 + round(dy))
    _blend(scene, sprite.rgb, sprite.alpha, x0, y0)
    bx, by, bw, bh = cv2.boundingRect((sprite.alpha > 0.5).astype(np.uint8))
    if bw == 0:
        return (float(x0), float(y0), float(x0 + w), float(y0 + h))
    bx0, bx1 = max(0, x0 + bx), min(sw, x0 + bx + bw)
    by0, by1 = max(0, y0 + by), min(sh, y0 + by + bh)
    return (float(bx0), float(by0), float(bx1), float(by1))


def _blend(scene: np.ndarray, rgb: np.ndarray | None, alpha: np.ndarray, x0: int, y0: int) -> None:
    """Alpha-composite premultiplied rgb (or darken, for a shadow) into the scene in place."""
    h, w = alpha.shape
    sh, sw = scene.shape[:2]
    ax0, ay0 = max(0, -x0), max(0, -y0)
    ax1, ay1 = min(w, sw - x0), min(h, sh - y0)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    a = alpha[ay0:ay1, ax0:ax1, None]
    region = scene[y0 + ay0 : y0 + ay1, x0 + ax0 : x0 + ax1]
    if rgb is None:
        region *= 1 - a
    else:
        region *= 1 - a
        region += rgb[ay0:ay1, ax0:ax1]


def camera_effects(scene: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour cast, exposure, blur, sensor noise and JPEG: what a real camera adds."""
    img = scene * rng.uniform(0.8, 1.2, 3).astype(np.float32) * rng.uniform(0.7, 1.25)
    img = img + rng.uniform(-20, 20)
    r = rng.random()
    if r < 0.25:  # the training loop blurs some more crops itself
        k = int(rng.choice([3, 5]))
        img = cv2.GaussianBlur(img, (k, k), 0)
    elif r < 0.35:
        k = int(rng.integers(3, 8))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, m, (k, k))
        img = cv2.filter2D(img, -1, kernel / max(1e-6, kernel.sum()))
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def shadow(rng: np.random.Generator, diameter: float) -> tuple[float, float, float]:
    """A die's soft shadow for `paste`: its offset (up to 0.15 of the die across) and strength."""
    ang = rng.uniform(0, 2 * np.pi)
    dist = rng.uniform(0.02, 0.15) * diameter
    return (dist * np.cos(ang), dist * np.sin(ang), rng.uniform(0.2, 0.6))


@dataclass(frozen=True)
class Crop:
    """One training sample: a square crop around a die (or not) and what it shows."""

    image: np.ndarray
    kind: str
    value: int
    state: str  # "flat" (readable), "cocked" (leaning, no face up) or "empty" (no die)
    level: bool = False  # seen from the side by a level camera: not to be turned in training
    numeral: Numeral | None = None  # the die's (Sprite.numeral) in crop pixels; None when empty


def render_crop(
    rng: np.random.Generator,
    size: int,
    kind: str | None = None,
    value: int | None = None,
    state: str = "flat",
    style: DieStyle | None = None,
    tilt_deg: tuple[float, float] | None = None,
    widen: float = 1.0,
    level_deg: tuple[float, float] | None = None,
) -> Crop:
    """A die on a random table with touching neighbours, cut out like the runtime would (its
    box `widen` times as wide); the die is marked in `style`, else in a random one, and seen
    `tilt_deg` off vertical if given (`level_deg`: by a camera held level)."""
    # a d6 of 12 mm is ~50 px at the 4 px/mm the camera arm gives; smaller renders only teach blur
    diameter = float(rng.uniform(50, 110))
    canvas = int(diameter * 2.6)
    scene = background(rng, canvas, canvas)
    cocked = float(rng.uniform(18, 35)) if state == "cocked" else 0.0
    main = random_spec(rng, kind, value, diameter, cocked, tilt_deg, level_deg)
    centre = canvas / 2 + rng.normal(0, diameter * 0.04, 2)
    neighbours = int(rng.choice([0, 1, 2, 3], p=[0.4, 0.3, 0.2, 0.1]))
    sprites = []
    for _ in range(neighbours):
        d = diameter * rng.uniform(0.7, 1.3)
        ang = rng.uniform(0, 2 * np.pi)
        dist = (diameter + d) / 2 * rng.uniform(0.85, 1.1)
        pos = centre + dist * np.array((np.cos(ang), np.sin(ang)))
        sprites.append((render_die(random_spec(rng, diameter=d), rng), pos, d))
    main_sprite = render_die(main, rng, style)
    if state == "empty":  # a patch of table, maybe with a die at its edge
        box_c = centre + rng.uniform(-0.5, 0.5, 2) * diameter
        sprites.append((main_sprite, centre + diameter * rng.choice([-1.0, 1.0], 2), diameter))
    order = rng.permutation(len(sprites) + 1)
    box = None
    items = [*sprites, (main_sprite, centre, diameter)] if state != "empty" else sprites
    for i in order:
        if i >= len(items):
            continue
        sprite, pos, d = items[i]
        b = paste(scene, sprite, pos[0], pos[1], shadow(rng, d))
        if state != "empty" and sprite is main_sprite:
            box = b
    if state == "empty":
        half = diameter / 2
        box = (box_c[0] - half, box_c[1] - half, box_c[0] + half, box_c[1] + half)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    jitter = rng.normal(0, 0.05, 4) * np.array((w, h, w, h))
    box = (x0 + jitter[0], y0 + jitter[1], x1 + jitter[2], y1 + jitter[3])
    if box[2] - box[0] < 4 or box[3] - box[1] < 4:
        box = (x0, y0, x1, y1)
    box = widened(box, widen)
    region, (rx, ry) = crop_region(scene, box)
    image = camera_effects(region, rng)
    crop = square_crop(image, (box[0] - rx, box[1] - ry, box[2] - rx, box[3] - ry), size)
    numeral = None
    if state != "empty" and main_sprite.numeral is not None:
        sx, sy, side = square_bounds(box)
        h, w = main_sprite.alpha.shape
        numeral = main_sprite.numeral.moved(
            round(centre[0] - w / 2) - sx + 0.5, round(centre[1] - h / 2) - sy + 0.5, size / side
        ).moved(-0.5, -0.5)
    return Crop(crop, main_sprite.kind, main_sprite.value, state,
                main.level and state != "empty", numeral)


# Pixels kept round a crop's square when the camera's effects are drawn on that part of the
# scene alone: the widest blur (camera_effects' 7 px streak) reaches 3 px.
EFFECTS_PAD = 4


def crop_region(scene: np.ndarray, box: Sequence[float]) -> tuple[np.ndarray, tuple[int, int]]:
    """The part of the scene a box's square crop is cut from (EFFECTS_PAD around it, within
    the scene) and its top-left corner. Why: the scene is 2.6 dice across, the crop 1.3, so
    the camera's noise and JPEG drawn over the whole scene cost four times what the crop needs
    (2.3 of 12.4 ms a render)."""
    sx, sy, side = square_bounds(box)
    h, w = scene.shape[:2]
    x0, y0 = min(max(0, sx - EFFECTS_PAD), w - 1), min(max(0, sy - EFFECTS_PAD), h - 1)
    x1 = max(min(w, sx + side + EFFECTS_PAD), x0 + 1)
    y1 = max(min(h, sy + side + EFFECTS_PAD), y0 + 1)
    return scene[y0:y1, x0:x1], (x0, y0)


def photo_spots(count: int) -> list[tuple[float, float]]:
    """Where a photo of `count` dice apart has them, as shares of its side: one in the middle,
    or up to four about its quarters."""
    if count == 1:
        return [(0.5, 0.5)]
    if count > 4:
        raise ValueError(f"at most 4 dice in a photo, not {count}")
    return [(0.27, 0.27), (0.73, 0.3), (0.3, 0.73), (0.72, 0.72)][:count]


def render_photo(
    rng: np.random.Generator, side: int, kinds: Sequence[str], diameter: float
) -> tuple[np.ndarray, list[tuple[str, int, tuple[float, float, float, float]]]]:
    """A photo of a few dice apart on a table, as `rollscribe read` may be given one: one die in
    the middle, or up to four about the photo's quarters. Returns the photo and, per die, its
    kind, top value and box."""
    scene = background(rng, side, side)
    dice = []
    for kind, (u, v) in zip(kinds, photo_spots(len(kinds)), strict=True):
        spec = random_spec(rng, kind, diameter=diameter * float(rng.uniform(0.85, 1.15)))
        at = np.array((u, v)) * side + rng.normal(0, 0.02 * side, 2)
        sprite = render_die(spec, rng)
        box = paste(scene, sprite, at[0], at[1], shadow(rng, spec.diameter))
        dice.append((sprite.kind, sprite.value, box))
    return camera_effects(scene, rng), dice


def render_tray(
    n_dice: int,
    seed: int,
    size: tuple[int, int] = (1280, 960),
    kinds: list[str] | None = None,
    styles: Sequence[DieStyle | None] = (),
) -> tuple[np.ndarray, list[tuple[str, int, tuple]]]:
    """A whole tray frame with n_dice dice (some touching), seen from above; die i is of kind
    kinds[i] and marked in styles[i] where given (a symbol die of its own), else at random.

    Returns the BGR image and, per die, (kind, value, box) with box = (x0, y0, x1, y1) in pixels.
    Dice that would not fit without overlapping are dropped, so ask for at most ~25.
    """
    rng = np.random.default_rng(seed)
    width, height = size
    scene = background(rng, height, width)
    # a tray: an inset rectangle of another surface with a darker rim
    inset = int(min(width, height) * rng.uniform(0.03, 0.1))
    tray = background(rng, height - 2 * inset, width - 2 * inset)
    scene[inset : height - inset, inset : width - inset] = tray
    cv2.rectangle(
        scene,
        (inset, inset),
        (width - inset, height - inset),
        tuple(float(c) for c in (scene[inset + 2, inset + 2] * 0.5)),
        max(4, inset // 3),
    )
    placed: list[tuple[np.ndarray, float]] = []
    dice = []
    scale = min(width, height) / 960
    for i in range(n_dice):
        kind = kinds[i % len(kinds)] if kinds else None
        d = float(rng.uniform(60, 100)) * scale
        for _ in range(200):
            pos = np.array(
                (
                    rng.uniform(inset + d, width - inset - d),
                    rng.uniform(inset + d, height - inset - d),
                )
            )
            if all(np.linalg.norm(pos - p) > 0.5 * (d + q) * 1.02 for p, q in placed):
                break
        else:
            continue
        # pull some dice against an earlier one so they touch
        if placed and rng.random() < 0.3:
            p, q = placed[rng.integers(len(placed))]
            ang = rng.uniform(0, 2 * np.pi)
            cand = p + 0.5 * (d + q) * 1.03 * np.array((np.cos(ang), np.sin(ang)))
            if (
                all(np.linalg.norm(cand - p2) > 0.5 * (d + q2) * 1.02 for p2, q2 in placed)
                and inset + d < cand[0] < width - inset - d
                and inset + d < cand[1] < height - inset - d
            ):
                pos = cand
        spec = random_spec(rng, kind, None, d)
        spec = DieSpec(spec.kind, spec.value, d, spec.spin, min(spec.tilt, 12.0), 0.0)
        sprite = render_die(spec, rng, styles[i] if i < len(styles) else None)
        box = paste(scene, sprite, pos[0], pos[1], shadow(rng, d))
        placed.append((pos, d))
        dice.append((sprite.kind, sprite.value, tuple(round(v) for v in box)))
    image = camera_effects(scene, np.random.default_rng(seed + 1))
    return image, dice
