"""The Arena's payout and the Society's ranking points: the arithmetic the book gives."""

from __future__ import annotations

import pytest
from monsters_helpers import GAME, monster, new_game, roll

from companion.rules.errors import IllegalMove, RulesError
from companion.rules.games.monsters.arena import parse_bets, payout, society_points

NAMES = ["Ann", "Bob"]


def test_the_winner_gets_a_quarter_rounded_down_and_the_leftovers() -> None:
    # 5 + 4 + 3 + 2 on Ann (winner), 9 on Bob: kitty 23; Ann a quarter, 5; 18 left for the
    # four who bet on Ann, 4 each; the 2 that cannot be shared go to Ann.
    bets = parse_bets("Cat: Ann 5\nDan: Ann 4\nEve: Ann 3\nFay: Ann 2\nGus: Bob 9", NAMES)
    assert payout(bets, 0, "Ann") == {"Ann": 5 + 2, "Cat": 4, "Dan": 4, "Eve": 4, "Fay": 4}
    assert sum(payout(bets, 0, "Ann").values()) == 23


def test_nobody_bet_on_the_winner_so_the_winner_takes_the_kitty() -> None:
    bets = parse_bets("Cat: Bob 7", NAMES)
    assert payout(bets, 0, "Ann") == {"Ann": 7}


def test_a_winner_who_bet_on_themselves_gets_both_and_a_second_bet_adds_up() -> None:
    bets = parse_bets("Ann: Ann 4\nCat: Ann 2\nCat: Ann 2\nGus: Bob 2", NAMES)
    # kitty 10: Ann 2; 8 left for Ann and Cat (one share each, 4)
    assert payout(bets, 0, "Ann") == {"Ann": 2 + 4, "Cat": 4}


def test_split_by_stake_is_the_option() -> None:
    bets = parse_bets("Cat: Ann 6\nDan: Ann 3\nGus: Bob 3", NAMES)
    # kitty 12: Ann 3; 9 by stake 6:3 gives Cat 6, Dan 3
    assert payout(bets, 0, "Ann", "by-stake") == {"Ann": 3, "Cat": 6, "Dan": 3}


def test_bad_bets_are_refused_by_line() -> None:
    with pytest.raises(RulesError, match="line 2: 'Zed' is not a player"):
        parse_bets("Cat: Ann 5\nDan: Zed 4", NAMES)
    with pytest.raises(RulesError, match="line 1: write 'BETTOR: PLAYER TOKENS'"):
        parse_bets("Cat Ann 5", NAMES)
    with pytest.raises(RulesError, match="at least one token"):
        GAME.new_state(NAMES, {"bets": "Cat: Ann 0"})


def test_society_points_by_scenario() -> None:
    assert society_points("battle", 3, [2]) == [0, 0, 1]
    assert society_points("arena", 2, [0]) == [2, 0]
    assert society_points("invasion", 3, [0]) == [4, 0, 0]
    assert society_points("invasion", 3, [0, 2]) == [1, 0, 1]
    assert society_points("arena", 2, None) == [0, 0]


def test_once_play_begins_a_bettor_only_adds_tokens_to_their_bet() -> None:
    """Raises go into the kitty and the payout; a new bet, or a bet on another player, is
    refused by the rule; undo takes a raise back."""
    state = new_game(monster(), monster(), bets="Cat: Ann 4; Gus: Bob 4")
    for faces in (("plus",), (), ()):  # initiative (Ann first), then Ann's pool: play has begun
        roll(state, *faces)
    state.apply_text("raise cat: ann 3")
    assert state.describe()["arena"]["kitty"] == 4 + 4 + 3
    assert state.tell(state.parse_move("raise cat: ann 3")) == "Cat adds 3 tokens on Ann: " \
        "the kitty holds 11"
    for text, why in (("raise Dan: Ann 2", "Dan has no bet on Ann"),
                      ("raise Cat: Bob 2", "Cat has no bet on Bob"),
                      ("raise cat: ann 0", "at least one token"),
                      ("raise ;", "one bet at a time"),
                      ("raise cat: ann 2; gus: bob 2", "one bet at a time")):
        with pytest.raises(IllegalMove, match=why):
            state.apply_text(text)
    state.undo()
    assert state.describe()["arena"]["kitty"] == 8
    assert all(m.move.text().split()[0] != "raise" for m in state.ranked_moves())


def test_a_raise_without_arena_bets_is_refused() -> None:
    state = new_game(monster(), monster())
    for faces in (("plus",), (), ()):
        roll(state, *faces)
    with pytest.raises(IllegalMove, match="no Arena bets were placed"):
        state.apply_text("raise cat: ann 3")
