"""Helpers shared by the firmware tests: a hand-moved clock and button presses on mock pins."""

from __future__ import annotations

import time

from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from firmware.pins import PinMap

FAST_HOLD = PinMap(hold_seconds=0.2)  # the shortest long press the pin file allows


class FakeClock:
    """A clock the test moves by hand, so flashes end without sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def hold(factory: MockFactory, bcm: int, button: Button) -> None:
    """Press a button until gpiozero calls it held, then let go."""
    pin = factory.pin(bcm)
    pin.drive_low()
    deadline = time.monotonic() + 3
    while not button.is_held:
        assert time.monotonic() < deadline, "gpiozero never reported the hold"
        time.sleep(0.01)
    pin.drive_high()


def tap(factory: MockFactory, bcm: int) -> None:
    factory.pin(bcm).drive_low()
    factory.pin(bcm).drive_high()


