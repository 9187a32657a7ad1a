"""Helpers shared by the firmware tests: a hand-moved clock and button presses on mock pins."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from companion.reading import DieReading, TrayReading
from companion.rules.dice import FaceValue, die_kind
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
    """The table's dice source on the test bench: like a camera over a tray of fairly rolled
    dice (the kinds the game asks for, values from a seeded roller), except that a test can
    queue what the next reads give instead: an error, or an unsure die."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.queued: list[Exception | str] = []
        self.asked: list[list[str] | None] = []

    def __call__(self, expect: list[str] | None) -> TrayReading:
        self.asked.append(expect)
        step = self.queued.pop(0) if self.queued else "sure"
        if isinstance(step, Exception):
            raise step
        kinds = expect or ["d6"]
        return tray([(k, die_kind(k).roll(self.rng)) for k in kinds], unsure=step == "unsure")


def tray(dice: list[tuple[str, FaceValue]], *, unsure: bool = False) -> TrayReading:
    """A camera reading of these dice; with `unsure`, the first die is low-confidence."""
    return TrayReading(tuple(
        DieReading(kind, value, 0.4 if unsure and i == 0 else 0.98,
                   (10 + 60 * i, 10, 60 + 60 * i, 60), unsure and i == 0,
                   "low confidence" if unsure and i == 0 else "")
        for i, (kind, value) in enumerate(dice)), None, 640, 480)


def wait_for(condition: Callable[[], object], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never came true"
        time.sleep(0.01)
