"""Every worked example of the rulebook, played through the public API as the text tells it."""

from __future__ import annotations

import pytest
from horde_helpers import best, character, enemies, new_game, play, roll

from companion.rules.errors import IllegalMove


def test_polly_attack_best_move_scores_one_enemy() -> None:
    """Enemies 6, 10, 11, 15; Polly rolls d4=2 d6=4 d10=3 d12=9: only 2+4 -> 6 is possible."""
    state = new_game((15, 6, 11, 10))
    assert enemies(state) == [6, 10, 11, 15]
    play(state, "team wizard rogue druid paladin", roll("d4=2", "d6=4", "d10=3", "d12=9"), "keep")
    top = best(state)
    assert top.points == 10
    assert top.move.text() == "attack e1=wizard,rogue"
    assert "Wizard 2 + Rogue 4 -> enemy 6" in top.detail
    assert all(m.points <= 10 for m in state.ranked_moves())
    with pytest.raises(IllegalMove, match="needs exactly 15, druid\\+paladin make 12"):
        state.apply_text("attack e1=wizard,rogue; attack e4=druid,paladin")


def test_polly_rerolls_into_a_wound() -> None:
    """She rerolls the 3 and the 9, gets 1 and 5: the die showing 1 is wounded when the turn ends."""
    state = new_game((6, 10, 11, 15))
    play(state, "team wizard rogue druid paladin", roll("d4=2", "d6=4", "d10=3", "d12=9"),
         "reroll druid paladin", roll("d10=1", "d12=5"))
    assert character(state, 0, "druid")["value"] == 1
    assert not character(state, 0, "druid")["wounded"]  # still fights until the turn ends
    play(state, "attack e1=wizard,rogue")
    assert state.scores() == [10, 0]
    assert character(state, 0, "druid")["wounded"]
    assert state.roll_wanted().reason == "defeated enemies replaced"


def _wound_polly_druid() -> object:
    state = new_game((6, 11, 13, 15))
    play(state, "team druid", roll("d10=1"), "keep", "end")
    play(state, "team wizard", roll("d4=3"), "keep", "end")  # Pip's turn
    assert character(state, 0, "druid")["wounded"]
    return state


def test_polly_heals_her_druid() -> None:
    """Wizard 2 + Rogue 5 + Cleric 3 = 10 sides of the Druid: healed; the Barbarian's 15 attacks."""
    state = _wound_polly_druid()
    play(state, "team wizard rogue cleric barbarian", roll("d4=2", "d6=5", "d8=3", "d20=15"),
         "keep")
    top = best(state)
    assert top.points == 10 and top.extra["heals"] == 1
    assert top.move.text() == "attack e4=barbarian; heal druid=wizard,rogue,cleric"
    assert top.detail == "Barbarian 15 -> enemy 15; Wizard 2 + Rogue 5 + Cleric 3 heal Druid"
    with pytest.raises(IllegalMove, match="druid is not a wounded|needs exactly 10"):
        state.apply_text("heal druid=wizard,rogue")
    play(state, top.move.text())
    assert not character(state, 0, "druid")["wounded"]
    assert state.scores()[0] == 10


def test_wounded_druid_cannot_join_the_team() -> None:
    state = _wound_polly_druid()
    with pytest.raises(IllegalMove, match="druid is wounded"):
        state.apply_text("team druid wizard")


def test_pip_fire_bolts_and_rage_on_the_ogre() -> None:
    """Wizard 4 fires bolts: 4 (spawns another) and 2; Wizard+bolt -> 8, bolt 2 -> 2; Rage -> Ogre."""
    state = new_game((2, 8, 12, 18), players=("Pip", "Polly"))
    play(state, "team wizard barbarian", roll("d4=4", "d20=20"), "keep", "firebolt")
    assert state.roll_wanted().reason == "Fire Bolt"
    play(state, roll("d4=4"))
    assert state.roll_wanted().dice == ("d4",)  # a 4 spawns another bolt
    play(state, roll("d4=2"))
    assert state.describe()["pool"]["bolts"] == [4, 2]
    assert state.current_player == 0  # a 2 ends the chain
    top = best(state)
    assert top.points == 40
    assert top.move.text() == "attack e1=bolt2; attack e2=wizard,bolt1; rage e4"
    play(state, top.move.text())
    assert state.scores()[0] == 40


def test_fire_bolts_stop_after_three() -> None:
    state = new_game((2, 8, 12, 18))
    play(state, "team wizard", roll("d4=4"), "keep", "firebolt", roll("d4=4"), roll("d4=4"),
         roll("d4=4"))
    assert state.describe()["pool"]["bolts"] == [4, 4, 4]
    assert state.current_player == 0


def test_polly_bear_form_options() -> None:
    """Druid 10, bear d10s 4 and 7: 10, 14, 17, 21, 4, 7 or 11, all on a single enemy."""
    for value, dice in [(10, "druid"), (14, "druid,bear1"), (17, "druid,bear2"),
                        (4, "bear1"), (7, "bear2"), (11, "bear1,bear2")]:
        state = new_game((value, 3, 5, 19))
        play(state, "team druid", roll("d10=10"), "keep", "bear", roll("d10=4", "d10=7"))
        slot = enemies(state).index(value) + 1
        play(state, f"attack e{slot}={dice}")
        assert state.scores()[0] == (20 if value == 19 else 10)
    state = new_game((4, 5, 17, 19))
    play(state, "team druid", roll("d10=10"), "keep", "bear", roll("d10=4", "d10=7"))
    with pytest.raises(IllegalMove, match="single enemy"):
        state.apply_text("attack e1=bear1; attack e3=druid,bear2")
    assert best(state).points == 10
    with pytest.raises(IllegalMove):
        state.apply_text("heal wizard=druid")


def test_holy_guidance_and_backstab_in_both_orders() -> None:
    """A 7 guided to 6 or 8 then doubled: 12 or 16; doubled to 14 then guided: 13 or 15."""
    for target, die in [(12, "paladin-1*2"), (16, "paladin+1*2"), (13, "paladin*2-1"),
                        (15, "paladin*2+1")]:
        state = new_game((target, 2, 3, 4))
        play(state, "team rogue cleric paladin", roll("d6=6", "d8=8", "d12=7"), "keep")
        slot = enemies(state).index(target) + 1
        play(state, f"attack e{slot}={die}")
        assert state.scores()[0] == 10
    state = new_game((16, 7, 3, 4))
    play(state, "team rogue cleric paladin", roll("d6=6", "d8=8", "d12=7"), "keep")
    with pytest.raises(IllegalMove, match="Holy Guidance"):
        state.apply_text("attack e4=paladin+1*2; attack e3=rogue+1")  # guidance only once
    state = new_game((16, 12, 3, 4))
    play(state, "team rogue cleric paladin", roll("d6=6", "d8=8", "d12=7"), "keep")
    with pytest.raises(IllegalMove, match="Backstab"):
        state.apply_text("attack e3=rogue*2; attack e4=paladin+1*2")  # backstab only once


def test_guidance_does_not_make_a_crit() -> None:
    """A Rogue's 5 guided to 6 does not earn Backstab."""
    state = new_game((12, 2, 3, 4))
    play(state, "team rogue cleric", roll("d6=5", "d8=8"), "keep")
    with pytest.raises(IllegalMove, match="Backstab needs"):
        state.apply_text("attack e4=rogue+1*2")


def test_dee_inspires_her_barbarian() -> None:
    """Wizard 1 (rerolled: 1 again), Cleric 6, Druid 4, Paladin 12 inspires the Barbarian."""
    state = new_game((6, 10, 11, 15), players=("Dee", "Pip"))
    play(state, "team wizard cleric druid paladin", roll("d4=1", "d8=6", "d10=4", "d12=12"),
         "reroll wizard", roll("d4=1"))
    options = {m.move.text() for m in state.ranked_moves()}
    assert {"inspire cleric", "inspire druid", "inspire wizard", "inspire barbarian"} <= options
    assert "inspire paladin" not in options
    play(state, "inspire barbarian", roll("d20=15"))
    assert character(state, 0, "barbarian")["in_team"]
    assert best(state).points == 20  # Cleric 6 + Druid 4 -> 10 and Barbarian 15 -> 15
    play(state, "attack e4=barbarian")
    assert state.scores()[0] == 10
    assert character(state, 0, "wizard")["wounded"]
    assert not character(state, 0, "barbarian")["wounded"]


def test_six_headed_hydra() -> None:
    """The d6 says Hydra, the d4 rolls 3: six heads, the d20 and five d10s (1s rerolled)."""
    state = new_game((20, 5, 9, 18), epic=(
        roll("d10=3", "d6=5"), roll("d4=3"), roll("d10=2", "d10=1", "d10=7", "d10=7", "d10=10"),
        roll("d10=4")))
    hydra = next(e for e in state.describe()["enemies"] if e["monster"] == "hydra")
    assert [h["value"] for h in hydra["heads"]] == [2, 4, 7, 7, 10]
    assert hydra["value"] == 20 and hydra["d10"] is None
    assert len(hydra["heads"]) + 1 == 6
