"""The panel's order of the moves (best first), what only a player can answer, and the seeded
stand-in for what the players draw from decks (spawn cards, type tokens, Town Heroes, Traps,
Events) when `simulate` plays without a table."""

from __future__ import annotations

import random

from . import villager_phase
from .moves import Act, act
from .position import Position

# Spending: blows that slay and objectives first, then what protects, then moving; ending last.
WORTH = {"melee": 3, "ranged": 3, "objective": 3, "trap": 2, "ability": 2, "heal": 2,
         "guard": 1, "reserve": 1, "learn": 1, "move": 0, "done": 5, "end": -1, "miss": -1}
ASKED = {"event": "enter the Village Event card drawn",
         "spawn": "enter what the Villager Spawn card drawn says",
         "type": "enter the type token drawn from the bag",
         "hero": "enter the Town Hero token revealed",
         "deal": "enter the Trap card dealt onto the Game Overview tile",
         "effects": "record what the ability or event did, then Done",
         "path": "flip the First Player coin for the path"}


def worth(move: Act) -> int:
    if move.verb == "hit":
        return len(move.args)  # a block and a Retaliation beat taking the blow
    if move.verb in ("melee", "ranged") and move.args[-1] == "miss":
        return -1  # the Unlucky coin's tails: never the panel's pick
    return WORTH.get(move.verb, 0)


def ranked(moves: list[Act]) -> list[Act]:
    return sorted(moves, key=lambda m: -worth(m))


def asks(pos: Position) -> str | None:
    question = ASKED.get(pos.step["kind"])
    return f"{pos.names[pos.seat]}: {question}" if question else None


def dealt(pos: Position, rng: random.Random) -> Act | None:
    """A seeded pick for a step the players answer from a deck; spawn cards are drawn from a
    stand-in spread that grows with the tier (the book prints none)."""
    kind = pos.step["kind"]
    if kind == "spawn":
        if rng.random() < 0.08 and villager_phase.heroes_left(pos):
            return act("spawn", "hero")
        level = villager_phase.tier(pos)
        return act("spawn", rng.randint(0, 1 + level), rng.randint(0, level))
    if kind == "event":
        deck = [e for e, n in pos.s["event_deck"].items() for _ in range(n)]
        return act("event", rng.choice(deck))
    if kind in ("type", "hero", "deal", "path"):
        return rng.choice(villager_phase.choices(pos))
    return None
