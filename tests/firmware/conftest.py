"""Fixtures for the firmware tests: real gpiozero on MockFactory, a real TableSession on SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from firmware_helpers import FAST_HOLD, FakeClock
from gpiozero.pins.mock import MockFactory, MockPWMPin

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
