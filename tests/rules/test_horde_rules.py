"""Against the Monstrous Horde rule by rule: setup, turn steps, epic monsters, the end, variants."""

from __future__ import annotations

import random

import pytest
from horde_helpers import best, character, enemies, move_texts, new_game, play, roll

from companion.rules.core import CHANCE, Roll
from companion.rules.errors import BadMoveText, BadRoll, IllegalMove, NothingToUndo, RulesError
from companion.rules.registry import get_game

GAME = get_game("monstrous-horde")


def _monster(state, name):  # type: ignore[no-untyped-def]
    return next(e for e in state.describe()["enemies"] if e.get("monster") == name)


def test_setup_rerolls_enemy_ones_then_sorts_the_line_up() -> None:
    state = GAME().new_state(["Ann", "Bob"])
    assert state.current_player == CHANCE
    assert state.roll_wanted().dice == ("d20",) * 4
    play(state, roll("d20=1", "d20=15", "d20=3", "d20=1"))
    assert state.roll_wanted().dice == ("d20", "d20")
    assert state.roll_wanted().reason == "enemy 1s rerolled"
    play(state, roll("d20=7", "d20=1"), roll("d20=9"))
    assert state.roll_wanted().reason.startswith("Barbarian roll-off")
    play(state, roll("d20=4", "d20=12"))
    assert enemies(state) == [3, 7, 9, 15]
    assert state.current_player == 1 and state.describe()["first_player"] == 1


def test_rolloff_ties_reroll_until_one_is_highest() -> None:
    state = GAME().new_state(["Ann", "Bob", "Cy"])
    play(state, roll("d20=5", "d20=6", "d20=7", "d20=8"), roll("d20=18", "d20=18", "d20=4"))
    assert state.roll_wanted().reason == "Barbarian roll-off: die 1 Ann's, die 2 Bob's"
    play(state, roll("d20=5", "d20=11"))
    assert state.current_player == 1


def test_rolls_that_do_not_fit_are_refused_and_change_nothing() -> None:
    state = new_game()
    play(state, "team wizard cleric druid")
    saved = state.to_json()
    for bad, why in [(roll("d4=2", "d8=3"), "wanted 3 dice"), (roll("d4=2", "d8=9", "d10=3"),
                     "no face 9"), (roll("d4=2", "d8=3", "d12=3"), "wanted d4, d8, d10")]:
        with pytest.raises(BadRoll, match=why):
            state.apply_text(bad)
        assert state.to_json() == saved
    with pytest.raises(IllegalMove, match="dice first"):
        state.apply_text("keep")
    play(state, roll("d10=0", "d4=2", "d8=3"))  # any order; a d10's 0 reads 10
    assert character(state, 0, "druid")["value"] == 10 and character(state, 0, "druid")["crit"]
    with pytest.raises(BadRoll, match="no roll is wanted"):
        state.apply_text(roll("d4=1"))


def test_melee_team_rules_and_ranking() -> None:
    state = new_game()
    assert state.ranked_moves()[0].move.text() == "team cleric druid paladin barbarian"
    assert all(len(m.move.text().split()) <= 5 for m in state.ranked_moves())
    for bad in ("team wizard rogue cleric druid paladin", "team"):
        with pytest.raises((IllegalMove, BadMoveText)):
            state.apply_text(bad)
    play(state, "team rogue", roll("d6=2"))
    assert move_texts(state) == {"keep", "reroll rogue"}


def test_epic_monster_type_already_in_play_is_rerolled() -> None:
    state = new_game((20, 20, 5, 6), epic=(roll("d10=3", "d6=1"), roll("d10=4", "d6=1"),
                                           roll("d6=2")))
    monsters = sorted(e["monster"] for e in state.describe()["enemies"] if e["monster"])
    assert monsters == ["spider", "troll"]
    assert _monster(state, "troll")["value"] == 23 and _monster(state, "spider")["value"] == 24


def test_huge_spider_holds_back_one_die_but_not_inspiration() -> None:
    state = new_game((20, 5, 9, 13), epic=(roll("d10=3", "d6=2"),))
    with pytest.raises(IllegalMove, match="1 to 3"):
        state.apply_text("team wizard rogue cleric paladin")
    assert max(len(m.move.text().split()) - 1 for m in state.ranked_moves()) == 3
    play(state, "team rogue cleric paladin", roll("d6=2", "d8=3", "d12=12"), "keep",
         "inspire barbarian", roll("d20=13"))
    assert sum(c["in_team"] for c in state.describe()["players"][0]["characters"]) == 4
    play(state, "attack e3=barbarian")
    assert state.scores()[0] == 10


def test_wraith_stops_rerolls_inspiration_and_sleep() -> None:
    state = new_game((20, 5, 9, 13), epic=(roll("d10=3", "d6=3"),))
    play(state, "team wizard paladin", roll("d4=4", "d12=12"))
    assert state.describe()["phase"] == "act"  # no reroll step
    texts = move_texts(state)
    assert "keep" not in texts and not any(t.startswith(("inspire", "sleep")) for t in texts)
    with pytest.raises(IllegalMove, match="Wraith"):
        state.apply_text("inspire rogue")
    with pytest.raises(IllegalMove, match="Wraith"):
        state.apply_text("sleep e1")
    state = new_game((20, 5, 9, 13), epic=(roll("d10=3", "d6=3"),),
                     options={"wraith_blocks_sleep": False})
    play(state, "team wizard", roll("d4=4"), "sleep e1", roll("d20=11"))
    assert enemies(state) == [11, 9, 13, 23]  # LINEUP_ORDERED_BETWEEN_TURNS: e1 stays e1


def test_basilisk_paralyzes_matching_dice_and_petrifies_on_a_one() -> None:
    state = new_game((20, 3, 9, 13), epic=(roll("d10=3", "d6=4"),))
    play(state, "team wizard rogue cleric", roll("d4=3", "d6=3", "d8=6"), "keep")
    assert state.roll_wanted().reason == "Basilisk's paralyzing gaze"
    play(state, roll("d10=3"))
    assert character(state, 0, "wizard")["paralyzed"] and character(state, 0, "rogue")["paralyzed"]
    with pytest.raises(IllegalMove, match="not available"):
        state.apply_text("attack e1=wizard")
    assert best(state).points == 0
    play(state, "end", "team wizard", roll("d4=2"), "keep", roll("d10=9"), "end")  # Pip
    play(state, "team wizard rogue", roll("d4=1", "d6=1"), "keep", roll("d10=1"))
    assert character(state, 0, "wizard")["stone"] and character(state, 0, "rogue")["stone"]
    play(state, "end", "team wizard", roll("d4=2"), "keep", roll("d10=9"), "end")  # Pip
    with pytest.raises(IllegalMove, match="stone"):
        state.apply_text("team wizard")


def _hydra_game(options: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """Hydra with d10 heads 4, 6, 7 and its d20 head; other enemies 5, 9, 18."""
    state = new_game((20, 5, 9, 18), options=options, epic=(
        roll("d10=3", "d6=5"), roll("d4=1"), roll("d10=4", "d10=6", "d10=7")))
    play(state, "team wizard rogue druid barbarian", roll("d4=4", "d6=6", "d10=5", "d20=20"),
         "keep")
    return state


def test_hydra_heads_first_and_nothing_else_until_it_dies() -> None:
    state = _hydra_game()
    assert enemies(state) == [5, 9, 18, 20]
    with pytest.raises(IllegalMove, match="Hydra lives"):
        state.apply_text("attack e1=druid")
    with pytest.raises(IllegalMove, match="after all its d10 heads"):
        state.apply_text("rage e4")
    with pytest.raises(IllegalMove, match="after all its d10 heads"):
        state.apply_text("attack h1=wizard; attack e4=barbarian")
    with pytest.raises(IllegalMove, match="Sleep cannot"):
        state.apply_text("sleep e4")
    top = best(state)
    assert top.points == 50  # three heads, the d20 head, and then the freed enemy 5
    assert top.move.text() == "attack e1=druid; attack e4=barbarian; attack h1=wizard; " \
                              "attack h2=rogue; rage h3"
    play(state, "attack h1=wizard; rage h2")
    assert [h["value"] for h in _monster(state, "hydra")["heads"]] == [7]
    assert state.scores()[0] == 20


def test_hydra_next_turn_option_keeps_others_safe_all_turn() -> None:
    state = _hydra_game({"hydra_unlock": "next-turn"})
    assert best(state).points == 40
    with pytest.raises(IllegalMove, match="Hydra lives"):
        state.apply_text("attack e1=druid; attack e4=barbarian; attack h1=wizard; "
                         "attack h2=rogue; rage h3")


def test_troll_regenerates_on_five_or_six() -> None:
    state = new_game((20, 5, 9, 13), epic=(roll("d10=5", "d6=1"),))
    play(state, "team druid barbarian", roll("d10=5", "d20=20"), "keep", "attack e4=druid,barbarian")
    assert state.roll_wanted().reason.startswith("Troll regeneration")
    play(state, roll("d6=5"), roll("d10=8"))
    assert state.scores()[0] == 0 and _monster(state, "troll")["value"] == 28
    state = new_game((20, 5, 9, 13), epic=(roll("d10=5", "d6=1"),))
    play(state, "team druid barbarian", roll("d10=5", "d20=20"), "keep", "rage e4", roll("d6=4"))
    assert state.scores()[0] == 20
    assert state.roll_wanted().reason == "defeated enemies replaced"


def test_young_dragon_breathes_on_every_unwounded_die() -> None:
    state = new_game((20, 5, 9, 13), epic=(roll("d10=5", "d6=6"),))
    play(state, "team wizard", roll("d4=1"), "keep", "end")
    wanted = state.roll_wanted()
    assert wanted.reason == "Young Dragon's fire breath"
    assert wanted.dice == ("d6", "d8", "d10", "d12", "d20")  # the wounded Wizard is spared
    play(state, roll("d6=1", "d8=2", "d10=3", "d12=4", "d20=5"))
    assert character(state, 0, "rogue")["wounded"] and not character(state, 0, "cleric")["wounded"]
    assert state.current_player == 1


def test_a_party_wholly_wounded_is_out_and_the_last_one_standing_wins() -> None:
    state = new_game((20, 5, 9, 13), epic=(roll("d10=5", "d6=6"),))
    play(state, "team wizard", roll("d4=1"), "keep", "end",
         roll("d6=1", "d8=1", "d10=1", "d12=1", "d20=1"))
    assert state.current_player is None
    assert state.outcome.winners == (1,) and "eliminated" in state.outcome.reason
    assert state.describe()["players"][0]["eliminated"]


def _score_ten(state, dice: str = "d20=5") -> None:  # type: ignore[no-untyped-def]
    """The player to act defeats the enemy 5 with the Barbarian and the enemy comes back a 5."""
    play(state, "team barbarian", roll(dice), "keep")
    if dice == "d20=5":
        play(state, "attack e1=barbarian", roll("d20=5"))
    else:
        play(state, "end")


def test_end_trigger_plays_out_the_round_then_one_final_round() -> None:
    state = new_game((5, 9, 12, 13), options={"target": 10})
    _score_ten(state)
    assert state.describe()["end_round"] == 2 and not state.describe()["final_round"]
    _score_ten(state, "d20=6")  # Pip ends round 1
    assert state.describe()["final_round"] and state.describe()["round"] == 2
    _score_ten(state, "d20=6")
    assert state.outcome is None
    _score_ten(state, "d20=6")
    assert state.outcome.winners == (0,) and state.outcome.reason == "highest score (10)"
    assert [p["turns"] for p in state.describe()["players"]] == [2, 2]


def test_finish_option_only_completes_the_round() -> None:
    state = new_game((5, 9, 12, 13), options={"target": 10, "final_round": "finish"})
    _score_ten(state, "d20=6")
    _score_ten(state)  # Pip triggers the end as the last player of round 1
    assert state.outcome is not None and state.outcome.winners == (1,)


def test_a_tie_goes_to_the_final_showdown() -> None:
    state = new_game((5, 9, 12, 13), options={"target": 10, "final_round": "finish"})
    _score_ten(state)
    _score_ten(state)
    assert state.outcome is None and state.roll_wanted().reason.startswith("Final Showdown")
    play(state, roll("d20=20", "d20=1", "d20=7", "d20=4"))
    assert state.roll_wanted().reason == "enemy 1s and 20s rerolled"
    play(state, roll("d20=3", "d20=16"))
    assert enemies(state) == [3, 4, 7, 16] and state.current_player == 0
    play(state, "team wizard", roll("d4=3"), "keep")
    assert best(state).points == 1  # the Showdown counts enemies defeated
    play(state, "attack e1=wizard", roll("d20=9"))
    play(state, "team wizard", roll("d4=2"), "keep", "end")
    assert state.outcome.winners == (0,) and "Showdown" in state.outcome.reason
    assert state.scores() == [10, 10]


def test_shared_victory_option() -> None:
    state = new_game((5, 9, 12, 13), options={"target": 10, "final_round": "finish",
                                              "ties": "shared"})
    _score_ten(state)
    _score_ten(state)
    assert state.outcome.winners == (0, 1)


def test_simplified_monsters_are_all_trolls() -> None:
    state = new_game((20, 20, 5, 6), options={"simplified_monsters": True},
                     epic=(roll("d10=3"), roll("d10=9")))
    trolls = [e for e in state.describe()["enemies"] if e["monster"]]
    assert [(t["monster"], t["value"]) for t in trolls] == [("troll", 23), ("troll", 29)]


def test_bigger_horde_and_option_checks() -> None:
    assert GAME().new_state(["A", "B"], {"target": 200}).describe()["target"] == 200
    for bad in ({"target": 155}, {"target": 0}, {"ties": "coin"}, {"colour": "red"}):
        with pytest.raises(RulesError):
            GAME().new_state(["A", "B"], bad)
    for players in (["A"], ["A"] * 7, ["A", "A"]):
        with pytest.raises(RulesError):
            GAME().new_state(players)
    names = {o["name"] for o in GAME.options_schema()}
    assert names == {"target", "simplified_monsters", "final_round", "ties", "hydra_unlock",
                     "wraith_blocks_sleep"}


def test_sleep_rerolls_a_plain_enemy_and_can_wake_a_monster() -> None:
    state = new_game((5, 9, 12, 13))
    play(state, "team wizard", roll("d4=4"), "keep", "sleep e1")
    assert state.roll_wanted().reason == "Sleep: the enemy is rerolled"
    play(state, roll("d20=20"), roll("d10=2", "d6=6"))
    assert _monster(state, "dragon")["value"] == 22
    with pytest.raises(IllegalMove, match="crit"):
        state.apply_text("firebolt")  # one of the Wizard's two abilities a turn


def test_cleric_heals_or_guides_not_both() -> None:
    state = new_game((5, 9, 12, 14))
    play(state, "team druid", roll("d10=1"), "keep", "end")
    play(state, "team wizard", roll("d4=3"), "keep", "end")
    play(state, "team cleric rogue", roll("d8=8", "d6=5"), "keep")
    assert "restore druid" in move_texts(state)
    with pytest.raises(IllegalMove, match="Heal or Holy Guidance"):
        state.apply_text("attack e4=cleric,rogue+1; restore druid")
    with pytest.raises(IllegalMove, match="cannot heal|heal"):
        state.apply_text("heal druid=rogue,cleric+1*2")
    play(state, "attack e4=cleric,rogue+1")
    play(state, roll("d20=10"))
    state.undo()
    state.undo()
    play(state, "restore druid")
    assert not character(state, 0, "druid")["wounded"]


def test_a_die_showing_one_attacks_but_never_heals() -> None:
    state = new_game((5, 9, 12, 14))
    play(state, "team druid", roll("d10=1"), "keep", "end")
    play(state, "team wizard", roll("d4=3"), "keep", "end")
    play(state, "team wizard rogue cleric barbarian", roll("d4=1", "d6=4", "d8=5", "d20=4"),
         "keep")
    with pytest.raises(IllegalMove, match="cannot heal"):
        state.apply_text("heal druid=wizard,rogue,cleric")
    play(state, "attack e1=wizard,barbarian")
    assert state.scores()[0] == 10 and character(state, 0, "wizard")["wounded"]


def test_text_forms_parse_back_and_bad_text_is_explained() -> None:
    state = _hydra_game()
    for ranked in state.ranked_moves():
        assert state.parse_move(ranked.move.text()) == ranked.move
    for bad in ("attack e1", "fly away", "attack e1=sword", "inspire", "rage e1; rage e2"):
        with pytest.raises(BadMoveText):
            state.parse_move(bad)


def test_undo_steps_back_exactly_and_json_restores_mid_turn() -> None:
    state = _hydra_game()
    saved = state.to_json()
    restored = GAME().state_from_json(saved)
    assert restored.to_json() == saved and restored.describe() == state.describe()
    play(state, "attack h1=wizard")
    state.undo()
    assert state.to_json() == saved
    fresh = GAME().new_state(["A", "B"])
    with pytest.raises(NothingToUndo):
        fresh.undo()
    with pytest.raises(RulesError):
        GAME().state_from_json({"game": "monstrous-horde", "position": {"names": []}})


def test_describe_has_the_documented_keys() -> None:
    view = _hydra_game().describe()
    assert set(view) == {"game", "phase", "round", "turn", "current_player", "first_player",
                         "target", "end_round", "final_round", "roll_wanted", "players",
                         "enemies", "pool", "showdown", "outcome", "options", "details"}
    assert set(view["players"][0]) == {"seat", "name", "score", "eliminated", "turns", "first",
                                       "active", "characters"}
    assert set(view["players"][0]["characters"][0]) == {
        "name", "die", "sides", "ability", "status", "wounded", "stone", "value", "in_team",
        "paralyzed", "crit", "ability_used"}
    hydra = next(e for e in view["enemies"] if e["monster"] == "hydra")
    assert set(hydra) == {"id", "defeated", "d20", "value", "kind", "label", "monster", "d10",
                          "points", "heads"}


def test_inspiration_brings_a_paralyzed_die_back_and_may_crit() -> None:
    state = new_game((20, 3, 9, 13), epic=(roll("d10=3", "d6=4"),))
    play(state, "team wizard cleric paladin", roll("d4=3", "d8=3", "d12=12"), "keep",
         roll("d10=3"))
    assert character(state, 0, "wizard")["paralyzed"]
    play(state, "inspire wizard", roll("d4=4"))
    wizard = character(state, 0, "wizard")
    assert wizard["in_team"] and not wizard["paralyzed"] and wizard["crit"]
    play(state, "firebolt", roll("d4=3"))
    assert best(state).move.text() == "attack e1=bolt1"  # the enemy 3; 4+3 makes no 9 or 13
    with pytest.raises(IllegalMove, match="crit"):
        state.apply_text("inspire cleric")  # Inspiration once a turn


def test_barbarian_rages_and_attacks_in_the_same_turn() -> None:
    state = new_game((5, 9, 20, 20), epic=(roll("d10=4", "d6=1"), roll("d10=10", "d6=6")))
    assert enemies(state) == [5, 9, 24, 30]
    play(state, "team barbarian rogue", roll("d20=20", "d6=4"), "keep")
    top = best(state)
    assert top.points == 50  # Rage on the Dragon (30); Barbarian 20 + Rogue 4 on the Troll (24)
    assert top.move.text() == "attack e3=rogue,barbarian; rage e4"


def test_backstab_doubles_any_attacking_die_even_a_one() -> None:
    state = new_game((2, 9, 16, 19))
    play(state, "team rogue wizard", roll("d6=6", "d4=1"), "keep")
    play(state, "attack e1=wizard*2")
    assert state.scores()[0] == 10 and character(state, 0, "wizard")["wounded"]


def test_two_epic_monsters_of_one_total_are_two_different_plays() -> None:
    # A Huge Spider 25 and a Wraith 25: killing the Wraith lifts its no-reroll curse, so it is a
    # play of its own, offered beside killing the Spider (issue 39).
    state = new_game((20, 20, 5, 6), epic=(roll("d10=5", "d6=2"), roll("d10=5", "d6=3")))
    play(state, "team rogue cleric paladin", roll("d6=5", "d8=8", "d12=12"))
    texts = move_texts(state)
    assert "attack e3=rogue,cleric,paladin" in texts  # the Huge Spider
    assert "attack e4=rogue,cleric,paladin" in texts  # the Wraith


def test_the_clerics_heal_is_immediate_so_the_healed_can_be_inspired() -> None:
    # "Immediately return any one wounded die back to your adventuring party" and abilities go
    # in any order: heal the Barbarian, then the Paladin inspires it into the team (issue 39).
    state = new_game((5, 9, 12, 14))
    play(state, "team barbarian", roll("d20=1"), "keep", "end")
    play(state, "team wizard", roll("d4=3"), "keep", "end")
    assert character(state, 0, "barbarian")["wounded"]
    play(state, "team cleric paladin", roll("d8=8", "d12=12"), "keep")
    assert "restore barbarian" in move_texts(state)
    with pytest.raises(IllegalMove, match="unwounded"):
        state.apply_text("inspire barbarian")
    play(state, "restore barbarian")  # the turn goes on
    assert not character(state, 0, "barbarian")["wounded"] and state.current_player == 0
    assert "restore barbarian" not in move_texts(state)
    assert not any("+1" in t or "-1" in t for t in move_texts(state))  # Heal, not Guidance too
    play(state, "inspire barbarian", roll("d20=14"))
    assert "attack e4=barbarian" in move_texts(state)
    assert "heal" not in " ".join(move_texts(state))  # nobody is wounded any more
    play(state, "attack e4=barbarian")
    assert state.scores()[0] == 10


def test_a_heal_with_dice_may_come_before_the_paladins_inspiration() -> None:
    # "If a player has the option of using more than one special ability in a turn, they may
    # perform the abilities in any order", and step 4 is "Use the characters to attack, heal,
    # and/or perform special abilities" with no order between heals and abilities: the Rogue,
    # Cleric and Druid (5 + 7 + 8 = 20) heal the Barbarian at once, then the Paladin inspires it.
    state = new_game((5, 9, 12, 14))
    play(state, "team barbarian", roll("d20=1"), "keep", "end")
    play(state, "team wizard", roll("d4=3"), "keep", "end")
    play(state, "team rogue cleric druid paladin", roll("d6=5", "d8=7", "d10=8", "d12=12"),
         "keep")
    assert "aid barbarian=rogue,cleric,druid" in move_texts(state)
    play(state, "aid barbarian=rogue,cleric,druid")
    assert not character(state, 0, "barbarian")["wounded"] and state.current_player == 0
    with pytest.raises(IllegalMove, match="not available"):
        state.apply_text("attack e1=rogue")  # the healers sit the play out
    play(state, "inspire barbarian", roll("d20=14"), "attack e4=barbarian")
    assert state.scores()[0] == 10


def test_before_the_line_up_is_rolled_no_enemy_is_shown_defeated():
    state = get_game("monstrous-horde")().new_state(["Polly", "Pip"])
    assert state.describe()["enemies"] == []
    assert state.describe()["details"][0]["lines"][0] == "e1: rolled at the start"
    play(state, roll("d20=6", "d20=10", "d20=11", "d20=15"))  # still setup: the roll-off next
    assert enemies(state) == [6, 10, 11, 15]
    assert not any(e["defeated"] for e in state.describe()["enemies"])


def test_a_move_worth_nothing_ranks_above_one_that_scores_only_with_a_reason() -> None:
    """Seeded games: wherever a 0-point move is ranked above a move that scores, a rule makes
    it better (Fire Bolts and Bear Form only add dice first) and its detail says so."""
    above = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME().new_state(["Ann", "Bob"])
        for _ in range(150):
            if state.current_player is None:
                break
            wanted = state.roll_wanted()
            if wanted is not None:
                state.apply(Roll.random(wanted, rng))
                continue
            ranked = state.ranked_moves()
            for i, m in enumerate(ranked):
                if m.points == 0 and any(later.points > 0 for later in ranked[i + 1:]):
                    above.add(m.move.text())
                    assert m.detail.startswith("Ranked above plays that score: "), m
            state.apply(rng.choice(ranked[:3]).move)
    assert above == {"firebolt", "bear"}  # seen, so the check checked something
