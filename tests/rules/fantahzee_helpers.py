"""Setting up Fantahzee for the tests, through the public API: games on the book's cards or on a
short deck a random party can finish, played by text (ints are rolls, strings moves)."""

from __future__ import annotations

import json
from typing import Any

from companion.rules.games.fantahzee import Fantahzee
from companion.rules.games.fantahzee.agenda import new_turn
from companion.rules.games.fantahzee.deck import BOOK
from companion.rules.games.fantahzee.state import FantahzeeState

GAME = Fantahzee()


def _monster(name: str, level: int, strength: int, xp: int, **more: Any) -> dict[str, Any]:
    return {"name": name, "level": level, "strength": strength, "xp": xp, **more}


# One level-1 monster and one level-2 card per stack, weak bosses: a party playing random moves
# still ends the game in a few thousand steps (the shared random-play test plays this deck).
SHORT_DECK: dict[str, list[dict[str, Any]]] = {
    "heroes": [
        {"name": "Militia", "type": "warrior", "strength": 2, "cost": "X", "copies": 8},
        {"name": "Tinker", "type": "artificer", "strength": 1, "cost": "4 | 5", "steam": 3,
         "copies": 2},
        {"name": "Golem", "type": "artificer", "strength": 4, "cost": "6 6 | steam 3",
         "copies": 2},
        {"name": "Captain", "type": "warrior", "strength": 3, "cost": "**", "copies": 2,
         "effects": "wake cut-x+1"},
        {"name": "Seer", "type": "mage", "strength": 1, "cost": "X X", "shield": 1,
         "effects": "banish<=2 dice+1 rolls+1", "copies": 2},
    ],
    "actions": [{"name": "Rally", "effects": "strength+2 shield+1", "copies": 3}],
    "monsters": [
        _monster("Rat", 1, 1, 1, copies=3, treasure=1),
        _monster("Bandit", 1, 2, 2, copies=2, counterattack=1, ambush=1),
        _monster("Brute", 2, 3, 3, copies=5, counterattack=1, treasure=2),
        *[_monster(f"Boss {i}", 2, 3, 5, boss=True, ambush=1) for i in range(1, 6)],
    ],
    "towns": [{"name": "Hut", "xp": 1, "copies": 3}],
    "treasures": [{"name": "Charm", "level1": "shield+1", "level2": "strength+1 dice+1",
                   "copies": 3}],
}
SHORT_GAME = {"cards": json.dumps(SHORT_DECK)}
# The book's cards, with five bosses, quiet goblins and trolls to fill the stacks.
BOOK_GAME = {"cards": json.dumps({**BOOK, "monsters": BOOK["monsters"] + [
    _monster("Goblin", 1, 2, 1, copies=12), _monster("Troll", 2, 7, 4, copies=8),
    *[_monster(f"Boss {i}", 2, 12, 10, boss=True) for i in range(1, 6)]]})}


def play(state: FantahzeeState, *steps: int | str | list[int]) -> None:
    """Apply steps in order: a list is a roll of those d6, a string a move's text."""
    for step in steps:
        if isinstance(step, list):
            state.apply_text("roll " + " ".join(f"d6={v}" for v in step))
        else:
            state.apply_text(step)


def moves(state: FantahzeeState) -> list[str]:
    return [m.text() for m in state.legal_moves()]


def at_turn(names: tuple[str, ...] = ("Maureen", "John"), seat: int = 0,
            options: dict[str, Any] | None = None, party: list[str] | tuple[str, ...] = (),
            hand: list[str] | tuple[str, ...] = (),
            stacks: list[tuple[str | None, int, int]] | None = None,
            **s: Any) -> FantahzeeState:
    """A game at the start of `seat`'s turn (Action Phase) with the party, hand and horde stacks
    given ((top card or None, level 1 below, level 2 below with the boss)); the decks hold the
    rest. Other keys of `s` replace the position's own."""
    state = GAME.new_state(list(names), options if options is not None else BOOK_GAME)
    data = state.to_json()
    pos = data["position"]["s"]
    n = len(names)
    pos.update(seat=seat, first=0, last=n - 1, step={"kind": "action"}, agenda=[])
    pos["turn"] = new_turn()
    for card in [*party, *hand]:
        pos["deck"][card] -= 1
    pos["party"][seat] = [{"uid": i + 1, "card": c, "treasure": None}
                          for i, c in enumerate(party)]
    pos["uid"] = len(party) + 1
    pos["hands"][seat] = list(hand)
    if stacks is not None:
        pos["stacks"] = []
        for uid, (top, l1, l2) in enumerate(stacks):
            if top is not None:
                level = next(lv for lv in ("1", "2", "boss") if top in pos["unseen"][lv])
                pos["unseen"][level][top] -= 1
            pos["stacks"].append({"uid": uid, "top": top, "l1": l1, "l2": l2,
                                  "boss": 1 if l2 else 0})
    pos.update(s)
    return GAME.state_from_json(data)


def stack_tops(state: FantahzeeState) -> list[str]:
    return [st["label"].split(" (")[0].split(" +")[0] for st in state.describe()["stacks"]]
