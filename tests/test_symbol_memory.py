"""Symbol dice in the table's one memory: a confirmed roll of a taught die teaches its faces as a
standard die's does, an undone one unteaches, taught shots come first in the bound, renaming or
deleting a die takes its crops along, and the memory file carries them and their dice."""

from __future__ import annotations

import base64
import random
from pathlib import Path

import pytest
from table_support import PLAYERS, fitting_roll, play, tray

from companion.dice_memory import MAX_SHOTS, PER_FACE
from companion.dice_store import DiceStore, store_path
from companion.history import History
from companion.memory_file import export_memory, import_memory
from companion.rules.core import Roll
from companion.table import TableSession

SIGILS = {"name": "sigils", "faces": ["star", "moon", "sun"]}


@pytest.fixture
def village(tmp_path: Path) -> TableSession:
    """A Village Attacks table whose next roll is the monster's six village dice."""
    table = TableSession(History(tmp_path / "t.db"), memory=DiceStore(store_path(tmp_path / "t.db")))
    table.new_game("village-attacks", PLAYERS)
    play(table, random.Random(3), lambda s: s["roll_wanted"] is not None
         and set(s["roll_wanted"]["dice"]) == {"village"})
    return table


def learnt(store: DiceStore, kind: str) -> list[tuple[str, str, bytes]]:
    return sorted((str(d.value), d.how, d.image) for d in store.dice([kind]))


def test_a_confirmed_roll_of_a_symbol_die_teaches_its_faces_and_undo_unteaches(village):
    store = village.memory
    assert isinstance(store, DiceStore)
    roll = fitting_roll(village.snapshot(), random.Random(1))
    village.submit_reading(tray(roll, unsure=2))
    assert store.dice() == []  # waiting for the player: nothing is known yet
    faces = [str(d.value) for d in roll.dice]
    other = next(f for f in store.definition("village").face_names if f != faces[2])
    village.correct_die(2, other)
    village.confirm()
    expected = [(f, "checked", f"crop of die {i}".encode()) for i, f in enumerate(faces)]
    expected[2] = (other, "corrected", b"crop of die 2")
    assert learnt(store, "village") == sorted(expected)
    assert store.shot_counts("village") == dict.fromkeys(store.definition("village").face_names,
                                                         0)  # play is no taught shot
    village.undo()
    assert store.dice() == []


def test_a_roll_applied_unasked_teaches_no_symbol_die(village):
    village.submit_reading(tray(fitting_roll(village.snapshot(), random.Random(2))))
    assert village.memory.dice() == []


def test_taught_shots_are_kept_first_when_a_face_is_full(tmp_path):
    store = DiceStore(tmp_path / "d.dice.sqlite")
    store.define(SIGILS)
    for i in range(2):
        store.add_shot("sigils", "star", f"taught {i}".encode())
    file = {"format": "rollscribe-memory/2", "dice": [
        {"kind": "sigils", "value": "star", "how": "checked",
         "image": base64.b64encode(b"crop %d" % i).decode()} for i in range(PER_FACE + 3)]}
    import_memory(store, file)
    kept = [d.how for d in store.dice(["sigils"])]
    assert kept.count("taught") == 2 and len(kept) == PER_FACE
    assert store.shot_counts("sigils") == {"star": 2, "moon": 0, "sun": 0}
    with pytest.raises(ValueError, match=f"has its {MAX_SHOTS} shots"):
        for i in range(MAX_SHOTS):
            store.add_shot("sigils", "star", f"more {i}".encode())
    assert [d.how for d in store.dice(["sigils"])].count("taught") == MAX_SHOTS


def test_renaming_or_editing_a_die_takes_its_crops_along_and_deleting_drops_them(village):
    store = village.memory
    store.define(SIGILS)
    store.add_shot("sigils", "moon", b"moon shot")
    store.add_shot("sigils", "sun", b"sun shot")
    store.rename("sigils", "runes")
    assert learnt(store, "runes") == [("moon", "taught", b"moon shot"),
                                      ("sun", "taught", b"sun shot")]
    store.define({"name": "runes", "faces": ["star", "moon"]})  # the sun face is gone
    assert learnt(store, "runes") == [("moon", "taught", b"moon shot")]
    store.delete("runes")
    assert store.dice(["runes", "sigils"]) == []


def test_the_memory_file_carries_taught_and_played_crops_and_their_dice(village, tmp_path):
    store = village.memory
    store.define(SIGILS)
    store.add_shot("sigils", "sun", b"sun shot")
    village.submit_reading(tray(Roll.of(*[("village", "Melee")] * 6), unsure=1))
    village.confirm()
    before = {kind: learnt(store, kind) for kind in ("sigils", "village")}
    assert len(before["village"]) == 6 and before["sigils"]
    other = DiceStore(tmp_path / "other.dice.sqlite")
    assert import_memory(other, export_memory(store)) == 7
    assert {kind: learnt(other, kind) for kind in before} == before
    assert other.definition("sigils").face_names == ("star", "moon", "sun")
    assert other.forget() == 6
    assert learnt(other, "village") == [] and other.shot_counts("sigils")["sun"] == 1
    assert "sigils" in other.definitions()  # forgetting keeps the dice and the shots taught
