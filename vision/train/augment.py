"""Photometric and geometric augmentation on batches of uint8 images, in torch, on the device
the batch is on (a GPU does it for free beside the network; a CPU run pays for it too).

Players bring their own tray, dice and lamp: every batch is drawn with other white balance,
exposure, contrast, saturation, blur, noise, resolution and framing than the photos had, so what
the networks learn is the die, not the rig.
"""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F


def _uniform(n: int, lo: float, hi: float, device: torch.device) -> torch.Tensor:
    return torch.empty(n, device=device).uniform_(lo, hi)


def photometric(x: torch.Tensor, strength: float = 1.0, swap: bool = True) -> torch.Tensor:
    """Float BGR batch (N, 3, H, W) in 0-255 -> the same scenes under other lamps and cameras:
    white balance, exposure, gamma, contrast, saturation (sometimes grey), colour order of the
    dice (channels swapped: a die's colour says nothing of its value; not with `swap` False),
    blur, noise."""
    n, device = x.shape[0], x.device
    s = strength
    x = x / 255.0
    # channels swapped in some: red dice look blue, etc.
    swapped = torch.rand(n, device=device) < 0.25 * s * swap
    if swapped.any():
        order = torch.stack([torch.randperm(3, device=device) for _ in range(int(swapped.sum()))])
        x[swapped] = torch.gather(x[swapped], 1,
                                  order[:, :, None, None].expand(-1, -1, *x.shape[2:]))
    gains = torch.exp(torch.randn(n, 3, 1, 1, device=device) * 0.12 * s)  # white balance
    exposure = torch.exp(torch.randn(n, 1, 1, 1, device=device) * 0.35 * s)
    x = x * gains * exposure
    grey = x.mean(dim=1, keepdim=True)
    saturation = _uniform(n, 1 - 0.6 * s, 1 + 0.5 * s, device).view(n, 1, 1, 1)
    saturation[torch.rand(n, device=device) < 0.1 * s] = 0.0
    x = grey + (x - grey) * saturation
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = _uniform(n, 1 - 0.4 * s, 1 + 0.4 * s, device).view(n, 1, 1, 1)
    x = (x - mean) * contrast + mean
    gamma = torch.exp(torch.randn(n, 1, 1, 1, device=device) * 0.2 * s)
    x = x.clamp(0, 1) ** gamma
    x = blur(x, (torch.rand(n, device=device) * 1.6 * s) * (torch.rand(n, device=device) < 0.5))
    noise = torch.rand(n, 1, 1, 1, device=device) * 0.05 * s
    x = x + torch.randn_like(x) * noise
    return (x.clamp(0, 1) * 255.0).contiguous()


def blur(x: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    """Gaussian blur of each image by its own sigma (pixels; 0 leaves it sharp)."""
    radius = 3
    taps = torch.arange(-radius, radius + 1, device=x.device, dtype=x.dtype)
    s = sigma.clamp(min=1e-3).to(x.dtype)[:, None]
    k = torch.exp(-(taps[None] ** 2) / (2 * s**2))
    k = k / k.sum(dim=1, keepdim=True)  # (N, 7)
    n, c, h, w = x.shape
    flat = x.reshape(1, n * c, h, w)
    kx = k.repeat_interleave(c, 0)[:, None, None, :]
    ky = k.repeat_interleave(c, 0)[:, None, :, None]
    flat = F.conv2d(F.pad(flat, (radius, radius, 0, 0), mode="replicate"), kx, groups=n * c)
    flat = F.conv2d(F.pad(flat, (0, 0, radius, radius), mode="replicate"), ky, groups=n * c)
    return flat.reshape(n, c, h, w)


def crops(
    images: torch.Tensor,
    out: int,
    wide: float,
    level: torch.Tensor,
    scale: tuple[float, float] = (0.85, 1.2),
    shift: float = 0.08,
    small: float = 0.35,
) -> torch.Tensor:
    """Wide die crops (N, H, W, 3) uint8 -> (N, 3, out, out) float crops as the runtime cuts
    them (the middle 1/`wide`), framed a little looser or tighter and off centre, turned any way (never
    mirrored: numerals are not) (a level camera's side views about upright only, as `level` marks), sometimes with a mild
    perspective, and in `small` of them brought down to 24-64 px first (far or small dice)."""
    n, device = images.shape[0], images.device
    x = images.permute(0, 3, 1, 2).float()
    zoom = _uniform(n, *scale, device) / wide
    turn = _uniform(n, -math.pi, math.pi, device)
    turn = torch.where(level, turn * 0.08, turn)
    cos, sin = torch.cos(turn) * zoom, torch.sin(turn) * zoom
    shear = torch.randn(n, 2, device=device) * 0.04
    theta = torch.stack(
        [
            torch.stack([cos + shear[:, 0], -sin, _uniform(n, -shift, shift, device)], 1),
            torch.stack([sin, cos + shear[:, 1], _uniform(n, -shift, shift, device)], 1),
        ],
        1,
    )
    grid = F.affine_grid(theta, (n, 3, out, out), align_corners=False)
    y = F.grid_sample(x, grid, mode="bilinear", padding_mode="reflection", align_corners=False)
    few = torch.rand(n, device=device) < small
    if few.any():
        px = int(torch.randint(24, 65, (1,)).item())
        down = F.interpolate(y[few], size=(px, px), mode="area")
        y[few] = F.interpolate(down, size=(out, out), mode="bilinear", align_corners=False)
    return y
