"""Seeded self-play of any registered game: what `rollscribe simulate` and the benchmarks run.

Dice come from a seeded roller through the same `apply()` as camera readings. Two policies:
`greedy` plays the top-ranked move at every choice, `random` a uniformly random legal move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from .core import CHANCE, GameState, Move, Roll
from .errors import RulesError
from .registry import get_game

Policy = Callable[[GameState, random.Random], Move]
MAX_STEPS = 100_000  # a game still running after this many steps is a bug, not a long game


def greedy(state: GameState, rng: random.Random) -> Move:
    return state.ranked_moves()[0].move


def uniform(state: GameState, rng: random.Random) -> Move:
    return rng.choice(state.legal_moves())


POLICIES: dict[str, Policy] = {"greedy": greedy, "random": uniform}


@dataclass(frozen=True)
class GameResult:
    """One finished game: winners, final scores, turns each seat took, steps applied."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    steps: int


def play_game(state: GameState, rng: random.Random, policy: Policy) -> GameResult:
    """Play `state` to its end: rolls from `rng`, choices from `policy`."""
    steps = 0
    while state.current_player is not None:
        if steps >= MAX_STEPS:
            raise RulesError(f"{state.game.name}: no end after {MAX_STEPS} steps")
        if state.current_player == CHANCE:
            wanted = state.roll_wanted()
            assert wanted is not None
            state.apply(Roll.random(wanted, rng))
        else:
            state.apply(policy(state, rng))
        steps += 1
    outcome = state.outcome
    assert outcome is not None
    described = state.describe()
    turns = sum(p.get("turns", 0) for p in described.get("players", []))
    return GameResult(outcome.winners, tuple(state.scores()), turns, steps)


@dataclass(frozen=True)
class Summary:
    """What `rollscribe simulate` prints."""

    game: str
    players: int
    games: int
    policy: str
    mean_turns: float
    win_rate: tuple[float, ...]
    mean_score: tuple[float, ...]
    seconds: float
    cpu_seconds: float  # on a shared machine the process's CPU time is the steadier figure

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def text(self) -> str:
        seats = "  ".join(f"seat {i + 1}: {r:5.1%}" for i, r in enumerate(self.win_rate))
        scores = "  ".join(f"{s:6.1f}" for s in self.mean_score)
        return "\n".join([
            f"{self.game}: {self.games} games, {self.players} players, policy {self.policy}",
            (f"mean turns per game: {self.mean_turns:.1f} "
             f"({self.mean_turns / self.players:.1f} per player)"),
            f"win rate by seat:    {seats}",
            f"mean score by seat:  {scores}   (all seats {sum(self.mean_score) / self.players:.1f})",
            (f"speed:               {self.games_per_second:.0f} games/s "
             f"({self.seconds:.2f} s wall, {self.games / self.cpu_seconds:.0f} games/s of CPU)"),
        ])


def simulate(name: str, players: int, games: int, seed: int, policy: str = "greedy") -> Summary:
    """Play `games` seeded games of `name`; shared wins count as a fraction for each winner."""
    game = get_game(name)()
    chooser = POLICIES[policy]
    rng = random.Random(seed)
    wins = [0.0] * players
    scores = [0] * players
    turns = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        result = play_game(game.new_state([f"P{i + 1}" for i in range(players)]), rng, chooser)
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)
        for seat, score in enumerate(result.scores):
            scores[seat] += score
        turns += result.turns
    return Summary(name, players, games, policy, turns / games,
                   tuple(w / games for w in wins), tuple(s / games for s in scores),
                   time.perf_counter() - start, max(time.process_time() - cpu, 1e-9))
