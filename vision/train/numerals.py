"""Training, export and measurement of the numeral reader (models/numerals.onnx).

`python -m vision.train` trains it before the dice classifier and links it into the classifier's
card; `python -m vision.train.numerals` trains it alone, links it into the dice model beside it
and measures that model again (its reading of the linked kinds changes with it).

It learns from numeral_patches only, never from real photos: every real photo is new to it, and
it cannot learn "this orange die shows 15", as the classifier's real turntable runs invite.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from vision.numerals import OUTPUTS, PATCH_SHARE, NumeralReader
from vision.train.card import SMALL_DICE, small_dice_text, small_die_key
from vision.train.export import card_head, export_onnx
from vision.train.labels import FACE_VALUES, face_text
from vision.train.model import INPUT_SIZE, parameter_count
from vision.train.numeral_model import NumeralNet
from vision.train.numeral_patches import NUMBERED, PATCH_SIZE, PATCHES_VERSION, TEXTS, patches
from vision.train.quantize import calibration_crops, quantize
from vision.train.realdata import HELD_OUT_SEQUENCES, REPO, Photo
from vision.train.train import (
    RunConfig,
    bf16_is_fast,
    camera_jitter,
    learning_rate,
    shrink_some,
)

VERSION = "1.1.0"
FILE = "numerals.onnx"
# The kinds whose value the classifier takes from the numeral reader (its card's `numerals`).
# Model 3.2.0 reads held-out real d8s 100% and d10s 99.8% right, the numeral reader alone 78-94%
# (runs and patch shares); the d20 it reads 35.9%, the numeral reader alone 98.9% (the shipped
# 1.0.0 at vision.numerals.PATCH_SHARE 0.5).
NUMERAL_KINDS = ("d20",)
# How much the dice model's own value reading counts beside the numeral reader's for those kinds
# (log-probabilities added, the dice model's scaled by this; 0: the numeral reader alone). The
# numeral reader reads real dice seen from above; the dice model also knows the renders' slanted
# views. Measured with a 10-minute numeral reader of the first, larger network and model 3.2.0
# (held-out real d20 / rendered d20 value): 0 -> 95.7% / 60.5%, 0.25 -> 95.4% / 71.5%, 0.5 ->
# 91.9% / 74.6%; 3.2.0 alone 35.9% / 78.0%; the shipped 1.0.0 at 0.25: 94.0% / 67.8% (patch
# share 0.55), 99.2% / 72.6% (0.5). Chosen on those held-out photos, so their figure flatters it
# a little.
OWN_WEIGHT = 0.25
# A patch reader's share of patches drawn from fewer pixels in training, and the fewest: a 48 px
# patch is the middle of the crop of a die 74 px across, one drawn from 16 px that of a die 25 px
# across. 9-minute runs, held-out real d20s through the whole reader as 37 px dice: 92.3% and
# 92.7% with these, 82.0-85.3% in three runs without; as 64 and 49 px dice and full size the
# runs' spread (94-99%) hides any difference. From 24 px, 83.1-88.9% in four runs, and 6s and
# 9s never shrunk did not keep 9s from being read as 6 (docs/reader-history.md, "Dice smaller
# than the held-out photos'").
SHRUNK_SHARE = 0.5
SMALLEST_PATCH = 16


@dataclass(frozen=True)
class NumeralConfig(RunConfig):
    """Knobs of one numeral reader run."""

    # `make model` must stay under an hour, and the dice model and the d4 expert take most of
    # it; nine minutes and 60,000 patches (a minute to draw) fit beside them. Nine, not six (the
    # shipped 1.0.0's, 2,511 steps on a fast day): on a slow day six minutes held 1,793 steps and
    # read held-out real d20s 92.5% alone (another such run 95.1%); nine minutes, the same
    # patches and seed, 99.2% (2,610 steps; renders 89.6% -> 93.0%), and that run's reading of
    # all held-out real values rose from 92.15% to 95.29%. The three minutes come from the expert.
    minutes: float = 9.0
    batch: int = 256
    patches: int = 60_000
    noise: float = 6.0  # the strongest sensor noise added in training (grey levels, std)
    # Share of patches drawn from fewer pixels (train.shrink_some). The patches are cut from
    # 96 px renders, where a die spans 74 px; at the table a die spans 61-82 px (hardware/
    # README.md), and a photo from further off fewer.
    shrunk: float = SHRUNK_SHARE


def augment(
    images: torch.Tensor, gen: torch.Generator, noise: float, shrunk: float = 0.0
) -> torch.Tensor:
    """uint8 (B, S, S, 3) patches -> float (B, 3, S, S), turned by a quarter turn (the patches
    are drawn at every angle already), jittered like another camera's, and a `shrunk` share of
    them drawn from fewer pixels (SMALLEST_PATCH at least), as a smaller die gives them."""
    x = images.permute(0, 3, 1, 2).float()
    x = torch.rot90(x, int(torch.randint(0, 4, (1,), generator=gen)), (2, 3))
    return shrink_some(camera_jitter(x, gen, noise), gen, shrunk, SMALLEST_PATCH)


def train_numerals(
    images: np.ndarray, labels: np.ndarray, config: NumeralConfig, log: Callable[[str], None],
    texts: int = len(TEXTS),
) -> tuple[NumeralNet, dict]:
    """Train a NumeralNet over `texts` classes on patches within config.minutes; returns it and
    a summary (the pip reader is trained by it too)."""
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    gen = torch.Generator().manual_seed(config.seed)
    model = NumeralNet(texts).to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    x_all, y_all = torch.from_numpy(images), torch.from_numpy(labels)
    start = time.monotonic()
    step = 0
    model.train()
    while (progress := (time.monotonic() - start) / (config.minutes * 60.0)) < 1.0:
        idx = torch.randint(0, len(x_all), (config.batch,), generator=gen)
        x = augment(x_all[idx], gen, config.noise, config.shrunk)
        x = x.contiguous(memory_format=torch.channels_last)
        for group in opt.param_groups:
            group["lr"] = learning_rate(config.lr, step, progress)
        with torch.autocast("cpu", torch.bfloat16, enabled=config.bf16):
            logits = model(x)
        loss = F.cross_entropy(logits.float(), y_all[idx], label_smoothing=0.05)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        if step % 200 == 0:
            log(f"patch reader step {step} ({progress:.0%} of the time) loss {loss.item():.3f}")
    model.eval().to(memory_format=torch.contiguous_format)
    return model, {
        "steps": step,
        "minutes": round((time.monotonic() - start) / 60, 1),
        "batch": config.batch,
        "patches": len(images),
        "noise": config.noise,
        "shrunk": config.shrunk,
        "shrunk_from_px": SMALLEST_PATCH,
        "threads": config.threads,
        "bf16": config.bf16,
        "parameters": parameter_count(model),
    }


def faces() -> dict[str, dict[str, str]]:
    """Per numbered kind, the text printed on the face of each value (the runtime's mapping)."""
    return {k: {str(v): face_text(k, v) for v in FACE_VALUES[k]} for k in NUMBERED}


def read_values(texts: Sequence[str], probs: np.ndarray, kinds: Sequence[str]) -> list[int]:
    """The value each row reads as when its kind is known: the likeliest of the kind's faces."""
    out = []
    for p, kind in zip(probs, kinds, strict=True):
        values = list(FACE_VALUES[kind])
        cols = [texts.index(face_text(kind, v)) for v in values]
        out.append(values[int(np.argmax(p[cols]))])
    return out


def measure(reader: NumeralReader, workers: int = 2, seed: int = 0) -> dict:
    """Value accuracy of the reader alone, the kind given: held-out real photos (the same
    sequences the classifier's card uses, also as smaller dice give them) and patches from a
    seed never trained on."""
    from vision.train.evaluate import as_small_die, held_out_crops  # the classifier's crops

    photos, crops = held_out_crops(INPUT_SIZE, workers)  # the dice model's crops
    rows = [i for i, p in enumerate(photos) if p.kind in NUMBERED and p.sequence != "skovy"]
    held_out = [photos[i] for i in rows]
    real = {"real_held_out": _values_right(reader, crops.images[rows], held_out)}
    for die_px in SMALL_DICE:
        small = as_small_die(crops.images[rows], die_px)
        real[small_die_key(die_px)] = _values_right(reader, small, held_out)
    images, labels = patches(2_000, seed + 2, workers)
    synthetic = float(np.mean(np.argmax(reader.read_patches(images), 1) == labels))
    return {
        **real,
        "synthetic_held_out_texts": round(synthetic, 4),
        "measured_on": "real: the dice classifier's held-out capture sequences "
        f"({', '.join(sorted(HELD_OUT_SEQUENCES))}), kind given, also as dice of "
        f"{small_dice_text()} give them; synthetic: 2,000 patches of a seed never trained on, "
        "all texts",
    }


def _values_right(
    reader: NumeralReader, crops: np.ndarray, photos: Sequence[Photo]
) -> dict[str, dict[str, float]]:
    """Per kind: how many of the photos' crops the reader reads the value of right, kind given."""
    kinds = [p.kind for p in photos]
    read = read_values(reader.texts, reader.probabilities(list(crops)), kinds)
    out: dict[str, dict[str, float]] = {}
    for kind in sorted(set(kinds)):
        sel = [j for j, k in enumerate(kinds) if k == kind]
        right = sum(read[j] == photos[j].value for j in sel)
        out[kind] = {"n": len(sel), "value": round(right / len(sel), 4)}
    return out


def write_reader_card(path: Path, version: str, size: int, share: float, body: dict) -> dict:
    """A patch reader's card beside its .onnx: the file, its checksum and the patch it reads
    (`size` px, the middle `share` of the die), then `body` (outputs, texts, faces, accuracy,
    training)."""
    patch = "vision.numerals.centre_patch: the middle `share` of the die's box in its square crop"
    card = {**card_head(path, version, size, ("patch", patch)), **body}
    card["input"]["share"] = share
    path.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")
    return card


def write_card(path: Path, accuracy: dict, training: dict) -> dict:
    """models/numerals.json beside the .onnx: texts, faces, input, checksum, accuracy."""
    return write_reader_card(path, VERSION, PATCH_SIZE, PATCH_SHARE, {
        "outputs": {"texts": "logits over the texts printed on numbered dice"},
        "texts": list(TEXTS),
        "faces": faces(),
        "accuracy": accuracy,
        "training": training,
    })


def link(numerals_path: Path) -> dict | None:
    """The dice card's `numerals` entry for a numeral reader beside it, or None if there is none."""
    if not numerals_path.is_file():
        return None
    return {"file": numerals_path.name, "kinds": list(NUMERAL_KINDS), "own_weight": OWN_WEIGHT}


@dataclass(frozen=True)
class Recipe:
    """What makes one patch reader, for the steps every reader shares (build_reader,
    reader_main): its names and files, its patches and texts, its card and measurement."""

    name: str  # "numeral", "pip": in log lines
    module: str  # `python -m <module>` trains it alone
    description: str  # that command's help
    file: str  # models/<file>
    key: str  # its entry in the dice model's card
    defaults: NumeralConfig
    texts: int  # how many texts (classes) it reads
    patch_size: int
    patches_version: int
    patches: Callable[[int, int, int], tuple[np.ndarray, np.ndarray]]  # count, seed, workers
    write_card: Callable[[Path, dict, dict], dict]  # path, accuracy, training
    measure: Callable[[NumeralReader, int, int], dict]  # reader, workers, seed
    link: Callable[[Path], dict | None]  # the dice card's entry for the reader at a path


def build_reader(
    recipe: Recipe, out: Path, config: NumeralConfig, workers: int, log: Callable[[str], None],
    command: str,
) -> dict:
    """Draw a reader's patches, train it, export it to `out` and write its measured card."""
    images, labels = recipe.patches(config.patches, config.seed + 1, workers)
    log(f"{len(images)} {recipe.name} patches ready")
    model, summary = train_numerals(images, labels, config, log, recipe.texts)
    export_onnx(model, out, recipe.patch_size, OUTPUTS)
    training = {**summary, "patches_version": recipe.patches_version,
                "trained_at": datetime.now(UTC).isoformat(timespec="seconds"), "command": command}
    recipe.write_card(out, {}, training)  # the checksum first, so the file loads to be measured
    quantize(out, calibration_crops(workers))
    accuracy = recipe.measure(NumeralReader(out), workers, config.seed)
    figures = {k: v for k, v in accuracy.items() if k != "measured_on"}
    log(f"{recipe.name} reader: {json.dumps(figures)}")
    return recipe.write_card(out, accuracy, training)


def reader_main(argv: list[str] | None, recipe: Recipe) -> int:
    """`python -m <recipe.module>`: train a patch reader alone (models/<file> unless told), link
    it into the dice model beside it and measure that model again (its reading of the linked
    kinds changes with it)."""
    args = argv if argv is not None else sys.argv[1:]
    p = argparse.ArgumentParser(prog=f"python -m {recipe.module}", description=recipe.description)
    p.add_argument("--minutes", type=float, default=recipe.defaults.minutes)
    p.add_argument("--patches", type=int, default=recipe.defaults.patches)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=REPO / "models" / recipe.file)
    p.add_argument("--dice", type=Path, default=REPO / "models" / "dice.onnx",
                   help="the dice model to link the reader into and measure again (it must be "
                   "in the same folder as --out)")
    opts = p.parse_args(args)
    t0 = time.monotonic()

    def log(msg: str) -> None:
        print(f"[{(time.monotonic() - t0) / 60:5.1f} min] {msg}", flush=True)

    config = replace(recipe.defaults, minutes=opts.minutes, patches=opts.patches, seed=opts.seed,
                     bf16=bf16_is_fast())
    command = f"python -m {recipe.module} " + " ".join(args)
    build_reader(recipe, opts.out, config, opts.workers, log, command)
    if not opts.dice.is_file() or opts.dice.parent.resolve() != opts.out.parent.resolve():
        log(f"not linked: a dice model links a patch reader in its own folder ({opts.dice})")
        return 0
    from vision.train.evaluate import remeasure

    card_path = opts.dice.with_suffix(".json")
    card = json.loads(card_path.read_text())
    card[recipe.key] = recipe.link(opts.out)
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    value = remeasure(opts.dice)["accuracy"]["real_held_out"]["all"]["value"]
    log(f"{opts.dice} linked and measured again: held-out real value {value:.2%}")
    return 0


RECIPE = Recipe(
    name="numeral", module="vision.train.numerals", description=__doc__ or "", file=FILE,
    key="numerals", defaults=NumeralConfig(), texts=len(TEXTS), patch_size=PATCH_SIZE,
    patches_version=PATCHES_VERSION, patches=patches, write_card=write_card, measure=measure,
    link=link,
)


if __name__ == "__main__":
    raise SystemExit(reader_main(None, RECIPE))
