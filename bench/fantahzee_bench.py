"""Fantahzee figures: legal-move enumeration in the Roll Step for a party of 5 waiting heroes
and 7 free dice (target: median < 20 ms), the panel's ranked moves and view of that position,
and 4-player self-play games per second on the placeholder deck. Medians, printed, never
asserted."""

from __future__ import annotations

import json
import statistics

from bench.timing import median_ms
from companion.rules.games.fantahzee import Fantahzee
from companion.rules.games.fantahzee.agenda import new_turn
from companion.rules.simulation import simulate

# Five heroes whose costs all find payments in a spread roll: X costs, pairs, numbers, steam.
PARTY = ["squire", "knight", "sergeant", "apprentice", "alchemist"]
DICE = [6, 5, 5, 3, 3, 3, 1]


def roll_step() -> Fantahzee:
    game = Fantahzee()
    state = game.new_state(["Ann", "Bob", "Cy", "Dee"])
    data = state.to_json()
    s = data["position"]["s"]
    for card in PARTY:
        s["deck"][card] -= 1
    s["party"][0] = [{"uid": i + 1, "card": c, "treasure": None} for i, c in enumerate(PARTY)]
    s.update(seat=0, uid=len(PARTY) + 1, step={"kind": "dice"})
    s["turn"] = {**new_turn(), "recruits": 2, "dice": DICE, "unrolled": 0, "rolled": True,
                 "steam": [4], "cuts": 1}
    return game.state_from_json(json.loads(json.dumps(data)))


def main() -> None:
    state = roll_step()
    count = len(state.legal_moves())
    print(f"Fantahzee legal moves, 5 heroes and 7 dice: median "
          f"{median_ms(state.legal_moves, 25):.2f} ms ({count} moves; target < 20 ms)")
    print(f"Fantahzee ranked moves + panel view of that position: median "
          f"{median_ms(lambda: (state.ranked_moves(), state.describe()), 25):.2f} ms")
    runs = [simulate("fantahzee", 4, 50, seed) for seed in range(1, 4)]
    wall = statistics.median(r.games_per_second for r in runs)
    cpu = statistics.median(r.games_per_cpu_second for r in runs)
    turns = statistics.median(r.mean_turns for r in runs)
    print(f"simulate Fantahzee, 4 players, greedy, 1 process: median {wall:.1f} games/s wall, "
          f"{cpu:.1f} games per CPU-second ({turns:.0f} turns a game; 3 x 50 games)")
