"""The game the kill test plays (kept apart so it can be switched in one place)."""

from table_pig import games as registry

GAME = "pig"
PLAYERS = ["Ann", "Bob"]

__all__ = ["GAME", "PLAYERS", "registry"]
