"""Shared by the table, history and panel tests: the real game, seeded play, tray readings."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.history import History
from companion.reading import DieReading, TrayReading
from companion.rules.core import Roll, RollRequest
from companion.rules.symbol_dice import VILLAGE, VILLAGE_DAY, VILLAGE_NIGHT
from companion.table import TableSession

SHIPPED_SYMBOL_DICE = {d.name: d.kind() for d in (VILLAGE, VILLAGE_DAY, VILLAGE_NIGHT)}
GAME = "monstrous-horde"
PLAYERS = ["Ann", "Bob"]
LINE_UP = Roll.of(("d20", 5), ("d20", 12), ("d20", 3), ("d20", 9))  # no 1s, no epic 20


def started(path: Path) -> TableSession:
    """A table on a new history at `path` with a game of GAME just started."""
    session = TableSession(History(path))
    session.new_game(GAME, PLAYERS)
    return session


def fitting_roll(snapshot: dict[str, Any], rng: random.Random) -> Roll:
    """A roll that fits what the game wants now, from a seeded roller; a symbol die shows one
    of the faces the game says it carries (Monsters!) or its shipped faces (Village Attacks)."""
    wanted = snapshot["roll_wanted"]
    if wanted.get("faces"):
        return Roll.of(*[(kind, rng.choice(faces))
                         for kind, faces in zip(wanted["dice"], wanted["faces"], strict=True)])
    return Roll.random(RollRequest.from_json(wanted), rng, SHIPPED_SYMBOL_DICE)


def tray(roll: Roll, unsure: int | None = None,
         jpeg: bytes | None = b"\xff\xd8tray") -> TrayReading:
    """What the camera would hand over for `roll`: one boxed die each, one of them unsure, and
    a crop of each die (stand-in bytes naming the die's place)."""
    dice = tuple(
        DieReading(d.kind, d.value, 0.41 if i == unsure else 0.97,
                   (10 + 70 * i, 20, 70 + 70 * i, 80), i == unsure,
                   "low confidence" if i == unsure else "")
        for i, d in enumerate(roll.dice)
    )
    crops = tuple(f"crop of die {i}".encode() for i in range(len(dice)))
    return TrayReading(dice, jpeg, 70 * len(dice) + 20, 100, crops=crops)


def play(table: TableSession, rng: random.Random,
         until: Callable[[dict[str, Any]], bool], limit: int = 200) -> dict[str, Any]:
    """Roll and move (a random one of the best three) until `until(snapshot)` holds."""
    for _ in range(limit):
        snap = table.snapshot()
        if until(snap):
            return snap
        if snap["roll_wanted"]:
            table.type_roll(fitting_roll(snap, rng).text())
        else:
            table.choose_move(rng.choice(snap["moves"][:3])["move"])
    raise AssertionError(f"not reached in {limit} steps")


def chance(snap: dict[str, Any]) -> bool:
    return snap["roll_wanted"] is not None


def seat_to_move(snap: dict[str, Any]) -> bool:
    return bool(snap["moves"])
