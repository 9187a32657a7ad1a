"""The table's own symbol dice and the crops it reads all its dice by, in one SQLite file.

Kept beside the history (`<db>.dice.sqlite`), so a table carries its dice with its data: the
symbol dice's definitions, and the crops of every die of the table with what they showed
(companion.dice_memory: shots taught on the Dice page and the dice of confirmed rolls, standard
and symbol dice alike). One file, so that renaming or deleting a die moves or drops its crops in
the same transaction. A table from before keeps what it had (companion.dice_migration).

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
from pathlib import Path
from typing import Any

from companion.dice_memory import MAX_SHOTS, TAUGHT, DiceMemory, RememberedDie, Row, trim
from companion.dice_migration import (
    has_table,
    legacy_memory,
    move_memory,
    move_shots,
    remove_moved,
)
from companion.rules.symbol_dice import SHIPPED, SymbolDie

FILE_FORMAT = "rollscribe-die/1"  # what an exported die file says it is
SCHEMA = """
CREATE TABLE IF NOT EXISTS dice (name TEXT PRIMARY KEY, definition TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS former (
    name TEXT PRIMARY KEY, now TEXT, definition TEXT NOT NULL, at REAL NOT NULL);
"""


class DiceStoreError(ValueError):
    """A change the store refuses (unknown die or face, a name taken, a bad file): the message
    names the die, face or field."""


def store_path(db_path: str | Path) -> Path:
    """Where the dice of the table whose history is `db_path` are kept."""
    path = Path(db_path)
    return path.with_name(f"{path.stem}.dice.sqlite")


class DiceStore(DiceMemory):
    """A table's dice and their crops; safe to share between the panel's threads and the
    camera's."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, SCHEMA)
        self._move_old()

    def _move_old(self) -> None:
        """Taught shots and a memory file from before, moved into the crops
        (companion.dice_migration). A memory file SQLite cannot read is left where it is and
        the rest moved: its dice are lost to the reader either way (as they were before, where
        a damaged memory file only went unused), but the table's dice and their shots must not
        be (the dice file would not open, and its error would name the dice file)."""
        legacy = legacy_memory(self.path)
        old = legacy if legacy is not None and legacy.is_file() else None
        if old is None and not has_table(self._db, "main", "shots"):
            return
        try:
            self._move(old)
        except sqlite3.DatabaseError:
            if old is None:
                raise
            self._move(None)  # fails again if the dice file is what failed
            return
        if old is not None:
            remove_moved(old)

    def _move(self, old: Path | None) -> None:
        """The old shots, and the memory file `old` if given, moved in one change."""
        if old is not None:
            self._db.execute("ATTACH DATABASE ? AS old", (str(old),))
        try:
            with self._change() as db:
                move_shots(db)
                if old is not None:
                    move_memory(db)
        finally:
            if old is not None:
                self._db.execute("DETACH DATABASE old")

    def faces(self, kind: str) -> tuple[int | str, ...] | None:
        """The values a die of `kind` shows: a standard die's, or a symbol die's face names."""
        known = self.definitions().get(kind)
        return known.face_names if known is not None else super().faces(kind)

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
        """Add or edit a definition (the panel's form, JSON). Crops of faces it no longer has are
        dropped; RulesError naming the field that is wrong."""
        die = _as_shipped(SymbolDie.from_json(data))
        with self._change() as db:
            _put(db, die)
        return die

    def rename(self, old: str, new: str) -> SymbolDie:
        """The die and its crops under a new name; the old name is remembered as this die's."""
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
            db.execute("UPDATE crops SET kind = ? WHERE kind = ?", (renamed.name, old))
            db.execute("UPDATE former SET now = ? WHERE now = ?", (renamed.name, old))
            db.execute("INSERT OR REPLACE INTO former VALUES (?, ?, ?, ?)",
                       (old, renamed.name, json.dumps(die.to_json()), time.time()))
        return renamed

    def delete(self, name: str) -> None:
        """Forget a die and its crops; its definition is kept in `former` for the history."""
        die = self.definition(name)
        if name in SHIPPED:
            raise DiceStoreError(f"{name!r} is a shipped die that games ask for by name; "
                                 "its faces can be edited, not deleted")
        with self._change() as db:
            db.execute("DELETE FROM dice WHERE name = ?", (name,))
            db.execute("DELETE FROM crops WHERE kind = ?", (name,))
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

    def symbol_crops(self) -> dict[str, tuple[tuple[int, str, str, float], ...]]:
        """Per symbol die, the crops its faces are made from as (id, face JSON, how, added),
        oldest first, no image read: the reader makes a die's faces again only when these
        changed, not at every roll a player confirms (`added` tells a crop from one that took a
        deleted crop's id)."""
        names = list(self.definitions())
        marks = ",".join("?" * len(names))
        with self._lock:
            rows = self._db.execute(f"SELECT kind, id, value, how, added FROM crops WHERE kind "
                                    f"IN ({marks}) ORDER BY id", names).fetchall()
        crops: dict[str, list[tuple[int, str, str, float]]] = {name: [] for name in names}
        for kind, *crop in rows:
            crops[kind].append(tuple(crop))
        return {name: tuple(kept) for name, kept in crops.items()}

    # -- shots ---------------------------------------------------------------------------------

    def shots(self, die: str) -> list[RememberedDie]:
        """The shots a die was taught from, oldest first."""
        return [d for d in self.dice([die]) if d.how == TAUGHT]

    def shot_counts(self, die: str) -> dict[str, int]:
        """Shots taught per face of the die, every face named (0 for none yet)."""
        counts = dict.fromkeys(self.definition(die).face_names, 0)
        with self._lock:  # counted in SQLite: the crops' images are not read for this
            rows = self._db.execute("SELECT value, COUNT(*) FROM crops WHERE kind = ? AND "
                                    "how = ? GROUP BY value", (die, TAUGHT)).fetchall()
        counts.update((face, n) for value, n in rows if (face := json.loads(value)) in counts)
        return counts

    def add_shot(self, die: str, face: str, image: bytes, model: str | None = None,
                 vectors: bytes | None = None) -> int:
        """Keep one shot of a face taught on the Dice page (its crop, and its embeddings by
        `model` if made already); DiceStoreError when the die has no such face or the face has
        MAX_SHOTS already."""
        counts = self.shot_counts(die)
        if face not in counts:
            raise DiceStoreError(f"die {die!r} has no face {face!r}; its faces: "
                                 + ", ".join(counts))
        if counts[face] >= MAX_SHOTS:
            raise DiceStoreError(f"{die}:{face} has its {MAX_SHOTS} shots already")
        with self._change() as db:
            cursor = db.execute("INSERT INTO crops (kind, value, how, image, model, vectors, "
                                "added) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (die, json.dumps(face), TAUGHT, image, model, vectors, time.time()))
            trim(db, {(die, json.dumps(face))})
        return int(cursor.lastrowid or 0)

    def add_learnt(self, dice: list[SymbolDie], crops: list[Row]) -> None:
        """A memory file's symbol dice this table lacks and its crops, kept in one change
        (companion.memory_file checked them)."""
        with self._change() as db:
            for die in dice:
                _put(db, _as_shipped(die))
            self._keep(db, crops)

    # -- files ---------------------------------------------------------------------------------

    def export(self, name: str) -> dict[str, Any]:
        """A die as a file another table can import: its definition and its taught shots (PNG,
        base64; vectors are left out, since the other table may run another model)."""
        die = self.definition(name)
        shots = [{"face": s.value, "png": base64.b64encode(s.image).decode("ascii")}
                 for s in self.shots(name)]
        return {"format": FILE_FORMAT, "die": die.to_json(), "shots": shots}

    def import_die(self, data: object, name: str | None = None) -> SymbolDie:
        """Load an exported die (under `name` if given), replacing a die of that name and its
        crops; its shots wait to be embedded by the reader. DiceStoreError or RulesError naming
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
            db.execute("DELETE FROM crops WHERE kind = ?", (die.name,))
            _put(db, die)
            now = time.time()
            self._keep(db, [(die.name, json.dumps(face), TAUGHT, png, None, None, None, now)
                            for face, png in decoded])
        return die


def _put(db: sqlite3.Connection, die: SymbolDie) -> None:
    """A definition kept (added or replacing one of its name): crops of faces it no longer has
    dropped, and its name no longer a former one."""
    db.execute("INSERT OR REPLACE INTO dice VALUES (?, ?)", (die.name, json.dumps(die.to_json())))
    marks = ",".join("?" * len(die.faces))
    db.execute(f"DELETE FROM crops WHERE kind = ? AND value NOT IN ({marks})",
               (die.name, *map(json.dumps, die.face_names)))
    db.execute("DELETE FROM former WHERE name = ?", (die.name,))


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
