"""A taught symbol die's reading as a table plays it: `python -m bench symbol_memory`.

Why: the table's one memory (companion.dice_memory) keeps the crops of a symbol die's confirmed
rolls beside the shots it was taught from, and its faces are matched from both
(vision.taught_dice), so playing should improve its reading; this measures whether it does, and
whether crops of play make readings surely wrong.

The symbol dice bench's five dice (bench.symbol_dice_bench) are taught as there, MAX_SHOTS shots
a face. Then each die is played in turn: rolls of it beside two numbered dice (seeds PLAY_SEED
on, neither taught nor read), each read expecting what was rolled, and confirmed with its true
face (a correction where the reader was wrong; a die the reader did not find is typed and
teaches nothing) and learnt as the table learns it: DiceMemory.learn with the crop the reader
kept, the taught faces made again before the next roll. At 0, 5, 20 and 50 confirmed dice of
it, the same fresh frames as the symbol dice bench's (READ_SEED on) are read, without and with
the expectation. Its play is then undone (its crops unlearnt) before the next die plays.
Printed, never asserted.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from operator import attrgetter
from pathlib import Path
from statistics import median

import cv2

from bench.symbol_dice_bench import (
    COMPANIONS,
    DICE,
    READ_SEED,
    RENDERS,
    SIZE,
    BenchDie,
    Tally,
    read_die,
    teach,
)
from companion.dice_store import DiceStore
from companion.die_photos import LabelledDie
from vision.classify import Classifier
from vision.detect import Detector, iou
from vision.reader import DiceReader
from vision.taught_dice import Teacher, store_prototypes
from vision.train.render import render_tray

POINTS = (0, 5, 20, 50)  # confirmed dice of the die before each reading of the fresh frames
PLAY_SEED = 6_000_000  # apart from the symbol dice bench's teaching, validation and read seeds


def play(reader: DiceReader, store: DiceStore, die: BenchDie, game: int,
         played: list[LabelledDie], until: int) -> int:
    """Roll and confirm the die until `until` of its dice are confirmed (the labels so far in
    `played`); returns how many of the new ones the player had to correct."""
    corrected = 0
    seed = PLAY_SEED + 100_000 * DICE.index(die) + 10 * len(played)
    while len(played) < until:
        seed += 1
        others = COMPANIONS[seed % len(COMPANIONS)]
        frame, dice = render_tray(3, seed, SIZE, [die.kind, *others], [die.style()])
        if len(dice) != 3:
            continue
        _, value, box = dice[0]
        reading = reader.read_frame(frame, [die.name, *others])
        at = max(range(len(reading.dice)), key=lambda i: iou(reading.dice[i].box, box),
                 default=None)
        if at is None or iou(reading.dice[at].box, box) < 0.4:
            continue  # not found: typed in, no crop
        face = die.faces()[value - 1]
        right = (reading.dice[at].die, reading.dice[at].value) == (die.name, face)
        corrected += not right
        played.append(LabelledDie(game, seed, at, die.name, face,
                                  "checked" if right else "corrected", 1.0, reading.crops[at]))
        store.learn(game, played, attrgetter("jpeg"))
        reader.prototypes = store_prototypes(store, reader.classifier)
    return corrected


def main(renders: int = RENDERS) -> None:
    cv2.setNumThreads(1)
    classifier, detector = Classifier(threads=1), Detector(threads=1)
    with tempfile.TemporaryDirectory() as tmp:
        store = DiceStore(Path(tmp) / "bench.dice.sqlite")
        teacher = Teacher(classifier, detector, frames=lambda: None)
        for die in DICE:
            teach(teacher, store, die, [])
        print(f"{len(DICE)} dice taught; each played in turn, the fresh frames ({renders} a "
              f"die, seeds {READ_SEED} on) read after {', '.join(map(str, POINTS))} confirmed")
        reader = DiceReader(classifier=classifier, detector=detector, keep_crops=True,
                            prototypes=store_prototypes(store, classifier))
        totals = {point: (Tally(), Tally()) for point in POINTS}
        seconds: dict[int, list[float]] = {point: [] for point in POINTS}
        for game, die in enumerate(DICE, start=1):
            played: list[LabelledDie] = []
            corrected = 0
            for point in POINTS:
                corrected += play(reader, store, die, game, played, point)
                plain, expected = read_die(reader, die, renders, READ_SEED, seconds[point])
                print(f"{die.name} after {point:2d} confirmed ({corrected} corrected): "
                      f"expected: {expected.line()}; nothing expected: {plain.line()}",
                      flush=True)
                for total, tally in zip(totals[point], (plain, expected), strict=True):
                    for key in vars(total):
                        setattr(total, key, getattr(total, key) + getattr(tally, key))
            start = time.perf_counter()
            store.learn(game, [], attrgetter("jpeg"))  # its play undone: the next starts taught
            reader.prototypes = store_prototypes(store, classifier)
            print(f"  its {len(played)} confirmed dice unlearnt and the faces made again in "
                  f"{1000 * (time.perf_counter() - start):.0f} ms")
        for point in POINTS:
            plain, expected = totals[point]
            print(f"all {len(DICE)} dice after {point:2d} confirmed each: expected: "
                  f"{expected.line()}; nothing expected: {plain.line()}; a frame read in a "
                  f"median {1000 * median(seconds[point]):.0f} ms (one core)")
        store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=RENDERS, help="fresh frames read per die")
    main(parser.parse_args().renders)
