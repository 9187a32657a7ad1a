"""PiCamera against a fake `picamera2` module that records the calls picamera2 would get."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
import pytest

from vision.capture import PiCamera, open_source
from vision.errors import CameraError


class FakeRequest:
    def __init__(self, log: list[str], frame: np.ndarray | None) -> None:
        self.log, self.frame = log, frame

    def make_array(self, stream: str) -> np.ndarray:
        self.log.append(f"make_array:{stream}")
        if self.frame is None:
            raise RuntimeError("buffer dequeue failed")
        return self.frame

    def release(self) -> None:
        self.log.append("release")


class FakePicamera2:
    """Only the picamera2 calls PiCamera uses; every call is logged in order."""

    log: ClassVar[list[str]] = []
    frames: ClassVar[list[np.ndarray | None]] = []
    fail_open = False

    def __init__(self, camera_num: int = 0) -> None:
        if FakePicamera2.fail_open:
            raise IndexError("list index out of range")  # what picamera2 does with no camera
        self.log.append(f"init:{camera_num}")

    def create_preview_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        self.log.append(f"config:{main['format']}:{main['size'][0]}x{main['size'][1]}")
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        assert config["main"]["format"] == "RGB888"
        self.log.append("configure")

    def start(self) -> None:
        self.log.append("start")

    def capture_request(self) -> FakeRequest:
        self.log.append("capture_request")
        return FakeRequest(self.log, self.frames.pop(0))

    def stop(self) -> None:
        self.log.append("stop")

    def close(self) -> None:
        self.log.append("close")


@pytest.fixture()
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakePicamera2]]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.log = []
    FakePicamera2.frames = []
    FakePicamera2.fail_open = False
    yield FakePicamera2


def test_configure_start_capture_release_stop_in_order(fake_picamera2: Any) -> None:
    frame = np.full((960, 1280, 3), 77, np.uint8)
    frame[0, 0] = (10, 20, 30)  # B, G, R as RGB888 lays them out
    fake_picamera2.frames = [frame]
    with PiCamera(size=(1280, 960)) as cam:
        got = cam.read()
    assert got.shape == (960, 1280, 3)
    assert tuple(got[0, 0]) == (10, 20, 30)  # no channel swap: already BGR for OpenCV
    frame[0, 0] = (0, 0, 0)
    assert tuple(got[0, 0]) == (10, 20, 30)  # a copy, not the camera's recycled buffer
    assert fake_picamera2.log == [
        "init:0",
        "config:RGB888:1280x960",
        "configure",
        "start",
        "capture_request",
        "make_array:main",
        "release",
        "stop",
        "close",
    ]


def test_request_released_even_when_the_capture_fails(fake_picamera2: Any) -> None:
    fake_picamera2.frames = [None, np.zeros((96, 128, 3), np.uint8)]
    cam = PiCamera(size=(128, 96))
    with pytest.raises(CameraError, match="bad frame"):
        cam.read()
    assert fake_picamera2.log[-2:] == ["make_array:main", "release"]
    with pytest.raises(CameraError, match="all-black"):
        cam.read()
    assert fake_picamera2.log[-1] == "release"
    cam.close()
    cam.close()  # twice is harmless
    assert fake_picamera2.log.count("stop") == 1
    with pytest.raises(CameraError, match="closed"):
        cam.read()


def test_no_camera_and_no_module_are_camera_errors(
    fake_picamera2: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_picamera2.fail_open = True
    with pytest.raises(CameraError, match="no Pi camera 1"):
        open_source("picamera:1")
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as it does off a Pi
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera()
