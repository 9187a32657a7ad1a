"""Bundled demo frames of a dice tray (rendered by vision.train.render), with the true dice.

`make run` replays them as a camera in demo mode and the tests read them; `python -m
vision.samples.make` renders them again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SAMPLES_DIR = Path(__file__).resolve().parent
TRUTH_FILE = SAMPLES_DIR / "truth.json"


def sample_frames() -> list[Path]:
    """The bundled JPEG frames, in replay order."""
    return sorted(SAMPLES_DIR.glob("*.jpg"))


def truth() -> dict[str, list[dict[str, Any]]]:
    """Per frame file name: the dice on it as {"die", "value", "box"}."""
    return json.loads(TRUTH_FILE.read_text())
