"""Board Horde: setup, who goes first, movement, the Spawning Portal, escaping and the end.

The book has no worked examples; each rule of its Order of Play, Movement and Scoring sections is
played here with the dice fixed.
"""

from __future__ import annotations

import random

import pytest
from board_horde_helpers import GAME, at, midgame, moves, new_game, play, wanted

from companion.rules.core import CHANCE, Roll
from companion.rules.errors import IllegalMove, RulesError


def test_spread_layout_spaces_every_token_out_past_the_first_squares() -> None:
    view = GAME.new_state(["Ann", "Bob"]).describe()
    kinds = [t["kind"] for t in view["tokens"]]
    assert sorted(kinds) == ["monster"] * 4 + ["potion"] * 4 + ["trap"] * 4
    squares = [int(t["at"]) for t in view["tokens"]] + [int(i["at"]) for i in view["items"]]
    assert len(set(squares)) == 15 and min(squares) > 7 and max(squares) <= 40


def test_the_spread_layout_makes_room_around_squares_players_typed() -> None:
    view = GAME.new_state(["Ann", "Bob"], {"monsters": "10 20", "items": "12 14 16"}).describe()
    monsters = [t["at"] for t in view["tokens"] if t["kind"] == "monster"]
    assert monsters == ["10", "20"]
    squares = [t["at"] for t in view["tokens"]] + [i["at"] for i in view["items"]]
    assert len(squares) == len(set(squares)) == 2 + 4 + 4 + 3
    assert [i["at"] for i in view["items"]] == ["12", "14", "16"]


def test_board_b_deals_tokens_to_both_sides_and_has_no_shield() -> None:
    view = GAME.new_state(["Ann", "Bob"], {"board": "B"}).describe()
    sides = [t["at"][0] for t in view["tokens"]]
    assert sides.count("L") == sides.count("R") == 6
    items = {i["id"]: i["at"] for i in view["items"]}
    assert items["shield"] == "gone" and {items["sword"][0], items["shoes"][0]} == {"L", "R"}


@pytest.mark.parametrize(("players", "options", "message"), [
    (["Ann", "Bob"], {"monsters": "5"}, "not allowed"),
    (["Ann", "Bob"], {"monsters": "10", "traps": "10"}, "both on square 10"),
    (["Ann", "Bob"], {"monsters": "ten"}, "not a square number"),
    (["Ann", "Bob"], {"board": "B", "traps": "12"}, "L or R"),
    (["Ann", "Bob", "Cy"], {"board": "B"}, "two players"),
    (["Ann", "Bob"], {"squares": 12}, "24 to 200"),
    (["Ann", "Bob"], {"items": "20 30"}, "give 3 squares"),
    (["Ann", "Bob"], {"item_setup": "stack", "items": "20 30"}, "one square"),
    (["Ann", "Bob"], {"dragons": 2}, "unknown option"),
    (["Ann"], {}, "2 to 3 players"),
])
def test_setup_refuses_what_the_book_does_not_allow(
        players: list[str], options: dict, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        GAME.new_state(players, options)


def test_the_highest_roll_goes_first_and_a_tie_rolls_again() -> None:
    state = GAME.new_state(["Ann", "Bob", "Cy"])
    play(state, 5, 2, 5)
    assert state.roll_wanted().player == 0 and "Ann rolls for who goes first" in wanted(state)
    play(state, 3)
    assert "Cy rolls" in wanted(state)
    play(state, 4)
    assert state.describe()["turn"] == 2 and "Cy's movement roll" in wanted(state)


def test_first_go_moves_a_hero_out_by_the_roll_and_landing_on_a_foe_knocks_it_out() -> None:
    state = new_game()
    play(state, 4)
    assert moves(state) == ["enter rogue", "enter warrior", "enter mage"]
    play(state, "enter warrior")
    assert at(state, "blue-warrior") == "4" and "Bob's movement roll" in wanted(state)
    play(state, 4, "enter mage")
    assert at(state, "blue-warrior") == "portal" and at(state, "red-mage") == "4"
    assert state.scores() == [0, 3]


def test_one_to_five_moves_a_hero_on_the_board_never_onto_your_own() -> None:
    state = midgame({"blue-rogue": 10, "blue-warrior": 12})
    play(state, 2)
    assert moves(state) == ["move warrior"]
    with pytest.raises(IllegalMove, match="another of your heroes"):
        state.apply_text("move rogue")
    with pytest.raises(IllegalMove, match="only a 6"):
        state.apply_text("enter mage")
    play(state, "move warrior")
    assert at(state, "blue-warrior") == "14" and state.roll_wanted().player == 1


def test_a_six_may_bring_a_hero_onto_the_entrance_knocking_a_foe_back_to_its_portal() -> None:
    state = midgame({"blue-rogue": 10, "red-rogue": 1})
    play(state, 6)
    assert moves(state) == ["move rogue", "enter warrior", "enter mage"]
    play(state, "enter mage")
    assert at(state, "blue-mage") == "1" and at(state, "red-rogue") == "portal"
    assert state.scores() == [3, 0]
    assert state.roll_wanted().player == 1  # heroes still waited in the portal: no extra roll


def test_your_hero_on_the_entrance_must_move_before_another_comes_out() -> None:
    state = midgame({"blue-rogue": 1})
    play(state, 6)
    assert moves(state) == ["move rogue"]
    with pytest.raises(IllegalMove, match="Entrance Square"):
        state.apply_text("enter warrior")


def test_a_six_with_every_hero_out_earns_extra_rolls_again_and_again() -> None:
    state = midgame({"blue-rogue": 10, "blue-warrior": 20, "blue-mage": 30})
    play(state, 6, "move rogue", 6, "move warrior")
    assert state.roll_wanted().player == 0
    play(state, 2, "move mage")
    assert (at(state, "blue-rogue"), at(state, "blue-warrior"), at(state, "blue-mage")) == (
        "16", "26", "32")
    assert state.roll_wanted().player == 1


def test_a_roll_no_hero_can_use_is_passed() -> None:
    state = midgame({"blue-rogue": 10, "blue-warrior": "out", "blue-mage": "out",
                     "red-rogue": 30}, monsters="16")  # a red hero stays: no first go
    play(state, 6, "move rogue", 1)  # the 6 earns an extra roll; the rogue falls to the monster
    assert at(state, "blue-rogue") == "portal"
    play(state, 3)
    assert moves(state) == ["pass"]
    play(state, "pass")
    assert state.roll_wanted().player == 1


def test_a_shield_knocks_its_hero_back_to_the_nearest_free_square_for_no_points() -> None:
    state = midgame({"blue-rogue": 10, "red-mage": 14}, items={"shield": "red-mage"}, traps="13")
    play(state, 4, "move rogue")
    assert at(state, "blue-rogue") == "14" and at(state, "red-mage") == "12"
    assert state.scores() == [0, 0]


def test_a_team_with_no_hero_out_rolls_three_times_for_a_six() -> None:
    state = midgame({"red-rogue": 10}, seat=1)
    play(state, 1, "move rogue")
    assert "Ann needs a 6 to bring a hero out (roll 1 of 3)" in wanted(state)
    play(state, 2, 3)
    assert "roll 3 of 3" in wanted(state)
    play(state, 6)
    assert moves(state) == ["enter rogue", "enter warrior", "enter mage"]
    play(state, "enter warrior")
    assert at(state, "blue-warrior") == "1" and state.roll_wanted().player == 1


def test_the_third_turn_without_a_six_places_a_hero_anyway() -> None:
    state = midgame({"red-rogue": 10}, seat=1)
    for _ in range(2):
        play(state, 1, "move rogue", 2, 3, 4)
    play(state, 1, "move rogue")
    assert state.current_player == 0 and state.roll_wanted() is None
    assert [r.detail for r in state.ranked_moves()] == ["to Entrance"] * 3
    play(state, "enter mage")
    assert at(state, "blue-mage") == "1" and state.roll_wanted().player == 1


def test_landing_on_or_passing_the_exit_escapes_for_ten_points() -> None:
    state = midgame({"blue-rogue": 38, "blue-warrior": 20})
    play(state, 5, "move rogue")
    assert at(state, "blue-rogue") == "out" and state.scores() == [10, 0]
    assert state.outcome is None


def test_the_game_ends_when_a_team_is_out_and_the_highest_score_wins() -> None:
    heroes = {"blue-rogue": 39, "blue-warrior": "out", "blue-mage": "out", "red-rogue": 30}
    state = midgame(heroes, position={"scores": [5, 25]})
    play(state, 2, "move rogue")
    assert state.current_player is None and state.scores() == [15, 25]
    assert state.outcome.winners == (1,) and "Ann got all three heroes out" in state.outcome.reason


@pytest.mark.parametrize(("ties", "winners"), [("shared", (0, 1)), ("escaped", (0,))])
def test_equal_scores_at_the_end_follow_the_ties_option(ties: str, winners: tuple) -> None:
    heroes = {"blue-rogue": 39, "blue-warrior": "out", "blue-mage": "out"}
    state = midgame(heroes, position={"scores": [10, 20]}, ties=ties)
    play(state, 2, "move rogue")
    assert state.outcome.winners == winners


def test_moves_are_ranked_by_points_and_say_what_the_square_holds() -> None:
    state = midgame({"blue-rogue": 38, "blue-warrior": 10, "blue-mage": 20, "red-mage": 13},
                    monsters="23")
    play(state, 3)
    ranked = state.ranked_moves()
    assert [r.move.text() for r in ranked] == ["move rogue", "move warrior", "move mage"]
    assert (ranked[0].points, ranked[0].detail) == (10, "escapes through the Exit Portal")
    assert ranked[1].points == 3 and "knocks red-mage out" in ranked[1].detail
    assert "fights monster m1: wins 50%" in ranked[2].detail


def test_the_panel_view_names_every_hero_token_and_item() -> None:
    state = midgame({"blue-rogue": 12}, traps="15", items={"sword": "blue-rogue"},
                    position={"scores": [53, 7]})
    view = state.describe()
    assert [(p["score"], p["score_track"]) for p in view["players"]] == [(53, 3), (7, 7)]
    assert set(view) >= {"game", "phase", "turn", "current_player", "squares", "roll_wanted",
                         "players", "heroes", "tokens", "items", "outcome", "options"}
    rogue = next(h for h in view["heroes"] if h["id"] == "blue-rogue")
    assert rogue["at"] == "12" and rogue["items"] == ["sword"]
    assert view["tokens"] == [{"id": "t1", "kind": "trap", "at": "15", "owner": None}]
    cells = view["track"]["sides"][0]["cells"]
    assert len(cells) == 40 and cells[11]["marks"] == [
        {"text": "R⚔", "title": "blue-rogue +sword", "team": "blue", "hero": True}]
    assert cells[14]["marks"] == [{"text": "⚡", "title": "t1: trap", "team": None, "hero": False}]
    assert len(view["track"]["portal"]) == 5 and view["track"]["out"] == []
    assert view["players"][0]["team"] == "blue" and view["current_player"] == CHANCE


@pytest.mark.parametrize("options", [{"board": "B"}, {"item_setup": "stack"}, {"squares": 24}])
def test_seeded_games_on_other_boards_end_with_a_winner(options: dict) -> None:
    rng = random.Random(str(options))
    for _ in range(5):
        state = GAME.new_state(["Ann", "Bob"], options)
        for _step in range(20_000):
            if state.current_player is None:
                break
            wanted_roll = state.roll_wanted()
            state.apply(Roll.random(wanted_roll, rng) if wanted_roll
                        else rng.choice(state.legal_moves()))
        scores = state.scores()
        assert state.outcome is not None, "the game did not end"
        assert set(state.outcome.winners) == {s for s in (0, 1) if scores[s] == max(scores)}


def test_on_board_b_each_team_races_on_its_own_side() -> None:
    state = new_game(board="B")
    play(state, 3, "enter rogue", 5, "enter mage")
    assert at(state, "blue-rogue") == "L3" and at(state, "red-mage") == "R5"
    play(state, 2, "move rogue")
    assert at(state, "blue-rogue") == "L5" and at(state, "red-mage") == "R5"  # no knock-out
