"""A small SQLite file beside the history whose every change moves a revision on.

The table's symbol dice (companion.dice_store) and the dice it remembers (companion.dice_memory)
are each kept so: one writer at a time across the panel's and the camera's threads, WAL with
synchronous FULL (a change committed survives a kill or a power cut), and a revision the reader
compares to know when to load them again. Pure standard library.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"


class RevisedStore:
    """An SQLite file with its schema, a `meta` table of counters and a revision."""

    def __init__(self, path: str | Path, schema: str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(schema + META)
        # called after each change is committed (a reader may load it at once)
        self.listeners: list[Callable[[], object]] = []

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _change(self) -> Iterator[sqlite3.Connection]:
        """One transaction that also moves the revision on (the reader reloads on it)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                bump(self._db, "revision", 1)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        for listener in self.listeners:
            listener()

    def _meta(self, key: str) -> int:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return int(row[0]) if row else 0

    @property
    def revision(self) -> int:
        """Moves on with every change."""
        return self._meta("revision")


def bump(db: sqlite3.Connection, key: str, by: int, at_least: int = 0) -> None:
    """meta[key] moved on by `by`, and raised to `at_least`."""
    db.execute("INSERT INTO meta VALUES (?, MAX(?, ?)) ON CONFLICT(key) DO UPDATE SET "
               "value = MAX(value + ?, ?)", (key, by, at_least, by, at_least))
