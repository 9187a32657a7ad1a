"""The rulebook's worked examples (shared/seeds/004_a9d503531e34dea2.txt), played on the shipped
template. The book lost the dice icons, so where an example says 'rolled 1 2 2 and 1' the faces
are the reading its text forces (named at each example)."""

from __future__ import annotations

from village_helpers import dashboard, monster, moves, play, roll, s, table, through_villager_phase


def test_banshees_spending_she_must_move_to_use_her_last_ranged_on_her_own_zone():
    # "She could spend 1 [Melee] to slay a Peasant in her zone and 1 [Ranged] to slay the
    # Peasant in the adjacent zone, but she'd need to move out of her current zone to use her
    # last [Ranged] to slay the final Peasant in the zone in which we started."
    state = table("banshee", zones={0: "library"},
                  villagers={"library": {"peasant": 2}, "armoury": {"peasant": 1}})
    roll(state, "Melee", "Ranged", "Ranged", "Magic", "Magic", "Defence")
    assert {"melee peasant", "ranged armoury peasant"} <= moves(state)
    play(state, "melee peasant", "ranged armoury peasant")
    assert not any(m.startswith("ranged library") for m in moves(state))
    play(state, "move great_hall Magic")
    assert "ranged library peasant" in moves(state)
    play(state, "ranged library peasant")
    after = s(state)
    assert after["villagers"] == {} and after["morale"] == 20 - 3
    assert monster(state)["xp"] == 3 and monster(state)["kills"] == 3


def test_banshees_movement_three_slots_to_the_heart_then_two_magic_heal():
    # "She has 3 Movement slots ... spend her [Ranged] to slay a Peasant in the adjacent zone,
    # and then spends 2 and 1 to reach the Castle Heart. She still has 2 left, so she uses them
    # to remove 2 points of damage."
    state = table("banshee", zones={0: "armoury"}, villagers={"split_corridor": {"peasant": 1}},
                  change={"monsters": [dashboard("banshee", zone="armoury", damage=2)]})
    roll(state, "Ranged", "Defence", "Defence", "Melee", "Magic", "Magic")
    play(state, "ranged split_corridor peasant", "move library Defence",
         "move great_hall Defence", "move castle_heart Melee")
    assert not any(m.startswith("move ") for m in moves(state)), "three Movement slots"
    assert "heal damage" in moves(state)
    play(state, "heal damage", "heal damage")
    assert monster(state)["damage"] == 0 and "heal damage" not in moves(state)
    assert moves(state) == {"end"}


def test_dullahans_rerolls_chain_and_he_may_stop():
    # "gets a [A], 2 [B] and 3 [C]. The 3 [C] can be re rolled ... rolls 1, 1 and 1. The 3 [B]
    # could also be re rolled, but the Dullahan is satisfied."
    state = table("dullahan")
    roll(state, "Melee", "Defence", "Defence", "Magic", "Magic", "Magic")
    assert moves(state) == {"reroll Magic", "accept"}
    play(state, "reroll Magic")
    assert state.roll_wanted().dice == ("village",) * 3
    roll(state, "Defence", "Ranged", "Retaliate")
    assert moves(state) == {"reroll Defence", "accept"}
    play(state, "accept")
    assert state.describe()["dice"]["rolled"] == ["Melee", "Defence", "Defence", "Defence",
                                                  "Ranged", "Retaliate"]


def test_a_reroll_takes_every_die_of_the_symbol_including_the_reserve():
    state = table("lich")
    roll(state, "Magic", "Ranged", "Melee", "Defence", "Retaliate", "Retaliate")
    play(state, "reserve Magic", "end")
    through_villager_phase(state)
    play(state, "keep")
    assert state.roll_wanted().dice == ("village",) * 5
    roll(state, "Magic", "Magic", "Magic", "Melee", "Melee")
    play(state, "reroll Magic")
    assert state.roll_wanted().dice == ("village",) * 4, "three rolled and one in Reserve"
    assert monster(state)["reserve"] == []


def test_lichs_reserve_pays_soul_arrow_next_round():
    # "the Lich has rolled 2 [Magic], 2 [Ranged], 1 and 1. A [Magic] and [Ranged] are needed to
    # activate Soul Arrow ... store these in its Reserve and activate its ability instantly."
    state = table("lich")
    roll(state, "Magic", "Magic", "Ranged", "Ranged", "Melee", "Defence")
    play(state, "ability soul_arrow", "done", "reserve Magic", "reserve Ranged", "end")
    assert [f for _, f in monster(state)["reserve"]] == ["Magic", "Ranged"]
    through_villager_phase(state)
    assert moves(state) == {"keep", "discard"}
    play(state, "keep")
    assert state.roll_wanted().dice == ("village",) * 4, "one die fewer per result in Reserve"
    roll(state, "Melee", "Defence", "Defence", "Retaliate")
    assert "ability soul_arrow" in moves(state)
    play(state, "ability soul_arrow")
    assert monster(state)["reserve"] == []


def test_vampires_chandelier_slays_two_peasants_and_pushes_the_third_back():
    # "The Vampire is in the Library and decides to purchase the Chandelier ... the Peasants in
    # the adjacent zone move up ... The Trap deals 2 damage, slaying 2 Peasants and pushing the
    # surviving Peasants back 1 zone."
    state = table("vampire", zones={0: "library"}, villagers={"armoury": {"peasant": 3}})
    roll(state, "Magic", "Melee", "Defence", "Defence", "Retaliate", "Ranged")
    assert "trap chandelier" in moves(state)
    play(state, "trap chandelier", "end")
    assert s(state)["villagers"] == {"library": {"peasant": 3}}, "they moved up"
    assert moves(state) == {"spring library"}
    play(state, "spring library")
    assert "2 slain, 1 pushed back 1 zone" in state.tell(state.parse_move("spring library"))
    after = s(state)
    assert after["villagers"] == {"armoury": {"peasant": 1}}
    assert after["morale"] == 20 - 2 and monster(state)["xp"] == 0, "Traps earn no experience"
    assert after["placed"] == {}


def test_dullahans_defence_block_retaliate_and_block_the_nemesis():
    # "2 Peasants and a Mythic Hunter ... the Dullahan had placed 2 [Defence] and 1 [Retaliate]
    # ... He takes 1 damage from the Peasant, but also deals 1 damage and slays her ...
    # [Defence] blocks up to 2 points of damage from a single attack."
    state = table("dullahan", zones={0: "great_hall"},
                  villagers={"great_hall": {"peasant": 2, "hunter:mythic": 1}})
    roll(state, "Defence", "Defence", "Retaliate", "Magic", "Ranged", "Melee")
    play(state, "guard Defence", "guard Defence", "guard Retaliate", "end")
    assert state.describe()["step"] == "attack"
    play(state, "hit 0 block", "hit 0 retaliate")
    assert monster(state)["damage"] == 1 and s(state)["villagers"]["great_hall"] == {
        "peasant": 1, "hunter:mythic": 1}, "the blocked Peasant lives, the other is slain"
    assert state.ranked_moves()[0].title.endswith("for 2 (Nemesis), blocked with Defence (takes 0)")
    play(state, "hit 0 block")
    assert monster(state)["damage"] == 1 and monster(state)["guard"] == []
    assert monster(state)["xp"] == 1 and s(state)["morale"] == 19


def test_level_up_whiplash_is_usable_at_once():
    # "The Dullahan has just gained enough experience ... unlock the first level of his
    # Whiplash ability. Newly unlocked abilities can be used immediately, so he spends 1 to
    # activate Whiplash and slays a Hunter in his zone ... the other Hunter is also slain."
    state = table("dullahan", zones={0: "great_hall"},
                  villagers={"great_hall": {"peasant": 1, "hunter:cursed": 2}},
                  change={"monsters": [dashboard("dullahan", zone="great_hall", xp=3)]})
    roll(state, "Melee", "Melee", "Magic", "Defence", "Defence", "Ranged")
    play(state, "melee peasant")
    assert state.describe()["step"] == "level"
    assert moves(state) == {"learn whiplash", "learn unstoppable", "learn basin_of_blood"}
    play(state, "learn whiplash")
    assert monster(state)["xp"] == 0 and monster(state)["abilities"]["whiplash"] == 1
    assert monster(state)["level"] == 2 and state.describe()["players"][0]["level"] == 2
    play(state, "ability whiplash", "slay great_hall hunter:cursed",
         "slay great_hall hunter:cursed", "done")
    assert s(state)["villagers"] == {} and s(state)["morale"] == 20 - 3
    assert monster(state)["kills"] == 3


def test_an_upgraded_ability_can_be_used_again_this_round():
    # "If an ability has been upgraded from its lesser version then it can be used again this
    # round, so long as the Monster can afford to activate it."
    state = table("dullahan", zones={0: "great_hall"}, villagers={"great_hall": {"peasant": 2}},
                  change={"monsters": [dashboard("dullahan", zone="great_hall", xp=3)]})
    roll(state, "Defence", "Defence", "Melee", "Magic", "Magic", "Ranged")
    play(state, "ability unstoppable", "done")
    assert "ability unstoppable" not in moves(state), "once per round"
    play(state, "melee peasant", "learn unstoppable")
    assert "ability unstoppable" in moves(state)
