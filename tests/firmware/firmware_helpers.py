"""Helpers shared by the firmware tests: a hand-moved clock and button presses on mock pins."""

from __future__ import annotations

import time
from collections.abc import Callable

from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from companion.reading import DieReading, TrayReading
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




class ScriptedDice:
    """A dice source for the table that hands out prepared readings or raises prepared errors,
    recording which dice the table asked for."""

    def __init__(self) -> None:
        self.script: list[TrayReading | Exception] = []
        self.asked: list[list[str] | None] = []

    def __call__(self, expect: list[str] | None) -> TrayReading:
        self.asked.append(expect)
        outcome = self.script.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome


def d6(value: int, *, unsure: bool = False) -> TrayReading:
    """One six-sided die as the camera would report it."""
    die = DieReading("d6", value, 0.4 if unsure else 0.98, (10, 10, 50, 50), unsure,
                     "low confidence" if unsure else "")
    return TrayReading((die,), None, 640, 480)


def wait_for(condition: Callable[[], object], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never came true"
        time.sleep(0.01)
