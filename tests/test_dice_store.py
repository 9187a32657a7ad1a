"""The table's dice store: definitions and shots kept, exported, imported, renamed, deleted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.dice_store import (
    MAX_SHOTS,
    DiceStore,
    DiceStoreError,
    open_store,
    store_path,
)
from companion.history import History
from companion.rules.errors import RulesError
from companion.rules.symbol_dice import SHIPPED

FATE = {"name": "fate", "title": "Fate dice",
        "faces": [{"name": "plus", "count": 2, "value": 1}, {"name": "minus", "count": 2,
                                                             "value": -1},
                  {"name": "blank", "count": 2, "value": 0}]}


def _store(tmp_path: Path) -> DiceStore:
    return DiceStore(store_path(tmp_path / "table.db"))


def test_definitions_and_shots_are_kept_across_a_restart(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert set(store.definitions()) == set(SHIPPED)  # the shipped dice, nothing taught yet
    before = store.revision
    store.define(FATE)
    store.add_shot("fate", "plus", b"png-1", "model-a", b"\x00" * 32)
    assert store.revision > before  # the reader reloads on it
    store.close()
    again = _store(tmp_path)
    fate = again.definition("fate")
    assert [(f.name, f.count, f.value) for f in fate.faces] == [
        ("plus", 2, 1), ("minus", 2, -1), ("blank", 2, 0)]
    assert fate.kind().faces.count("plus") == 2
    assert again.shot_counts("fate") == {"plus": 1, "minus": 0, "blank": 0}
    assert store_path(tmp_path / "table.db") == tmp_path / "table.dice.sqlite"


def test_a_shot_of_a_face_the_die_lacks_or_past_the_limit_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.define(FATE)
    with pytest.raises(DiceStoreError, match="no face 'star'; its faces: plus, minus, blank"):
        store.add_shot("fate", "star", b"png")
    for i in range(MAX_SHOTS):
        store.add_shot("fate", "plus", f"png-{i}".encode())
    with pytest.raises(DiceStoreError, match=f"plus has its {MAX_SHOTS} shots already"):
        store.add_shot("fate", "plus", b"one more")
    with pytest.raises(DiceStoreError, match="no die called 'zombie'"):
        store.add_shot("zombie", "brain", b"png")


def test_a_bad_definition_names_the_field(tmp_path: Path) -> None:
    store = _store(tmp_path)
    with pytest.raises(RulesError, match="'count' must be a whole number"):
        store.define({"name": "x", "faces": ["a", {"name": "b", "count": 0}]})
    with pytest.raises(RulesError, match="'d6' is a standard die"):
        store.define({"name": "d6", "faces": ["a", "b"]})
    with pytest.raises(RulesError, match="names a face twice"):
        store.define({"name": "x", "faces": ["a", "a"]})
    assert "x" not in store.definitions()  # nothing kept


def test_editing_a_shipped_die_keeps_its_game_and_drops_shots_of_faces_gone(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.add_shot("village-day", "Defence", b"png")
    store.add_shot("village-day", "blank", b"png")
    edited = store.define({"name": "village-day", "title": "Day die",
                           "faces": [{"name": "blank", "count": 3}, {"name": "Shield", "count": 3}]})
    assert edited.game == "village-attacks" and edited.face_names == ("blank", "Shield")
    assert store.shot_counts("village-day") == {"blank": 1, "Shield": 0}
    # a shipped die edited or imported without a note of its own keeps the shipped note
    assert edited.note == SHIPPED["village-day"].note
    file = {**store.export("village-day"), "die": {**edited.to_json(), "game": "", "note": ""}}
    imported = store.import_die(file)
    assert imported.game == "village-attacks" and imported.note == SHIPPED["village-day"].note
    with pytest.raises(DiceStoreError, match="games ask for by name"):
        store.rename("village", "my-village")
    with pytest.raises(DiceStoreError, match="can be edited, not deleted"):
        store.delete("monsters")


def test_a_die_exported_is_imported_by_another_table_shots_and_all(tmp_path: Path) -> None:
    here, there = DiceStore(tmp_path / "a.sqlite"), DiceStore(tmp_path / "b.sqlite")
    here.define(FATE)
    here.add_shot("fate", "blank", b"\x89PNG blank", "model-a", b"\x01" * 32)
    here.add_shot("fate", "plus", b"\x89PNG plus", "model-a", b"\x02" * 32)
    file = json.loads(json.dumps(here.export("fate")))  # what the download carries
    assert "vector" not in json.dumps(file)  # the other table may run another model
    there.import_die(file)
    assert there.definition("fate") == here.definition("fate")
    shots = there.shots("fate")
    assert [(s.value, s.image, s.model) for s in shots] == [
        ("blank", b"\x89PNG blank", None), ("plus", b"\x89PNG plus", None)]  # embedded on load
    there.import_die(file, name="fate-green")
    assert there.shot_counts("fate-green") == {"plus": 1, "minus": 0, "blank": 1}


@pytest.mark.parametrize(("broken", "says"), [
    ({"format": "zip"}, "not a Rollscribe die file"),
    ({"format": "rollscribe-die/1"}, "no 'die' definition"),
    ({"format": "rollscribe-die/1", "die": FATE, "shots": [{"face": "star", "png": ""}]},
     "shot 1 of the die file: 'face' must be one of the die's faces"),
    ({"format": "rollscribe-die/1", "die": FATE, "shots": [{"face": "plus", "png": "!!"}]},
     "shot 1 of the die file is not base64"),
    ({"format": "rollscribe-die/1", "die": {**FATE, "faces": []}}, "'faces' must list"),
])
def test_a_broken_die_file_is_refused_and_changes_nothing(tmp_path: Path, broken: dict,
                                                          says: str) -> None:
    store = _store(tmp_path)
    revision = store.revision
    with pytest.raises((DiceStoreError, RulesError), match=says):
        store.import_die(broken)
    assert store.revision == revision and "fate" not in store.definitions()


def test_renamed_and_deleted_dice_stay_readable_for_the_history(tmp_path: Path) -> None:
    history = History(tmp_path / "table.db")
    store, problem = open_store(history.path)
    assert store is not None and problem is None
    store.define(FATE)
    store.add_shot("fate", "plus", b"png")
    store.rename("fate", "fudge")
    assert store.shot_counts("fudge")["plus"] == 1 and "fate" not in store.definitions()
    assert store.describe("fate") == {**store.definition("fudge").to_json(), "name": "fate",
                                      "status": "renamed", "now": "fudge"}
    store.rename("fudge", "fudge-red")
    assert store.describe("fate")["now"] == "fudge-red"  # the oldest name follows
    store.delete("fudge-red")
    assert store.dice() == [] and "fudge-red" not in store.definitions()
    for name in ("fate", "fudge", "fudge-red"):
        told = store.describe(name)
        assert told["status"] == "deleted" and told["now"] is None
        assert [f["name"] for f in told["faces"]] == ["plus", "minus", "blank"]
    with pytest.raises(DiceStoreError, match="no die called 'never' was ever kept"):
        store.describe("never")
    # the history keeps its own tables untouched: the dice live in their own file beside it
    assert history.path.is_file() and store.path != history.path


def test_a_store_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store, problem = open_store(blocker / "table.db")
    assert store is None and problem is not None and "table.dice.sqlite" in problem
