"""Kill a table's memory while it learns (SIGKILL) and check it is whole each time: intact,
every game reported committed is there, no game half written, the bound kept."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from pathlib import Path

from companion.dice_memory import PER_FACE
from companion.dice_store import DiceStore
from tests.killed_writer import acks_before_kill

KILLS = 8
WRITER = Path(__file__).with_name("memory_writer.py")


def test_sigkill_while_learning_never_loses_or_half_writes(tmp_path):
    path = tmp_path / "t.dice.sqlite"
    rng = random.Random(5)
    committed = 0
    for _ in range(KILLS):
        acks = [int(line) for line in acks_before_kill(WRITER, [str(path)], rng, 0.3)]
        committed += len(acks)
        with sqlite3.connect(path) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            games = Counter(g for (g,) in raw.execute("SELECT game FROM crops"))
        assert set(games.values()) <= {3}, "a game's dice were half written"
        if acks:
            assert games[acks[-1]] == 3, "a game reported as committed is gone"
        memory = DiceStore(path)
        assert max(Counter(d.value for d in memory.dice()).values(), default=0) <= PER_FACE
        assert memory.revision >= committed  # each run went on from where the last stopped
        memory.close()
    assert committed > KILLS
