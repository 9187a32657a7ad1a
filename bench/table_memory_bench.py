"""The table learning its own dice, as a table would: `python -m bench table_memory`.

Why: the issue's goal is a learning curve. Per rig and kind of ucffool's photos, the dice come
as a table would see them: one frame of each roll in turn (a roll is a run of frames showing
one value: a turntable run, or a stretch of a d6 run), each in capture order. Each die is read,
then confirmed with its true label and remembered (vision.table_memory). At 0, 20, 50, 100 and
200 confirmed dice of that rig and kind, the next 100 dice are read with what is remembered so
far: value right, the share read sure, and how many sure readings were wrong. nell-byler's
trays too (d6; a tray's dice were thrown together: one roll; the classifier trained on these
trays, so its own figure there flatters it).

Consecutive frames of one roll are near duplicates, so a memory holding frame N reads frame N+1
too easily. Two ways are printed: `other rolls` leaves the die's whole roll out of the memory
when reading it (only dice rolled another time help; most of ucffool's values show in one roll
of a rig and kind only, so there the memory can only hold the other faces); `turned` leaves out
the frames of its roll within a quarter of the roll's length (about a quarter turn of the
turntable): the same die showing the same face again, at another turn, as a table sees it when
that face comes up again. The fusion's constants and the sure rule were chosen on the colour and
top rigs and checked on wood and angle. Printed, never asserted.

Each photo is read once (one thread) and its reading cached in artifacts/; the curve is numpy.
`python -m bench.table_memory_bench --sight` adds the turned curve read as the table reads once
it has learnt where its camera shows each kind's numeral (vision.placement), about 20 minutes.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bench.timing import median_ms
from companion.dice_memory import PER_FACE
from companion.reading import join_reasons
from vision.camera_tilt import WINDOW, CameraTilt
from vision.classify import Classifier
from vision.memory_key import MemoryKey
from vision.numerals import ASLANT, RECOGNIZED, NumeralReader, TableSight, offset_of
from vision.placement import KINDS as PLACED_KINDS
from vision.placement import LEARN_FROM, choose, trusts, verdicts
from vision.reader import (
    KEPT_CROP_SIDE,
    card_check,
    die_value,
    kept_crop,
    own_kind,
    ranked_kinds,
    read_kind,
)
from vision.table_memory import (
    TURNS,
    Remembered,
    recall,
    remember_turns,
    remembered_reading,
    unit,
)
from vision.train.realdata import Photo, datasets_root, load_photos, locate_die, read_photo
from vision.train.realsets import rig_of, rig_table, tray_photos

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "artifacts" / "table-memory-readings.npz"
READING_CODE = tuple(REPO / "vision" / name for name in (
    "classify.py", "numerals.py", "reader.py", "top_face.py", "table_memory.py", "memory_key.py",
    "pips.py"))
POINTS = (0, 20, 50, 100, 200)
NEXT = 100
LENGTH = POINTS[-1] + NEXT
CHOSEN_ON = ("ucffool-colour", "ucffool-top")  # the rest check what was chosen there


@dataclass(frozen=True)
class Die:
    """One die of a table's stream: its photo, the roll it belongs to and its place there."""

    photo: Photo
    roll: int
    place: int  # frame index within its roll (capture order)
    roll_length: int
    box: tuple[float, ...] | None = None  # a tray photo's die (None: the photo's one die)

    @property
    def key(self) -> str:
        return str(self.photo.path) + (f"#{self.box}" if self.box else "")


def rolls_of(photos: list[Photo]) -> list[list[Photo]]:
    """The rolls among one rig and kind's photos: runs of one value in each run, in order."""
    runs: dict[tuple[str, str], list[Photo]] = defaultdict(list)
    for p in photos:
        runs[(p.sequence, p.run)].append(p)
    rolls: list[list[Photo]] = []
    for key in sorted(runs):
        for p in sorted(runs[key], key=lambda p: p.path):
            if not rolls or rolls[-1][-1].value != p.value or (rolls[-1][-1].sequence,
                                                               rolls[-1][-1].run) != key:
                rolls.append([])
            rolls[-1].append(p)
    return rolls


def streams() -> dict[tuple[str, str], list[Die]]:
    """Per ucffool rig and kind (a clear label, two rolls at least), LENGTH dice: a frame of
    each roll in turn, each roll's frames evenly spaced in capture order; and nell-byler's
    trays in the order they were taken, a tray's dice one roll."""
    table = rig_table(datasets_root())
    groups: dict[tuple[str, str], list[Photo]] = defaultdict(list)
    for p in load_photos():
        if p.measurable and p.sequence != "skovy":
            groups[(rig_of(table, p), p.kind)].append(p)
    out = {}
    for key, photos in sorted(groups.items()):
        rolls = rolls_of(photos)
        if len(rolls) < 2:
            continue
        per_roll = -(-LENGTH // len(rolls))
        picks = [[Die(roll[int(j)], r, int(j), len(roll))
                  for j in np.linspace(0, len(roll) - 1, min(per_roll, len(roll)))]
                 for r, roll in enumerate(rolls)]
        turn = [die for i in range(per_roll) for pick in picks if i < len(pick)
                for die in [pick[i]]]
        out[key] = turn[:LENGTH]
    trays = tray_photos(datasets_root() / "nell-byler-d6-trays")
    out[("nell-byler-trays", "d6")] = [
        Die(Photo(path, "d6", value, "nell-byler", "tray", True), r, i, 1, box)
        for r, path in enumerate(sorted(trays)) for i, (value, box) in enumerate(trays[path])
    ][:LENGTH]
    return out


@dataclass(frozen=True)
class Reading:
    """One die as the reader without memory reads it, and its memory keys."""

    kind: str
    value: int
    confidence: float
    why: str  # why unsure ("": sure)
    embedding: np.ndarray  # the key of the frame's crop, as the reader sees it
    remembered: np.ndarray  # (turns, d) of the kept JPEG crop, as the memory would keep it


def read_die(clf: Classifier, numerals: NumeralReader, key: MemoryKey, die: Die,
             sight: TableSight | None = None) -> Reading:
    """The die read as vision.reader reads a die of the expected kind (`sight`: what the table
    learnt of its camera)."""
    photo = die.photo
    image = read_photo(photo)
    box = die.box or locate_die(image)
    crops = clf.crops(image, [box])
    outputs = clf.look(crops)
    face, kind_why = own_kind(clf, outputs, photo.kind)
    numeral = numerals.read_many(image, [box], [face.die], sight or TableSight(),
                                 ranked=[ranked_kinds(clf, outputs["kind"][0])])[0] if (
        face.die in RECOGNIZED) else None
    kind, kind_why = read_kind(face, kind_why, photo.kind, numeral)
    valued = die_value(clf, face, numeral, crops[0], outputs["value"][0])
    why = join_reasons(valued.why, kind_why, card_check(clf, face.die, valued.settled) or "")
    return Reading(kind, int(valued.value), valued.confidence, why, key.embed(crops)[0],
                   remember_turns(key, kept_crop_image(image, box)))


def kept_crop_image(image: np.ndarray, box: tuple[float, ...]) -> np.ndarray:
    """The crop the table keeps of a die (vision.reader.kept_crop), as it reads it back."""
    return cv2.imdecode(np.frombuffer(kept_crop(image, box), np.uint8), cv2.IMREAD_COLOR)


def sighted(clf: Classifier, numerals: NumeralReader, key: MemoryKey, dice: list[Die],
            read: dict[str, Reading]) -> list[dict[str, Reading]]:
    """Per point of the curve, the next dice as read with what the table learnt of its camera
    from the confirmed ones (vision.placement: a placement for the kind's numeral, or the
    locator trusted, chosen from the newest LEARN_FROM confirmed dice's kept crops); `read`'s
    own readings where it learnt nothing. Not cached: about 0.7 s a confirmed die learnt and
    0.1 s a die read at a placement."""
    kind = dice[0].photo.kind
    offsets = located_offsets(numerals, dice) if kind in ASLANT else {}
    out = []
    for confirmed in POINTS:
        rows = []
        for die in dice[max(0, confirmed - LEARN_FROM):confirmed]:
            image = read_photo(die.photo)
            rows.append(verdicts(numerals, kept_crop_image(image, die.box or locate_die(image)),
                                 kind, die.photo.value))
        placement = choose(rows, kind)
        learnt = TableSight({kind: placement} if placement else {},
                            frozenset([kind]) if trusts(rows) else frozenset())
        tilt = CameraTilt()  # what the dice read before each one say of the camera
        for die in dice[max(0, confirmed - WINDOW):confirmed] if offsets else ():
            tilt.note(kind, offsets[die.key])
        point = {}
        for die in dice[confirmed:confirmed + NEXT]:
            sight = tilt.sight(learnt)
            point[die.key] = (read[die.key] if sight == TableSight() else
                              read_die(clf, numerals, key, die, sight))
            if offsets:
                tilt.note(kind, offsets[die.key])
        out.append(point)
    return out


def located_offsets(numerals: NumeralReader, dice: list[Die]) -> dict[str, float]:
    """Where the locator puts each die's top face (numerals.offset_of), as the reader sees it."""
    out = {}
    for die in dice:
        image = read_photo(die.photo)
        box = die.box or locate_die(image)
        out[die.key] = offset_of(numerals.locator.locate(image, [box])[0], box)
    return out


def fingerprint() -> str:
    """What the cached readings were read by: the models' files and the reading code (a cache
    left by another reader is read again, not reused)."""
    digest = hashlib.sha256()
    for path in (*sorted((REPO / "models").glob("*.onnx")), *READING_CODE):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def readings(dice: list[Die]) -> dict[str, Reading]:
    """Every die's reading, from the cache where this reader read it before."""
    cached: dict[str, Reading] = {}
    reader = fingerprint()
    if CACHE.is_file():
        with np.load(CACHE, allow_pickle=False) as npz:
            data = {key: npz[key] for key in npz.files}  # each read of npz[key] reads it all
        if str(data.get("reader", "")) == reader:
            for i, path in enumerate(data["paths"]):
                cached[str(path)] = Reading(str(data["kinds"][i]), int(data["values"][i]),
                                            float(data["confidences"][i]), str(data["why"][i]),
                                            data["embeddings"][i], data["remembered"][i])
    missing = sorted({d.key for d in dice} - set(cached))
    if missing:
        clf, numerals, key = Classifier(threads=1), NumeralReader(threads=1), MemoryKey()
        photos = {d.key: d for d in dice}
        start = time.perf_counter()
        for n, path in enumerate(missing):
            cached[path] = read_die(clf, numerals, key, photos[path])
            if n % 500 == 499:
                print(f"  read {n + 1} of {len(missing)} photos "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)
        CACHE.parent.mkdir(exist_ok=True)
        paths = sorted(cached)
        np.savez(CACHE, reader=np.array(reader), paths=np.array(paths),
                 kinds=np.array([cached[p].kind for p in paths]),
                 values=np.array([cached[p].value for p in paths]),
                 confidences=np.array([cached[p].confidence for p in paths]),
                 why=np.array([cached[p].why for p in paths]),
                 embeddings=np.stack([cached[p].embedding for p in paths]),
                 remembered=np.stack([cached[p].remembered for p in paths]))
    return cached


Excluded = Callable[[Die, Die], bool]


def other_rolls(read: Die, kept: Die) -> bool:
    return kept.roll == read.roll


def turned(read: Die, kept: Die) -> bool:
    return kept.roll == read.roll and abs(kept.place - read.place) < read.roll_length / 4


@dataclass
class Point:
    """The figures of one point of the curve."""

    right: int = 0
    sure: int = 0
    sure_wrong: int = 0
    seen: int = 0

    def text(self) -> str:
        if not self.seen:
            return "        -         "
        return (f"{100 * self.right / self.seen:5.1f}% {100 * self.sure / self.seen:3.0f}%s "
                f"{self.sure_wrong:2d}w")


def curve(dice: list[Die], read: dict[str, Reading], excluded: Excluded | None,
          sight: list[dict[str, Reading]] | None = None) -> list[Point]:
    """Value right, sure and sure-and-wrong over the NEXT dice after each point's confirmed
    dice; without `excluded`, the reader alone; with `sight`, each point's dice as read with
    what the table learnt of its camera by then (sighted)."""
    points = []
    for n, confirmed in enumerate(POINTS):
        point = Point()
        kept = dice[:confirmed]
        vectors = np.concatenate([read[d.key].remembered for d in kept] or
                                 [np.zeros((0, 0), np.float32)])
        turns = len(vectors) // max(1, len(kept))
        memory = Remembered(unit(vectors), tuple(d.photo.value for d in kept for _ in
                                                 range(turns)))
        for die in dice[confirmed:confirmed + NEXT]:
            r = (sight[n] if sight else read)[die.key]
            value, why = r.value, r.why
            if excluded is not None and kept and r.kind == die.photo.kind:
                keep = np.repeat([not excluded(die, k) for k in kept], turns)
                value, _, why = remembered_reading(r.kind, r.value, r.confidence, r.why,
                                                   recall(memory.take(keep), r.embedding))
            sure = not why
            point.seen += 1
            point.right += value == die.photo.value
            point.sure += sure
            point.sure_wrong += sure and value != die.photo.value
        points.append(point)
    return points


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.table_memory_bench")
    p.add_argument("--sight", action="store_true",
                   help="also the turned curve as a table plays it, with the camera's placement "
                        "learnt (vision.placement; about 20 minutes more)")
    p.add_argument("--kinds", default="", help="only these kinds' streams (comma-separated)")
    args = p.parse_args(argv or [])
    table = {key: dice for key, dice in streams().items()
             if not args.kinds or key[1] in args.kinds.split(",")}
    read = readings([d for dice in table.values() for d in dice])
    print(f"value right / read sure / sure and wrong over the next {NEXT} dice after "
          f"{', '.join(map(str, POINTS))} confirmed (constants chosen on "
          f"{', '.join(CHOSEN_ON)})")
    for name, excluded in (("reader alone", None), ("other rolls", other_rolls),
                           ("turned", turned)):
        print(f"{name}:")
        for (rig, kind), dice in table.items():
            rolls = len({d.roll for d in dice})
            figures = "  ".join(p.text() for p in curve(dice, read, excluded))
            print(f"  {rig:15s} {kind:4s} {rolls:2d} rolls  {figures}")
    if args.sight:
        print("turned, with what the table learnt of its camera (vision.placement):")
        clf, numerals, key = Classifier(threads=2), NumeralReader(threads=2), MemoryKey()
        for (rig, kind), dice in table.items():
            if kind in PLACED_KINDS:
                rolls = len({d.roll for d in dice})
                figures = "  ".join(p.text() for p in curve(
                    dice, read, turned, sighted(clf, numerals, key, dice, read)))
                print(f"  {rig:15s} {kind:4s} {rolls:2d} rolls  {figures}", flush=True)
    timing()


def timing() -> None:
    """The memory's cost in a frame of ten dice (their crops keyed in one batch, then each read
    against a full d20 memory: 20 values x PER_FACE dice x TURNS turns), and per die learnt (its
    crop keyed at TURNS turns, in the background of play)."""
    rng = np.random.default_rng(1)
    key = MemoryKey()
    side = key.input_size  # the reader's crops
    crops = [rng.integers(0, 255, (side, side, 3), np.uint8) for _ in range(10)]
    kept = rng.integers(0, 255, (KEPT_CROP_SIDE, KEPT_CROP_SIDE, 3), np.uint8)
    probe = key.embed(crops[:1])[0]
    vectors = unit(rng.normal(size=(20 * PER_FACE * TURNS, len(probe))))
    memory = Remembered(vectors, tuple(1 + i % 20 for i in range(len(vectors))))
    keyed = median_ms(lambda: key.embed(crops), 50)
    read = median_ms(lambda: remembered_reading("d20", 5, 0.5, "numeral not clear",
                                                recall(memory, probe)), 200)
    learn = median_ms(lambda: remember_turns(key, kept), 20)
    print(f"ten dice keyed: {keyed:.1f} ms; a die read with a full d20 memory ({len(vectors)} "
          f"vectors): {read:.3f} ms more; a die learnt: {learn:.1f} ms (medians of 50, 200 and "
          "20 runs, the key on two threads)")


if __name__ == "__main__":
    main(sys.argv[1:])
