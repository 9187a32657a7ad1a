"""The table's memory: an append-only event log in SQLite, and the replay that rebuilds a game.

Nothing is ever updated in place or deleted: a roll, a move, a correction and an undo are all
rows appended in one transaction each (WAL, synchronous=FULL), so a kill at any instant leaves
either the whole event or none of it. The live game is whatever replaying the committed events
through the rules engine gives; the table session uses the same `apply_event` for live play, so
what the players saw and what a restart rebuilds cannot drift apart.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from companion.reading import DieReading
from companion.rules import registry
from companion.rules.core import CHANCE, Game, GameState, Roll
from companion.rules.dice import STANDARD
from companion.rules.errors import NothingToUndo, RulesError

JSON = dict[str, Any]

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    players  TEXT NOT NULL,
    options  TEXT NOT NULL,
    started  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    at      REAL NOT NULL,
    kind    TEXT NOT NULL,
    text    TEXT NOT NULL DEFAULT '',
    data    TEXT NOT NULL DEFAULT '{}',
    seat    INTEGER,
    turn    INTEGER NOT NULL DEFAULT 0,
    scores  TEXT NOT NULL DEFAULT '[]',
    outcome TEXT,
    UNIQUE (game_id, seq)
);
CREATE TABLE IF NOT EXISTS images (
    event_id INTEGER PRIMARY KEY REFERENCES events(id),
    jpeg     BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS die_crops (
    event_id INTEGER NOT NULL REFERENCES events(id),
    die      INTEGER NOT NULL,
    jpeg     BLOB NOT NULL,
    PRIMARY KEY (event_id, die)
);
CREATE TABLE IF NOT EXISTS table_data (
    game    TEXT PRIMARY KEY,
    data    TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class Registry(Protocol):
    """Where games are looked up by name: companion.rules.registry itself fits."""

    def get_game(self, name: str) -> type[Game]: ...

    def game_names(self) -> list[str]: ...


class HistoryError(RuntimeError):
    """The database cannot be opened or written, or holds an event the rules reject."""


class NoSuchGame(HistoryError, LookupError):
    """A game id that is not in the history."""


class EventKind(enum.StrEnum):
    """What an event row records; the replay gives each one meaning."""

    READING = "reading"  # a tray reading that waits for a player to confirm or correct it
    CORRECT = "correct"  # one die of the pending reading set by a player (value, maybe kind)
    DROP = "drop"  # a box of the pending reading dropped by a player (no die), or taken back
    ADD = "add"  # a die the reader missed, added to the pending reading by a player
    DISCARD = "discard"  # the pending reading thrown away
    ROLL = "roll"  # a roll applied to the game (chance step)
    AMEND = "amend"  # the last applied roll replaced by a corrected one
    MOVE = "move"  # a player's move applied to the game
    UNDO = "undo"  # the last `steps` rolls/moves taken back
    ABANDON = "abandon"  # the game was left unfinished for a new one
    RESUME = "resume"  # an abandoned game taken up again where it was left


CORRECTED = "corrected"  # why_unsure of a die a player has set: sure, but not read
DROPPED = "dropped"  # why_unsure of a box a player said holds no die: not part of the roll
NO_BOX = (0, 0, 0, 0)  # the box of a die a player added: the camera never saw it

STEP_KINDS = frozenset({EventKind.ROLL, EventKind.MOVE})
CHANGING_KINDS = STEP_KINDS | {EventKind.AMEND}  # the events that change the game itself


@dataclass(frozen=True)
class GameRecord:
    """A game's row plus what its last event says about it."""

    id: int
    game: str
    players: tuple[str, ...]
    options: JSON
    started: float
    events: int = 0
    scores: tuple[int, ...] = ()
    outcome: JSON | None = None
    abandoned: bool = False

    @property
    def over(self) -> bool:
        return self.outcome is not None or self.abandoned

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "game": self.game,
            "players": list(self.players),
            "options": self.options,
            "started": self.started,
            "events": self.events,
            "scores": list(self.scores),
            "outcome": self.outcome,
            "abandoned": self.abandoned,
        }


@dataclass(frozen=True)
class Event:
    """One committed row of the log."""

    id: int
    game_id: int
    seq: int
    at: float
    kind: EventKind
    text: str
    data: JSON
    seat: int | None
    turn: int
    scores: tuple[int, ...]
    outcome: JSON | None
    has_image: bool

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "seq": self.seq,
            "at": self.at,
            "kind": self.kind.value,
            "text": self.text,
            "data": self.data,
            "seat": self.seat,
            "turn": self.turn,
            "scores": list(self.scores),
            "outcome": self.outcome,
            "image": self.has_image,
        }


@dataclass(frozen=True)
class Pending:
    """A reading that waits for a player: its dice and the event that holds its image."""

    event_id: int | None  # the event holding the tray image (None for a typed roll)
    dice: tuple[DieReading, ...]
    width: int
    height: int
    source: str
    problem: str = ""  # why it was not applied at once (unsure die, does not fit the roll)
    confirmed: bool = False  # applied when a player pressed Confirm: every die checked

    def roll(self) -> Roll:
        """The roll the reading's dice make, without the boxes a player dropped."""
        return Roll.of(*((d.die, d.value) for d in self.dice if d.why_unsure != DROPPED))


@dataclass(frozen=True)
class Step:
    """An applied roll or move, kept so undo knows what it takes back and which turn it was."""

    event_id: int
    kind: EventKind
    seat: int | None
    turn: int
    reading: Pending | None  # the dice a roll was read from, shown on the panel
    told: str = ""  # what it did, in one line (GameState.tell), as stored with its event


@dataclass
class Position:
    """A game being replayed or played: the rules state plus what the log adds around it."""

    record: GameRecord
    state: GameState
    pending: Pending | None = None
    steps: list[Step] = field(default_factory=list)
    abandoned: bool = False
    told: str = ""  # the line the table page shows: what the last roll, move or undo did

    @property
    def shown(self) -> Pending | None:
        """The reading the panel shows: the one waiting, else the dice of the last roll."""
        if self.pending is not None:
            return self.pending
        return next((s.reading for s in reversed(self.steps) if s.reading), None)

    def acting_seat(self) -> int | None:
        """The seat whose turn it is; a chance step belongs to whoever rolls."""
        current = self.state.current_player
        if isinstance(current, int):
            return current
        if current == CHANCE:
            wanted = self.state.roll_wanted()
            if wanted is not None and wanted.player is not None:
                return wanted.player
        return self.steps[-1].seat if self.steps else None

    def next_turn(self, seat: int | None) -> int:
        """Turn number for a step by `seat`: a new turn each time the acting seat changes."""
        if not self.steps:
            return 0 if seat is None else 1
        last = self.steps[-1]
        return last.turn if seat is None or seat == last.seat else last.turn + 1


def die_value(die: str, value: Any) -> int | str:
    """A typed or read face in game convention; raises BadRoll for a face the die lacks."""
    if die in STANDARD:
        return STANDARD[die].read(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value).strip()


def apply_event(pos: Position, event: Event | PlannedEvent) -> tuple[int | None, int]:
    """Play one event onto a position: the single meaning of every kind, live and on replay.

    Returns the seat and turn the event belongs to (as they were before it). Raises the rules'
    errors (IllegalMove, BadRoll, NothingToUndo) for an event that does not fit; the position
    may then be half-changed, so callers rebuild it from the log.
    """
    kind, data = event.kind, event.data
    seat = pos.acting_seat()
    turn = pos.next_turn(seat)
    if kind is EventKind.READING:
        pos.pending = _reading(data, event.id if data.get("image") else None)
    elif kind is EventKind.CORRECT:
        pos.pending = _corrected(_need_pending(pos), data)
    elif kind is EventKind.DROP:
        pos.pending = _dropped(_need_pending(pos), data)
    elif kind is EventKind.ADD:
        pending = _need_pending(pos)
        added = DieReading(str(data["die"]), data["value"], 1.0, NO_BOX, why_unsure=CORRECTED)
        pos.pending = replace(pending, dice=(*pending.dice, added), problem="")
    elif kind is EventKind.DISCARD:
        _need_pending(pos)
        pos.pending = None
    elif kind in STEP_KINDS:
        told = _play_step(pos, event)
        reading = None
        if kind is EventKind.ROLL:
            pos.pending = None
            reading = _reading(data, data.get("reading")) if "dice" in data else None
        pos.steps.append(Step(event.id, kind, seat, turn, reading, told))
    elif kind is EventKind.AMEND:
        if not pos.steps or pos.steps[-1].reading is None:
            raise NothingToUndo("only the last roll can be corrected; undo the moves after it")
        last = pos.steps.pop()
        pos.state.undo()
        told = _play_step(pos, event)
        pos.steps.append(replace(last, event_id=event.id, reading=_corrected(last.reading, data),
                                 told=told))
        seat, turn = last.seat, last.turn
    elif kind is EventKind.UNDO:
        if pos.steps:  # an undo belongs to the turn it takes back, not to the next one
            seat, turn = pos.steps[-1].seat, pos.steps[-1].turn
        taken = []
        for _ in range(int(data.get("steps", 1))):
            if not pos.steps:
                raise NothingToUndo("nothing left to undo in this game")
            pos.state.undo()
            taken.append(pos.steps.pop())
        pos.pending = None
        pos.told = undone_line(taken)
    elif kind is EventKind.ABANDON:
        pos.abandoned = True
    elif kind is EventKind.RESUME:
        pos.abandoned = False
    else:  # pragma: no cover - EventKind is closed
        raise HistoryError(f"unknown event kind {kind}")
    return seat, turn


def _play_step(pos: Position, event: Event | PlannedEvent) -> str:
    """Apply a roll or move and return what it did in one line. The line is stored with the
    event when it is first played (what the players saw, for the history page and exports
    without a replay); a replay takes it from there, and works it out only for events stored
    before lines were kept."""
    move = pos.state.parse_move(event.text)
    pos.state.apply(move)
    told = event.data.get("told")
    pos.told = str(told) if told is not None else pos.state.tell(move)
    return pos.told


def undone_line(taken: list[Step]) -> str:
    """What an undo took back, for the table page: the step's own line when it is one."""
    if len(taken) > 1:
        return f"Undone: {len(taken)} steps"
    told = taken[0].told if taken else ""
    return "Undone: the last step" + (f" ({told})" if told else "")


def _reading(data: JSON, event_id: int | None) -> Pending:
    return Pending(
        event_id=event_id,
        dice=tuple(_die(d) for d in data["dice"]),
        width=int(data.get("width", 0)),
        height=int(data.get("height", 0)),
        source=str(data.get("source", "camera")),
        problem=str(data.get("problem", "")),
        confirmed=bool(data.get("confirmed", False)),
    )


PLAYER_MARKS = (CORRECTED, DROPPED)  # what a player did to a die, kept as a flag in its JSON


def _die(data: JSON) -> DieReading:
    die = DieReading.from_json(data)
    mark = next((m for m in PLAYER_MARKS if data.get(m)), None)
    return replace(die, why_unsure=mark) if mark else die


def die_json(die: DieReading) -> JSON:
    """A die of a reading as stored in an event, keeping whether a player set or dropped it."""
    mark = die.why_unsure if die.why_unsure in PLAYER_MARKS else None
    return {**die.to_json(), **({mark: True} if mark else {})}


def _corrected(reading: Pending, data: JSON) -> Pending:
    """The reading with one die set by a player (its value, and its kind when `data` names
    one): sure from now on."""
    index = int(data["index"])
    dice = list(reading.dice)
    dice[index] = replace(dice[index], die=str(data.get("kind", dice[index].die)),
                          value=data["new"], confidence=1.0, unsure=False, why_unsure=CORRECTED)
    return replace(reading, dice=tuple(dice), problem="")


def _dropped(reading: Pending, data: JSON) -> Pending:
    """The reading with one box dropped by a player (no die there: left out of the roll), or,
    with "dropped": false, taken back as a die the player looked at and kept."""
    index = int(data["index"])
    dice = list(reading.dice)
    mark = DROPPED if data.get("dropped", True) else ""
    dice[index] = replace(dice[index], unsure=False, why_unsure=mark)
    return replace(reading, dice=tuple(dice), problem="")


def _need_pending(pos: Position) -> Pending:
    if pos.pending is None:
        raise NothingToUndo("no reading is waiting to be confirmed")
    return pos.pending


@dataclass(frozen=True)
class PlannedEvent:
    """An event the table wants to append: applied to the position first, then committed."""

    kind: EventKind
    text: str = ""
    data: JSON = field(default_factory=dict)
    jpeg: bytes | None = None
    crops: tuple[bytes, ...] = ()  # a camera reading's die crops, in the order of its dice
    id: int = -1  # reserved with History.next_event_id() before the event is applied


class History:
    """The SQLite event log. One connection, guarded by a lock: the table is the single writer."""

    def __init__(self, path: str | Path, games: Registry = registry, *,
                 fallback: bool = False) -> None:
        """Open (or create) the log. With `fallback`, a file that cannot be opened for writing
        is opened read-only, and one that cannot be read at all is replaced by an empty log that
        takes no writes; either way `problem` says why, and nothing is raised."""
        self.path = Path(path)
        self.games_registry = games  # the rules registry module; tests may pass their own
        self._lock = threading.RLock()
        self.problem: str | None = None  # why the log is read-only or empty (fallback only)
        self.writable = True
        self._commits = 0  # transactions this connection committed (revision())
        from companion.stats import PlayerStats  # here: it reads this module's records

        self._stats = PlayerStats(self)
        try:
            self._db = self._open(str(path))
        except (sqlite3.Error, OSError) as exc:
            if not fallback:
                raise HistoryError(f"cannot open the history database {path}: {exc}") from exc
            self.problem, self.writable = str(exc), False
            self._db = self._open_read_only()

    def _open(self, path: str) -> sqlite3.Connection:
        if path != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(SCHEMA)
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _open_read_only(self) -> sqlite3.Connection:
        """The file as it is, for reading only; else an empty log (the schema, no rows).
        `immutable` reads a WAL file on read-only media, where no -shm file can be made."""
        for mode in ("mode=ro", "immutable=1"):
            try:
                db = sqlite3.connect(f"{self.path.resolve().as_uri()}?{mode}", uri=True,
                                     check_same_thread=False, isolation_level=None)
                db.execute("SELECT COUNT(*) FROM games").fetchone()
                return db
            except (sqlite3.Error, OSError, ValueError) as exc:
                problem = str(exc)
        self.problem = f"{self.problem}; read-only: {problem}"
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        db.executescript(SCHEMA)
        db.execute("PRAGMA query_only=ON")
        return db

    def check(self) -> str | None:
        """SQLite's quick integrity check: None when the file is whole, else what it found."""
        with self._lock:
            try:
                rows = self._db.execute("PRAGMA quick_check(3)").fetchall()
            except sqlite3.Error as exc:
                return str(exc)
        found = "; ".join(str(row[0]) for row in rows)
        return None if found == "ok" else found

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: everything inside commits together or not at all."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                self._commits += 1
            except sqlite3.Error as exc:
                raise HistoryError(f"could not write the history: {exc}") from exc

    def revision(self) -> tuple[int, int]:
        """Where the file is: this connection's commits and SQLite's data_version (which moves
        when another connection commits). Equal twice: nothing was written in between."""
        with self._lock:
            try:
                (version,) = self._db.execute("PRAGMA data_version").fetchone()
            except sqlite3.Error as exc:
                raise HistoryError(f"could not read the history: {exc}") from exc
            return self._commits, int(version)

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                cur = self._db.execute(sql, args)
                cur.row_factory = sqlite3.Row
                return cur.fetchall()
            except sqlite3.Error as exc:
                raise HistoryError(f"could not read the history: {exc}") from exc

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, game: str, players: list[str], options: JSON) -> GameRecord:
        started = time.time()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (game, players, options, started) VALUES (?, ?, ?, ?)",
                (game, json.dumps(players), json.dumps(options), started),
            )
        return GameRecord(int(cur.lastrowid or 0), game, tuple(players), dict(options), started)

    def next_event_id(self) -> int:
        """The id the next event will get; safe because the table is the only writer."""
        return int(self._read("SELECT COALESCE(MAX(id), 0) + 1 AS n FROM events")[0]["n"])

    def append(
        self, pos: Position, planned: PlannedEvent, seat: int | None, turn: int
    ) -> Event:
        """Commit one event (with its reserved id) and the scores and outcome it leads to."""
        state = pos.state
        scores = list(state.scores())
        outcome = state.outcome.to_json() if state.outcome is not None else None
        if planned.id <= 0:
            raise HistoryError("an event needs an id reserved with next_event_id()")
        with self._write() as db:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?",
                (pos.record.id,),
            ).fetchone()
            at = time.time()
            cur = db.execute(
                "INSERT INTO events (id, game_id, seq, at, kind, text, data, seat, turn, scores,"
                " outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (planned.id, pos.record.id, seq, at, planned.kind.value, planned.text,
                 json.dumps(planned.data), seat, turn, json.dumps(scores),
                 json.dumps(outcome) if outcome else None),
            )
            event_id = int(cur.lastrowid or 0)
            if planned.jpeg:
                db.execute("INSERT INTO images (event_id, jpeg) VALUES (?, ?)",
                           (event_id, planned.jpeg))
            db.executemany("INSERT INTO die_crops (event_id, die, jpeg) VALUES (?, ?, ?)",
                           [(event_id, i, crop) for i, crop in enumerate(planned.crops)])
        return Event(event_id, pos.record.id, int(seq), at, planned.kind, planned.text,
                     planned.data, seat, turn, tuple(scores), outcome, bool(planned.jpeg))

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """A value kept across restarts (the table PIN, the cookie key); made once if missing.
        A log that cannot be written still answers: what it holds, else a value for this run."""
        try:
            with self._write() as db:
                db.execute("INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)",
                           (name, make()))
                (value,) = db.execute("SELECT value FROM settings WHERE name = ?",
                                      (name,)).fetchone()
            return str(value)
        except HistoryError:
            try:
                rows = self._read("SELECT value FROM settings WHERE name = ?", (name,))
            except HistoryError:
                rows = []
            return str(rows[0]["value"]) if rows else make()

    def set_table_data(self, game: str, text: str | None) -> None:
        """Store what the players entered for a game (its cards), or forget it with None."""
        with self._write() as db:
            if text is None:
                db.execute("DELETE FROM table_data WHERE game = ?", (game,))
            else:
                db.execute("INSERT OR REPLACE INTO table_data (game, data, updated) "
                           "VALUES (?, ?, ?)", (game, text, time.time()))

    def table_data(self, game: str) -> str | None:
        rows = self._read("SELECT data FROM table_data WHERE game = ?", (game,))
        return str(rows[0]["data"]) if rows else None

    # -- reading ---------------------------------------------------------------------------

    def events(self, game_id: int) -> list[Event]:
        rows = self._read(
            "SELECT e.*, (i.event_id IS NOT NULL) AS has_image FROM events e"
            " LEFT JOIN images i ON i.event_id = e.id WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [_event(row) for row in rows]

    def game(self, game_id: int) -> GameRecord:
        rows = self._read(_GAMES_SQL + " WHERE g.id = ?", (game_id,))
        if not rows:
            raise NoSuchGame(f"no game {game_id} in the history")
        return _record(rows[0])

    def games(self, limit: int = 100) -> list[GameRecord]:
        """Past and running games, newest first."""
        return [_record(r) for r in self._read(_GAMES_SQL + " ORDER BY g.id DESC LIMIT ?",
                                               (limit,))]

    def event_counts(self, limit: int) -> dict[int, int]:
        """The newest `limit` games' event counts by game id, newest first: the log only
        grows, so a game whose count has not moved has not changed (an index search each)."""
        rows = self._read("SELECT g.id, (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id)"
                          " AS n FROM games g ORDER BY g.id DESC LIMIT ?", (limit,))
        return {row["id"]: row["n"] for row in rows}

    def latest_open_game(self) -> GameRecord | None:
        """The game played last, if it is neither finished nor abandoned: the one to resume
        (an older game taken up again from the Games page is played last)."""
        rows = self._read(_GAMES_SQL + " ORDER BY touched DESC, g.id DESC LIMIT 1")
        latest = _record(rows[0]) if rows else None
        return latest if latest and not latest.over else None

    def image(self, event_id: int) -> bytes | None:
        rows = self._read("SELECT jpeg FROM images WHERE event_id = ?", (event_id,))
        return bytes(rows[0]["jpeg"]) if rows else None

    def crops(self, event_id: int) -> list[bytes]:
        """The die crops kept with a camera reading, in the order of its dice (none if not)."""
        rows = self._read("SELECT jpeg FROM die_crops WHERE event_id = ? ORDER BY die",
                          (event_id,))
        return [bytes(row["jpeg"]) for row in rows]

    def crop(self, event_id: int, die: int) -> bytes | None:
        """One die's close-up from a camera reading (None if it kept none for that die)."""
        rows = self._read("SELECT jpeg FROM die_crops WHERE event_id = ? AND die = ?",
                          (event_id, die))
        return bytes(rows[0]["jpeg"]) if rows else None

    def crop_count(self, event_id: int) -> int:
        """How many dice of a camera reading have a close-up (its first ones: added dice have
        none), counted without reading the pictures."""
        rows = self._read("SELECT COUNT(*) AS n FROM die_crops WHERE event_id = ?", (event_id,))
        return int(rows[0]["n"])

    def replay(self, record: GameRecord) -> Position:
        """Rebuild a game by replaying its committed events through the rules engine."""
        try:
            game = self.games_registry.get_game(record.game)()
            state = game.new_state(list(record.players), record.options)
        except RulesError as exc:
            raise HistoryError(f"game {record.id} cannot be set up again: {exc}") from exc
        pos = Position(record, state)
        for event in self.events(record.id):
            try:
                apply_event(pos, event)
            except (RulesError, ValueError, KeyError, IndexError) as exc:
                raise HistoryError(
                    f"game {record.id}: event {event.seq} ({event.kind} {event.text!r})"
                    f" does not replay: {exc}"
                ) from exc
        return pos

    # -- export and statistics -------------------------------------------------------------

    def export_json(self, game_id: int) -> JSON:
        record = self.game(game_id)
        events = self.events(game_id)
        live = effective_steps(events)
        return {
            "game": record.to_json(),
            "events": [{**e.to_json(), "undone": undone(e, live)}
                       for e in events],
        }

    def export_csv(self, game_id: int) -> str:
        record = self.game(game_id)
        events = self.events(game_id)
        live = effective_steps(events)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([_cell(c) for c in ["seq", "time", "kind", "turn", "player", "text",
                                             "undone", *(f"score {p}" for p in record.players)]])
        for e in events:
            player = record.players[e.seat] if e.seat is not None else ""
            writer.writerow([_cell(c) for c in [
                e.seq, time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(e.at)), e.kind.value,
                e.turn, player, e.text or _describe_data(e), int(undone(e, live)), *e.scores]])
        return out.getvalue()

    def player_stats(self) -> list[JSON]:
        """Per player across games: games finished, wins, mean final score, dice luck (kept
        game by game between calls: companion.stats)."""
        return self._stats.players()


def undone(event: Event, live: set[int]) -> bool:
    """A roll or move taken back (or replaced by a correction); `live` from effective_steps."""
    return event.kind in CHANGING_KINDS and event.id not in live


def effective_steps(events: list[Event]) -> set[int]:
    """Event ids of the rolls and moves still in force (not taken back by an undo)."""
    stack: list[int] = []
    for e in events:
        if e.kind in STEP_KINDS:
            stack.append(e.id)
        elif e.kind is EventKind.AMEND and stack:
            stack[-1] = e.id
        elif e.kind is EventKind.UNDO:
            del stack[len(stack) - int(e.data.get("steps", 1)):]
    return set(stack)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: one starting like a formula gets a leading '."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


def _describe_data(e: Event) -> str:
    if e.kind is EventKind.CORRECT:
        return f"die {e.data.get('index')}: {e.data.get('old')} -> {e.data.get('new')}"
    if e.kind is EventKind.READING:
        return " ".join(f"{d['die']}={d['value']}" for d in e.data.get("dice", []))
    if e.kind is EventKind.UNDO:
        return f"undo {e.data.get('steps', 1)}"
    return ""


_GAMES_SQL = (
    "SELECT g.*, (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) AS n,"
    " (SELECT scores FROM events e WHERE e.game_id = g.id ORDER BY seq DESC LIMIT 1) AS scores,"
    " (SELECT outcome FROM events e WHERE e.game_id = g.id ORDER BY seq DESC LIMIT 1) AS outcome,"
    " COALESCE((SELECT e.kind = 'abandon' FROM events e WHERE e.game_id = g.id"
    " AND e.kind IN ('abandon', 'resume') ORDER BY seq DESC LIMIT 1), 0) AS abandoned,"
    " COALESCE((SELECT MAX(at) FROM events e WHERE e.game_id = g.id), g.started) AS touched"
    " FROM games g"
)


def _record(row: sqlite3.Row) -> GameRecord:
    return GameRecord(
        id=row["id"], game=row["game"], players=tuple(json.loads(row["players"])),
        options=json.loads(row["options"]), started=row["started"], events=row["n"],
        scores=tuple(json.loads(row["scores"] or "[]")),
        outcome=json.loads(row["outcome"]) if row["outcome"] else None,
        # a won game that a bug once marked abandoned (before issue 39) still reads as won
        abandoned=bool(row["abandoned"]) and not row["outcome"],
    )


def _event(row: sqlite3.Row) -> Event:
    return Event(
        id=row["id"], game_id=row["game_id"], seq=row["seq"], at=row["at"],
        kind=EventKind(row["kind"]), text=row["text"], data=json.loads(row["data"]),
        seat=row["seat"], turn=row["turn"], scores=tuple(json.loads(row["scores"])),
        outcome=json.loads(row["outcome"]) if row["outcome"] else None,
        has_image=bool(row["has_image"]),
    )
