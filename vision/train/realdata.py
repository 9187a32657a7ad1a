"""Real dice photos from ../shared/datasets: labels, die localisation, and sequence-wise splits.

The photos are frames of turntable videos, so neighbouring frames are near-duplicates: splitting
them at random would measure memory, not reading. Whole capture sequences are held out instead.
"""

from __future__ import annotations

import csv
import os
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CROP_MARGIN, square_crop
from vision.train.labels import FACE_VALUES
from vision.train.materials import background
from vision.train.render import Sprite, paste, photo_spots, shadow

REPO = Path(__file__).resolve().parents[2]

# One capture sequence per kind kept out of training, to measure on unseen backgrounds and runs.
HELD_OUT_SEQUENCES = frozenset({"d4_color", "d6_color", "d8_top", "d10_top", "d20_top"})

# The table's own photos (`rollscribe photos` folders): their sequences are "table:FOLDER:game-N".
# A player looked at the dice labelled "corrected" or "checked"; nobody at those labelled "read",
# so those stay out (training on them would teach the model its own mistakes). One game in
# TABLE_HOLD_OUT, chosen by a hash of its name, is kept out of training to measure on.
TABLE = "table"
TABLE_LABELS = frozenset({"corrected", "checked"})
TABLE_HOLD_OUT = 5


def datasets_root() -> Path:
    """ROLLSCRIBE_DATASETS, else ../shared/datasets next to the repository."""
    return Path(os.environ.get("ROLLSCRIBE_DATASETS", REPO.parent / "shared" / "datasets"))


@dataclass(frozen=True)
class Photo:
    """One labelled real photo of a single die."""

    path: Path
    kind: str
    value: int
    sequence: str
    run: str  # the note: one die/view within a sequence
    measurable: bool  # a clear label (not an oblique "judgement" call)


def load_photos(root: Path | None = None) -> list[Photo]:
    """All real photos with a known top value (ucffool and skovy sets)."""
    root = root or datasets_root()
    photos = []
    ucf = root / "ucffool" / "labels.csv"
    with ucf.open(newline="") as fh:
        for row in csv.DictReader(fh):
            if not row["top_value"]:
                continue
            photos.append(
                Photo(
                    ucf.parent / row["path"],
                    row["die"],
                    int(row["top_value"]),
                    row["sequence"],
                    row["note"],
                    row["value_confidence"] == "clear",
                )
            )
    skovy = root / "skovy-d6-crops" / "labels.csv"
    if skovy.exists():
        with skovy.open(newline="") as fh:
            for row in csv.DictReader(fh):
                photos.append(
                    Photo(
                        skovy.parent / row["path"],
                        row["die"],
                        int(row["top_value"]),
                        "skovy",
                        "skovy webcam crops",
                        True,
                    )
                )
    return photos


def load_table_photos(folders: Sequence[Path]) -> list[Photo]:
    """The dice photos a table's players labelled, from folders `rollscribe photos` wrote."""
    photos = []
    for folder in folders:
        labels = folder / "labels.csv"
        if not labels.is_file():
            raise FileNotFoundError(f"no labels.csv in {folder} (write it with `rollscribe photos`)")
        with labels.open(newline="") as fh:
            for row in csv.DictReader(fh):
                kind, value = row["die"], row["top_value"]
                if row["how"] not in TABLE_LABELS or kind not in FACE_VALUES:
                    continue  # unlooked-at, or a custom die (taught by prototypes instead)
                if not value.isdigit() or int(value) not in FACE_VALUES[kind]:
                    continue
                sequence = f"{TABLE}:{folder.name}:{row['sequence']}"
                photos.append(Photo(folder / row["path"], kind, int(value), sequence,
                                    f"table photos ({row['how']})", True))
    return photos


def is_table(photo: Photo) -> bool:
    return photo.sequence.startswith(f"{TABLE}:")


def seen_level(photo: Photo) -> bool:
    """Whether training keeps this photo's crop about upright: the shared photos' d4s, taken
    from the side by a level camera, where the numeral standing upright is the value (a table's
    own photos are taken from above, at any turn)."""
    return photo.kind == "d4" and not is_table(photo)


def is_held_out(photo: Photo) -> bool:
    """Held-out photos never enter training (skovy's webcam crops test another camera)."""
    if is_table(photo):
        return zlib.crc32(photo.sequence.encode()) % TABLE_HOLD_OUT == 0
    return photo.sequence in HELD_OUT_SEQUENCES or photo.sequence == "skovy"


def measured_on(photos: list[Photo]) -> list[Photo]:
    """The held-out photos accuracy is measured on: those with a clear label (an oblique
    "judgement" call trains but does not measure)."""
    return [p for p in photos if is_held_out(p) and p.measurable]


# A run that shows this many different top values cannot be learnt as "this die is a 15".
VARIED_RUN_VALUES = 3


def varied(photos: list[Photo]) -> np.ndarray:
    """Per photo: does its run (sequence and note) show at least VARIED_RUN_VALUES top values?

    The turntable runs hold one value each, so their value labels invite shortcuts (die colour
    -> value); runs of re-rolled dice (every d6 sequence) do not, and can teach values in full.
    """
    seen: dict[tuple[str, str], set[int]] = {}
    for p in photos:
        seen.setdefault((p.sequence, p.run), set()).add(p.value)
    return np.array([len(seen[(p.sequence, p.run)]) >= VARIED_RUN_VALUES for p in photos], bool)


def die_blob(image: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """Mask (uint8 0/255) and box of the single die in a photo of one die on a plain-ish surface.

    The surface colour is the median of the frame's border; the die is the largest compact blob
    that differs from it (in colour or brightness), preferring blobs near the centre. None when
    no blob stands out.
    """
    h, w = image.shape[:2]
    small = cv2.GaussianBlur(image, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    b = max(2, min(h, w) // 20)
    border = np.concatenate(
        [
            lab[:b].reshape(-1, 3),
            lab[-b:].reshape(-1, 3),
            lab[:, :b].reshape(-1, 3),
            lab[:, -b:].reshape(-1, 3),
        ]
    )
    med = np.median(border, axis=0)
    spread = np.median(np.abs(border - med), axis=0) + 2.0
    dist = np.sqrt((((lab - med) / spread) ** 2).sum(axis=2))
    dist = cv2.GaussianBlur(dist, (0, 0), max(1.0, min(h, w) / 80))
    d8 = np.clip(dist * (255.0 / max(1e-6, np.percentile(dist, 99.5))), 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k = max(3, min(h, w) // 40) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask)
    best, best_score = 0, -1.0
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < 0.002 * h * w:
            continue
        off = np.hypot((cents[i][0] - w / 2) / w, (cents[i][1] - h / 2) / h)
        fill = area / float(bw * bh)
        score = area * (1.2 - off) * (0.5 + fill)
        if score > best_score:
            best, best_score = i, score
    if not best:
        return None
    x, y, bw, bh, _ = stats[best]
    return (labels == best).astype(np.uint8) * 255, (int(x), int(y), int(x + bw), int(y + bh))


def locate_die(image: np.ndarray) -> tuple[int, int, int, int]:
    """Box of the single die in a photo (die_blob's), or a central square when none stands out."""
    h, w = image.shape[:2]
    found = die_blob(image)
    if found is not None:
        x0, y0, x1, y1 = box = found[1]
        if (x1 - x0) * (y1 - y0) <= 0.8 * h * w:
            return box
    side = int(min(h, w) * 0.6)
    return ((w - side) // 2, (h - side) // 2, (w + side) // 2, (h + side) // 2)


def die_alpha(crop: np.ndarray) -> np.ndarray | None:
    """Soft mask (float 0-1) of the die in a real crop, to set it on other tables in training.

    The crop's border is the photo's surface; a die is convex, so the blob's convex hull is the
    die (numerals and glints that looked like the surface are filled in). None when the blob,
    holes included, covers less than 85% of its hull (a pale die partly lost in a pale surface,
    but also a big numeral reaching the die's outline) or the hull covers too little or too much
    of the crop to be the die alone.
    """
    found = die_blob(crop)
    if found is None:
        return None
    mask = found[0]
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.concatenate(contours))
    filled = np.zeros_like(mask)
    cv2.fillPoly(filled, [hull], 255)
    share = float((filled > 0).mean())
    if not 0.2 <= share <= 0.8 or (mask > 0).sum() < 0.85 * (filled > 0).sum():
        return None
    return cv2.GaussianBlur(filled.astype(np.float32) / 255.0, (3, 3), 0)


# photos dice_together tries before it gives up on a die (all but a few dice cut out)
CUT_TRIES = 50


def die_sprite(photo: Photo, diameter: float) -> Sprite | None:
    """The photo's die cut out of its surface (die_alpha) at about `diameter` px across, to be
    set with other real dice on another table; None when it cannot be cut out. The shared sets
    hold photos of one die each, never of a roll of several."""
    image = read_photo(photo)
    x0, y0, x1, y1 = box = locate_die(image)
    side = round(max(x1 - x0, y1 - y0) * CROP_MARGIN)
    crop = square_crop(image, box, side)  # the photo's own pixels, the crop's margin around
    alpha = die_alpha(crop)
    if alpha is None:
        return None
    size = max(8, round(diameter * CROP_MARGIN))
    crop = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_LINEAR)
    return Sprite(crop * alpha[..., None], alpha, photo.kind, photo.value)


def dice_together(
    rng: np.random.Generator, photos: list[Photo], count: int, side: int = 480,
    diameter: float = 110,
) -> tuple[np.ndarray, list[tuple[str, int, tuple[float, float, float, float]]]]:
    """A photo of `count` real dice, cut out of random photos among `photos` (die_sprite), set
    apart on a rendered table as render_photo sets rendered ones; per die its kind, value and
    box. The shared sets hold photos of one die each: this is the nearest they come to a
    player's photo of a roll."""
    spots = photo_spots(count)
    scene = background(rng, side, side)
    dice = []
    for u, v in spots:
        for _ in range(CUT_TRIES):
            size = diameter * float(rng.uniform(0.85, 1.15))
            sprite = die_sprite(photos[int(rng.integers(len(photos)))], size)
            if sprite is not None:
                break
        else:
            raise ValueError(f"no die could be cut out of {CUT_TRIES} of these photos")
        at = np.array((u, v)) * side + rng.normal(0, 0.02 * side, 2)
        box = paste(scene, sprite, at[0], at[1], shadow(rng, size))
        dice.append((sprite.kind, sprite.value, box))
    return np.clip(scene + 0.5, 0, 255).astype(np.uint8), dice


def is_crop(photo: Photo) -> bool:
    """Whether the photo is already a die's crop (skovy's photos, the table's own)."""
    return photo.sequence == "skovy" or is_table(photo)


def die_box(photo: Photo, image: np.ndarray) -> tuple[float, float, float, float]:
    """The die's box in its photo: located, or for a photo that is already a crop, the box whose
    square crop is the whole image."""
    if not is_crop(photo):
        return locate_die(image)
    h, w = image.shape[:2]
    m = 1 / CROP_MARGIN
    return (w * (1 - m) / 2, h * (1 - m) / 2, w * (1 + m) / 2, h * (1 + m) / 2)


def read_bgr(path: Path) -> np.ndarray:
    """An image file as BGR, or OSError naming it."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"cannot read {path}")
    return image


def read_photo(photo: Photo) -> np.ndarray:
    return read_bgr(photo.path)


def real_crop(photo: Photo, size: int) -> np.ndarray:
    """The photo's die cut with the shared crop convention."""
    image = read_photo(photo)
    return square_crop(image, die_box(photo, image), size)
