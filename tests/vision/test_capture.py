"""Frame sources: replay of files/folders/videos, webcam garbage, spec parsing."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture import FrameSource, OpenCVCamera, ReplaySource, check_frame, open_source
from vision.errors import CameraError, VisionError


def _frame(value: int, size: tuple[int, int] = (48, 64)) -> np.ndarray:
    frame = np.full((*size, 3), 40, np.uint8)
    frame[10:20, 10:20] = value  # a mark that tells frames apart
    return frame


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    for i, value in enumerate((100, 150, 200)):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), _frame(value))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_replay_folder_in_name_order_and_loops(folder: Path) -> None:
    with ReplaySource(folder) as source:
        assert isinstance(source, FrameSource)
        marks = [int(source.read()[15, 15, 0]) for _ in range(4)]
    assert marks == [100, 150, 200, 100]


def test_replay_without_loop_ends_with_camera_error(folder: Path) -> None:
    source = ReplaySource([folder / "f1.png", folder / "f0.png"], loop=False)
    assert int(source.read()[15, 15, 0]) == 150
    assert int(source.read()[15, 15, 0]) == 100
    with pytest.raises(CameraError, match="finished"):
        source.read()


def test_replay_video(tmp_path: Path) -> None:
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for value in (60, 120, 180):
        writer.write(_frame(value))
    writer.release()
    source = ReplaySource(path, loop=True)
    marks = [int(source.read()[15, 15, 1]) for _ in range(4)]
    source.close()
    assert [abs(m - v) < 12 for m, v in zip(marks, (60, 120, 180, 60))] == [True] * 4
    once = ReplaySource(path, loop=False)
    for _ in range(3):
        once.read()
    with pytest.raises(CameraError):
        once.read()


def test_replay_missing_and_corrupt_files(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="does not exist"):
        ReplaySource(tmp_path / "nope.jpg")
    with pytest.raises(CameraError, match="no images"):
        ReplaySource(tmp_path)
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    with pytest.raises(CameraError, match="bad.jpg: not a readable image") as error:
        ReplaySource(bad).read()
    assert "unplugged" not in str(error.value)  # a file, not a camera


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (None, "no frame"),
        (np.zeros((0, 0, 3), np.uint8), "empty"),
        (np.zeros((10, 10, 3), np.uint8), "all-black"),
        (np.full((10, 10, 3), 0.5, np.float32), "uint8"),
        (np.full((10, 10, 2), 90, np.uint8), "shape"),
    ],
)
def test_check_frame_rejects_garbage(frame: object, message: str) -> None:
    with pytest.raises(CameraError, match=message) as info:
        check_frame(frame, "test")
    assert isinstance(info.value, VisionError) and isinstance(info.value, RuntimeError)


def test_check_frame_turns_gray_and_bgra_into_bgr() -> None:
    assert check_frame(np.full((5, 6), 90, np.uint8), "t").shape == (5, 6, 3)
    assert check_frame(np.full((5, 6, 4), 90, np.uint8), "t").shape == (5, 6, 3)


class FakeCapture:
    """Stands in for cv2.VideoCapture: plays a script of (ok, frame) answers."""

    def __init__(self, script: list[tuple[bool, np.ndarray | None]], opened: bool = True) -> None:
        self.script = list(script)
        self.opened = opened
        self.released = False
        self.props: dict[int, float] = {}

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        return self.script.pop(0) if self.script else (False, None)

    def release(self) -> None:
        self.released = True


def test_opencv_camera_tolerates_warmup_black_frames() -> None:
    black = np.zeros((48, 64, 3), np.uint8)
    fake = FakeCapture([(True, black), (True, black), (True, _frame(200))])
    with OpenCVCamera(3, retries=5, capture_factory=lambda i: fake) as cam:
        assert int(cam.read()[15, 15, 2]) == 200
    assert fake.released
    assert fake.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280


def test_opencv_camera_gone_raises_camera_error() -> None:
    fake = FakeCapture([(True, _frame(90))])
    cam = OpenCVCamera(0, retries=3, capture_factory=lambda i: fake)
    cam.read()
    with pytest.raises(CameraError, match="3 tries"):
        cam.read()  # unplugged: read() answers (False, None) from now on
    cam.close()
    with pytest.raises(CameraError, match="closed"):
        cam.read()
    with pytest.raises(CameraError, match="cannot open camera 7"):
        OpenCVCamera(7, capture_factory=lambda i: FakeCapture([], opened=False))


def test_opencv_camera_all_black_forever_is_a_fault() -> None:
    black = np.zeros((48, 64, 3), np.uint8)
    cam = OpenCVCamera(0, retries=2, capture_factory=lambda i: FakeCapture([(True, black)] * 9))
    with pytest.raises(CameraError, match="all-black"):
        cam.read()


def test_open_source_specs(folder: Path) -> None:
    with open_source(f"replay:{folder}") as source:
        assert isinstance(source, ReplaySource)
        assert source.read().shape == (48, 64, 3)
    for bad in ("webcam", "replay:", "opencv:x", "picamera:one"):
        with pytest.raises(ValueError, match="camera"):
            open_source(bad)


def test_replay_hold_repeats_each_image(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.capture

    decoded: list[str] = []
    read_image = vision.capture.read_image
    monkeypatch.setattr(vision.capture, "read_image",
                        lambda path, error: decoded.append(path.name) or read_image(path, error))
    source = ReplaySource(folder, loop=False, hold=2)
    frames = [source.read() for _ in range(6)]
    assert [int(f[15, 15, 0]) for f in frames] == [100, 100, 150, 150, 200, 200]
    assert decoded == ["f0.png", "f1.png", "f2.png"]  # each file decoded once, however held
    frames[0][15, 15] = 0  # a frame handed out is the caller's own: its repeat is untouched
    assert int(frames[1][15, 15, 0]) == 100
    with pytest.raises(CameraError, match="finished"):
        source.read()
