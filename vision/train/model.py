"""The dice classifier network (torch; training only, the runtime runs its ONNX export).

A small VGG-style stack of plain 3x3 convolutions (~0.87 M parameters, ~92 M multiply-adds at
96 px) with three heads. Plain convolutions rather than MobileNet's depthwise-separable ones: CPU
torch trains depthwise layers about five times slower (their backward pass is poorly optimised),
and the whole model must train in under an hour on two cores; onnxruntime reads ten crops in
about 7 ms here. Heads:
- `kind` logits over KINDS,
- `value` logits over VALUE_LABELS, computed as scaled cosine similarity between an L2-normalised
  `embedding` and one learnt prototype per label, so a new die can later be added by storing
  prototypes of its faces' embeddings, with no retraining and the same decision rule. The
  embedding sees the central 4x4 cells of the last feature map one by one as well as their
  average: the top face sits in the middle of the crop, and an average alone mixes its numeral
  with the side faces' numerals (a d20 shows up to ten),
- `state` logits over flat / cocked / empty (a die that shows no face up, or no die at all).
The input is raw BGR 0-255 (N, 3, S, S); normalisation is inside the graph so the runtime and the
card cannot disagree about it.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from vision.train.dataset import STATES
from vision.train.labels import KINDS, VALUE_LABELS

# 96 px rather than 80: a d20's or d10's two-digit numerals get ~20% more pixels. Measured with
# bf16 training, 40-min runs, held-out real value: 80 px 61.7%, 96 px 69.4% (d10 92.7 -> 97.3%,
# d4 52.8 -> 69.4%), for 1.44x the multiply-adds per crop (classifying 10 crops, second look
# included: 11.4 -> 15.4 ms). 112 px did not pay (model 3.1.0's recipe, one `make model` run):
# a step took 0.34 s instead of ~0.26, so 6,510 steps in the 40 minutes instead of ~9,300, and
# held-out real value was 66.3% (96 px: 67.2% and 68.1%), another camera's d6 78.2% / 47.7%.
INPUT_SIZE = 96
EMBEDDING = 64
COSINE_SCALE = 16.0
# (output channels, stride) after a stride-2 stem of 24 channels: 96 -> 48 -> 24 -> 12 -> 6 px.
# Strided convolutions instead of max-pooling: CPU torch's max-pool was 14% of a training step.
STAGES = ((32, 1), (64, 2), (64, 1), (128, 2), (128, 1), (256, 2))
# side of the block of central feature cells the value embedding sees unpooled (the feature map
# is INPUT_SIZE / 16 cells wide; the block has the same parity so it sits exactly in the middle)
CENTRE = 3 if (INPUT_SIZE // 16) % 2 else 4


def conv_bn_relu(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
    """A 3x3 convolution with batch norm and ReLU."""
    return [
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    ]


class DiceNet(nn.Module):
    """Kind, value (cosine over embedding prototypes) and state heads on a shared backbone."""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = conv_bn_relu(3, 24, 2)
        cin = 24
        for cout, stride in STAGES:
            layers += conv_bn_relu(cin, cout, stride)
            cin = cout
        self.features = nn.Sequential(*layers)
        self.dropout = nn.Dropout(0.1)
        self.kind = nn.Linear(cin, len(KINDS))
        self.state = nn.Linear(cin, len(STATES))
        self.embed = nn.Linear(cin * (1 + CENTRE * CENTRE), EMBEDDING)
        self.prototypes = nn.Parameter(torch.randn(len(VALUE_LABELS), EMBEDDING) * 0.1)
        self.register_buffer("mean", torch.tensor([104.0, 117.0, 123.0]).view(1, 3, 1, 1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        x = (x - self.mean) / 64.0
        maps = self.features(x)
        f = self.dropout(maps.mean(dim=(2, 3)))
        lo = (maps.shape[2] - CENTRE) // 2
        centre = maps[:, :, lo : lo + CENTRE, lo : lo + CENTRE].flatten(1)
        emb = F.normalize(self.embed(torch.cat([f, self.dropout(centre)], 1)), dim=1)
        value = COSINE_SCALE * emb @ F.normalize(self.prototypes, dim=1).t()
        return self.kind(f), value, self.state(f), emb


def parameter_count(model: nn.Module) -> int:
    """Number of trainable parameters."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
