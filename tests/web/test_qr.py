"""The QR encoder: what it draws must decode, with OpenCV's detector, to exactly the text."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.web.qr import QRError, choose_version, qr_matrix, qr_svg, rs_remainder


def image(matrix: list[list[bool]], scale: int = 6, quiet: int = 4) -> np.ndarray:
    dark = np.pad(np.array(matrix, dtype=np.uint8), quiet)
    return np.kron((1 - dark) * 255, np.ones((scale, scale))).astype(np.uint8)


@pytest.mark.parametrize(("text", "level", "version"), [
    ("1234", "M", 1),
    ("http://192.168.1.23:8000/join?pin=0042", "M", 3),
    ("http://192.168.1.23:8000/join?pin=0042", "L", 3),
    ("http://rs.local:80/join?pin=7", "L", 2),
    ("p" * 60, "M", 4),
    ("q" * 80, "M", 5),
    ("r" * 100, "M", 6),
    ("s" * 120, "L", 6),
    ("ümlaut ☺ works", "M", 2),
])
def test_codes_decode_to_their_text(text, level, version):
    matrix = qr_matrix(text, level)
    assert len(matrix) == 17 + 4 * version
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(image(matrix))
    assert decoded == text


def test_reed_solomon_matches_the_standards_worked_example():
    # ISO/IEC 18004 annex I: "01234567" at 1-M; its data and error-correction codewords.
    data = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17]
    assert rs_remainder(data, 10) == [165, 36, 212, 193, 237, 54, 199, 135, 44, 85]


def test_too_long_text_and_unknown_levels_are_refused():
    with pytest.raises(QRError, match="version-6"):
        choose_version(107, "M")
    with pytest.raises(QRError, match="L or M"):
        qr_matrix("x", "H")


def test_svg_draws_every_dark_module():
    matrix = qr_matrix("1234")
    svg = qr_svg("1234")
    assert svg.startswith("<svg") and svg.count("h1v1h-1z") == sum(map(sum, matrix))


def test_terminal_art_decodes_too():
    from companion.web.qr import qr_text

    text = "http://192.168.1.5:8000/join?pin=1234"
    halves = {"\u2588": (1, 1), "\u2584": (0, 1), "\u2580": (1, 0), " ": (0, 0)}  # 1 = light
    rows = []
    for line in qr_text(text).splitlines():
        pairs = [halves[c] for c in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    light = np.array(rows, dtype=np.uint8)
    picture = np.kron(light * 255, np.ones((6, 6))).astype(np.uint8)
    assert cv2.QRCodeDetector().detectAndDecode(picture)[0] == text
