"""Render the bundled demo frames again: `python -m vision.samples.make`.

Small on purpose (a few frames, JPEG quality 80): they ship in the repository.
"""

from __future__ import annotations

import json

import cv2

from vision.samples import SAMPLES_DIR, TRUTH_FILE
from vision.train.render import render_tray

# (seed, number of dice, kinds cycled through or None for any): a roll of a few mixed dice,
# a big handful with touching dice, the classic set, a single d20.
FRAMES = (
    (101, 5, None),
    (202, 12, None),
    (303, 7, ["d4", "d6", "d8", "d10", "d%", "d12", "d20"]),
    (404, 1, ["d20"]),
)


def main() -> None:
    for old in SAMPLES_DIR.glob("*.jpg"):
        old.unlink()
    truth = {}
    for i, (seed, count, kinds) in enumerate(FRAMES, 1):
        image, dice = render_tray(count, seed, kinds=kinds)
        name = f"tray-{i:02d}.jpg"
        cv2.imwrite(str(SAMPLES_DIR / name), image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        truth[name] = [{"die": k, "value": v, "box": list(b)} for k, v, b in dice]
    TRUTH_FILE.write_text(json.dumps(truth, indent=1) + "\n")


if __name__ == "__main__":
    main()
