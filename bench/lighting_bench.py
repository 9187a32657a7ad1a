"""How the reader's accuracy moves with the tray's light and colour: the figures behind the
lighting and tray advice in hardware/README.md.

Rendered trays with known dice (the vision renderer), each read by the real DiceReader and the
shipped model under the same light changes a box meets at a table: dim, over-bright, a hard
shadow across half the tray, a warm lamp, a lens slightly out of focus. Per condition: the share
of dice read right and sure, flagged unsure (a player checks them), and read wrong yet sure (the
harmful case, which only a player's eye catches). Then, in plain light, the same by the tray
floor's lightness and texture. Deterministic (fixed seeds): one run is the figure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

FRAMES = 24
DICE_PER_FRAME = 5


def dim(frame: np.ndarray) -> np.ndarray:
    return (frame * 0.35).astype(np.uint8)


def over_bright(frame: np.ndarray) -> np.ndarray:
    return np.clip(frame * 1.7, 0, 255).astype(np.uint8)


def hard_shadow(frame: np.ndarray) -> np.ndarray:
    out = frame.copy()
    out[:, frame.shape[1] // 2 :] = (out[:, frame.shape[1] // 2 :] * 0.4).astype(np.uint8)
    return out


def warm_lamp(frame: np.ndarray) -> np.ndarray:
    return np.clip(frame * np.float32([0.65, 0.9, 1.1]), 0, 255).astype(np.uint8)


def soft_focus(frame: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(frame, (0, 0), 2.5)


CONDITIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "even light (as rendered)": lambda f: f,
    "dim (35%)": dim,
    "over-bright (170%, clipped)": over_bright,
    "hard shadow over half": hard_shadow,
    "warm lamp (blue -35%)": warm_lamp,
    "lens out of focus (blur 2.5 px)": soft_focus,
}


@dataclass
class Tally:
    dice: int = 0
    right: int = 0
    face_right: int = 0  # kind and value right, sure or not
    unsure: int = 0
    sure_wrong: int = 0
    missed: int = 0

    def add(self, truth: list[tuple[str, int, tuple]], reading: object) -> None:
        dice = list(reading.dice)  # type: ignore[attr-defined]
        for kind, value, box in truth:
            self.dice += 1
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            reach = max(box[2] - box[0], box[3] - box[1]) / 2
            near = [
                d
                for d in dice
                if abs((d.box[0] + d.box[2]) / 2 - cx) < reach
                and abs((d.box[1] + d.box[3]) / 2 - cy) < reach
            ]
            if not near:
                self.missed += 1
                continue
            die = near[0]
            dice.remove(die)
            self.face_right += (die.die, die.value) == (kind, value)
            if die.unsure:
                self.unsure += 1
            elif (die.die, die.value) == (kind, value):
                self.right += 1
            else:
                self.sure_wrong += 1

    def row(self, name: str) -> str:
        def pct(n: int) -> str:
            return f"{100 * n / self.dice:.0f}%" if self.dice else "-"

        return (
            f"| {name} | {self.dice} | {pct(self.missed)} | {pct(self.face_right)} | "
            f"{pct(self.right)} | {pct(self.unsure)} | {pct(self.sure_wrong)} |"
        )


HEADER = (
    "| condition | dice | not found | face read right | right and sure | unsure (checked) "
    "| wrong yet sure |\n| --- | --- | --- | --- | --- | --- | --- |"
)


def floor_of(frame: np.ndarray, truth: list[tuple[str, int, tuple]]) -> tuple[str, str]:
    """The tray floor's lightness and texture, measured away from the dice."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    mask[h // 8 : h - h // 8, w // 8 : w - w // 8] = 1
    for _, _, (x0, y0, x1, y1) in truth:
        mask[max(0, y0 - 10) : y1 + 10, max(0, x0 - 10) : x1 + 10] = 0
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    lightness = float(np.median(grey[mask == 1]))
    texture = float(np.abs(cv2.Laplacian(grey, cv2.CV_32F))[mask == 1].mean())
    shade = "dark floor" if lightness < 85 else "light floor" if lightness > 170 else "mid floor"
    return shade, "plain" if texture < 4 else "textured"


def main(model_path: str | None = None) -> None:
    from vision.errors import ModelError
    from vision.reader import DiceReader
    from vision.train.render import render_tray

    try:
        reader = DiceReader(model_path)
    except ModelError as exc:
        print(f"lighting bench skipped: {exc}")
        return
    trays = [render_tray(DICE_PER_FRAME, 9000 + seed) for seed in range(FRAMES)]
    print(
        f"{FRAMES} rendered trays x {DICE_PER_FRAME} dice, read by {reader.classifier.model_path}"
    )
    print(HEADER)
    for name, change in CONDITIONS.items():
        tally = Tally()
        for frame, truth in trays:
            tally.add(truth, reader.read_frame(change(frame)))
        print(tally.row(name))
    groups: dict[str, Tally] = defaultdict(Tally)
    for frame, truth in trays:
        reading = reader.read_frame(frame)
        for group in floor_of(frame, truth):
            groups[group].add(truth, reading)
    print("\nEven light, by tray floor:")
    print(HEADER.replace("condition", "tray floor"))
    for name in sorted(groups):
        print(groups[name].row(name))


if __name__ == "__main__":
    main()
