"""The engine core: standard library only, dice kinds, roll requests, registry lookups."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import pytest

import companion.rules
from companion.rules.core import Roll, RollRequest
from companion.rules.dice import STANDARD, custom_die, die_kind
from companion.rules.errors import BadMoveText, BadRoll, IllegalMove, RulesError, UnknownGame
from companion.rules.registry import game_names, get_game

RULES = Path(companion.rules.__file__).parent


def test_rules_engine_imports_only_the_standard_library() -> None:
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", (
                    f"{path.relative_to(RULES)} imports {name}")


def test_polyhedral_faces_read_in_game_convention() -> None:
    assert die_kind("d10").read("0") == 10 and die_kind("d10").read(0) == 10
    assert die_kind("d%").read("00") == 100 and die_kind("d%").read(40) == 40
    assert [k.sides for k in STANDARD.values()] == [4, 6, 8, 10, 10, 12, 20]
    for kind, face in [("d8", 9), ("d6", 0), ("d%", 35), ("d20", "x"), ("d4", True)]:
        with pytest.raises(BadRoll):
            die_kind(kind).read(face)
    with pytest.raises(BadRoll, match="unknown die kind"):
        die_kind("d7")


def test_custom_symbol_dice_are_lists_of_named_faces() -> None:
    village = custom_die("village", ["melee", "ranged", "magic", "defence", "retaliate",
                                     "villager"])
    assert village.sides == 6 and village.is_custom and village.expected() is None
    assert village.read(" magic ") == "magic"
    with pytest.raises(BadRoll):
        village.read("sword")
    with pytest.raises(RulesError):
        custom_die("d6", ["a"])
    request = RollRequest(("village", "d6"), "attack")
    roll = Roll.random(request, random.Random(1), {"village": village})
    assert request.check(roll, {"village": village}).dice[0].value in village.faces


def test_a_roll_requests_faces_travel_with_it_and_old_requests_are_unchanged() -> None:
    """A game that knows each die's faces (Monsters!) sends them along; a request without them
    keeps the JSON saved before faces existed, and reads back from it."""
    plain = RollRequest(("d20", "d6"), "attack", 1)
    assert plain.to_json() == {"dice": ["d20", "d6"], "reason": "attack", "player": 1}
    assert RollRequest.from_json(plain.to_json()) == plain and plain.faces is None
    sided = RollRequest(("monsters",) * 2, "turn", 0, (("axe", "block"), ("eye",)))
    assert sided.to_json()["faces"] == [["axe", "block"], ["eye"]]
    assert RollRequest.from_json(sided.to_json()) == sided
    with pytest.raises(ValueError, match="turn: faces of 1 dice for 2 dice asked"):
        RollRequest(("monsters",) * 2, "turn", 0, (("axe",),))


def test_roll_requests_match_dice_by_kind_in_any_order() -> None:
    request = RollRequest(("d4", "d20"), "test")
    checked = request.check(Roll.parse("roll d20=0017 d4=3"))
    assert checked.text() == "roll d4=3 d20=17"
    in_order = RollRequest(("d10", "d%", "d10"), "test")
    assert in_order.check(Roll.parse("roll d10=0 d%=00 d10=7")).values == (10, 100, 7)
    assert in_order.check(Roll.parse("roll d10=10 d%=30 d10=7")).values == (10, 30, 7)
    with pytest.raises(BadRoll, match="a d10 has no face 11"):
        in_order.check(Roll.parse("roll d10=11 d%=30 d10=7"))
    with pytest.raises(BadRoll, match="wanted 2 dice"):
        request.check(Roll.parse("roll d4=3"))
    with pytest.raises(BadRoll, match="wanted d4, d20, got d4, d12"):
        request.check(Roll.parse("roll d4=3 d12=5"))
    for bad in ("d4=3", "roll d4", "roll =3"):
        with pytest.raises(BadMoveText):
            Roll.parse(bad)
    assert issubclass(BadRoll, ValueError) and issubclass(IllegalMove, ValueError)


def test_registry_looks_up_and_never_guesses() -> None:
    assert "monstrous-horde" in game_names()
    assert get_game("monstrous-horde").name == "monstrous-horde"
    with pytest.raises(UnknownGame, match="unknown game 'monstrous'"):
        get_game("monstrous")
