"""The Cards page's form for every game with table data (`Game.table_data_form`): it names the
kinds and fields the game's parser reads and writes, so the page and the parser cannot drift."""

from __future__ import annotations

import copy
import json

import pytest

from companion.rules.errors import RulesError
from companion.rules.registry import game_names, get_game

WITH_DATA = [name for name in game_names() if get_game(name).table_data]
NOT_ENTERED = {"id", "source", "guessed"}  # made from the name, or a shipped record's marks
TYPES = {"text", "number", "bool", "words", "json", "records"}


def test_the_games_with_table_data_state_a_form_and_the_others_none():
    assert {"fantahzee", "village-attacks"} <= set(WITH_DATA)
    for name in game_names():
        assert (get_game(name).table_data_form() is None) == (name not in WITH_DATA), name


@pytest.mark.parametrize("name", WITH_DATA)
def test_the_form_names_every_kind_and_field_the_parser_writes(name):
    cls = get_game(name)
    form = cls.table_data_form()
    stored = json.loads(cls.read_table_data(cls.default_table_data()))
    assert [k["name"] for k in form["kinds"]] == list(cls.default_table_data()) and (
        sorted(k["name"] for k in form["kinds"]) == sorted(stored))
    for kind in form["kinds"]:
        names = [f["name"] for f in kind["fields"]]
        assert all(f["type"] in TYPES for f in kind["fields"]), kind
        if kind["shape"] == "map":  # the dice: a die's name and its faces
            assert len(names) == 2 and isinstance(stored[kind["name"]], dict)
            continue
        assert kind["shape"] == "list" and names[0] == "name"
        for record in stored[kind["name"]]:
            assert set(names) == set(record) - NOT_ENTERED, (kind["name"], record["id"])
            for nested in (f for f in kind["fields"] if f["type"] == "records"):
                sub = {f["name"] for f in nested["fields"]}
                for item in record[nested["name"]]:  # a zone keeps its id: toward names it
                    assert sub == set(item) - NOT_ENTERED | ({"id"} & sub), (record["id"], item)
    assert form["default"] and form["import"] and isinstance(form["csv"], bool)


@pytest.mark.parametrize("name", WITH_DATA)
def test_every_number_field_is_read_and_a_bad_value_names_it(name):
    """A field the form offers as a number is read by the parser: a word there is refused with
    the field named (on at least one record of the kind: a Boss ignores its level)."""
    cls = get_game(name)
    data = cls.default_table_data()
    for kind in cls.table_data_form()["kinds"]:
        for field in (f["name"] for f in kind["fields"] if f["type"] == "number"):
            refusals = []
            for i in range(len(data[kind["name"]])):
                bad = copy.deepcopy(data)
                bad[kind["name"]][i][field] = "lots"
                try:
                    cls.read_table_data(bad)
                except RulesError as exc:
                    refusals.append(str(exc))
                    break
            assert refusals and f"{field} is a whole number" in refusals[0], (kind["name"], field)


def test_village_attacks_nested_records_are_form_fields_not_json():
    kinds = {k["name"]: k for k in get_game("village-attacks").table_data_form()["kinds"]}
    fields = {f["name"]: f for f in kinds["monsters"]["fields"]}
    abilities = fields["abilities"]
    assert (abilities["type"], abilities["item"]) == ("records", "ability")
    assert [(f["name"], f["type"]) for f in abilities["fields"]] == [
        ("name", "text"), ("cost", "words"), ("advanced_cost", "words"), ("text", "text")]
    scenario = {f["name"]: f for f in kinds["scenarios"]["fields"]}
    assert scenario["zones"]["type"] == scenario["objectives"]["type"] == "records"
    assert scenario["zones"]["fields"][0]["name"] == "id"
    scenario = {name: f["type"] for name, f in scenario.items()}
    assert scenario["spawns"] == scenario["events"] == "words"
    assert [f["name"] for f in kinds["dice"]["fields"]] == ["name", "faces"]
