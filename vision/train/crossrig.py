"""What the reader does on rigs it has never seen: crops and whole frames read through the
runtime's own code (vision.classify, vision.detect, vision.reader), by models trained without
the rig.

A reading counts as right when kind and value are both right. "Sure" is the runtime's verdict
(not flagged unsure); a sure reading that is wrong is the failure players cannot catch, so it is
counted apart, and so is a box with no die in it reported as a sure die.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.classify import Classifier
from vision.crops import CROP_MARGIN, square_crop
from vision.detect import pairs
from vision.reader import DiceReader
from vision.train.labels import KINDS, VALUE_LABELS
from vision.train.realsets import STATES, WIDE, CropSet

Truth = tuple[str, int, tuple[float, float, float, float]]  # kind, value, box


def runtime_crops(crops: CropSet, size: int) -> list[np.ndarray]:
    """The pack's wide crops as the runtime cuts them (vision.crops.square_crop around the die's
    box, which sits in the middle of a wide crop, 1 / (CROP_MARGIN * WIDE) of its side)."""
    side = crops.images.shape[1]
    half = side / (CROP_MARGIN * WIDE) / 2
    box = (side / 2 - half, side / 2 - half, side / 2 + half, side / 2 + half)
    return [square_crop(image, box, size) for image in crops.images]


def _share(part: int, whole: int) -> float | None:
    return round(100.0 * part / whole, 2) if whole else None


def read_crops(classifier: Classifier, crops: CropSet, batch: int = 128) -> dict:
    """Per kind and in all: dice, value right %, read sure %, sure readings wrong %; and how many
    bare-surface crops were read as a sure die."""
    images = runtime_crops(crops, classifier.input_size)
    readings = []
    for start in range(0, len(images), batch):
        readings.extend(classifier.classify(images[start : start + batch]))
    flat = STATES.index("flat")
    rows: dict[str, list[int]] = {}
    empty_sure = empties = 0
    for i, reading in enumerate(readings):
        if crops.states[i] != flat:
            empties += 1
            empty_sure += not reading.unsure
            continue
        if not crops.measurable[i]:
            continue
        kind, value = VALUE_LABELS[crops.values[i]].rsplit(":", 1)
        right = reading.die == kind and reading.value == int(value)
        for key in (kind, "all"):
            n, ok, sure, sure_wrong = rows.setdefault(key, [0, 0, 0, 0])
            rows[key] = [n + 1, ok + right, sure + (not reading.unsure),
                         sure_wrong + (not reading.unsure and not right)]
    out = {
        key: {"dice": n, "value_right": _share(ok, n), "sure": _share(sure, n),
              "sure_wrong": _share(wrong, sure)}
        for key, (n, ok, sure, wrong) in sorted(rows.items(), key=lambda kv: _order(kv[0]))
    }
    out["bare_surface"] = {"crops": empties, "read_as_sure_die": empty_sure}
    return out


def _order(key: str) -> int:
    return KINDS.index(key) if key in KINDS else len(KINDS)


def read_frames(reader: DiceReader, frames: Sequence[tuple[np.ndarray, Sequence[Truth]]]) -> dict:
    """Whole frames through the reader: detection recall and precision (IoU >= 0.5), dice read
    right of all dice there, sure readings and how many of them were wrong (a wrong value, or a
    box with no die), and boxes with no die reported as a sure die."""
    dice = found = hits = right = sure = sure_wrong = sure_no_die = 0
    for frame, truth in frames:
        reading = reader.read_frame(frame)
        boxes = [d.box for d in reading.dice]
        matches = dict(pairs(boxes, [t[2] for t in truth]))
        dice += len(truth)
        found += len(boxes)
        hits += len(matches)
        for i, die in enumerate(reading.dice):
            j = matches.get(i)
            ok = j is not None and die.die == truth[j][0] and die.value == truth[j][1]
            right += ok
            if not die.unsure:
                sure += 1
                sure_wrong += not ok
                sure_no_die += j is None
    return {
        "frames": len(frames),
        "dice": dice,
        "recall": _share(hits, dice),
        "precision": _share(hits, found),
        "value_right": _share(right, dice),
        "sure": _share(sure, found),
        "sure_wrong": _share(sure_wrong, sure),
        "no_die_read_sure": sure_no_die,
    }


def summary(folds: dict, seconds: tuple[float, float]) -> dict:
    """The headline of a cross-rig run: per rig its crops' value right and sure-wrong (in all and
    per kind), the worst rig, and each fold's whole frames."""
    rigs = {rig: fig["crops"] for fold in folds.values() for rig, fig in fold.items()
            if rig != "frames"}
    worst = min(rigs, key=lambda r: rigs[r]["all"]["value_right"] or 0.0)
    return {
        "method": "leave-one-rig-out: each fold's models were trained without its rigs "
                  f"({seconds[0]:.0f} s classifier, {seconds[1]:.0f} s detector) and read them",
        "worst_rig": {"rig": worst, "value_right": rigs[worst]["all"]["value_right"]},
        "rigs": {rig: {"value_right": fig["all"]["value_right"], "sure": fig["all"]["sure"],
                       "sure_wrong": fig["all"]["sure_wrong"],
                       "by_kind": {k: v["value_right"] for k, v in fig.items()
                                   if k in KINDS},
                       "bare_surface_read_sure": fig["bare_surface"]["read_as_sure_die"]}
                 for rig, fig in rigs.items()},
        "frames": {name: fold["frames"] for name, fold in folds.items()},
    }


def into_cards(folder: Path, figures: dict, names: tuple[str, ...] = ("dice", "detector")) -> None:
    """Add figures (by key: "cross_rig", "table_held_out") to the models' cards' `accuracy`."""
    for name in names:
        path = folder / f"{name}.json"
        card = json.loads(path.read_text())
        card.setdefault("accuracy", {}).update(figures)
        path.write_text(json.dumps(card, indent=1) + "\n")


SURE_RIGHT = 0.995  # a kind whose sure readings are right less often on some unseen rig is checked


def checked_kinds(folds: dict) -> dict[str, float | None]:
    """Per kind, the worst share of sure readings right on a rig its fold never saw, for the
    kinds under SURE_RIGHT, and None for the kinds no fold could measure: all of them wait for a
    player's check (the card's always_check)."""
    worst: dict[str, float] = {}
    for fold in folds.values():
        for rig, fig in fold.items():
            for kind, row in fig["crops"].items() if rig != "frames" else ():
                if kind in KINDS and row["sure_wrong"] is not None:
                    worst[kind] = min(worst.get(kind, 1.0), 1.0 - row["sure_wrong"] / 100.0)
    return {kind: (round(worst[kind], 4) if kind in worst else None) for kind in KINDS
            if kind not in worst or worst[kind] < SURE_RIGHT}
