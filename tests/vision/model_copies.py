"""Copies of the shipped models with a changed card, for tests of how cards are read."""

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from vision.classify import DEFAULT_MODEL, LINKED


def model_with_card(tmp_path: Path, change: Callable[[dict], object] = lambda card: None) -> Path:
    """A copy in tmp_path (made if need be) of the shipped dice model and the patch readers its
    card names, the card changed by `change(card)`."""
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    tmp_path.mkdir(parents=True, exist_ok=True)
    shutil.copy(DEFAULT_MODEL, tmp_path / DEFAULT_MODEL.name)
    for key in LINKED:
        if key in card:
            reader = DEFAULT_MODEL.parent / card[key]["file"]
            shutil.copy(reader, tmp_path / reader.name)
            shutil.copy(reader.with_suffix(".json"), tmp_path / reader.with_suffix(".json").name)
    change(card)
    (tmp_path / DEFAULT_MODEL.with_suffix(".json").name).write_text(json.dumps(card))
    return tmp_path / DEFAULT_MODEL.name


def without_readers(card: dict) -> None:
    """A card change: link no patch reader (the dice model reads every value alone)."""
    for key in LINKED:
        card.pop(key, None)


def linked_file(key: str) -> Path:
    """The shipped file of the patch reader the shipped dice card links under `key`."""
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    return DEFAULT_MODEL.parent / card[key]["file"]
