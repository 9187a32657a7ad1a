"""Health checks of the box, each saying in plain words what it found and what to do.

`rollscribe doctor` prints them; the same checks make good fault probes for the controller
(`probe(check_database, path)`), so the box clears a fault by the very test a person would run.
Every check catches its own errors: a broken part is a result here, never a traceback.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from companion.network import (
    MdnsName,
    NetworkError,
    load_settings,
    network_status,
    settings_path,
)

from .pins import PinConfigError, load_pins

MIN_FREE_MB = 200  # below this the history may fail to write a roll's picture
LOW_FREE_MB = 1000
DARK_MEAN, BRIGHT_MEAN = 25, 230  # mean grey level of a usable tray picture


class Status(Enum):
    OK = "ok"
    WARN = "warning"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    found: str  # what the check saw
    advice: str = ""  # what to do about it (empty when all is well)

    @property
    def failed(self) -> bool:
        return self.status is Status.FAIL


def check_camera(spec: str) -> Check:
    """Open the camera by its source spec and look at one frame."""
    try:
        from vision.capture import open_source
        from vision.errors import VisionError
    except ImportError as exc:
        return Check("camera", Status.FAIL, f"the vision package cannot load: {exc}",
                     "reinstall Rollscribe (firmware/install.sh)")
    try:
        with open_source(spec) as source:
            frame = source.read()
    except (VisionError, ValueError, OSError) as exc:
        advice = ("check that the replay folder or video exists" if spec.startswith("replay:")
                  else "check the camera's ribbon is seated at both ends (or its USB plug), that "
                  "the lens is uncovered, and that no other program (or the rollscribe service) "
                  "is using the camera")
        return Check("camera", Status.FAIL, f"{spec}: {exc}", advice)
    height, width = frame.shape[:2]
    mean = float(frame.mean())
    found = f"{spec} gave a {width}x{height} picture, mean brightness {mean:.0f}/255"
    if mean < DARK_MEAN:
        return Check("camera", Status.WARN, found, "the tray looks dark: switch its light on")
    if mean > BRIGHT_MEAN:
        return Check("camera", Status.WARN, found, "the tray looks washed out: dim or diffuse "
                     "the light, or move it away from the lens")
    return Check("camera", Status.OK, found)


def check_gpio(mode: str, pins_path: Path | str | None = None) -> Check:
    """Claim every panel pin through the chosen pin factory, then let them go."""
    try:
        pins = load_pins(pins_path)
    except PinConfigError as exc:
        return Check("gpio", Status.FAIL, str(exc), "fix the pin file (see firmware/pins.toml)")
    if mode == "none":
        return Check("gpio", Status.OK, "no buttons or lights asked for (--gpio none)")
    try:
        factory = _pin_factory(mode)
        from .devices import Panel

        Panel(pins, factory).close()
    except Exception as exc:  # noqa: BLE001 - lgpio and gpiozero raise many unrelated types
        return Check("gpio", Status.FAIL, f"{mode} pins: {type(exc).__name__}: {exc}",
                     "on a Pi 4/5: `sudo apt install python3-lgpio`, add the user to the gpio "
                     "group, and stop the rollscribe service while doctor runs")
    used = ", ".join(f"{name} GPIO{pin}" for name, pin in pins.assignments().items())
    return Check("gpio", Status.OK, f"{mode} pins claimed and released: {used}")


def _pin_factory(mode: str) -> Any:
    if mode == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    if mode == "pi":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    raise ValueError(f"unknown GPIO mode {mode!r}: use pi, mock or none")


def check_model(model_path: Path | str | None = None) -> Check:
    """Load the models the way the reader does (the shipped detector, the dice classifier,
    `model_path` or the shipped one, the numerals' recognizer, the table memory's key, and the
    die check fitted for the shipped two), so a missing, truncated or mismatched file shows
    here."""
    try:
        from vision.classify import Classifier
        from vision.detect import Detector
        from vision.die_check import DieCheck
        from vision.memory_key import MemoryKey
        from vision.numerals import NumeralReader

        detector = Detector()
        classifier = Classifier(model_path)
        numerals = NumeralReader(threads=1)
        key = MemoryKey()
        if model_path is None:  # fitted for the shipped models only
            DieCheck(classifier.card["sha256"], detector.card["sha256"])
    except Exception as exc:  # noqa: BLE001 - ModelError, onnxruntime's own, ImportError
        return Check("model", Status.FAIL, f"{type(exc).__name__}: {exc}",
                     "reinstall Rollscribe so models/ holds the .onnx files and their .json cards")
    found = "; ".join(f"{what} {loaded.model_path} loads (version {loaded.card.get('version', '?')})"
                      for what, loaded in (("classifier", classifier), ("detector", detector)))
    found += f"; numerals {numerals.model_path} loads; memory key {key.model_path} loads"
    if model_path is None:
        found += "; the die check fits them"
    checked = ", ".join(classifier.always_check)
    if checked:
        found += (f"; a {checked} value by the classifier alone (no numeral read, no pips "
                  "settling it) waits for a player's check (model card)")
    return Check("model", Status.OK, found)


def check_database(db_path: Path | str) -> Check:
    """The history database opens, is whole and takes a write (rolled back): said in the words
    the table's panel uses for the same fault (companion.faults.history_fault)."""
    from companion.faults import database_fault, history_fault
    from companion.history import History

    path = Path(db_path)
    history = History(path, fallback=True)
    try:
        fault = history_fault(history)
        if fault is None:
            try:
                with closing(sqlite3.connect(path, timeout=2, isolation_level=None)) as db:
                    db.execute("BEGIN IMMEDIATE")
                    db.execute("CREATE TABLE doctor_probe (x INTEGER)")
                    db.execute("ROLLBACK")
            except sqlite3.Error as exc:
                fault = database_fault(path, str(exc), writable=False)
    finally:
        history.close()
    if fault is not None:
        return Check("database", Status.FAIL, fault.message, fault.advice)
    return Check("database", Status.OK, f"{path} is writable and whole")


def check_disk(path: Path | str) -> Check:
    """Free space where the history lives."""
    where = Path(path).parent
    while not where.exists():
        where = where.parent
    free_mb = shutil.disk_usage(where).free / 1e6
    found = f"{free_mb:,.0f} MB free on {where}"
    if free_mb < MIN_FREE_MB:
        return Check("disk", Status.FAIL, found, "delete old files or use a larger SD card")
    if free_mb < LOW_FREE_MB:
        return Check("disk", Status.WARN, found, "space is getting low")
    return Check("disk", Status.OK, found)


def check_network(db_path: Path | str, mdns: MdnsName | None = None) -> Check:
    """How phones reach the panel: the network mode and name, this machine's addresses, and
    whether its .local name resolves. Never a failure: a table with no network still plays."""
    try:
        settings = load_settings(settings_path(db_path))
    except (NetworkError, OSError) as exc:
        return Check("network", Status.WARN, f"the Wi-Fi settings cannot be read: {exc}",
                     "make them again: sudo rollscribe wifi setup --new-password")
    status = network_status(settings)
    mdns = mdns or MdnsName()
    named = mdns.up()
    mode = {"access point": f"the table's own Wi-Fi {status.ssid} is up",
            "client": f"joined {status.ssid}",
            "unknown": f"the network mode is unknown: {status.why}"}[status.mode]
    where = ", ".join(f"http://{a}" for a in status.addresses) or "no address"
    found = (f"{mode}; panel at {where}; {mdns.name} "
             f"{'resolves' if named else 'does not resolve'}")
    if not status.addresses:
        return Check("network", Status.WARN, found, "no network: phones cannot reach the panel; "
                     "check the Wi-Fi with `sudo rollscribe wifi apply`")
    if not named:
        return Check("network", Status.WARN, found, "phones must type the address: start Avahi "
                     "with `sudo systemctl enable --now avahi-daemon`")
    return Check("network", Status.OK, found)


def probe(check: Callable[..., Check], *args: Any) -> Callable[[], None]:
    """A controller fault probe from a check: raises while the check fails."""

    def run() -> None:
        result = check(*args)
        if result.failed:
            raise RuntimeError(result.found)

    return run
