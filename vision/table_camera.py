"""The table's camera: one reader and one frame source, shared by the game's readings and the
Dice page's teaching, and reading the dice the table was taught.

The camera, the models and a `--taught` store open on first use, so a missing one becomes a
fault on the panel instead of a server that will not start. The table's own dice store
(companion.dice_store) is matched too: whenever its revision moves (a shot kept, a roll
confirmed, a die defined, renamed, deleted or imported) its memory of the standard dice
(vision.table_memory) is loaded again, and the faces of each symbol die whose crops changed
(vision.taught_dice.StoreFaces) are made again, before the next reading, so a die taught on the
panel is read at once and what was learnt from the last roll counts at the next.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from companion.dice_store import DiceStore
from companion.faults import CAMERA
from companion.reading import TrayReading, UnreadableRoll


class _Recording:
    """A frame source that keeps the last frame it gave (the one the reader found settled)."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.last: np.ndarray | None = None

    def read(self) -> np.ndarray:
        self.last = self.source.read()
        return self.last


class TableCamera:
    """`read` is the table session's dice source; `settled_frame` gives the Dice page a frame
    of the tray at rest; `teacher` checks and keeps teaching shots."""

    def __init__(self, spec: str, taught: Path | None = None,
                 store: DiceStore | None = None) -> None:
        self.spec = spec
        # called once the dice are at rest, before a game's reading (the buttons' lights)
        self.settled_hooks: list[Callable[[], object]] = []
        self.taught = taught
        self.store = store
        self._lock = threading.Lock()
        self._reader: Any = None
        self._source: Any = None
        self._file_faces: tuple = ()  # the --taught store's faces, embedded for this model
        self._own: Any = None  # the store's symbol dice (vision.taught_dice.StoreFaces)

    def _open(self) -> Any:
        """The reader and the camera, each kept only once it opened: a camera plugged in (or a
        replay folder made) after a failed try is opened on the next read, without a restart."""
        if self._reader is None:
            try:
                from vision.classify import Classifier
                from vision.memory_key import MemoryKey
                from vision.numerals import NumeralReader
                from vision.prototypes import Prototypes, load_taught
                from vision.reader import DiceReader
                from vision.table_memory import TableMemory
                from vision.taught_dice import StoreFaces
            except ImportError as exc:
                raise RuntimeError(f"the dice reader is not installed: {exc}") from exc
            classifier, numerals = Classifier(), NumeralReader()
            # a store taught with another model is embedded again from its shots here
            faces = load_taught(self.taught, classifier)[0].faces if self.taught else ()
            self._reader = DiceReader(
                classifier=classifier, keep_crops=True,  # for `photos`
                prototypes=Prototypes(faces, model_sha256=classifier.card["sha256"]),
                numerals=numerals, memory=TableMemory(self.store, MemoryKey(), numerals))
            self._reader.memory.follow()
            self._file_faces = faces
            self._own = StoreFaces(self.store, classifier) if self.store is not None else None
        if self._source is None:
            from vision import capture
            from vision.reader import Settling

            kind, _, path = self.spec.partition(":")
            # A replayed still frame must repeat long enough for the reader to see it settle.
            self._source = (capture.ReplaySource(path, hold=Settling().still_frames + 2)
                            if kind == "replay" and path else capture.open_source(self.spec))
        self._refresh()
        return self._reader

    def _refresh(self) -> None:
        """The reader's taught faces: the --taught file's and the table's store's, made again
        when a symbol die's crops changed since; and its memory, loaded again when that
        changed."""
        from vision.prototypes import Prototypes

        self._reader.memory.refresh()
        if self._own is None or not self._own.refresh():
            return
        self._reader.prototypes = Prototypes([*self._file_faces, *self._own.faces],
                                             model_sha256=self._reader.classifier.card["sha256"])

    def _settled(self, reader: Any, expect: list[str] | None,
                 on_settled: Callable[[], object] | None) -> tuple[TrayReading, np.ndarray]:
        recording = _Recording(self._source)
        try:
            reading = reader.read_settled(recording, expect=expect, on_settled=on_settled)
        except RuntimeError as exc:
            if getattr(exc, "fault", None) == CAMERA:  # gone: open it again next time
                with contextlib.suppress(Exception):
                    self._source.close()
                self._source = None
            raise
        assert recording.last is not None
        return reading, recording.last

    def read(self, kinds: list[str] | None,
             faces: Sequence[Sequence[str]] | None = None) -> TrayReading:
        """Read the tray once the dice are at rest, expecting `kinds` (None: anything); `faces`
        (each die's, where the game knows them) only tell the demo's simulated tray what to
        throw, the reader reads as ever."""
        with self._lock:
            reader = self._open()
            if hasattr(self._source, "throw"):  # the demo's simulated tray rolls what is asked
                self._source.throw(kinds or [], faces)
            try:
                reader.resolve(kinds)
            except ValueError as exc:  # a symbol die nobody taught this table
                raise UnreadableRoll(f"the camera was not taught every die asked for ({exc}): "
                                     "teach it on the Dice page, or type this roll in") from exc
            return self._settled(reader, kinds,
                                 lambda: [hook() for hook in self.settled_hooks])[0]

    @property
    def thrown(self) -> list:
        """The true dice (kind, value, box) of the simulated tray's last throw; none for a real
        camera, whose dice nobody but the players knows."""
        return list(getattr(self._source, "thrown", []))

    def settled_frame(self) -> np.ndarray:
        """A frame of the tray with the dice at rest (for a teaching shot)."""
        with self._lock:
            return self._settled(self._open(), None, None)[1]

    def teacher(self) -> Any:
        """A vision.taught_dice.Teacher over this camera (the models open now)."""
        from vision.taught_dice import Teacher

        with self._lock:
            reader = self._open()
        return Teacher(reader.classifier, reader.detector, self.settled_frame)
