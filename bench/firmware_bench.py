"""Firmware figures: how long a button press takes to reach the lights, and a move made on a
phone. Real TableSession on SQLite, real gpiozero on MockFactory pins, Monstrous Horde.
Medians of several runs, printed, never asserted. Target on a Pi 5: < 100 ms press to light
(about half this machine's per-core speed, so < 50 ms here)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.history import History
from companion.table import TableSession
from firmware.controller import TurnController
from firmware.devices import Panel
from firmware.pins import PinMap

RUNS = 30


def _ready_table(folder: Path) -> TableSession:
    """A game at its first choice: the enemy line-up and the roll-off typed in."""
    table = TableSession(History(folder / "bench.db"))
    table.new_game("monstrous-horde", ["Ann", "Bob"])
    table.type_roll("d20=9 d20=14 d20=18 d20=12")
    table.type_roll("d20=17 d20=3")
    return table


def main() -> None:
    pins = PinMap()
    with tempfile.TemporaryDirectory() as tmp:
        table = _ready_table(Path(tmp))
        factory = MockFactory(pin_class=MockPWMPin)
        controller = TurnController(table, Panel(pins, factory))
        confirm = factory.pin(pins.confirm)
        press, refresh, phone = [], [], []
        for _ in range(RUNS):
            start = time.perf_counter()
            confirm.drive_low()
            confirm.drive_high()  # CONFIRM: plays the top move, records it, relights the panel
            press.append((time.perf_counter() - start) * 1000)
            table.undo()
            start = time.perf_counter()
            controller.refresh()
            refresh.append((time.perf_counter() - start) * 1000)
        controller.start()
        for _ in range(RUNS):
            version = table.version
            start = time.perf_counter()
            table.choose_move(table.snapshot()["moves"][0]["move"])  # a phone plays
            while controller.view is None or controller.view.version <= version:
                time.sleep(0.0005)
            phone.append((time.perf_counter() - start) * 1000)
            table.undo()
        controller.close()
        table.history.close()
    print(
        f"CONFIRM press to move recorded and lights set: median {statistics.median(press):.1f}"
        f" ms (max {max(press):.1f}; {RUNS} presses; target < 50 ms here)"
    )
    print(f"controller refresh (snapshot + lights): median {statistics.median(refresh):.2f} ms")
    print(
        f"phone move to the box's lights: median {statistics.median(phone):.1f} ms "
        f"(max {max(phone):.1f}; follower thread woken by the session's version)"
    )


if __name__ == "__main__":
    main()
