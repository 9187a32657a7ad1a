"""Self-play's shortcuts play exactly the game the full API plays.

`best_move()` builds only the top play, and a play the engine built itself is not checked again
when applied: both must change nothing. Each decision of seeded games is taken both ways.
"""

from __future__ import annotations

import random

from companion.rules.core import CHANCE, Roll
from companion.rules.registry import get_game


def test_best_move_and_trusted_plays_match_ranking_and_full_checks() -> None:
    game = get_game("monstrous-horde")()
    plays = 0
    for index in range(30):
        rng = random.Random(index)
        state = game.new_state([f"P{i}" for i in range(2 + index % 5)], {"target": 60})
        while state.current_player is not None:
            if state.current_player == CHANCE:
                state.apply(Roll.random(state.roll_wanted(), rng))
                continue
            saved = state.to_json()
            fresh = game.state_from_json(saved)  # nothing ranked or cached yet
            best = fresh.best_move()
            assert best == state.ranked_moves()[0].move
            fresh.apply(best)  # the engine's own play: trusted
            state.apply(state.parse_move(best.text()))  # the same play typed in: checked
            assert fresh.to_json() == state.to_json(), best.text()
            plays += best.text().split()[0] in ("attack", "heal", "rage", "restore", "end")
    assert plays > 300
