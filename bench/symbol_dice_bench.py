"""Custom symbol dice taught from a few shots, then read in whole tray frames.

Why: a table learns a die the model never saw from at most MAX_SHOTS shots per face, with no
training run; the issue's goal is >= 98% of such dice read right and fewer than 0.5% read surely
and wrongly. Five synthetic dice of our own (vision.train.render: icons drawn on cubes and an
octahedron, each die in its own colours, with the renderer's lighting, tilt, noise and blur), two
pairs of them made to be confused: the same icons on red and on blue plastic, and the same
chiral icons drawn plain and mirrored.

Each die is taught the way the panel teaches it (vision.taught_dice.Teacher: a frame with the die
alone in the tray, the shot checked, kept under its true face, at most MAX_SHOTS per face). Then
fresh frames (seeds never used for teaching) each hold that die beside two numbered polyhedral
dice and are read whole by the reader with all five dice taught: once expecting nothing, once
expecting what was rolled ("1xNAME,d20,d10"). A die counts right when its die name and face are
right; sure-and-wrong when it is wrong and not flagged unsure. The numbered dice beside it read
as any taught die are counted too. Printed, never asserted.

`python -m bench symbol_dice` reads RENDERS frames per die (a few minutes on one core);
`python -m bench.symbol_dice_bench --renders 500` is the issue's full measure. `--validation`
reads frames of seeds of their own instead (VALIDATION_SEED on: neither taught nor read by the
measure), on which the reader's taught-face thresholds are chosen.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import cv2

from companion.dice_store import MAX_SHOTS, DiceStore
from vision.classify import Classifier
from vision.detect import Detector, iou
from vision.reader import DiceReader
from vision.taught_dice import Teacher, store_prototypes
from vision.train.render import CHIRAL_SYMBOLS, DieStyle, render_tray

RENDERS = 40  # frames read per die by default; the measure is 500
SIZE = (1280, 960)  # the tray camera's frame
TEACH_SEED, READ_SEED = 7_000_000, 9_000_000  # far apart: no frame is both taught and read
VALIDATION_SEED = 8_000_000  # frames for choosing thresholds, apart from both
COMPANIONS = (("d20", "d10"), ("d12", "d4"), ("d10", "d8"), ("d20", "d6"))
MAX_TRIES = 60 * MAX_SHOTS  # frames rendered to teach one die, at most
WHITE, BLACK = (245.0, 245.0, 245.0), (25.0, 25.0, 25.0)


@dataclass(frozen=True)
class BenchDie:
    name: str
    kind: str  # the solid it is drawn on
    symbols: tuple[str, ...]
    plastic: tuple[tuple[float, float, float], tuple[float, float, float]]
    mirrored: bool = False

    def style(self) -> DieStyle:
        return DieStyle(font=0, thickness=3, glyph_scale=1.0, pips=False, edge_read=False,
                        six_nine_mark="underline", symbols=True, symbol_faces=self.symbols,
                        mirrored=self.mirrored, plastic=self.plastic)

    def faces(self) -> list[str]:
        return [f"{s}-mirrored" if self.mirrored else s for s in self.symbols]


SHAPES = ("circle", "ring", "cross", "triangle", "star", "square")
DICE = (
    BenchDie("suns-red", "d6", SHAPES, ((40.0, 40.0, 200.0), WHITE)),
    BenchDie("suns-blue", "d6", SHAPES, ((200.0, 90.0, 30.0), WHITE)),  # same icons, blue
    BenchDie("twist", "d6", CHIRAL_SYMBOLS, ((200.0, 225.0, 235.0), BLACK)),
    BenchDie("twist-mirror", "d6", CHIRAL_SYMBOLS, ((200.0, 225.0, 235.0), BLACK), True),
    BenchDie("octa", "d8", ("diamond", "bolt", "arrow", "moon", "drop", "skull", "star", "cross"),
             ((60.0, 140.0, 40.0), (40.0, 230.0, 250.0))),
)
PAIRS = (("suns-red", "suns-blue"), ("twist", "twist-mirror"))
NAMES = {die.name for die in DICE}


def teach(teacher: Teacher, store: DiceStore, die: BenchDie, seconds: list[float]
          ) -> Counter[str]:
    """Teach `die` from frames with it alone in the tray until each face has MAX_SHOTS shots;
    the reasons shots were refused, counted (and each shot's check and keep timed into
    `seconds`)."""
    faces = die.faces()
    store.define({"name": die.name, "faces": faces})
    refused: Counter[str] = Counter()
    first = seed = TEACH_SEED + 10_000 * DICE.index(die)
    while min(store.shot_counts(die.name).values()) < MAX_SHOTS and seed < first + MAX_TRIES:
        seed += 1
        frame, dice = render_tray(1, seed, SIZE, [die.kind], [die.style()])
        face = faces[dice[0][1] - 1]
        if store.shot_counts(die.name)[face] >= MAX_SHOTS:
            continue
        start = time.perf_counter()
        shot = teacher.check(frame, store, die.name)
        problem = shot.problem or teacher.keep(store, shot.token, face)
        seconds.append(time.perf_counter() - start)
        if problem:
            refused[problem.split(":")[0].split(" (")[0]] += 1
    return refused


@dataclass
class Tally:
    frames: int = 0
    right: int = 0
    sure_wrong: int = 0
    unsure: int = 0
    missed: int = 0  # no reading over the die's box
    as_twin: int = 0  # read surely as its confusable twin
    companions: int = 0  # numbered dice beside it read ...
    companions_taught: int = 0  # ... as a taught die (sure or not)
    companions_sure_taught: int = 0  # ... surely as a taught die: sure and wrong too

    def line(self) -> str:
        n = max(1, self.frames)
        return (f"right {self.right / n:.1%}, sure-and-wrong {self.sure_wrong / n:.2%}, "
                f"unsure {self.unsure / n:.1%}, not found {self.missed / n:.1%}, numbered "
                f"dice read as taught {self.companions_taught / max(1, self.companions):.2%} "
                f"({self.companions_sure_taught} sure)")


def read_die(reader: DiceReader, die: BenchDie, renders: int, first_seed: int,
             seconds: list[float]) -> tuple[Tally, Tally]:
    """`renders` fresh frames of the die beside two polyhedral dice (seeds after `first_seed`),
    read without and with the expectation (each read timed into `seconds`)."""
    faces, twin = die.faces(), {a: b for p in PAIRS for a, b in (p, p[::-1])}.get(die.name)
    tallies = (Tally(), Tally())
    seed = first_seed + 100_000 * DICE.index(die)
    done = 0
    while done < renders:
        seed += 1
        others = COMPANIONS[seed % len(COMPANIONS)]
        frame, dice = render_tray(3, seed, SIZE, [die.kind, *others], [die.style()])
        if len(dice) != 3:  # a die that did not fit was dropped: the first is not known
            continue
        done += 1
        _, value, box = dice[0]
        truth = (die.name, faces[value - 1])
        expect = [die.name, *others]
        for tally, wanted in zip(tallies, (None, expect), strict=True):
            tally.frames += 1
            start = time.perf_counter()
            dice_read = reader.read_frame(frame, wanted).dice
            seconds.append(time.perf_counter() - start)
            for _, _, other in dice[1:]:
                near = max(dice_read, key=lambda d: iou(d.box, other), default=None)
                if near is not None and iou(near.box, other) >= 0.4:
                    tally.companions += 1
                    tally.companions_taught += near.die in NAMES
                    tally.companions_sure_taught += near.die in NAMES and not near.unsure
            read = max(dice_read, key=lambda d: iou(d.box, box), default=None)
            if read is None or iou(read.box, box) < 0.4:
                tally.missed += 1
                continue
            right = (read.die, read.value) == truth
            tally.right += right
            tally.unsure += read.unsure
            tally.sure_wrong += not right and not read.unsure
            tally.as_twin += read.die == twin and not read.unsure
    return tallies


def main(renders: int = RENDERS, validation: bool = False) -> None:
    cv2.setNumThreads(1)
    classifier, detector = Classifier(threads=1), Detector(threads=1)
    with tempfile.TemporaryDirectory() as tmp:
        store = DiceStore(Path(tmp) / "bench.dice.sqlite")
        teacher = Teacher(classifier, detector, frames=lambda: None)  # frames are given
        start, per_shot = time.perf_counter(), []
        for die in DICE:
            refused = teach(teacher, store, die, per_shot)
            why = "; ".join(f"{n} {r}" for r, n in refused.most_common()) or "none"
            print(f"{die.name} ({die.kind}, {len(die.symbols)} faces) taught from "
                  f"{MAX_SHOTS} shots a face; shots refused: {why}")
        print(f"teaching all {len(DICE)} dice: {time.perf_counter() - start:.1f} s with the "
              f"renders; a shot checked and kept: median {1000 * median(per_shot):.0f} ms, "
              f"slowest {1000 * max(per_shot):.0f} ms ({len(per_shot)} shots, one core)")
        reader = DiceReader(classifier=classifier, detector=detector,
                            prototypes=store_prototypes(store, classifier))
        totals = [Tally(), Tally()]
        twins: dict[str, Tally] = {}
        start, per_read = time.perf_counter(), []
        first = VALIDATION_SEED if validation else READ_SEED
        print(f"reading {'validation' if validation else 'measure'} frames (seeds {first} on)")
        for die in DICE:
            plain, expected = read_die(reader, die, renders, first, per_read)
            twins[die.name] = plain
            print(f"{die.name}: {renders} frames; nothing expected: {plain.line()}; "
                  f"expected: {expected.line()}")
            for total, tally in zip(totals, (plain, expected), strict=True):
                for key in vars(total):
                    setattr(total, key, getattr(total, key) + getattr(tally, key))
        seconds = time.perf_counter() - start
        print(f"all {len(DICE)} dice, {renders * len(DICE)} frames ({seconds:.0f} s, two reads "
              f"a frame): nothing expected: {totals[0].line()}; expected: {totals[1].line()}")
        print(f"a frame of three dice read in a median {1000 * median(per_read):.1f} ms "
              f"(one core, rendering not counted)")
        for a, b in PAIRS:
            print(f"{a} / {b} read surely as the other: {twins[a].as_twin} of {renders} / "
                  f"{twins[b].as_twin} of {renders} (nothing expected)")
        store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=RENDERS, help="frames read per die")
    parser.add_argument("--validation", action="store_true",
                        help="read the validation frames (for choosing thresholds)")
    args = parser.parse_args()
    main(args.renders, args.validation)
