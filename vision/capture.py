"""Frame sources: where the reader's BGR frames come from (Pi camera, USB webcam, replay).

Every source hands back a BGR uint8 frame from `read()` or raises CameraError: a camera that is
gone or hands back garbage (nothing, an empty array, an all-black frame) must become a fault the
table can show, never a silent bad reading. The reader gets its source passed in, so tests and
the demo replay image files through the same path as a real camera.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np

from vision.errors import CameraError
from vision.imagefile import read_image

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm", ".mjpeg", ".mjpg"})
# A frame whose brightest pixel stays under this is a covered lens or a dead sensor, not a tray.
BLACK_LEVEL = 8


@runtime_checkable
class FrameSource(Protocol):
    """The one thing the reader needs from a camera."""

    def read(self) -> np.ndarray:
        """Return the next frame, BGR uint8 (H, W, 3); raise CameraError if there is none."""
        ...

    def close(self) -> None:
        """Release the device; safe to call twice."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


class ClosingSource:
    """Context-manager plumbing shared by the sources: `with source:` closes it."""

    def close(self) -> None:  # pragma: no cover - every source overrides it
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_frame(frame: Any, where: str) -> np.ndarray:
    """Return frame as a BGR uint8 array, or raise CameraError saying what is wrong with it."""
    if frame is None:
        raise CameraError(f"{where}: no frame (camera unplugged or busy?)")
    arr = np.asarray(frame)
    if arr.size == 0:
        raise CameraError(f"{where}: empty frame")
    if arr.dtype != np.uint8:
        raise CameraError(f"{where}: frame of type {arr.dtype}, expected uint8")
    if arr.ndim == 2:
        arr = cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_BGRA2BGR)
    elif arr.ndim != 3 or arr.shape[2] != 3:
        raise CameraError(f"{where}: frame of shape {arr.shape}, expected (H, W, 3)")
    if int(arr.max()) < BLACK_LEVEL:
        raise CameraError(f"{where}: all-black frame (lens covered, lights off or sensor dead)")
    return arr


def _image_files(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise CameraError(f"replay folder {folder} holds no images")
    return files


class ReplaySource(ClosingSource):
    """Replays image files, a folder of images (sorted by name) or a video file.

    With loop=True the replay starts over at the end (the demo); with loop=False the end raises
    CameraError, like a camera that went away. With hold=N each image file is handed out N times
    in a row, like a camera watching dice at rest, so the reader's settling sees them settle.
    """

    def __init__(
        self, source: str | Path | Sequence[str | Path], loop: bool = True, hold: int = 1
    ) -> None:
        self.loop = loop
        self.hold = max(1, hold)
        self._held = 0
        self._video: cv2.VideoCapture | None = None
        self._files: list[Path] = []
        self._next = 0
        self._last: np.ndarray | None = None  # the image file handed out now, decoded
        if isinstance(source, (str, Path)):
            path = Path(source)
            if path.is_dir():
                self._files = _image_files(path)
            elif not path.is_file():
                raise CameraError(f"replay source {path} does not exist")
            elif path.suffix.lower() in VIDEO_SUFFIXES:
                self._video_path = path
                self._video = self._open_video()
            else:
                self._files = [path]
        else:
            self._files = [Path(p) for p in source]
            if not self._files:
                raise CameraError("replay source: no files given")
            missing = [str(p) for p in self._files if not p.is_file()]
            if missing:
                raise CameraError(f"replay files missing: {', '.join(missing)}")

    def _open_video(self) -> cv2.VideoCapture:
        video = cv2.VideoCapture(str(self._video_path))
        if not video.isOpened():
            raise CameraError(f"cannot open video {self._video_path}")
        return video

    def read(self) -> np.ndarray:
        if self._video is not None:
            return self._read_video()
        if self._held == 0 or self._last is None:
            if self._next >= len(self._files):
                if not self.loop:
                    raise CameraError("replay finished")
                self._next = 0
            self._next += 1
            path = self._files[self._next - 1]
            # read once a turn: its held repeats are copies, not the file decoded again
            self._last = check_frame(read_image(path, CameraError), f"replay {path}")
        self._held = (self._held + 1) % self.hold
        return self._last.copy()

    def _read_video(self) -> np.ndarray:
        assert self._video is not None
        ok, frame = self._video.read()
        if not ok and self.loop:
            self._video.release()
            self._video = self._open_video()
            ok, frame = self._video.read()
        if not ok:
            raise CameraError(f"replay of {self._video_path} finished")
        return check_frame(frame, f"replay {self._video_path}")

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None
        self._files = []


class OpenCVCamera(ClosingSource):
    """A USB webcam through OpenCV.

    A few bad frames in a row are tolerated (webcams hand out black frames while their exposure
    settles); after `retries` of them the camera counts as gone. `capture_factory` is passed in
    by tests; it defaults to cv2.VideoCapture.
    """

    def __init__(
        self,
        index: int = 0,
        size: tuple[int, int] | None = (1280, 960),
        retries: int = 5,
        capture_factory: Callable[[int], Any] = cv2.VideoCapture,
    ) -> None:
        self.index = index
        self.retries = max(1, retries)
        self._cap: Any = capture_factory(index)
        if self._cap is None or not self._cap.isOpened():
            raise CameraError(
                f"cannot open camera {index} (unplugged, or used by another program?)"
            )
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise CameraError(f"camera {self.index} is closed")
        error = CameraError(f"camera {self.index}: no frame")
        for _ in range(self.retries):
            ok, frame = self._cap.read()
            try:
                return check_frame(frame if ok else None, f"camera {self.index}")
            except CameraError as exc:
                error = exc
        raise CameraError(f"{error} ({self.retries} tries in a row)")

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCamera(ClosingSource):
    """The Raspberry Pi camera through picamera2 (from apt on the Pi, so imported only here).

    Explicit configure/start/capture/stop. picamera2's "RGB888" format is laid out B, G, R in
    memory, which is the order OpenCV expects, so frames need no conversion. Each capture request
    is released in `finally` or the camera runs out of buffers and stalls.
    """

    def __init__(self, size: tuple[int, int] = (1280, 960), camera_num: int = 0) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(
                "picamera2 is not installed: on a Pi, `sudo apt install python3-picamera2` and "
                "create the venv with --system-site-packages"
            ) from exc
        self._cam: Any = None
        try:
            cam = Picamera2(camera_num)
        except Exception as exc:  # picamera2 raises bare RuntimeError/IndexError when no camera
            raise CameraError(f"no Pi camera {camera_num}: {exc}") from exc
        try:
            config = cam.create_preview_configuration(main={"size": size, "format": "RGB888"})
            cam.configure(config)
            cam.start()
        except Exception as exc:
            cam.close()
            raise CameraError(f"Pi camera {camera_num} would not start: {exc}") from exc
        self._cam = cam
        self.camera_num = camera_num

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise CameraError("Pi camera is closed")
        try:
            request = self._cam.capture_request()
        except Exception as exc:
            raise CameraError(f"Pi camera {self.camera_num} stopped answering: {exc}") from exc
        try:
            # Copy: the buffer goes back to the camera on release and would be overwritten.
            frame = np.array(request.make_array("main"), copy=True)
        except Exception as exc:
            raise CameraError(f"Pi camera {self.camera_num}: bad frame: {exc}") from exc
        finally:
            request.release()
        return check_frame(frame, f"Pi camera {self.camera_num}")

    def close(self) -> None:
        if self._cam is None:
            return
        cam, self._cam = self._cam, None
        try:
            cam.stop()
        finally:
            cam.close()


def _number(arg: str, spec: str) -> int:
    try:
        return int(arg or "0")
    except ValueError:
        raise ValueError(f"camera spec {spec!r}: {arg!r} is not a camera number") from None


def open_source(spec: str, loop: bool = True) -> FrameSource:
    """Open a source from its text form: "replay:PATH", "opencv:INDEX", "picamera[:NUM]" or
    "simulated[:SEED]" (the demo's rendered throws)."""
    kind, _, arg = spec.partition(":")
    if kind == "replay" and arg:
        return ReplaySource(arg, loop=loop)
    if kind == "simulated":
        from vision.simulated_camera import SimulatedTray  # the renderer, only when asked for

        return SimulatedTray(_number(arg, spec) if arg else None)
    if kind == "opencv":
        return OpenCVCamera(_number(arg, spec))
    if kind == "picamera":
        return PiCamera(camera_num=_number(arg, spec))
    raise ValueError(
        f"unknown camera spec {spec!r}: use replay:PATH, opencv:INDEX, picamera[:NUM] or "
        "simulated[:SEED]"
    )
