"""The pin map: defaults, the shipped pin file, and clear errors for a bad file."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.pins import CONFIG_ENV, HEADER_PIN, PinConfigError, PinMap, load_pins

SHIPPED = Path(__file__).resolve().parents[2] / "firmware" / "pins.toml"


def test_shipped_pin_file_is_the_defaults() -> None:
    assert load_pins(SHIPPED) == PinMap()


def test_defaults_keep_clear_of_i2c_spi_and_uart() -> None:
    reserved = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15}
    pins = set(PinMap().assignments().values())
    assert len(pins) == 11 and not pins & reserved
    assert pins <= set(HEADER_PIN)


def test_no_file_means_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    assert load_pins() == PinMap()


def test_a_partial_file_changes_only_what_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "pins.toml"
    path.write_text("[buttons]\nroll = 4\nhold_seconds = 0.5\n[buzzer]\npin = false\n")
    monkeypatch.setenv(CONFIG_ENV, str(path))
    pins = load_pins()
    assert (pins.roll, pins.hold_seconds, pins.buzzer) == (4, 0.5, None)
    assert pins.confirm == PinMap().confirm
    assert "buzzer" not in pins.assignments()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[buttons]\nroll = 27\n", "confirm and roll both use GPIO27"),
        ("[buttons]\nroll = 30\n", "GPIO30 is not a GPIO pin"),
        ("[buttons]\nshoot = 4\n", "unknown setting buttons.shoot"),
        ("[lights]\nready = 4\n", "unknown section [lights]"),
        ("[leds]\nready = true\n", "must be a BCM GPIO number"),
        ("[leds]\nready = '5'\n", "must be a BCM GPIO number"),
        ("[leds]\nrgb_active_low = 1\n", "must be true or false"),
        ("[buttons]\nhold_seconds = 9\n", "outside 0.2..5 seconds"),
        ("[buttons]\nhold_seconds = 'long'\n", "number of seconds"),
        ("[buttons\n", "not valid TOML"),
    ],
)
def test_bad_pin_files_say_what_is_wrong(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "pins.toml"
    path.write_text(text)
    with pytest.raises(PinConfigError, match=says.replace("[", r"\[")):
        load_pins(path)


def test_a_missing_pin_file_is_an_error_not_the_defaults(tmp_path: Path) -> None:
    with pytest.raises(PinConfigError, match="cannot read pin file"):
        load_pins(tmp_path / "nope.toml")
