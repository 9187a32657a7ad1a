"""Accuracy of a shipped ONNX model, per kind, measured through the runtime Classifier.

`python -m vision.train.evaluate models/dice.onnx` measures a model again (no torch needed)
and rewrites its card's accuracy and models/README.md; with `--runs` it only prints, per held-out
run (one die showing one value), how often it is read right and what it is read as instead.

Measuring the exported file with the same code the reader uses means the card's numbers are the
numbers of what ships, not of the torch model before export.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.classify import Classifier, FaceReading
from vision.crops import square_bounds
from vision.train import dataset
from vision.train.card import (
    SMALL_DICE,
    always_check,
    reader_cards,
    small_dice_text,
    small_die_key,
    table_gate,
    update_card,
    write_readme,
)
from vision.train.dataset import STATES, Arrays
from vision.train.labels import KINDS, VALUE_LABELS
from vision.train.realdata import (
    HELD_OUT_SEQUENCES,
    Photo,
    is_table,
    load_photos,
    load_table_photos,
    measured_on,
)


def as_small_die(images: np.ndarray, die_px: int) -> np.ndarray:
    """Crops (N, S, S, 3) as vision.crops.square_crop cuts them from a frame where the die
    spans `die_px` pixels: brought down to that crop's side, then enlarged back to S."""
    size = images.shape[1]
    side = square_bounds((0, 0, die_px, die_px))[2]
    return np.stack([
        cv2.resize(cv2.resize(im, (side, side), interpolation=cv2.INTER_AREA), (size, size),
                   interpolation=cv2.INTER_AREA)
        for im in images
    ])


def small_dice(data: Arrays, die_px: int) -> Arrays:
    """`data` with its crops as dice of `die_px` pixels give them (as_small_die)."""
    return replace(data, images=as_small_die(data.images, die_px))


def predict(classifier: Classifier, images: np.ndarray, batch: int = 256) -> list:
    """FaceReadings for an array of crops, in batches."""
    out = []
    for start in range(0, len(images), batch):
        out += classifier.classify(list(images[start : start + batch]))
    return out


def accuracy_by_kind(
    classifier: Classifier, data: Arrays, rows: Iterable[int] | None = None
) -> dict[str, dict[str, float]]:
    """Per kind: count, kind accuracy and value accuracy (kind and value both right), flat dice."""
    rows = np.arange(len(data)) if rows is None else np.asarray(list(rows), dtype=int)
    flat = rows[data.states[rows] == STATES.index("flat")]
    readings = predict(classifier, data.images[flat])
    result: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        sel = [i for i, r in enumerate(flat) if data.kinds[r] == KINDS.index(kind)]
        if not sel:
            continue
        kind_ok = sum(readings[i].die == kind for i in sel)
        value_ok = sum(
            f"{readings[i].die}:{readings[i].value}" == VALUE_LABELS[data.values[flat[i]]]
            for i in sel
        )
        result[kind] = {
            "n": len(sel),
            "kind": round(kind_ok / len(sel), 4),
            "value": round(value_ok / len(sel), 4),
        }
    total = sum(r["n"] for r in result.values())
    if total:
        result["all"] = {
            "n": total,
            "kind": round(sum(r["kind"] * r["n"] for r in result.values()) / total, 4),
            "value": round(sum(r["value"] * r["n"] for r in result.values()) / total, 4),
        }
    return result


def state_recall(classifier: Classifier, data: Arrays) -> dict[str, float]:
    """For cocked and empty crops, how often they come out unsure (never silently read)."""
    out = {}
    for state in ("cocked", "empty"):
        rows = np.flatnonzero(data.states == STATES.index(state))
        if len(rows):
            readings = predict(classifier, data.images[rows])
            out[state] = round(sum(r.unsure for r in readings) / len(rows), 4)
    flat = np.flatnonzero(data.states == STATES.index("flat"))
    if len(flat):
        readings = predict(classifier, data.images[flat])
        out["flat_unsure"] = round(sum(r.unsure for r in readings) / len(flat), 4)
    return out


def _sure_row(readings: list[FaceReading], truth: list[str]) -> dict[str, float]:
    sure = [i for i, r in enumerate(readings) if not r.unsure]
    right = sum(f"{readings[i].die}:{readings[i].value}" == truth[i] for i in sure)
    return {
        "n": len(readings),
        "sure": round(len(sure) / max(1, len(readings)), 4),
        "value_right_when_sure": round(right / max(1, len(sure)), 4),
    }


def sure_accuracy(
    classifier: Classifier, data: Arrays, rows: Iterable[int]
) -> dict[str, dict[str, float]]:
    """Per kind and over all: how many flat dice the model is sure of (not unsure by its own
    confidence and state), and how often those are right."""
    rows = np.asarray(list(rows), dtype=int)
    readings = predict(classifier, data.images[rows])
    truth = [VALUE_LABELS[v] for v in data.values[rows]]
    result = {}
    for kind in KINDS:
        sel = [i for i, r in enumerate(rows) if data.kinds[r] == KINDS.index(kind)]
        if sel:
            result[kind] = _sure_row([readings[i] for i in sel], [truth[i] for i in sel])
    result["all"] = _sure_row(readings, truth)
    return result


def measure(
    classifier: Classifier,
    workers: int = 2,
    synthetic_test: int = 2800,
    seed: int = 0,
    table_photos: Sequence[Path] = (),
) -> dict:
    """The card's accuracy section for a model: held-out real sequences, held-out games of any
    `table_photos` folders (which also judge the kinds they hold enough of), held-out renders."""
    photos, real_test = held_out_crops(classifier.input_size, workers, table_photos)
    syn_test = dataset.synthetic(synthetic_test, seed + 2, workers, classifier.input_size)
    skovy = [i for i, p in enumerate(photos) if p.sequence == "skovy"]
    table = [i for i, p in enumerate(photos) if is_table(p)]
    shared = [i for i, p in enumerate(photos) if p.sequence != "skovy" and not is_table(p)]
    gate = sure_accuracy(classifier, real_test, shared)
    accuracy = {"real_held_out": accuracy_by_kind(classifier, real_test, shared)}
    shared_test = real_test.take(np.asarray(shared, dtype=int))  # only these are read small
    for die_px in SMALL_DICE:
        accuracy[small_die_key(die_px)] = accuracy_by_kind(classifier,
                                                           small_dice(shared_test, die_px))
    tables = ""
    if table:
        accuracy["real_table_held_out"] = accuracy_by_kind(classifier, real_test, table)
        gate, mine = table_gate(gate, sure_accuracy(classifier, real_test, table))
        accuracy["gate_judged_on_table"] = mine
        tables = (
            f"; held-out games of the table's own photos in {', '.join(map(str, table_photos))} "
            "(rollscribe photos: dice a player checked or corrected)"
        )
    return {
        **accuracy,
        "real_held_out_unsure_gate": gate,
        "always_check": always_check(gate),
        "real_other_camera_d6": accuracy_by_kind(classifier, real_test, skovy),
        "synthetic_held_out": accuracy_by_kind(classifier, syn_test),
        "synthetic_unsure_rate": state_recall(classifier, syn_test),
        "measured_on": "real: whole held-out capture sequences of shared/datasets/ucffool "
        f"({', '.join(sorted(HELD_OUT_SEQUENCES))}; 'judgement' photos excluded) "
        f"and skovy's webcam d6 crops (another camera, never trained on){tables}; the "
        f"held-out sequences also as dice of {small_dice_text()} give them (each crop "
        "brought down to the side square_crop would cut and enlarged back); "
        "synthetic: renders from a seed never used in training; "
        "read through vision.classify.Classifier as the reader reads (doubtful crops looked at "
        "again turned four ways)",
    }


def held_out_crops(
    size: int, workers: int = 2, table_photos: Sequence[Path] = ()
) -> tuple[list[Photo], Arrays]:
    """The held-out real photos measured on and their crops at the model's input size."""
    photos = measured_on(load_photos() + load_table_photos(table_photos))
    return photos, dataset.real(photos, "heldout", workers, size=size)


def run_lines(photos: list[Photo], readings: list[FaceReading]) -> list[str]:
    """One line per held-out run: what it shows, how often it is read right, its top readings.

    A run is one die under one value, so a model that learnt "this die is a 15" from training
    runs of the same die shows up here as a run read wholesale as another value."""
    runs: dict[tuple[str, str, str, int], list[tuple[str, int]]] = {}
    for photo, r in zip(photos, readings, strict=True):
        key = (photo.sequence, photo.kind, photo.run, photo.value)
        runs.setdefault(key, []).append((r.die, r.value))
    lines = []
    for (sequence, kind, run, value), read in sorted(runs.items()):
        right = read.count((kind, value)) / len(read)
        top = ", ".join(f"{d}:{v} x{n}" for (d, v), n in Counter(read).most_common(3))
        name = f"{sequence}: {run}" if run else sequence
        lines.append(
            f"{kind:4s} {value:3d} n={len(read):4d} right {right:5.1%}  read as {top}  ({name})"
        )
    return lines


def remeasure(model_path: Path, table_photos: Sequence[Path] = ()) -> dict:
    """Measure a model again and rewrite its card's accuracy and models/README.md."""
    accuracy = measure(Classifier(model_path), table_photos=table_photos)
    card = update_card(model_path, {"accuracy": accuracy})
    write_readme(card, model_path.parent / "README.md", reader_cards(card, model_path.parent))
    return card


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m vision.train.evaluate", description=__doc__)
    parser.add_argument("model", type=Path)
    parser.add_argument("--runs", action="store_true", help="per held-out run, printed only")
    parser.add_argument("--table-photos", type=Path, action="append", default=[], metavar="DIR",
                        help="also measure on the held-out games of a `rollscribe photos` folder")
    args = parser.parse_args()
    if args.runs:
        classifier = Classifier(args.model)
        photos, crops = held_out_crops(classifier.input_size, table_photos=args.table_photos)
        print("\n".join(run_lines(photos, predict(classifier, crops.images))))
    else:
        print(json.dumps(remeasure(args.model, args.table_photos)["accuracy"], indent=1))
