"""The crops of this table's own dice with what they showed: the one thing the reader learns from.

Two ways in, one place: a shot a player took on the Dice page to teach a symbol die's face
("taught"), and each die of a camera-read roll a player checked or corrected ("checked",
"corrected"; companion.die_photos says which), standard and symbol dice alike. The reader reads
a standard die by the nearest of its kind's crops (vision.table_memory) and a symbol die by its
faces made from its crops (vision.taught_dice), so a symbol die taught from a few shots is read
better as it is played. Kept in step with the game: a roll undone is taken out again, a die
corrected after the roll was applied is relabelled; a roll typed in has no photo and teaches
nothing.

Bounded the same way for every die: per kind and value PER_FACE crops, taught shots first (a
player chose them, at most MAX_SHOTS a face), then corrections (the reader got those wrong: they
teach most), then the newest. Forgetting empties it (taught shots too) and remembers where: the
dice of rolls already played are not learnt again. The table keeps it in its dice file
(companion.dice_store, which knows the symbol dice's faces); pure standard library, the vision
side writes each crop's embeddings back with the sha256 of the model they came from.
"""

from __future__ import annotations

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

PER_FACE = 24  # crops kept per kind and value
MAX_SHOTS = 5  # shots taught of each face: more add little to a mean embedding
WELL_KNOWN = 50  # confirmed dice of a kind after which the table reads it well (the bench's goal)
TAUGHT = "taught"
TEACHES = ("corrected", "checked")  # a die read and applied unasked was looked at by nobody
HOW = (TAUGHT, *TEACHES)  # what the bound keeps first
SCHEMA = """
CREATE TABLE IF NOT EXISTS crops (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, value TEXT NOT NULL, how TEXT NOT NULL,
    image BLOB NOT NULL, game INTEGER, event INTEGER, place INTEGER, model TEXT, vectors BLOB,
    added REAL NOT NULL, UNIQUE (game, event, place));
CREATE INDEX IF NOT EXISTS crops_face ON crops (kind, value);
"""


@dataclass(frozen=True)
class RememberedDie:
    """One crop of a die: what it showed, how that is known (one of HOW), the image (PNG or
    JPEG; None where it was not asked for), and its embeddings once the reader made them
    (`model`: the classifier's sha256)."""

    id: int
    kind: str
    value: int | str
    how: str
    image: bytes | None
    model: str | None
    vectors: bytes | None


# one row of the crops table as written: kind, value (JSON), how, image, game, event, place, added
Row = tuple[str, str, str, bytes, int | None, int | None, int | None, float]


class DiceMemory(RevisedStore):
    """A table's crops of its dice; safe to share between the panel's and the camera's threads.
    `faces` says which values a kind has (None: not a die of this table)."""

    def __init__(self, path: str | Path, schema: str = "") -> None:
        super().__init__(path, SCHEMA + schema)

    def faces(self, kind: str) -> tuple[int | str, ...] | None:
        """The values a die of `kind` shows; standard dice only here (the dice store adds its
        symbol dice)."""
        known = STANDARD.get(kind)
        return tuple(known.faces) if known else None

    def learn(self, game_id: int, dice: Iterable[DieLabel],
              crop: Callable[[DieLabel], bytes | None]) -> bool:
        """Bring the memory in step with one game's labelled dice (companion.die_photos): dice of
        that game no longer among those a player checked or corrected (their roll undone) are
        dropped, new or relabelled ones kept with their `crop` (fetched for those only; a die
        with none is not kept), none from before the last `forget`, and only values of a known
        die (a die renamed since keeps what it learnt). Returns whether anything changed."""
        forgotten = self._meta("forgotten")
        labels = {(d.event_id, d.index): d for d in dice
                  if d.how in TEACHES and d.event_id > forgotten}
        faces = {kind: self.faces(kind) for kind in {d.die for d in labels.values()}}
        wanted = {key: d for key, d in labels.items() if d.value in (faces[d.die] or ())}
        with self._lock:
            rows = self._db.execute("SELECT event, place, kind, value, how FROM crops "
                                    "WHERE game = ?", (game_id,)).fetchall()
        have = {(e, p): (k, json.loads(v), how) for e, p, k, v, how in rows}
        gone = [key for key in have if key not in labels]
        changed = [d for key, d in wanted.items() if have.get(key) != (d.die, d.value, d.how)]
        new = [(d, image) for d in changed if (image := crop(d)) is not None]
        if not gone and not new:
            return False
        with self._change() as db:
            db.executemany("DELETE FROM crops WHERE game = ? AND event = ? AND place = ?",
                           [(game_id, *key) for key in gone])
            self._keep(db, [(d.die, json.dumps(d.value), d.how, image, game_id, d.event_id,
                             d.index, time.time()) for d, image in new])
            bump(db, "newest", 0, max((d.event_id for d, _ in new), default=0))
        return True

    def _keep(self, db: sqlite3.Connection, rows: list[Row]) -> None:
        """Write crops (replacing a game's die learnt before), their faces kept to the bound."""
        db.executemany("INSERT OR REPLACE INTO crops (kind, value, how, image, game, event, "
                       "place, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        trim(db, {(r[0], r[1]) for r in rows})

    def dice(self, kinds: Iterable[str] | None = None, images: bool = True
             ) -> list[RememberedDie]:
        """Every crop (of these kinds, or all), oldest first; without their images unless
        `images` (the reader, following the store after each roll, needs only the embeddings
        of crops it has embedded before: `images_of` the others)."""
        column = "image" if images else "NULL"
        query, args = f"SELECT id, kind, value, how, {column}, model, vectors FROM crops", ()
        if kinds is not None:
            args = tuple(kinds)
            query += f" WHERE kind IN ({','.join('?' * len(args))})"
        with self._lock:
            rows = self._db.execute(query + " ORDER BY id", args).fetchall()
        return [RememberedDie(i, k, json.loads(v), how, image, m, vec)
                for i, k, v, how, image, m, vec in rows]

    def images_of(self, ids: Iterable[int]) -> dict[int, bytes]:
        """The images of these crops (by id; one gone since is missing)."""
        wanted = list(ids)
        if not wanted:
            return {}
        with self._lock:
            rows = self._db.execute(f"SELECT id, image FROM crops WHERE id IN "
                                    f"({','.join('?' * len(wanted))})", wanted).fetchall()
        return dict(rows)

    def set_vectors(self, model: str, vectors: dict[int, bytes]) -> None:
        """Crops embedded by the reader (by id). Not a change the reader reloads for: it is the
        one that embedded them."""
        with self._lock:
            self._db.executemany("UPDATE crops SET model = ?, vectors = ? WHERE id = ?",
                                 [(model, v, i) for i, v in vectors.items()])

    def summary(self) -> list[dict[str, Any]]:
        """Per kind, most remembered first: how many crops, how many were corrections, how many
        were taught, how many values, and whether the table knows the kind well (WELL_KNOWN)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT kind, COUNT(*), SUM(how = 'corrected'), SUM(how = ?), "
                "COUNT(DISTINCT value) FROM crops GROUP BY kind ORDER BY COUNT(*) DESC, kind",
                (TAUGHT,)).fetchall()
        return [{"kind": k, "dice": n, "corrected": int(c), "taught": int(t), "values": v,
                 "well": n >= WELL_KNOWN} for k, n, c, t, v in rows]

    def forget(self) -> int:
        """Forget every crop learnt in play or imported, and the rolls already played: only
        rolls confirmed from now on teach. The shots a player taught stay: without them a
        symbol die cannot be read at all (they go with the die when it is deleted). Returns how
        many crops were forgotten."""
        with self._change() as db:
            count = db.execute("DELETE FROM crops WHERE how != ?", (TAUGHT,)).rowcount
            newest = db.execute("SELECT value FROM meta WHERE key = 'newest'").fetchone()
            bump(db, "forgotten", 0, newest[0] if newest else 0)
        return int(count)


def trim(db: sqlite3.Connection, faces: set[tuple[str, str]]) -> None:
    """Each of these kinds and values (JSON) down to PER_FACE crops: taught shots kept first
    (the newest MAX_SHOTS), then corrections, then the newest."""
    for kind, value in faces:
        db.execute("DELETE FROM crops WHERE id IN (SELECT id FROM crops WHERE kind = ? AND "
                   "value = ? AND how = ? ORDER BY id DESC LIMIT -1 OFFSET ?)",
                   (kind, value, TAUGHT, MAX_SHOTS))
        db.execute("DELETE FROM crops WHERE id IN (SELECT id FROM crops WHERE kind = ? AND "
                   "value = ? ORDER BY how = ? DESC, how = 'corrected' DESC, id DESC "
                   "LIMIT -1 OFFSET ?)", (kind, value, TAUGHT, PER_FACE))
