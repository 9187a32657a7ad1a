"""The table session: the one writer that ties the game, the dice and the history together.

Phones, buttons and the camera all end up here. Each action becomes a planned event that is
first played onto the live position (so the rules validate it) and then committed to SQLite;
if either step fails the position is rebuilt from the log, so what the table shows is always
exactly what a restart would rebuild.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from companion.dice_memory import DiceMemory
from companion.die_photos import game_labels
from companion.faults import CAMERA, DATABASE, MODEL, Fault, camera_fault, fault_for, history_fault
from companion.history import (
    CHANGING_KINDS,
    CORRECTED,
    DROPPED,
    NO_BOX,
    EventKind,
    History,
    HistoryError,
    Pending,
    PlannedEvent,
    Position,
    apply_event,
    die_json,
    die_value,
)
from companion.players import BadName, player_names
from companion.reading import DieReading, TrayReading, UnreadableRoll
from companion.rules.core import CHANCE, Move, Roll, RollRequest
from companion.rules.dice import STANDARD, die_kind
from companion.rules.errors import BadRoll, IllegalMove, NothingToUndo, RulesError

JSON = dict[str, Any]
# events after which the dice the table remembers may change (companion.dice_memory)
TEACHING_KINDS = frozenset({EventKind.ROLL, EventKind.AMEND, EventKind.UNDO})
MEMORY = "memory"
# called with the kinds wanted (None: anything), and with faces= (RollRequest.faces) only where
# the game knows each die's faces: a source that needs them takes that keyword
DiceSource = Callable[..., TrayReading]


class TableError(RuntimeError):
    """An action that does not fit the table now: no game, no reading waiting, camera busy."""


class StaleAction(TableError):
    """An action tapped on a phone that showed an older table than there is now (409)."""


class SetupError(TableError, ValueError):
    """A new game asked for with bad players or options (the web layer answers 400)."""


class TableSession:
    """Holds the current game; every change goes through its lock and into the history."""

    def __init__(self, history: History, dice_source: DiceSource | None = None,
                 memory: DiceMemory | None = None) -> None:
        """`memory`: where the dice players confirm are remembered for the reader."""
        self.history = history
        self.dice_source = dice_source
        self.memory = memory
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._reading = threading.Lock()
        self._pos: Position | None = None
        self._faults: dict[str, Fault] = {}
        self._damaged = False  # the integrity check failed: a write that works does not mend it
        self._snapshot: tuple[int, JSON] | None = None
        self._snapshot_text: tuple[int, str] | None = None  # the snapshot as JSON, the same version
        self.version = 0
        self._resume()

    # -- lifecycle -------------------------------------------------------------------------

    def _resume(self) -> None:
        """Pick up the newest unfinished game exactly where its committed events left it."""
        try:
            record = self.history.latest_open_game()
            self._pos = self.history.replay(record) if record else None
        except HistoryError as exc:
            self._pos = None
            self.report_fault("database", str(exc), "start a new game; the old one is kept")
        self.check_database()

    def check_database(self) -> None:
        """Show a database that cannot be written or fails its integrity check as a fault: at
        start-up and after a read failed (a fault already shown is not checked again)."""
        fault = history_fault(self.history)
        self._damaged = self.history.writable and fault is not None
        if fault is not None:
            self.report_fault(fault.kind, fault.message, fault.advice)

    def _rebuild(self) -> None:
        assert self._pos is not None
        self._pos = self.history.replay(self.history.game(self._pos.record.id))

    def _bump(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def wait_for_change(self, since_version: int, timeout: float) -> int:
        """Block until the version differs from `since_version` (or timeout); return it."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != since_version, timeout)
            return self.version

    @contextmanager
    def expect(self, version: int | None) -> Iterator[None]:
        """Hold the table while an action runs, if it still is at the `version` the phone showed:
        two taps of one button, sent at once, then act once and the second is refused."""
        with self._lock:
            if version is not None and version != self.version:
                raise StaleAction("the table changed since your phone showed it: look again, "
                                  "then tap again if it still applies")
            yield

    @property
    def game_id(self) -> int | None:
        with self._lock:
            return self._pos.record.id if self._pos else None

    # -- the core: plan, apply, commit ----------------------------------------------------

    def _need_game(self) -> Position:
        if self._pos is None:
            raise TableError("no game is running: start one first")
        return self._pos

    def _play(self, planned: PlannedEvent) -> None:
        pos = self._need_game()
        planned = replace(planned, id=self.history.next_event_id())
        if planned.kind is EventKind.ROLL and planned.jpeg:
            planned = replace(planned, data={**planned.data, "reading": planned.id})
        try:
            seat, turn = apply_event(pos, planned)
        except Exception:
            self._rebuild()  # the rules refused it: back to exactly what is committed
            raise
        if planned.kind in CHANGING_KINDS:  # what it did is kept with it: see history._play_step
            planned = replace(planned, data={**planned.data, "told": pos.told})
        try:
            self.history.append(pos, planned, seat, turn)
        except HistoryError as exc:
            if self.history.writable:  # else the fault says why already, with better advice
                self.report_fault(DATABASE, str(exc), "check the SD card; the last action was lost")
            try:
                self._rebuild()
            except HistoryError:
                self._pos = None  # never show what is not committed; a restart resumes the game
            self._bump()
            raise
        if self.history.writable and not self._damaged:  # a write went through: fine again
            self._faults.pop(DATABASE, None)
        if planned.kind in TEACHING_KINDS:
            self._teach(pos)
        self._bump()

    def _teach(self, pos: Position) -> None:
        """The table's memory in step with the game's checked and corrected dice (a roll undone
        unlearnt); a memory that cannot be written is a fault, the game goes on."""
        if self.memory is None:
            return
        try:
            self.memory.learn(pos.record.id, game_labels(self.history, pos),
                              lambda d: self.history.crop(d.event_id, d.index))
        except (sqlite3.Error, HistoryError) as exc:
            self.report_fault(MEMORY, f"The table cannot remember its dice: {exc}",
                              "The game goes on; the reader does not learn from these rolls.")
        else:
            self._faults.pop(MEMORY, None)

    # -- starting ----------------------------------------------------------------------------

    def new_game(self, game: str, players: list[str], options: JSON | None = None) -> int:
        """Start a game (the running one is kept in the history as abandoned); returns its id."""
        try:
            names = player_names(players)
        except BadName as exc:
            raise SetupError(str(exc)) from exc
        cls = self.history.games_registry.get_game(game)
        if not cls.min_players <= len(names) <= cls.max_players:
            raise SetupError(
                f"{cls.title} is for {cls.min_players}-{cls.max_players} players, not {len(names)}"
            )
        options = dict(options or {})
        if cls.table_data and not options.get(cls.table_data):
            options[cls.table_data] = self.history.table_data(game) or ""  # entered cards
        try:
            cls().new_state(list(names), options)  # validates the options before anything moves
        except (RulesError, ValueError, TypeError, KeyError) as exc:
            raise SetupError(f"cannot set up {cls.title}: {exc}") from exc
        with self._lock:
            self._abandon_running()
            record = self.history.create_game(game, list(names), options)
            self._pos = self.history.replay(record)
            self._bump()
            return record.id

    def resume(self, game_id: int) -> None:
        """Take a past game up again exactly where it was left; a game in play is kept in the
        history as abandoned (it can be resumed the same way). An unknown id raises
        NoSuchGame (the panel's 404), not a SetupError: nothing is wrong with the request's
        form, the game is not there."""
        with self._lock:
            record = self.history.game(game_id)
            if record.outcome is not None:
                raise SetupError(f"game {game_id} is finished: it can be looked at, not resumed")
            pos = self._pos
            if pos is not None and pos.record.id == game_id and not pos.abandoned:
                return  # already the game in play
            self._abandon_running()
            self._pos = self.history.replay(record)
            if self._pos.abandoned:
                self._play(PlannedEvent(EventKind.RESUME))
            self._bump()

    def _abandon_running(self) -> None:
        """Keep the game in play, if one is, in the history as abandoned (another is starting).
        Whether it is over is the live state's to say: the record was read when the game was
        loaded, before it was won."""
        pos = self._pos
        if pos is not None and pos.state.current_player is not None and not pos.abandoned:
            self._play(PlannedEvent(EventKind.ABANDON))

    # -- what the players entered for a game (cards) ----------------------------------------

    def table_data(self, game: str) -> JSON:
        """The data a game plays with at this table: what was entered, else the game's own."""
        cls = self._takes_table_data(game)
        return _table_data_view(cls, game, self.history.table_data(game))

    def set_table_data(self, game: str, data: Any, form: str = "json") -> JSON:
        """Check and store a game's table data (JSON data or CSV text); None forgets it.
        Games already started keep the data they started with."""
        cls = self._takes_table_data(game)
        text = None if data is None else cls.read_table_data(data, form)
        with self._lock:
            self.history.set_table_data(game, text)
            self._bump()
        return _table_data_view(cls, game, text)  # what was stored: not read back

    def _takes_table_data(self, game: str) -> Any:
        cls = self.history.games_registry.get_game(game)
        if not cls.table_data:
            raise SetupError(f"{cls.title} takes no table data")
        return cls

    # -- dice ------------------------------------------------------------------------------

    def read_dice(self, version: int | None = None) -> TrayReading:
        """Ask the dice source for the roll wanted and submit what it reads; `version` as in
        expect(), checked once the camera is ours (not held through the read: others watch)."""
        if not self._reading.acquire(blocking=False):
            raise TableError("the camera is already reading the tray")
        try:
            with self.expect(version):
                if self.dice_source is None:
                    raise TableError("no camera is connected: type the roll in instead")
                wanted = self._roll_wanted_now()
                kinds = list(wanted.dice)
            try:  # the faces each die carries, where the game knows them (a simulated tray's)
                reading = (self.dice_source(kinds, faces=wanted.faces) if wanted.faces
                           else self.dice_source(kinds))
            except UnreadableRoll as exc:  # a roll this camera cannot read: typed instead
                raise TableError(str(exc)) from exc
            except TimeoutError as exc:
                # Dice still rolling or a hand over the tray: nothing is broken, roll again.
                raise TableError(f"no reading yet: {exc}; press ROLL again") from exc
            except (RuntimeError, OSError) as exc:
                fault = fault_for(exc) or camera_fault(exc)
                self.report_fault(fault.kind, fault.message, fault.advice)
                raise TableError(f"could not read the dice: {exc}") from exc
            self.clear_fault(CAMERA)
            self.clear_fault(MODEL)
            self.submit_reading(reading)
            return reading
        finally:
            self._reading.release()

    def _roll_wanted_now(self) -> RollRequest:
        pos = self._need_game()
        wanted = pos.state.roll_wanted()
        if pos.state.current_player != CHANCE or wanted is None:
            raise TableError(f"no roll is wanted now: {_whose_turn(pos)}")
        return wanted

    def submit_reading(self, reading: TrayReading, *, hold_if_wrong: bool = True) -> None:
        """Apply a sure reading that fits the roll wanted; otherwise hold it for the players."""
        data = {**reading.to_json(), "image": bool(reading.jpeg)}
        with self._lock:
            self._roll_wanted_now()
            roll = Roll.of(*((d.die, d.value) for d in reading.dice))
            if not reading.unsure:
                try:
                    self._play(PlannedEvent(EventKind.ROLL, roll.text(), data, reading.jpeg,
                                            reading.crops))
                    return
                except IllegalMove as exc:
                    if not hold_if_wrong:
                        raise
                    data["problem"] = str(exc)
            else:
                data["problem"] = unsure_summary(reading.dice)
            self._play(PlannedEvent(EventKind.READING, roll.text(), data, reading.jpeg,
                                    reading.crops))

    def type_roll(self, text: str) -> None:
        """A roll typed on a phone, die by die ('d20=17 d6=3') or as bare faces in the order the
        game asks for them ('17 3'): applied if it fits, rejected otherwise."""
        words = text.split()
        faces = words[1:] if words[:1] == ["roll"] else words
        if faces and not any("=" in face for face in faces):
            roll = self._roll_wanted_now().fill(faces)
        else:
            roll = Roll.parse(text if text.strip().startswith("roll") else "roll " + text)
        dice = tuple(DieReading(d.kind, die_value(d.kind, d.value), 1.0, (0, 0, 0, 0))
                     for d in roll.dice)
        self.submit_reading(TrayReading(dice, source="typed"), hold_if_wrong=False)

    def correct_die(self, index: int, value: int | str, kind: str | None = None) -> None:
        """Set one die of the waiting reading, or of the last roll if nothing was played on it:
        its value, and its kind too when `kind` names another (a d8 read as a d6)."""
        with self._lock:
            pos = self._need_game()
            shown = pos.shown
            if shown is None:
                raise TableError("there is no reading to correct")
            if pos.pending is None and (not pos.steps or pos.steps[-1].reading is not shown):
                raise TableError("a move was already played on that roll: undo it first")
            die = _die_at(shown, index)
            kind = kind or die.die
            new = _face(pos, kind, value)
            data = {"index": index, "die": die.die, "old": die.value, "new": new,
                    **({"kind": kind} if kind != die.die else {})}
            if pos.pending is not None:
                self._play(PlannedEvent(EventKind.CORRECT, f"{kind}={new}", data))
                return
            dice = [(kind, new) if i == index else (d.die, d.value)
                    for i, d in enumerate(shown.dice) if i == index or d.why_unsure != DROPPED]
            data["reading"] = shown.event_id  # the tray image, for the timeline
            self._play(PlannedEvent(EventKind.AMEND, Roll.of(*dice).text(), data))

    def drop_die(self, index: int, dropped: bool = True) -> None:
        """Drop a box of the waiting reading that holds no die (it leaves the roll), or with
        `dropped` False take a dropped one back."""
        with self._lock:
            die = _die_at(self._need_pending(), index)
            if (die.why_unsure == DROPPED) == dropped:
                raise TableError(f"die {index + 1} is {'already' if dropped else 'not'} dropped")
            what = "dropped: no die there" if dropped else "taken back"
            self._play(PlannedEvent(EventKind.DROP, f"die {index + 1} ({die.die}={die.value}) {what}",
                                    {"index": index, "dropped": dropped}))

    def add_die(self, kind: str, value: int | str) -> None:
        """Add a die the camera missed to the waiting reading."""
        with self._lock:
            self._need_pending()
            new = _face(self._need_game(), kind, value)
            self._play(PlannedEvent(EventKind.ADD, f"{kind}={new} added", {"die": kind, "value": new}))

    def _need_pending(self) -> Pending:
        pending = self._need_game().pending
        if pending is None:
            raise TableError("no reading is waiting: dice are dropped or added to a reading "
                             "before it is confirmed")
        return pending

    def discard_reading(self) -> None:
        with self._lock:
            if self._need_game().pending is None:
                raise TableError("no reading is waiting")
            self._play(PlannedEvent(EventKind.DISCARD))

    # -- moves -----------------------------------------------------------------------------

    def confirm(self) -> None:
        """Accept the waiting reading; with none, play the best-ranked move (the OK button)."""
        with self._lock:
            pos = self._need_game()
            if pos.pending is not None:
                self._apply_pending(pos.pending)
                return
            if pos.state.current_player is None:
                raise TableError("the game is over")
            if pos.state.current_player == CHANCE:
                raise TableError(f"roll the dice first: {_whose_turn(pos)}")
            question = pos.state.asks()
            if question:
                raise TableError(f"the table cannot guess this: {question} on the panel")
            ranked = pos.state.ranked_moves()
            if not ranked:
                raise TableError("there is no legal move to play")
            self._play(PlannedEvent(EventKind.MOVE, ranked[0].move.text()))

    def _apply_pending(self, pending: Pending) -> None:
        data = {
            "dice": [die_json(d) for d in pending.dice], "width": pending.width,
            "height": pending.height, "source": pending.source, "reading": pending.event_id,
            "confirmed": True,  # a player checked every die: none is "?43%" any more
        }
        self._play(PlannedEvent(EventKind.ROLL, pending.roll().text(), data))

    def choose_move(self, text: str) -> None:
        """Play a move by its text form (a roll text goes through the dice path)."""
        if text.strip().startswith("roll"):
            self.type_roll(text)
            return
        with self._lock:
            pos = self._need_game()
            if pos.state.current_player == CHANCE:
                raise TableError(f"roll the dice first: {_whose_turn(pos)}")
            move = pos.state.parse_move(text)
            self._play(PlannedEvent(EventKind.MOVE, move.text()))

    def end_turn(self) -> None:
        with self._lock:
            pos = self._need_game()
            if pos.state.current_player == CHANCE or pos.state.current_player is None:
                raise TableError(f"no turn to end now: {_whose_turn(pos)}")
            enders = pos.state.game.turn_enders
            ends = [m.text() for m in pos.state.legal_moves() if m.text().split()[0] in enders]
            if not ends:
                raise TableError("the turn cannot end yet: play a move first")
            self._play(PlannedEvent(EventKind.MOVE, ends[0]))

    def undo(self) -> None:
        """Take back the waiting reading, else the last roll or move (an event, not a delete)."""
        with self._lock:
            pos = self._need_game()
            if pos.pending is not None:
                self._play(PlannedEvent(EventKind.DISCARD))
            elif not pos.steps:
                raise NothingToUndo("nothing to undo: the game has just started")
            else:
                self._play(PlannedEvent(EventKind.UNDO, "undo", {"steps": 1}))

    def undo_turn(self) -> None:
        """Take back every roll and move of the latest turn in one event."""
        with self._lock:
            pos = self._need_game()
            if not pos.steps:
                raise NothingToUndo("nothing to undo: the game has just started")
            turn, count = pos.steps[-1].turn, 0
            for step in reversed(pos.steps):
                if step.turn != turn:
                    break
                count += 1
            self._play(PlannedEvent(EventKind.UNDO, "undo turn", {"steps": count}))

    # -- faults ----------------------------------------------------------------------------

    def report_fault(self, kind: str, message: str, advice: str) -> None:
        with self._lock:
            fault = Fault(kind, message, advice)
            if self._faults.get(kind) != fault:
                self._faults[kind] = fault
                self._bump()

    def clear_fault(self, kind: str) -> None:
        with self._lock:
            if self._faults.pop(kind, None) is not None:
                self._bump()

    # -- the view --------------------------------------------------------------------------

    def faults(self) -> list[JSON]:
        """The faults shown now, as JSON (what snapshot()["faults"] holds, without building it)."""
        with self._lock:
            return [f.to_json() for f in self._faults.values()]

    def snapshot(self) -> JSON:
        """Everything a phone shows, as JSON; computed once per version."""
        with self._lock:
            if self._snapshot is None or self._snapshot[0] != self.version:
                self._snapshot = (self.version, self._build_snapshot())
            return self._snapshot[1]

    def snapshot_text(self) -> tuple[int, str]:
        """The snapshot's version and its JSON text, serialized once per version: every phone's
        live stream sends the same text."""
        with self._lock:
            snap = self.snapshot()
            if self._snapshot_text is None or self._snapshot_text[0] != snap["version"]:
                self._snapshot_text = (snap["version"], json.dumps(snap))
            return self._snapshot_text

    def _crop_count(self, pos: Position) -> int:
        shown = pos.shown
        return self.history.crop_count(shown.event_id) if shown and shown.event_id else 0

    def _build_snapshot(self) -> JSON:
        base: JSON = {"version": self.version, "camera": self.dice_source is not None,
                      "faults": self.faults()}
        pos = self._pos
        if pos is None:
            return {**base, "game": None}
        state, record = pos.state, pos.record
        current = state.current_player
        seat = pos.acting_seat()
        wanted = state.roll_wanted() if current == CHANCE else None
        ranked = state.ranked_moves() if isinstance(current, int) and pos.pending is None else []
        cls = self.history.games_registry.get_game(record.game)
        return {
            **base,
            "game": {
                "id": record.id, "name": record.game, "title": cls.title,
                "players": list(record.players), "options": record.options,
                "teams": list(cls.teams[:len(record.players)]),
                "cooperative": cls.cooperative,  # its moves' points only rank them
                "over": current is None or pos.abandoned,
                "outcome": state.outcome.to_json() if state.outcome else None,
            },
            "state": state.describe(),
            "scores": list(state.scores()),
            "current": {
                "seat": seat, "player": record.players[seat] if seat is not None else None,
                "chance": current == CHANCE, "text": _whose_turn(pos),
            },
            "turn": pos.next_turn(seat),
            "roll_wanted": wanted.to_json() if wanted else None,
            "moves": [r.to_json() for r in ranked],  # every one: the panel groups them
            "moves_total": len(ranked),
            "told": pos.told,
            "can_end_turn": any(_ends_turn(pos, r.move) for r in ranked),
            # moves still open beside ending the turn: results left unspent (the panel asks first)
            "end_turn_leaves": sum(not _ends_turn(pos, r.move) for r in ranked),
            "reading": _reading_view(pos, self._crop_count(pos)),
            "can_undo": bool(pos.steps) or pos.pending is not None,
        }


def _ends_turn(pos: Position, move: Move) -> bool:
    return move.text().split()[0] in pos.state.game.turn_enders


def _reading_view(pos: Position, crops: int) -> JSON | None:
    """The reading shown, each die with its close-up's address when the reading kept one
    (`crops`: how many of its dice did)."""
    shown = pos.shown
    if shown is None:
        return None
    pending = shown is pos.pending
    last_roll = bool(pos.steps) and pos.steps[-1].reading is shown
    custom = pos.state.custom_dice()
    return {
        "pending": pending,
        "correctable": pending or last_roll,
        "confirmed": shown.confirmed and not pending,
        "image": f"/api/images/{shown.event_id}.jpg" if shown.event_id is not None else None,
        "width": shown.width,
        "height": shown.height,
        "source": shown.source,
        "problem": _misfit(pos, shown) or shown.problem if pending else "",
        # what a die's kind may be set to, with its faces
        "kinds": {k: list(die_kind(k, custom).faces) for k in [*STANDARD, *custom]},
        "dice": [
            {**die_json(d), "corrected": d.why_unsure == CORRECTED,
             "dropped": d.why_unsure == DROPPED,
             "added": shown.source == "camera" and d.box == NO_BOX,  # no box on the picture
             "faces": list(die_kind(d.die, custom).faces)
             if d.die in STANDARD or d.die in custom else None,
             "crop": f"/api/crops/{shown.event_id}/{i}.jpg" if i < crops else None}
            for i, d in enumerate(shown.dice)
        ],
    }


def _table_data_view(cls: Any, game: str, text: str | None) -> JSON:
    return {"game": game, "entered": text is not None,
            "data": json.loads(text) if text else cls.default_table_data()}


def _misfit(pos: Position, reading: Pending) -> str:
    """Why the waiting reading's dice, as they stand now, are not the roll wanted ("" if they
    are): said while the players drop, add and correct dice, before they press Confirm."""
    wanted = pos.state.roll_wanted()
    if wanted is None:
        return ""
    try:
        wanted.check(reading.roll(), pos.state.custom_dice())
    except BadRoll as exc:
        return str(exc)
    return ""


def _die_at(reading: Pending, index: int) -> DieReading:
    if not 0 <= index < len(reading.dice):
        raise TableError(f"'index' counts the dice from 0: this reading has dice 0 to"
                         f" {len(reading.dice) - 1}")
    return reading.dice[index]


def _face(pos: Position, kind: str, value: object) -> int | str:
    """`value` as a face of a `kind` die in game convention; BadRoll naming the dice the game
    knows (the standard ones and its symbol dice) for another kind, or the faces for a value
    the die lacks."""
    custom = pos.state.custom_dice()
    if kind not in STANDARD and kind not in custom:
        raise BadRoll(f"'kind' must be a die this game rolls ({', '.join([*STANDARD, *custom])}),"
                      f" not {kind!r}")
    return die_kind(kind, custom).read(value)


def unsure_summary(dice: Sequence[DieReading]) -> str:
    """Why a reading waits, one clause per reason naming every die it applies to ("dice 1-3, 5
    (d20) low confidence | dice 1-6 (d20) d20 values by the classifier alone are ..."), so a
    tray of dice fits a phone; each die's own confidence is on its chip."""
    groups: dict[str, list[int]] = {}
    for i, d in enumerate(dice):
        if d.unsure:
            for why in d.reasons or ["low confidence"]:
                groups.setdefault(why, []).append(i)
    clauses = []
    for why, idx in groups.items():
        kinds = ", ".join(dict.fromkeys(dice[i].die for i in idx))
        which = "die" if len(idx) == 1 else "dice"
        clauses.append(f"{which} {_spans(idx)} ({kinds}) {why}")
    return "unsure: " + " | ".join(clauses)


def _spans(indices: list[int]) -> str:
    """0-based ascending indices as 1-based numbers with runs joined: [0, 1, 2, 4] -> "1-3, 5"."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ", ".join(
        f"{r[0] + 1}-{r[-1] + 1}" if len(r) > 2 else ", ".join(str(i + 1) for i in r) for r in runs
    )


def _whose_turn(pos: Position) -> str:
    state, players = pos.state, pos.record.players
    current = state.current_player
    if pos.abandoned:
        return "this game was left unfinished"
    if current is None:
        outcome = state.outcome
        if outcome and outcome.winners:
            return "game over: " + " and ".join(players[w] for w in outcome.winners) + " won"
        return "game over" + (f": {outcome.reason}" if outcome else "")
    if current == CHANCE:  # who rolls and why: the dice are said once, by roll_wanted
        wanted = state.roll_wanted()
        player = players[wanted.player] if wanted and wanted.player is not None else None
        reason = wanted.reason if wanted else ""
        if not player:  # "Enemy line-up": the Roll line under it says the dice
            return reason[:1].upper() + reason[1:] if reason else "Roll the dice"
        if reason.startswith(player):  # "Ann rolls for who goes first"
            return reason
        return f"{player} rolls: {reason}" if reason else f"{player} rolls"
    return f"{players[current]} to play"
