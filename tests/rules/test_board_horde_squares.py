"""Board Horde: what a hero lands on. Traps, Monsters, Potions and Special Items, each row of their
tables played with the dice fixed."""

from __future__ import annotations

import pytest
from board_horde_helpers import at, midgame, moves, play, token, wanted

from companion.rules.errors import IllegalMove

# -- traps -------------------------------------------------------------------------------------

def test_trap_zap_sends_the_hero_to_its_portal_and_the_trap_stays() -> None:
    state = midgame({"blue-warrior": 10}, traps="12")
    play(state, 2, "move warrior")
    assert "blue-warrior is on a trap: 1 zap, 2-4 fling back, 5+ safe" in wanted(state)
    play(state, 1)
    assert at(state, "blue-warrior") == "portal" and token(state, "t1")["at"] == "12"
    assert state.scores() == [0, 0] and state.roll_wanted().player == 1


def test_fling_back_moves_the_hero_back_by_a_second_roll() -> None:
    state = midgame({"blue-warrior": 10}, traps="12")
    play(state, 2, "move warrior", 3)
    assert "flung back" in wanted(state)
    play(state, 4)
    assert at(state, "blue-warrior") == "8" and state.roll_wanted().player == 1


def test_fling_back_onto_a_hero_destroys_both_and_onto_a_trap_rolls_again() -> None:
    state = midgame({"blue-warrior": 10, "red-mage": 9}, traps="12", items={"sword": "red-mage"})
    play(state, 2, "move warrior", 2, 3)
    assert at(state, "blue-warrior") == "portal" and at(state, "red-mage") == "portal"
    assert state.scores() == [3, 0]
    assert next(i["at"] for i in state.describe()["items"] if i["id"] == "sword") == "9"
    state = midgame({"blue-warrior": 14}, traps="10 16")
    play(state, 2, "move warrior", 4, 6)
    assert at(state, "blue-warrior") == "10" and "blue-warrior is on a trap" in wanted(state)
    play(state, 1)
    assert at(state, "blue-warrior") == "portal"


def test_a_trap_that_fails_scores_two_and_a_rogue_claims_it() -> None:
    state = midgame({"blue-rogue": 10, "blue-warrior": 8, "red-mage": 4}, traps="12")
    play(state, 2, "move rogue", 6)
    assert moves(state) == ["claim", "keep"] and state.scores() == [2, 0]
    play(state, "claim")
    assert token(state, "t1")["owner"] == 0 and state.scores() == [2, 0]
    play(state, 1, "move mage", 3, "move rogue", 1, "move mage")
    play(state, 4, "move warrior")  # onto Ann's own claimed trap: no roll
    assert at(state, "blue-warrior") == "12" and state.roll_wanted().player == 1


def test_a_claimed_trap_still_springs_on_the_other_teams() -> None:
    state = midgame({"red-mage": 10}, seat=1, traps="12",
                    position={"tokens": {"t1": {"kind": "trap", "at": [0, 12], "owner": 0}}})
    play(state, 2, "move mage")
    assert "red-mage is on a trap" in wanted(state)


def test_a_kept_trap_adds_one_to_every_later_trap_roll() -> None:
    state = midgame({"blue-rogue": 10, "blue-warrior": 14}, traps="12 16")
    play(state, 2, "move rogue", 5, "keep")
    assert token(state, "t1") is None
    assert state.describe()["players"][0]["kept_traps"] == 1
    state = midgame({"blue-warrior": 14}, traps="16", position={"kept_traps": [1, 0]})
    play(state, 2, "move warrior")
    assert "(+1 to the roll)" in wanted(state)
    play(state, 1)  # 1 + 1 = 2: a fling back, not a zap
    assert "flung back" in wanted(state)


def test_shoes_walk_over_traps_and_a_rogue_may_still_keep_them() -> None:
    state = midgame({"blue-warrior": 10}, traps="12", items={"shoes": "blue-warrior"})
    play(state, 2, "move warrior")
    assert at(state, "blue-warrior") == "12" and state.scores() == [2, 0]
    assert state.roll_wanted().player == 1
    state = midgame({"blue-rogue": 10}, traps="12", items={"shoes": "blue-rogue"})
    play(state, 2, "move rogue")
    assert moves(state) == ["claim", "keep"]


def test_claiming_a_trap_another_team_claimed_takes_it_over() -> None:
    state = midgame({"blue-rogue": 10}, traps="12",
                    position={"tokens": {"t1": {"kind": "trap", "at": [0, 12], "owner": 1}}})
    play(state, 2, "move rogue", 5, "claim")
    assert token(state, "t1")["owner"] == 0


# -- monsters ----------------------------------------------------------------------------------

def test_a_monster_wins_on_one_to_three() -> None:
    state = midgame({"blue-mage": 10}, monsters="12")
    play(state, 2, "move mage")
    assert "blue-mage fights a monster: 4+ wins" in wanted(state)
    play(state, 3)
    assert at(state, "blue-mage") == "portal" and token(state, "m1") is not None


def test_a_hero_that_wins_removes_the_monster_for_three_points() -> None:
    state = midgame({"blue-mage": 10}, monsters="12")
    play(state, 2, "move mage", 4)
    assert token(state, "m1") is None and state.scores() == [3, 0]
    assert at(state, "blue-mage") == "12" and state.roll_wanted().player == 1


def test_a_warrior_tames_a_monster_that_then_spares_its_team_only() -> None:
    state = midgame({"blue-warrior": 10, "blue-mage": 11, "red-warrior": 7}, monsters="12")
    play(state, 2, "move warrior", 5)
    assert moves(state) == ["tame", "keep"]
    play(state, "tame")
    assert token(state, "m1")["owner"] == 0 and state.scores() == [3, 0]
    play(state, 1, "move warrior", 4, "move warrior", 1, "move warrior")
    play(state, 1, "move mage")  # Ann's mage onto her tamed monster: no fight
    assert at(state, "blue-mage") == "12" and state.roll_wanted().player == 1
    play(state, 3, "move warrior")  # Bob's warrior knocks the mage out, then fights
    assert "red-warrior fights a monster" in wanted(state)
    play(state, 6)
    assert token(state, "m1")["owner"] is None  # beaten by Bob: Ann's marker goes back
    play(state, "tame")
    assert token(state, "m1")["owner"] == 1 and state.scores() == [3, 6]


def test_a_kept_monster_and_the_sword_add_to_fights() -> None:
    state = midgame({"blue-warrior": 10}, monsters="12 16")
    play(state, 2, "move warrior", 4, "keep")
    assert token(state, "m1") is None and state.describe()["players"][0]["kept_monsters"] == 1
    state = midgame({"blue-rogue": 10}, monsters="12", items={"sword": "blue-rogue"},
                    position={"kept_monsters": [1, 0]})
    play(state, 2, "move rogue")
    assert "(+2 to the roll)" in wanted(state)
    play(state, 2)
    assert token(state, "m1") is None and at(state, "blue-rogue") == "12"


# -- potions -----------------------------------------------------------------------------------

def test_a_hero_other_than_the_mage_drinks_a_potion_at_once() -> None:
    state = midgame({"blue-rogue": 10, "red-mage": 11}, potions="12")
    play(state, 2, "move rogue")
    assert "potion: 1 teleport, 2-3 death pulse" in wanted(state) and state.scores() == [1, 0]
    play(state, 3)  # Death Pulse: the foe on the next square is destroyed
    assert at(state, "red-mage") == "portal" and state.scores() == [4, 0]
    assert token(state, "p1") is None


def test_death_pulse_destroys_monsters_and_foes_on_both_sides() -> None:
    state = midgame({"blue-rogue": 10, "red-mage": 13, "blue-mage": 11}, potions="12",
                    monsters="13")
    play(state, 2, "move rogue", 2)
    assert at(state, "red-mage") == "portal" and at(state, "blue-mage") == "11"
    assert token(state, "m1") is None and state.scores() == [1 + 3 + 3, 0]


def test_a_mage_stores_a_potion_and_any_hero_uses_it_before_moving() -> None:
    state = midgame({"blue-mage": 10, "blue-rogue": 20, "red-rogue": 21}, potions="12")
    play(state, 2, "move mage")
    assert moves(state) == ["collect", "drink"]
    play(state, "collect")
    assert state.describe()["players"][0]["stored_potions"] == 1 and state.scores() == [1, 0]
    play(state, 1, "move rogue")  # Bob: red-rogue to 22
    assert moves(state) == ["go", "potion rogue", "potion mage"]
    play(state, "potion rogue", 6)
    assert moves(state) == ["flick red-rogue"]
    play(state, "flick red-rogue")
    assert at(state, "red-rogue") == "portal" and state.scores() == [4, 0]
    assert "Ann's movement roll" in wanted(state)


def test_the_stored_potion_option_may_make_it_take_the_place_of_the_move() -> None:
    state = midgame({"blue-mage": 10, "red-rogue": 30}, seat=1, stored_potion="instead",
                    position={"stored": [1, 0]})
    play(state, 1, "move rogue")
    play(state, "potion mage", 5)  # Switcheroo with the red rogue ahead
    play(state, "switch red-rogue")
    assert at(state, "blue-mage") == "31" and at(state, "red-rogue") == "10"
    assert state.roll_wanted().player == 1


def test_teleport_moves_forward_crushing_what_it_lands_on() -> None:
    state = midgame({"blue-rogue": 10, "red-mage": 17}, potions="12", traps="20")
    play(state, 2, "move rogue", 1)
    assert "teleports" in wanted(state)
    play(state, 5)
    assert at(state, "blue-rogue") == "17" and at(state, "red-mage") == "portal"
    assert state.scores() == [1 + 3, 0] and state.roll_wanted().player == 1
    state = midgame({"blue-rogue": 10}, potions="12", traps="20")
    play(state, 2, "move rogue", 1, 6)
    assert at(state, "blue-rogue") == "18"


def test_a_trap_under_a_teleport_fails_and_a_rogue_may_claim_it() -> None:
    state = midgame({"blue-rogue": 10}, potions="12", traps="15")
    play(state, 2, "move rogue", 1, 3)
    assert moves(state) == ["claim", "keep"] and state.scores() == [1 + 2, 0]


def test_switcheroo_needs_a_foe_in_front_and_sets_off_nothing() -> None:
    state = midgame({"blue-rogue": 10, "red-rogue": 5, "red-mage": 20}, potions="12",
                    monsters="25")
    play(state, 2, "move rogue", 4)
    assert moves(state) == ["switch red-mage", "switch m1"]
    play(state, "switch m1")
    assert at(state, "blue-rogue") == "25" and token(state, "m1")["at"] == "12"
    assert state.roll_wanted().player == 1
    state = midgame({"blue-rogue": 10, "red-rogue": 5}, potions="12")
    play(state, 2, "move rogue", 5)
    assert state.roll_wanted().player == 1 and at(state, "red-rogue") == "5"  # nothing ahead


# -- special items -----------------------------------------------------------------------------

def test_items_are_collected_dropped_where_their_hero_falls_and_picked_up_again() -> None:
    state = midgame({"blue-rogue": 10, "red-warrior": 8}, items={"sword": 12}, monsters="16")
    play(state, 2, "move rogue")
    assert state.describe()["heroes"][0]["items"] == ["sword"] and state.scores() == [1, 0]
    play(state, 1, "move warrior")  # Bob
    play(state, 4, "move rogue", 1)  # the rogue loses to the monster: 1 + 1 (Sword) = 2
    assert at(state, "blue-rogue") == "portal"
    assert next(i["at"] for i in state.describe()["items"] if i["id"] == "sword") == "16"


def test_a_stack_offers_one_item_of_the_landers_choice() -> None:
    state = midgame({"blue-rogue": 10}, item_setup="stack", items={"sword": 12, "shoes": 12,
                                                                     "shield": 12})
    play(state, 2, "move rogue")
    assert moves(state) == ["take sword", "take shoes", "take shield"]
    play(state, "take shield")
    items = {i["id"]: i["at"] for i in state.describe()["items"]}
    assert items == {"sword": "12", "shoes": "12", "shield": "blue-rogue"}


def test_a_hero_escaping_takes_its_items_out_of_play() -> None:
    state = midgame({"blue-rogue": 39, "blue-mage": 10}, items={"shoes": "blue-rogue"})
    play(state, 3, "move rogue")
    assert next(i["at"] for i in state.describe()["items"] if i["id"] == "shoes") == "gone"


def test_moves_out_of_turn_are_refused_with_the_roll_wanted() -> None:
    state = midgame({"blue-rogue": 10})
    with pytest.raises(IllegalMove, match="dice first"):
        state.apply_text("move rogue")
