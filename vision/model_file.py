"""A shipped ONNX model file: its JSON card, checked against the file, and its CPU session.

Both models the reader runs (the dice detector and the dice classifier) are loaded the same way:
a missing, truncated or swapped file is a ModelError naming the file, never a traceback.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from vision.errors import ModelError


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def softmax(x: np.ndarray) -> np.ndarray:
    """Probabilities from logits along the last axis."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def load_card(model_path: Path) -> dict:
    """The model's JSON card, checked against the model file (exists, sha256 matches)."""
    if not model_path.is_file():
        raise ModelError(f"model file not found: {model_path} (run `make model`)")
    card_path = model_path.with_suffix(".json")
    try:
        card = json.loads(card_path.read_text())
    except FileNotFoundError as exc:
        raise ModelError(f"model card not found: {card_path}") from exc
    except (OSError, ValueError) as exc:
        raise ModelError(f"model card {card_path} is unreadable: {exc}") from exc
    if file_sha256(model_path) != card.get("sha256"):
        raise ModelError(f"model file {model_path} does not match its card (corrupt or replaced)")
    return card


def input_size(card: dict, model_path: Path) -> int:
    """The side of the square crops a crop model's card says it reads (`input.size`)."""
    try:
        return int(card["input"]["size"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"model card for {model_path} lacks its input size ({exc})") from exc


def open_session(model_path: Path, threads: int, outputs: tuple[str, ...]) -> Any:
    """An onnxruntime CPU session for the file, whose outputs must be `outputs` in order."""
    import onnxruntime as ort  # imported here so importing vision stays cheap

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    # Idle onnxruntime threads would otherwise spin after each run and starve the detector's
    # OpenCV calls in the same frame (measured: read_frame median 55 ms -> 27 ms).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors for bad files
        raise ModelError(f"cannot load model {model_path}: {exc}") from exc
    names = [o.name for o in session.get_outputs()]
    if names != list(outputs):
        raise ModelError(f"model {model_path} has outputs {names}, want {list(outputs)}")
    return session
