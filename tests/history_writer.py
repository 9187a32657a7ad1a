"""A table that plays random actions forever, for the kill test; prints each committed event.

Run as `python tests/history_writer.py DB SEED`; every action it takes is a real table action
(typed rolls, held readings with dice added, dropped and corrected, moves, undos, new games
when one ends).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from table_support import GAME, PLAYERS

from companion.history import History
from companion.reading import DieReading, TrayReading
from companion.rules.core import Roll, RollRequest
from companion.rules.errors import IllegalMove
from companion.table import TableSession


def step(table: TableSession, rng: random.Random) -> None:
    snap = table.snapshot()
    if snap["game"] is None or snap["game"]["over"]:
        table.new_game(GAME, PLAYERS)
    elif snap["can_undo"] and rng.random() < 0.15:
        (table.undo_turn if rng.random() < 0.3 else table.undo)()
    elif snap["reading"] and snap["reading"]["pending"]:
        fix_reading(table, snap["reading"]["dice"], rng)
    elif snap["roll_wanted"]:
        roll = Roll.random(RollRequest.from_json(snap["roll_wanted"]), rng)
        unsure = rng.random() < 0.3
        dice = tuple(DieReading(d.kind, d.value, 0.5 if unsure else 0.99, (0, 0, 9, 9), unsure)
                     for d in roll.dice)
        table.submit_reading(TrayReading(dice, bytes(rng.randrange(256) for _ in range(2000))))
    else:
        table.choose_move(rng.choice(snap["moves"])["move"])


def fix_reading(table: TableSession, dice: list[dict], rng: random.Random) -> None:
    """Put the waiting reading right as a player would, one event at a time (a kill may land
    between any two): now and then a die added, which a later step drops again; a die set,
    its kind named; then Confirm."""
    extra = [i for i, d in enumerate(dice) if d["added"] and not d["dropped"]]
    if extra:
        table.drop_die(extra[0])
    elif rng.random() < 0.3:
        table.add_die(dice[0]["die"], dice[0]["value"])
    else:
        table.correct_die(0, dice[0]["value"], kind=dice[0]["die"])
        table.confirm()


def main() -> None:
    table = TableSession(History(sys.argv[1]))
    rng = random.Random(int(sys.argv[2]))
    print("ready", flush=True)
    while True:
        try:
            step(table, rng)
        except IllegalMove:
            continue
        events = table.history.events(table.game_id)
        print(table.game_id, events[-1].seq if events else 0, flush=True)


if __name__ == "__main__":
    main()
