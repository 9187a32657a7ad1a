"""A simulated tray camera for the demo: each throw renders the very dice the game asked for.

`rollscribe serve --demo` has no dice and no camera, yet the players should see the real loop:
roll, read, check, choose, score. Told what was thrown (`throw`), this source renders a tray
holding exactly those dice with random faces (vision.train.render: numpy and OpenCV, no torch),
then hands out a few frames of them sliding to rest before the still tray, so the reader's own
settle check runs and the real detector and classifier read the frame. The true dice of each
throw are kept (`thrown`), so a bench can say how often the reader gets its own renders right.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.reading import UnreadableRoll
from vision.capture import ClosingSource, check_frame
from vision.detect import skin_hand
from vision.train.labels import KINDS
from vision.train.render import render_tray

SIZE = (1280, 960)  # the tray camera's frame (vision.capture's cameras ask for this)
SLIDING_FRAMES = 4  # frames of dice still moving before they come to rest
SLIDE = 1.5  # how far a die slides in, at first, in its own widths
TRIES = 20  # seeds tried for a throw that places every die and no patch of table like a hand
Thrown = tuple[str, int, tuple[int, int, int, int]]  # a die's kind, top value and box


class SimulatedTray(ClosingSource):
    """A FrameSource over rendered throws; `seed` makes its throws repeatable."""

    def __init__(self, seed: int | None = None, size: tuple[int, int] = SIZE) -> None:
        self.size = size
        self._seeds = np.random.default_rng(seed)
        self._frames: list[np.ndarray] = []  # the throw's frames still to hand out, last at rest
        self.thrown: list[Thrown] = []

    def throw(self, kinds: Sequence[str]) -> list[Thrown]:
        """Roll `kinds` (standard dice; UnreadableRoll for one it has no drawing of) into the
        tray: the frames after this show them sliding in, then at rest. Returns the true dice."""
        cannot = sorted(set(kinds) - set(KINDS))
        if cannot:
            raise UnreadableRoll(
                f"the demo camera cannot draw a {', '.join(cannot)} die (it draws "
                f"{', '.join(KINDS)}): type this roll in instead"
            )
        for _ in range(TRIES):
            seed = int(self._seeds.integers(2**31))
            still, dice = render_tray(len(kinds), seed, self.size, list(kinds))
            # every die placed, and no wooden table the hand check would take for a hand
            if sorted(k for k, _, _ in dice) == sorted(kinds) and not skin_hand(still):
                break
        else:  # pragma: no cover - every throw of up to 25 dice is placed within a few seeds
            raise UnreadableRoll(f"could not lay out {len(kinds)} dice: type this roll in")
        empty, _ = render_tray(0, seed, self.size)  # the same tray and light, no dice yet
        self._frames = [*_sliding(still, empty, dice, self._seeds), still]
        self.thrown = dice
        return dice

    def read(self) -> np.ndarray:
        """The next frame of the throw; once at rest, the still tray again and again."""
        if not self._frames:  # nothing thrown yet: an empty tray
            self._frames = [render_tray(0, int(self._seeds.integers(2**31)), self.size)[0]]
        frame = self._frames.pop(0) if len(self._frames) > 1 else self._frames[0]
        return check_frame(frame, "simulated tray")

    def close(self) -> None:
        self._frames = []


def _sliding(
    still: np.ndarray, empty: np.ndarray, dice: Sequence[Thrown], rng: np.random.Generator
) -> list[np.ndarray]:
    """SLIDING_FRAMES frames of the dice coming to rest: each die's patch of the still frame
    drawn on the empty tray, each frame nearer to where it stops."""
    h, w = still.shape[:2]
    starts = rng.uniform(-SLIDE, SLIDE, (len(dice), 2))
    frames = []
    for step in range(SLIDING_FRAMES, 0, -1):
        frame = empty.copy()
        for (_, _, (x0, y0, x1, y1)), (sx, sy) in zip(dice, starts, strict=True):
            share = step / SLIDING_FRAMES
            dx = int(np.clip(sx * share * (x1 - x0), -x0, w - x1))
            dy = int(np.clip(sy * share * (y1 - y0), -y0, h - y1))
            frame[y0 + dy : y1 + dy, x0 + dx : x1 + dx] = still[y0:y1, x0:x1]
        frames.append(frame)
    return frames
