"""Rules engine figures: worst-case play enumeration (target: median < 20 ms), simulated
4-player games per second (target: >= 200), and Board Horde's games per second and the cost of
the panel's view of one of its positions. Medians of several runs, printed, never asserted."""

from __future__ import annotations

import random
import statistics
import time

from companion.rules.core import CHANCE
from companion.rules.games.board_horde import BoardHorde
from companion.rules.games.monstrous_horde.assign import Board
from companion.rules.games.monstrous_horde.position import Enemy, Position, at_play
from companion.rules.games.monstrous_horde.rules import (
    BARBARIAN,
    CLERIC,
    DRUID,
    PALADIN,
    ROGUE,
    WIZARD,
)
from companion.rules.simulation import simulate

ALL_CRITS = {WIZARD: 4, ROGUE: 6, CLERIC: 8, DRUID: 10}  # four characters on their highest faces


def worst_case(enemies: tuple[Enemy, ...]) -> Position:
    """4 crit characters, 3 Fire Bolt d4s, 2 Bear Form d10s, the Paladin and Barbarian wounded."""
    return at_play(
        ALL_CRITS,
        enemies,
        wounded=(PALADIN, BARBARIAN),
        bolts=(4, 4, 3),
        bear=(7, 9),
        used=(WIZARD, DRUID),
    )


HYDRA = (Enemy(18), Enemy(19), Enemy(18), Enemy(20, None, "hydra", (2, 3, 5, 6, 7, 9)))
OPEN = (Enemy(9), Enemy(14), Enemy(18), Enemy(20, 7, "troll"))


def _median_ms(position: Position, runs: int = 25) -> tuple[float, int]:
    times = []
    count = 0
    for _ in range(runs):
        start = time.perf_counter()
        count = len(Board(position).ranked())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), count


def main() -> None:
    for name, enemies in (("Hydra (7 heads) + Ogres", HYDRA), ("open line-up + Troll", OPEN)):
        ms, count = _median_ms(worst_case(enemies))
        print(
            f"enumerate plays, worst case, {name}: median {ms:.2f} ms "
            f"({count} distinct plays; target < 20 ms)"
        )
    seeds = range(1, 6)  # five runs: the machine is shared, so one run says little
    for jobs in (1, 2):
        runs = [simulate("monstrous-horde", 4, 200, seed, jobs=jobs) for seed in seeds]
        wall = statistics.median(r.games_per_second for r in runs)
        cpu = statistics.median(r.games_per_cpu_second for r in runs)
        print(
            f"simulate 4 players, greedy, {jobs} process{'es' if jobs > 1 else ''}: median "
            f"{wall:.0f} games/s wall, {cpu:.0f} games per CPU-second ({len(seeds)} x 200 "
            "games; target >= 200)"
        )

    board_horde()


def board_horde() -> None:
    """Board Horde: 3-player self-play, and describe() + ranked moves (what each panel
    snapshot costs) on positions met along one seeded game."""
    runs = [simulate("board-horde", 3, 200, seed) for seed in range(1, 6)]
    wall = statistics.median(r.games_per_second for r in runs)
    print(f"simulate Board Horde, 3 players, greedy, 1 process: median {wall:.0f} games/s wall "
          "(5 x 200 games)")
    rng = random.Random(1)
    state = BoardHorde().new_state(["Ann", "Bob", "Cy"])
    times = []
    while state.current_player is not None:
        start = time.perf_counter()
        state.describe()
        ranked = state.ranked_moves()
        times.append((time.perf_counter() - start) * 1000)
        state.apply(ranked[0].move if state.current_player != CHANCE
                    else state.seeded_roll(rng))
    print(f"Board Horde panel view + ranked moves: median {statistics.median(times):.2f} ms, "
          f"slowest {max(times):.2f} ms ({len(times)} positions of one game)")
