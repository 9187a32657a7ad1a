"""The dice detector rig by rig, and on frames with no die: `python -m bench detector_rigs`.

Why: the detector must find every die and box nothing else on tables it never saw (issue 53:
goals dice found >= 99% and boxes that are no die < 1% on every rig left out, no sure die on a
frame with none). Frames: vision/train/detector_frames.py (each rig's real photos, the same
with their dice painted out, one die alone big in a large rendered tray or cut by the frame's
edge, nell-byler's trays, rendered scenes with no die, drawn with and without the hard
negatives a fine-tuned detector trained on: seeds of their own, never a training scene's).

A die is found when a box matches it one to one at IoU >= 0.5 or with the box's centre inside
the die's box; a box matching no die is a box that is no die. Each box then goes through the
shipped classifier as the reader reads it (vision.reader): "kept" counts the no-die boxes the
reader still reports as a die, "sure" those it reports sure.

`--model NAME=PATH` (repeatable; PATH a detector.onnx or a folder searched for them, such as
artifacts/ where `python -m vision.train --folds-only --only detector` leaves fold-N/): each
rig is read by a model whose card says it was trained without that rig, else by one trained on
every rig (marked "seen"; "init saw": a fold that went on from a model that saw it); without
--model, the shipped detector (which saw every rig).
`--frame-rule` also reads each model with boxes dropped that cover FRAME_SHARE of the frame or
touch three of its edges. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.timing import median_ms
from vision.classify import Classifier
from vision.detect import DEFAULT_DETECTOR, EDGE_MARGIN, Detector, iou
from vision.numerals import NumeralReader
from vision.reader import DiceReader
from vision.train.detector_frames import BENCH_PHOTOS, FrameSet, rendered_empty, rig_frames

PASTED, EMPTY, SEED = 30, 200, 53
FRAME_SHARE = 0.5  # --frame-rule: a box over this share of the frame is no die
SPEED_RUNS, SPEED_ROUNDS = 20, 5

Box = Sequence[float]


def hits(found: Sequence[Box], truth: Sequence[Box]) -> list[tuple[int, int]]:
    """Found boxes matched one to one with true dice, best first: by IoU >= 0.5, or a found
    box's centre inside a die's box (a die cut by the frame, a loose box round a small die)."""
    scored = []
    for i, f in enumerate(found):
        cx, cy = (f[0] + f[2]) / 2, (f[1] + f[3]) / 2
        for j, t in enumerate(truth):
            overlap = iou(f, t)
            if overlap >= 0.5 or (t[0] <= cx <= t[2] and t[1] <= cy <= t[3]):
                scored.append((overlap, i, j))
    used_f: set[int] = set()
    used_t: set[int] = set()
    out = []
    for _, i, j in sorted(scored, reverse=True):
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            out.append((i, j))
    return out


def whole_frame(box: Box, shape: tuple[int, ...]) -> bool:
    """--frame-rule: a box that covers FRAME_SHARE of the frame or touches three of its edges
    (a tray or the table, never one die of a roll)."""
    h, w = shape[:2]
    edges = ((box[0] <= EDGE_MARGIN) + (box[1] <= EDGE_MARGIN) + (box[2] >= w - EDGE_MARGIN)
             + (box[3] >= h - EDGE_MARGIN))
    return (box[2] - box[0]) * (box[3] - box[1]) >= FRAME_SHARE * w * h or edges >= 3


@dataclass
class Tally:
    """One model's figures on one frame set."""

    frames: int = 0
    dice: int = 0
    found: int = 0
    boxes: int = 0
    no_die: int = 0  # boxes matching no die
    frames_boxed: int = 0  # frames with a box that is no die
    kept: int = 0  # no-die boxes the reader reports as a die
    sure: int = 0  # ... and reports sure
    frames_sure: int = 0  # frames with a sure no-die

    def line(self) -> str:
        found = f"{100 * self.found / self.dice:5.1f}%" if self.dice else "    -"
        wrong = f"{100 * self.no_die / self.boxes:5.1f}%" if self.boxes else "  0.0%"
        return (f"{self.frames:>4} {self.dice:>5} {found:>7} {self.boxes:>6} {wrong:>7} "
                f"{self.frames_boxed:>5} {self.kept:>5} {self.sure:>5} {self.frames_sure:>5}")


HEADER = (f"{'rig':<16} {'frames':<20} {'model':<22} {'n':>4} {'dice':>5} {'found':>7} "
          f"{'boxes':>6} {'no die':>7} {'fr.nd':>5} {'kept':>5} {'sure':>5} {'fr.sr':>5}")


def measure(reader: DiceReader, frames: FrameSet, rule: bool) -> Tally:
    """A reader's detector (and classifier) over one frame set; `rule`: --frame-rule's."""
    t = Tally()
    for image, truth in zip(frames.images, frames.boxes, strict=True):
        boxes = [d.box for d in reader.find(image).dice]
        readings = reader.read_frame(image).dice
        if rule:
            boxes = [b for b in boxes if not whole_frame(b, image.shape)]
            readings = tuple(r for r in readings if not whole_frame(r.box, image.shape))
        matched = {i for i, _ in hits(boxes, truth)}
        read_die = {i for i, _ in hits([r.box for r in readings], truth)}
        sure = sum(not r.unsure for i, r in enumerate(readings) if i not in read_die)
        t.frames += 1
        t.dice += len(truth)
        t.found += len(matched)
        t.boxes += len(boxes)
        t.no_die += len(boxes) - len(matched)
        t.frames_boxed += len(boxes) > len(matched)
        t.kept += len(readings) - len(read_die)
        t.sure += sure
        t.frames_sure += sure > 0
    return t


def models(specs: list[str]) -> dict[str, list[tuple[Path, set[str], set[str]]]]:
    """Per model name, its detector files with the rigs its card says it left out, and those
    every run it went on from left out too (a fine-tune of a model that saw a rig saw it)."""
    named = [s.split("=", 1) for s in specs] or [["shipped", str(DEFAULT_DETECTOR)]]
    out = {}
    for name, where in named:
        path = Path(where)
        files = [path] if path.suffix == ".onnx" else sorted(path.rglob("detector.onnx"))
        out[name] = []
        for f in files:
            run = json.loads(f.with_suffix(".json").read_text())["training"]
            left_out = never = set(run["left_out_rigs"])
            while "went_on_from" in run:
                run = run["went_on_from"]
                never = never & set(run.get("left_out_rigs", ()))
            out[name].append((f, left_out, never))
    return out


def pick(files: list[tuple[Path, set[str], set[str]]], rig: str) -> tuple[Path, str] | None:
    """The file that left `rig` out, else one trained on every rig, else none, with what its
    label says of it: "" unseen, "seen", or "init saw" (left out by a run that went on from a
    model that saw it); rendered frames belong to no rig: every model saw renders."""
    for path, left_out, never in files:
        if rig in left_out:
            return path, "" if rig in never else "init saw"
    for path, left_out, _ in files:
        if not left_out or rig == "render":
            return path, "" if rig == "render" else "seen"
    return None


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench detector_rigs")
    p.add_argument("--model", action="append", default=[], help="NAME=PATH (see above)")
    p.add_argument("--per-rig", type=int, default=BENCH_PHOTOS)
    p.add_argument("--pasted", type=int, default=PASTED)
    p.add_argument("--empty", type=int, default=EMPTY)
    p.add_argument("--frame-rule", action="store_true")
    args = p.parse_args(argv or [])
    sets = [*rig_frames(args.per_rig, args.pasted, SEED),
            *(rendered_empty(args.empty, SEED, hard) for hard in (False, True))]
    classifier, numerals = Classifier(threads=1), NumeralReader(threads=1)
    readers: dict[Path, DiceReader] = {}
    print("fr.nd: frames with a box that is no die; kept / sure: no-die boxes the reader "
          "reports as a die / as a sure die; fr.sr: frames with a sure one")
    print(HEADER)
    for name, files in models(args.model).items():
        for frames in sets:
            chosen = pick(files, frames.rig)
            if chosen is None:
                continue
            path, seen = chosen
            if path not in readers:
                readers[path] = DiceReader(classifier=classifier, numerals=numerals,
                                           detector=Detector(path, threads=1),
                                           check_faint=path == DEFAULT_DETECTOR)
            label = f"{name} ({seen})" if seen else name
            for rule in (False, True) if args.frame_rule else (False,):
                tally = measure(readers[path], frames, rule)
                print(f"{frames.rig:<16} {frames.source:<20} "
                      f"{label + (' +rule' if rule else ''):<22} {tally.line()}", flush=True)
    frame = next(s for s in sets if s.source == "big alone in a tray").images[0]
    detectors = {path: Detector(path) for path in readers}
    rounds: dict[Path, list[float]] = {path: [] for path in detectors}
    for _ in range(SPEED_ROUNDS):  # the models in turn, so a slow spell of the machine hits both
        for path, detector in detectors.items():
            rounds[path].append(median_ms(lambda d=detector: d(frame), SPEED_RUNS))
    for path, ms in rounds.items():
        print(f"detection of a 1280x960 frame, {path}: {statistics.median(ms):.1f} ms, median "
              f"of {SPEED_ROUNDS} rounds of {SPEED_RUNS} ({min(ms):.1f}-{max(ms):.1f}; the "
              "runtime's two threads)")


if __name__ == "__main__":
    main(sys.argv[1:])
