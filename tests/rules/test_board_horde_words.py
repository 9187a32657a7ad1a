"""Board Horde in the player's words: move titles name heroes by player and role, and tell()
says what a roll or a move did."""

from __future__ import annotations

from board_horde_helpers import midgame, play


def _told(state, text: str) -> str:  # type: ignore[no-untyped-def]
    move = state.parse_move(text)
    state.apply(move)
    return state.tell(move)


def test_titles_name_heroes_by_player_and_role() -> None:
    state = midgame({"blue-rogue": 38, "blue-warrior": 10, "blue-mage": 20, "red-mage": 13},
                    monsters="23")
    play(state, 3)
    assert [r.title for r in state.ranked_moves()] == [
        "Ann's Rogue escapes through the Exit Portal",
        "Ann's Warrior to square 13: knocks Bob's Mage out",
        "Ann's Mage to square 23: fights monster m1: wins 50%",
    ]
    assert [r.to_json()["move"] for r in state.ranked_moves()] == [
        "move rogue", "move warrior", "move mage"]  # the command text stays for typing


def test_tell_a_knock_out_a_fight_and_a_trap() -> None:
    state = midgame({"blue-warrior": 10, "red-mage": 13, "blue-rogue": 20}, monsters="23",
                    traps="25")
    assert _told(state, "roll d6=3") == "Ann rolled 3 to move"
    assert _told(state, "move warrior") == (
        "Ann: Ann's Warrior to square 13, Bob's Mage is sent back to the Spawning Portal, Ann +3")
    state = midgame({"blue-rogue": 20}, monsters="23")
    play(state, 3, "move rogue")
    assert _told(state, "roll d6=5") == "Ann's Rogue won the fight (5) | the monster m1 is gone, Ann +3"
    state = midgame({"blue-mage": 20}, traps="25")
    play(state, 5, "move mage")
    assert _told(state, "roll d6=1") == (
        "trap: zapped (Ann's Mage rolled 1) | Ann's Mage is sent back to the Spawning Portal")


def test_table_details_say_where_every_hero_is() -> None:
    state = midgame({"blue-rogue": 12}, traps="15", items={"sword": "blue-rogue"},
                    position={"scores": [53, 7]})
    ann, bob, board = state.describe()["details"]
    assert ann == {"title": "Ann (blue): 53 points (to play)", "lines": [
        "Rogue: on square 12, carries the sword", "Warrior: in the Spawning Portal",
        "Mage: in the Spawning Portal"]}
    assert bob["title"] == "Bob (red): 7 points"
    assert board["lines"] == ["trap t1 on square 15"]
