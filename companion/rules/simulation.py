"""Seeded self-play of any registered game: what `rollscribe simulate` and the benchmarks run.

Dice come from a seeded roller through the same `apply()` as camera readings. Two policies:
`greedy` plays the top-ranked move at every choice, `random` a uniformly random legal move.
"""

from __future__ import annotations

import functools
import gc
import operator
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

from .core import CHANCE, JSON, GameState, Move
from .registry import get_game

Policy = Callable[[GameState, random.Random], Move]
SURRENDER = "surrender"  # the move text of leaving the game (Monsters!)
TOO_EASY = 0.95  # a cooperative table winning this often tells nothing about balance
MAX_STEPS = 100_000  # a game still running after this many steps is counted unfinished


def greedy(state: GameState, rng: random.Random) -> Move:
    """The best-ranked move; between moves ranked equal (equal targets) a seeded draw, so win
    rates by seat measure the game rather than the ranking's order."""
    best = state.best_moves()
    return best[0] if len(best) == 1 else rng.choice(best)


def uniform(state: GameState, rng: random.Random) -> Move:
    """Any legal move but surrendering: a random player that gives up ends games in a few
    turns and measures nothing."""
    moves = state.legal_moves()
    playing = [m for m in moves if m.text() != SURRENDER]
    return rng.choice(playing or moves)


POLICIES: dict[str, Policy] = {"greedy": greedy, "random": uniform}


@dataclass(frozen=True)
class GameResult:
    """One game: winners, scores, turns each seat took, steps applied; an unfinished game
    (no end after MAX_STEPS) has no winner and the scores it stopped at."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    steps: int
    finished: bool = True


def play_game(state: GameState, rng: random.Random, policy: Policy) -> GameResult:
    """Play `state` to its end, or MAX_STEPS: rolls from `rng`, choices from `policy`. Random
    play may never end a game the book ends only by winning (Fantahzee's three bosses); such
    a game is reported unfinished rather than stopping the run."""
    steps = 0
    while (actor := state.current_player) is not None and steps < MAX_STEPS:
        if actor == CHANCE:
            state.apply(state.seeded_roll(rng))
        else:
            state.apply(state.dealt(rng) or policy(state, rng))
        steps += 1
    described = state.describe()
    turns = sum(p.get("turns", 0) for p in described.get("players", []))
    outcome = state.outcome
    if outcome is None:
        return GameResult((), tuple(state.scores()), turns, steps, finished=False)
    return GameResult(outcome.winners, tuple(state.scores()), turns, steps)


@dataclass(frozen=True)
class Tally:
    """Sums over a batch of games: what workers send back, and what a Summary is made of."""

    games: int
    wins: tuple[float, ...]
    scores: tuple[int, ...]
    turns: int
    cpu_seconds: float
    unfinished: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.games + other.games,
                     tuple(a + b for a, b in zip(self.wins, other.wins)),
                     tuple(a + b for a, b in zip(self.scores, other.scores)),
                     self.turns + other.turns, self.cpu_seconds + other.cpu_seconds,
                     self.unfinished + other.unfinished)


def play_batch(name: str, players: int, seed: int, policy: str, indices: range,
               options: JSON | None = None) -> Tally:
    """Games `indices` of a run, each with `options`: game i rolls with its own seeded roller,
    whoever plays it."""
    game = get_game(name)()
    chooser = POLICIES[policy]
    wins = [0.0] * players
    scores = [0] * players
    turns = unfinished = 0
    cpu = time.process_time()
    with _rare_collections():
        for index in indices:
            rng = random.Random(f"{seed}:{index}")
            names = [f"P{i + 1}" for i in range(players)]
            result = play_game(game.new_state(names, options), rng, chooser)
            for seat in result.winners:
                wins[seat] += 1 / len(result.winners)
            for seat, score in enumerate(result.scores):
                scores[seat] += score
            turns += result.turns
            unfinished += not result.finished
    return Tally(len(indices), tuple(wins), tuple(scores), turns, time.process_time() - cpu,
                 unfinished)


@contextmanager
def _rare_collections(first_generation: int = 20_000) -> Iterator[None]:
    """Run the cyclic garbage collector less often while games are played.

    Self-play makes millions of short-lived values that reference counting frees at once; at
    the default threshold (700 new containers) the collector still runs every few steps and
    finds nothing, which cost ~8% of the run. The old thresholds come back afterwards.
    """
    old = gc.get_threshold()
    gc.set_threshold(first_generation, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


@dataclass(frozen=True)
class Summary:
    """What `rollscribe simulate` prints."""

    game: str
    players: int
    policy: str
    jobs: int
    tally: Tally
    seconds: float

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def mean_turns(self) -> float:
        return self.tally.turns / self.games

    @property
    def win_rate(self) -> tuple[float, ...]:
        return tuple(w / self.games for w in self.tally.wins)

    @property
    def mean_score(self) -> tuple[float, ...]:
        return tuple(s / self.games for s in self.tally.scores)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def games_per_cpu_second(self) -> float:
        """Per core, from process CPU time: on a shared machine the steadier figure."""
        return self.games / max(self.tally.cpu_seconds, 1e-9)

    def text(self) -> str:
        seats = "  ".join(f"seat {i + 1}: {r:5.1%}" for i, r in enumerate(self.win_rate))
        scores = "  ".join(f"{s:6.1f}" for s in self.mean_score)
        lines = [
            f"{self.game}: {self.games} games, {self.players} players, policy {self.policy}",
            (f"mean turns per game: {self.mean_turns:.1f} "
             f"({self.mean_turns / self.players:.1f} per player)"),
            f"win rate by seat:    {seats}",
            f"mean score by seat:  {scores}   (all seats {sum(self.mean_score) / self.players:.1f})",
            (f"speed:               {self.games_per_second:.0f} games/s with {self.jobs} "
             f"process{'es' if self.jobs > 1 else ''} ({self.seconds:.2f} s wall; "
             f"{self.games_per_cpu_second:.0f} games per CPU-second)"),
        ]
        if get_game(self.game).cooperative:
            table = self.win_rate[0] * self.players  # a shared win counts 1/players a seat
            lines.insert(3, f"table win rate:      {table:5.1%}")
            if table >= TOO_EASY:
                lines.append(f"warning: the table wins {table:.1%} of games: too easy to judge "
                             "balance (the template's numbers are guesses; enter the "
                             "scenario's own)")
        if self.tally.unfinished:
            lines.insert(1, f"unfinished:          {self.tally.unfinished} of {self.games} "
                            f"games had no end after {MAX_STEPS} steps: nobody won "
                            "them, so the win rates add up to less than 100%")
        return "\n".join(lines)


def simulate(name: str, players: int, games: int, seed: int, policy: str = "greedy",
             jobs: int = 1, options: JSON | None = None) -> Summary:
    """Play `games` seeded games of `name` with `options` (the game's house rules, variants or
    scenario); shared wins count as a fraction for each winner.

    Results do not depend on `jobs`: each game has its own roller seeded from (seed, game).
    """
    # an unknown game or a bad option fails here, not in a worker
    get_game(name)().new_state([f"P{i + 1}" for i in range(players)], options)
    start = time.perf_counter()
    if jobs <= 1:
        tally = play_batch(name, players, seed, policy, range(games), options)
    else:
        chunks = [range(i, games, jobs) for i in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            parts = pool.map(play_batch, *zip(*[(name, players, seed, policy, c, options)
                                                for c in chunks]))
            tally = functools.reduce(operator.add, parts)
    return Summary(name, players, policy, jobs, tally, time.perf_counter() - start)
