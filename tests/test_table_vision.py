"""The table fed by the real reader over the bundled sample frames (what `make run` shows)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from table_support import GAME, PLAYERS

from companion.commands.serve import camera_dice_source, samples_dir
from companion.history import History
from companion.table import TableError, TableSession
from vision.classify import DEFAULT_MODEL
from vision.errors import CameraError, ModelError
from vision.reader import KEPT_CROP_SIDE

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
