"""The physical panel: four buttons, three status LEDs, an RGB LED for the player, a buzzer.

The pin factory is always passed in (lgpio on a Pi 4/5, gpiozero's MockFactory in tests), so the
same code runs the real box and the tests. Buttons report *short* and *long* presses: a long press
fires once the button has been held for `hold_seconds`, and the release after it is not also a
short press, so "end turn" never plays a move by accident.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gpiozero import LED, RGBLED, Button, Buzzer

from .pins import PinMap

Colour = tuple[float, float, float]
OFF_COLOUR: Colour = (0.0, 0.0, 0.0)
BOUNCE_SECONDS = 0.03  # arcade microswitches chatter for a few milliseconds


class Light(Enum):
    """How one LED is lit. Blink rates differ enough to tell apart at a glance."""

    OFF = "off"
    ON = "on"
    SLOW = "slow blink"  # 0.6 s on / 0.6 s off
    FAST = "fast blink"  # 0.12 s on / 0.12 s off


BLINK_TIMES: dict[Light, tuple[float, float]] = {Light.SLOW: (0.6, 0.6), Light.FAST: (0.12, 0.12)}


class Beep(Enum):
    """Buzzer cues, each a count of beeps of one length (seconds)."""

    NONE = (0, 0.0)
    SHORT = (1, 0.08)
    DOUBLE = (2, 0.08)
    TRIPLE = (3, 0.15)
    LONG = (1, 0.6)
    BUZZ = (1, 0.3)


@dataclass(frozen=True)
class Lights:
    """What every light on the panel shows at one moment."""

    ready: Light = Light.OFF
    reading: Light = Light.OFF
    attention: Light = Light.OFF
    player: Light = Light.OFF
    colour: Colour = OFF_COLOUR


class PressWatcher:
    """Turns a gpiozero Button's pressed/held/released events into short and long presses.

    The long action fires as soon as gpiozero reports the hold (the player feels it happen);
    a release that beats gpiozero's hold thread by a hair still counts as long. Each press
    fires exactly one action.
    """

    def __init__(
        self,
        button: Button,
        on_short: Callable[[], Any],
        on_long: Callable[[], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._button = button
        self._on_short = on_short
        self._on_long = on_long
        self._clock = clock
        self._lock = threading.Lock()
        self._since = 0.0
        self._done = True
        button.when_pressed = self._pressed
        if on_long is not None:
            button.when_held = self._held
        button.when_released = self._released

    def _pressed(self) -> None:
        with self._lock:
            self._since, self._done = self._clock(), False

    def _held(self) -> None:
        with self._lock:
            if not self._done:
                self._done = True
                assert self._on_long is not None
                self._on_long()

    def _released(self) -> None:
        with self._lock:
            if self._done:
                return
            self._done = True
            long = self._clock() - self._since >= self._button.hold_time
            action = self._on_long if long and self._on_long is not None else self._on_short
            action()


class Panel:
    """The buttons and lights on their pins. `show()` only touches LEDs whose state changed, so
    a blinking light keeps its rhythm while the controller refreshes."""

    def __init__(self, pins: PinMap, pin_factory: Any) -> None:
        self.pins = pins

        def button(pin: int) -> Button:
            return Button(
                pin, pull_up=True, bounce_time=BOUNCE_SECONDS, hold_time=pins.hold_seconds,
                pin_factory=pin_factory,
            )

        self.roll = button(pins.roll)
        self.confirm = button(pins.confirm)
        self.undo = button(pins.undo)
        self.next = button(pins.next)
        self.ready = LED(pins.ready, pin_factory=pin_factory)
        self.reading = LED(pins.reading, pin_factory=pin_factory)
        self.attention = LED(pins.attention, pin_factory=pin_factory)
        self.player = RGBLED(
            pins.player_red, pins.player_green, pins.player_blue,
            active_high=not pins.rgb_active_low, pwm=True, pin_factory=pin_factory,
        )
        self.buzzer = (
            Buzzer(pins.buzzer, pin_factory=pin_factory) if pins.buzzer is not None else None
        )
        self._shown = Lights()
        self._lock = threading.Lock()

    @property
    def shown(self) -> Lights:
        return self._shown

    def show(self, lights: Lights) -> None:
        with self._lock:
            old, self._shown = self._shown, lights
            for name in ("ready", "reading", "attention"):
                if getattr(old, name) != getattr(lights, name):
                    _drive(getattr(self, name), getattr(lights, name))
            if (old.player, old.colour) != (lights.player, lights.colour):
                self._show_player(lights)

    def _show_player(self, lights: Lights) -> None:
        if lights.player is Light.OFF or lights.colour == OFF_COLOUR:
            self.player.off()
        elif lights.player is Light.ON:
            self.player.color = lights.colour
        else:
            on, off = BLINK_TIMES[lights.player]
            self.player.blink(on_time=on, off_time=off, on_color=lights.colour)

    def beep(self, beep: Beep) -> None:
        count, length = beep.value
        if self.buzzer is not None and count:
            self.buzzer.blink(on_time=length, off_time=0.1, n=count, background=True)

    def close(self) -> None:
        for device in (self.roll, self.confirm, self.undo, self.next, self.ready, self.reading,
                       self.attention, self.player, self.buzzer):
            if device is not None:
                device.close()


def _drive(led: LED, light: Light) -> None:
    if light is Light.ON:
        led.on()
    elif light is Light.OFF:
        led.off()
    else:
        on, off = BLINK_TIMES[light]
        led.blink(on_time=on, off_time=off)
