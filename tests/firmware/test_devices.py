"""The panel on real gpiozero devices over MockFactory pins: presses in, light levels out."""

from __future__ import annotations

import time

import pytest
from firmware_helpers import FAST_HOLD, hold, tap, wait_for
from gpiozero.pins.mock import MockFactory

from firmware.devices import Beep, Light, Lights, Panel, PressWatcher
from firmware.pins import PinMap


def test_short_and_long_presses_are_told_apart(factory: MockFactory, panel: Panel) -> None:
    seen: list[str] = []
    PressWatcher(panel.confirm, lambda: seen.append("short"), lambda: seen.append("long"))
    tap(factory, FAST_HOLD.confirm)
    hold(factory, FAST_HOLD.confirm, panel.confirm)
    tap(factory, FAST_HOLD.confirm)
    assert seen == ["short", "long", "short"]


def test_a_button_without_a_long_action_reports_every_press_as_short(
    factory: MockFactory, panel: Panel
) -> None:
    seen: list[str] = []
    PressWatcher(panel.roll, lambda: seen.append("short"))
    hold(factory, FAST_HOLD.roll, panel.roll)
    assert seen == ["short"]


def test_steady_lights_drive_their_pins(factory: MockFactory, panel: Panel) -> None:
    panel.show(Lights(ready=Light.ON, attention=Light.ON, player=Light.ON, colour=(1.0, 0.3, 0.0)))
    assert factory.pin(FAST_HOLD.ready).state == 1
    assert factory.pin(FAST_HOLD.reading).state == 0
    assert factory.pin(FAST_HOLD.attention).state == 1
    rgb = [factory.pin(p).state for p in (FAST_HOLD.player_red, FAST_HOLD.player_green,
                                          FAST_HOLD.player_blue)]
    assert rgb == pytest.approx([1.0, 0.3, 0.0])
    panel.show(Lights())
    assert factory.pin(FAST_HOLD.ready).state == 0
    assert factory.pin(FAST_HOLD.player_red).state == 0


def test_a_blinking_light_toggles_and_keeps_its_rhythm(factory: MockFactory, panel: Panel) -> None:
    pin = factory.pin(FAST_HOLD.attention)
    panel.show(Lights(attention=Light.FAST))
    wait_for(lambda: len(pin.states) > 4)  # 0.12 s on / 0.12 s off: on, off, on, off
    assert [s.state for s in pin.states[1:5]] == [1, 0, 1, 0]
    assert 0.05 < pin.states[2].timestamp < 0.5
    panel.show(Lights(attention=Light.FAST, ready=Light.ON))  # unrelated change: no restart
    assert panel.attention._blink_thread is not None
    panel.show(Lights())
    assert pin.state == 0


def test_an_active_low_rgb_led_inverts_the_levels(factory: MockFactory) -> None:
    panel = Panel(PinMap(rgb_active_low=True), factory)
    try:
        panel.show(Lights(player=Light.ON, colour=(0.0, 0.0, 1.0)))
        assert factory.pin(PinMap().player_blue).state == 0  # sinks current: lit
        assert factory.pin(PinMap().player_red).state == 1
    finally:
        panel.close()


def test_beeps_sound_only_when_a_buzzer_is_fitted(factory: MockFactory) -> None:
    with_buzzer = Panel(FAST_HOLD, factory)
    with_buzzer.beep(Beep.DOUBLE)
    buzzer = factory.pin(FAST_HOLD.buzzer)
    wait_for(lambda: len(buzzer.states) >= 5)
    time.sleep(0.3)  # a double beep stops after two: nothing more comes
    assert [s.state for s in buzzer.states][1:] == [1, 0, 1, 0]
    with_buzzer.close()
    silent = Panel(PinMap(buzzer=None), factory)
    silent.beep(Beep.LONG)  # no buzzer: nothing to drive, nothing raised
    assert silent.buzzer is None
    silent.close()
