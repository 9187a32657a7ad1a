"""Pipped d6s read by the classifier alone and with their pips counted (vision.pips), A/B in one
run: every pipped die of ../shared, nell-byler's 1,795 in their trays (each cut at its true box)
and skovy's 151 webcam crops, read as d6s; and ucffool's numbered d6s (one photo in 8 of each run)
whose numeral the recognizer does not read, which the reader weighs so too.

The shipped classifier trained on both rigs, so its figures here are seen-rig. What a table it
never saw gets is read with a classifier trained without the rig: `--model PATH` (a dice.onnx
trained with the rig left out, e.g. `python -m vision.train --folds-only`'s artifacts/fold-4 for
nell-byler's trays). The pip count itself trained on nothing. Printed per rig: value right by
the classifier, by the pips alone and by both (a numbered d6's pips are its numeral's strokes);
the dice the count changed, to right and to wrong; the share it made sure (vision.pips.settles)
and how many of those are wrong; the median ms a die is counted in; and how long deciding the
values of a frame of ten dice or more takes, counting where it could change or settle one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from bench.numerals_bench import EVERY, sample
from vision.classify import DEFAULT_MODEL, Classifier
from vision.numerals import NumeralReader
from vision.pips import count_pips
from vision.reader import die_value
from vision.train.realdata import (
    datasets_root,
    die_box,
    load_photos,
    locate_die,
    read_bgr,
    read_photo,
)
from vision.train.realsets import NELL, tray_photos

BATCH = 64
TRAY_DICE = 10  # a tray's dice, for what the count adds to a frame
Die = tuple[np.ndarray, tuple[float, ...], int]  # frame, box, value


def nell_byler() -> Iterator[Die]:
    """Every boxed die of nell-byler's trays."""
    for path, dice in tray_photos(datasets_root() / NELL).items():
        frame = read_bgr(path)
        for value, box in dice:
            yield frame, box, value


def skovy() -> Iterator[Die]:
    """skovy's crops, framed as the reader frames a photo that is a crop already."""
    for photo in load_photos():
        if photo.sequence == "skovy":
            image = read_photo(photo)
            yield image, die_box(photo, image), photo.value


def numbered() -> Iterator[Die]:
    """ucffool's numbered d6s that the recognizer reads no numeral on (vision.numerals: the
    rest are read by their numeral and never counted)."""
    numerals = NumeralReader(threads=1)
    for photo in sample(EVERY, d6=True):
        if photo.sequence != "skovy":
            image = read_photo(photo)
            box = locate_die(image)
            if numerals.read_many(image, [box], ["d6"])[0] is None:
                yield image, box, photo.value


def measure(clf: Classifier, dice: list[Die]) -> str:
    """One rig's line: classifier / pips / both right, changes, the dice the count made sure
    (vision.pips.settles) and how many of them are wrong, ms a die counted."""
    alone = counted = both = to_right = to_wrong = sure = sure_wrong = 0
    took = []
    for start in range(0, len(dice), BATCH):
        chunk = dice[start:start + BATCH]
        crops = [clf.crops(frame, [box])[0] for frame, box, _ in chunk]
        outputs = clf.look(crops)
        for i, (_, _, value) in enumerate(chunk):
            face = clf.postprocess({k: v[i:i + 1] for k, v in outputs.items()}, ["d6"])[0]
            t0 = time.perf_counter()
            count = count_pips(crops[i])
            took.append(time.perf_counter() - t0)
            valued = die_value(clf, face, None, crops[i], outputs["value"][i])
            alone += face.value == value
            counted += count.best == value
            both += valued.value == value
            to_right += valued.value != face.value and valued.value == value
            to_wrong += valued.value != face.value and face.value == value
            if valued.settled and not valued.why:  # sure, as the reader reports it
                sure += 1
                sure_wrong += valued.value != value
    n = len(dice)
    return (f"{n:5d} dice: classifier {alone / n:6.1%}  pips alone {counted / n:6.1%}  "
            f"both {both / n:6.1%}  (changed to right {to_right}, to wrong {to_wrong}); "
            f"sure {sure / n:5.1%} ({sure_wrong} of {sure} wrong); "
            f"{1000 * statistics.median(took):.1f} ms a die counted")


def tray_cost(clf: Classifier, least: int = TRAY_DICE, rounds: int = 5) -> str:
    """What the count adds to a frame: nell-byler's trays of `least` dice or more, each die's
    value decided as the reader decides a d6 with no numeral (vision.reader.die_value, which
    counts only where the count could change it; the rest of a frame's reading is as before),
    each tray's fastest of `rounds`; the median over trays."""
    per_tray, dice = [], []
    for path, boxed in tray_photos(datasets_root() / NELL).items():
        if len(boxed) >= least:
            frame = read_bgr(path)
            crops = clf.crops(frame, [box for _, box in boxed])
            outputs = clf.look(crops)
            faces = clf.postprocess(outputs, ["d6"])
            times = []
            for _ in range(rounds):
                t0 = time.perf_counter()
                for i, crop in enumerate(crops):
                    die_value(clf, faces[i], None, crop, outputs["value"][i])
                times.append(time.perf_counter() - t0)
            per_tray.append(min(times))
            dice.append(len(crops))
    return (f"a tray of {least} dice or more ({len(per_tray)} trays, median "
            f"{statistics.median(dice):.0f} dice): deciding their values takes "
            f"{1000 * statistics.median(per_tray):.0f} ms a frame (one thread)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench pips")
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL,
                   help="the classifier's dice.onnx (default: the shipped one, seen-rig here)")
    args = p.parse_args(argv or [])
    clf = Classifier(args.model, threads=1)
    seen = "seen-rig" if args.model == DEFAULT_MODEL else f"{args.model}"
    print(f"classifier: {seen}")
    for name, dice in (("nell-byler trays", nell_byler), ("skovy webcam", skovy),
                       ("ucffool numbered", numbered)):
        print(f"{name:17s} {measure(clf, list(dice()))}")
    print(tray_cost(clf))


if __name__ == "__main__":
    main(sys.argv[1:])
