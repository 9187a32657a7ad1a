"""Reader parts that need no model: expectations, assignment, settling, images, JPEG, errors."""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from tray_scenes import make_scene

from companion.reading import DieReading
from vision.classify import FaceReading
from vision.detect import DieBox, skin_hand
from vision.errors import ImageError, ModelError, VisionError
from vision.photo_mode import guessed_box, middle_box
from vision.reader import (
    COCKED_D6,
    CUT_AWAY,
    GUESSED_BOX,
    MIN_SIDE,
    NOT_EXPECTED,
    DiceReader,
    Settler,
    SettleTimeout,
    Settling,
    assign,
    check_image,
    load_image,
    parse_expect,
    thumbnail_jpeg,
    unsure_reasons,
)


def test_parse_expect() -> None:
    assert parse_expect("d4,d6,d10,d12") == ["d4", "d6", "d10", "d12"]
    assert parse_expect("2d6, d20 d%") == ["d6", "d6", "d20", "d%"]
    assert parse_expect("D12,d100,2d00") == ["d12", "d%", "d%", "d%"]
    assert parse_expect("") is None and parse_expect(None) is None
    # taught dice by name, counted as 2xNAME; whether a name is known is the reader's to say
    assert parse_expect("d6,2xFate skulls,3xd%") == ["d6", "fate", "fate", "skulls", *["d%"] * 3]
    for bad in ("2x", "2", "2skulls", "2y6", "d6!", "-1"):
        with pytest.raises(ValueError, match="not a die like d6"):
            parse_expect(bad)


def _brute_force(cost: np.ndarray) -> float:
    rows, cols = cost.shape
    if rows <= cols:
        return min(
            sum(cost[r, c] for r, c in enumerate(p))
            for p in itertools.permutations(range(cols), rows)
        )
    return _brute_force(cost.T)


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (4, 6), (6, 4), (5, 5), (2, 7)])
def test_assignment_is_optimal_and_one_to_one(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(shape[0] * 10 + shape[1])
    for _ in range(5):
        cost = rng.random(shape) * 10
        matched = assign(cost)
        used = [c for c in matched if c is not None]
        assert len(used) == len(set(used)) == min(shape)
        total = sum(cost[r, c] for r, c in enumerate(matched) if c is not None)
        assert total == pytest.approx(_brute_force(cost))


def test_assignment_prefers_the_joint_best_over_greedy() -> None:
    # die 0 looks a bit more like a d10 than die 1 does, but die 1 can only be the d10
    cost = -np.log(np.array([[0.6, 0.4], [0.55, 0.01]]))  # columns: d10, d8
    assert assign(cost) == [1, 0]
    assert assign(np.zeros((0, 3))) == [] and assign(np.zeros((2, 0))) == [None, None]


def _moved(frame: np.ndarray, dx: int) -> np.ndarray:
    return np.roll(frame, dx, axis=1)


def test_settler_waits_for_still_frames_without_a_hand() -> None:
    frame = make_scene(21, n_dice=6).frame
    settler = Settler(Settling(still_frames=3))
    # dice still rolling: every frame moved
    assert not any(settler.feed(_moved(frame, 15 * i), hand=False) for i in range(5))
    # at rest: the first still frame is compared with the last moving one
    results = [settler.feed(frame, hand=False) for _ in range(4)]
    assert results == [False, False, False, True]
    # a hand over the tray resets the count even when nothing moves
    assert not settler.feed(frame, hand=True)
    assert [settler.feed(frame, hand=False) for _ in range(3)] == [False, False, True]


def test_settler_ignores_sensor_noise() -> None:
    frame = make_scene(22, n_dice=4).frame
    rng = np.random.default_rng(0)
    settler = Settler(Settling(still_frames=2))
    noisy = [
        np.clip(frame + rng.normal(0, 4, frame.shape), 0, 255).astype(np.uint8) for _ in range(3)
    ]
    assert [settler.feed(f, hand=False) for f in noisy] == [False, False, True]


def test_hand_frames_keep_the_tray_unsettled() -> None:
    frame = make_scene(7, n_dice=5).frame.copy()
    cv2.rectangle(frame, (560, 700), (720, 960), (120, 150, 210), -1)
    cv2.ellipse(frame, (640, 640), (150, 120), 0, 0, 360, (120, 150, 210), -1)
    settler = Settler(Settling(still_frames=2))
    assert not any(settler.feed(frame, skin_hand(frame)) for _ in range(6))


def test_load_image_errors(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "missing.jpg")
    (tmp_path / "empty.jpg").write_bytes(b"")
    (tmp_path / "text.png").write_text("hello")
    for name in ("empty.jpg", "text.png"):
        with pytest.raises(ImageError, match="not a readable image"):
            load_image(tmp_path / name)
    (tmp_path / "folder.jpg").mkdir()
    with pytest.raises(ImageError, match="is a folder, not an image file"):
        load_image(tmp_path / "folder.jpg")
    good = tmp_path / "ok.png"
    cv2.imwrite(str(good), np.full((40, 50, 3), 99, np.uint8))
    assert load_image(good).shape == (40, 50, 3)


def test_a_frame_too_small_to_hold_a_die_is_refused_saying_so() -> None:
    """A thumbnail or a strip is a readable image, just not one a die could be read in: the
    error names its size, not its colours."""
    for height, width in ((8, 8), (3, 2000), (MIN_SIDE - 1, 640)):
        with pytest.raises(ImageError, match=f"too small to hold a die: {width}x{height} px"):
            check_image(np.zeros((height, width, 3), np.uint8))
    assert check_image(np.zeros((MIN_SIDE, MIN_SIDE, 3), np.uint8)).shape == (MIN_SIDE,) * 2 + (3,)
    with pytest.raises(ImageError, match="not a BGR image"):
        check_image(np.zeros((40, 40), np.uint8))


@pytest.mark.parametrize(
    "bad",
    [
        None,
        np.zeros((40, 40), np.uint8),
        np.zeros((40, 40, 3), np.float32),
        np.zeros((4, 4, 3), np.uint8),
    ],
)
def test_check_image_rejects_non_frames(bad: object) -> None:
    with pytest.raises(ImageError):
        check_image(bad)


def test_thumbnail_is_small_and_marks_unsure_dice() -> None:
    frame = make_scene(8, n_dice=3).frame
    dice = [
        DieReading("d6", 3, 0.99, (100, 100, 200, 200)),
        DieReading("d20", 7, 0.31, (400, 300, 520, 420), unsure=True, why_unsure="low"),
    ]
    data = thumbnail_jpeg(frame, dice)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert max(image.shape[:2]) == 480 and len(data) < 80_000
    # the unsure die's box is drawn in orange (B low, R high), the sure one in green
    x0, y0 = round(400 * 0.375), round(300 * 0.375)
    b, g, r = (int(v) for v in image[y0 + 10, x0])
    assert r > 180 and b < 90
    b, g, r = (int(v) for v in image[round(150 * 0.375), round(100 * 0.375)])
    assert g > 150 and r < 120


def test_missing_or_corrupt_model_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        DiceReader(tmp_path / "none.onnx")
    bad = tmp_path / "dice.onnx"
    bad.write_bytes(b"\x08\x07 this is not an onnx graph")

    card = {
        "sha256": hashlib.sha256(bad.read_bytes()).hexdigest(),
        "kinds": ["d6"],
        "values": ["d6:1"],
        "states": ["flat"],
        "input": {"size": 64},
    }
    (tmp_path / "dice.json").write_text(json.dumps(card))
    with pytest.raises(ModelError, match="cannot load model") as info:
        DiceReader(bad)
    assert isinstance(info.value, VisionError)
    (tmp_path / "dice.json").write_text(json.dumps({**card, "sha256": "0" * 64}))
    with pytest.raises(ModelError, match="does not match"):
        DiceReader(bad)


def test_settle_timeout_is_a_vision_and_timeout_error() -> None:
    assert issubclass(SettleTimeout, VisionError) and issubclass(SettleTimeout, TimeoutError)


def _face(die: str, confidence: float = 0.95, state: str = "flat") -> tuple[str | None, str]:
    face = FaceReading(die, 3, confidence, state, np.zeros(4, np.float32))
    return face.why_unsure, face.die


def test_unsure_reasons_are_all_given() -> None:
    flat = DieBox((0, 0, 10, 10), cut=False, elongation=1.05)
    long = DieBox((0, 0, 10, 17), cut=True, elongation=1.75)
    assert unsure_reasons(*_face("d6"), flat, unexpected=False) == ""
    assert unsure_reasons(*_face("d20"), long, unexpected=False) == CUT_AWAY  # round d20: no cocked
    both = unsure_reasons(*_face("d6"), long, unexpected=True)
    assert both == f"{COCKED_D6}; {CUT_AWAY}; {NOT_EXPECTED}"
    assert "cocked" in unsure_reasons(*_face("d8", state="cocked"), flat, unexpected=False)
    assert "low confidence" in unsure_reasons(*_face("d8", confidence=0.3), flat, unexpected=False)


def test_photo_fallback_box_is_the_middle_and_flagged() -> None:
    frame = np.zeros((200, 300, 3), np.uint8)
    box = guessed_box(frame, middle_box(frame))
    assert box.box == (90, 40, 210, 160) and box.guessed and not box.cut
    assert unsure_reasons(*_face("d12"), box, unexpected=False) == GUESSED_BOX
