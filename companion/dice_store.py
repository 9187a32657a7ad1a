"""The table's own symbol dice: their definitions and the shots they were taught from.

Kept in SQLite beside the history (`<db>.dice.sqlite`), so a table carries its dice with its
data. Each shot is the crop the camera saw (PNG) with the embedding the reader matches, and the
sha256 of the model that made it: when the classifier changes, the vision side embeds the shots
again (vision.taught_dice) and writes the new vectors back here.

A die renamed or deleted leaves a line in `former`: history events carry the die's name and face
as text, so they stay readable, and `describe` still says what an old name was (and what it is
called now). A shipped definition (companion.rules.symbol_dice) may be edited (the Day and Night
dice's faces are guesses) but not renamed or deleted: games ask for it by that name.

Pure standard library: the web pages and the CLI use it without the vision packages.
"""

from __future__ import annotations

import base64
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.revised_store import RevisedStore
from companion.rules.symbol_dice import SHIPPED, SymbolDie

MAX_SHOTS = 5  # shots kept of each face: more add little to a mean embedding
FILE_FORMAT = "rollscribe-die/1"  # what an exported die file says it is
SCHEMA = """
CREATE TABLE IF NOT EXISTS dice (name TEXT PRIMARY KEY, definition TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS shots (
    id INTEGER PRIMARY KEY, die TEXT NOT NULL, face TEXT NOT NULL, png BLOB NOT NULL,
    model TEXT, vector BLOB, taken REAL NOT NULL);
CREATE INDEX IF NOT EXISTS shots_die ON shots (die, face);
CREATE TABLE IF NOT EXISTS former (
    name TEXT PRIMARY KEY, now TEXT, definition TEXT NOT NULL, at REAL NOT NULL);
"""


class DiceStoreError(ValueError):
    """A change the store refuses (unknown die or face, a name taken, a bad file): the message
    names the die, face or field."""


@dataclass(frozen=True)
class Shot:
    """One stored shot of a face."""

    id: int
    die: str
    face: str
    png: bytes
    model: str | None  # sha256 of the model the vector is from (None: not embedded yet)
    vector: bytes | None  # float32 embedding, as numpy's tobytes()


def store_path(db_path: str | Path) -> Path:
    """Where the dice of the table whose history is `db_path` are kept."""
    path = Path(db_path)
    return path.with_name(f"{path.stem}.dice.sqlite")


class DiceStore(RevisedStore):
    """A table's dice; safe to share between the panel's threads and the camera's."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, SCHEMA)

    # -- definitions ---------------------------------------------------------------------------

    def definitions(self) -> dict[str, SymbolDie]:
        """Every die the table knows: the shipped ones (as edited here) and the players' own."""
        with self._lock:
            rows = self._db.execute("SELECT definition FROM dice ORDER BY name").fetchall()
        own = {d.name: d for d in (SymbolDie.from_json(json.loads(r[0])) for r in rows)}
        return {**SHIPPED, **own}

    def definition(self, name: str) -> SymbolDie:
        try:
            return self.definitions()[name]
        except KeyError:
            raise DiceStoreError(f"no die called {name!r} at this table") from None

    def define(self, data: object) -> SymbolDie:
        """Add or edit a definition (the panel's form, JSON). Shots of faces it no longer has are
        dropped; RulesError naming the field that is wrong."""
        die = _as_shipped(SymbolDie.from_json(data))
        with self._change() as db:
            db.execute("INSERT OR REPLACE INTO dice VALUES (?, ?)",
                       (die.name, json.dumps(die.to_json())))
            marks = ",".join("?" * len(die.faces))
            db.execute(f"DELETE FROM shots WHERE die = ? AND face NOT IN ({marks})",
                       (die.name, *die.face_names))
            db.execute("DELETE FROM former WHERE name = ?", (die.name,))
        return die

    def rename(self, old: str, new: str) -> SymbolDie:
        """The die and its shots under a new name; the old name is remembered as this die's."""
        die = self.definition(old)
        if old in SHIPPED:
            raise DiceStoreError(f"{old!r} is a shipped die that games ask for by name: "
                                 "make a copy under another name instead")
        renamed = SymbolDie.from_json({**die.to_json(), "name": new})
        if renamed.name in self.definitions():
            raise DiceStoreError(f"a die called {renamed.name!r} exists already")
        with self._change() as db:
            db.execute("DELETE FROM dice WHERE name = ?", (old,))
            db.execute("INSERT INTO dice VALUES (?, ?)",
                       (renamed.name, json.dumps(renamed.to_json())))
            db.execute("UPDATE shots SET die = ? WHERE die = ?", (renamed.name, old))
            db.execute("UPDATE former SET now = ? WHERE now = ?", (renamed.name, old))
            db.execute("INSERT OR REPLACE INTO former VALUES (?, ?, ?, ?)",
                       (old, renamed.name, json.dumps(die.to_json()), time.time()))
        return renamed

    def delete(self, name: str) -> None:
        """Forget a die and its shots; its definition is kept in `former` for the history."""
        die = self.definition(name)
        if name in SHIPPED:
            raise DiceStoreError(f"{name!r} is a shipped die that games ask for by name; "
                                 "its faces can be edited, not deleted")
        with self._change() as db:
            db.execute("DELETE FROM dice WHERE name = ?", (name,))
            db.execute("DELETE FROM shots WHERE die = ?", (name,))
            db.execute("UPDATE former SET now = NULL WHERE now = ?", (name,))
            db.execute("INSERT OR REPLACE INTO former VALUES (?, NULL, ?, ?)",
                       (name, json.dumps(die.to_json()), time.time()))

    def describe(self, name: str) -> dict[str, Any]:
        """What a die name met in the history is: its definition now, or the one it had when
        renamed or deleted (with `now`: its present name, or None when deleted)."""
        known = self.definitions().get(name)
        if known is not None:
            return {**known.to_json(), "status": "known"}
        with self._lock:
            row = self._db.execute("SELECT now, definition FROM former WHERE name = ?",
                                   (name,)).fetchone()
        if row is None:
            raise DiceStoreError(f"no die called {name!r} was ever kept at this table")
        return {**json.loads(row[1]), "status": "renamed" if row[0] else "deleted", "now": row[0]}

    # -- shots ---------------------------------------------------------------------------------

    def shots(self, die: str | None = None) -> list[Shot]:
        """The stored shots (of one die, or all), oldest first."""
        query, args = "SELECT id, die, face, png, model, vector FROM shots", ()
        if die is not None:
            query, args = query + " WHERE die = ?", (die,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY id", args).fetchall()
        return [Shot(*row) for row in rows]

    def shot_counts(self, die: str) -> dict[str, int]:
        """Shots per face of the die, every face named (0 for none yet)."""
        counts = dict.fromkeys(self.definition(die).face_names, 0)
        with self._lock:  # counted in SQLite: the shots' PNGs are not read for this
            rows = self._db.execute("SELECT face, COUNT(*) FROM shots WHERE die = ? GROUP BY face",
                                    (die,)).fetchall()
        counts.update(rows)
        return counts

    def add_shot(self, die: str, face: str, png: bytes, model: str, vector: bytes) -> int:
        """Keep one shot of a face (its crop and embedding); DiceStoreError when the die has no
        such face or the face has MAX_SHOTS already."""
        counts = self.shot_counts(die)
        if face not in counts:
            raise DiceStoreError(f"die {die!r} has no face {face!r}; its faces: "
                                 + ", ".join(counts))
        if counts[face] >= MAX_SHOTS:
            raise DiceStoreError(f"{die}:{face} has its {MAX_SHOTS} shots already")
        with self._change() as db:
            cursor = db.execute("INSERT INTO shots (die, face, png, model, vector, taken) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                (die, face, png, model, vector, time.time()))
        return int(cursor.lastrowid or 0)

    def set_vectors(self, model: str, vectors: dict[int, bytes]) -> None:
        """Shots embedded again with another model (by shot id). Not a change the reader must
        reload for: it is the one that embedded them."""
        with self._lock:
            self._db.executemany("UPDATE shots SET model = ?, vector = ? WHERE id = ?",
                                 [(model, v, i) for i, v in vectors.items()])

    # -- files ---------------------------------------------------------------------------------

    def export(self, name: str) -> dict[str, Any]:
        """A die as a file another table can import: its definition and its shots (PNG, base64;
        vectors are left out, since the other table may run another model)."""
        die = self.definition(name)
        shots = [{"face": s.face, "png": base64.b64encode(s.png).decode("ascii")}
                 for s in self.shots(name)]
        return {"format": FILE_FORMAT, "die": die.to_json(), "shots": shots}

    def import_die(self, data: object, name: str | None = None) -> SymbolDie:
        """Load an exported die (under `name` if given), replacing a die of that name and its
        shots; its shots wait to be embedded by the reader. DiceStoreError or RulesError naming
        what is wrong in the file; nothing is changed then."""
        if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
            raise DiceStoreError(f"not a Rollscribe die file (its 'format' is not {FILE_FORMAT})")
        raw = data.get("die")
        if not isinstance(raw, dict):
            raise DiceStoreError("the die file has no 'die' definition")
        die = SymbolDie.from_json({**raw, "name": name} if name else raw)
        shots = data.get("shots", [])
        if not isinstance(shots, list):
            raise DiceStoreError("the die file's 'shots' must be a list")
        decoded, counts = [], dict.fromkeys(die.face_names, 0)
        for i, shot in enumerate(shots):
            face, png = (shot.get("face"), shot.get("png")) if isinstance(shot, dict) else (0, 0)
            if face not in counts or not isinstance(png, str):
                raise DiceStoreError(f"shot {i + 1} of the die file: 'face' must be one of the "
                                     "die's faces and 'png' the image in base64")
            counts[face] += 1
            if counts[face] > MAX_SHOTS:
                raise DiceStoreError(f"the die file has more than {MAX_SHOTS} shots of {face!r}")
            try:
                decoded.append((face, base64.b64decode(png, validate=True)))
            except ValueError as exc:
                raise DiceStoreError(f"shot {i + 1} of the die file is not base64: {exc}") from exc
        die = _as_shipped(die)
        with self._change() as db:
            db.execute("INSERT OR REPLACE INTO dice VALUES (?, ?)",
                       (die.name, json.dumps(die.to_json())))
            db.execute("DELETE FROM shots WHERE die = ?", (die.name,))
            db.execute("DELETE FROM former WHERE name = ?", (die.name,))
            now = time.time()
            db.executemany("INSERT INTO shots (die, face, png, taken) VALUES (?, ?, ?, ?)",
                           [(die.name, face, png, now) for face, png in decoded])
        return die


def _as_shipped(die: SymbolDie) -> SymbolDie:
    """A definition under a shipped die's name keeps its edited faces, but the game and (when it
    has none of its own) the note stay the shipped die's."""
    shipped = SHIPPED.get(die.name)
    if shipped is None:
        return die
    return SymbolDie(die.name, die.title, die.faces, shipped.game, die.note or shipped.note)


def open_store(db_path: str | Path) -> tuple[DiceStore | None, str | None]:
    """The store of the table whose history is `db_path`, or None and why it cannot be opened
    (a read-only or damaged disk: the panel says so; the game goes on without it)."""
    try:
        return DiceStore(store_path(db_path)), None
    except (OSError, sqlite3.Error) as exc:
        return None, f"{store_path(db_path)}: {exc}"
