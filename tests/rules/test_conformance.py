"""Every registered game passes the same seeded random-play checks through the public API only:
legal moves exist until the end, apply + undo restores the state exactly, states and moves
round-trip through JSON and text, scores stay in bounds, and the game ends with an outcome."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest
from fantahzee_helpers import SHORT_GAME

from companion.rules.core import CHANCE
from companion.rules.registry import game_names, get_game

GAMES_PER_PLAYER_COUNT = 3
# Options a game is played with here: Fantahzee on a short deck, which a party making random
# choices can finish (on the full placeholder deck random play takes 100,000 steps).
OPTIONS = {"fantahzee": SHORT_GAME}
COOPERATIVE = {"village-attacks"}  # games the whole table wins or loses together


def _check_step(state, game, move) -> None:  # type: ignore[no-untyped-def]
    before = state.to_json()
    state.apply(move)
    after = state.to_json()
    assert json.loads(json.dumps(after)) == after
    assert game.state_from_json(after).to_json() == after
    state.undo()
    assert state.to_json() == before, f"undo of {move.text()} did not restore the state"
    state.apply(state.parse_move(move.text()))  # the text form is the one form
    assert state.to_json() == after


@pytest.mark.parametrize("name", game_names())
def test_random_play_conformance(name: str) -> None:
    game = get_game(name)()
    rng = random.Random(name)
    for players in range(game.min_players, game.max_players + 1):
        for _ in range(GAMES_PER_PLAYER_COUNT):
            state = game.new_state([f"P{i}" for i in range(players)], OPTIONS.get(name))
            steps = 0
            while state.current_player is not None:
                steps += 1
                assert steps < 50_000, "the game does not end"
                if state.current_player == CHANCE:
                    wanted = state.roll_wanted()
                    assert wanted is not None and wanted.dice
                    assert not state.legal_moves()
                    move = state.seeded_roll(rng)
                else:
                    assert state.current_player in range(players)
                    assert state.roll_wanted() is None
                    moves = state.legal_moves()
                    assert moves, "a player to act must have a legal move"
                    move = rng.choice(moves)
                _check_step(state, game, move)
                scores = state.scores()
                assert len(scores) == players
                assert game.score_floor is None or all(s >= game.score_floor for s in scores)
                json.dumps(state.describe())
            outcome = state.outcome
            # A cooperative game is won or lost by the whole table: every seat or none.
            assert outcome is not None
            if name in COOPERATIVE:
                assert set(outcome.winners) in (set(), set(range(players))), outcome
            else:
                assert outcome.winners
            assert outcome.reason and set(outcome.winners) <= set(range(players))


@pytest.mark.parametrize("name", game_names())
def test_every_named_assumption_is_cited_beside_its_code(name: str) -> None:
    """Each reading chosen where a rulebook is silent sits in a comment next to the code it
    shapes, so a player's question 'why did it do that?' leads to one place."""
    game = get_game(name)
    package = Path(sys.modules[game.__module__].__file__ or "").parent
    sources = "\n".join(p.read_text() for p in sorted(package.glob("*.py"))
                        if p.name != "rules.py")
    assumptions = game.assumptions()
    assert len(assumptions) >= 10
    for assumption, reading in assumptions.items():
        assert re.search(rf"#.*\b{assumption}\b", sources), f"{assumption} is not cited"
        assert reading.endswith(".")
