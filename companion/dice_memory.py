"""The dice this table's players confirmed, remembered so the reader reads the next rolls better.

Each die of a camera-read roll a player checked or corrected is a labelled photo of this table's
dice under its light (companion.die_photos says which). The table keeps them here, in SQLite
beside the history (`<db>.memory.sqlite`), and vision.table_memory reads new dice by the nearest
of them. Kept in step with the game: a roll undone is taken out again, a die corrected after the
roll was applied is relabelled; a roll typed in has no photo and teaches nothing.

Standard dice only, for now: a symbol die's faces are still taught from shots on the Dice page
(companion.dice_store, vision.prototypes), not from the rolls confirmed.

Bounded: per kind and value PER_FACE dice, corrected ones first (the reader got those wrong:
they teach most), then the newest. Forgetting empties it and remembers where: the dice of rolls
already played are not learnt again. Pure standard library, like the dice store; the vision side
writes each crop's embedding back with the sha256 of the model it came from.
"""

from __future__ import annotations

import base64
import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.die_photos import DieLabel
from companion.revised_store import RevisedStore, bump
from companion.rules.dice import STANDARD

PER_FACE = 24  # remembered dice per kind and value
WELL_KNOWN = 50  # confirmed dice of a kind after which the table reads it well (the bench's goal)
TEACHES = ("corrected", "checked")  # a die read and applied unasked was looked at by nobody
FILE_FORMAT = "rollscribe-memory/1"
SCHEMA = """
CREATE TABLE IF NOT EXISTS dice (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, value TEXT NOT NULL, corrected INTEGER NOT NULL,
    jpeg BLOB NOT NULL, game INTEGER, event INTEGER, place INTEGER, model TEXT, vectors BLOB,
    added REAL NOT NULL, UNIQUE (game, event, place));
CREATE INDEX IF NOT EXISTS dice_face ON dice (kind, value);
"""


class DiceMemoryError(ValueError):
    """A memory file that cannot be imported: the message says what is wrong in it."""


@dataclass(frozen=True)
class RememberedDie:
    """One remembered die: its crop, what it showed, and its embeddings once the reader made
    them (`model`: the sha256 of the classifier they are from)."""

    id: int
    kind: str
    value: int | str
    corrected: bool
    jpeg: bytes
    model: str | None
    vectors: bytes | None


def memory_path(db_path: str | Path) -> Path:
    """Where the table whose history is `db_path` keeps the dice it learnt."""
    path = Path(db_path)
    return path.with_name(f"{path.stem}.memory.sqlite")


class DiceMemory(RevisedStore):
    """A table's remembered dice; safe to share between the panel's and the camera's threads."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, SCHEMA)

    def learn(self, game_id: int, dice: Iterable[DieLabel],
              crop: Callable[[DieLabel], bytes | None]) -> bool:
        """Bring the memory in step with one game's labelled dice (companion.die_photos): dice of
        that game no longer among them (their roll undone) are dropped, new or relabelled ones
        kept with their `crop` (fetched for those only; a die with none is not kept), only
        standard dice a player checked or corrected, none from before the last `forget`.
        Returns whether anything changed."""
        forgotten = self._meta("forgotten")
        wanted = {(d.event_id, d.index): d for d in dice
                  if d.how in TEACHES and d.die in STANDARD and d.event_id > forgotten}
        with self._lock:
            rows = self._db.execute("SELECT event, place, kind, value, corrected FROM dice "
                                    "WHERE game = ?", (game_id,)).fetchall()
        have = {(e, p): (k, json.loads(v), bool(c)) for e, p, k, v, c in rows}
        gone = [key for key in have if key not in wanted]
        changed = [d for key, d in wanted.items()
                   if have.get(key) != (d.die, d.value, d.how == "corrected")]
        new = [(d, jpeg) for d in changed if (jpeg := crop(d)) is not None]
        if not gone and not new:
            return False
        with self._change() as db:
            db.executemany("DELETE FROM dice WHERE game = ? AND event = ? AND place = ?",
                           [(game_id, *key) for key in gone])
            db.executemany(
                "INSERT OR REPLACE INTO dice (kind, value, corrected, jpeg, game, event, place, "
                "added) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(d.die, json.dumps(d.value), d.how == "corrected", jpeg, game_id, d.event_id,
                  d.index, time.time()) for d, jpeg in new])
            bump(db, "newest", 0, max((d.event_id for d, _ in new), default=0))
            _trim(db, {(d.die, json.dumps(d.value)) for d, _ in new})
        return True

    def dice(self) -> list[RememberedDie]:
        """Every remembered die, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, kind, value, corrected, jpeg, model, vectors "
                                    "FROM dice ORDER BY id").fetchall()
        return [RememberedDie(i, k, json.loads(v), bool(c), j, m, vec)
                for i, k, v, c, j, m, vec in rows]

    def set_vectors(self, model: str, vectors: dict[int, bytes]) -> None:
        """Dice embedded by the reader (by id). Not a change the reader reloads for: it is the
        one that embedded them."""
        with self._lock:
            self._db.executemany("UPDATE dice SET model = ?, vectors = ? WHERE id = ?",
                                 [(model, v, i) for i, v in vectors.items()])

    def summary(self) -> list[dict[str, Any]]:
        """Per kind, most remembered first: how many dice, how many were corrections, how many
        values, and whether the table knows the kind well (WELL_KNOWN dice)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT kind, COUNT(*), SUM(corrected), COUNT(DISTINCT value) FROM dice "
                "GROUP BY kind ORDER BY COUNT(*) DESC, kind").fetchall()
        return [{"kind": k, "dice": n, "corrected": int(c), "values": v, "well": n >= WELL_KNOWN}
                for k, n, c, v in rows]

    def forget(self) -> int:
        """Forget every die learnt, and the rolls already played: only rolls confirmed from now
        on teach. Returns how many dice were forgotten."""
        with self._change() as db:
            count = db.execute("SELECT COUNT(*) FROM dice").fetchone()[0]
            db.execute("DELETE FROM dice")
            newest = db.execute("SELECT value FROM meta WHERE key = 'newest'").fetchone()
            bump(db, "forgotten", 0, newest[0] if newest else 0)
        return int(count)

    def export(self) -> dict[str, Any]:
        """What this table learnt, as a file another table (or this one, later) can import: each
        die's kind, value, whether it was a correction, and its crop (JPEG, base64); embeddings
        are left out, since the other table may run another model."""
        return {"format": FILE_FORMAT, "dice": [
            {"kind": d.kind, "value": d.value, "corrected": d.corrected,
             "jpeg": base64.b64encode(d.jpeg).decode("ascii")} for d in self.dice()]}

    def import_file(self, data: object) -> int:
        """Add the dice of an exported memory (kept within the bound, like learnt ones);
        DiceMemoryError naming what is wrong, and then nothing is added. Returns how many."""
        if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
            raise DiceMemoryError(f"not a Rollscribe memory file (its 'format' is not "
                                  f"{FILE_FORMAT})")
        dice = data.get("dice")
        if not isinstance(dice, list):
            raise DiceMemoryError("the memory file's 'dice' must be a list")
        rows = []
        for n, die in enumerate(dice, start=1):
            if not isinstance(die, dict) or not isinstance(die.get("jpeg"), str):
                raise DiceMemoryError(f"die {n} of the memory file needs a 'kind', a 'value' "
                                      "and its 'jpeg' in base64")
            kind = STANDARD.get(die.get("kind"))  # type: ignore[arg-type]
            if kind is None or type(die.get("value")) is not int or die["value"] not in kind.faces:
                raise DiceMemoryError(f"die {n} of the memory file: {die.get('kind')!r} "
                                      f"{die.get('value')!r} is not a standard die's face")
            try:
                jpeg = base64.b64decode(die["jpeg"], validate=True)
            except ValueError as exc:
                raise DiceMemoryError(f"die {n} of the memory file is not base64: {exc}") from exc
            rows.append((die["kind"], json.dumps(die["value"]), bool(die.get("corrected")), jpeg,
                         time.time()))
        with self._change() as db:
            db.executemany("INSERT INTO dice (kind, value, corrected, jpeg, added) "
                           "VALUES (?, ?, ?, ?, ?)", rows)
            _trim(db, {(r[0], r[1]) for r in rows})
        return len(rows)


def _trim(db: sqlite3.Connection, faces: set[tuple[str, str]]) -> None:
    """Each of these kinds and values down to PER_FACE dice: corrections kept first, then the
    newest."""
    for kind, value in faces:
        db.execute("DELETE FROM dice WHERE id IN (SELECT id FROM dice WHERE kind = ? AND "
                   "value = ? ORDER BY corrected DESC, id DESC LIMIT -1 OFFSET ?)",
                   (kind, value, PER_FACE))


def open_memory(db_path: str | Path) -> tuple[DiceMemory | None, str | None]:
    """The memory of the table whose history is `db_path`, or None and why it cannot be opened
    (the game goes on without it)."""
    try:
        return DiceMemory(memory_path(db_path)), None
    except (OSError, sqlite3.Error) as exc:
        return None, f"{memory_path(db_path)}: {exc}"
