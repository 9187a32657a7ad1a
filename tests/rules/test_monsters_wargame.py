"""The Wargame: tokens on the corners, the d6 move, three combat rounds, red cards scoring,
the end by tally and the tie rolled off."""

from __future__ import annotations

import pytest
from monsters_helpers import GAME, edited, monster, roll

from companion.rules.core import Roll
from companion.rules.errors import BadMoveText, IllegalMove, RulesError
from companion.rules.games.monsters.wargame import DECK


def wargame(players: tuple[str, ...] = ("Ann", "Bob"), **options: str):  # type: ignore[no-untyped-def]
    """Ann wins initiative; her token on square 1, Bob's on 16; Ann to choose."""
    state = GAME.new_state(list(players), {"scenario": "wargame", "monsters": " | ".join(
        monster().replace("\n", "; ") for _ in players), **options})
    roll(state, "plus")
    for _ in players[1:]:
        roll(state)
    return state


def d6(state, value: int) -> None:  # type: ignore[no-untyped-def]
    state.apply(Roll.of(("d6", value)))




def test_tokens_start_on_the_corners_and_a_turn_is_move_fight_or_flip() -> None:
    state = wargame(("Ann", "Bob", "Cat"))  # Bob and Cat tied on 0: they roll again
    assert state.roll_wanted().player == 1
    roll(state, "plus")
    roll(state)
    squares = [p["square"] for p in state.describe()["players"]]
    assert squares == [1, 16, 4]  # down the turn order: Ann, Bob, Cat
    assert [m.text() for m in state.legal_moves()] == ["move", "flip", "surrender"]
    assert state.ranked_moves()[0].title == "Flip the card on square 1"
    with pytest.raises(RulesError, match="at most 4 players"):
        GAME.new_state(["A", "B", "C", "D", "E"], {"scenario": "wargame"})


def test_the_d6_moves_exactly_that_many_squares_along_rows_and_columns() -> None:
    """The Wargame's Game Play: "Roll the die and move that many spaces." From square 1 a 2
    ends on a square two steps away, never on one a single step away."""
    state = wargame()
    state.apply_text("move")
    assert state.roll_wanted().dice == ("d6",)
    d6(state, 2)
    assert sorted(m.numbers[0] for m in state.legal_moves()) == [3, 6, 9]
    state.apply_text("go 6")
    assert state.describe()["players"][0]["square"] == 6
    assert state.current_player == 1  # Bob's turn


def test_a_walk_of_three_never_enters_a_square_twice_and_up_to_is_an_option() -> None:
    """"move that many spaces": three steps from square 1 cannot step out and back, so they
    end on squares 4, 7, 10 and 13 (three away) or 2 and 5 (round a corner); the option
    'up-to' keeps the house rule of one to three squares."""
    state = wargame()
    state.apply_text("move")
    d6(state, 3)
    assert sorted(m.numbers[0] for m in state.legal_moves()) == [2, 4, 5, 7, 10, 13]
    loose = wargame(move="up-to")
    loose.apply_text("move")
    d6(loose, 2)
    assert sorted(m.numbers[0] for m in loose.legal_moves()) == [2, 3, 5, 6, 9]


def test_a_red_card_scores_its_rank_and_is_typed_from_the_cards_still_face_down() -> None:
    state = wargame()
    state.apply_text("flip")
    assert state.asks() == "Which card did Ann turn up on square 1?"
    assert len(state.legal_moves()) == 52
    with pytest.raises(BadMoveText, match="is not a card"):
        state.apply_text("card 1H")
    state.apply_text("card qh")
    assert state.scores() == [3, 0]
    assert state.describe()["squares"][0]["label"] == "QH · Ann"
    state.apply_text("flip")
    assert "card QH" not in {m.text() for m in state.legal_moves()}
    state.apply_text("card KS")
    assert state.scores() == [3, 0]  # a black King scores nothing


def test_a_fight_is_three_rounds_the_attacker_first_then_the_turn_ends() -> None:
    state = edited(wargame(), at=[5, 5])
    assert "fight 2" in {m.text() for m in state.legal_moves()}
    state.apply_text("fight 2")
    roll(state, "leg", "leg", "leg", fill="block")  # Ann rolls first
    roll(state)  # then Bob
    for die in (1, 2, 3):
        assert state.describe()["combat"]["striking"] == "Ann"
        state.apply_text(f"hit {die}")
        state.apply_text(f"defend {die}")  # a Block stops each leg's stun
        state.apply_text("pass")  # Bob has no attack
    assert state.describe()["combat"] is None and state.current_player == 1
    with pytest.raises(IllegalMove):
        state.apply_text("continue")


def test_with_every_card_up_the_highest_tally_wins_and_a_tie_is_rolled_off() -> None:
    grid = [c for c in DECK if c not in ("QH", "2H")][:15] + [None]
    state = edited(wargame(), at=[15, 0], grid=grid, tally=[4, 5])
    state.apply_text("flip")
    state.apply_text("card 2H")  # Ann 5, Bob 5: a tie
    assert state.outcome is None and state.roll_wanted().reason.endswith("the tie for the win")
    d6(state, 4)
    d6(state, 4)  # tied again: both roll again
    d6(state, 2)
    d6(state, 5)
    assert state.outcome is not None and state.outcome.winners == (1,)
    assert state.outcome.reason == "Bob wins the tie on the die, 5"
