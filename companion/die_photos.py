"""Photos of the table's own dice, labelled by the players' checks, for training the next model.

Every camera reading keeps a crop of each die (the history's `die_crops`). Once a roll is in the
game and not taken back, its dice carry the values the game used: the reader's where nobody
objected, a player's where one set a die. Those are labels the shared photo sets cannot give:
this table's dice, tray, light and camera, including the values of every d20 and d4 that players
check by hand today. `rollscribe photos OUT` writes them as a folder of crops with a labels.csv,
and `make tune TABLE_PHOTOS=OUT` trains the shipped models on with them (whole games held out to
measure).
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from companion.history import CORRECTED, DROPPED, History, HistoryError, Position

# How a die's value came to be trusted, from most to least sure:
# "corrected": a player set it; "checked": a player accepted the reading it was part of (held
# because some die was unsure, or with a die of it corrected); "read": applied at once, unasked.
HOW = ("corrected", "checked", "read")
COLUMNS = ("path", "die", "top_value", "how", "confidence", "sequence")


@dataclass(frozen=True)
class DieLabel:
    """One die of a roll the game kept: what it showed and how that came to be trusted. Its crop
    is the history's (`crop` of event_id, index), fetched only where wanted: a game's labels are
    gone over after every roll."""

    game_id: int
    event_id: int  # the event holding the reading's crops
    index: int  # the die's place in the reading
    die: str
    value: int | str
    how: str  # one of HOW
    confidence: float  # the reader's (1.0 once a player set the die)

    @property
    def name(self) -> str:
        return f"g{self.game_id}-e{self.event_id}-d{self.index}.jpg"


@dataclass(frozen=True)
class LabelledDie(DieLabel):
    """A die's label with the crop the reader read it from."""

    jpeg: bytes


def labelled_dice(history: History) -> Iterator[LabelledDie]:
    """Every die of every camera-read roll still in force, oldest game first. A game that no
    longer replays (its rules module gone) is skipped: it cannot say which rolls stood."""
    for record in reversed(history.games(limit=1_000_000)):
        try:
            pos = history.replay(record)
        except HistoryError:
            continue
        yield from game_dice(history, pos)


def game_dice(history: History, pos: Position) -> Iterator[LabelledDie]:
    """Every die of the camera-read rolls in force in one game's position, with its crop."""
    event, jpegs = None, []
    for label in game_labels(history, pos):
        if label.event_id != event:
            event, jpegs = label.event_id, history.crops(label.event_id)
        yield LabelledDie(**vars(label), jpeg=jpegs[label.index])


def game_labels(history: History, pos: Position) -> Iterator[DieLabel]:
    """The labels of every die of the camera-read rolls in force in one game's position, with
    no picture read."""
    for step in pos.steps:
        reading = step.reading
        if reading is None or reading.source != "camera" or reading.event_id is None:
            continue
        kept = history.crop_count(reading.event_id)
        # none: read before crops were kept; dice a player added come last, with no crop
        if not kept or kept > len(reading.dice):
            continue
        set_by_player = [d.why_unsure == CORRECTED for d in reading.dice]
        # A roll applied at once holds its own image; one a player confirmed points back to
        # the held reading's event (an amended roll has a die set by a player anyway).
        acted = reading.event_id != step.event_id or any(set_by_player)
        for i, die in enumerate(reading.dice[:kept]):
            if die.why_unsure == DROPPED:  # a box of no die: no label for a die
                continue
            how = "corrected" if set_by_player[i] else "checked" if acted else "read"
            yield DieLabel(pos.record.id, reading.event_id, i, die.die, die.value, how,
                           die.confidence)


def labels_csv(dice: list[LabelledDie]) -> str:
    """labels.csv for these dice, each crop under crops/ by its name."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for die in dice:
        writer.writerow((f"crops/{die.name}", die.die, die.value, die.how,
                         f"{die.confidence:.4f}", f"game-{die.game_id}"))
    return out.getvalue()


def export(history: History, out: Path) -> Counter[str]:
    """Write every labelled die under out/crops/ and their labels to out/labels.csv (replaced
    whole, so a kill leaves the old file); returns how many dice of each `how` were written."""
    crops_dir = out / "crops"
    crops_dir.mkdir(parents=True, exist_ok=True)
    dice = []  # labels only: a table's photos may run to gigabytes
    for die in labelled_dice(history):
        path = crops_dir / die.name
        if not path.is_file() or path.stat().st_size != len(die.jpeg):
            path.write_bytes(die.jpeg)
        dice.append(replace(die, jpeg=b""))
    fd, tmp = tempfile.mkstemp(dir=out, prefix=".labels-", suffix=".csv")
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            fh.write(labels_csv(dice))
        os.replace(tmp, out / "labels.csv")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Counter(die.how for die in dice)


class _Chunks(io.RawIOBase):
    """A write-only stream whose bytes are taken out as they come (zipfile writes to it)."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        out, self._parts = b"".join(self._parts), []
        return out


def export_zip(history: History) -> Iterator[bytes]:
    """The same folder as `export` writes, as a zip archive streamed in pieces (the panel's
    download), crop by crop."""
    sink = _Chunks()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_STORED) as archive:  # JPEGs do not shrink
        dice = []
        for die in labelled_dice(history):
            archive.writestr(f"crops/{die.name}", die.jpeg)
            dice.append(replace(die, jpeg=b""))
            yield sink.take()
        archive.writestr("labels.csv", labels_csv(dice))
    yield sink.take()
