"""Shared by the panel tests: the game, the table PIN, and a roll that fits what is wanted.

The fixtures live in panel_fixtures.py (loaded with `pytest_plugins`), not in a conftest.py:
other test folders import their own `conftest` by name, and two modules called `conftest`
would shadow each other in one pytest run.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from table_support import GAME, PLAYERS, fitting_roll, play  # noqa: F401 - shared

PIN = "2468"
__all__ = ["GAME", "PIN", "PLAYERS", "roll_text"]


def roll_text(snapshot: dict, seed: int = 1) -> str:
    """A roll that fits what the game wants now, from a seeded roller."""
    return fitting_roll(snapshot, random.Random(seed)).text()
