"""Words the games' one-line reports share (`GameState.tell`): a list as players say it, what a
step did to the scores and whether it ended the game, and how the line is put together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def joined(items: Sequence[str]) -> str:
    """A list as a player says it: 'Wizard', 'Wizard and Druid', 'Wizard, Druid and Paladin'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def scored(before: Any, after: Any, unit: str = "") -> list[str]:
    """What a step did that every game tells alike: each seat's score change ('Ann +3', or
    'Ann +3 XP' with a unit), then 'game over: <why>' when it ended the game. `before` and
    `after` are positions with `names`, `scores`, `winners` and `reason`."""
    said = [f"{name} {new - old:+d}{unit}" for name, old, new in
            zip(after.names, before.scores, after.scores, strict=True) if new != old]
    if after.winners is not None and before.winners is None:
        said.append(f"game over: {after.reason}")
    return said


def line(said: str, changes: Sequence[str]) -> str:
    """Who did what, then what changed: 'Ann rolled 1 3 5 | Ann +4 XP, game over: ...'."""
    return said + (" | " + ", ".join(changes) if changes else "")
