"""Setting up Board Horde positions for the tests, through the public API: a game is started, its
saved JSON edited the way a table could have got there, and the state rebuilt from it."""

from __future__ import annotations

from typing import Any

from companion.rules.games.board_horde import BoardHorde
from companion.rules.games.board_horde.state import BoardHordeState

GAME = BoardHorde()
EMPTY_BOARD = {"monsters": "none", "traps": "none", "potions": "none", "items": "none"}


def play(state: BoardHordeState, *steps: int | str) -> None:
    """Apply steps in order: an int is a d6 rolled, a string a move's text."""
    for step in steps:
        state.apply_text(f"roll d6={step}" if isinstance(step, int) else step)


def new_game(players: tuple[str, ...] = ("Ann", "Bob"), **options: Any) -> BoardHordeState:
    """A game on a board holding only the tokens named in `options`, Ann to go first."""
    state = GAME.new_state(list(players), {**EMPTY_BOARD, **options})
    play(state, 6, *[1] * (len(players) - 1))
    return state


def midgame(heroes: dict[str, int | str], players: tuple[str, ...] = ("Ann", "Bob"),
            seat: int = 0, items: dict[str, Any] | None = None,
            position: dict[str, Any] | None = None, **options: Any) -> BoardHordeState:
    """Several turns in: `heroes` stand where given (others in their portals), `seat` rolls."""
    data = new_game(players, **options).to_json()
    pos = data["position"]
    for hero, at in heroes.items():
        pos["where"][hero] = [0, at] if isinstance(at, int) else at
    for item, at in (items or {}).items():
        pos["items"][item] = [0, at] if isinstance(at, int) else at
    pos.update({"turns": [3] * len(players), "seat": seat, "step": {"kind": "move-roll"},
                **(position or {})})
    return GAME.state_from_json(data)


def at(state: BoardHordeState, hero: str) -> str:
    """Where a hero is: '12', 'portal' or 'out'."""
    return next(h["at"] for h in state.describe()["heroes"] if h["id"] == hero)


def token(state: BoardHordeState, token_id: str) -> dict[str, Any] | None:
    return next((t for t in state.describe()["tokens"] if t["id"] == token_id), None)


def moves(state: BoardHordeState) -> list[str]:
    return [m.text() for m in state.legal_moves()]


def wanted(state: BoardHordeState) -> str:
    """The reason of the roll the game waits for ('' when a player chooses)."""
    request = state.roll_wanted()
    return request.reason if request else ""
