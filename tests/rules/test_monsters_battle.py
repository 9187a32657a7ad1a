"""The Battle System's exchanges, each as the book words it: the Axe against a Shell and two
Minus, the special attacks, Stinger, Brain, Tentacle, damage placed die by die."""

from __future__ import annotations

import re

import pytest
from monsters_helpers import (
    MINUS_AT_4_AND_7,
    POSTURES,
    WOUNDER,
    ann_attacks_bob,
    monster,
    new_game,
    player,
    roll,
    titles,
    with_die,
)

from companion.rules.errors import BadRoll, IllegalMove

AXE = f"axe {POSTURES}"
SHELL = f"shell {POSTURES}"


def axe_against_shell() -> object:
    """The book's example: Ann's Axe (speed 3, 2 wound) against Bob's Shell and two Minus."""
    state = ann_attacks_bob(monster(AXE), monster(SHELL), ("axe",), ("shell", "minus", "minus"))
    state.apply_text("hit 1")
    return state


def test_the_axe_is_ranked_with_the_damage_it_does_and_what_gets_through() -> None:
    state = ann_attacks_bob(monster(AXE), monster(SHELL), ("axe",), ("shell", "minus", "minus"))
    ranked = state.ranked_moves()
    assert [m.move.text() for m in ranked] == ["hit 1", "pass"]
    assert ranked[0].title.startswith("Axe at Bob: 2 wound, speed 3 (health -4)")
    assert "nothing gets through" in ranked[0].title  # Bob's best answer stops it
    assert ranked[0].points == 0


def test_shell_and_two_minus_stop_the_axe_a_single_shell_is_too_slow() -> None:
    state = axe_against_shell()
    named = titles(state)
    assert named["defend 1+2+3"] == "Shell + Minus + Minus: nothing gets through"
    assert named["defend 1"] == ("Shell: 2 wound through (health -4) (too slow for this "
                                 "attack)")
    assert named["defend 1+2"].startswith("Shell + Minus: 2 wound through")  # speed 2 < 3
    assert named["take"] == "No defence: 2 wound through (health -4)"
    assert next(iter(named)) in ("defend 1+2+3", "defend 2+3+4")  # stops it all, ranked first
    state.apply_text("defend 1+2+3")
    assert player(state, 1)["health"] == 16
    assert state.tell(state.parse_move("defend 1+2+3")).endswith("nothing gets through")


def test_a_single_shell_lets_the_axe_wound_two_dice_the_attacker_picks() -> None:
    state = axe_against_shell()
    state.apply_text("defend 1")
    assert state.current_player == 0  # the Axe is a targeted attack: Ann places the damage
    state.apply_text("hurt 5")
    state.apply_text("hurt 6")
    bob = player(state, 1)
    assert bob["health"] == 16 - 4
    assert bob["pools"]["wounded"] == 2 and bob["pools"]["ready"] == 14
    assert state.tell(state.parse_move("hurt 6")) == "Bob's die 6 is wounded: health 12"


def test_the_stun_attack_is_stopped_only_by_dodge_and_the_wound_attack_only_by_deflect() -> None:
    state = ann_attacks_bob(monster(f"stun {POSTURES}"), monster(),
                            ("stun",), ("block", "dodge", "deflect"))
    state.apply_text("hit 1")
    moves = {m.text() for m in state.legal_moves()}
    assert "defend 2" in moves and "defend 1" not in moves and "defend 3" not in moves
    with pytest.raises(IllegalMove, match="block cannot stop a stun attack"):
        state.apply_text("defend 1")
    state = ann_attacks_bob(monster(f"wound {POSTURES}"), monster(),
                            ("wound",), ("block", "dodge", "deflect"))
    state.apply_text("hit 1")
    moves = {m.text() for m in state.legal_moves()}
    assert "defend 3" in moves and "defend 1" not in moves and "defend 2" not in moves


def test_stinger_adds_a_stun_and_a_wound_when_not_stopped() -> None:
    state = ann_attacks_bob(monster(f"claw {POSTURES}", f"stinger {POSTURES}"), monster(),
                            ("claw", "stinger"), ())
    assert "hit 1+2" in titles(state)
    state.apply_text("hit 1+2")
    state.apply_text("take")  # 1 wound + 1 stun from the attack, +1 wound from the Stinger
    assert state.describe()["phase"] == "hurt"
    for die in (4, 5, 6):
        state.apply_text(f"hurt {die}")
    assert player(state, 1)["health"] == 16 - 2 - 2 - 1


def test_brain_gives_another_attack_after_a_successful_one() -> None:
    state = ann_attacks_bob(monster(f"claw {POSTURES}", f"brain {POSTURES}", f"tail {POSTURES}"),
                            monster(), ("claw", "brain", "tail"), ())
    state.apply_text("hit 1+2")
    state.apply_text("take")
    state.apply_text("hurt 4")
    assert state.describe()["combat"]["striking"] == "Ann"  # Ann again, before the counter
    assert "hit 3" in titles(state)


def test_a_tentacle_holds_a_die_until_the_grapplers_next_turn() -> None:
    state = ann_attacks_bob(monster(f"tentacle {POSTURES}"), monster(), ("tentacle",), ())
    state.apply_text("hit 1")
    state.apply_text("take")
    assert state.describe()["phase"] == "grab"
    state.apply_text("grab 7")
    assert player(state, 0)["pools"]["grappled"] == 1 and player(state, 1)["pools"]["grappled"] == 1
    assert state.describe()["grapples"] == [{"holder": "Ann", "tentacle": 1, "held": "Bob",
                                             "die": 7}]
    state.apply_text("pass")  # Bob makes no counterattack; the combat ends; Ann has no wounds
    assert state.roll_wanted() is not None and len(state.roll_wanted().dice) == 15  # Bob: 15
    roll(state)
    state.apply_text("end")
    roll(state)  # Ann's turn: the grapple let go, Ann rolls all 16
    assert state.describe()["grapples"] == []
    assert player(state, 1)["dice"][6]["pool"] == "ready" and player(state, 1)["dice"][6]["spent"]


def test_each_rolled_die_s_faces_go_with_the_roll_wanted() -> None:
    """What each die rolled can show travels with the request (the demo's camera throws them):
    initiative rolls every die of the roller, in order."""
    leg = tuple(f"leg {POSTURES}".split())
    state = new_game(monster(AXE, "eye stun"), monster(SHELL))
    assert state.roll_wanted().faces == (tuple(AXE.split()), ("eye", "stun"), *[leg] * 14)
    roll(state, "plus", "eye")
    assert state.roll_wanted().faces == (tuple(SHELL.split()), *[leg] * 15)


def test_a_face_no_rolled_die_carries_is_refused_by_name() -> None:
    state = ann_attacks_bob(monster(AXE), monster(SHELL), ("axe",), ("shell",))
    state.undo()
    with pytest.raises(BadRoll, match="none of Bob's dice rolled here carries 'axe'"):
        roll(state, "axe")
    with pytest.raises(BadRoll, match="cannot show 2 'shell' with the rest of this roll: 1 of"):
        roll(state, "shell", "shell")


def test_health_goes_only_up_to_the_maximum_when_healing() -> None:
    state = ann_attacks_bob(monster(AXE), monster(), ("axe",), ())
    state.apply_text("hit 1")
    state.apply_text("take")
    state.apply_text("hurt 5")
    state.apply_text("hurt 6")
    state.apply_text("pass")  # Bob's counter; Ann, unhurt, has nothing to heal
    roll(state, fill="plus")  # Bob's turn, all Plus: 4 health to make up
    assert [m.text() for m in state.legal_moves()][:2] == ["attack 1", "end"]
    state.apply_text("end")
    assert [m.text() for m in state.legal_moves()] == ["heal 4", "heal 3", "heal 2", "heal 1",
                                                       "end"]
    state.apply_text("heal 4")
    assert player(state, 1)["health"] == 16


def test_bellows_are_two_minus_and_one_die_of_speed() -> None:
    state = ann_attacks_bob(monster(AXE), monster(SHELL, f"bellows {POSTURES}"),
                            ("axe",), ("shell", "bellows", "minus"))
    state.apply_text("hit 1")
    named = titles(state)
    assert named["defend 1+2"].endswith("(too slow for this attack)")  # speed 2 against 3
    assert named["defend 1+2+3"] == "Shell + Bellows + Minus: nothing gets through"
    assert named["defend 2+3"] == "Bellows + Minus: 2 wound through (health -4) (too slow for " \
                                  "this attack)"


def test_a_potion_returns_a_wounded_die_with_its_health() -> None:
    state = ann_attacks_bob(monster(f"potion {POSTURES}"), monster(), ("potion",), ())
    state = with_die(state, 0, 5, "wounded", 14)
    state.apply_text("pass")  # Ann makes no attack
    state.apply_text("pass")  # nor does Bob
    assert titles(state) == {"mend 6": "Potion: die 6 (wounded) back to the pool", "end":
                             "Heal nothing"}
    state.apply_text("mend 6")
    assert player(state, 0)["health"] == 16 and player(state, 0)["pools"]["wounded"] == 0


def test_a_defenders_lungs_make_the_attacker_reroll_the_attack_die() -> None:
    state = ann_attacks_bob(monster(f"claw {POSTURES}"), monster(SHELL, f"lungs {POSTURES}"),
                            ("claw",), ("shell", "lungs"))
    state.apply_text("hit 1")
    state.apply_text("defend 1+2")
    wanted = state.roll_wanted()
    assert wanted is not None and wanted.dice == ("monsters",) and wanted.player == 0
    roll(state, "plus")  # the Claw comes up a Plus: the attack no longer applies
    assert "the plus no longer attacks" in state.describe()["news"]
    assert player(state, 1)["health"] == 16
    assert state.describe()["combat"]["striking"] == "Bob"  # on to the counterattack


def test_a_tentacle_that_holds_a_die_can_itself_be_grappled_and_lets_go() -> None:
    tentacle = f"tentacle {POSTURES}"
    state = ann_attacks_bob(monster(tentacle), monster(tentacle), ("tentacle",), ("tentacle",),
                            grapple="until-gone")  # or Bob's turn, next, would let go too
    state.apply_text("hit 1")
    state.apply_text("take")
    state.apply_text("grab 7")  # Ann's Tentacle holds Bob's die 7
    state.apply_text("hit 1")  # Bob's counter: his Tentacle
    state.apply_text("take")
    assert "grab 1" in {m.text() for m in state.legal_moves()}  # Ann's holding Tentacle
    state.apply_text("grab 1")
    assert state.describe()["grapples"] == [{"holder": "Bob", "tentacle": 1, "held": "Ann",
                                             "die": 1}]
    bob = player(state, 1)
    assert bob["dice"][6]["pool"] == "ready" and bob["dice"][6]["spent"]


def test_a_plus_after_the_attack_heals_a_point_or_removes_a_stun() -> None:
    """A Plus "is used to add one to a given attack die or to remove a stun effect", and "If a
    player receives stun damage, their health is reduced by one": removing the stun gives the
    point back, as Bloodborne and Invasion's Plus do."""
    state = ann_attacks_bob(monster(), monster(), ("plus",), ())
    state = with_die(state, 0, 5, "stunned", 15)
    state.apply_text("pass")
    state.apply_text("pass")
    assert [m.text() for m in state.legal_moves()] == ["heal 1", "unstun 6", "end"]
    state.apply_text("unstun 6")
    ann = player(state, 0)
    assert ann["pools"]["stunned"] == 0 and ann["health"] == 16



def test_a_move_names_each_die_by_its_chip_on_the_tray() -> None:
    """Words number a die by its place in its owner's last roll (the tray's chips), not by its
    place in the monster; the command keeps the monster's numbers."""
    state = ann_attacks_bob(WOUNDER, MINUS_AT_4_AND_7, ("arm", "wound"), ("minus", "minus"))
    state.apply_text("hit 2")
    move = state.parse_move("defend 4+7")  # the monster's 4th and 7th dice
    state.apply(move)
    said = state.tell(move)
    assert said.startswith("Bob defends with Minus (die ") and said.count("Minus (die ") == 2
    assert sorted(re.findall(r"Minus \(die (\d+)\)", said)) == ["1", "2"], said
