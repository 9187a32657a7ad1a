"""The book's worked examples, played through the public API: Maureen's example turn, the shields
example, John's and Gill's damage, and Andre's final score."""

from __future__ import annotations

import json

from fantahzee_helpers import at_turn, moves, play

from companion.rules.games.fantahzee.deck import BOOK


def _no_ambush_tops() -> list[tuple[str | None, int, int]]:
    return [("goblin", 1, 2), ("goblin", 2, 2), ("goblin", 2, 2), ("goblin", 2, 2)]


def test_maureens_example_turn() -> None:
    """15 strength; Bone Warrior, Rock Monster, Blighter; counterattack 2 against Shield 2; the
    Vampire Lord's ambush costs the Sergeant; 5 cards in hand at the end."""
    state = at_turn(party=["steamsmith", "paladin", "steamasaur"],
                    hand=["alchemist", "sergeant", "sergeant", "by_the_power_of",
                          "whered_you_go"],
                    stacks=[*_no_ambush_tops(), ("bone_warrior", 1, 3)])
    play(state, "recruit alchemist", "recruit sergeant", "play by_the_power_of",
         "play whered_you_go", "dice")
    assert len(state.roll_wanted().dice) == 6  # her six dice
    play(state, [6, 5, 4, 3, 2, 1], "activate alchemist with 6")
    # She keeps the 5; the four others and the Alchemist's two new dice are rolled.
    play(state, "reroll 4 3 2 1")
    assert len(state.roll_wanted().dice) == 6
    play(state, [6, 4, 3, 3, 2, 1])
    assert state.describe()["dice"]["rerolls"] == 2  # three rerolls with the Alchemist's, one used
    assert "activate sergeant with 3 3" in moves(state)  # she could, but waits
    play(state, "reroll 6 5 4 2 1")  # keeps the two 3s; the other 6 is locked on the Alchemist
    assert len(state.roll_wanted().dice) == 5
    play(state, [4, 3, 2, 2, 1])  # the book lists the locked 6 with them
    view = state.describe()
    assert "activate sergeant with 2 2" in {w["move"] for a in view["activations"]
                                             for w in a["ways"]}
    play(state, "activate sergeant with 2 2")
    # The Sergeant cuts the Paladin's four of a kind to three; the Steamsmith's 5 is a number.
    assert "activate paladin with 3 3 3" in moves(state)
    paladin = next(r for r in state.ranked_moves() if r.move.text().startswith("activate pal"))
    assert "(uses a cut)" in paladin.detail
    assert not any(m.startswith("activate steamsmith with") for m in moves(state))
    play(state, "activate paladin with 3 3 3", "activate steamsmith free",
         "activate steamasaur steam", "attack")
    assert state.describe()["attack"]["strength_left"] == 15
    play(state, "fight 5", "flip 5", "card rock_monster")
    assert state.describe()["attack"]["strength_left"] == 8
    play(state, "flip 5", "card blighter")
    assert state.describe()["attack"]["strength_left"] == 5
    assert "fight 1" not in moves(state)  # locked into the vanguard
    play(state, "stop")
    # Counterattack 2 - Shield 2: no casualties. The Horde Phase flips the Vampire Lord.
    assert state.describe()["asking"] == "Maureen: enter the monster flipped on stack 5"
    play(state, "card vampire_lord")
    damage = state.describe()["damage"]
    assert (damage["source"], damage["total"], damage["shield"], damage["left"]) == (
        "ambush", 3, 2, 1)
    assert damage["proposed_loss"] == ["sergeant"]
    assert state.ranked_moves()[0].move.text() == "lose sergeant"
    play(state, "lose sergeant")
    for card in ("sergeant", "alchemist", "steamsmith", "steam_brute"):
        assert state.describe()["asking"].startswith("Maureen: enter the card drawn")
        play(state, f"card {card}")
    view = state.describe()
    assert view["players"][0]["hand_size"] == 5 and view["turn"] == 1  # no discard: John's turn
    assert view["players"][0]["hand"] == [] and view["players"][1]["hand"] == []  # John's: none
    assert view["players"][0]["monsters"] == 3 and view["players"][0]["xp"] == 3 + 4 + 4


def test_shields_example() -> None:
    """Shield 3 against counterattack 5 (Shrewd Rakshasa 4 + Bone Warrior 1): 2 damage; then a
    Wicked Spinner's ambush 1 is covered by the same Shield 3."""
    deck = {**BOOK, "heroes": BOOK["heroes"] + [
        {"name": "Shieldwall", "type": "warrior", "strength": 6, "shield": 3, "cost": "X"},
        {"name": "Footman", "type": "warrior", "strength": 1, "cost": "X", "copies": 3}],
        "monsters": BOOK["monsters"] + [{"name": f"Boss {i}", "level": 2, "strength": 12,
                                         "xp": 10, "boss": True} for i in range(5)]}
    state = at_turn(options={"cards": json.dumps(deck)},
                    party=["shieldwall", "footman", "footman", "footman", "steam_brute"],
                    stacks=[("rock_monster", 1, 2), ("bone_warrior", 1, 2),
                            ("shrewd_rakshasa", 0, 2), ("rock_monster", 1, 2),
                            ("rock_monster", 1, 2)])
    play(state, "dice", [1, 2, 3, 4, 4], "activate shieldwall with 1", "activate footman with 2",
         "activate footman-2 with 3", "activate steam_brute with 4 4", "attack")
    assert state.describe()["attack"]["strength_left"] == 12
    plan = next(p for p in state.describe()["attack"]["plans"] if p["stacks"] == [2, 3])
    assert plan["counterattack"] == 5 and plan["damage"] == 2
    play(state, "fight 2", "fight 3", "stop")
    damage = state.describe()["damage"]
    assert (damage["total"], damage["shield"], damage["left"]) == (5, 3, 2)
    play(state, "lose footman")
    assert state.describe()["damage"]["left"] == 1
    play(state, "lose footman")  # the other active Footman, now the first: 2 damage covered
    # The Horde Phase: the vanguard's Rock Monster takes a town card, then the two flips.
    play(state, "card tavern", "card wicked_spinner", "card blighter")
    assert state.describe()["phase"] == "card"  # ambush 1 < Shield 3: no damage, End Phase


def test_johns_damage_takes_the_steam_brute() -> None:
    """Ambush 3 (two Dark Assassins and a Wicked Spinner), no Shield: the Steam Brute's 4
    strength covers it; losing a Sergeant (2) would not."""
    state = at_turn(names=("John", "Gill"),
                    party=["alchemist", "sergeant", "sergeant", "steam_brute"],
                    stacks=[("rock_monster", 1, 2), ("rock_monster", 1, 2),
                            ("goblin", 1, 2), ("goblin", 1, 2), ("goblin", 1, 2)])
    play(state, "dice", [1, 1, 2, 2, 5], "activate alchemist with 5",
         "activate sergeant with 1 1", "activate sergeant-2 with 2 2", "reroll", [4, 4],
         "activate steam_brute with 4 4", "attack")
    assert state.describe()["attack"]["strength_left"] == 8
    play(state, "fight 3", "fight 4", "fight 5", "stop")  # three monsters, three stacks
    play(state, "card dark_assassin", "card dark_assassin", "card wicked_spinner")
    damage = state.describe()["damage"]
    assert (damage["total"], damage["shield"], damage["left"]) == (3, 0, 3)
    assert damage["proposed_loss"] == ["steam_brute"]
    play(state, "lose sergeant")  # what the book says would not do
    assert state.describe()["damage"]["left"] == 1
    state.undo()
    play(state, "lose steam_brute")
    assert state.describe()["phase"] == "card"  # on to the End Phase draws
    assert [h["id"] for h in state.describe()["players"][0]["party"]] == [
        "alchemist", "sergeant", "sergeant-2"]


def test_gills_alchemists_fall_and_the_inactive_archmage_does_not() -> None:
    state = at_turn(names=("John", "Gill"), seat=1,
                    party=["alchemist", "alchemist", "paladin"],
                    stacks=[("rock_monster", 1, 2), ("dark_assassin", 1, 2),
                            ("dark_assassin", 1, 2), ("wicked_spinner", 1, 2),
                            ("rock_monster", 1, 2)])
    play(state, "dice", [1, 2, 3, 4, 6], "activate alchemist with 1",
         "activate alchemist-2 with 2", "attack", "stop")
    # The vanguard's Rock Monster stands: a town card first, then the ambush of 3.
    play(state, "card tavern")
    damage = state.describe()["damage"]
    assert damage["left"] == 3 and damage["proposed_loss"] == ["alchemist", "alchemist-2"]
    play(state, "lose alchemist")
    assert state.describe()["damage"]["left"] == 3  # 0 strength covers nothing
    assert state.describe()["damage"]["proposed_loss"] == ["alchemist"]  # the other one now
    play(state, "lose alchemist")
    view = state.describe()
    assert view["phase"] == "card"  # the damage left is ignored: the Paladin is not active
    assert [h["id"] for h in view["players"][1]["party"]] == ["paladin"]
    assert view["players"][1]["towns"] == ["Tavern"] and view["players"][1]["xp"] == -2


def test_andres_50_minus_the_tavern_is_48() -> None:
    monsters = ["vampire_lord"] * 5 + ["shrewd_rakshasa", "rock_monster"]  # 40 + 6 + 4 XP
    victory = [["m", m] for m in monsters] + [["t", "tavern"]]
    state = at_turn(names=("Andre", "Bea"), victory=[victory, []])
    assert state.scores() == [48, 0]
    assert state.describe()["players"][0]["towns"] == ["Tavern"]
