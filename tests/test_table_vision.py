"""The table fed by the real reader over the bundled sample frames (what `make run` shows)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from table_support import GAME, PLAYERS

from companion.commands.serve import camera_dice_source, samples_dir
from companion.dice_store import DiceStore, store_path
from companion.history import History
from companion.reading import TrayReading, UnreadableRoll
from companion.table import TableError, TableSession
from vision.classify import DEFAULT_MODEL
from vision.errors import CameraError, ModelError
from vision.memory_key import MemoryKey
from vision.reader import KEPT_CROP_SIDE, DiceReader
from vision.table_memory import TableMemory
from vision.train.render import render_tray

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="no shipped model yet")


@pytest.fixture
def table(tmp_path):
    camera = camera_dice_source(f"replay:{samples_dir()}")
    session = TableSession(History(tmp_path / "v.db"), camera)
    session.new_game(GAME, PLAYERS)
    return session


def test_a_replayed_camera_reading_reaches_the_table_with_its_image(table):
    reading = table.read_dice()
    assert reading.dice and reading.jpeg
    (event,) = table.history.events(table.game_id)
    assert event.has_image and event.kind.value in ("roll", "reading")
    image = cv2.imdecode(np.frombuffer(table.history.image(event.id), np.uint8), cv2.IMREAD_COLOR)
    # A thumbnail of the frame: the panel places the boxes (frame pixels) by proportion.
    assert image is not None
    assert image.shape[1] / image.shape[0] == pytest.approx(reading.width / reading.height, 0.01)
    # and a crop of each die, the classifier's own view, for `rollscribe photos`
    crops = [cv2.imdecode(np.frombuffer(c, np.uint8), cv2.IMREAD_COLOR)
             for c in table.history.crops(event.id)]
    side = KEPT_CROP_SIDE
    assert [c.shape for c in crops] == [(side, side, 3)] * len(reading.dice)
    shown = table.snapshot()["reading"]
    assert [d["die"] for d in shown["dice"]] == [d.die for d in reading.dice]
    if event.kind.value == "reading":  # unsure or not what was wanted: it waits, with the reason
        assert shown["pending"] and shown["problem"]
    else:
        assert not shown["pending"] and table.snapshot()["roll_wanted"]["reason"] != "enemy line-up"


@pytest.mark.parametrize(
    ("error", "fault"),
    [(ModelError("models/dice.onnx: truncated"), "model"), (CameraError("camera gone"), "camera")],
)
def test_vision_errors_become_the_fault_they_name(tmp_path, error, fault):
    def broken(kinds):
        raise error

    session = TableSession(History(tmp_path / "f.db"), broken)
    session.new_game(GAME, PLAYERS)
    with pytest.raises(TableError, match=str(error)):
        session.read_dice()
    assert [f["kind"] for f in session.snapshot()["faults"]] == [fault]


def test_a_camera_that_failed_to_open_works_once_it_is_there(tmp_path):
    later = tmp_path / "later"
    session = TableSession(History(tmp_path / "later.db"), camera_dice_source(f"replay:{later}"))
    session.new_game(GAME, PLAYERS)
    with pytest.raises(TableError, match="does not exist"):
        session.read_dice()
    assert [f["kind"] for f in session.snapshot()["faults"]] == ["camera"]
    later.mkdir()
    for frame in sorted(samples_dir().glob("*.jpg"))[:1]:
        (later / frame.name).write_bytes(frame.read_bytes())
    assert session.read_dice().dice  # opened now: read, and the fault is gone
    assert session.snapshot()["faults"] == []


def test_an_opencv_camera_that_failed_to_open_is_tried_again(tmp_path, monkeypatch):
    import vision.capture

    tries: list[str] = []

    def refuse(spec: str, loop: bool = True):
        tries.append(spec)
        raise CameraError(f"cannot open camera {spec}")

    monkeypatch.setattr(vision.capture, "open_source", refuse)
    read = camera_dice_source("opencv:7")
    for _ in range(2):
        with pytest.raises(CameraError, match="cannot open camera opencv:7"):
            read(None)
    assert tries == ["opencv:7", "opencv:7"]


def test_the_demo_camera_throws_the_roll_the_game_wants(tmp_path):
    """`make run`'s simulated camera: the enemy line-up wants four d20s, so four dice are
    rendered, read by the real reader, and either applied or held for the players' check."""
    session = TableSession(History(tmp_path / "demo.db"), camera_dice_source("simulated:5"))
    session.new_game(GAME, PLAYERS)
    wanted = session.snapshot()["roll_wanted"]["dice"]
    reading = session.read_dice()
    assert len(reading.dice) == len(wanted) == 4
    assert [d["die"] for d in session.snapshot()["reading"]["dice"]] == [d.die for d in reading.dice]


def test_a_roll_the_camera_cannot_read_asks_for_it_typed_and_is_no_fault(tmp_path):
    def no_drawing(kinds):
        raise UnreadableRoll("the demo camera cannot draw a village die: type this roll in")

    session = TableSession(History(tmp_path / "u.db"), no_drawing)
    session.new_game(GAME, PLAYERS)
    with pytest.raises(TableError, match="type this roll in"):
        session.read_dice()
    assert session.snapshot()["faults"] == []


def test_the_demo_camera_asks_for_a_symbol_die_to_be_typed():
    with pytest.raises(UnreadableRoll, match="cannot draw a fate die.*type this roll in"):
        camera_dice_source("simulated:1")(["d6", "fate"])


def test_a_symbol_die_the_table_was_not_taught_asks_for_teaching_or_typing(tmp_path):
    """A real camera asked for a die nobody taught (Village Attacks before its dice are taught on
    the Dice page) says so and asks for the roll typed: no fault, nothing read."""
    read = camera_dice_source(f"replay:{samples_dir()}")
    with pytest.raises(UnreadableRoll, match="not taught every die.*'village'.*Dice page"):
        read(["village", "village"])


def test_a_die_players_corrected_is_read_right_at_the_next_roll(tmp_path):
    """The table's memory end to end: the reader misreads a d20, a player corrects it and
    confirms, and the reader's next reading of that die is the corrected value."""
    frame, truth = render_tray(4, 0, (1280, 960), ["d20"] * 4)
    assert sorted(value for _, value, _ in truth) == [3, 8, 17, 18]
    memory = DiceStore(store_path(tmp_path / "m.db"))
    reader = DiceReader(keep_crops=True)
    reader.memory = TableMemory(memory, MemoryKey())

    def camera(kinds: list[str]) -> TrayReading:  # what TableCamera.read does, without settling
        reader.memory.refresh()
        return reader.read_frame(frame, kinds)

    session = TableSession(History(tmp_path / "m.db"), camera, memory)
    session.new_game(GAME, PLAYERS)
    first = session.read_dice()
    misread = first.dice[0].value  # the reader takes the first die's 3 for another face
    assert misread != 3 and first.dice[0].unsure
    assert [d.value for d in first.dice[1:]] == [18, 17, 8]
    session.correct_die(0, 3)
    session.confirm()
    assert sorted((d.value, d.how == "corrected") for d in memory.dice()) == [
        (3, True), (8, False), (17, False), (18, False)]
    again = camera(["d20"] * 4)
    assert [d.value for d in again.dice] == [3, 18, 17, 8]
    assert f"value from the table's memory (read as {misread})" in again.dice[0].why_unsure
