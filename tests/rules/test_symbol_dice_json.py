"""Symbol dice definitions to and from JSON: what the panel's form and die files carry."""

from __future__ import annotations

import pytest

from companion.rules.errors import RulesError
from companion.rules.symbol_dice import SHIPPED, SymbolDie, SymbolFace


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_definition_round_trips(name: str) -> None:
    assert SymbolDie.from_json(SHIPPED[name].to_json()) == SHIPPED[name]


def test_faces_may_be_bare_names_and_names_are_tidied() -> None:
    die = SymbolDie.from_json({"name": " Zombie ", "faces": ["brain", {"name": "shotgun",
                                                                        "count": 2}]})
    assert die.name == "zombie" and die.title == "zombie"
    assert die.faces == (SymbolFace("brain"), SymbolFace("shotgun", 2))


@pytest.mark.parametrize(("data", "says"), [
    ([], "must be a JSON object"),
    ({"name": "2dice", "faces": ["a", "b"]}, "'name' must start with a letter"),
    ({"name": "d20", "faces": ["a", "b"]}, "'d20' is a standard die"),
    ({"name": "x", "faces": ["a"]}, "'faces' must list 2 to"),
    ({"name": "x", "faces": ["a", 3]}, "face 2: a face is a name or an object"),
    ({"name": "x", "faces": ["a", {"name": ""}]}, "face 2: 'name' must be 1 to 40"),
    ({"name": "x", "faces": ["a", {"name": "b", "count": True}]}, r"face 2 \(b\): 'count'"),
    ({"name": "x", "faces": ["a", {"name": "b", "value": "1"}]}, r"face 2 \(b\): 'value'"),
    ({"name": "x", "faces": ["a", "b"], "title": 5}, "'title' must be text"),
])
def test_a_bad_definition_says_which_field(data: object, says: str) -> None:
    with pytest.raises(RulesError, match=says):
        SymbolDie.from_json(data)
