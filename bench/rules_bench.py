"""Rules engine figures: worst-case play enumeration (target: median < 20 ms) and simulated
4-player games per second (target: >= 200). Medians of several runs, printed, never asserted."""

from __future__ import annotations

import statistics
import time

from companion.rules.games.monstrous_horde.assign import Board
from companion.rules.games.monstrous_horde.position import Enemy, Position, Turn
from companion.rules.games.monstrous_horde.rules import (
    BARBARIAN,
    DRUID,
    PALADIN,
    WIZARD,
    WOUNDED,
    Options,
)
from companion.rules.simulation import simulate

ALL_CRITS = (4, 6, 8, 10, None, None)  # Wizard, Rogue, Cleric, Druid on their highest faces


def worst_case(enemies: tuple[Enemy, ...]) -> Position:
    """4 crit characters, 3 Fire Bolt d4s, 2 Bear Form d10s, the Paladin and Barbarian wounded."""
    start = Position.start(["Ann", "Bob"], Options())
    status = list(start.status[0])
    status[PALADIN] = status[BARBARIAN] = WOUNDED
    turn = Turn(team=(0, 1, 2, 3), values=ALL_CRITS, used=(WIZARD, DRUID), bolts=(4, 4, 3),
                bear=(7, 9))
    return Position(**{**{f: getattr(start, f) for f in start.__slots__},  # type: ignore
                       "status": (tuple(status), start.status[1]), "enemies": enemies,
                       "phase": "act", "seat": 0, "first": 0, "round": 1, "turn": turn})


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
        print(f"enumerate plays, worst case, {name}: median {ms:.2f} ms "
              f"({count} distinct plays; target < 20 ms)")
    runs = [simulate("monstrous-horde", 4, 200, seed) for seed in (1, 2, 3)]
    wall = statistics.median(r.games_per_second for r in runs)
    cpu = statistics.median(r.games / r.cpu_seconds for r in runs)
    print(f"simulate 4 players, greedy: median {wall:.0f} games/s wall, {cpu:.0f} games/s of CPU "
          f"(3 x 200 games; target >= 200)")
