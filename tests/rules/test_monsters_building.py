"""Building monsters: an illegal build is refused with the rule that forbids it."""

from __future__ import annotations

import pytest
from monsters_helpers import GAME, POSTURES, monster, new_game, player

from companion.rules.errors import RulesError
from companion.rules.games.monsters.build import preset


def refused(ann: str, bob: str | None = None, **options: object) -> str:
    with pytest.raises(RulesError) as caught:
        new_game(ann, bob or monster(), **options)
    return str(caught.value)


def test_a_monster_has_at_least_sixteen_dice_and_all_the_same_amount() -> None:
    assert "at least 16 dice, not 15 (Setup)" in refused(monster(size=15), monster(size=15),
                                                         size=16)
    assert "every player uses the same amount: 16" in refused(monster(size=17))
    with pytest.raises(RulesError, match="size is a whole number from 16"):
        new_game(monster(), monster(), size=12)


def test_equipment_is_one_of_each_category_per_sixteen_points() -> None:
    two_weapons = monster(f"axe {POSTURES}", f"mace {POSTURES}")
    assert "2 weapon dice; at most one of each category per 16 points, 1 for 16" in refused(
        two_weapons)
    big = monster(f"axe {POSTURES}", f"mace {POSTURES}", f"shield {POSTURES}",
                  f"buckler {POSTURES}", size=26)
    new_game(big, monster(size=26), size=26)  # the book: 26 points, 2 weapons and 2 defence
    assert "plays without the optional equipment rules" in refused(
        monster(f"axe {POSTURES}"), equipment=False)


def test_complete_construction_allows_one_of_most_dice_two_arms_legs_eyes() -> None:
    ok = "\n".join(" ".join(die) for die in preset(16))
    new_game(ok, ok, complete=True)  # the preset is one of each, two Arms, Legs and Eyes
    two_brains = ok.replace("lungs", "brain", 1)
    assert "2 brain dice; complete construction allows 1" in refused(two_brains, ok,
                                                                     complete=True)
    assert "16 leg dice; complete construction allows 2" in refused(monster(), ok, complete=True)
    assert "carries no body part or equipment" in refused(
        ok.replace("wings", "plus", 1), ok, complete=True)


def test_unknown_faces_kinds_and_counts_are_named() -> None:
    assert "horn is not a Monsters! face" in refused(monster("horn block"))
    assert "kinds are one or two of" in refused(monster(), kinds="flame\nfire")
    assert "kinds: 1 lines for 2 players" in refused(monster(), kinds="flame")
    with pytest.raises(RulesError, match="monsters: 3 declared for 2 players"):
        GAME.new_state(["Ann", "Bob"], {"monsters": "preset\n---\npreset\n---\npreset"})


def test_kinds_take_one_token_per_sixteen_points_and_one_for_a_secondary() -> None:
    state = new_game(monster(size=17), monster(size=17), size=17, kinds="flame+void\npain")
    assert player(state, 0)["tokens"] == {"primary": 2, "secondary": 1}
    assert player(state, 1)["tokens"] == {"primary": 2, "secondary": 0}
    assert player(state, 0)["summary"] == "health 17/17; ready 17; Flame 2 tokens; Void 1 token"


def test_repeated_dice_lines_and_the_preset() -> None:
    state = new_game("16x claw block", "preset")
    assert player(state, 0)["dice"][15]["faces"] == ["claw", "block"]
    assert player(state, 1)["max_health"] == 16


def test_one_line_of_text_declares_everything_as_the_new_game_form_sends_it() -> None:
    state = GAME.new_state(["Ann", "Bob"], {
        "monsters": "15x leg block dodge; axe minus plus | preset",
        "kinds": "flame+void, none", "bets": "Cat: Ann 3; Dan: Bob 2"})
    assert player(state, 0)["dice"][15]["faces"] == ["axe", "minus", "plus"]
    assert player(state, 0)["kind"] == "flame" and player(state, 1)["kind"] == ""
    assert state.describe()["arena"]["kitty"] == 5
