"""Numbered dice read by the pretrained text recognizer on every real rig: `python -m bench numerals`.

Why: the recognizer (vision.numerals) has never seen a die, so every rig in ../shared is one it
never saw: what it reads there is a cross-rig figure. One photo in EVERY of each ucffool run with
a clear label, the die located as training locates it (realdata.locate_die), read for its
labelled kind; per rig and kind: value right, the share reported sure, and how many sure
readings were wrong; then the time a die takes. Printed, never asserted.

A/B in one run: the shipped reading (the top-face locator's windows, checked by a look about
the centre) as a table reads a die, the same with a photo's search (`rollscribe read`: a die
read unclearly is read at every placement too, vision.numerals.searched), and the search it
replaced (24 windows turned about the box's centre, a d4's on a ring; no sure rule). The table
reading again with each die's box made SLOP times as wide and high about its centre, its worst
rig-kinds and all: the product reads the detector's boxes, not these, and on these photos the
detector's run a median 0.68-1.08 times as wide, rig and kind by rig and kind (0.39-1.28
between their 10th and 90th centiles; a d4's 0.17-0.71: it boxes one face), so this says what
a looser or tighter box costs. Then the d6s, which show numerals (ucffool's) or pips (skovy's,
nell-byler's): how many the recognizer takes for a numeral, right, sure.

One of the angled rig's d20s prints a logo for its 20 (its run's note says so): no text
recognizer reads it, so its photos are counted on a line of their own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace

import numpy as np

from vision.camera_tilt import CameraTilt
from vision.crops import widened
from vision.numerals import NumeralReader, TableSight, cut_windows, decide, plan_for
from vision.train.realdata import datasets_root, load_photos, locate_die, read_bgr, read_photo
from vision.train.realsets import NELL, rig_of, rig_table, tray_photos

EVERY = 8  # one photo in this many of each run (neighbouring frames are near duplicates)
SLOP = (0.8, 1.2)  # boxes this many times the die's, as a detector's may be
LOGO = "logo face"  # in a run's note: the die prints a logo for one face


def sample(every: int, d6: bool = False) -> list:
    """Every `every`-th clearly labelled photo of each run of numbered dice but d6s (ucffool's);
    `d6`: of each run of d6s instead (ucffool's numbered, skovy's pipped)."""
    runs: dict[tuple[str, str], list] = defaultdict(list)
    for photo in load_photos():
        if photo.measurable and (photo.kind == "d6" if d6 else
                                 photo.kind != "d6" and photo.sequence != "skovy"):
            runs[(photo.sequence, photo.run)].append(photo)
    return [p for key in sorted(runs) for p in sorted(runs[key], key=lambda p: p.path)[::every]]


def measure(reader: NumeralReader, photos: list, how: str, slop: float = 1.0) -> list[str]:
    """Lines of figures for the shipped reading ("table"), with a photo's search ("photo") or
    the 24 windows about the centre ("centre"), each die's box `slop` times the die's: each rig
    and kind, the worst read first, then all dice with the recognizer windows a die took."""
    table = rig_table(datasets_root())
    seen, right, sure, wrong = Counter(), Counter(), Counter(), Counter()
    seconds, windows = [], [0]
    recognise = reader.recognise

    def counted(batch: np.ndarray) -> np.ndarray:
        windows[0] += len(batch)
        return recognise(batch)

    reader.recognise = counted  # type: ignore[method-assign]
    tilts: dict[str, CameraTilt] = defaultdict(CameraTilt)  # each rig's camera, as judged
    for photo in photos:
        image = read_photo(photo)
        box = widened(locate_die(image), slop)
        rig = rig_of(table, photo)
        start = time.perf_counter()
        if how == "centre":
            plan = replace(plan_for(photo.kind), step=15)
            reading = decide(photo.kind, reader.recognise(cut_windows(image, box, plan)))
        else:
            tilt = tilts[rig] if how == "tilt" else None
            reading = reader.read_many(image, [box], [photo.kind],
                                       tilt.sight(TableSight()) if tilt else TableSight(),
                                       search=how == "photo")[0]
            if tilt:
                tilt.saw([reading])
        seconds.append(time.perf_counter() - start)
        key = (rig + (" (20 a logo)" if LOGO in photo.run else ""), photo.kind)
        seen[key] += 1
        right[key] += reading.value == photo.value
        if not reading.why_unsure:
            sure[key] += 1
            wrong[key] += reading.value != photo.value
    reader.recognise = recognise  # type: ignore[method-assign]
    lines = []
    for key in sorted(seen, key=lambda k: (right[k] / seen[k], k)):
        lines.append(f"  {key[0]:27s} {key[1]:4s} {seen[key]:4d} dice: value right "
                     f"{100 * right[key] / seen[key]:5.1f}%, sure {100 * sure[key] / seen[key]:5.1f}%"
                     f", sure and wrong {wrong[key]} of {sure[key]}")
    n = sum(seen.values())
    lines.append(f"  all {n} dice: value right {100 * sum(right.values()) / n:.1f}%, sure "
                 f"{100 * sum(sure.values()) / n:.1f}%, sure and wrong {sum(wrong.values())} of "
                 f"{sum(sure.values())}; {windows[0] / n:.2f} recognizer windows a die, read in "
                 f"{1000 * statistics.median(seconds):.0f} ms median (one thread)")
    if how == "tilt":
        lines.append("  the cameras as their d20s judged them: " + ", ".join(
            f"{rig} {tilt.looks() or 'not known'}" for rig, tilt in sorted(tilts.items())))
    return lines


def d6_lines(reader: NumeralReader, every: int) -> list[str]:
    """A d6 shows numerals or pips (vision.numerals.MAYBE_NUMBERED): ucffool's numbered d6s, one
    photo in `every` of each run, and every pipped die of skovy's crops and nell-byler's trays:
    per rig, how many the recognizer read as a numeral (the rest are the classifier's pips), how
    many of those right, sure, and sure and wrong."""
    table = rig_table(datasets_root())
    dice: list[tuple[str, np.ndarray, tuple[float, ...], int]] = []
    for photo in sample(every, d6=True):
        image = read_photo(photo)
        box = locate_die(image) if photo.sequence != "skovy" else (0.0, 0.0, *image.shape[1::-1])
        dice.append((rig_of(table, photo), image, box, photo.value))
    for path, boxed in tray_photos(datasets_root() / NELL).items():
        image = read_bgr(path)
        dice += [("nell-byler-trays (pips)", image, box, value) for value, box in boxed]
    counts: dict[str, Counter] = defaultdict(Counter)
    for rig, image, box, value in dice:
        reading = reader.read_many(image, [box], ["d6"])[0]
        got = counts[rig]
        got["dice"] += 1
        if reading is not None:
            got["numeral"] += 1
            got["right"] += reading.value == value
            got["sure"] += not reading.why_unsure
            got["wrong"] += not reading.why_unsure and reading.value != value
    return [f"  {rig:24s} {got['dice']:5d} d6: read as a numeral {got['numeral']:4d}, of them "
            f"right {got['right']}, sure {got['sure']}, sure and wrong {got['wrong']}"
            for rig, got in sorted(counts.items())]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench numerals")
    p.add_argument("--every", type=int, default=EVERY)
    args = p.parse_args(argv or [])
    reader = NumeralReader(threads=1)
    photos = sample(args.every)
    print(f"numbered dice, ucffool's rigs, one photo in {args.every} of each run "
          f"({len(photos)} photos; neither the recognizer nor the locator saw any)")
    print("the top-face locator's windows, checked about the centre (shipped, a table's reading):")
    print("\n".join(measure(reader, photos, "table")))
    for slop in SLOP:
        print(f"the same, each die's box {slop} times as wide and high:")
        lines = measure(reader, photos, "table", slop)
        print("\n".join(lines[:3] + lines[-1:]))
    print("the same, at a table that judged its camera from the d20s it read, none confirmed "
          "(vision.camera_tilt; each rig's dice in the order above):")
    print("\n".join(measure(reader, photos, "tilt")))
    print("the same, a die read unclearly searched at every placement (`rollscribe read`):")
    print("\n".join(measure(reader, photos, "photo")))
    print("d6s, numbered (ucffool's) or pipped (skovy's, nell-byler's): a numeral the recognizer "
          "reads plainly is its, pips the classifier's:")
    print("\n".join(d6_lines(reader, args.every)))
    print("24 windows turned about the box's centre (the search it replaced; never sure):")
    print("\n".join(measure(reader, photos, "centre")))


if __name__ == "__main__":
    main(sys.argv[1:])
