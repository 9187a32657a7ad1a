"""Against the Monstrous Horde in the player's words: move titles, the tie order, and the one
line that says what a roll or a move did (GameState.tell)."""

from __future__ import annotations

from horde_helpers import best, new_game, play, roll

from companion.rules.registry import get_game


def test_the_polly_example_is_titled_in_words_and_keeps_its_command_text() -> None:
    """The book's example (enemies 6, 10, 11, 15; 2 4 3 9): the best play is the 2 and the 4 on
    the 6, titled in words; the 10-point plays tie and the easiest enemy beaten comes first (a
    defeated enemy is rolled again: the 15 is left for the next player)."""
    state = new_game((15, 6, 11, 10))
    play(state, "team wizard rogue druid paladin", roll("d4=2", "d6=4", "d10=3", "d12=9"), "keep")
    plays = [m for m in state.ranked_moves() if m.points == 10]
    assert [m.title for m in plays] == [
        "Wizard 2 + Rogue 4 defeat the Enemy 6 (e1) for 10 points",
        "Wizard 2 + Paladin 9 defeat the Enemy 11 (e3) for 10 points",
        "Wizard 2 + Rogue 4 + Paladin 9 defeat the Enemy 15 (e4) for 10 points",
    ]
    assert best(state).move.text() == "attack e1=wizard,rogue"
    assert best(state).to_json()["title"] == plays[0].title


def test_team_reroll_and_ability_moves_have_titles() -> None:
    state = new_game((6, 10, 11, 15))
    titles = [m.title for m in state.ranked_moves()]
    assert titles[0] == "Team of 4: Cleric, Druid, Paladin and Barbarian"  # biggest dice first
    assert titles[-1] == "Team of 1: Wizard"
    play(state, "team wizard rogue druid paladin", roll("d4=4", "d6=4", "d10=3", "d12=9"))
    assert {m.title for m in state.ranked_moves()} >= {"Keep the roll", "Reroll the Druid and Paladin"}
    play(state, "keep")
    titles = {m.title for m in state.ranked_moves()}
    assert "Wizard's Fire Bolts: roll a pool d4" in titles
    assert "Wizard's Sleep: reroll the Ogre 18 (e4)" not in titles  # no Ogre in this line-up
    assert "Wizard's Sleep: reroll the Enemy 15 (e4)" in titles
    assert all(m.title for m in state.ranked_moves())


def test_tell_says_who_rolled_what_and_what_a_play_did() -> None:
    state = new_game((6, 10, 11, 15))
    play(state, "team wizard rogue druid paladin")
    assert state.tell(state.parse_move("team wizard rogue druid paladin")) == \
        "Polly: Team of 4: Wizard, Rogue, Druid and Paladin"
    move = state.parse_move(roll("d4=2", "d6=4", "d10=1", "d12=9"))
    state.apply(move)
    assert state.tell(move) == "Polly rolled (melee team): Wizard 2, Rogue 4, Druid 1, Paladin 9"
    play(state, "keep", "attack e1=wizard,rogue")
    assert state.tell(state.parse_move("attack e1=wizard,rogue")) == (
        "Polly's play | the Enemy 6 (e1) is defeated, Polly's Druid is wounded, Polly +10")
    move = state.parse_move(roll("d20=12"))
    state.apply(move)
    assert state.tell(move) == ("Polly rolled (defeated enemies replaced): 12 | line-up "
                                "e1 Enemy 10, e2 Enemy 11, e3 Enemy 12, e4 Enemy 15")


def test_tell_says_the_hydra_grows_heads() -> None:
    state = get_game("monstrous-horde")().new_state(["Polly", "Pip"])
    play(state, roll("d20=20", "d20=5", "d20=9", "d20=18"), roll("d10=3", "d6=5"), roll("d4=2"))
    heads = state.parse_move(roll("d10=4", "d10=6", "d10=1", "d10=7"))
    state.apply(heads)
    assert "the Hydra grows three heads" in state.tell(heads)  # the 1 is rolled again
    again = state.parse_move(roll("d10=8"))
    state.apply(again)
    assert "the Hydra grows one head" in state.tell(again)


def test_table_details_read_as_a_player_reads_the_table() -> None:
    state = new_game((6, 10, 11, 18))
    play(state, "team wizard rogue druid paladin", roll("d4=2", "d6=4", "d10=1", "d12=9"), "keep",
         "attack e1=wizard,rogue")
    assert state.describe()["enemies"][0]["label"].startswith("defeated")  # stays on the board
    lineup, polly, pip = state.describe()["details"]
    assert lineup["lines"][0] == "e1: defeated, a new one is rolled at the end of the turn"
    assert lineup["lines"][3] == "e4: Ogre 18 (20 points)"
    assert polly["title"] == "Polly: 10 points (to play), first player"  # she rolls the new one
    assert "Druid d10: wounded, shows 1 (in the melee team)" in polly["lines"]
    assert pip["title"] == "Pip: 0 points"


def test_a_slept_enemy_keeps_its_number_until_the_turn_ends() -> None:
    state = new_game((5, 9, 12, 13))
    play(state, "team wizard", roll("d4=4"), "keep", "sleep e1", roll("d20=17"))
    assert [e["label"] for e in state.describe()["enemies"]] == [
        "enemy 17", "enemy 9", "enemy 12", "enemy 13"]  # e1 is still e1 all turn
    play(state, "end")
    assert [e["value"] for e in state.describe()["enemies"]] == [9, 12, 13, 17]  # the book's order


def test_tell_names_an_epic_monster_when_its_type_comes_up() -> None:
    state = get_game("monstrous-horde")().new_state(["Polly", "Pip"])
    play(state, roll("d20=20", "d20=5", "d20=9", "d20=18"))
    epic = state.parse_move(roll("d10=7", "d6=6"))
    state.apply(epic)
    assert state.tell(epic) == ("The table rolled (epic monster: d10 to add, d6 for its type): "
                                "7 6 | e1 is the Young Dragon 27")
