"""Bundled demo frames of a dice tray (rendered by vision.train.render), with the true dice.

The tests read them and replay them as a camera (`make run`'s demo renders each roll afresh:
vision.simulated_camera); `python -m vision.samples.make` renders them again.
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
