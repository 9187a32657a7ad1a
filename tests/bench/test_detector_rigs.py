"""bench/detector_rigs: how found dice and boxes that are no die are counted, and the no-die
frames cut from real photos."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from bench.detector_rigs_bench import hits, models, pick, whole_frame
from vision.train.detector_frames import bare_part, painted_out


def test_a_box_finds_a_die_by_overlap_or_by_its_centre_and_only_once() -> None:
    truth = [(100, 100, 140, 140), (300, 300, 310, 310)]
    found = [
        (102, 101, 141, 139),  # the first die, IoU ~0.9
        (95, 95, 145, 145),  # the first die again: a second box on one die is no die
        (290, 290, 330, 330),  # a loose box round the small die: IoU 0.06, centre inside
        (500, 500, 540, 540),  # nothing there
    ]
    assert sorted(hits(found, truth)) == [(0, 0), (2, 1)]
    assert hits([], truth) == [] and hits(found, []) == []


def test_the_frame_rule_drops_trays_and_tables_not_dice() -> None:
    shape = (960, 1280, 3)
    assert whole_frame((0, 100, 1280, 900), shape)  # over half the frame
    assert whole_frame((0, 0, 300, 960), shape)  # a strip along three edges
    assert not whole_frame((0, 0, 300, 300), shape)  # a big die in a corner: two edges
    assert not whole_frame((500, 400, 900, 800), shape)  # 400 px die in the middle


def test_a_one_die_photo_gives_the_bare_strip_beside_its_die() -> None:
    image = np.full((200, 300, 3), 90, np.uint8)
    image[60:140, 40:120] = 250  # the die
    bare = bare_part(image, np.array((40, 60, 120, 140), np.float32))
    assert bare is not None and bare.shape == (200, 300 - 140, 3)  # right of the grown box
    assert bare.max() == 90
    assert bare_part(image, np.array((5, 5, 295, 195), np.float32)) is None  # die fills it


def test_painting_out_leaves_the_tray_without_its_dice() -> None:
    image = np.full((240, 320, 3), 70, np.uint8)
    boxes = np.array([(50, 50, 80, 80), (200, 120, 230, 150)], np.float32)
    for x0, y0, x1, y1 in boxes.astype(int):
        image[y0:y1, x0:x1] = 240
    empty = painted_out(image, boxes)
    assert np.abs(empty.astype(int) - 70).max() <= 10  # the 240 dice gone, the tray whole


def test_a_fold_is_unseen_only_where_every_run_it_went_on_from_left_its_rig_out(
        tmp_path: Path) -> None:
    """A fine-tune without a rig, of a model that trained on it, has still seen that rig."""
    def card(folder: str, training: dict) -> None:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "detector.onnx").write_bytes(b"")
        (tmp_path / folder / "detector.json").write_text(json.dumps({"training": training}))

    card("fold-0", {"left_out_rigs": ["a"], "went_on_from": {"left_out_rigs": []}})
    card("fold-1", {"left_out_rigs": ["b"], "went_on_from": {"left_out_rigs": ["b", "c"]}})
    card("fold-2", {"left_out_rigs": ["c"]})
    files = models([f"x={tmp_path}"])["x"]
    assert pick(files, "a") == (tmp_path / "fold-0" / "detector.onnx", "init saw")
    assert pick(files, "b") == (tmp_path / "fold-1" / "detector.onnx", "")
    assert pick(files, "c") == (tmp_path / "fold-2" / "detector.onnx", "")
    assert pick(files, "d") is None  # no fold left it out and none trained on every rig
    card("all", {"left_out_rigs": []})
    assert pick(models([f"x={tmp_path}"])["x"], "d") == (tmp_path / "all" / "detector.onnx", "seen")
