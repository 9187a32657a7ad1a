"""Fantahzee in the player's words: move titles name the cards, and tell() says what a roll or
a move did; played on part of Maureen's example turn from the book."""

from __future__ import annotations

from fantahzee_helpers import GAME, at_turn, play

from companion.rules.games.fantahzee.cards import parse_cost


def _told(state, text: str) -> str:  # type: ignore[no-untyped-def]
    move = state.parse_move(text)
    state.apply(move)
    return state.tell(move)


def test_maureens_turn_in_words() -> None:
    state = at_turn(party=["steamsmith", "paladin", "steamasaur"],
                    hand=["alchemist", "sergeant", "sergeant", "by_the_power_of",
                          "whered_you_go"],
                    stacks=[("goblin", 1, 2), ("goblin", 2, 2), ("goblin", 2, 2),
                            ("goblin", 2, 2), ("bone_warrior", 1, 3)])
    titles = {r.move.text(): r.title for r in state.ranked_moves()}
    assert titles["recruit alchemist"] == "Recruit the Alchemist"
    assert titles["play by_the_power_of"] == "Play By the power of..."
    assert titles["dice"] == "On to the dice: roll them"
    assert _told(state, "recruit alchemist") == "Maureen: Recruit the Alchemist | " \
                                                "the Alchemist joins Maureen's party"
    play(state, "recruit sergeant", "play by_the_power_of", "play whered_you_go", "dice")
    assert _told(state, "roll d6=6 d6=5 d6=4 d6=3 d6=2 d6=1") == "Maureen rolled 6 5 4 3 2 1"
    titles = {r.move.text(): r.title for r in state.ranked_moves()}
    assert titles["activate alchemist with 6"] == "Activate the Alchemist with 6"
    assert titles["reroll 4 3 2 1"] == "Reroll 4, 3, 2 and 1"
    assert all(r.title for r in state.ranked_moves())


def test_table_details_name_the_stacks_and_the_parties() -> None:
    state = at_turn(party=["steamsmith", "paladin"], hand=["alchemist"],
                    stacks=[("goblin", 1, 2), ("bone_warrior", 1, 3)])
    horde, maureen, john = state.describe()["details"]
    assert horde["lines"][1].startswith("stack 2, the vanguard: Bone Warrior (strength")
    assert maureen["title"].startswith("Maureen: 0 XP (to play)")
    assert maureen["lines"][:2] == ["party: Steamsmith (strength 3), Paladin (strength 5)",
                                    "hand: 1 cards"]
    assert john["lines"][0] == "party: nobody yet"


def test_a_roll_steps_moves_are_grouped_by_hero_and_by_dice_rerolled() -> None:
    state = at_turn(party=["steamsmith", "paladin"], stacks=[("goblin", 1, 2)])
    play(state, "dice", [3, 3, 3, 5, 1])
    groups = {r.move.text(): r.extra["group"] for r in state.ranked_moves()}
    assert groups["activate steamsmith with 5"] == "Activate the Steamsmith"
    assert groups["reroll 5 1"] == "Reroll 2 dice"
    assert groups["attack"] == "Attack"


def test_a_card_dealt_to_another_players_hand_is_told_as_theirs() -> None:
    state = GAME.new_state(["Ann", "Bob"])
    play(state, [6], [2])  # Ann goes first: the stacks' cards, then Ann's hand, then Bob's
    lines = []
    while state.position.step["kind"] == "card":
        lines.append(_told(state, state.legal_moves()[0].text()))
    assert [line.split(":")[0] for line in lines] == ["Ann"] * 10 + ["Bob"] * 5


def test_a_cost_reads_in_words_not_its_notation() -> None:
    said = {text: " or ".join(c.words() for c in parse_cost(text))
            for text in ("X X", "**", "3 3", "5", "****", "6 6 | steam 4", "1 ** X")}
    assert said == {"X X": "any two dice", "**": "a pair of any number", "3 3": "two 3s",
                    "5": "a 5", "****": "four of a kind", "6 6 | steam 4": "two 6s or 4 steam",
                    "1 ** X": "a 1 and a pair of any number and any one die"}
