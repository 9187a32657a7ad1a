"""ONNX export of a trained DiceNet and its JSON model card."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import torch

from vision.classify import OUTPUTS
from vision.crops import CROP_MARGIN
from vision.train.dataset import STATES
from vision.train.labels import KINDS, VALUE_LABELS
from vision.train.model import COSINE_SCALE, EMBEDDING, INPUT_SIZE
from vision.train.quantize import file_fields

OPSET = 17


def export_onnx(
    model: torch.nn.Module, path: Path, size: int = INPUT_SIZE, outputs: tuple[str, ...] = OUTPUTS
) -> None:
    """Write the model (DiceNet unless told) as ONNX with a dynamic batch axis (TorchScript
    exporter, opset 17)."""
    model.eval()
    dummy = torch.zeros(2, 3, size, size)
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the exporter warns that dynamo is the new default
        torch.onnx.export(
            model,
            (dummy,),
            str(path),
            input_names=["image"],
            output_names=list(outputs),
            dynamic_axes={"image": {0: "batch"}, **{o: {0: "batch"} for o in outputs}},
            opset_version=OPSET,
            dynamo=False,
        )


def card_head(path: Path, version: str, size: int, cut: tuple[str, str]) -> dict:
    """What every model card starts with: the file, its checksum, and the input it takes (`cut`:
    the input's key and text saying how it is cut from a frame)."""
    return {
        "name": path.stem,
        "version": version,
        "file": path.name,
        **file_fields(path),
        "input": {
            "name": "image",
            "size": size,
            "layout": "NCHW",
            "dtype": "float32",
            "channels": "BGR",
            "range": "raw 0-255; mean subtraction and scaling are in the graph",
            cut[0]: cut[1],
        },
    }


def write_card(
    path: Path,
    version: str,
    accuracy: dict,
    training: dict,
    links: dict | None = None,
    share: float = CROP_MARGIN,
) -> dict:
    """Write models/<name>.json next to the .onnx: labels, input, checksum, measured accuracy,
    and the patch readers it takes some kinds' values from (`links`: by the card's key, such as
    "numerals", each reader's file and kinds). A model that reads only the middle `share` of the
    die's box (vision.classify.Classifier.share) has it in its input."""
    crop = (
        f"vision.crops.square_crop: square of {CROP_MARGIN} x the box's longer side around its "
        "centre, edge-replicated, INTER_AREA resize"
    )
    card = {
        **card_head(path, version, INPUT_SIZE, ("crop", crop)),
        "outputs": {
            "kind": "logits over kinds",
            "value": f"logits over values: {COSINE_SCALE} x cosine(embedding, label prototype)",
            "state": "logits over states (flat: a face is up; cocked; empty: no die)",
            "embedding": f"L2-normalised {EMBEDDING}-d face embedding, for enrolled custom dice",
        },
        "kinds": list(KINDS),
        "values": list(VALUE_LABELS),
        "states": list(STATES),
        "value_convention": "game values: d10 face 0 is 10, d% face 00 is 100",
        **(links or {}),
        "accuracy": accuracy,
        "training": training,
    }
    if share < CROP_MARGIN:
        card["input"]["share"] = share
    path.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")
    return card
