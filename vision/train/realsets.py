"""Real dice crops from ../shared/datasets, each marked with the rig it was shot on.

The reader is measured across rigs (issue 45): a model is trained without a rig and read on it,
so every crop carries its rig from rigs.csv (ucffool's backgrounds and views, skovy's webcam,
nell-byler's trays). Crops are cut WIDE times the runtime's side (vision.crops) so training can
jitter the framing both ways; crops of bare surface (state "empty") are cut too, so a model
learns that a patch of tray, a rim or a whole tray is no die.

The crops are packed into one file of JPEGs (`save` / `load`): small enough to carry to a GPU
machine, and made once on the machine that has the photos.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from vision.crops import square_crop, widened
from vision.train.labels import KINDS, STATES, VALUE_LABELS, value_label
from vision.train.realdata import (
    Photo,
    datasets_root,
    die_box,
    is_crop,
    is_held_out,
    load_photos,
    load_table_photos,
    read_bgr,
    read_photo,
    seen_level,
    varied,
)

WIDE = 1.25  # crops are cut this many times the runtime's side
SIZE = 112  # ... at this many pixels (the classifier reads 96 of the middle 90)
# one turntable frame in this many is kept: neighbouring frames are near duplicates, and the pack
# must be small enough to carry to a GPU machine
EVERY = 2
IGNORE = -100  # no label (an empty crop has no kind or value)
NELL = "nell-byler-d6-trays"
# a table's own photos (`rollscribe photos`): one game in realdata.TABLE_HOLD_OUT is kept out of
# training to measure on
TABLE, TABLE_HELD_OUT = "table", "table-held-out"
EMPTY_EVERY = 8  # one ucffool photo in this many also gives a crop of its bare surface
RIG_FOLDS: tuple[tuple[str, ...], ...] = (
    ("ucffool-colour",),
    ("ucffool-top",),
    ("ucffool-wood",),
    ("ucffool-angle", "skovy-webcam"),
    ("nell-byler-trays",),
)


@dataclass(frozen=True)
class CropSet:
    """Crops (N, SIZE, SIZE, 3) uint8 BGR and, per crop, its labels (indices into KINDS,
    VALUE_LABELS and STATES, IGNORE where none), rig, capture sequence, whether a level camera
    saw it from the side (training turns it only a little), whether its label is clear
    enough to measure on, and whether its value may be learnt from: a turntable run shows one
    value all along, so its value labels invite a shortcut (this orange d10 is a 5) that no other
    table honours; those runs teach the kind alone."""

    images: np.ndarray
    kinds: np.ndarray
    values: np.ndarray
    states: np.ndarray
    rigs: np.ndarray
    sequences: np.ndarray
    level: np.ndarray
    measurable: np.ndarray
    varied: np.ndarray

    def __len__(self) -> int:
        return len(self.images)

    def take(self, keep: np.ndarray) -> CropSet:
        """The rows `keep` selects (a bool mask or indices), every column alike."""
        return CropSet(*(getattr(self, f)[keep] for f in CropSet.__annotations__))

    def without(self, rigs: tuple[str, ...]) -> CropSet:
        return self.take(~np.isin(self.rigs, rigs))

    def of(self, rigs: tuple[str, ...]) -> CropSet:
        return self.take(np.isin(self.rigs, rigs))


def concat(*parts: CropSet) -> CropSet:
    """One CropSet with all the parts' rows, in order."""
    return CropSet(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in CropSet.__annotations__)
    )


def rig_table(root: Path) -> dict[tuple[str, str], str]:
    """(set, sequence) -> rig, from rigs.csv ("*" stands for every sequence of a set)."""
    with (root / "rigs.csv").open(newline="") as fh:
        return {(r["set"], r["sequence"]): r["rig"] for r in csv.DictReader(fh)}


def rig_of(table: dict[tuple[str, str], str], photo: Photo) -> str:
    """The rig a shared photo was shot on; KeyError for a sequence rigs.csv does not know."""
    if photo.sequence == "skovy":
        return table[("skovy-d6-crops", "*")]
    return table[("ucffool", photo.sequence)]


def _labels(kind: str, value: int, state: str) -> tuple[int, int, int]:
    k = KINDS.index(kind) if state != "empty" else IGNORE
    v = VALUE_LABELS.index(value_label(kind, value)) if state == "flat" else IGNORE
    return k, v, STATES.index(state)


def _bare_box(shape: tuple[int, ...], die: tuple[float, ...], rng: np.random.Generator) -> tuple:
    """A die-sized box in the photo's corner farthest from the die: bare surface, maybe with
    the die's edge in it."""
    h, w = shape[:2]
    x0, y0, x1, y1 = die
    side = max(x1 - x0, y1 - y0) * rng.uniform(0.7, 1.3)
    cx = side / 2 if (x0 + x1) / 2 > w / 2 else w - side / 2
    cy = side / 2 if (y0 + y1) / 2 > h / 2 else h - side / 2
    return (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)


def _photo_crops(args: tuple[Photo, int]) -> list[tuple[np.ndarray, str]]:
    """A shared photo's wide die crop (and every EMPTY_EVERY-th photo's bare corner)."""
    photo, index = args
    image = read_photo(photo)
    box = die_box(photo, image)
    out = [(square_crop(image, widened(box, WIDE), SIZE), "flat")]
    if not is_crop(photo) and index % EMPTY_EVERY == 0:
        bare = _bare_box(image.shape, box, np.random.default_rng(index))
        out.append((square_crop(image, widened(bare, WIDE), SIZE), "empty"))
    return out


def _tray_crops(args: tuple[Path, list[tuple[int, tuple[float, ...]]], int]) -> list:
    """One nell-byler tray photo's dice (value, box) as wide crops, two die-sized crops of bare
    tray away from every die, and the whole tray as one crop (a tray is never a die)."""
    path, dice, index = args
    image = read_bgr(path)
    out: list[tuple[np.ndarray, int, str]] = [
        (square_crop(image, widened(box, WIDE), SIZE), value, "flat") for value, box in dice
    ]
    rng = np.random.default_rng(index)
    h, w = image.shape[:2]
    boxes = np.array([b for _, b in dice], np.float32)
    side = float(np.median(boxes[:, 2:] - boxes[:, :2]))
    for _ in range(30):
        x, y = rng.uniform(0, w - side), rng.uniform(0, h - side)
        bare = (x, y, x + side, y + side)
        clear = (boxes[:, 0] > bare[2]) | (boxes[:, 2] < bare[0])
        clear |= (boxes[:, 1] > bare[3]) | (boxes[:, 3] < bare[1])
        if clear.all():
            out.append((square_crop(image, widened(bare, WIDE), SIZE), 0, "empty"))
            if sum(s == "empty" for *_, s in out) == 2:
                break
    whole = (w * 0.1, h * 0.1, w * 0.9, h * 0.9)
    out.append((square_crop(image, widened(whole, 1.0), SIZE), 0, "empty"))
    return out


def tray_photos(folder: Path) -> dict[Path, list[tuple[int, tuple[float, ...]]]]:
    """nell-byler's tray photos (its folder): per photo, every die's (value, box)."""
    photos: dict[Path, list[tuple[int, tuple[float, ...]]]] = {}
    with (folder / "boxes.csv").open(newline="") as fh:
        for r in csv.DictReader(fh):
            box = tuple(float(r[k]) for k in ("x0", "y0", "x1", "y1"))
            photos.setdefault(folder / r["path"], []).append((int(r["value"]), box))
    return photos


def build(root: Path | None = None, workers: int = 2) -> CropSet:
    """Every labelled shared photo's crop with its rig, and the bare-surface crops."""
    root = root or datasets_root()
    table = rig_table(root)
    every = load_photos(root)
    learnt = varied(every)  # judged on every frame of a run, before one in EVERY is kept
    kept = [i for i, p in enumerate(every) if p.sequence == "skovy" or i % EVERY == 0]
    photos = [every[i] for i in kept]
    ctx = get_context("spawn")
    with ctx.Pool(workers) as pool:
        per_photo = pool.map(_photo_crops, [(p, i) for i, p in enumerate(photos)], chunksize=64)
        trays = tray_photos(root / NELL)
        per_tray = pool.map(
            _tray_crops, [(p, d, i) for i, (p, d) in enumerate(trays.items())], chunksize=8
        )
    rows: list[tuple] = []
    for i, photo, crops in zip(kept, photos, per_photo, strict=True):
        rig = rig_of(table, photo)
        for image, state in crops:
            rows.append((image, *_labels(photo.kind, photo.value, state), rig, photo.sequence,
                         seen_level(photo) and state == "flat", photo.measurable,
                         bool(learnt[i])))
    nell = table[(NELL, "*")]
    for path, crops in zip(trays, per_tray, strict=True):
        for image, value, state in crops:
            rows.append((image, *_labels("d6", value or 1, state), nell, path.stem, False, True,
                         True))
    return _crop_set(rows)


def table_crops(folders: list[Path], workers: int = 2) -> CropSet:
    """The dice a table's players checked or corrected, as wide crops of rig TABLE, or
    TABLE_HELD_OUT for the games kept out of training."""
    photos = load_table_photos(folders)
    if not photos:
        raise ValueError(f"no checked or corrected dice in {', '.join(map(str, folders))}")
    with get_context("spawn").Pool(workers) as pool:
        crops = pool.map(_photo_crops, [(p, i) for i, p in enumerate(photos)], chunksize=64)
    rows = [
        (image, *_labels(p.kind, p.value, state), TABLE_HELD_OUT if is_held_out(p) else TABLE,
         p.sequence, False, True, True)
        for p, shots in zip(photos, crops, strict=True) for image, state in shots
    ]
    return _crop_set(rows)


def _crop_set(rows: list[tuple]) -> CropSet:
    columns = list(zip(*rows, strict=True))
    return CropSet(
        np.stack(columns[0]),
        *(np.array(c, np.int64) for c in columns[1:4]),
        np.array(columns[4]),
        np.array(columns[5]),
        np.array(columns[6], bool),
        np.array(columns[7], bool),
        np.array(columns[8], bool),
    )


def save(crops: CropSet, path: Path, quality: int = 78) -> None:
    """Pack the crops as JPEGs with their labels in one .npz."""
    encoded = [
        cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, quality])[1] for im in crops.images
    ]
    sizes = np.array([len(e) for e in encoded], np.int64)
    np.savez(
        path,
        jpeg=np.concatenate(encoded).ravel(),
        sizes=sizes,
        **{f: getattr(crops, f) for f in CropSet.__annotations__ if f != "images"},
    )


def load(path: Path) -> CropSet:
    """The crops `save` packed."""
    data = np.load(path)
    ends = np.cumsum(data["sizes"])
    jpeg = data["jpeg"]
    images = np.stack(
        [cv2.imdecode(jpeg[e - n : e], cv2.IMREAD_COLOR) for e, n in zip(ends, data["sizes"])]
    )
    return CropSet(images, *(data[f] for f in CropSet.__annotations__ if f != "images"))
