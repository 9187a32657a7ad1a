"""Invasion: the bag and the draw of five, moving for a Plus or Minus, turning a card and
feasting with Minus dice, the forced fight, banking, running out of health, the end by points;
greedy play that heads for the cards left and reaches the end."""

from __future__ import annotations

import random

import pytest
from monsters_helpers import GAME, edited, monster, roll, titles

from companion.rules import simulation
from companion.rules.errors import IllegalMove
from companion.rules.games.monsters.state import MonstersState

PLAIN = "leg block dodge deflect plus minus"


def invasion(players: tuple[str, ...] = ("Ann", "Bob"), **options: object):  # type: ignore[no-untyped-def]
    """Ann wins initiative; nobody on the grid yet; Ann is to draw."""
    state = GAME.new_state(list(players), {"scenario": "invasion", "monsters": " | ".join(
        monster(filler=PLAIN).replace("\n", "; ") for _ in players), **options})
    roll(state, "plus")
    for _ in players[1:]:
        roll(state)
    return state




def section(state, number: int) -> str:  # type: ignore[no-untyped-def]
    return str(state.describe()["sections"][number - 1]["label"])


def test_piles_of_two_a_quick_game_of_one_and_more_for_more_players() -> None:
    assert section(invasion(), 1) == "2 face down"
    assert section(invasion(quick=True), 1) == "1 face down"
    five = invasion(("A", "B", "C", "D", "E"))
    assert section(five, 12) == "4 face down"


def test_a_turn_draws_five_dice_from_the_bag_and_moving_costs_a_plus_first() -> None:
    state = invasion()
    wanted = state.roll_wanted()
    assert wanted.dice == ("monsters",) * 5 and wanted.reason.startswith("Ann, draw 5 dice")
    # which dice come out of the bag is chance: each could be any of them
    assert wanted.faces == (tuple(sorted(PLAIN.split())),) * 5
    roll(state, "plus", "minus", "minus", "block", "block")
    ann = state.describe()["players"][0]
    assert ann["pools"]["ready"] == 5 and ann["pools"]["bag"] == 11
    assert len([m for m in state.legal_moves() if m.text().startswith("go")]) == 12
    state.apply_text("go 6")
    assert state.describe()["players"][0]["pools"]["bag"] == 12  # the Plus went back
    assert state.asks() == "Which card did Ann turn up on section 6?"


def test_feasting_takes_cards_up_to_the_turned_cards_value_one_minus_each() -> None:
    state = invasion()
    roll(state, "plus", "minus", "minus", "block", "block")
    state.apply_text("go 6")
    state.apply_text("card AH")  # an Ace: one Minus may feast
    assert [m.text() for m in state.legal_moves()] == ["feast", "stop"]
    state.apply_text("feast")
    assert state.scores() == [1, 0] and section(state, 6) == "1 face down · Ann"
    assert state.describe()["phase"] == "act"  # the limit is reached
    state = invasion()
    roll(state, "plus", "minus", "minus", "block", "block")
    state.apply_text("go 6")
    state.apply_text("card 7S")
    state.apply_text("feast")
    state.apply_text("feast")  # the next card is typed as it is taken
    assert state.describe()["phase"] == "card"
    state.apply_text("card KD")
    assert state.scores() == [2 + 3, 0] and section(state, 6) == "token · Ann"


def test_moving_where_another_monster_stands_forces_a_fight() -> None:
    state = edited(invasion(), at=[None, 5])
    roll(state, "plus", "block", "block", "block", "block")
    state.apply_text("go 6")
    assert [m.text() for m in state.legal_moves()] == ["fight 2"]
    with pytest.raises(IllegalMove):
        state.apply_text("end")
    state.apply_text("fight 2")
    assert state.roll_wanted().reason.startswith("Bob, attacked: draw 5 dice")


def test_banking_keeps_a_face_up_to_three_and_the_pool_goes_back_in_the_bag() -> None:
    state = invasion()
    roll(state, "plus", "minus", "block", "block", "block")
    state.apply_text("end")
    assert "bank 2" in {m.text() for m in state.legal_moves()}
    state.apply_text("bank 2")  # the Minus
    ann = state.describe()["players"][0]
    assert ann["pools"]["bank"] == 1 and ann["pools"]["ready"] == 0 and ann["pools"]["bag"] == 15
    assert ann["dice"][1]["showing"] == "minus"
    full = edited(invasion(), pool=[["bank"] * 3 + ["bag"] * 13, ["bag"] * 16],
                  shown=[["minus"] * 3 + [None] * 13, [None] * 16])
    roll(full, "plus", fill="block")
    full.apply_text("end")
    assert not any(m.text().startswith("bank ") for m in full.legal_moves())


def test_running_out_of_health_sits_a_turn_out_and_comes_back_with_every_die() -> None:
    state = edited(invasion(), at=[5, 5], health=[16, 1])
    roll(state, "plus", "leg", "block", "block", "block")
    state.apply_text("fight 2")  # the Plus pays
    roll(state, "block", "block", "block", "block", "block")  # Bob
    state.apply_text("hit 2")  # Ann's leg: one stun
    state.apply_text("take")
    state.apply_text("hurt 1")
    bob = state.describe()["players"][1]
    assert bob["section"] is None and bob["sitting_out"] == 1 and bob["exhausted"]
    state.apply_text("end")  # Ann is done: on to banking
    assert state.describe()["phase"] == "bank"
    state.apply_text("end")  # Ann banks nothing: Bob sits out, Ann draws again
    assert state.describe()["players"][1]["sitting_out"] == 0
    assert state.roll_wanted().player == 0
    roll(state)
    state.apply_text("end")
    state.apply_text("end")
    assert state.roll_wanted().player == 1
    bob = state.describe()["players"][1]
    assert bob["health"] == 16 and bob["pools"]["bag"] == 16


def test_the_game_ends_when_every_card_is_taken_ties_share() -> None:
    piles = [{"down": 0, "up": None} for _ in range(12)]
    piles[5] = {"down": 1, "up": None}
    state = edited(invasion(), piles=piles, taken=[["KH"], ["QH", "AC"]])
    roll(state, "plus", "minus", "block", "block", "block")
    state.apply_text("go 6")
    state.apply_text("card AS")
    state.apply_text("feast")
    assert state.outcome is not None and state.outcome.winners == (0, 1)
    assert state.scores() == [4, 4]
    assert state.describe()["society_points"] == [1, 1]


def last_pile(at: list[int | None]) -> MonstersState:
    """Ann to act (a Plus and a Minus drawn) with one card left, face down on section 12, and
    the pawns at `at` (sections from 0)."""
    piles = [{"down": 0, "up": None} for _ in range(12)]
    piles[11] = {"down": 1, "up": None}
    state = edited(invasion(), piles=piles, at=at)
    roll(state, "plus", "minus", "block", "block", "block")
    return state


def test_greedy_steps_towards_the_cards_left_and_not_about_the_exhausted_sections() -> None:
    ranked = titles(last_pile([5, None]))  # Ann on section 6, three moves from section 12
    assert list(ranked) == ["go 10", "go 7", "end", "go 2", "go 5", "surrender"]
    assert ranked["go 7"] == "Move to section 7: 0 cards; nearer the cards left"
    assert ranked["go 2"] == "Move to section 2: 0 cards; no nearer the cards left"


def test_on_the_last_pile_with_a_rival_greedy_steps_off_to_come_back_rather_than_fight() -> None:
    # a monster feasts only as it arrives: fighting on the pile for ever ends nothing
    assert list(titles(last_pile([11, 11]))) == ["go 8", "go 11", "fight 2", "end", "surrender"]


@pytest.mark.parametrize(("players", "quick", "seed", "games"), [
    pytest.param(2, False, 7, range(12), id="game 8 wandered the exhausted sections"),
    pytest.param(4, False, 1, range(3), id="all four crowded the last pile to fight"),
    pytest.param(4, True, 7, range(20, 21), id="quick game 21 wandered"),
])
def test_greedy_invasions_end_with_every_card_eaten(monkeypatch: pytest.MonkeyPatch,
                                                    players: int, quick: bool, seed: int,
                                                    games: range) -> None:
    """Games as `rollscribe simulate monsters --option scenario=invasion` seeds them: the
    first and last never ended with moves to exhausted sections ranked above ending the turn,
    the second with steps towards the cards ranked below a fight. The slowest of them takes
    about 1,100 steps now."""
    monkeypatch.setattr(simulation, "MAX_STEPS", 5_000)  # play_game stops there, unfinished
    for game in games:
        state = GAME.new_state([f"P{i + 1}" for i in range(players)],
                               {"scenario": "invasion", "quick": quick})
        assert simulation.play_game(state, random.Random(f"{seed}:{game}"),
                                    simulation.greedy).finished
        assert all(section(state, n).startswith("token") for n in range(1, 13))


def _bags_empty(bank: str) -> MonstersState:
    """Ann to act with nothing drawn; both monsters' bags empty: three dice banked showing
    `bank` for Bob (Block for Ann), the other thirteen stunned, health 3."""
    state = invasion()
    roll(state)
    held = ["bank"] * 3 + ["stunned"] * 13
    return edited(state, pool=[held, list(held)], health=[3, 3],
                  shown=[["block"] * 3 + [None] * 13, [bank] * 3 + [None] * 13])


def test_running_out_of_dice_loses_one_turn_and_play_goes_on() -> None:
    """The book (Invasion, Battle): "running out of dice does not remove the player from the
    game. Instead, the player loses 1 turn." With every bag empty, ending a turn used to hand
    from one empty bag to the next for ever (a RecursionError)."""
    state = _bags_empty("block")
    state.apply_text("end")
    state.apply_text("end")  # Ann banks nothing; Bob, then Ann, run out of dice
    assert "Bob has run out of dice and loses the turn" in state.describe()["news"]
    assert state.roll_wanted().player == 1  # Bob draws again
    for seat in (0, 1):
        p = state.describe()["players"][seat]
        assert p["pools"]["bag"] == 13 and p["pools"]["stunned"] == 0 and p["health"] == 16


def test_a_plus_in_the_bank_removes_a_stun_when_the_bag_is_empty() -> None:
    """Invasion's step 2: "Spend either 1 plus from either your bank or your dice pool to
    remove a stun effect." A banked Plus still acts when the bag is empty."""
    state = _bags_empty("plus")
    state.apply_text("end")
    state.apply_text("end")
    assert state.describe()["phase"] == "act" and "unstun 4" in {
        m.text() for m in state.legal_moves()}
    state.apply_text("unstun 4")
    bob = state.describe()["players"][1]
    assert bob["health"] == 4 and bob["pools"]["stunned"] == 12 and bob["pools"]["bank"] == 2


def test_a_stun_is_removed_before_moving_not_after() -> None:
    """Invasion's turn: "2. Spend either 1 plus from either your bank or your dice pool to
    remove a stun effect. 3. You may spend 1 plus or 1 minus die to: Move ..." Step 2 comes
    before step 3, so once Ann has moved no stun can be removed that turn."""
    state = edited(invasion(), pool=[["bag"] * 15 + ["stunned"], ["bag"] * 16],
                   health=[15, 16])
    roll(state, "plus", "plus", "block", "block", "block")
    assert "unstun 16" in {m.text() for m in state.legal_moves()}
    state.apply_text("go 6")
    state.apply_text("card 2H")  # a Two, and no Minus to feast with
    moves = {m.text() for m in state.legal_moves()}
    assert "end" in moves and "unstun 16" not in moves
