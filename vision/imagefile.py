"""Image files read safely: a folder, a file too big, an image of too many pixels (refused from
its header, before a byte is decoded) and a file that is no image each get their own message.

A 12000x12000 PNG of a few kilobytes decodes to 432 MB of pixels and the reader's copies of it
to about a gigabyte: no tray photo needs that, so such a file is refused early.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

MAX_PIXELS = 50_000_000  # a 48-megapixel phone photo still reads
MAX_BYTES = 100_000_000
JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # start-of-frame markers


def pixel_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, JPEG, GIF, BMP or WebP header; None for other formats."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_size(data)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in JPEG_SOF:
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
    return None


def read_image(path: str | Path, error: type[Exception]) -> np.ndarray:
    """The file decoded as BGR, or `error` (the caller's kind) saying what is wrong with it."""
    path = Path(path)
    if path.is_dir():
        raise error(f"{path}: is a folder, not an image file (name the images in it, "
                    f"e.g. {path / '*.jpg'})")
    if not path.is_file():
        raise error(f"{path}: no such file")
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise error(f"{path}: {size / 1e6:.0f} MB is too big for a photo of the tray "
                        f"(at most {MAX_BYTES // 1_000_000} MB)")
        data = np.fromfile(str(path), np.uint8)
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    dims = pixel_size(data.tobytes()) if data.size else None
    if dims and dims[0] * dims[1] > MAX_PIXELS:
        raise error(f"{path}: {dims[0]}x{dims[1]} pixels is too big to read (at most "
                    f"{MAX_PIXELS // 1_000_000} megapixels): shrink it first")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise error(f"{path}: not a readable image")
    return image
