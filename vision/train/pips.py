"""Training, export and measurement of the pip reader (models/pips.onnx).

`python -m vision.train` trains it beside the numeral reader and links it into the dice model's
card; `python -m vision.train.pips` trains it alone, links it into the dice model beside it and
measures that model again. It is the numeral reader's network and training loop over other
texts: the pip counts 1-6 and OTHER. It never sees a real photo.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from vision.numerals import OUTPUTS, NumeralReader
from vision.train.export import export_onnx
from vision.train.model import INPUT_SIZE
from vision.train.numerals import (
    NumeralConfig,
    reader_main,
    train_numerals,
    write_reader_card,
)
from vision.train.pip_patches import OTHER, PATCH_SIZE, PATCHES_VERSION, PIP_SHARE, TEXTS, patches

VERSION = "1.0.0"
FILE = "pips.onnx"
KIND = "d6"  # the one kind with pips


@dataclass(frozen=True)
class PipConfig(NumeralConfig):
    """Knobs of one pip reader run: its patches are whole renders, slower to draw (13.5 ms
    each here) than the numeral reader's."""

    minutes: float = 6.0
    patches: int = 40_000


def measure(reader: NumeralReader, workers: int = 2, seed: int = 0) -> dict:
    """The reader alone on the dice model's held-out real photos: of the pipped d6s (another
    camera's; the shared sets have no other), how many it reads and how many right; of every
    other photo (numbered d6s and the other kinds), how often it stands aside (reads OTHER).
    And its texts on patches from a seed never trained on."""
    from vision.train.evaluate import held_out_crops  # the classifier's held-out photo crops

    photos, crops = held_out_crops(INPUT_SIZE, workers)
    probs = reader.probabilities(list(crops.images))
    other = reader.texts.index(OTHER)
    read = np.argmax(probs, axis=1)
    pipped = np.array([p.sequence == "skovy" for p in photos])
    values = np.array([p.value for p in photos])
    value_read = np.array([int(reader.texts[i]) if i != other else 0 for i in read])
    images, labels = patches(2_000, seed + 2, workers)
    synthetic = float(np.mean(np.argmax(reader.read_patches(images), 1) == labels))
    return {
        "real_pipped_d6": {
            "n": int(pipped.sum()),
            "value": round(float(np.mean(value_read[pipped] == values[pipped])), 4),
            "stood_aside": round(float(np.mean(read[pipped] == other)), 4),
        },
        "real_unpipped": {
            "n": int((~pipped).sum()),
            "stood_aside": round(float(np.mean(read[~pipped] == other)), 4),
        },
        "synthetic_held_out_texts": round(synthetic, 4),
        "measured_on": "real: the dice classifier's held-out photos, pipped d6s being skovy's "
        "webcam crops (another camera) and the rest ucffool's numbered dice; synthetic: 2,000 "
        "patches of a seed never trained on",
    }


def write_card(path: Path, accuracy: dict, training: dict) -> dict:
    """models/pips.json beside the .onnx: texts, faces, input, checksum, accuracy."""
    return write_reader_card(path, VERSION, PATCH_SIZE, PIP_SHARE, {
        "outputs": {"texts": f"logits over a d6's pip counts and '{OTHER}' (no pips on top)"},
        "texts": list(TEXTS),
        "faces": {KIND: {t: t for t in TEXTS if t != OTHER}},
        "other": OTHER,
        "accuracy": accuracy,
        "training": training,
    })


def link(pips_path: Path) -> dict | None:
    """The dice card's `pips` entry for a pip reader beside it, or None if there is none."""
    if not pips_path.is_file():
        return None
    return {"file": pips_path.name, "kinds": [KIND]}


def build(
    out: Path, config: PipConfig, workers: int, log: Callable[[str], None], command: str
) -> dict:
    """Render patches, train, export to `out` and write its measured card."""
    images, labels = patches(config.patches, config.seed + 1, workers)
    log(f"{len(images)} pip patches ready")
    model, summary = train_numerals(images, labels, config, log, len(TEXTS))
    export_onnx(model, out, PATCH_SIZE, OUTPUTS)
    training = {**summary, "patches_version": PATCHES_VERSION,
                "trained_at": datetime.now(UTC).isoformat(timespec="seconds"), "command": command}
    write_card(out, {}, training)  # the checksum first, so the file loads to be measured
    accuracy = measure(NumeralReader(out), workers, config.seed)
    log(f"pip reader: {json.dumps(accuracy)}")
    return write_card(out, accuracy, training)


def main(argv: list[str] | None = None) -> int:
    return reader_main(argv, "vision.train.pips", FILE, PipConfig(), build, "pips", link)


if __name__ == "__main__":
    raise SystemExit(main())
