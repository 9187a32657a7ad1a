"""The training loops of the reader's two networks, run for a given number of seconds (or, the
detector, of steps: a fair budget on a machine others load) on whatever device there is (a CUDA
GPU when present, else the CPU).

Everything a batch needs lives on the device as uint8 tensors and is augmented there
(vision.train.augment), so a GPU is never waiting for the CPU. Each loop's learning rate follows
its clock (or its steps): warm up, then a cosine to zero at the end, so a run of any length
ends trained.
"""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from vision.model_file import open_session
from vision.train.augment import crops as augment_crops
from vision.train.augment import photometric
from vision.train.labels import FACE_VALUES, KINDS, VALUE_LABELS, value_label
from vision.train.nets import (
    STRIDE,
    DiceClassifier,
    DiceDetector,
    FeaturesExport,
    PretrainedDetector,
)
from vision.train.quantize import calibration, eight_bit_features
from vision.train.realsets import IGNORE, STATES, WIDE, CropSet
from vision.train.ship import export_onnx

INPUT = 96  # the classifier's input side
REAL_SHARE = 0.5  # of each batch: real die crops (each kind alike), the rest renders
EMPTY_SHARE = 0.08  # ... and real bare-surface crops
PATCH = 320  # the detector trains on square patches of scenes this many pixels across

Log = Callable[[str], None]


def device() -> torch.device:
    if torch.cuda.is_available():
        torch.backends.cudnn.benchmark = True  # every batch has the same shape
        return torch.device("cuda")
    return torch.device("cpu")


def _autocast(dev: torch.device) -> torch.autocast:
    return torch.autocast(dev.type, dtype=torch.bfloat16, enabled=dev.type == "cuda")


def _rate(elapsed: float, seconds: float, peak: float) -> float:
    """Linear warm-up over the first 5% of the time, then a cosine to zero at the deadline."""
    f = min(1.0, elapsed / max(seconds, 1e-9))
    return peak * (f / 0.05 if f < 0.05 else 0.5 * (1 + math.cos(math.pi * (f - 0.05) / 0.95)))


def _value_mask() -> torch.Tensor:
    """(kinds, values) True where the value label is a face of the kind."""
    mask = torch.zeros(len(KINDS), len(VALUE_LABELS), dtype=torch.bool)
    for k, kind in enumerate(KINDS):
        for v in FACE_VALUES[kind]:
            mask[k, VALUE_LABELS.index(value_label(kind, v))] = True
    return mask


@dataclass
class _Pools:
    """Row indices to draw batches from: real dice by kind, renders, bare surfaces."""

    real_by_kind: list[torch.Tensor]
    renders: torch.Tensor
    empty: torch.Tensor

    def draw(self, batch: int, gen: torch.Generator) -> torch.Tensor:
        n_real = int(batch * REAL_SHARE) if self.real_by_kind else 0
        n_empty = int(batch * EMPTY_SHARE) if len(self.empty) else 0
        n_render = batch - n_real - n_empty
        parts = []
        if n_real:
            kinds = torch.randint(len(self.real_by_kind), (n_real,), generator=gen)
            for k, pool in enumerate(self.real_by_kind):
                m = int((kinds == k).sum())
                parts.append(pool[torch.randint(len(pool), (m,), generator=gen)])
        parts.append(self.empty[torch.randint(len(self.empty), (n_empty,), generator=gen)])
        parts.append(self.renders[torch.randint(len(self.renders), (n_render,), generator=gen)])
        return torch.cat(parts)


def _pools(data: CropSet, real: np.ndarray) -> _Pools:
    flat = data.states == STATES.index("flat")
    by_kind = [
        torch.from_numpy(np.flatnonzero(real & flat & (data.kinds == k))) for k in range(len(KINDS))
    ]
    empty = real & (data.states == STATES.index("empty"))
    return _Pools(
        [p for p in by_kind if len(p)],
        torch.from_numpy(np.flatnonzero(~real)),
        torch.from_numpy(np.flatnonzero(empty)),
    )


def _start(
    net: torch.nn.Module, seed: int, init: dict | None
) -> tuple[torch.nn.Module, torch.device, torch.Generator]:
    """A run's network (its weights `init`, if given) on the device, and the seeded batch draw."""
    torch.manual_seed(seed)
    if init is not None:
        net.load_state_dict(init)
    dev = device()
    return net.to(dev), dev, torch.Generator().manual_seed(seed)


def _run(
    net: torch.nn.Module, opt: torch.optim.Optimizer, loss: Callable[[], torch.Tensor],
    seconds: float, log: Log, name: str, steps: int | None = None, keep_norms: bool = False,
) -> None:
    """Train for `seconds` of wall time (or `steps` batches, when given), a batch's `loss()` a
    step, each parameter group's rate following the clock (or the steps) from the rate it was
    set up with (`_rate`). `keep_norms`: batch norms keep the statistics they came with."""
    peaks = [group["lr"] for group in opt.param_groups]
    start, step = time.monotonic(), 0
    net.train()
    if keep_norms:
        for module in net.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()
    while True:
        elapsed = time.monotonic() - start
        if (step >= steps) if steps else elapsed >= seconds:
            break
        for group, peak in zip(opt.param_groups, peaks, strict=True):
            group["lr"] = _rate(step, steps, peak) if steps else _rate(elapsed, seconds, peak)
        value = loss()
        opt.zero_grad(set_to_none=True)
        value.backward()
        opt.step()
        step += 1
        if step % (max(1, steps // 8) if steps else 200) == 0:
            log(f"  {name}: step {step}, {elapsed:.0f} s, loss {value.item():.3f}")
    log(f"  {name}: {step} steps in {time.monotonic() - start:.0f} s on {device()}")


def train_classifier(
    data: CropSet,
    seconds: float,
    log: Log = print,
    batch: int = 256,
    peak_lr: float = 2e-3,
    seed: int = 0,
    init: dict | None = None,
) -> DiceClassifier:
    """Fine-tune the pretrained classifier (or go on from the weights `init`) on `data` (real
    crops and renders, told apart by their rig "render") for `seconds` of wall time."""
    net, dev, gen = _start(DiceClassifier(pretrained=init is None), seed, init)
    net = net.to(memory_format=torch.channels_last)
    prototypes = torch.nn.Parameter(torch.randn(len(VALUE_LABELS), net.embed.out_features, device=dev))
    params = [{"params": net.backbone.parameters(), "lr": peak_lr / 2},
              {"params": [p for n, p in net.named_parameters() if not n.startswith("backbone")]
               + [prototypes]}]
    opt = torch.optim.AdamW(params, lr=peak_lr, weight_decay=1e-4)
    images = torch.from_numpy(data.images).to(dev)
    labels = {k: torch.from_numpy(getattr(data, k)).to(dev) for k in ("kinds", "values", "states")}
    learnt = torch.from_numpy(data.varied).to(dev)
    level = torch.from_numpy(data.level).to(dev)
    pools = _pools(data, data.rigs != "render")
    mask = _value_mask().to(dev)

    def loss() -> torch.Tensor:
        rows = pools.draw(batch, gen).to(dev)
        with torch.no_grad():
            x = augment_crops(images[rows], INPUT, WIDE, level[rows])
            x = photometric(x).contiguous(memory_format=torch.channels_last)
        kind, value, state = (labels[k][rows] for k in ("kinds", "values", "states"))
        with _autocast(dev):
            k_out, v_out, s_out, emb = net(x)
        k_out, v_out, s_out, emb = k_out.float(), v_out.float(), s_out.float(), emb.float()
        has_value = (value != IGNORE) & learnt[rows]
        total = F.cross_entropy(k_out, kind, ignore_index=IGNORE, label_smoothing=0.05)
        total = total + F.cross_entropy(s_out, state, label_smoothing=0.02)
        if has_value.any():
            own = mask[kind[has_value]]  # the value is read among its kind's faces alone
            v_logits = v_out[has_value].masked_fill(~own, -1e4)
            total = total + F.cross_entropy(v_logits, value[has_value])
            cos = emb[has_value] @ F.normalize(prototypes, dim=1).T
            total = total + 0.5 * F.cross_entropy(16.0 * cos, value[has_value])
        return total

    _run(net, opt, loss, seconds, log, f"classifier, batches of {batch}")
    return net.eval().cpu()


@dataclass(frozen=True)
class SceneSet:
    """Whole frames for the detector: images padded to one size (N, S, S, 3) uint8, their true
    sizes (N, 2: width, height), and every die's box (N, M, 4; rows past `counts` unused)."""

    images: np.ndarray
    sizes: np.ndarray
    boxes: np.ndarray
    counts: np.ndarray

    def __len__(self) -> int:
        return len(self.images)


def scene_set(frames: Sequence[tuple[np.ndarray, np.ndarray]], side: int = 512) -> SceneSet:
    """Frames (BGR image, boxes (n, 4)) brought to at most `side` on their long side and padded."""
    most = max(1, max(len(b) for _, b in frames))
    images = np.zeros((len(frames), side, side, 3), np.uint8)
    sizes = np.zeros((len(frames), 2), np.int64)
    boxes = np.zeros((len(frames), most, 4), np.float32)
    counts = np.zeros(len(frames), np.int64)
    for i, (image, b) in enumerate(frames):
        h, w = image.shape[:2]
        scale = min(1.0, side / max(h, w))
        if scale < 1.0:
            image = cv2.resize(image, (round(w * scale), round(h * scale)),
                               interpolation=cv2.INTER_AREA)
        images[i, : image.shape[0], : image.shape[1]] = image
        sizes[i] = image.shape[1], image.shape[0]
        boxes[i, : len(b)] = np.asarray(b, np.float32).reshape(-1, 4) * scale
        counts[i] = len(b)
    return SceneSet(images, sizes, boxes, counts)


def _patches(
    scenes: dict[str, torch.Tensor], rows: torch.Tensor, gen: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """PATCH-square views of scenes at a random scale and place (flipped at random): images
    (B, 3, P, P) float, boxes (B, M, 4) in patch pixels, and which boxes are in view."""
    dev = scenes["images"].device
    b = len(rows)
    side = scenes["images"].shape[1]
    sizes = scenes["sizes"][rows].float()
    scale = torch.exp(torch.empty(b).uniform_(math.log(0.5), math.log(1.6), generator=gen)).to(dev)
    window = PATCH / scale  # source pixels the patch spans
    room = (sizes - window[:, None]).clamp(min=0)
    free = torch.rand(b, 2, generator=gen).to(dev)
    origin = room * free - (window[:, None] - sizes).clamp(min=0) * free
    theta = torch.zeros(b, 2, 3, device=dev)
    # output [-1, 1] -> source pixels origin .. origin + window -> source [-1, 1] of `side`
    theta[:, 0, 0] = window / side
    theta[:, 1, 1] = window / side
    theta[:, :, 2] = (2 * origin + window[:, None]) / side - 1
    flips = torch.rand(b, 2, generator=gen).to(dev) < 0.5
    theta[:, 0, 0] *= torch.where(flips[:, 0], -1.0, 1.0)
    theta[:, 1, 1] *= torch.where(flips[:, 1], -1.0, 1.0)
    x = scenes["images"][rows].permute(0, 3, 1, 2).float()
    grid = F.affine_grid(theta, (b, 3, PATCH, PATCH), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    boxes = (scenes["boxes"][rows] - origin.repeat(1, 2)[:, None, :]) * scale[:, None, None]
    x0, y0, x1, y1 = boxes.unbind(-1)
    x0, x1 = torch.where(flips[:, :1], PATCH - x1, x0), torch.where(flips[:, :1], PATCH - x0, x1)
    y0, y1 = torch.where(flips[:, 1:], PATCH - y1, y0), torch.where(flips[:, 1:], PATCH - y0, y1)
    boxes = torch.stack([x0, y0, x1, y1], -1)
    clipped = boxes.clamp(0, PATCH)
    area = ((boxes[..., 2] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 1])).clamp(min=1e-6)
    seen = (clipped[..., 2] - clipped[..., 0]) * (clipped[..., 3] - clipped[..., 1])
    count = scenes["counts"][rows]
    real = torch.arange(boxes.shape[1], device=dev)[None] < count[:, None]
    return x, clipped, real & (seen >= 0.5 * area) & (clipped[..., 2] - clipped[..., 0] > 2)


def _targets(boxes: torch.Tensor, valid: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """CenterNet targets on the STRIDE grid: the heatmap (a Gaussian a die, 1 at its centre's
    cell), and per die its centre cell, side in pixels and offset within the cell."""
    cells = PATCH // STRIDE
    dev = boxes.device
    centre = (boxes[..., :2] + boxes[..., 2:]) / 2 / STRIDE
    wh = (boxes[..., 2:] - boxes[..., :2]).clamp(min=1.0)
    sigma = (wh / STRIDE / 6).clamp(min=0.5)
    grid = torch.arange(cells, device=dev, dtype=torch.float32) + 0.5
    gx = torch.exp(-((grid[None, None] - centre[..., :1]) ** 2) / (2 * sigma[..., :1] ** 2))
    gy = torch.exp(-((grid[None, None] - centre[..., 1:]) ** 2) / (2 * sigma[..., 1:] ** 2))
    heat = (gy[..., :, None] * gx[..., None, :]) * valid[..., None, None]
    heat = heat.amax(dim=1) if heat.shape[1] else torch.zeros(len(boxes), cells, cells, device=dev)
    cell = centre.floor().long().clamp(0, cells - 1)
    flat = cell[..., 1] * cells + cell[..., 0]
    rows = torch.arange(len(boxes), device=dev)[:, None].expand_as(flat)
    heat.view(len(boxes), -1)[rows[valid], flat[valid]] = 1.0
    return heat[:, None], flat, wh, centre - cell.float()


def _focal(logits: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss: centres are 1; near misses weigh less by (1 - heat)^4."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = heat >= 1.0
    pos_loss = -(torch.log(p) * (1 - p) ** 2)[pos].sum()
    neg_loss = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4)[~pos].sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def onnx_features(net: PretrainedDetector, frames: np.ndarray | None = None
                  ) -> Callable[[np.ndarray], list[np.ndarray]]:
    """The net's frozen features (strides 4, 8, 16) computed by onnxruntime: a batch of 32
    patches in 0.2 s here where torch takes 2 s (a training step's bulk), the same to 1e-4;
    with `frames` (quantize.calibration), in 8 bits as the shipped file computes them."""
    outputs = ("f4", "f8", "f16")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "features.onnx"
        export_onnx(FeaturesExport(net), torch.zeros(1, 3, PATCH, PATCH), path, outputs,
                    {0: "batch", 2: "height", 3: "width"})
        if frames is not None:
            eight_bit_features(path, frames)
        session = open_session(path, torch.get_num_threads(), outputs)
    return lambda x: session.run(None, {"image": x})


def head_on_onnx_features(net: PretrainedDetector, frames: np.ndarray | None = None
                          ) -> Callable[[torch.Tensor], tuple[torch.Tensor, ...]]:
    """The net's outputs, its head on `onnx_features` (in 8 bits with `frames`)."""
    features = onnx_features(net, frames)

    def forward(x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return net.head(*(torch.from_numpy(f) for f in features(x.numpy())))

    return forward


def train_detector(
    scenes: SceneSet,
    seconds: float,
    log: Log = print,
    batch: int = 32,
    peak_lr: float = 3e-3,
    seed: int = 0,
    init: dict | None = None,
    steps: int | None = None,
    pretrained: bool = False,
) -> DiceDetector | PretrainedDetector:
    """Train the detector from scratch (or on from the weights `init`) on PATCH-square views of
    `scenes` for `seconds` (or `steps` batches). Going on from weights, the batch norms keep
    their statistics: a fine-tune's small batches of another mix would move them, and weights
    read out of the ONNX file (vision.train.onnx_weights) have the norms folded away.
    `pretrained`: the head of a PretrainedDetector on Lite0's frozen ImageNet features, in 8
    bits as shipped (vision.train.quantize; on a GPU the head learns float features, which the
    shipped file's differ from by its rounding)."""
    net, dev, gen = _start(PretrainedDetector() if pretrained else DiceDetector(), seed, init)
    trained = [p for p in net.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trained, lr=peak_lr, weight_decay=1e-4)
    forward = (head_on_onnx_features(net, calibration(scenes.images))
               if pretrained and dev.type == "cpu" else net)
    data = {
        "images": torch.from_numpy(scenes.images).to(dev),
        "sizes": torch.from_numpy(scenes.sizes).to(dev),
        "boxes": torch.from_numpy(scenes.boxes).to(dev),
        "counts": torch.from_numpy(scenes.counts).to(dev),
    }

    def loss() -> torch.Tensor:
        rows = torch.randint(len(scenes), (batch,), generator=gen).to(dev)
        with torch.no_grad():
            x, boxes, valid = _patches(data, rows, gen)
            x = photometric(x)
            heat, flat, wh, offset = _targets(boxes, valid)
        with _autocast(dev):
            logits, size, off = forward(x)
        logits, size, off = logits.float(), size.float(), off.float()
        total = _focal(logits, heat)
        if valid.any():
            b = torch.arange(batch, device=dev)[:, None].expand_as(flat)[valid]
            at = flat[valid]
            total = total + 0.5 * F.l1_loss(torch.log(size.flatten(2)[b, :, at]),
                                            torch.log(wh[valid]))
            total = total + F.l1_loss(off.flatten(2)[b, :, at], offset[valid])
        return total

    _run(net, opt, loss, seconds, log, f"detector, batches of {batch}", steps, init is not None)
    return net.eval().cpu()
