"""The two phones the panel's browser tests of issue 54 are sized as, and where their
screenshots go (artifacts/, beside the other browser tests')."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import test_browser as harness
from panel_support import GAME, PLAYERS, play

from companion.history import History
from companion.table import TableSession

PHONES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]
SIZE_IDS = {"ids": lambda s: f"{s['width']}x{s['height']}"}


def shot(name: str, size: dict) -> str:
    """The screenshot's path for a page `name` on a phone of `size`."""
    harness.ARTIFACTS.mkdir(exist_ok=True)
    return str(harness.ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png")


def new_table(tmp_path: Path, game: str = GAME, until: Callable[[dict], bool] | None = None,
              seed: int = 1) -> TableSession:
    """A table in SQLite under tmp_path playing `game` with the test players, played on with a
    seeded chooser until `until(snapshot)` holds (when given)."""
    table = TableSession(History(tmp_path / "phones.db"))
    table.new_game(game, PLAYERS)
    if until is not None:
        play(table, random.Random(seed), until)
    return table
