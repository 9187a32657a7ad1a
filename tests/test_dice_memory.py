"""The dice a table remembers from its players' checks: what teaches, what does not, the bound,
surviving a restart, forgetting, and the memory as a file (companion.memory_file)."""

from __future__ import annotations

import base64
import random
from operator import attrgetter

import pytest
from table_support import LINE_UP, chance, fitting_roll, play, started, tray

from companion.dice_memory import PER_FACE, DiceMemory
from companion.dice_store import DiceStore, store_path
from companion.die_photos import LabelledDie
from companion.history import History
from companion.memory_file import DiceMemoryError, export_memory, import_memory
from companion.table import TableSession


@pytest.fixture
def table(tmp_path):
    session = started(tmp_path / "t.db")
    session.memory = DiceStore(store_path(tmp_path / "t.db"))
    return session


def remembered(table: TableSession) -> list[tuple[str, int | str, bool, bytes]]:
    return [(d.kind, d.value, d.how == "corrected", d.image) for d in table.memory.dice()]


def test_a_confirmed_roll_is_remembered_with_its_correction(table):
    table.submit_reading(tray(LINE_UP, unsure=1))
    assert remembered(table) == []  # waiting: nothing is known yet
    table.correct_die(1, 7)
    table.confirm()
    assert sorted(remembered(table)) == [
        ("d20", 3, False, b"crop of die 2"), ("d20", 5, False, b"crop of die 0"),
        ("d20", 7, True, b"crop of die 1"), ("d20", 9, False, b"crop of die 3")]


def test_a_correction_after_the_roll_was_applied_relabels_the_die(table):
    table.submit_reading(tray(LINE_UP, unsure=0))
    table.confirm()
    table.correct_die(3, 19)
    assert ("d20", 19, True, b"crop of die 3") in remembered(table)
    assert ("d20", 9, False, b"crop of die 3") not in remembered(table)


def test_rolls_undone_typed_or_applied_unasked_do_not_teach(table):
    table.submit_reading(tray(LINE_UP, unsure=2))
    table.confirm()
    assert len(remembered(table)) == 4
    table.undo()  # the roll is taken back: what it taught goes with it
    assert remembered(table) == []
    table.submit_reading(tray(LINE_UP))  # sure and applied at once: nobody looked at it
    table.undo()
    table.type_roll(LINE_UP.text())
    assert remembered(table) == []



def test_each_roll_fetches_only_its_own_crops(table, monkeypatch):
    """The memory is brought in step after every roll; a long game must not read all its
    pictures again each time, only those of the dice it has not learnt."""
    fetched = []
    crop = table.history.crop
    monkeypatch.setattr(table.history, "crop",
                        lambda e, i: fetched.append((e, i)) or crop(e, i))
    monkeypatch.setattr(table.history, "crops", lambda e: pytest.fail("every crop read"))
    rng = random.Random(5)
    for _ in range(3):
        play(table, rng, chance)
        fetched.clear()
        roll = fitting_roll(table.snapshot(), rng)
        table.submit_reading(tray(roll, unsure=0))
        table.confirm()
        assert len(fetched) == len(roll.dice)
        assert len({e for e, _ in fetched}) == 1
    assert len(remembered(table)) > len(fetched)

def test_what_was_learnt_survives_reopening(table, tmp_path):
    table.submit_reading(tray(LINE_UP, unsure=0))
    table.confirm()
    before = remembered(table)
    table.memory.close()
    again = DiceStore(store_path(tmp_path / "t.db"))
    assert [(d.kind, d.value, d.how == "corrected", d.image) for d in again.dice()] == before
    assert again.revision > 0


def test_forget_empties_it_and_the_rolls_played_are_not_learnt_again(table):
    table.submit_reading(tray(LINE_UP, unsure=0))
    table.confirm()
    revision = table.memory.revision
    assert table.memory.forget() == 4
    assert remembered(table) == [] and table.memory.summary() == []
    assert table.memory.revision > revision  # the reader drops them too
    table.correct_die(2, 4)  # the same roll, corrected after forgetting: still not learnt
    assert remembered(table) == []


def file_of(dice: list[tuple[str, int | str, bool]]) -> dict:
    """A memory file of these dice, each crop an image of its own."""
    return {"format": "rollscribe-memory/2",
            "dice": [{"kind": k, "value": v, "how": "corrected" if c else "checked",
                      "image": base64.b64encode(b"\xff\xd8crop %d" % i).decode()}
                     for i, (k, v, c) in enumerate(dice)]}


def test_a_file_imported_twice_adds_its_crops_once(tmp_path):
    memory = DiceStore(tmp_path / "m.sqlite")
    data = file_of([("d20", 5, False), ("d20", 6, True), ("d8", 2, False)])
    assert import_memory(memory, data) == 3
    assert import_memory(memory, data) == 0
    assert len(memory.dice()) == 3
    # the same image as another value, or another die's, is another crop
    data["dice"] += [{**data["dice"][0], "value": 7}, {**data["dice"][2], "kind": "d10"}]
    assert import_memory(memory, data) == 2
    assert sorted((d.kind, d.value) for d in memory.dice()) == [
        ("d10", 2), ("d20", 5), ("d20", 6), ("d20", 7), ("d8", 2)]


def test_each_kind_and_value_keeps_its_bound_corrections_first(tmp_path):
    memory = DiceStore(tmp_path / "m.sqlite")
    import_memory(memory, file_of([("d20", 5, True)] * 3 + [("d20", 5, False)] * (PER_FACE + 5)
                               + [("d20", 6, False)] * 2))
    kept = [(d.kind, d.value, d.how == "corrected") for d in memory.dice()]
    assert kept.count(("d20", 5, True)) == 3
    assert kept.count(("d20", 5, False)) == PER_FACE - 3
    assert kept.count(("d20", 6, False)) == 2
    assert memory.summary() == [{"kind": "d20", "dice": PER_FACE + 2, "corrected": 3,
                                 "taught": 0, "values": 2, "well": False}]


def test_a_file_of_the_first_format_still_imports(tmp_path):
    memory = DiceStore(tmp_path / "m.sqlite")
    jpeg = base64.b64encode(b"\xff\xd8old").decode()
    assert import_memory(memory, {"format": "rollscribe-memory/1", "dice": [
        {"kind": "d8", "value": 2, "corrected": True, "jpeg": jpeg},
        {"kind": "d8", "value": 5, "corrected": False, "jpeg": jpeg}]}) == 2
    assert [(d.kind, d.value, d.how, d.image) for d in memory.dice()] == [
        ("d8", 2, "corrected", b"\xff\xd8old"), ("d8", 5, "checked", b"\xff\xd8old")]


def test_export_and_import_carry_the_dice(table, tmp_path):
    table.submit_reading(tray(LINE_UP, unsure=0))
    table.confirm()
    other = DiceStore(tmp_path / "other.sqlite")
    assert import_memory(other, export_memory(table.memory)) == 4
    assert sorted((d.kind, d.value, d.image) for d in other.dice()) == sorted(
        (k, v, j) for k, v, _, j in remembered(table))


@pytest.mark.parametrize("data, says", [
    ({"format": "rollscribe-die/1"}, "not a Rollscribe memory file"),
    ({"format": "rollscribe-memory/2", "dice": {}}, "'dice' and 'symbol_dice' must be lists"),
    ({"format": "rollscribe-memory/2", "dice": [{"kind": "d6", "value": 3}]}, "die 1"),
    ({"format": "rollscribe-memory/2", "dice": [
        {"kind": "d6", "value": 3, "how": "checked", "image": "aGk="},
        {"kind": "d6", "value": 2, "how": "checked", "image": "**"}]}, "die 2 .* not base64"),
    ({"format": "rollscribe-memory/2", "dice": [
        {"kind": "d6", "value": 3, "how": "guessed", "image": "aGk="}]}, "'how' must be one of"),
    ({"format": "rollscribe-memory/2", "symbol_dice": [{"name": "x", "faces": ["a"]}],
      "dice": []}, "symbol die 1 of the memory file"),
    ({"format": "rollscribe-memory/1", "dice": [{"kind": "d6", "value": 3, "jpeg": "aGk="},
                                                {"kind": "d6", "value": 2}]}, "die 2 .* 'jpeg'"),
])
def test_a_bad_file_is_refused_by_what_is_wrong_and_adds_nothing(tmp_path, data, says):
    memory = DiceStore(tmp_path / "m.sqlite")
    import_memory(memory, file_of([("d6", 3, False)]))
    with pytest.raises(DiceMemoryError, match=says):
        import_memory(memory, data)
    assert len(memory.dice()) == 1


def test_a_memory_that_cannot_be_written_is_a_fault_and_the_game_goes_on(table):
    table.memory.close()  # any write now fails
    table.submit_reading(tray(LINE_UP, unsure=0))
    table.confirm()
    assert table.snapshot()["game"] is not None
    assert [f["kind"] for f in table.faults()] == ["memory"]


def test_a_table_without_memory_plays_as_before(tmp_path):
    session = TableSession(History(tmp_path / "n.db"))
    session.new_game("monstrous-horde", ["Ann", "Bob"])
    session.submit_reading(tray(LINE_UP, unsure=0))
    session.confirm()
    assert session.memory is None


def test_a_plain_memory_keeps_standard_dice_only(tmp_path):
    """Without the dice store's definitions a symbol die is no die it knows."""
    memory = DiceMemory(tmp_path / "m.sqlite")
    memory.learn(1, [LabelledDie(1, 5, 0, "village", "Melee", "checked", 1.0, b"\xff\xd8a"),
                     LabelledDie(1, 5, 1, "d6", 3, "checked", 1.0, b"\xff\xd8b")],
                 attrgetter("jpeg"))
    assert [(d.kind, d.value) for d in memory.dice()] == [("d6", 3)]


def test_a_file_of_a_die_or_face_neither_table_nor_file_knows_is_refused(tmp_path):
    memory = DiceStore(tmp_path / "m.sqlite")
    with pytest.raises(DiceMemoryError, match="die 1 of the memory file: 'zombie'"):
        import_memory(memory, file_of([("zombie", "brain", False)]))
    with pytest.raises(DiceMemoryError, match="'d6' 7 is not a face"):
        import_memory(memory, file_of([("d6", 7, False)]))
    with pytest.raises(DiceMemoryError, match="'d6' True is not a face"):
        import_memory(memory, file_of([("d6", True, False)]))
    assert memory.dice() == []
