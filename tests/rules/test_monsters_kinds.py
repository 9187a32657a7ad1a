"""The kinds' powers, each taking a token: Pain, Frozen, Flame, Disease, Demonic, Void, Decay,
Bloodborne."""

from __future__ import annotations

from monsters_helpers import POSTURES, ann_attacks_bob, monster, player, titles, with_die

CLAW = f"claw {POSTURES}"


def test_pain_is_one_stun_nobody_can_stop_and_takes_the_token() -> None:
    state = ann_attacks_bob(monster(), monster(), (), (), kinds="pain\nnone")
    assert titles(state)["pain"] == "Pain: Bob takes one stun nobody can stop"
    state.apply_text("pain")
    assert state.describe()["phase"] == "hurt" and state.current_player == 1
    state.apply_text("hurt 4")
    assert player(state, 1)["health"] == 15 and player(state, 0)["tokens"]["primary"] == 0


def test_frozen_turns_a_wound_that_gets_through_into_a_stun() -> None:
    state = ann_attacks_bob(monster(CLAW), monster(), ("claw",), (), kinds="none\nfrozen")
    state.apply_text("hit 1")
    assert titles(state)["take"] == "No defence: 1 stun through (health -1)"
    state.apply_text("take")
    state.apply_text("frozen")
    state.apply_text("hurt 4")
    assert player(state, 1)["pools"]["stunned"] == 1 and player(state, 1)["health"] == 15
    assert player(state, 1)["tokens"]["primary"] == 0


def test_frozen_is_offered_and_the_token_may_be_kept() -> None:
    """Kinds of Monsters: "A frozen monster may convert one point of undefended wound damage to
    one point of stun damage." May, not must: Bob is asked, and keeping the token lets the
    wound land."""
    state = ann_attacks_bob(monster(CLAW), monster(), ("claw",), (), kinds="none\nfrozen")
    state.apply_text("hit 1")
    state.apply_text("take")
    assert state.current_player == 1 and [m.text() for m in state.legal_moves()] == [
        "frozen", "keep"]
    assert titles(state)["frozen"].startswith("Frozen: 1 stun through (health -1)")
    state.apply_text("keep")
    state.apply_text("hurt 4")
    assert player(state, 1)["pools"]["wounded"] == 1 and player(state, 1)["health"] == 14
    assert player(state, 1)["tokens"]["primary"] == 1


def test_flame_turns_a_stun_that_gets_through_into_a_wound() -> None:
    """"A flame monster may convert one point of undefended stun damage to one wound damage":
    Ann, striking, chooses."""
    state = ann_attacks_bob(monster(), monster(), ("leg",), (), kinds="flame\nnone")
    state.apply_text("hit 1")
    assert titles(state)["take"] == "No defence: 1 wound through (health -2)"
    state.apply_text("take")
    assert state.current_player == 0 and {m.text() for m in state.legal_moves()} == {
        "flame", "keep"}
    state.apply_text("flame")
    state.apply_text("hurt 4")
    assert player(state, 1)["pools"]["wounded"] == 1 and player(state, 0)["tokens"]["primary"] == 0


def test_disease_gives_the_attacker_a_stun_for_each_wound() -> None:
    state = ann_attacks_bob(monster(CLAW), monster(), ("claw",), (), kinds="none\ndisease")
    state.apply_text("hit 1")
    state.apply_text("take")
    state.apply_text("hurt 4")  # Bob's die wounded; then Ann takes the Disease's stun
    assert state.describe()["phase"] == "hurt" and state.current_player == 0
    state.apply_text("hurt 5")
    assert player(state, 0)["health"] == 15 and player(state, 1)["health"] == 14


def test_a_demonic_eye_is_a_ray_that_block_cannot_stop_but_dodge_can() -> None:
    state = ann_attacks_bob(monster(f"eye {POSTURES}"), monster(), ("eye",), ("block", "dodge"),
                            kinds="demonic\nnone")
    assert titles(state)["hit 1"].startswith("Eye at Bob: 2 stun (health -2)")
    state.apply_text("hit 1")
    moves = {m.text() for m in state.legal_moves()}
    assert "defend 2" in moves and "defend 1" not in moves


def test_void_defender_takes_a_point_off_what_gets_through() -> None:
    """"A void monster may reduce an attack or defense by one point": offered to Bob once he
    takes the blow."""
    state = ann_attacks_bob(monster(CLAW, f"thagomizer {POSTURES}"), monster(),
                            ("claw", "thagomizer"), (), kinds="none\nvoid")
    state.apply_text("hit 1+2")
    assert titles(state)["take"] == "No defence: 1 wound through (health -2)"
    state.apply_text("take")
    assert [m.move.text() for m in state.ranked_moves()] == ["void", "keep"]
    state.apply_text("void")
    state.apply_text("hurt 4")
    assert player(state, 1)["health"] == 14 and player(state, 1)["tokens"]["primary"] == 0


def test_decay_wounds_a_stunned_die_before_striking() -> None:
    state = ann_attacks_bob(monster(), monster(), (), (), kinds="decay\nnone")
    state = with_die(state, 1, 3, "stunned", 15)
    assert titles(state)["decay 4"] == "Decay: Bob's stunned die 4 becomes a wound (health -1)"
    state.apply_text("decay 4")
    assert player(state, 1)["pools"]["wounded"] == 1 and player(state, 1)["health"] == 14
    assert state.describe()["phase"] == "strike"  # Ann still strikes


def test_bloodborne_unstuns_one_of_its_dice_when_it_wounds() -> None:
    state = ann_attacks_bob(monster(CLAW), monster(), ("claw",), (), kinds="bloodborne\nnone")
    state = with_die(state, 0, 7, "stunned", 15)
    state.apply_text("hit 1")
    state.apply_text("take")
    state.apply_text("hurt 4")
    assert player(state, 0)["pools"]["stunned"] == 0 and player(state, 0)["health"] == 16
