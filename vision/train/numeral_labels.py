"""Real dice crops labelled with where their value's numeral lies: the top-face locator's real
examples (vision.train.top_face).

Why: renders taught the locator where a top face's numeral lies when the die is seen from
above, but not on real dice photographed from the side, where the top face is not the one
turned to the camera (a locator trained on oblique renders read the angled rig's d20s worse).
The photos' labels say what the top face shows, and the text recognizer can find where that
numeral reads best: windows on a grid over the die, turned every 30 degrees, then refined.
Where the true face has LABEL_SHARE of the kind's faces' probability in its best window, that
window is the label. The rig of each crop is kept, so the locator can be trained without a rig
and measured on it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.crops import square_bounds, square_crop, widened
from vision.numerals import FACES, NumeralReader, classes, ctc_log_likelihood, cut_window, plan_for
from vision.train.realdata import Photo, datasets_root, load_photos, locate_die, read_photo
from vision.train.realsets import rig_of, rig_table

EVERY, OFFSET = 16, 4  # photos of each run labelled (bench numerals reads every 8th from 0)
GRID = (-0.22, 0.0, 0.22)  # window centres about the die's centre, in die sides
TURN_STEP = 30
REFINE_TURNS = (-20, -10, 10, 20)
REFINE_SHIFT = 0.08  # die sides
LABEL_SHARE = 0.8


@dataclass(frozen=True)
class Labelled:
    """Wide crops (the locator's training framing) with (x, y, angle, facing) labels in crop
    pixels, and the rig of each."""

    images: np.ndarray
    labels: np.ndarray
    rigs: tuple[str, ...]

    def without(self, rig: str | None) -> Labelled:
        keep = [i for i, r in enumerate(self.rigs) if r != rig]
        return Labelled(self.images[keep], self.labels[keep], tuple(self.rigs[i] for i in keep))


def photos_to_label(every: int = EVERY, offset: int = OFFSET) -> list[Photo]:
    """Clearly labelled photos of numbered dice, `every`-th of each run from `offset`."""
    runs: dict[tuple[str, str], list[Photo]] = defaultdict(list)
    for photo in load_photos():
        if photo.kind != "d6" and photo.measurable and photo.sequence != "skovy":
            runs[(photo.sequence, photo.run)].append(photo)
    return [p for key in sorted(runs)
            for p in sorted(runs[key], key=lambda p: p.path)[offset::every]]


def true_share(reader: NumeralReader, image: np.ndarray, kind: str, numeral: str,
               size: float, spots: list[tuple[float, float, float]]) -> np.ndarray:
    """For each (x, y, angle) window, the true numeral's share of the kind's faces."""
    logp = reader.recognise(np.stack([cut_window(image, x, y, a, size) for x, y, a in spots]))
    faces = FACES[kind]
    ll = np.stack([ctc_log_likelihood(logp, classes(f)) for f in faces], axis=1)
    return np.exp(ll[:, faces.index(numeral)] - np.logaddexp.reduce(ll, axis=1))


def numeral_place(reader: NumeralReader, image: np.ndarray, box: tuple[int, int, int, int],
                  kind: str, value: int) -> tuple[float, float, float, float]:
    """(x, y, angle, share) of the window where the die's true numeral reads best."""
    numeral = "0" if kind == "d10" and value == 10 else "00" if kind == "d%" and value == 100 \
        else str(value)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    side = max(box[2] - box[0], box[3] - box[1])
    size = plan_for(kind).size * side
    spots = [(cx + dx * side, cy + dy * side, float(a))
             for dx in GRID for dy in GRID for a in range(0, 360, TURN_STEP)]
    share = true_share(reader, image, kind, numeral, size, spots)
    x, y, a = spots[int(np.argmax(share))]
    near = [(x, y, a + t) for t in REFINE_TURNS] + [
        (x + sx * REFINE_SHIFT * side, y + sy * REFINE_SHIFT * side, a)
        for sx, sy in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    refined = true_share(reader, image, kind, numeral, size, near)
    if refined.max() > share.max():
        return (*near[int(np.argmax(refined))], float(refined.max()))
    return x, y, a, float(share.max())


def label_photos(photos: list[Photo], side: int, wide: float, log=print) -> Labelled:
    """The photos whose numeral was found (LABEL_SHARE), as `side` px crops `wide` times the
    crop convention's side, with their labels."""
    reader = NumeralReader(threads=1)
    table = rig_table(datasets_root())
    images, labels, rigs = [], [], []
    for n, photo in enumerate(photos):
        image = read_photo(photo)
        box = locate_die(image)
        x, y, angle, share = numeral_place(reader, image, box, photo.kind, photo.value)
        if share >= LABEL_SHARE:
            sx, sy, span = square_bounds(widened(box, wide))
            scale = side / span
            images.append(square_crop(image, widened(box, wide), side))
            labels.append(((x - sx + 0.5) * scale - 0.5, (y - sy + 0.5) * scale - 0.5,
                           angle % 360, 1.0))
            rigs.append(rig_of(table, photo))
        if n % 100 == 99:
            log(f"labelled {n + 1} of {len(photos)} photos ({len(images)} found)")
    return Labelled(np.stack(images), np.array(labels, np.float32), tuple(rigs))


def load_or_label(path: Path, side: int, wide: float, log=print) -> Labelled:
    """The labelled crops kept at `path`, labelled now when missing (minutes: every window of
    the grid goes through the recognizer)."""
    if not path.exists():
        got = label_photos(photos_to_label(), side, wide, log)
        np.savez(path, images=got.images, labels=got.labels, rigs=np.array(got.rigs))
    with np.load(path) as data:
        return Labelled(data["images"], data["labels"], tuple(str(r) for r in data["rigs"]))
