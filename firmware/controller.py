"""The turn flow on the box: buttons act on the table session, lights show where the turn is.

The table session is the only source of truth. The controller never keeps its own copy of the
game: it follows the session's `version` and derives its state from each `snapshot()`, so a move
made on a phone and a button pressed at the table always show the same thing. The only states it
adds itself are the ones the session cannot know: a read in progress (settling, reading) and short
flashes after something happened (move applied, next player, a refused press).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.faults import CAMERA, DATABASE, GPIO, MODEL, Fault, fault_for
from companion.rules.errors import RulesError
from companion.table import TableError

from .devices import OFF_COLOUR, Beep, Colour, Light, Lights, Panel, PressWatcher
from .pins import PinMap

log = logging.getLogger(__name__)


class TurnState(Enum):
    NO_GAME = "no game"
    WAITING_FOR_ROLL = "waiting for a roll"
    SETTLING = "dice settling"
    READING = "reading"
    CHECK_READING = "awaiting confirmation: check the reading"
    CHOOSE_MOVE = "awaiting confirmation: choose a move"
    MOVE_APPLIED = "move applied"
    NEXT_PLAYER = "next player"
    REFUSED = "press refused"
    GAME_OVER = "game over"
    FAULT = "fault"


@dataclass(frozen=True)
class Pattern:
    """The lights of one state; `seconds` is set for flashes that end by themselves."""

    ready: Light
    reading: Light
    attention: Light
    player: Light
    beep: Beep = Beep.NONE
    seconds: float | None = None


S, L = TurnState, Light
PATTERNS: dict[TurnState, Pattern] = {
    S.NO_GAME: Pattern(L.SLOW, L.OFF, L.OFF, L.OFF),
    S.WAITING_FOR_ROLL: Pattern(L.ON, L.OFF, L.OFF, L.ON),
    S.SETTLING: Pattern(L.OFF, L.SLOW, L.OFF, L.ON),
    S.READING: Pattern(L.OFF, L.ON, L.OFF, L.ON),
    S.CHECK_READING: Pattern(L.OFF, L.ON, L.FAST, L.ON, Beep.DOUBLE),
    S.CHOOSE_MOVE: Pattern(L.SLOW, L.OFF, L.OFF, L.ON),
    S.MOVE_APPLIED: Pattern(L.FAST, L.OFF, L.OFF, L.ON, Beep.SHORT, 1.0),
    S.NEXT_PLAYER: Pattern(L.OFF, L.OFF, L.OFF, L.FAST, Beep.SHORT, 1.5),
    S.REFUSED: Pattern(L.OFF, L.OFF, L.FAST, L.ON, Beep.BUZZ, 1.0),
    S.GAME_OVER: Pattern(L.ON, L.ON, L.OFF, L.SLOW, Beep.TRIPLE),
    S.FAULT: Pattern(L.OFF, L.OFF, L.ON, L.OFF, Beep.LONG),
}
del S, L

PLAYER_COLOURS: tuple[tuple[str, Colour], ...] = (
    ("red", (1.0, 0.0, 0.0)), ("blue", (0.0, 0.0, 1.0)), ("green", (0.0, 1.0, 0.0)),
    ("yellow", (1.0, 0.7, 0.0)), ("purple", (0.6, 0.0, 1.0)), ("cyan", (0.0, 1.0, 1.0)),
    ("orange", (1.0, 0.3, 0.0)), ("pink", (1.0, 0.2, 0.5)),
)
WHITE: Colour = (1.0, 1.0, 1.0)  # a shared win, or a roll that is nobody's in particular


def player_colour(seat: int | None) -> Colour:
    """Seat 0 is red, seat 1 blue, ... (the panel may use the same order)."""
    return OFF_COLOUR if seat is None else PLAYER_COLOURS[seat % len(PLAYER_COLOURS)][1]


def lights_for(state: TurnState, colour: Colour) -> Lights:
    p = PATTERNS[state]
    return Lights(p.ready, p.reading, p.attention, p.player, colour)


@dataclass(frozen=True)
class TableView:
    """What the controller needs from a session snapshot (see TableSession.snapshot)."""

    version: int
    game: Mapping[str, Any] | None  # id, name, players, options, over, outcome
    seat: int | None  # the player to act, or the player whose roll is wanted
    rolling: bool  # the game waits for dice
    pending: bool  # a reading waits to be confirmed or corrected
    faults: tuple[str, ...]

    @classmethod
    def of(cls, snap: Mapping[str, Any]) -> TableView:
        current = snap.get("current") or {}
        reading = snap.get("reading") or {}
        return cls(
            version=int(snap["version"]),
            game=snap.get("game"),
            seat=current.get("seat"),
            rolling=bool(current.get("chance")),
            pending=bool(reading.get("pending")),
            faults=tuple(f["kind"] for f in snap.get("faults", ())),
        )

    @property
    def game_id(self) -> int | None:
        return None if self.game is None else self.game["id"]

    @property
    def over(self) -> bool:
        return self.game is not None and bool(self.game["over"])

    @property
    def winners(self) -> tuple[int, ...]:
        outcome = self.game.get("outcome") if self.game is not None else None
        return tuple(outcome["winners"]) if outcome else ()

    @property
    def base_state(self) -> TurnState:
        """The state the session alone implies (no read running, no flash)."""
        if self.game_id is None:
            return TurnState.NO_GAME
        if self.over:
            return TurnState.GAME_OVER
        if self.pending:
            return TurnState.CHECK_READING
        if self.rolling:
            return TurnState.WAITING_FOR_ROLL
        return TurnState.CHOOSE_MOVE


REFUSALS = (RulesError, TableError, ValueError)  # not allowed now: shown, then forgotten


class TurnController:
    """Wires the panel's buttons to the session and keeps the lights in step with it."""

    def __init__(
        self,
        table: Any,
        panel: Panel,
        *,
        clock: Callable[[], float] = time.monotonic,
        probes: Mapping[str, Callable[[], object]] | None = None,
        retry_seconds: float = 5.0,
        poll_seconds: float = 0.25,
    ) -> None:
        self.table = table
        self.panel = panel
        self._clock = clock
        self._probes = dict(probes or {})
        self._retry_seconds = retry_seconds
        self._poll_seconds = poll_seconds
        self._lock = threading.RLock()
        self._view: TableView | None = None
        self._activity: TurnState | None = None
        self._flash: tuple[TurnState, float] | None = None
        self._state: TurnState | None = None
        self._next_retry = 0.0
        self._reader: threading.Thread | None = None
        self._follower: threading.Thread | None = None
        self._stop = threading.Event()
        self.last_problem = ""
        self._watchers = (
            PressWatcher(panel.roll, self.press_roll),
            PressWatcher(panel.confirm, self.press_confirm, self.hold_confirm),
            PressWatcher(panel.undo, self.press_undo, self.hold_undo),
            PressWatcher(panel.next, self.press_next, self.hold_next),
        )
        self.refresh()

    # -- what is shown ---------------------------------------------------------------------

    @property
    def state(self) -> TurnState:
        with self._lock:
            return self._state if self._state is not None else self.refresh()

    @property
    def view(self) -> TableView | None:
        return self._view

    def refresh(self) -> TurnState:
        """Re-read the session, work out the state, light the panel; returns the state."""
        with self._lock:
            view = TableView.of(self.table.snapshot())
            old, self._view = self._view, view
            now = self._clock()
            if old is not None and view.version != old.version:
                self._note_change(old, view, now)
            state = self._current(view, now)
            self.panel.show(lights_for(state, self._colour(state, view)))
            if state is not self._state:
                self._state = state
                self.panel.beep(PATTERNS[state].beep)
            return state

    def status(self) -> dict[str, Any]:
        """For the panel or logs: the state, what each light shows, the last refused press."""
        with self._lock:
            shown = self.panel.shown
            return {
                "state": self.state.value,
                "lights": {
                    "ready": shown.ready.value, "reading": shown.reading.value,
                    "attention": shown.attention.value, "player": shown.player.value,
                    "colour": list(shown.colour),
                },
                "problem": self.last_problem,
            }

    def _current(self, view: TableView, now: float) -> TurnState:
        flash = self._flash if self._flash and self._flash[1] > now else None
        if flash and flash[0] is TurnState.REFUSED:
            return flash[0]
        if self._activity is not None:
            return self._activity
        if view.faults:
            return TurnState.FAULT
        if flash and view.base_state not in (TurnState.GAME_OVER, TurnState.NO_GAME):
            return flash[0]
        return view.base_state

    def _note_change(self, old: TableView, new: TableView, now: float) -> None:
        """A new player's turn flashes their colour, whoever (button or phone) ended the turn."""
        if new.game_id != old.game_id:
            self._flash = None  # a new game starts clean
        elif new.seat is not None and new.seat != old.seat:
            self._flash_for(TurnState.NEXT_PLAYER, now)

    def _flash_for(self, state: TurnState, now: float) -> None:
        self._flash = (state, now + (PATTERNS[state].seconds or 0.0))
        self._state = None  # entering a flash beeps even when the same flash just ended

    def _applied(self) -> None:
        """A button played a move or a roll: flash it, unless the turn passed (that flashes)."""
        with self._lock:
            now = self._clock()
            if self._flash is None or self._flash[1] <= now:
                self._flash_for(TurnState.MOVE_APPLIED, now)
            self.refresh()

    @staticmethod
    def _colour(state: TurnState, view: TableView) -> Colour:
        """The acting player's colour; white for a shared win or a roll for the whole table
        (setting up enemies, a roll-off)."""
        if state is TurnState.GAME_OVER:
            return player_colour(view.winners[0]) if len(view.winners) == 1 else WHITE
        return player_colour(view.seat) if view.seat is not None else WHITE

    # -- buttons ---------------------------------------------------------------------------

    def press_roll(self) -> None:
        """ROLL: read the tray (or read it again while a reading is being checked)."""
        with self._lock:
            if self._activity is not None:
                return  # already reading: a second press changes nothing
            self.refresh()
            assert self._view is not None
            if self._view.faults:
                self.retry_faults()
            if self._view.base_state not in (TurnState.WAITING_FOR_ROLL, TurnState.CHECK_READING):
                if not self._view.faults:
                    self._refuse("no roll is wanted now")
                return
            self._activity = TurnState.SETTLING
            self.refresh()
            self._reader = threading.Thread(target=self._read, name="rollscribe-read", daemon=True)
            self._reader.start()

    def press_confirm(self) -> None:
        """CONFIRM: accept the pending reading, else play the top-ranked move."""
        if self._act(self.table.confirm):
            self._applied()

    def hold_confirm(self) -> None:
        self._act(self.table.end_turn)

    def press_undo(self) -> None:
        self._act(self.table.undo)

    def hold_undo(self) -> None:
        self._act(self.table.undo_turn)

    def press_next(self) -> None:
        """NEXT: pass to the next player (the same as holding CONFIRM)."""
        self._act(self.table.end_turn)

    def hold_next(self) -> None:
        """MENU: after the game is over, a rematch with the same game, players and options."""
        with self._lock:
            self.refresh()
            if self._state is not TurnState.GAME_OVER:
                self._refuse("a rematch starts only when the game is over")
                return
        game = self._view.game if self._view is not None else None
        assert game is not None
        self._act(lambda: self.table.new_game(game["name"], game["players"], game["options"]))

    def dice_phase_reading(self) -> None:
        """For a dice source that can tell: the dice have settled, the picture is being read."""
        with self._lock:
            if self._activity is TurnState.SETTLING:
                self._activity = TurnState.READING
                self.refresh()

    # -- actions and faults ----------------------------------------------------------------

    def _act(self, action: Callable[[], object]) -> bool:
        try:
            action()
        except Exception as exc:  # noqa: BLE001 - a press must never kill the button thread
            self._handle_error(exc)
            return False
        self._clear_faults(DATABASE)
        self.refresh()
        return True

    def _read(self) -> None:
        try:
            self.table.read_dice()
        except Exception as exc:  # noqa: BLE001 - faults and refusals are both shown
            with self._lock:
                self._activity = None
            self._handle_error(exc)
            return
        with self._lock:
            self._activity = None
        self._clear_faults(CAMERA, MODEL, DATABASE)
        if self.refresh() is not TurnState.CHECK_READING:
            self._applied()

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Block until a read started by ROLL has finished (tests, shutdown)."""
        reader = self._reader
        if reader is not None:
            reader.join(timeout)

    def _handle_error(self, exc: BaseException) -> None:
        fault = fault_for(exc)
        if fault is not None:
            self.report(fault)
        elif isinstance(exc, REFUSALS):
            self._refuse(str(exc))
        else:
            log.exception("unexpected error from a button action")
            self._refuse(f"unexpected error: {exc}")

    def report(self, fault: Fault) -> None:
        """Tell the session (and so the panel) about a fault; the lights follow the session."""
        log.warning("fault %s: %s", fault.kind, fault.message)
        self.last_problem = fault.message
        try:
            self.table.report_fault(fault.kind, fault.message, fault.advice)
        except Exception:
            log.exception("could not report the %s fault to the session", fault.kind)
        self._next_retry = self._clock() + self._retry_seconds
        self.refresh()

    def _refuse(self, why: str) -> None:
        with self._lock:
            self.last_problem = why
            self._flash_for(TurnState.REFUSED, self._clock())
            self.refresh()

    def _clear_faults(self, *kinds: str) -> None:
        view = self._view
        for kind in kinds:
            if view is not None and kind in view.faults:
                self.table.clear_fault(kind)

    def retry_faults(self) -> None:
        """Run the probe of each active fault; a probe that passes clears its fault."""
        view = self._view
        self._next_retry = self._clock() + self._retry_seconds
        for kind in view.faults if view is not None else ():
            probe = self._probes.get(kind)
            if probe is None:
                continue
            try:
                probe()
            except Exception as exc:  # noqa: BLE001 - any failure means still faulty
                log.info("%s still faulty: %s", kind, exc)
            else:
                self.table.clear_fault(kind)
        self.refresh()

    # -- running ---------------------------------------------------------------------------

    def tick(self) -> TurnState:
        """One step of the follower: refresh, and retry faults when their time has come."""
        self.refresh()
        if self._view is not None and self._view.faults and self._clock() >= self._next_retry:
            self.retry_faults()
        return self.state

    def start(self) -> TurnController:
        self._follower = threading.Thread(target=self._follow, name="rollscribe-lights",
                                          daemon=True)
        self._follower.start()
        return self

    def _follow(self) -> None:
        while not self._stop.is_set():
            try:
                since = self._view.version if self._view is not None else -1
                self.table.wait_for_change(since, self._poll_seconds)
                self.tick()
            except Exception as exc:  # noqa: BLE001 - keep the lights alive, show the error
                try:
                    self._handle_error(exc)
                except Exception:
                    log.exception("the session cannot be read; retrying")
                self._stop.wait(self._poll_seconds)

    def close(self) -> None:
        self._stop.set()
        for thread in (self._follower, self._reader):
            if thread is not None:
                thread.join(2.0)
        self.panel.close()


def start_mock(table: Any, pins: PinMap | None = None, **options: Any) -> TurnController:
    """The demo box: the real controller on gpiozero's MockFactory (`make run`, tests)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    return TurnController(table, Panel(pins or PinMap(), factory), **options).start()


def start_gpio(table: Any, pins: PinMap, **options: Any) -> TurnController | None:
    """The real box on a Pi 4/5: lgpio drives the header pins.

    Without working pins (lgpio missing, pins held by another program) the phones still run
    the table: the problem becomes a "gpio" fault on the panel and None is returned."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        panel = Panel(pins, LGPIOFactory())
    except Exception as exc:  # lgpio and gpiozero raise many unrelated types
        log.exception("no buttons or lights")
        table.report_fault(
            GPIO, f"The buttons and lights cannot start: {type(exc).__name__}: {exc}",
            "Play on the phones for now. On the Pi run `rollscribe doctor`, fix what it says, "
            "then `sudo systemctl restart rollscribe`.",
        )
        return None
    return TurnController(table, panel, **options).start()
