"""Kinds of monsters: which powers a monster may use now, and the token each use removes.

The primary kind's tokens (one per 16 points) may all be used; a secondary kind has one token,
once a game. The powers the book says a monster "may" use are choices (Pain and Decay as
attacks, Void, Frozen and Flame offered in `powers`); Disease and Bloodborne, which happen
"for every point of wounds" and "whenever", fire as they apply.
"""

from __future__ import annotations

from .position import Position

PRIMARY, SECONDARY = 0, 1


def holder(pos: Position, seat: int, power: str) -> int | None:
    """Which token (primary or secondary) pays for `power`, or None if the monster has none."""
    monster, tokens = pos.monsters[seat], pos.s["tokens"][seat]
    if monster.primary == power and tokens[PRIMARY] > 0:
        return PRIMARY
    if monster.secondary == power and tokens[SECONDARY] > 0:
        return SECONDARY
    return None


def can(pos: Position, seat: int, power: str) -> bool:
    return holder(pos, seat, power) is not None


def spend(pos: Position, seat: int, power: str) -> None:
    """Changes `pos`: one token of `power` is removed (the caller checked `can`)."""
    which = holder(pos, seat, power)
    assert which is not None
    pos.s["tokens"][seat][which] -= 1
