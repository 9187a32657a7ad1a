"""Writes to a table's memory until killed (tests/test_dice_memory_crash.py): game after game of
three d6 confirmed, printing each game's number once its dice are committed."""

from __future__ import annotations

import sys
from operator import attrgetter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's, not an install's

from companion.dice_store import DiceStore
from companion.die_photos import LabelledDie


def main(path: str) -> None:
    memory = DiceStore(path)
    game = memory.revision + 1  # past every game learnt so far (one change each)
    print("ready", flush=True)
    while True:
        value = game % 6 + 1
        memory.learn(game, [LabelledDie(game, 1, i, "d6", value, "checked", 0.9,
                                        b"\xff\xd8" + bytes(4000)) for i in range(3)],
                     attrgetter("jpeg"))
        print(game, flush=True)
        game += 1


if __name__ == "__main__":
    main(sys.argv[1])
