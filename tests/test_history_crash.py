"""Kill the table at random instants (SIGKILL) and check that the history is whole each time.

After every kill: the database is intact, each game's events are numbered without gaps,
nothing the writer reported as committed is missing, the last event's recorded scores match,
and the resumed table equals a fresh game fed only the rolls and moves still in force.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from companion.history import EventKind, History, effective_steps
from companion.rules import registry
from companion.table import TableSession
from tests.killed_writer import acks_before_kill

KILLS = 20
WRITER = Path(__file__).with_name("history_writer.py")


def run_and_kill(db: Path, seed: int, rng: random.Random) -> tuple[int, int] | None:
    """Start the writer, let it work for a random while, SIGKILL it; return its last ack."""
    acks = [line.split() for line in acks_before_kill(WRITER, [str(db), str(seed)], rng, 0.4)]
    return (int(acks[-1][0]), int(acks[-1][1])) if acks else None


def check(db: Path, ack: tuple[int, int] | None) -> int:
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    history = History(db)
    total = 0
    for record in history.games():
        events = history.events(record.id)
        total += len(events)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        if ack and ack[0] == record.id:
            assert ack[1] <= len(events), "an event reported as committed is gone"
        fresh = registry.get_game(record.game)().new_state(list(record.players), record.options)
        live = effective_steps(events)
        for e in events:
            if e.id in live:
                fresh.apply_text(e.text)
            if e.data.get("image") or e.data.get("reading") == e.id:
                assert e.has_image, "an event was committed without its tray image"
        resumed = history.replay(record).state
        assert resumed.to_json() == fresh.to_json()
        if events:
            assert list(events[-1].scores) == fresh.scores()
    table = TableSession(History(db))
    assert table.snapshot()["faults"] == []
    latest = history.latest_open_game()
    if latest is not None:
        assert table.game_id == latest.id
        assert table.snapshot()["scores"] == history.replay(latest).state.scores()
    history.close()
    table.history.close()
    return total


def test_sigkill_at_random_instants_never_loses_or_half_writes(tmp_path):
    db = tmp_path / "kill.db"
    rng = random.Random(7)
    counts = []
    for kill in range(KILLS):
        ack = run_and_kill(db, seed=kill, rng=rng)
        counts.append(check(db, ack))
    assert counts == sorted(counts) and counts[-1] > KILLS  # it kept going across restarts
    kinds = {row[0] for row in sqlite3.connect(db).execute("SELECT DISTINCT kind FROM events")}
    assert {EventKind.ROLL, EventKind.MOVE, EventKind.UNDO, EventKind.READING, EventKind.ADD,
            EventKind.DROP} <= kinds
