"""A table's dice kept before its crops were one memory, moved into it when the dice file opens.

Two older places held crops: the dice file's `shots` table (the shots taught on the Dice page,
PNG, with an upright embedding the reader no longer uses) and the memory file beside it
(`<db>.memory.sqlite`: the dice of confirmed rolls, and where the last forgetting was). Both are
moved into the crops table (companion.dice_memory) by the one transaction of the dice file that
opens it, which also marks the memory file moved: a kill at any moment leaves either the old
places whole or the new one. The memory file is removed only once its move is committed; found
again with the mark set (killed before it was removed), it is only removed.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.dice_memory import TAUGHT
from companion.revised_store import bump

MOVED = "memory_file_moved"  # meta key: the old memory file's dice are in the crops table


def legacy_memory(store: Path) -> Path | None:
    """Where the table whose dice file is `store` (`<db>.dice.sqlite`) kept its memory before."""
    if not store.name.endswith(".dice.sqlite"):
        return None
    return store.with_name(store.name.removesuffix(".dice.sqlite") + ".memory.sqlite")


def move_shots(db: sqlite3.Connection) -> int:
    """Within the caller's transaction: the taught shots of the old `shots` table as taught
    crops (embedded again by the reader), and the table dropped. Returns how many."""
    if not has_table(db, "main", "shots"):
        return 0
    rows = db.execute("SELECT die, face, png, taken FROM shots ORDER BY id").fetchall()
    db.executemany("INSERT INTO crops (kind, value, how, image, added) VALUES (?, ?, ?, ?, ?)",
                   [(die, json.dumps(face), TAUGHT, png, taken) for die, face, png, taken in rows])
    db.execute("DROP TABLE shots")
    return len(rows)


def move_memory(db: sqlite3.Connection) -> int:
    """Within the caller's transaction, the old memory file attached as `old`: its dice as
    crops (their embeddings kept), where it last forgot, and the mark that it moved. Returns
    how many dice; none when the mark is set already."""
    done = db.execute("SELECT value FROM meta WHERE key = ?", (MOVED,)).fetchone()
    if done or not has_table(db, "old", "dice"):
        bump(db, MOVED, 0, 1)
        return 0
    cursor = db.execute(
        "INSERT OR IGNORE INTO crops (kind, value, how, image, game, event, place, model, "
        "vectors, added) SELECT kind, value, CASE WHEN corrected THEN 'corrected' ELSE "
        "'checked' END, jpeg, game, event, place, model, vectors, added FROM old.dice ORDER BY id")
    if has_table(db, "old", "meta"):
        for key, value in db.execute("SELECT key, value FROM old.meta WHERE key IN "
                                     "('forgotten', 'newest')").fetchall():
            bump(db, key, 0, value)
    bump(db, MOVED, 0, 1)
    return cursor.rowcount


def remove_moved(legacy: Path) -> None:
    """The old memory file gone, its write-ahead log first (a log left without its file would
    be read into a new file of that name)."""
    for path in (Path(f"{legacy}-wal"), Path(f"{legacy}-shm"), legacy):
        path.unlink(missing_ok=True)


def has_table(db: sqlite3.Connection, schema: str, name: str) -> bool:
    """Whether the database attached as `schema` has that table."""
    return db.execute(f"SELECT 1 FROM {schema}.sqlite_master WHERE type = 'table' AND name = ?",
                      (name,)).fetchone() is not None
