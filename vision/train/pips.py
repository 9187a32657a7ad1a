"""Training, export and measurement of the pip reader (models/pips.onnx).

`python -m vision.train` trains it beside the numeral reader and links it into the dice model's
card; `python -m vision.train.pips` trains it alone, links it into the dice model beside it and
measures that model again. It is the numeral reader's network and training loop over other
texts: the pip counts 1-6 and OTHER. It never sees a real photo.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.numerals import NumeralReader
from vision.train.model import INPUT_SIZE
from vision.train.numerals import NumeralConfig, Recipe, reader_main, write_reader_card
from vision.train.pip_patches import OTHER, PATCH_SIZE, PATCHES_VERSION, PIP_SHARE, TEXTS, patches

VERSION = "1.1.0"
FILE = "pips.onnx"
KIND = "d6"  # the one kind with pips


@dataclass(frozen=True)
class PipConfig(NumeralConfig):
    """Knobs of one pip reader run: its patches are cut from whole renders, slower to draw than
    the numeral reader's (40,000 took 2.3 minutes on two workers, 7 ms each; 60,000 numeral
    patches 0.7 minutes, 1.4 ms each, in the same `make model` run; patches v7, with slanted,
    grainy and drilled dice, 2.7 minutes on another day)."""

    minutes: float = 6.0
    patches: int = 40_000
    # Reader 1.0.0 (noise up to 6) stood aside on most of the other camera's grainy red d6s:
    # its patches with std 20 of noise added it read 85% (no noise: 94%).
    noise: float = 24.0
    # No patch drawn from fewer pixels (numerals.SHRUNK_SHARE): a run with half of them read the
    # other camera's pips 64.9% right and stood aside on 33.1% (2026-11-26, 1,800 steps), where
    # runs without read them 71.5-79.5% right, standing aside on 16.6-23.8%.
    shrunk: float = 0.0


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


RECIPE = Recipe(
    name="pip", module="vision.train.pips", description=__doc__ or "", file=FILE, key="pips",
    defaults=PipConfig(), texts=len(TEXTS), patch_size=PATCH_SIZE,
    patches_version=PATCHES_VERSION, patches=patches, write_card=write_card, measure=measure,
    link=link,
)


if __name__ == "__main__":
    raise SystemExit(reader_main(None, RECIPE))
