"""Copies of a shipped model with a changed card, for tests of how cards are read."""

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from vision.classify import DEFAULT_MODEL


def model_with_card(
    tmp_path: Path,
    change: Callable[[dict], object] = lambda card: None,
    model: Path = DEFAULT_MODEL,
) -> Path:
    """A copy in tmp_path (made if need be) of a shipped model (the dice classifier unless
    another is named), its card changed by `change(card)`."""
    card = json.loads(model.with_suffix(".json").read_text())
    tmp_path.mkdir(parents=True, exist_ok=True)
    shutil.copy(model, tmp_path / model.name)
    change(card)
    (tmp_path / model.with_suffix(".json").name).write_text(json.dumps(card))
    return tmp_path / model.name
