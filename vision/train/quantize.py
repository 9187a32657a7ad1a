"""Lite0's frozen ImageNet blocks in 8 bits: the pretrained detector's features (issue 53) and
the table memory's key (vision.train.memory_key, issue 55).

Why: Lite0's blocks to stride 16 read a 512 x 384 frame in about 11 ms on this machine's two
cores in float, 6 ms with 8-bit weights and activations (its vector units multiply bytes; so
do the Pi 5's), and the detector must read a 1280 x 960 frame in under 15 ms. Only the frozen
nodes are quantized, with ranges measured on training scenes: the head trains on the features
as the shipped file computes them (vision.train.fit.head_on_onnx_features), so the 8-bit
rounding is part of what it learns, not a change made after it was measured.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnxruntime.quantization import (
    CalibrationDataReader,
    QuantFormat,
    QuantType,
    quantize_static,
)

FROZEN = ("/_conv_stem/", "/_blocks.")  # the exported names of Lite0's nodes
CALIBRATION = 48  # scenes whose activations set the 8-bit ranges


def calibration(images: np.ndarray) -> np.ndarray:
    """CALIBRATION of the scenes (N, S, S, 3 uint8 BGR), spread evenly over them, as the
    network's input (n, 3, S, S float32): the same frames at training and at shipping, so both
    files round alike."""
    rows = np.linspace(0, len(images) - 1, min(CALIBRATION, len(images))).round().astype(int)
    return images[rows].transpose(0, 3, 1, 2).astype(np.float32)


class _Frames(CalibrationDataReader):
    """The calibration frames one at a time, as onnxruntime's calibration asks for them."""

    def __init__(self, frames: np.ndarray) -> None:
        self.frames = iter(frames)

    def get_next(self) -> dict[str, np.ndarray] | None:
        frame = next(self.frames, None)
        return None if frame is None else {"image": frame[None]}


def eight_bit_features(path: Path, frames: np.ndarray) -> None:
    """Rewrite the ONNX file at `path` with its frozen Lite0 nodes in 8 bits (weights per
    channel, activations per tensor over `frames`); the trained head's nodes stay float."""
    nodes = [n.name for n in onnx.load(str(path)).graph.node
             if any(part in n.name for part in FROZEN)]
    if not nodes:
        raise ValueError(f"{path} holds no Lite0 nodes to quantize")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "int8.onnx"
        quantize_static(str(path), str(out), _Frames(frames), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, nodes_to_quantize=nodes)
        path.write_bytes(out.read_bytes())
