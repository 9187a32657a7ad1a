"""A table from before one memory keeps its taught shots and remembered dice: moved into the
dice file's crops once, whatever moment a kill comes at."""

from __future__ import annotations

import random
import sqlite3
from operator import attrgetter
from pathlib import Path

import pytest
from old_dice_files import FORGOTTEN, REMEMBERED, SHOTS, write_old_table

from companion import dice_store
from companion.dice_store import DiceStore, store_path
from companion.die_photos import LabelledDie
from tests.killed_writer import acks_before_kill

WRITER = Path(__file__).with_name("migration_writer.py")
KILLS = 6


def contents(store: DiceStore) -> list[tuple]:
    return sorted((d.kind, str(d.value), d.how, d.image) for d in store.dice())


EXPECTED = sorted([(die, face, "taught", png) for die, face, png in SHOTS]
                  + [(k, str(v), "corrected" if c else "checked", jpeg)
                     for k, v, c, jpeg, *_ in REMEMBERED])


def test_old_shots_and_memory_are_moved_into_the_crops(tmp_path):
    write_old_table(tmp_path / "t.db")
    store = DiceStore(store_path(tmp_path / "t.db"))
    assert contents(store) == EXPECTED
    assert store.shot_counts("sigils") == {"star": 2, "moon": 1, "sun": 0}
    assert not (tmp_path / "t.memory.sqlite").exists()
    assert all(d.model is None for d in store.dice() if d.how == "taught")  # embedded anew
    # what the old memory had forgotten stays forgotten; a die it learnt is not learnt twice
    dice = [LabelledDie(1, FORGOTTEN, 0, "d6", 2, "checked", 1.0, b"old roll"),
            LabelledDie(1, 4, 0, "d20", 7, "corrected", 1.0, b"jpeg d20 7"),
            LabelledDie(1, 4, 1, "d6", 3, "checked", 1.0, b"jpeg d6 3")]
    assert not store.learn(1, dice, attrgetter("jpeg"))
    store.close()
    assert contents(DiceStore(store_path(tmp_path / "t.db"))) == EXPECTED  # moved once


def test_a_move_cut_short_before_it_committed_leaves_the_old_files_whole(tmp_path, monkeypatch):
    write_old_table(tmp_path / "t.db")

    def killed(db: sqlite3.Connection) -> int:
        raise KeyboardInterrupt  # as if killed after the shots were moved, not committed

    monkeypatch.setattr(dice_store, "move_memory", killed)
    with pytest.raises(KeyboardInterrupt):
        DiceStore(store_path(tmp_path / "t.db"))
    with sqlite3.connect(tmp_path / "t.dice.sqlite") as raw:
        assert raw.execute("SELECT COUNT(*) FROM shots").fetchone() == (len(SHOTS),)
        assert raw.execute("SELECT COUNT(*) FROM crops").fetchone() == (0,)
    assert (tmp_path / "t.memory.sqlite").exists()
    monkeypatch.undo()
    assert contents(DiceStore(store_path(tmp_path / "t.db"))) == EXPECTED


def test_a_move_killed_before_the_old_file_was_removed_is_not_moved_twice(tmp_path,
                                                                        monkeypatch):
    write_old_table(tmp_path / "t.db")
    monkeypatch.setattr(dice_store, "remove_moved", lambda path: None)  # killed just before
    DiceStore(store_path(tmp_path / "t.db")).close()
    assert (tmp_path / "t.memory.sqlite").exists()
    monkeypatch.undo()
    assert contents(DiceStore(store_path(tmp_path / "t.db"))) == EXPECTED
    assert not (tmp_path / "t.memory.sqlite").exists()


def test_sigkill_while_moving_never_loses_or_doubles_a_crop(tmp_path):
    rng = random.Random(7)
    acked = 0
    for _ in range(KILLS):
        acked += len(acks_before_kill(WRITER, [str(tmp_path)], rng, 1.0))
    tables = [p for p in tmp_path.iterdir() if p.name.isdigit()]
    assert len(tables) >= acked >= 1  # killed at whatever moment each run had reached
    for table in tables:
        store = DiceStore(store_path(table / "t.db"))
        assert contents(store) == EXPECTED, table.name
        assert not (table / "t.memory.sqlite").exists()
        store.close()


def test_a_damaged_old_memory_file_is_left_aside_and_the_dice_still_open(tmp_path):
    """A memory file SQLite cannot read does not keep the table's dice and their shots from
    opening (and moving): it is left where it was, untouched."""
    write_old_table(tmp_path / "t.db")
    memory = tmp_path / "t.memory.sqlite"
    for log in (Path(f"{memory}-wal"), Path(f"{memory}-shm")):
        log.unlink(missing_ok=True)
    damaged = b"not a database, a file the disk mangled " * 100
    memory.write_bytes(damaged)
    store = DiceStore(store_path(tmp_path / "t.db"))
    assert contents(store) == sorted((die, face, "taught", png) for die, face, png in SHOTS)
    assert store.shot_counts("sigils") == {"star": 2, "moon": 1, "sun": 0}
    assert memory.read_bytes() == damaged
