"""The training loop: synthetic renders mixed with real photo crops, augmented on the fly.

Every batch is mostly renders (all kinds, all values, cocked and empty crops; the kinds still
read worst drawn more often) plus real crops sampled so each real kind is equally represented,
half of them set on a rendered table instead of the photo's. Augmentation is done on whole
batches in torch (rotation over the full circle, zoom, shift, colour, blur, noise) so it costs
little CPU.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch
from torch.nn import functional as F

from vision.train.backdrop import Backdrops
from vision.train.dataset import IGNORE, Arrays
from vision.train.model import INPUT_SIZE, DiceNet
from vision.train.sampling import KindFocus, real_weights


@dataclass(frozen=True)
class RunConfig:
    """Knobs every time-boxed training run has (the time budget sets the number of steps)."""

    minutes: float = 38.0
    batch: int = 128
    lr: float = 3e-3
    weight_decay: float = 5e-4
    seed: int = 0
    # Two threads on an idle machine (`make model`): a bf16 step at 96 px took 0.18 s instead
    # of 0.27 s. Use one when other work shares the cores (two runs side by side, a test suite):
    # threads then wait on each other at every layer and a step got ~1.8x slower than with one.
    threads: int = 2
    # bfloat16 autocast on channels-last tensors: on this machine's AMX/AVX512-BF16 cores an
    # 80 px training step took 0.32 s instead of 0.84 s (fp32, NCHW; both measured beside a
    # training run on the other core), so the same minutes teach more.
    # The weights, the optimiser and the exported model stay float32.
    bf16: bool = True


@dataclass(frozen=True)
class TrainConfig(RunConfig):
    """Knobs of one dice classifier run."""

    real_fraction: float = 0.3
    # Each turntable die shows one or two values over thousands of frames, so real value labels
    # can teach "this orange d20 is a 15" rather than reading digits (model 1.1.0 read held-out
    # d20s as the values their look-alikes showed in training). This weight scales the value loss
    # of real crops from such narrow runs (0 = they teach kind and state only); crops from runs
    # showing many values (realdata.varied) count fully. Measured on held-out real sequences,
    # 40-min runs (model 2.0.0's recipe: 80 px, float32, one thread; before real_varied): weight
    # 1.0 -> value 42.8% (d20 0.3%), 0.2 -> 54.9% (d20 24.3%); with the
    # classifier's second look, 0.2 -> 60.4% but 0.0 -> 36.6% (d20 1.0%): renders alone do not
    # teach reading real numerals, a light touch of real values does.
    real_value_weight: float = 0.2
    # Draw renders per kind in proportion to how badly the kind's values are still read (a
    # running mean of its value loss in training), half of the batch at least spread evenly:
    # a d20 has 20 faces to learn and a d8 8, and an even split gives both the same time.
    focus: bool = True
    # Share of real crops shown on a rendered surface instead of the photo's (see backdrop.py).
    # Measured together with `focus` (model 3.1.0 against the same recipe without both, `make
    # model` runs on two threads with renders v3): held-out real value 66.0% -> 67.2%, kind
    # 99.5% -> 100%, and on another camera's d6 (never trained on) kind 69.5% -> 79.5%, value
    # 51.0% -> 66.9%. The same recipe with another seed: value 68.1%, other camera 82.8%/56.3%.
    real_backdrop: float = 0.5
    # Share of the run's time trained on crops of SMALL_SIZE px instead of INPUT_SIZE: a step
    # there costs about half (0.17 s against 0.33 s), so the same minutes show more crops,
    # and the run's second part at full size fits the network to the size it reads at. Only a
    # run from scratch has it: one going on from trained weights (`--init`, the d4 expert) keeps
    # the size they were trained at (not measured otherwise).
    # Measured on a slow day, 20-minute runs from scratch (seed 0, no d4 expert; 3,687 steps
    # at 96 px against 5,552 with half of them at 64 px): held-out renders kind 96.7% -> 98.1%,
    # value 77.4% -> 79.3% (every kind better in both), held-out real value 90.5% -> 93.3%,
    # kind 99.4% -> 99.6%; the other camera's d6 value 81.5% both, kind 92.1% -> 91.4%.
    small_share: float = 0.5


def bf16_is_fast() -> bool:
    """Whether this CPU computes bfloat16 natively (elsewhere autocast would be slower)."""
    checks = ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    return any(getattr(torch.cpu, name, lambda: False)() for name in checks)


# Share of crops given bands of replicated edge. square_crop replicates the frame's edge where a
# die's square reaches past it: a die near the frame's edge, or a photo cut tight around one die
# (another camera's crops). The real training photos never show it, renders hardly. Measured
# (`make model` runs, renders v4, two threads): without the bands, seeds 0 and 1, another camera's
# d6 kind 68.2% / 69.5%, value 41.7% / 50.3%, held-out real value 72.1% / 71.9%; with them
# (seed 0, model 3.2.0) 81.5%, 60.3% and 75.0%.
EDGE_BAND_SHARE = 0.3


def edge_bands(x: torch.Tensor, gen: torch.Generator, share: float) -> torch.Tensor:
    """Replace a band along some sides of `share` of the (B, 3, S, S) crops by the band's inner
    edge, stretched out as square_crop's edge replication draws it (each side: p 0.5, 3-15%)."""
    s = x.shape[-1]
    ramp = torch.arange(s)
    for i in torch.nonzero(torch.rand(x.shape[0], generator=gen) < share).flatten().tolist():
        on = torch.rand(4, generator=gen) < 0.5
        left, top, right, bottom = ((0.03 + 0.12 * torch.rand(4, generator=gen)) * s * on).long()
        cols = ramp.clamp(int(left), s - 1 - int(right))
        rows = ramp.clamp(int(top), s - 1 - int(bottom))
        x[i] = x[i][:, rows][:, :, cols]
    return x


# Crops of dice seen from the side by a level camera (Arrays.level) are turned at most this much
# either way instead of over the full circle: their up tells the d4's apex (render.LEVEL_ROLL_DEG).
LEVEL_TURN = math.radians(15.0)


# The input size of a run's low-resolution phase (TrainConfig.small_share): the last feature
# map is then 4 cells wide, the whole of it the value embedding's central block (model.CENTRE).
SMALL_SIZE = 64


def augment(
    images: torch.Tensor,
    gen: torch.Generator,
    level: torch.Tensor | None = None,
    size: int = INPUT_SIZE,
) -> torch.Tensor:
    """uint8 (B, S, S, 3) crops -> float (B, 3, size, size) randomly transformed; the `level`
    ones (a bool mask) turned by LEVEL_TURN at most."""
    b = images.shape[0]
    x = images.permute(0, 3, 1, 2).float()

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(*(shape or (b,)), generator=gen)

    angle = u(0, 2 * math.pi)
    if level is not None:
        angle = torch.where(level, u(-LEVEL_TURN, LEVEL_TURN), angle)
    zoom = 1.0 / u(0.87, 1.22)  # up to 1.22x closer: the real photos' dice fill more of a crop
    shift = u(-0.06, 0.06, b, 2)
    cos, sin = torch.cos(angle) * zoom, torch.sin(angle) * zoom
    theta = torch.stack(
        [torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1
    )
    grid = F.affine_grid(theta, [b, 3, size, size], align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    x = edge_bands(x, gen, EDGE_BAND_SHARE)
    return camera_jitter(x, gen)


# Sensor noise is drawn from a fixed bank of this many Gaussian fields per crop size, each crop
# taking one at random and its own strength: drawing fresh noise for a batch of 128 crops of
# 96 px took 15 ms of a training step.
NOISE_FIELDS = 512


@lru_cache(maxsize=4)
def noise_bank(shape: tuple[int, ...]) -> torch.Tensor:
    """NOISE_FIELDS standard Gaussian fields of `shape` (C, S, S), the same in every run."""
    return torch.randn((NOISE_FIELDS, *shape), generator=torch.Generator().manual_seed(0))


def shrink_some(x: torch.Tensor, gen: torch.Generator, share: float, smallest: int) -> torch.Tensor:
    """Float (B, 3, S, S) crops, a `share` of them brought down to one random side from
    `smallest` to S and back up: the same die farther away or through a coarser camera, whose
    crop the reader enlarges. Renders and the real photos' dice are drawn at or above the size
    the reader reads, so without it a model never sees a die that fills only part of its input
    pixels (the cards measure such dice: vision.train.card.SMALL_DICE)."""
    b, side = x.shape[0], x.shape[-1]
    pick = torch.rand(b, generator=gen) < share
    if not pick.any() or smallest >= side:
        return x
    small = int(torch.randint(smallest, side, (1,), generator=gen))
    shrunk = F.interpolate(x[pick], size=(small, small), mode="area")
    x[pick] = F.interpolate(shrunk, size=(side, side), mode="bilinear", align_corners=False)
    return x


def camera_jitter(x: torch.Tensor, gen: torch.Generator, noise: float = 6.0) -> torch.Tensor:
    """Float (B, 3, S, S) crops as other cameras and lights would give them: per-channel gain,
    exposure and offset, sometimes channels swapped or colour dropped, some blur, sensor noise
    of a standard deviation up to `noise` grey levels."""
    b = x.shape[0]

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(*shape, generator=gen)

    x = x * (u(0.75, 1.25, b, 3, 1, 1) * u(0.7, 1.3, b, 1, 1, 1)) + u(-20, 20, b, 1, 1, 1)
    swap = torch.rand(b, generator=gen) < 0.3
    if swap.any():
        perm = torch.randperm(3, generator=gen)
        x[swap] = x[swap][:, perm]
    grey = torch.rand(b, generator=gen) < 0.1
    if grey.any():
        x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    blur = torch.rand(b, generator=gen) < 0.2
    if blur.any():
        x[blur] = F.avg_pool2d(x[blur], 3, 1, 1, count_include_pad=False)
    fields = noise_bank(tuple(x.shape[1:]))[torch.randint(0, NOISE_FIELDS, (b,), generator=gen)]
    return x.add_(fields.mul_(u(0, noise, b, 1, 1, 1))).clamp_(0, 255)


def learning_rate(peak: float, step: int, progress: float) -> float:
    """A short warm-up, then a cosine decay over the run's time (not its steps), floored."""
    warm = min(1.0, (step + 1) / 100)
    return peak * max(warm * 0.5 * (1 + math.cos(math.pi * progress)), 0.01)


def losses(
    outputs: tuple[torch.Tensor, ...],
    kinds: torch.Tensor,
    values: torch.Tensor,
    states: torch.Tensor,
    value_weights: torch.Tensor | None = None,
) -> torch.Tensor:
    """Kind + value + state cross-entropy; IGNORE labels (no value when cocked...) are skipped.

    `value_weights` scales each row's value loss (real photos may count less than renders).
    """
    kind_logits, value_logits, state_logits, _ = outputs
    loss = F.cross_entropy(state_logits, states) * 0.5
    if (kinds != IGNORE).any():
        loss = loss + F.cross_entropy(kind_logits, kinds, ignore_index=IGNORE, label_smoothing=0.05)
    known = values != IGNORE
    if value_weights is not None:
        known = known & (value_weights > 0)
    if known.any():
        per_row = F.cross_entropy(
            value_logits[known], values[known], reduction="none", label_smoothing=0.05
        )
        w = value_weights[known] if value_weights is not None else torch.ones_like(per_row)
        loss = loss + (per_row * w).sum() / w.sum()
    return loss


def train(
    synthetic: Arrays,
    real: Arrays,
    config: TrainConfig,
    log: Callable[[str], None] = print,
    init: DiceNet | None = None,
    real_varied: np.ndarray | None = None,
    real_table: np.ndarray | None = None,
) -> tuple[DiceNet, dict]:
    """Train a DiceNet (or go on training `init`) within config.minutes; returns it and a summary.

    `real_varied` marks real crops whose value labels count fully (see realdata.varied); the
    others' value loss is scaled by config.real_value_weight. `real_table` marks a table's own
    photos, drawn more often than their number alone would (sampling.TABLE_SHARE).
    """
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    gen = torch.Generator().manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    model = (init or DiceNet()).to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    n_real = int(config.batch * config.real_fraction) if len(real) else 0
    n_syn = config.batch - n_real
    weights = real_weights(real.kinds, real_table) if n_real else None
    varied = np.zeros(len(real), bool) if real_varied is None else real_varied
    real_value_w = np.where(varied, 1.0, config.real_value_weight).astype(np.float32)
    focus = KindFocus(synthetic.kinds) if config.focus else None
    backdrops = Backdrops(real.images, config.seed) if n_real and config.real_backdrop else None
    if backdrops is not None:
        log(f"{int(backdrops.cut.sum())} of {len(real)} real dice cut out to change their table")
    syn_p = None
    small_share = config.small_share if init is None else 0.0
    budget = config.minutes * 60.0
    start = time.monotonic()
    step = seen = small_steps = 0
    model.train()
    # The schedule follows elapsed time, not a step count: on a shared CPU the speed varies, and
    # the run must end on time whatever the other processes do.
    while (progress := (time.monotonic() - start) / budget) < 1.0:
        if focus is not None and step % 20 == 0:
            syn_p = focus.weights()
        idx_s = (
            rng.choice(len(synthetic), n_syn, p=syn_p)
            if focus is not None
            else rng.integers(0, len(synthetic), n_syn)
        )
        idx_r = rng.choice(len(real), n_real, p=weights) if n_real else idx_s[:0]
        parts = [(synthetic, idx_s), (real, idx_r)]
        real_imgs = real.images[idx_r]
        if backdrops is not None:
            real_imgs = backdrops.apply(real_imgs, idx_r, config.real_backdrop, rng)
        imgs = torch.from_numpy(np.concatenate([synthetic.images[idx_s], real_imgs]))
        kinds = torch.from_numpy(np.concatenate([a.kinds[i] for a, i in parts]))
        values = torch.from_numpy(np.concatenate([a.values[i] for a, i in parts]))
        states = torch.from_numpy(np.concatenate([a.states[i] for a, i in parts]))
        level = torch.from_numpy(np.concatenate([a.level[i] for a, i in parts]))
        value_weights = torch.ones(len(values))
        value_weights[n_syn:] = torch.from_numpy(real_value_w[idx_r])
        size = SMALL_SIZE if progress < small_share else INPUT_SIZE
        small_steps += size == SMALL_SIZE
        x = augment(imgs, gen, level, size).contiguous(memory_format=torch.channels_last)
        for group in opt.param_groups:
            group["lr"] = learning_rate(config.lr, step, progress)
        with torch.autocast("cpu", torch.bfloat16, enabled=config.bf16):
            outputs = model(x)
        loss = losses(tuple(o.float() for o in outputs), kinds, values, states, value_weights)
        if focus is not None:
            with torch.no_grad():
                has = values[:n_syn] != IGNORE
                row = F.cross_entropy(outputs[1][:n_syn][has].float(), values[:n_syn][has],
                                      reduction="none")
            focus.update(kinds[:n_syn][has].numpy(), row.numpy())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        seen += len(x)
        if step % 200 == 0:
            extra = f" kind losses {np.round(focus.loss, 2).tolist()}" if focus else ""
            log(f"step {step} ({progress:.0%} of the time) loss {loss.item():.3f}{extra}")
    model.eval().to(memory_format=torch.contiguous_format)
    return model, {
        "steps": step,
        "samples_seen": seen,
        "minutes": round((time.monotonic() - start) / 60, 1),
        "batch": config.batch,
        "real_fraction": config.real_fraction,
        "real_value_weight": config.real_value_weight,
        "real_varied_crops": int(varied.sum()),
        "real_table_crops": int(real_table.sum()) if real_table is not None else 0,
        "threads": config.threads,
        "bf16": config.bf16,
        "focus": config.focus,
        "real_backdrop": config.real_backdrop,
        "small_share": small_share,
        "small_steps": small_steps,
    }
