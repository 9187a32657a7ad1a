"""Setting up Village Attacks for the tests through the public API: a game on the shipped
template, the setup's spawn cards and first Trap typed, then the board laid out as a test
needs it (the position's JSON edited and loaded back, as a saved game is) and played by text."""

from __future__ import annotations

from typing import Any

from companion.rules.core import Roll
from companion.rules.games.village_attacks import VillageAttacks
from companion.rules.games.village_attacks.state import VillageState

GAME = VillageAttacks()


def table(monsters: str, *, zones: dict[int, str] | None = None,
          villagers: dict[str, dict[str, int]] | None = None, trap: str = "chandelier",
          change: dict[str, Any] | None = None, **options: Any) -> VillageState:
    """A game of the template's Monsters (dashboard ids by comma, one a player), the setup's
    spawn cards typed as empty and `trap` dealt, then the Monsters put in `zones` (by seat),
    the Villagers in `villagers` and any other field of the position in `change`."""
    picks = monsters.split(",")
    state = GAME.new_state([f"P{i}" for i in range(len(picks))],
                           {"monsters": monsters, **options})
    play(state, "spawn 0 0", "spawn 0 0", f"deal {trap}")
    saved = state.to_json()
    s = saved["position"]["s"]
    for seat, zone in (zones or {}).items():
        s["monsters"][seat]["zone"] = zone
    s["villagers"] = villagers or {}
    s.update(change or {})
    s["turn"]["night_heart"] = bool(s["night"] and options.get("day_night")
                                    and s["monsters"][0]["zone"] == "castle_heart")
    return GAME.state_from_json(saved)


def play(state: VillageState, *moves: str) -> None:
    for text in moves:
        state.apply_text(text)


def roll(state: VillageState, *faces: str) -> None:
    """The dice wanted, showing `faces` in the order asked."""
    wanted = state.roll_wanted()
    assert wanted is not None, f"no roll wanted at {state.describe()['step']}"
    state.apply(wanted.fill(list(faces)))


def moves(state: VillageState) -> set[str]:
    return {m.text() for m in state.legal_moves()}


def monster(state: VillageState, seat: int = 0) -> dict[str, Any]:
    return state.to_json()["position"]["s"]["monsters"][seat]


def s(state: VillageState) -> dict[str, Any]:
    return state.to_json()["position"]["s"]


def through_villager_phase(state: VillageState) -> None:
    """Walk the checklist with the first offer at each step and empty spawn cards, to the next
    Monster's turn."""
    start = s(state)["round"]
    while s(state)["round"] == start and state.current_player is not None:
        wanted = state.roll_wanted()
        if wanted is not None:
            state.apply(Roll.of(*[(k, "Magic") for k in wanted.dice]))
            continue
        offered = [m.text() for m in state.legal_moves()]
        state.apply_text(next((m for m in offered if m in ("spawn 0 0", "done", "end")),
                              offered[0]))


def dashboard(name: str, **fields: Any) -> dict[str, Any]:
    """A Monster's dashboard as the position keeps it, fresh from the box but for `fields`."""
    from companion.rules.games.village_attacks.data import data_from_text

    first = data_from_text("").monsters[name].abilities[0].id
    return {"dashboard": name, "zone": "castle_heart", "turns": 1, "damage": 0, "xp": 0, "level": 1,
            "kills": 0, "burn": 0, "silence": 0, "slow": 0, "sunder": 0, "stun": False,
            "abilities": {first: 1}, "used": [], "reserve": [], "guard": [], **fields}
