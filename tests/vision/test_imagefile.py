"""Image files: folders, huge images and non-images are refused early, each in its own words."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.errors import ImageError
from vision.imagefile import MAX_PIXELS, pixel_size, read_image

SIDE = 12_000


def huge_png(path: Path, side: int = SIDE) -> Path:
    """A 1-bit black PNG of side x side pixels: a few kilobytes on disk, 432 MB decoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + b"\x00" * ((side + 7) // 8)
    pixels = zlib.compress(row * side, 9)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0))
                     + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))
    return path


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp"])
def test_the_size_is_read_from_the_header(tmp_path, suffix):
    path = tmp_path / f"x{suffix}"
    cv2.imwrite(str(path), np.full((37, 53, 3), 120, np.uint8))
    assert pixel_size(path.read_bytes()) == (53, 37)


def test_a_huge_image_is_refused_before_it_is_decoded(tmp_path):
    path = huge_png(tmp_path / "huge.png")
    assert path.stat().st_size < 100_000 and SIDE * SIDE > MAX_PIXELS
    with pytest.raises(ImageError, match=r"12000x12000 pixels is too big.*shrink it first"):
        read_image(path, ImageError)


def test_rollscribe_read_of_a_huge_png_stays_small(tmp_path):
    path = huge_png(tmp_path / "huge.png")
    # VmHWM: this process's own peak (getrusage's maxrss would carry pytest's over the exec)
    script = ("import re, sys; from companion.cli import main; code = main(['read', '--json',"
              f" {str(path)!r}]); print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status')"
              ".read()).group(1), file=sys.stderr); sys.exit(code)")
    run = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert run.returncode == 1 and "too big to read" in run.stdout
    peak_mb = int(run.stderr.strip().splitlines()[-1]) / 1024
    assert peak_mb < 400, f"peak {peak_mb:.0f} MB"  # was 962 MB: the image was decoded


def test_rollscribe_read_of_a_folder_says_it_is_a_folder(tmp_path, capsys):
    assert main(["read", "--json", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "is a folder, not an image file" in out and "no such file" not in out
