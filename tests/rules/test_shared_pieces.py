"""The pieces the games share (positions, verb moves, words, options, Game's state making): what
each promises on its own, apart from any one game's rules."""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from companion.rules.core import Roll
from companion.rules.errors import BadMoveText, IllegalMove, RulesError
from companion.rules.games.fantahzee.moves import Act as FantahzeeAct
from companion.rules.games.village_attacks.moves import Act as VillageAct
from companion.rules.options import SchemaOptions, schema_options
from companion.rules.positions import DataPosition
from companion.rules.records import slug, whole_number
from companion.rules.registry import game_names, get_game
from companion.rules.verbs import split_verb
from companion.rules.words import joined, line, scored

SCHEMA = [{"name": "fast", "type": "bool", "default": False, "help": "-"},
          {"name": "target", "type": "int", "default": 10, "min": 1, "max": 99, "help": "-"}]


@schema_options(SCHEMA)
class _Options(SchemaOptions):
    fast: bool = False
    target: int = 10


@dataclass
class _Position(DataPosition[_Options]):
    options_type = _Options
    game_name = "test-game"


def _position() -> _Position:
    s = {"seat": 1, "step": {"kind": "act"}, "winners": None, "reason": "", "board": [[1, 2]]}
    return _Position(["Ann", "Bob"], _Options(target=20), s)


def test_a_data_position_copies_deeply_and_round_trips_through_json() -> None:
    pos = _position()
    copy = pos.copy()
    copy.s["board"][0].append(3)
    assert pos.s["board"] == [[1, 2]] and copy.options is pos.options
    again = _Position.from_json(pos.to_json())
    assert again == pos and again.seat == 1 and again.step == {"kind": "act"}
    assert again.options.target == 20 and again.winners is None


def test_a_corrupt_data_position_is_refused_naming_the_game() -> None:
    saved = _position().to_json()
    del saved["s"]
    with pytest.raises(RulesError, match="corrupt test-game position: 's'"):
        _Position.from_json(saved)
    with pytest.raises(RulesError, match="unknown option"):
        _Position.from_json({**saved, "s": {}, "options": {"slow": True}})


def test_options_whose_defaults_drift_from_the_schema_are_refused_at_import() -> None:
    with pytest.raises(TypeError, match="target"):
        @schema_options(SCHEMA)
        class _Drifted(SchemaOptions):
            fast: bool = False
            target: int = 12
    assert _Options.SCHEMA is SCHEMA and _Options().to_json() == {"fast": False, "target": 10}
    with pytest.raises(RulesError, match="target is a whole number from 1 to 99"):
        _Options.from_json({"target": 100})


def test_an_option_bounded_on_one_side_names_only_that_bound() -> None:
    @schema_options([{"name": "n", "type": "int", "default": 3, "min": 1, "help": "-"}])
    class _AtLeast(SchemaOptions):
        n: int = 3
    with pytest.raises(RulesError, match=r"^n is a whole number of at least 1, not 0$"):
        _AtLeast.from_json({"n": 0})
    assert _AtLeast.from_json({"n": 10**6}).n == 10**6


def test_every_game_options_schema_is_its_options_class() -> None:
    for name in game_names():
        game = get_game(name)
        assert game.options_schema() == game.options_type.SCHEMA
        assert game.options_type.from_json(None).to_json() == {
            item["name"]: item["default"] for item in game.options_schema()}


def test_verb_moves_are_each_game_own_type() -> None:
    assert FantahzeeAct.of("fight", 2) == FantahzeeAct("fight", ("2",))
    assert FantahzeeAct.of("fight", 2).text() == "fight 2"
    assert FantahzeeAct("end") != VillageAct("end")  # same words, another game's move
    assert split_verb("Move hall Melee", frozenset({"move"}), "Test") == ("move", ["hall", "Melee"])
    with pytest.raises(BadMoveText, match=r"'fly' is not a Test move \(end, move\)"):
        split_verb("fly", frozenset({"move", "end"}), "Test")


def test_another_game_move_is_refused_and_roll_text_goes_to_the_roll_parser() -> None:
    state = get_game("village-attacks")().new_state(["Ann", "Bob"])
    rng = random.Random(1)
    while state.roll_wanted() is not None:  # past any setup roll to a player's move
        state.apply(state.seeded_roll(rng))
    with pytest.raises(IllegalMove, match="not a Village Attacks move"):
        state.apply(FantahzeeAct("end"))
    assert state.parse_move(" roll  village=Melee") == Roll.parse("roll village=Melee")
    with pytest.raises(BadMoveText, match="not a Village Attacks move"):
        state.parse_move("rolling")


def test_restoring_another_game_state_is_refused() -> None:
    saved = get_game("fantahzee")().new_state(["Ann", "Bob"]).to_json()
    assert get_game("fantahzee")().state_from_json(saved).to_json() == saved
    with pytest.raises(RulesError, match="not a monsters state"):
        get_game("monsters")().state_from_json(saved)
    with pytest.raises(RulesError, match="corrupt monstrous-horde state"):
        get_game("monstrous-horde")().state_from_json(
            {"game": "monstrous-horde", "position": {"names": ["Ann", "Bob"]}})


def test_shared_words() -> None:
    assert [joined(["a"]), joined(["a", "b"]), joined(["a", "b", "c"])] == [
        "a", "a and b", "a, b and c"]
    before = SimpleNamespace(names=["Ann", "Bob"], scores=[3, 5], winners=None, reason="")
    after = SimpleNamespace(names=["Ann", "Bob"], scores=[3, 9], winners=[1], reason="Bob won")
    assert scored(before, after, " XP") == ["Bob +4 XP", "game over: Bob won"]
    assert scored(before, before) == []
    assert line("Bob rolled 6", scored(before, after)) == "Bob rolled 6 | Bob +4, game over: Bob won"
    assert line("Ann passed", []) == "Ann passed"


def test_record_ids_and_whole_numbers_are_read_alike_for_every_game() -> None:
    assert [slug("Fire Bolt"), slug(" goblin-king "), slug("_x"), slug(None)] == [
        "fire_bolt", "goblinking", "", ""]
    record = {"id": "ogre", "copies": "2", "xp": "", "level": "two", "strength": -1}
    assert whole_number(record, "copies", "'ogre'", RulesError, 1, 1) == 2
    assert whole_number(record, "xp", "'ogre'", RulesError, 3) == 3
    for key, said in (("level", "'ogre': level is a whole number, not 'two'"),
                      ("strength", "'ogre': strength is at least 0, not -1"),
                      ("boss", "'ogre' needs boss")):
        with pytest.raises(RulesError, match=said):
            whole_number(record, key, "'ogre'", RulesError)
