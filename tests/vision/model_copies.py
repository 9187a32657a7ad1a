"""Copies of the shipped models with a changed card, for tests of how cards are read."""

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from vision.classify import DEFAULT_MODEL


def model_with_card(tmp_path: Path, change: Callable[[dict], object] = lambda card: None) -> Path:
    """A copy of the shipped dice model (and the numeral reader its card names) whose card is
    changed by `change(card)`."""
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    shutil.copy(DEFAULT_MODEL, tmp_path / DEFAULT_MODEL.name)
    if "numerals" in card:
        numerals = DEFAULT_MODEL.parent / card["numerals"]["file"]
        shutil.copy(numerals, tmp_path / numerals.name)
        shutil.copy(numerals.with_suffix(".json"), tmp_path / numerals.with_suffix(".json").name)
    change(card)
    (tmp_path / DEFAULT_MODEL.with_suffix(".json").name).write_text(json.dumps(card))
    return tmp_path / DEFAULT_MODEL.name
