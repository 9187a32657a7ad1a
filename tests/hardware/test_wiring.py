"""hardware/wiring.csv is the box as built: it must match the firmware's default pins and the
resistor values worked out in hardware/resistors.py."""

from __future__ import annotations

import csv
import re

import pytest
from hardware_modules import HARDWARE, load

from firmware.pins import GROUND_PINS, HEADER_PIN, PinMap

resistors = load("resistors")


def rows() -> dict[str, dict[str, str]]:
    with open(HARDWARE / "wiring.csv", newline="") as handle:
        return {row["function"]: row for row in csv.DictReader(handle)}


def test_every_wired_part_is_on_its_default_pin() -> None:
    wired = rows()
    assert set(wired) == set(PinMap().assignments())
    for function, bcm in PinMap().assignments().items():
        assert int(wired[function]["bcm"]) == bcm, function
        assert int(wired[function]["header_pin"]) == HEADER_PIN[bcm], function


def test_the_other_ends_go_to_real_ground_and_5v_pins() -> None:
    for row in rows().values():
        for pin in re.findall(r"GND header pin (\d+)", row["other_end"]):
            assert int(pin) in GROUND_PINS, row["function"]
        for pin in re.findall(r"5V header pin (\d+)", row["other_end"]):
            assert int(pin) in (2, 4), row["function"]


def test_resistors_are_the_computed_values() -> None:
    wired = rows()
    for led in resistors.LEDS:
        assert int(wired[led.function]["series_ohm"]) == led.series_ohm, led.function
        if led.base_ohm:
            assert int(wired[led.function]["base_ohm"]) == led.base_ohm, led.function
    assert int(wired["buzzer"]["base_ohm"]) == resistors.base_resistor(resistors.BUZZER_MA)


@pytest.mark.parametrize(
    ("ohms", "at_least", "at_most"), [(219.99, 220, 180), (240, 270, 220), (1955, 2200, 1800)]
)
def test_e12_rounding(ohms: float, at_least: int, at_most: int) -> None:
    assert resistors.e12_at_least(ohms) == at_least
    assert resistors.e12_at_most(ohms) == at_most


def test_no_led_or_pin_is_overdriven() -> None:
    for led in resistors.LEDS:
        assert led.current_ma <= led.target_ma
    assert resistors.gpio_budget_ma() < 50  # the Pi's total for all GPIO pins


def test_the_readme_carries_the_computed_tables() -> None:
    readme = (HARDWARE / "README.md").read_text()
    assert resistors.table() in readme
    assert load("camera_height").table() in readme
