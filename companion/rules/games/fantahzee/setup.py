"""The table as set up: five horde stacks dealt face down (bosses and level 2 below, level 1 on
top), the decks as counts, nobody to move until the first-player roll."""

from __future__ import annotations

from typing import Any

from .cards import CardSet
from .position import Position
from .rules import STACKS, Options


def _dealt(total: int, stack: int) -> int:
    """How many of `total` cards dealt one a stack from the leftmost land on `stack`
    (STACKS_DEALT_FROM_THE_LEFT)."""
    return total // STACKS + (stack < total % STACKS)  # STACKS_DEALT_FROM_THE_LEFT


def start_position(names: list[str], options: Options, cards: CardSet) -> Position:
    monsters = cards.monsters.values()
    unseen = {
        "1": {m.id: m.copies for m in monsters if m.level == 1 and not m.boss},
        "2": {m.id: m.copies for m in monsters if m.level == 2 and not m.boss},
        "boss": {m.id: m.copies for m in monsters if m.boss},
    }
    level1, level2 = sum(unseen["1"].values()), sum(unseen["2"].values())
    stacks = [{"uid": i, "top": None, "l1": _dealt(level1, i), "l2": _dealt(level2, i) + 1,
               "boss": 1} for i in range(STACKS)]
    n = len(names)
    deck = {**cards.counts("heroes"), **cards.counts("actions")}
    s: dict[str, Any] = {
        "seat": 0, "first": 0, "last": n - 1, "turns": [0] * n, "doom": 0, "uid": 1,
        "step": {"kind": "first", "contenders": list(range(n)), "rolls": []}, "agenda": [],
        "hands": [[] for _ in range(n)], "party": [[] for _ in range(n)],
        "victory": [[] for _ in range(n)], "adjust": [0] * n, "hand_extra": [0] * n,
        "deck": deck, "discard": [], "towns": cards.counts("towns"),
        "treasures": cards.counts("treasures"), "treasure_discard": [], "box": [], "entered": [],
        "unseen": unseen, "stacks": stacks, "turn": {}, "winners": None, "reason": "",
    }
    return Position(list(names), options, s)
