"""Drive Against the Monstrous Horde through the public API with rolls written out by hand."""

from __future__ import annotations

from typing import Any

from companion.rules.core import GameState, RankedMove
from companion.rules.registry import get_game


def roll(*pairs: str) -> str:
    """`roll("d20=6", "d20=10")` -> the text form of a roll."""
    return "roll " + " ".join(pairs)


def new_game(
    lineup: tuple[int, ...] = (6, 10, 11, 15),
    players: tuple[str, ...] = ("Polly", "Pip"),
    options: dict[str, Any] | None = None,
    epic: tuple[str, ...] = (),
) -> GameState:
    """A game whose line-up is `lineup` (sorted by the game) and whose first player is seat 0.

    `epic` lists the texts of the rolls that follow the line-up (epic monster dice, rerolls).
    """
    state = get_game("monstrous-horde")().new_state(list(players), options)
    play(state, roll(*(f"d20={v}" for v in lineup)), *epic)
    rolloff = ["d20=20"] + ["d20=2"] * (len(players) - 1)
    play(state, roll(*rolloff))
    assert state.current_player == 0
    return state


def play(state: GameState, *texts: str) -> GameState:
    for text in texts:
        state.apply_text(text)
    return state


def enemies(state: GameState) -> list[Any]:
    """The line-up as the panel shows it: values (None when defeated)."""
    return [e.get("value") for e in state.describe()["enemies"]]


def character(state: GameState, seat: int, name: str) -> dict[str, Any]:
    player = state.describe()["players"][seat]
    return next(c for c in player["characters"] if c["name"] == name)


def best(state: GameState) -> RankedMove:
    plays = [m for m in state.ranked_moves() if m.move.text().split()[0] in
             ("attack", "heal", "rage", "restore", "end")]
    return plays[0]


def move_texts(state: GameState) -> set[str]:
    return {m.move.text() for m in state.ranked_moves()}
