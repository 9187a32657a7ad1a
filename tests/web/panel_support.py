"""Fixtures for the panel: a table over a fresh SQLite file, the app, clients with and without
the PIN, and `roll_text`: whatever roll the game wants, from a seeded roller."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from table_support import GAME, PLAYERS, fitting_roll

from companion.history import History
from companion.table import TableSession
from companion.web import create_app

PIN = "2468"
__all__ = ["GAME", "PIN", "PLAYERS", "roll_text"]


@pytest.fixture
def table(tmp_path):
    return TableSession(History(tmp_path / "panel.db"))


@pytest.fixture
def app(table):
    return create_app({"TESTING": True, "TABLE": table, "PIN": PIN})


@pytest.fixture
def watcher(app):
    return app.test_client()


@pytest.fixture
def player(app):
    client = app.test_client()
    assert client.post("/api/pin", json={"pin": PIN}).status_code == 200
    return client


def roll_text(snapshot: dict, seed: int = 1) -> str:
    """A roll that fits what the game wants now, from a seeded roller."""
    return fitting_roll(snapshot, random.Random(seed)).text()
