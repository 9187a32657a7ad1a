"""Fixtures for the firmware tests: real gpiozero on MockFactory, a real TableSession on SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from firmware_helpers import FAST_HOLD, FakeClock, ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.history import History
from companion.table import TableSession
from firmware.controller import TurnController
from firmware.devices import Panel


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory(pin_class=MockPWMPin)
    yield made
    made.reset()


@pytest.fixture
def panel(factory: MockFactory) -> Iterator[Panel]:
    made = Panel(FAST_HOLD, factory)
    yield made
    made.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "history.db"


GAME = "monstrous-horde"


@dataclass
class Box:
    """The whole box on a test bench: mock pins, the panel, a real session, the controller."""

    factory: MockFactory
    panel: Panel
    table: TableSession
    dice: ScriptedDice
    clock: FakeClock
    controller: TurnController

    def lit(self, bcm: int) -> float:
        return self.factory.pin(bcm).state

    def colour(self) -> tuple[float, float, float]:
        p = FAST_HOLD
        return tuple(self.lit(b) for b in (p.player_red, p.player_green, p.player_blue))


@pytest.fixture
def box(factory: MockFactory, panel: Panel, db_path: Path, clock: FakeClock) -> Iterator[Box]:
    dice = ScriptedDice()
    table = TableSession(History(db_path), dice)
    table.new_game(GAME, ["Ann", "Bob"])
    controller = TurnController(table, panel, clock=clock)
    yield Box(factory, panel, table, dice, clock, controller)
    controller.close()
    table.history.close()
