"""Accuracy of a shipped ONNX model, per kind, measured through the runtime Classifier.

Measuring the exported file with the same code the reader uses means the card's numbers are the
numbers of what ships, not of the torch model before export.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from vision.classify import Classifier
from vision.train.dataset import STATES, Arrays
from vision.train.labels import KINDS, VALUE_LABELS


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
