"""The shipped symbol dice: their kinds roll what the definitions carry."""

import pytest

from companion.rules.errors import RulesError
from companion.rules.symbol_dice import (
    MONSTERS,
    SHIPPED,
    VILLAGE,
    VILLAGE_DAY,
    SymbolDie,
    SymbolFace,
)


def test_village_die_has_the_six_faces_of_the_rules_notes():
    assert VILLAGE.kind().faces == ("Melee", "Ranged", "Magic", "Defence", "Retaliate", "Villager")


def test_a_face_carried_three_times_appears_three_times_in_the_kind():
    assert VILLAGE_DAY.kind().faces.count("blank") == 3
    assert VILLAGE_DAY.kind().sides == 6


def test_monsters_faces_are_the_twenty_standard_and_the_equipment():
    assert len(MONSTERS.face_names) == 20 + 13


def test_every_shipped_die_is_custom_and_named_by_its_key():
    assert all(d.kind().is_custom and d.name == name for name, d in SHIPPED.items())


def test_a_face_named_twice_is_refused():
    with pytest.raises(RulesError, match="twice"):
        SymbolDie("x", "X", (SymbolFace("a"), SymbolFace("a")))
