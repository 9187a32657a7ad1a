"""Fit the die check (vision/die_check.py): which of the detector's peaks under its threshold
are dice. `python -m vision.train.die_check --out models` (about 3 minutes here, no GPU).

Frames of every rig of ../shared (vision/train/detector_frames.py: ucffool's one-die photos
and their bare strips, each rig's dice alone big in a tray, cut by the frame's edge, alone in a
black tray or on a cloth; skovy's crops; nell-byler's trays and the same painted out) and
rendered scenes with and without dice. Each frame goes through the shipped detector as the
reader calls it; each peak under the threshold (Detection.spare) through the shipped classifier;
a peak is a die when it matches one (IoU >= 0.5, or its centre in the die at IoU >= 0.3), no die
otherwise (a piece of a die is no die). A logistic regression over die_check.FEATURES is fitted
on every rig and shipped; each rig is also read by one fitted without it, and the card says,
per rig, how many dice the reader's boxes find and how many boxes are no die, without the check
and with it (leave-one-rig-out). Both models saw every rig, so those figures are the check's
own across rigs, not the models'.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.classify import DEFAULT_MODEL, Classifier
from vision.detect import DEFAULT_DETECTOR, Detector, iou
from vision.die_check import FEATURES, chance, features, taken
from vision.model_file import load_card
from vision.train.detector_frames import (
    alone_in_dark_tray,
    alone_on_cloth,
    rendered_empty,
    rig_frames,
    rig_photos,
)
from vision.train.scenes import render_scene

SPARE = 5  # peaks under the threshold the reader checks a frame (reader.CHECKED)
PER_RIG, PASTED, LONE, RENDERS, EMPTY = 100, 40, 40, 400, 150
SEED = 531
THRESHOLD = 0.7  # chance over which a peak is taken for a die: chosen before any fold was read
L2, STEPS, RATE = 1e-2, 3000, 0.5
Box = tuple[float, float, float, float]


@dataclass
class Frame:
    """One frame's detection: its rig, what it shows, its dice, the boxes over the threshold
    the reader keeps, and the peaks under it with their features."""

    rig: str
    source: str
    truth: list[Box]
    kept: list[Box]
    spare: list[Box]
    x: np.ndarray  # (len(spare), len(FEATURES))
    labels: np.ndarray = field(default_factory=lambda: np.zeros(0))


def boxes_die(box: Box, die: Box) -> bool:
    """Whether the box is the die's: IoU >= 0.5, or 0.3 with its centre in the die."""
    overlap = iou(box, die)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return overlap >= 0.5 or (overlap >= 0.3 and die[0] <= cx <= die[2] and die[1] <= cy <= die[3])


def label(box: Box, truth: list[Box]) -> int:
    """1 when the box is a die's, 0 when it is none's (a piece of a die included)."""
    return int(any(boxes_die(box, t) for t in truth))


def matched(boxes: list[Box], truth: list[Box]) -> int:
    """How many dice a box is matched to, one to one (best overlap first)."""
    pairs = sorted(((iou(b, t), i, j) for i, b in enumerate(boxes) for j, t in enumerate(truth)
                    if boxes_die(b, t)), reverse=True)
    used_b: set[int] = set()
    used_t: set[int] = set()
    for _, i, j in pairs:
        if i not in used_b and j not in used_t:
            used_b.add(i)
            used_t.add(j)
    return len(used_t)


def frames(per_rig: int, pasted: int, lone: int, renders: int, empty: int,
           seed: int) -> Iterator[tuple[str, str, np.ndarray, list[Box]]]:
    """(rig, source, image, dice boxes) of every source, the rigs' first."""
    for fs in rig_frames(per_rig, pasted, seed):
        for image, boxes in zip(fs.images, fs.boxes, strict=True):
            yield fs.rig, fs.source, image, [tuple(map(float, b)) for b in boxes]
    rng = np.random.default_rng(seed + 1)
    for rig, photos in rig_photos(200).items():
        photos = [p for p in photos if p.measurable]
        if not rig.startswith("ucffool"):
            continue
        for source, draw in (("alone in a black tray", alone_in_dark_tray),
                             ("alone on a cloth", alone_on_cloth)):
            for _ in range(lone):
                image, box, _ = draw(rng, photos)
                yield rig, source, image, [box]
    rng = np.random.default_rng(seed + 2)
    for i in range(renders):
        scene = render_scene(rng, hard_negatives=i % 2 == 1)
        yield "render", "rendered", scene.image, [tuple(map(float, b)) for b in scene.boxes]
    for hard in (False, True):
        for image in rendered_empty(empty, seed + 3 + hard, hard).images:
            yield "render", "rendered, no die", image, []


def detect(detector: Detector, classifier: Classifier, rig: str, source: str,
           image: np.ndarray, truth: list[Box]) -> Frame:
    """The frame as the reader sees it: boxes over the threshold the classifier does not call
    empty, and the peaks under it with their features and labels."""
    found = detector(image, spare=SPARE)
    boxes = [d.box for d in (*found.dice, *found.spare)]
    outputs = classifier.look(classifier.crops(image, boxes)) if boxes else {}
    empty = classifier.states.index("empty")
    n = len(found.dice)
    kept = [d.box for i, d in enumerate(found.dice) if outputs["state"][i].argmax() != empty]
    spare = [d.box for d in found.spare]
    x = np.zeros((0, len(FEATURES)))
    if spare:
        x = features(np.array([d.score for d in found.spare]),
                     {k: v[n:] for k, v in outputs.items()})
    return Frame(rig, source, truth, kept, spare, x,
                 np.array([label(b, truth) for b in spare], np.float64))


def fit(x: np.ndarray, y: np.ndarray) -> dict:
    """A logistic regression over standardised features (L2, full-batch gradient descent)."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        w -= RATE * (z.T @ (p - y) / len(y) + L2 * w)
        b -= RATE * float((p - y).mean())
    return {"mean": mean.tolist(), "scale": scale.tolist(), "weights": w.tolist(), "bias": b}


def tally(frames: list[Frame], fitted: dict | None) -> dict:
    """Dice found and boxes that are no die over frames, the reader's boxes with the check's
    dice added (`fitted`) or without; a peak centred in a kept box is a piece, never added."""
    found = boxes = dice = no_die = 0
    for f in frames:
        kept = list(f.kept)
        if fitted is not None and f.spare:
            likely = chance(fitted, f.x) >= THRESHOLD
            kept += [f.spare[i] for i in taken(f.spare, likely, f.kept)]
        hit = matched(kept, f.truth)
        found += hit
        boxes += len(kept)
        no_die += len(kept) - hit
        dice += len(f.truth)
    return {"dice": dice, "found": found, "boxes": boxes, "no_die": no_die}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m vision.train.die_check")
    p.add_argument("--out", type=Path, required=True, help="folder for die_check.json")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--per-rig", type=int, default=PER_RIG)
    args = p.parse_args(argv)
    start = time.monotonic()
    detector, classifier = Detector(threads=2), Classifier(threads=2)
    seen = [detect(detector, classifier, *f) for f in
            frames(args.per_rig, PASTED, LONE, RENDERS, EMPTY, args.seed)]
    rigs = sorted({f.rig for f in seen})
    folds = {}
    for rig in rigs:
        rest = [f for f in seen if f.rig != rig and len(f.spare)]
        fitted = fit(np.vstack([f.x for f in rest]), np.concatenate([f.labels for f in rest]))
        mine = [f for f in seen if f.rig == rig]
        sources = sorted({f.source for f in mine})
        folds[rig] = {s: {"without": tally([f for f in mine if f.source == s], None),
                          "with": tally([f for f in mine if f.source == s], fitted)}
                      for s in sources}
        print(rig, json.dumps(folds[rig]), flush=True)
    x = np.vstack([f.x for f in seen if len(f.spare)])
    y = np.concatenate([f.labels for f in seen if len(f.spare)])
    card = {
        "name": "die_check",
        "version": "1.0.0",
        "features": list(FEATURES),
        **fit(x, y),
        "threshold": THRESHOLD,
        "classifier_sha256": load_card(DEFAULT_MODEL)["sha256"],
        "detector_sha256": load_card(DEFAULT_DETECTOR)["sha256"],
        "training": {"peaks": len(y), "dice": int(y.sum()), "frames": len(seen),
                     "seed": args.seed, "seconds": round(time.monotonic() - start),
                     "spare_peaks_a_frame": SPARE},
        "accuracy": {"leave_one_rig_out": folds,
                     "method": "each rig's frames read with a check fitted without that rig: "
                               "dice found and boxes that are no die, the reader's boxes "
                               "without the check and with its dice added"},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "die_check.json").write_text(json.dumps(card, indent=1) + "\n")
    print(f"die_check.json: {len(y)} peaks ({int(y.sum())} dice) from {len(seen)} frames, "
          f"{card['training']['seconds']} s")


if __name__ == "__main__":
    main()
