"""Seeded random games of Village Attacks hold the book's invariants after every step: every
die of a turn is accounted for, the Reserve stays within its slots, Morale and the Castle Heart
never go below zero, a standing Monster has health left, and the game ends."""

from __future__ import annotations

import random

import pytest
from village_helpers import GAME

from companion.rules.core import CHANCE, Roll
from companion.rules.games.village_attacks.data import data_from_text

DASHBOARDS = data_from_text("").monsters


def _check(position: dict) -> None:
    s = position["s"]
    assert s["morale"] >= 0 and s["heart"] >= 0
    for m in s["monsters"]:
        dash = DASHBOARDS[m["dashboard"]]
        assert len(m["reserve"]) <= dash.reserve, "the Reserve within its slots"
        assert len(m["guard"]) <= dash.defence, "Defence within its slots"
        assert m["zone"] is None or m["damage"] < dash.health
    turn, step = s["turn"], s["step"]
    if s["phase"] == "monster" and turn and turn["total"]:
        rolling = len(step["dice"]) if step["kind"] == "roll" else 0
        reserve = s["monsters"][s["seat"]]["reserve"]
        held = len(turn["rolled"]) + len(reserve) + len(turn["spent"]) + rolling
        assert held == turn["total"], f"dice unaccounted for at {step['kind']}: {turn}"
        assert turn["total"] <= 6


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("options", [{}, {"day_night": True, "night": True, "troll": True,
                                          "peasant_range": 1}])
def test_seeded_random_games_keep_the_invariants(seed: int, options: dict) -> None:
    rng = random.Random(seed)
    players = 1 + seed % 5
    state = GAME.new_state([f"P{i}" for i in range(players)], options)
    steps = 0
    while state.current_player is not None:
        steps += 1
        assert steps < 20_000, "the game does not end"
        if state.current_player == CHANCE:
            state.apply(Roll.random(state.roll_wanted(), rng, state.custom_dice()))
        else:
            state.apply(rng.choice(state.legal_moves()))
        _check(state.to_json()["position"])
    assert state.outcome.reason


def test_the_same_seed_plays_the_same_game() -> None:
    def play(seed: int) -> list[str]:
        rng = random.Random(seed)
        state = GAME.new_state(["A", "B"])
        seen = []
        while state.current_player is not None:
            if state.current_player == CHANCE:
                move = Roll.random(state.roll_wanted(), rng, state.custom_dice())
            else:
                move = rng.choice(state.legal_moves())
            state.apply(move)
            seen.append(move.text())
        return seen

    assert play(11) == play(11) and play(11) != play(12)


def test_the_best_move_is_the_first_ranked() -> None:
    """`best_move` skips the words of every move; it must still pick what the panel ranks first."""
    rng = random.Random(3)
    state = GAME.new_state(["A", "B"], {"day_night": True})
    picks = 0
    while state.current_player is not None:
        if state.current_player == CHANCE:
            state.apply(Roll.random(state.roll_wanted(), rng, state.custom_dice()))
            continue
        best = state.best_move()
        assert best == state.ranked_moves()[0].move
        picks += 1
        state.apply(state.dealt(rng) or best)
    assert picks > 50
