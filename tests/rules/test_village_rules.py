"""Village Attacks' rules one at a time: the dice pool, Villager results, the dashboard's slots,
status conditions, death and respawn, the Village Event dial, the Villager Phase's priorities,
the end, and the table data refused with a reason."""

from __future__ import annotations

import json

import pytest
from village_helpers import (
    GAME,
    dashboard,
    monster,
    moves,
    play,
    roll,
    s,
    table,
    through_villager_phase,
)

from companion.rules.errors import IllegalMove, RulesError
from companion.rules.games.village_attacks.state import VillageState
from companion.rules.games.village_attacks.template import TEMPLATE

# -- the dice pool ---------------------------------------------------------------------------


def test_six_village_dice_and_the_camera_is_told_their_kind():
    state = table("banshee")
    wanted = state.roll_wanted()
    assert wanted.dice == ("village",) * 6 and wanted.player == 0
    assert set(state.custom_dice()) == {"village", "village-day", "village-night"}
    with pytest.raises(IllegalMove, match="no face"):
        state.apply(wanted.fill(["Melee"] * 5 + ["Sword"]))


def test_day_and_night_swap_one_die_and_the_heart_at_night_rerolls_pairs():
    night = table("banshee", day_night=True, night=True)
    assert night.roll_wanted().dice == ("village",) * 5 + ("village-night",)
    roll(night, "Melee", "Melee", "Ranged", "Defence", "Retaliate", "Magic")
    assert "reroll Melee" in moves(night), "the Castle Heart at Night: 2 identical"
    day = table("banshee", day_night=True)
    assert day.roll_wanted().dice == ("village",) * 5 + ("village-day",)
    roll(day, "Melee", "Melee", "Ranged", "Defence", "Retaliate", "blank")
    assert moves(day) >= {"end"} and not any(m.startswith("reroll") for m in moves(day))
    assert not any("blank" in m for m in moves(day)), "blank faces cannot be spent"


def test_the_night_reroll_needs_the_heart():
    state = table("banshee", zones={0: "library"}, day_night=True, night=True)
    roll(state, "Melee", "Melee", "Ranged", "Defence", "Retaliate", "Magic")
    assert not any(m.startswith("reroll") for m in moves(state))


def test_day_and_night_faces_are_the_tables_data():
    data = {**TEMPLATE, "dice": {"village-night": ["Melee"] * 3 + ["Ranged"] * 3}}
    text = GAME.read_table_data(data)
    state = GAME.new_state(["A"], {"data": text, "day_night": True, "night": True})
    assert state.custom_dice()["village-night"].faces == ("Melee",) * 3 + ("Ranged",) * 3
    with pytest.raises(RulesError, match="six faces"):
        GAME.read_table_data({**TEMPLATE, "dice": {"village-night": ["Melee"]}})


def test_a_stun_costs_a_die_and_stands_the_monster_up():
    state = table("banshee", change={"monsters": [dashboard("banshee", stun=True)]})
    # The helper's table has rolled nothing yet; a stunned Monster's next activation is the
    # one that pays: play this turn out and the Villager Phase to see it.
    roll(state, "Melee", "Melee", "Ranged", "Defence", "Retaliate", "Magic")
    play(state, "end")
    through_villager_phase(state)
    assert state.roll_wanted().dice == ("village",) * 5
    assert monster(state)["stun"] is False


def test_villager_results_move_the_furthest_lesser_enemy_and_are_spent():
    state = table("banshee", villagers={"graveyard": {"hunter:undead": 1},
                                        "gatehouse": {"peasant": 1}})
    roll(state, "Villager", "Melee", "Ranged", "Defence", "Retaliate", "Magic")
    assert moves(state) == {"advance graveyard hunter:undead split_corridor"}, "furthest first"
    play(state, "advance graveyard hunter:undead split_corridor")
    assert s(state)["turn"]["spent"] == [["Villager", "villager"]]
    assert not any("Villager" in m for m in moves(state))
    tied = table("banshee", villagers={"split_corridor": {"hunter:undead": 1, "peasant": 1},
                                       "gatehouse": {"peasant": 2}})
    roll(tied, "Villager", "Melee", "Ranged", "Defence", "Retaliate", "Magic")
    assert moves(tied) == {"advance split_corridor peasant armoury",
                           "advance split_corridor peasant courtyard",
                           "advance gatehouse peasant courtyard"}, "Peasants first; coin"
    assert "(coin flip)" in tied.ranked_moves()[0].title


def test_three_villager_results_may_be_rerolled_before_they_act():
    state = table("banshee", villagers={"graveyard": {"peasant": 3}})
    roll(state, "Villager", "Villager", "Villager", "Ranged", "Defence", "Magic")
    play(state, "reroll Villager")
    roll(state, "Melee", "Melee", "Villager")
    assert moves(state) == {"advance graveyard peasant split_corridor"}
    play(state, "advance graveyard peasant split_corridor")
    assert s(state)["villagers"] == {"graveyard": {"peasant": 2}, "split_corridor": {"peasant": 1}}


# -- spending within the dashboard -----------------------------------------------------------


def test_sunder_silence_and_slow_each_take_a_slot():
    state = table("banshee", change={"monsters": [dashboard("banshee", sunder=1, silence=2,
                                                        slow=2)]})
    roll(state, "Defence", "Retaliate", "Magic", "Magic", "Melee", "Melee")
    play(state, "guard Defence")
    assert not any(m.startswith("guard") for m in moves(state)), "2 Defence slots less Sunder"
    assert not any(m.startswith("reserve") for m in moves(state)), "2 Reserve slots less 2"
    play(state, "move great_hall Magic")
    assert not any(m.startswith("move") for m in moves(state)), "3 Movement less 2 Slow"


def test_slow_never_takes_the_last_movement_slot():
    state = table("vampire", change={"monsters": [dashboard("vampire", slow=5)]})
    roll(state, "Magic", "Magic", "Melee", "Melee", "Defence", "Defence")
    play(state, "move great_hall Magic")
    assert not any(m.startswith("move") for m in moves(state))


def test_hindered_cannot_leave_while_villagers_outnumber_its_health():
    state = table("banshee", zones={0: "library"}, villagers={"library": {"peasant": 2}},
                  change={"monsters": [dashboard("banshee", zone="library", damage=4)]})
    roll(state, "Magic", "Magic", "Defence", "Defence", "Retaliate", "Ranged")
    assert not any(m.startswith("move") for m in moves(state))
    with pytest.raises(IllegalMove, match="Hindered"):
        play(state, "move great_hall Magic")


def test_a_stunned_villager_does_not_hinder():
    """Villager Stun: stunned Villagers "are not added to the total Villager count when
    deciding whether a Monster is Hindered": with one of the two Peasants stunned, the Banshee
    (2 health left) may leave."""
    state = table("banshee", zones={0: "library"}, villagers={"library": {"peasant": 2}},
                  change={"monsters": [dashboard("banshee", zone="library", damage=4)],
                          "stunned": {"library": {"peasant": 1}}})
    roll(state, "Magic", "Magic", "Defence", "Defence", "Retaliate", "Ranged")
    play(state, "move great_hall Magic")
    assert monster(state)["zone"] == "great_hall"


def test_a_trap_needs_an_eligible_room_and_one_trap_a_room():
    state = table("vampire", zones={0: "great_hall"})
    roll(state, "Magic", "Magic", "Melee", "Melee", "Defence", "Defence")
    assert "trap chandelier" not in moves(state), "a corridor: the Chandelier needs a room"
    play(state, "move library Magic")
    assert "trap chandelier" in moves(state)


def test_the_heart_heals_damage_and_status_with_magic_only_there():
    state = table("banshee", change={"monsters": [dashboard("banshee", damage=1, burn=1)]})
    roll(state, "Magic", "Magic", "Melee", "Melee", "Defence", "Defence")
    assert {"heal damage", "heal burn"} <= moves(state)
    play(state, "heal burn", "move great_hall Magic")
    assert not any(m.startswith("heal") for m in moves(state))


def test_an_objective_costs_dice_and_breaks_morale():
    state = table("banshee", zones={0: "gatehouse"})
    roll(state, "Defence", "Defence", "Melee", "Melee", "Magic", "Magic")
    play(state, "objective bar_the_gate")
    assert s(state)["morale"] == 18 and monster(state)["xp"] == 1
    assert "objective bar_the_gate" not in moves(state)


# -- death, burn, the dial, Town Heroes, the end -----------------------------------------------


def test_a_slain_monster_respawns_in_the_heart_and_the_heart_takes_two():
    state = table("dullahan", zones={0: "great_hall"},
                  villagers={"great_hall": {"hunter:mythic": 1}},
                  change={"monsters": [dashboard("dullahan", zone="great_hall", damage=5, xp=2,
                                             burn=1)]})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "reserve Magic", "end")
    play(state, "hit 0")
    dead = monster(state)
    assert dead["zone"] is None and dead["xp"] == 0 and dead["reserve"] == []
    assert dead["abilities"] == {"unstoppable": 1}, "unlocked abilities are kept"
    through_villager_phase(state)
    assert monster(state)["zone"] == "castle_heart" and s(state)["heart"] == 10 - 2
    assert "respawns in the Castle Heart" in " ".join(s(state)["notes"])


def test_no_respawn_that_would_end_the_game():
    state = table("banshee", change={"heart": 2, "monsters": [dashboard("banshee", zone=None)]})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "end")
    through_villager_phase(state)
    assert s(state)["heart"] == 2 and monster(state)["zone"] is None
    assert "cannot respawn" in " ".join(s(state)["notes"])


def test_burn_bites_at_activation():
    state = table("banshee", change={"monsters": [dashboard("banshee", burn=2)]})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "end")
    through_villager_phase(state)
    assert monster(state)["damage"] == 2


def test_the_event_dial_advances_by_the_monsters_and_draws_at_the_trigger():
    state = table("banshee,lich,vampire")
    for _ in range(2):
        assert s(state)["dial"] in (0, 3)
        for seat in range(3):
            roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
            play(state, "end")
        if s(state)["dial"] == 6:
            break
        through_villager_phase(state)
    assert s(state)["dial"] == 6 and state.describe()["step"] == "event"
    play(state, "event fog")
    assert state.describe()["event"] == "Fog" and state.describe()["step"] == "effects"
    play(state, "mark library darkness", "done")
    assert s(state)["conditions"] == {"library": ["darkness"]}


def _at_the_event(event: str) -> VillageState:
    """One Monster, the dial one short of the first event: its turn draws `event`, whose
    effects mark the Library (Darkness for Fog, Unlucky for anything else)."""
    state = table("banshee", change={"dial": 5})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "end")
    while state.describe()["step"] != "event":
        play(state, next(m for m in ("spawn 0 0", "done", "end") if m in moves(state)))
    play(state, f"event {event}",
         f"mark library {'darkness' if event == 'fog' else 'unlucky'}", "done")
    return state


def test_a_persistent_event_keeps_its_zone_conditions_through_clean_up():
    """Zone status conditions: "These status conditions expire at the end of the round, unless
    a Village Event causes them to persist." Fog, a persistent event ("the effects of the card
    continue until the next Village Event card is drawn"), keeps its Darkness; Bad Omen's
    Unlucky expires with the round."""
    fog = _at_the_event("fog")
    through_villager_phase(fog)
    assert s(fog)["conditions"] == {"library": ["darkness"]} and s(fog)["round"] == 2
    omen = _at_the_event("bad_omen")
    through_villager_phase(omen)
    assert s(omen)["conditions"] == {}


def test_a_stunned_villager_misses_its_activation_and_stands_at_clean_up():
    """Villager Stun: "The Villager misses its next activation ... Stunned Villagers are
    returned to a standing position once they have missed their activation." Of two Peasants
    in the Library, the one an event stunned stays while the other marches on."""
    state = table("banshee", villagers={"library": {"peasant": 2}}, change={"dial": 5})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "end")
    while state.describe()["step"] != "event":
        play(state, next(m for m in ("spawn 0 0", "done", "end") if m in moves(state)))
    play(state, "event bad_omen")
    assert "stun library peasant" in moves(state)
    play(state, "stun library peasant", "done")
    through_villager_phase(state)
    assert s(state)["villagers"] == {"library": {"peasant": 1}, "great_hall": {"peasant": 1}}
    assert s(state)["stunned"] == {}


def test_a_heave_is_recorded_one_villager_one_zone():
    """Heave: "a Villager of the same type is forced 1 zone towards the Castle Heart by the
    shortest route possible"; the companion cannot see a full tile, so the table types it."""
    state = table("banshee", villagers={"library": {"peasant": 2}})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "heave library peasant great_hall")
    assert s(state)["villagers"] == {"library": {"peasant": 1}, "great_hall": {"peasant": 1}}
    with pytest.raises(IllegalMove, match="not next to"):
        play(state, "heave library peasant gatehouse")
    assert "heave" not in " ".join(moves(state))  # typed, never offered


def test_morale_grows_with_the_monsters_by_the_scenarios_number():
    """"Each scenario will tell you where to set the starting values of the Castle Heart health
    and Village Morale"; the book has no player-count rule, so the template's guess adds 10
    Morale for each Monster after the first (it was 20 whatever the player count, and the
    table won every greedy game with two or more Monsters)."""
    assert s(table("banshee"))["morale"] == 20
    assert s(table("banshee,lich,vampire"))["morale"] == 40
    scenario = {**TEMPLATE["scenarios"][0], "morale_per_monster": 0}
    flat = table("banshee,lich", data=json.dumps({**TEMPLATE, "scenarios": [scenario]}))
    assert s(flat)["morale"] == 20


def test_a_town_hero_is_worth_two_morale_and_three_experience_to_its_nemesis():
    state = table("lich", zones={0: "library"}, villagers={"library": {"hero:arcane_town_hero": 1}},
                  change={"hero_damage": {"arcane_town_hero": 3}})
    roll(state, "Melee", "Magic", "Magic", "Ranged", "Retaliate", "Retaliate")
    play(state, "melee hero:arcane_town_hero")
    assert s(state)["morale"] == 18 and monster(state)["xp"] == 3


def test_villagers_strike_the_heart_before_monsters_in_their_zone():
    state = table("banshee", villagers={"castle_heart": {"peasant": 2}})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "end")
    assert moves(state) == {"hit heart"}
    play(state, "hit heart", "hit heart")
    assert s(state)["heart"] == 8


def test_the_heart_falling_loses_for_everyone_and_morale_breaking_wins():
    lost = table("banshee", villagers={"castle_heart": {"peasant": 1}}, change={"heart": 1})
    roll(lost, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(lost, "end", "hit heart")
    assert lost.outcome.winners == () and "Heart" in lost.outcome.reason
    won = table("banshee,lich", villagers={"castle_heart": {"peasant": 1}},
                change={"morale": 1})
    roll(won, "Melee", "Magic", "Magic", "Ranged", "Retaliate", "Retaliate")
    play(won, "melee peasant")
    assert won.outcome.winners == (0, 1) and s(won)["morale"] == 0


def test_hunters_of_a_full_type_spawn_seasoned():
    state = table("banshee", villagers={"library": {"hunter:undead": 4}})
    roll(state, "Magic", "Magic", "Melee", "Ranged", "Retaliate", "Retaliate")
    play(state, "end")
    while state.describe()["step"] != "spawn":
        play(state, min(moves(state)))
    play(state, "spawn 1 2", "type undead")
    assert s(state)["villagers"]["graveyard"] == {"peasant": 1, "hunter:seasoned": 2}


# -- titles, tell, data ------------------------------------------------------------------------


def test_every_listed_move_has_plain_words_and_tell_says_what_changed():
    state = table("banshee", zones={0: "library"}, villagers={"library": {"peasant": 1}})
    roll(state, "Melee", "Ranged", "Magic", "Magic", "Defence", "Retaliate")
    ranked = state.ranked_moves()
    assert all(r.title and r.title != r.move.text() for r in ranked)
    titles = {r.move.text(): r.title for r in ranked}
    assert titles["melee peasant"] == "Melee: 1 damage to a Peasant in the Library (pay Melee)"
    play(state, "melee peasant")
    assert state.tell(state.parse_move("melee peasant")) == (
        "Melee: 1 damage to a Peasant in the Library (pay Melee); Morale 20→19; "
        "P0's Banshee +1 experience")


def test_table_data_is_refused_with_the_field_named():
    bad_cost = {**TEMPLATE, "traps": [{"name": "Pit", "cost": "Sword", "rooms": "corridor"}]}
    with pytest.raises(RulesError, match="'pit': cost 'Sword' is not a usable face"):
        GAME.read_table_data(bad_cost)
    scenario = {**TEMPLATE["scenarios"][0], "zones": [{"name": "Hall", "room": "corridor"}]}
    with pytest.raises(RulesError, match="exactly one zone whose room is heart"):
        GAME.read_table_data({**TEMPLATE, "scenarios": [scenario]})
    with pytest.raises(RulesError, match="unknown kind"):
        GAME.read_table_data({**TEMPLATE, "cards": []})
    for key, value in (("tiers", "12 x"), ("events", "6 x 12")):
        scenario = {**TEMPLATE["scenarios"][0], key: value}
        with pytest.raises(RulesError, match=f"{key} are whole numbers, not 'x'"):
            GAME.read_table_data({**TEMPLATE, "scenarios": [scenario]})
    text = GAME.read_table_data(TEMPLATE)
    assert json.loads(text)["monsters"][0]["name"] == "Banshee"
    with pytest.raises(RulesError, match="no dashboard werewolf"):
        GAME.new_state(["A"], {"monsters": "werewolf"})


def test_several_villager_results_stay_in_one_zone_and_refusals_name_the_rule():
    state = table("banshee", villagers={"split_corridor": {"peasant": 2},
                                        "gatehouse": {"peasant": 2}})
    roll(state, "Villager", "Villager", "Melee", "Ranged", "Defence", "Magic")
    play(state, "advance gatehouse peasant courtyard")
    assert moves(state) == {"advance gatehouse peasant courtyard"}, "the same zone again"
    play(state, "advance gatehouse peasant courtyard")
    with pytest.raises(IllegalMove, match="Reserve slot, less Silence"):
        play(state, "reserve Villager")
    with pytest.raises(IllegalMove, match="targeting priority"):
        play(state, "melee hunter:undead")


def test_day_and_night_rooms_burn_by_day_cost_experience_and_reward_the_night():
    day = table("banshee", zones={0: "split_corridor"}, day_night=True,
                change={"monsters": [dashboard("banshee", zone="split_corridor", xp=2)]})
    roll(day, "Magic", "Magic", "Melee", "Melee", "Retaliate", "blank")
    play(day, "move graveyard Magic")
    assert monster(day)["burn"] == 1, "the Graveyard by Day"
    heart = table("banshee", zones={0: "great_hall"}, day_night=True,
                  change={"monsters": [dashboard("banshee", zone="great_hall", xp=2)]})
    roll(heart, "Magic", "Magic", "Melee", "Melee", "Retaliate", "Defence")
    play(heart, "move castle_heart Magic")
    assert monster(heart)["xp"] == 1, "the Castle Heart by Day"
    night = table("banshee", zones={0: "graveyard"}, villagers={"graveyard": {"peasant": 1}},
                  day_night=True, night=True)
    roll(night, "Melee", "Ranged", "Ranged", "Defence", "Retaliate", "Magic")
    play(night, "melee peasant")
    assert monster(night)["xp"] == 2 and monster(night)["burn"] == 0
