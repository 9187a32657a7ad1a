"""Faults: the attention light says so, the panel says what to do, the game is untouched, and
the box recovers once the fault clears."""

from __future__ import annotations

import errno
import sqlite3

import pytest
from conftest import Box
from firmware_helpers import FAST_HOLD, tap

from companion.faults import CAMERA, DATABASE, GPIO, MODEL, Fault, fault_for
from companion.history import History
from companion.table import TableSession
from firmware.controller import TurnController, TurnState, start_gpio
from firmware.devices import Light
from firmware.pins import PinMap
from vision.errors import CameraError, ImageError, ModelError

P = FAST_HOLD


def roll(box: Box) -> None:
    tap(box.factory, P.roll)
    box.controller.wait_idle()


def events(box: Box) -> int:
    assert box.table.game_id is not None
    return len(box.table.history.events(box.table.game_id))


@pytest.mark.parametrize(
    ("error", "kind", "advice"),
    [
        (CameraError("no frame from the camera for 2 s"), CAMERA, "camera cable"),
        (ImageError("frame is all black"), CAMERA, "nothing covers the lens"),
        (ModelError("models/dice.onnx: file is truncated"), MODEL, "rollscribe doctor"),
    ],
)
def test_a_vision_fault_lights_attention_and_tells_the_panel(
    box: Box, error: Exception, kind: str, advice: str
) -> None:
    recorded = events(box)
    before = box.table.snapshot()["state"]
    box.dice.queued.append(error)
    roll(box)
    assert box.controller.state is TurnState.FAULT
    assert box.panel.shown.attention is Light.ON and box.lit(P.attention) == 1
    assert box.lit(P.ready) == 0 and box.colour() == (0, 0, 0)
    (fault,) = box.table.snapshot()["faults"]
    assert fault["kind"] == kind and str(error) in fault["message"] and advice in fault["advice"]
    assert events(box) == recorded and box.table.snapshot()["state"] == before

    roll(box)  # the camera is back: ROLL reads and the fault clears
    snap = box.table.snapshot()
    assert snap["faults"] == [] and snap["roll_wanted"]["reason"] != "enemy line-up"
    assert events(box) == recorded + 1
    assert box.controller.state is TurnState.MOVE_APPLIED


def test_a_read_only_database_keeps_the_game_and_recovers(box: Box) -> None:
    roll(box)  # the enemy line-up is recorded
    recorded, before = events(box), box.table.snapshot()
    db = box.table.history._db  # the session's own connection: the one that must fail
    db.execute("PRAGMA query_only = 1")  # what a read-only card does (chmod cannot stop root)
    roll(box)  # the roll-off cannot be recorded
    assert box.controller.state is TurnState.FAULT
    (fault,) = box.table.snapshot()["faults"]
    assert fault["kind"] == DATABASE and "SD card" in fault["advice"]
    after = box.table.snapshot()
    assert after["state"] == before["state"] and after["roll_wanted"] == before["roll_wanted"]
    assert events(box) == recorded
    again = TableSession(History(box.table.history.path))
    assert again.snapshot()["state"] == before["state"]  # what a restart rebuilds: nothing lost
    again.history.close()

    db.execute("PRAGMA query_only = 0")
    roll(box)  # the same press now works and clears the fault
    assert box.table.snapshot()["faults"] == []
    assert box.table.snapshot()["current"]["seat"] in (0, 1)


def test_probes_retry_on_their_own_and_clear_the_fault(box: Box) -> None:
    healthy = [False, False, True]
    tried: list[bool] = []

    def probe() -> None:
        tried.append(True)
        if not healthy[len(tried) - 1]:
            raise OSError(errno.ENOSPC, "No space left on device")

    controller = TurnController(box.table, box.panel, clock=box.clock,
                                probes={DATABASE: probe}, retry_seconds=5)
    controller.report(Fault(DATABASE, "disk full", "free some space"))
    assert controller.tick() is TurnState.FAULT and tried == []
    box.clock.advance(5)
    assert controller.tick() is TurnState.FAULT and len(tried) == 1
    box.clock.advance(5)
    controller.tick()
    box.clock.advance(5)
    assert controller.tick() is TurnState.WAITING_FOR_ROLL and len(tried) == 3
    assert box.table.snapshot()["faults"] == []


def test_a_fault_reported_by_someone_else_shows_until_they_clear_it(box: Box) -> None:
    box.table.report_fault(CAMERA, "camera unplugged", "plug it back in")
    assert box.controller.refresh() is TurnState.FAULT
    box.table.clear_fault(CAMERA)
    assert box.controller.refresh() is TurnState.WAITING_FOR_ROLL


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (sqlite3.OperationalError("attempt to write a readonly database"), DATABASE),
        (sqlite3.OperationalError("database or disk is full"), DATABASE),
        (OSError(errno.ENOSPC, "No space left on device"), DATABASE),
        (sqlite3.DatabaseError("file is not a database"), DATABASE),
        (OSError(errno.EROFS, "Read-only file system"), DATABASE),
        (sqlite3.IntegrityError("UNIQUE constraint failed"), None),
        (ValueError("d6 cannot show 7"), None),
        (OSError(errno.ENOENT, "No such file"), None),
    ],
)
def test_which_errors_are_faults(error: Exception, kind: str | None) -> None:
    fault = fault_for(error)
    assert (fault.kind if fault else None) == kind
    wrapped = RuntimeError("could not write the history")
    wrapped.__cause__ = error
    assert fault_for(wrapped) == fault


def test_without_working_pins_the_table_runs_on_with_a_gpio_fault(box: Box) -> None:
    try:
        import lgpio  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("lgpio is installed here: the Pi's pins might really be claimed")
    assert start_gpio(box.table, PinMap()) is None
    (fault,) = box.table.snapshot()["faults"]
    assert fault["kind"] == GPIO and "rollscribe doctor" in fault["advice"]
    roll(box)  # the rest of the box (here: the mock panel) still works
    assert box.table.snapshot()["roll_wanted"]["reason"] != "enemy line-up"
