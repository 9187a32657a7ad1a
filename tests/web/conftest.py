"""Fixtures for the panel: a table over a fresh SQLite file, the app, clients with and without
the PIN, and `play_roll` which rolls whatever the game wants with a seeded roller."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from table_pig import games as lookup

from companion.history import History
from companion.rules.core import Roll, RollRequest
from companion.table import TableSession
from companion.web import create_app

GAME = "pig"
PLAYERS = ["Ann", "Bob"]
PIN = "2468"


@pytest.fixture
def table(tmp_path):
    return TableSession(History(tmp_path / "panel.db", lookup))


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
    wanted = RollRequest.from_json(snapshot["roll_wanted"])
    return Roll.random(wanted, random.Random(seed)).text()
