"""A table's dice files as Rollscribe wrote them before its crops were one memory: the dice
file's `shots` table and the memory file beside it (the migration tests make them)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

OLD_DICE = """
CREATE TABLE dice (name TEXT PRIMARY KEY, definition TEXT NOT NULL);
CREATE TABLE shots (
    id INTEGER PRIMARY KEY, die TEXT NOT NULL, face TEXT NOT NULL, png BLOB NOT NULL,
    model TEXT, vector BLOB, taken REAL NOT NULL);
CREATE INDEX shots_die ON shots (die, face);
CREATE TABLE former (name TEXT PRIMARY KEY, now TEXT, definition TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""
OLD_MEMORY = """
CREATE TABLE dice (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, value TEXT NOT NULL, corrected INTEGER NOT NULL,
    jpeg BLOB NOT NULL, game INTEGER, event INTEGER, place INTEGER, model TEXT, vectors BLOB,
    added REAL NOT NULL, UNIQUE (game, event, place));
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""
SIGILS = {"name": "sigils", "title": "sigils", "faces": [
    {"name": face, "count": 1, "value": None} for face in ("star", "moon", "sun")]}
SHOTS = [("sigils", "star", b"png star 1"), ("sigils", "star", b"png star 2"),
         ("sigils", "moon", b"png moon"), ("village", "Melee", b"png melee")]
# kind, value, corrected, jpeg, game, event, place
REMEMBERED = [("d20", 7, 1, b"jpeg d20 7", 1, 4, 0), ("d6", 3, 0, b"jpeg d6 3", 1, 4, 1),
              ("d6", 5, 0, b"jpeg imported", None, None, None)]
FORGOTTEN = 2  # the event up to which the old memory had forgotten


def write_old_table(db: Path) -> None:
    """The two files of a table `db` from before: WAL, like the stores kept them."""
    with sqlite3.connect(db.with_name(f"{db.stem}.dice.sqlite")) as dice:
        dice.execute("PRAGMA journal_mode=WAL")
        dice.executescript(OLD_DICE)
        dice.execute("INSERT INTO dice VALUES ('sigils', ?)", (json.dumps(SIGILS),))
        dice.executemany("INSERT INTO shots (die, face, png, model, vector, taken) VALUES "
                         "(?, ?, ?, 'old-model', ?, 1.0)",
                         [(d, f, png, b"\0" * 16) for d, f, png in SHOTS])
        dice.execute("INSERT INTO meta VALUES ('revision', 5)")
    with sqlite3.connect(db.with_name(f"{db.stem}.memory.sqlite")) as memory:
        memory.execute("PRAGMA journal_mode=WAL")
        memory.executescript(OLD_MEMORY)
        memory.executemany("INSERT INTO dice (kind, value, corrected, jpeg, game, event, place, "
                           "added) VALUES (?, ?, ?, ?, ?, ?, ?, 1.0)",
                           [(k, json.dumps(v), *rest) for k, v, *rest in REMEMBERED])
        memory.executemany("INSERT INTO meta VALUES (?, ?)",
                           [("revision", 3), ("newest", 4), ("forgotten", FORGOTTEN)])
