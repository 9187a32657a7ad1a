"""Which failures are hardware/software faults the players must fix, with what to tell them.

A fault is not a wrong move: the camera went away, the model file is broken, the database cannot
be written. The table session holds the faults (the panel shows the message and the advice, the
box lights its attention LED); the recorded game is never touched by a fault. One place decides
what an error means, whether it came through a phone's Read or the ROLL button.
"""

from __future__ import annotations

import errno
import sqlite3
from dataclasses import dataclass
from typing import Any

CAMERA, MODEL, DATABASE, GPIO = "camera", "model", "database", "gpio"


@dataclass(frozen=True)
class Fault:
    """A hardware or software problem the panel and the LEDs show until it is cleared."""

    kind: str  # camera | model | database | gpio
    message: str  # what happened, in plain words
    advice: str  # what to do about it

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "advice": self.advice}


def camera_fault(exc: BaseException) -> Fault:
    """What to tell players when the dice source failed (also for sources that are not ours)."""
    return Fault(
        CAMERA,
        f"The camera cannot see the tray: {exc}",
        "Check the camera cable (or USB plug) and that nothing covers the lens, then press "
        "ROLL to try again. You can also type the dice in on the phone.",
    )


def database_fault(path: object, problem: str, writable: bool) -> Fault:
    """What to tell players (and what `rollscribe doctor` says) about a history database that
    is damaged (`writable`: it opened, but its integrity check failed) or cannot be opened."""
    if writable:
        return Fault(
            DATABASE,
            f"The game history {path} is damaged: {problem}",
            "Games and statistics may not show, and moves may not be saved. Stop Rollscribe, "
            "copy the file aside, then move it away so that a fresh history starts (games can "
            "still be exported from the copy); `rollscribe doctor` checks it again.",
        )
    return Fault(
        DATABASE,
        f"The game history {path} cannot be written: {problem}",
        "Everything that could be read is shown, but nothing new is saved. The SD card may be "
        "full or read-only, the file may belong to another user, or it may not be a Rollscribe "
        "database: run `rollscribe doctor`, fix what it says and restart Rollscribe.",
    )


def history_fault(history: Any) -> Fault | None:
    """The fault a companion.history.History has (None when it is writable and whole): one
    that could not be opened for writing (`problem`), or one whose integrity check fails."""
    problem = history.problem if not history.writable else history.check()
    return database_fault(history.path, problem, history.writable) if problem else None


def fault_for(exc: BaseException) -> Fault | None:
    """The fault an exception means, or None when it is not a fault (e.g. an illegal move)."""
    # Vision errors name their kind in `fault`, so this module (and the table) never imports vision.
    named = getattr(exc, "fault", None)
    if named == CAMERA:
        return camera_fault(exc)
    if named == MODEL:
        return Fault(
            MODEL,
            f"The dice reader could not load its model: {exc}",
            "Run `rollscribe doctor` on the Pi; reinstall Rollscribe if the model file is missing "
            "or damaged. Meanwhile type the dice in on the phone.",
        )
    if _is_storage_error(exc):
        return Fault(
            DATABASE,
            f"The game cannot be saved: {exc}",
            "The SD card is full or read-only. Free some space (or replace the card) and press "
            "ROLL; everything recorded so far is kept.",
        )
    cause = exc.__cause__ or exc.__context__
    return fault_for(cause) if cause is not None and cause is not exc else None


def _is_storage_error(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError:
        return True  # read-only, disk full, locked, or not a database file any more
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EROFS, errno.EDQUOT)
