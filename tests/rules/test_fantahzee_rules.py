"""Fantahzee's rules one at a time: dice payments, steam, the Attack Step's stacks, damage,
treasure, the Horde and End Phases, stacks running out, the end of the game and tie-breaks."""

from __future__ import annotations

import json

import pytest
from fantahzee_helpers import BOOK_GAME, GAME, at_turn, moves, play

from companion.rules.errors import IllegalMove, RulesError
from companion.rules.games.fantahzee.activation import counts, faces, hero_payments, payments
from companion.rules.games.fantahzee.cards import CardError, cards_from_csv, parse_cost
from companion.rules.games.fantahzee.deck import PLACEHOLDER_DECK
from companion.rules.games.fantahzee.ranking import cheapest_loss

QUIET = [("goblin", 1, 2)] * 5  # five stacks, a quiet Goblin on each
# A Steam Brute (4) beats the vanguard's Goblin; the Horde Phase flips another Goblin there.
BRUTE_CLEARS_THE_VANGUARD = ("dice", [4, 4, 1, 2, 3], "activate steam_brute with 4 4", "attack",
                             "fight 5", "stop", "card goblin")


def _pay(cost: str, dice: list[int], cuts: int = 0) -> list[str]:
    found = hero_payments(parse_cost(cost), counts(dice), cuts, True)
    return sorted(" ".join(map(str, faces(p))) + (" (cut)" if cut else "")
                  for p, cut in found.items())


def test_costs_any_number_specific_numbers_and_n_of_a_kind() -> None:
    assert _pay("X", [6, 3, 3]) == ["3", "6"]  # dice counted by face
    assert _pay("X X", [6, 3, 3]) == ["3 3", "6 3"]
    assert _pay("5 5", [5, 6, 5, 1]) == ["5 5"] and _pay("5 5", [5, 6]) == []
    assert _pay("**", [2, 2, 4, 4, 4]) == ["2 2", "4 4"]
    assert _pay("***", [2, 2, 4, 4, 4]) == ["4 4 4"]
    assert _pay("** X", [2, 2, 6]) == ["6 2 2"]  # highest first
    assert _pay("1 | 2", [1, 2, 3]) == ["1", "2"]
    assert payments(parse_cost("steam 4")[0], counts([4, 4])) == []


def test_a_cut_shortens_x_or_n_of_a_kind_but_never_a_number() -> None:
    assert _pay("****", [3, 3, 3, 6], cuts=1) == ["3 3 3 (cut)"]
    assert _pay("X X", [6, 1], cuts=1) == ["1 (cut)", "6 (cut)", "6 1"]
    assert _pay("6 6", [6], cuts=1) == []
    assert hero_payments(parse_cost("****"), counts([3, 3, 3]), 1, False) == {}  # x-only


def test_each_hero_once_and_locked_dice_stay_locked() -> None:
    state = at_turn(party=["sergeant", "steam_brute"], stacks=QUIET)
    play(state, "dice", [2, 2, 4, 4, 1], "activate sergeant with 2 2")
    assert not any(m.startswith("activate sergeant ") for m in moves(state))
    with pytest.raises(IllegalMove, match="already active"):
        play(state, "activate sergeant with 4 4")
    with pytest.raises(IllegalMove, match="no free die shows 2"):
        play(state, "reroll 2")
    play(state, "reroll 4 1", [4, 4])  # keeps one 4
    assert state.describe()["dice"]["free"] == [4, 4, 4]
    assert state.describe()["dice"]["locked"] == [{"hero": "sergeant", "dice": [2, 2]}]


def test_kept_dice_may_be_rerolled_later_and_rerolls_run_out() -> None:
    state = at_turn(party=["steam_brute"], stacks=QUIET)
    play(state, "dice", [1, 2, 3, 4, 5], "reroll 1 2 3", [6, 6, 6])  # keeps 4 5
    play(state, "reroll 6 6 6 5 4", [1, 1, 1, 1, 1])  # now rerolls the kept 4 and 5 too
    assert not any(m.startswith("reroll") for m in moves(state))
    with pytest.raises(IllegalMove, match="no rerolls left"):
        play(state, "reroll 1")


@pytest.mark.parametrize(("option", "first", "second"), [("one-source", True, False),
                                                          ("pooled", True, False)])
def test_steam_pays_one_hero_and_the_rest_is_lost(option: str, first: bool,
                                                 second: bool) -> None:
    options = {**json.loads(json.dumps(BOOK_GAME)), "steam": option}
    state = at_turn(options=options, party=["steamsmith", "steamasaur", "steam_brute"],
                    stacks=QUIET)
    play(state, "dice", [5, 1, 1, 2, 3], "activate steamsmith with 5")
    assert state.describe()["dice"]["steam"] == [4]
    assert ("activate steamasaur steam" in moves(state)) is first
    play(state, "activate steamasaur steam")  # 4 steam pays 4; nothing carries over
    assert ("activate steam_brute steam" in moves(state)) is second


def test_two_steam_sources_add_up_only_when_pooled() -> None:
    cards = json.loads(BOOK_GAME["cards"])
    cards["heroes"].append({"name": "Kettle", "strength": 0, "cost": "X", "steam": 2,
                            "copies": 2})
    for option, pays in (("one-source", False), ("pooled", True)):
        state = at_turn(options={"cards": json.dumps(cards), "steam": option},
                        party=["kettle", "kettle", "steamasaur"], stacks=QUIET)
        play(state, "dice", [1, 2, 3, 4, 5], "activate kettle with 1")
        with pytest.raises(IllegalMove, match="needs 4 steam " + ("in all" if pays
                                                                  else "from one card")):
            play(state, "activate steamasaur steam")  # 2 steam so far
        play(state, "activate kettle-2 with 2")
        assert ("activate steamasaur steam" in moves(state)) is pays


def test_pooled_steam_spends_only_the_sources_it_needs() -> None:
    """The steam option 'pooled' lets "several cards' steam ... add up for one hero": paying
    the Steamasaur's 4 with two Kettles' 2 + 2 leaves the third Kettle's 2 for another hero
    (paying one hero used to empty every source, so pooling was stricter than the default)."""
    cards = json.loads(BOOK_GAME["cards"])
    cards["heroes"] += [{"name": "Kettle", "strength": 0, "cost": "X", "steam": 2, "copies": 3},
                        {"name": "Whistle", "strength": 1, "cost": "steam 2", "copies": 1}]
    state = at_turn(options={"cards": json.dumps(cards), "steam": "pooled"},
                    party=["kettle", "kettle", "kettle", "steamasaur", "whistle"], stacks=QUIET)
    play(state, "dice", [1, 2, 3, 4, 5], "activate kettle with 1", "activate kettle-2 with 2",
         "activate kettle-3 with 3", "activate steamasaur steam")
    assert state.describe()["dice"]["steam"] == [2]
    assert "activate whistle steam" in moves(state)


def test_the_party_may_attack_several_stacks_until_it_flips_into_one() -> None:
    state = at_turn(party=["steam_brute", "steam_brute"], stacks=QUIET)
    play(state, "dice", [4, 4, 4, 4, 1], "activate steam_brute with 4 4",
         "activate steam_brute-2 with 4 4", "attack")
    assert moves(state) == [f"fight {n}" for n in range(1, 6)] + ["stop"]
    play(state, "fight 1", "fight 2")
    assert "flip 1" in moves(state) and "flip 2" in moves(state) and "flip 3" not in moves(state)
    play(state, "flip 2", "card goblin")  # strength 2 of 4 left: defeated at once
    assert moves(state) == ["flip 2", "stop"]  # locked into stack 2
    with pytest.raises(IllegalMove, match="cannot go back"):
        play(state, "fight 3")


def test_a_flipped_monster_too_strong_ends_the_attack_and_stays_face_up() -> None:
    state = at_turn(party=["steam_brute"], stacks=[("goblin", 0, 2)] + QUIET[1:])
    play(state, "dice", [4, 4, 1, 1, 1], "activate steam_brute with 4 4", "attack", "fight 1",
         "flip 1", "card troll")
    view = state.describe()
    assert view["phase"] != "attack" and view["stacks"][0]["label"].startswith("Troll")
    # the Goblin defeated before the flip is won; the Horde Phase asks for the town card
    assert view["players"][0]["monsters"] == 1 and view["phase"] == "card"


def test_a_monster_put_in_the_victory_pile_gives_no_counterattack() -> None:
    cards = json.loads(BOOK_GAME["cards"])
    cards["heroes"].append({"name": "Archmage", "type": "mage", "strength": 1, "cost": "X",
                            "effects": "banish<=3"})
    state = at_turn(options={"cards": json.dumps(cards)}, party=["archmage"],
                    stacks=[("bone_warrior", 1, 2)] + QUIET[1:])
    play(state, "dice", [1, 2, 3, 4, 5], "activate archmage with 5", "attack")
    assert "banish 1" in moves(state) and "fight 1" not in moves(state)
    play(state, "banish 1")
    assert "flip 1" in moves(state)  # it clears the stack for a flip
    play(state, "stop")
    view = state.describe()
    assert view["players"][0]["monsters"] == 1 and view["players"][0]["xp"] == 3
    assert view["phase"] == "card"  # no counterattack step: the Horde Phase flip


def test_treasure_goes_on_an_active_hero_and_works_from_the_next_activation() -> None:
    cards = json.loads(BOOK_GAME["cards"])
    cards["monsters"].append({"name": "Imp", "level": 1, "strength": 1, "xp": 1, "treasure": 2,
                              "copies": 2})
    state = at_turn(options={"cards": json.dumps(cards)}, party=["sergeant", "alchemist"],
                    stacks=[("imp", 1, 2)] + QUIET[1:])
    play(state, "dice", [3, 3, 1, 2, 4], "activate sergeant with 3 3", "attack", "fight 1",
         "stop", "card orb_of_power")
    assert moves(state) == ["attach sergeant", "discard"]  # the Alchemist is not active
    play(state, "attach sergeant")
    party = state.describe()["players"][0]["party"]
    assert party[0]["treasure"] == "Orb of Power (level 2)"
    data = state.to_json()
    s = data["position"]["s"]
    s.update(step={"kind": "action"}, agenda=[])
    s["turn"].update(active=[], locked=[], dice=[], unrolled=5, rerolls=2, shield=0,
                     rolled=False)
    state = GAME.state_from_json(data)
    play(state, "dice", [3, 3, 1, 2, 4], "activate sergeant with 3 3")
    dice = state.describe()["dice"]
    assert (dice["shield"], dice["rerolls"], dice["new"]) == (1, 3, 1)


def test_no_treasure_without_active_heroes() -> None:
    cards = json.loads(BOOK_GAME["cards"])
    cards["monsters"].append({"name": "Imp", "level": 1, "strength": 1, "xp": 1, "treasure": 1,
                              "counterattack": 5, "copies": 2})
    state = at_turn(options={"cards": json.dumps(cards)}, party=["steam_brute"],
                    stacks=[("imp", 1, 2)] + QUIET[1:])
    play(state, "dice", [4, 4, 1, 2, 3], "activate steam_brute with 4 4", "attack", "fight 1",
         "stop", "lose steam_brute")  # counterattack 5 takes the only active hero
    # No treasure step: straight to the Horde Phase (the vanguard's Goblin takes a town card).
    assert state.describe()["asking"] == "Maureen: enter the town card destroyed"


def test_the_vanguard_destroys_a_town_card_unless_defeated_and_none_when_none_left() -> None:
    state = at_turn(party=["alchemist"], stacks=QUIET, towns={"tavern": 0})
    play(state, "dice", [1, 2, 3, 4, 5], "attack", "stop")
    assert state.describe()["asking"].startswith("Maureen: enter the card drawn")  # End Phase


def test_a_stack_that_runs_out_moves_the_others_up() -> None:
    state = at_turn(party=["steam_brute"], stacks=QUIET[:4] + [("goblin", 0, 0)],
                    unseen={"1": {"goblin": 0}, "2": {"troll": 0}, "boss": {}}, doom=5)
    play(state, "dice", [4, 4, 1, 1, 1], "activate steam_brute with 4 4", "attack", "fight 5")
    assert len(state.describe()["stacks"]) == 4
    assert state.describe()["stacks"][-1]["vanguard"] and "flip 5" not in moves(state)


def test_the_hero_deck_is_reshuffled_from_the_discard_pile() -> None:
    cards = json.loads(BOOK_GAME["cards"])
    deck = {c["id"]: 0 for c in cards["heroes"] + cards["actions"]}
    state = at_turn(party=["steam_brute"], stacks=QUIET, deck=deck,
                    discard=["sergeant", "paladin"])
    play(state, *BRUTE_CLEARS_THE_VANGUARD)
    assert sorted(m for m in moves(state)) == ["card paladin", "card sergeant"]
    play(state, "card paladin", "card sergeant")
    assert state.describe()["turn"] == 1  # no cards left anywhere: no more draws


def test_hand_limit_discards_down_to_five() -> None:
    state = at_turn(party=["steam_brute"], hand=["sergeant"] * 3, stacks=QUIET)
    play(state, *BRUTE_CLEARS_THE_VANGUARD, "card paladin", "card steamsmith", "card steam_brute",
         "card alchemist")
    assert state.describe()["asking"] == "Maureen: discard down to 5 cards"
    play(state, "discard sergeant", "discard sergeant")
    assert state.describe()["turn"] == 1


def test_an_effect_raises_the_hand_limit() -> None:
    """End Phase: "you must discard down to five (unless you have an effect that increases your
    maximum hand size)": 'adjust hand +1' makes it six until typed back."""
    state = at_turn(party=["steam_brute"], hand=["sergeant"] * 3, stacks=QUIET)
    play(state, "adjust hand +1", *BRUTE_CLEARS_THE_VANGUARD, "card paladin", "card steamsmith",
         "card steam_brute", "card alchemist")
    assert state.describe()["asking"] == "Maureen: discard down to 6 cards"
    assert state.describe()["players"][0]["hand_limit"] == 6
    play(state, "discard sergeant")
    assert state.describe()["turn"] == 1
    with pytest.raises(IllegalMove, match="below zero"):
        play(state, "adjust hand -6")


def test_the_game_ends_after_the_last_players_turn_once_three_bosses_fell() -> None:
    state = at_turn(names=("Ann", "Bob", "Cy"), party=["steam_brute"], stacks=QUIET, doom=3)
    assert state.describe()["last_player"] == 2
    play(state, *BRUTE_CLEARS_THE_VANGUARD,
         *[f"card {c}" for c in ("sergeant",) * 3 + ("paladin",)])
    assert state.current_player == 1 and state.outcome is None  # Bob plays, then Cy
    data = state.to_json()
    data["position"]["s"]["seat"] = 2
    data["position"]["s"]["hands"] = [[], [], []]
    state = GAME.state_from_json(data)
    for _ in range(30):  # Cy's turn, whatever she does
        if state.current_player is None:
            break
        wanted = state.roll_wanted()
        play(state, [1] * len(wanted.dice) if wanted else state.best_move().text())
    assert state.current_player is None and state.outcome is not None


@pytest.mark.parametrize(("victory", "parties", "winners"), [
    ([[["m", "rock_monster"]], [["m", "bone_warrior"]]], [1, 1], [0]),  # 4 XP beats 3
    ([[["m", "rock_monster"]], [["m", "goblin"]] * 4], [1, 1], [1]),  # 4 = 4: more monsters
    ([[["m", "rock_monster"]], [["m", "rock_monster"]]], [2, 1], [0]),  # then more heroes
    ([[["m", "rock_monster"]], [["m", "rock_monster"]]], [1, 1], [0, 1]),  # then shared
])
def test_the_three_tie_breaks(victory: list, parties: list[int], winners: list[int]) -> None:
    state = at_turn(names=("Ann", "Bob"), seat=1, stacks=QUIET, doom=3, victory=victory,
                    towns={"tavern": 0})
    data = state.to_json()
    s = data["position"]["s"]
    s["party"] = [[{"uid": 10 * p + i, "card": "alchemist", "treasure": None}
                   for i in range(n)] for p, n in enumerate(parties)]
    s["deck"] = {k: 0 for k in s["deck"]}
    state = GAME.state_from_json(data)
    play(state, "dice", [1, 2, 3, 4, 5], "attack", "stop")
    while state.current_player is not None:
        play(state, state.legal_moves()[0].text())
    assert list(state.outcome.winners) == winners


def test_cheapest_loss_prefers_least_strength_then_fewest_heroes() -> None:
    assert cheapest_loss([("sergeant", 2), ("sergeant-2", 2), ("steam_brute", 4),
                          ("alchemist", 0)], 3) == ["steam_brute"]
    assert cheapest_loss([("a", 5), ("b", 2), ("c", 2)], 3) == ["b", "c"]
    assert cheapest_loss([("a", 0), ("b", 0)], 1) == ["a", "b"]


def test_adjustments_by_hand_and_their_limits() -> None:
    state = at_turn(party=["alchemist"], stacks=QUIET)
    play(state, "adjust dice +1", "adjust rolls +1", "dice")
    assert len(state.roll_wanted().dice) == 6
    play(state, [1, 2, 3, 4, 5, 6], "adjust strength +3", "adjust shield +2", "attack")
    assert state.describe()["attack"]["strength_left"] == 3
    with pytest.raises(IllegalMove, match="below zero"):
        play(state, "adjust strength -9")
    play(state, "adjust xp -4")
    assert state.scores()[0] == -4


def test_strength_taken_before_the_attack_cannot_leave_it_below_zero() -> None:
    state = at_turn(party=["alchemist"], stacks=QUIET)
    with pytest.raises(IllegalMove, match="below zero"):  # the party has no strength yet
        play(state, "adjust strength -9")
    play(state, "adjust strength +2", "adjust strength -2", "dice", [1, 2, 3, 4, 5], "attack")
    assert state.describe()["attack"]["strength_left"] == 0


def test_cards_from_csv_and_their_errors() -> None:
    data = cards_from_csv("kind,name,strength,cost,copies\nhero,Page,1,X X,3\n")
    assert data["heroes"] == [{"name": "Page", "strength": "1", "cost": "X X", "copies": "3"}]
    with pytest.raises(CardError, match="steam cost reads"):
        parse_cost("steam")
    with pytest.raises(CardError, match="type is one of"):
        cards_from_csv("kind,name,strength,cost,type\nhero,Page,1,X,priest\n")
    with pytest.raises(CardError, match="source is table, book or placeholder"):
        cards_from_csv("kind,name,strength,cost,source\nhero,Page,1,X,shop\n")
    with pytest.raises(RulesError, match="5 Boss Monsters"):
        GAME.new_state(["A", "B"], {"cards": json.dumps({**PLACEHOLDER_DECK, "monsters": []})})


def test_the_first_player_rolls_highest_and_ties_roll_again() -> None:
    state = GAME.new_state(["Ann", "Bob", "Cy"])
    assert state.roll_wanted().reason == "Ann rolls for the first player"
    play(state, [5], [6], [6])
    assert state.roll_wanted().reason == "Bob rolls for the first player again (a tie)"
    play(state, [2], [4])
    view = state.describe()
    assert (view["first_player"], view["last_player"]) == (2, 1)  # Bob, to Cy's right, is last
    assert view["asking"] == "Cy: enter the monster flipped on stack 1"


def test_stray_words_and_adjustments_out_of_place_are_refused() -> None:
    state = GAME.new_state(["Ann", "Bob"])
    play(state, [6], [1])
    with pytest.raises(IllegalMove, match="before the first one only XP"):
        play(state, "adjust shield +1")
    play(state, "card goblin")
    with pytest.raises(IllegalMove, match="'card' takes 1 word"):
        play(state, "card goblin orc")
    state = at_turn(party=["steam_brute"], stacks=QUIET)
    with pytest.raises(IllegalMove, match="at least one die"):
        play(state, "adjust dice -5")
    play(state, "dice", [4, 4, 1, 2, 3], "activate steam_brute with 4 4", "attack")
    with pytest.raises(IllegalMove, match="'fight' takes 1 word"):
        play(state, "fight 1 2")


def test_the_card_format_docs_examples_import() -> None:
    """docs/fantahzee-cards.md: its JSON and CSV examples are read as they say."""
    import re
    from pathlib import Path

    from companion.rules.games.fantahzee.cards import card_set

    text = (Path(__file__).resolve().parents[2] / "docs" / "fantahzee-cards.md").read_text()
    def block(kind: str) -> str:
        return re.search(rf"```{kind}\n(.*?)```", text, re.DOTALL).group(1)

    from_json = card_set(json.loads(block("json")))
    from_csv = card_set(cards_from_csv(block("csv")))
    for cards in (from_json, from_csv):
        assert cards.heroes["sergeant"].effects.cut_x == 1
        assert cards.monsters["dragon"].boss and cards.monsters["dragon"].treasure == 2
        assert cards.towns["tavern"].xp == 2
        assert cards.treasures["orb_of_power"].level2.rolls == 1
    assert from_csv.monsters["bone_warrior"].counterattack == 1
