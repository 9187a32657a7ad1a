"""The games by name. Adding a game is one module under games/ and one line here."""

from __future__ import annotations

from .core import Game
from .errors import UnknownGame


def _games() -> dict[str, type[Game]]:
    # Imported lazily so that `import companion.rules` stays cheap and cycle-free.
    from .games import board_horde, fantahzee, monsters, monstrous_horde, village_attacks

    return {
        board_horde.BoardHorde.name: board_horde.BoardHorde,
        fantahzee.Fantahzee.name: fantahzee.Fantahzee,
        monsters.Monsters.name: monsters.Monsters,
        monstrous_horde.MonstrousHorde.name: monstrous_horde.MonstrousHorde,
        village_attacks.VillageAttacks.name: village_attacks.VillageAttacks,
    }


def game_names() -> list[str]:
    return sorted(_games())


def get_game(name: str) -> type[Game]:
    """The Game class registered under `name`; raises UnknownGame (never falls back)."""
    games = _games()
    try:
        return games[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(sorted(games))}") from None
