"""The numeral reader's network (torch; training only, the runtime runs its ONNX export).

Plain 3x3 convolutions like DiceNet's, on a 48 px patch: a stride-2 stem, 24 -> 12 -> 6 px, then
the average over the map and one linear layer over the printed texts (~0.44 M parameters, ~32 M
multiply-adds a patch). It must read a numeral at any angle, so it keeps no position: the patch
is already centred on the top face. A first try kept the stem at full size and a last 192-channel
layer (~70 M multiply-adds): in the same six minutes it took 1,180 steps instead of 2,511 and read
held-out real d20s 84.7% right alone instead of 93.3% (given ten minutes, 95.3-95.7%).
"""

from __future__ import annotations

import torch
from torch import nn

from vision.train.model import conv_bn_relu
from vision.train.numeral_patches import TEXTS

# (output channels, stride) of each 3x3 convolution
STAGES = ((32, 2), (48, 1), (64, 2), (96, 1), (128, 2), (192, 1))


class NumeralNet(nn.Module):
    """Logits over `texts` classes (numeral_patches.TEXTS unless told; the pip reader's are
    pip_patches.TEXTS) for raw BGR 0-255 patches (N, 3, S, S)."""

    def __init__(self, texts: int = len(TEXTS)) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        cin = 3
        for cout, stride in STAGES:
            layers += conv_bn_relu(cin, cout, stride)
            cin = cout
        self.features = nn.Sequential(*layers)
        self.texts = nn.Linear(cin, texts)
        self.register_buffer("mean", torch.tensor([104.0, 117.0, 123.0]).view(1, 3, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        maps = self.features((x - self.mean) / 64.0)
        return self.texts(maps.mean(dim=(2, 3)))
