"""Which GPIO pin does what: a pin map read from a TOML file, with BCM defaults that avoid the
I2C, SPI and UART pins so a HAT or a serial console can still be added later.

The same defaults are the wiring table in hardware/wiring.csv (a test checks they agree), so the
box built from the hardware docs works without any config file.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

CONFIG_ENV = "ROLLSCRIBE_PINS"
"""Environment variable naming the pin file; install.sh points it at /etc/rollscribe/pins.toml."""

# BCM GPIO number -> physical pin on the 40-pin header (identical on Pi 4 and Pi 5).
HEADER_PIN: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)


class PinConfigError(ValueError):
    """The pin file is unreadable, names an unknown setting, or reuses a pin."""


@dataclass(frozen=True)
class PinMap:
    """BCM pin numbers of every part on the button/LED panel, and how long a long press is."""

    roll: int = 17
    confirm: int = 27
    undo: int = 22
    next: int = 23
    ready: int = 5
    reading: int = 6
    attention: int = 13
    player_red: int = 12
    player_green: int = 16
    player_blue: int = 26
    buzzer: int | None = 24
    hold_seconds: float = 1.0  # a press this long is a long press (end turn, undo the turn)
    rgb_active_low: bool = False  # True when the colour pins sink LED current (no transistors)

    BUTTONS = ("roll", "confirm", "undo", "next")
    LEDS = ("ready", "reading", "attention", "player_red", "player_green", "player_blue")

    def __post_init__(self) -> None:
        used: dict[int, str] = {}
        for name, pin in self.assignments().items():
            if pin not in HEADER_PIN:
                raise PinConfigError(f"{name}: GPIO{pin} is not a GPIO pin on the 40-pin header")
            if pin in used:
                raise PinConfigError(f"{name} and {used[pin]} both use GPIO{pin}")
            used[pin] = name
        if not 0.2 <= self.hold_seconds <= 5:
            raise PinConfigError(f"hold_seconds {self.hold_seconds} is outside 0.2..5 seconds")

    def assignments(self) -> dict[str, int]:
        """Every part that is wired, by name -> BCM number (the buzzer only when fitted)."""
        names = (*self.BUTTONS, *self.LEDS, "buzzer")
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}


# TOML sections -> the PinMap fields each may set.
_SECTIONS: dict[str, tuple[str, ...]] = {
    "buttons": (*PinMap.BUTTONS, "hold_seconds"),
    "leds": (*PinMap.LEDS, "rgb_active_low"),
    "buzzer": ("pin",),
}


def parse_pins(data: dict[str, Any]) -> PinMap:
    """A PinMap from parsed TOML: missing settings keep their defaults, unknown ones are errors."""
    changes: dict[str, Any] = {}
    for section, values in data.items():
        if section not in _SECTIONS or not isinstance(values, dict):
            raise PinConfigError(f"unknown section [{section}]; known: {', '.join(_SECTIONS)}")
        for key, value in values.items():
            if key not in _SECTIONS[section]:
                allowed = ", ".join(_SECTIONS[section])
                raise PinConfigError(f"unknown setting {section}.{key}; known: {allowed}")
            field = "buzzer" if section == "buzzer" else key
            changes[field] = _checked(f"{section}.{key}", field, value)
    return replace(PinMap(), **changes)


def _checked(where: str, field: str, value: Any) -> Any:
    kind = {f.name: f.type for f in fields(PinMap)}[field]
    if kind == "bool":
        if not isinstance(value, bool):
            raise PinConfigError(f"{where} must be true or false, not {value!r}")
    elif kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PinConfigError(f"{where} must be a number of seconds, not {value!r}")
    elif field == "buzzer" and value is False:
        return None  # `pin = false` means no buzzer fitted
    elif isinstance(value, bool) or not isinstance(value, int):
        raise PinConfigError(f"{where} must be a BCM GPIO number, not {value!r}")
    return value


def load_pins(path: Path | str | None = None) -> PinMap:
    """Read the pin file (argument, else $ROLLSCRIBE_PINS); no file at all means the defaults."""
    chosen = path if path is not None else os.environ.get(CONFIG_ENV)
    if not chosen:
        return PinMap()
    try:
        with open(chosen, "rb") as handle:
            return parse_pins(tomllib.load(handle))
    except OSError as exc:
        raise PinConfigError(f"cannot read pin file {chosen}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise PinConfigError(f"pin file {chosen} is not valid TOML: {exc}") from exc
