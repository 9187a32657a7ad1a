"""Board Horde, the rules review of issue 39: the three-roll count, Board B's items, a last hero
lost on an extra roll, and the variant where the first team out wins."""

from __future__ import annotations

import pytest
from board_horde_helpers import GAME, at, midgame, moves, play, wanted

from companion.rules.core import CHANCE


def test_a_hero_out_on_a_first_go_roll_resets_the_three_roll_count() -> None:
    # Blue failed one turn of three rolls; then, no hero of any team on the board, a first-go
    # roll brings one out: the count starts again, so no free hero comes without rolling.
    state = midgame({}, position={"fails": [1, 0],
                                  "step": {"kind": "move-roll", "first_go": True}})
    assert "first go" in wanted(state)
    play(state, 4, "enter rogue")
    assert state.to_json()["position"]["fails"] == [0, 0]


def test_board_b_items_are_read_sword_first_as_the_help_says() -> None:
    view = GAME.new_state(["Ann", "Bob"], {"board": "B", "items": "L20 R24"}).describe()
    items = {i["id"]: i["at"] for i in view["items"]}
    assert items["sword"] == "L20" and items["shoes"] == "R24"
    help_text = next(o["help"] for o in GAME.options_schema() if o["name"] == "items")
    assert "Sword, Shoes and Shield in that order" in help_text


@pytest.mark.parametrize(("roll", "sword", "shoes"), [(2, "L", "R"), (5, "R", "L")])
def test_board_b_draws_the_sides_of_the_shoes_and_sword(roll: int, sword: str, shoes: str) -> None:
    state = GAME.new_state(["Ann", "Bob"], {"board": "B"})
    assert state.current_player == CHANCE and "Sword" in wanted(state)
    play(state, roll)
    items = {i["id"]: i["at"] for i in state.describe()["items"]}
    assert items["sword"][0] == sword and items["shoes"][0] == shoes
    assert "who goes first" in wanted(state)


def test_a_last_hero_lost_on_an_extra_roll_lets_the_extra_roll_bring_one_out() -> None:
    # Blue's only hero stands before a trap; a 6 with none in the portal earns an extra roll,
    # the trap zaps the hero, and then no hero of any team is on the board: the extra roll is a
    # first-go roll, which brings a hero out that far (FIRST GO, "or if there are no heroes").
    state = midgame({"blue-rogue": 10, "blue-warrior": "out", "blue-mage": "out"},
                    traps="16")
    play(state, 6, "move rogue", 1)  # on the trap: 1 zaps
    assert at(state, "blue-rogue") == "portal"
    assert "first go" in wanted(state)
    play(state, 3)
    assert moves(state) == ["enter rogue"]
    play(state, "enter rogue")
    assert at(state, "blue-rogue") == "3"


def test_the_first_team_out_wins_when_scoring_is_ignored() -> None:
    state = midgame({"blue-rogue": 39, "blue-warrior": "out", "blue-mage": "out"},
                    position={"scores": [0, 40]}, win="first-out")
    play(state, 2, "move rogue")
    assert state.outcome.winners == (0,) and "first" in state.outcome.reason
    plain = midgame({"blue-rogue": 39, "blue-warrior": "out", "blue-mage": "out"},
                    position={"scores": [0, 40]})
    play(plain, 2, "move rogue")
    assert plain.outcome.winners == (1,)
