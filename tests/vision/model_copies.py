"""Copies of the shipped models with a changed card, for tests of how cards are read."""

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from vision.classify import DEFAULT_MODEL, EXPERTS, LINKED


def model_with_card(tmp_path: Path, change: Callable[[dict], object] = lambda card: None) -> Path:
    """A copy in tmp_path (made if need be) of the shipped dice model and the patch readers and
    kind experts its card names, the card changed by `change(card)`."""
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    tmp_path.mkdir(parents=True, exist_ok=True)
    shutil.copy(DEFAULT_MODEL, tmp_path / DEFAULT_MODEL.name)
    files = [card[key]["file"] for key in LINKED if key in card]
    for name in files + [entry["file"] for entry in card.get(EXPERTS, [])]:
        linked = DEFAULT_MODEL.parent / name
        shutil.copy(linked, tmp_path / linked.name)
        shutil.copy(linked.with_suffix(".json"), tmp_path / linked.with_suffix(".json").name)
    change(card)
    (tmp_path / DEFAULT_MODEL.with_suffix(".json").name).write_text(json.dumps(card))
    return tmp_path / DEFAULT_MODEL.name


def without_readers(card: dict) -> None:
    """A card change: link no patch reader nor kind expert (the dice model reads every value
    alone)."""
    for key in (*LINKED, EXPERTS):
        card.pop(key, None)


def only_reader(key: str) -> Callable[[dict], None]:
    """A card change: link the patch reader under `key` alone (no other reader, no expert)."""

    def change(card: dict) -> None:
        for other in (*LINKED, EXPERTS):
            if other != key:
                card.pop(other, None)

    return change


def linked_file(key: str) -> Path:
    """The shipped file of the patch reader the shipped dice card links under `key`."""
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    return DEFAULT_MODEL.parent / card[key]["file"]
