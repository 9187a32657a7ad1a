"""The cross-rig measuring (vision.train.crossrig), the crop pack and a table's own photos
(vision.train.realsets), and the bench that prints them: numpy and OpenCV only, no torch."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.cross_rig_bench import report
from companion.reading import DieReading, TrayReading
from vision.train import crossrig, realsets
from vision.train.labels import VALUE_LABELS
from vision.train.realdata import TABLE_HOLD_OUT


def crop_set(n: int, rig: str = "r", state: int = 0) -> realsets.CropSet:
    """n flat d6 crops showing 3 (or bare ones), of one rig."""
    rng = np.random.default_rng(n)
    return realsets.CropSet(
        rng.integers(0, 255, (n, realsets.SIZE, realsets.SIZE, 3), np.uint8),
        np.full(n, 1 if state == 0 else realsets.IGNORE),
        np.full(n, VALUE_LABELS.index("d6:3") if state == 0 else realsets.IGNORE),
        np.full(n, state),
        np.full(n, rig),
        np.full(n, "seq"),
        np.zeros(n, bool),
        np.ones(n, bool),
        np.ones(n, bool),
    )


def test_a_pack_round_trips_its_labels_and_keeps_the_crops_close(tmp_path: Path) -> None:
    crops = realsets.concat(crop_set(5, "a"), crop_set(3, "b", state=2))
    smooth = np.stack([cv2.GaussianBlur(im, (15, 15), 5) for im in crops.images])
    crops = realsets.CropSet(smooth, *(getattr(crops, f) for f in list(crops.__annotations__)[1:]))
    realsets.save(crops, tmp_path / "pack.npz")
    back = realsets.load(tmp_path / "pack.npz")
    for field in list(realsets.CropSet.__annotations__)[1:]:
        assert np.array_equal(getattr(back, field), getattr(crops, field)), field
    assert np.abs(back.images.astype(int) - crops.images).mean() < 4  # JPEG, smooth crops
    assert list(back.without(("a",)).rigs) == ["b"] * 3 and len(back.of(("a",))) == 5


def test_runtime_crops_are_the_middle_of_the_wide_crops() -> None:
    crops = crop_set(1)
    side = realsets.SIZE
    inner = round(side / realsets.WIDE)
    lo = (side - inner) // 2
    crops.images[0] = 0
    crops.images[0, lo : lo + inner, lo : lo + inner] = 255
    (cut,) = crossrig.runtime_crops(crops, 96)
    assert cut.shape == (96, 96, 3) and cut.min() == 255


def write_table_photos(folder: Path) -> None:
    """A `rollscribe photos` folder: 40 games of one d6 crop each, checked, corrected or only
    read (which training must not use)."""
    (folder / "crops").mkdir(parents=True)
    with (folder / "labels.csv").open("w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(("path", "die", "top_value", "how", "confidence", "sequence"))
        for game in range(40):
            name = f"crops/{game}.jpg"
            cv2.imwrite(str(folder / name), np.full((128, 128, 3), 40 + game, np.uint8))
            how = ("checked", "corrected", "read")[game % 3]
            out.writerow((name, "d6", 1 + game % 6, how, "0.9", f"game-{game}"))


def test_a_tables_photos_train_except_one_game_in_five_and_never_unchecked_ones(
    tmp_path: Path,
) -> None:
    write_table_photos(tmp_path / "t")
    crops = realsets.table_crops([tmp_path / "t"], workers=1)
    used = [g for g in range(40) if g % 3 != 2]  # "read" rows are left out
    assert len(crops) == len(used)
    held = int((crops.rigs == realsets.TABLE_HELD_OUT).sum())
    assert 0 < held < len(used) and set(crops.rigs) == {realsets.TABLE, realsets.TABLE_HELD_OUT}
    assert held <= 2 * len(used) / TABLE_HOLD_OUT + 3  # about one game in TABLE_HOLD_OUT
    assert crops.varied.all() and not crops.level.any()


def test_no_checked_photos_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "crops").mkdir()
    (tmp_path / "labels.csv").write_text("path,die,top_value,how,confidence,sequence\n")
    with pytest.raises(ValueError, match="no checked or corrected dice"):
        realsets.table_crops([tmp_path], workers=1)


class ScriptedReader:
    """Reads each frame as the dice given for it, in order."""

    def __init__(self, readings: list[list[DieReading]]) -> None:
        self.readings = iter(readings)

    def read_frame(self, frame: np.ndarray) -> TrayReading:
        return TrayReading(dice=tuple(next(self.readings)), jpeg=b"", width=1, height=1)


def die(kind: str, value: int, box: tuple[int, int, int, int], sure: bool) -> DieReading:
    return DieReading(kind, value, 0.9 if sure else 0.3, box, not sure, "" if sure else "low")


def test_whole_frames_count_found_right_and_sure_wrong_dice() -> None:
    frame = np.zeros((8, 8, 3), np.uint8)
    truth = [("d6", 3, (0, 0, 10, 10)), ("d8", 5, (20, 0, 30, 10)), ("d4", 1, (40, 0, 50, 10))]
    readings = [
        [
            die("d6", 3, (0, 0, 10, 10), sure=True),  # right
            die("d8", 6, (21, 0, 31, 10), sure=True),  # found, wrong value, sure
            die("d6", 2, (60, 60, 70, 70), sure=True),  # no die there, read as sure
        ],  # the d4 is not found
    ]
    figures = crossrig.read_frames(ScriptedReader(readings), [(frame, truth)])
    assert figures["dice"] == 3 and figures["frames"] == 1
    assert figures["recall"] == pytest.approx(66.67) and figures["precision"] == pytest.approx(66.67)
    assert figures["value_right"] == pytest.approx(33.33)
    assert figures["sure"] == 100.0 and figures["sure_wrong"] == pytest.approx(66.67)
    assert figures["no_die_read_sure"] == 1


def test_the_bench_prints_every_rig_and_fold() -> None:
    row = {"dice": 10, "value_right": 90.0, "sure": 80.0, "sure_wrong": 0.0}
    crops = {"d6": row, "all": row, "bare_surface": {"crops": 4, "read_as_sure_die": 0}}
    frames = {"frames": 2, "dice": 10, "recall": 100.0, "precision": 90.0, "value_right": 80.0,
              "sure": 70.0, "sure_wrong": 0.0, "no_die_read_sure": 0}
    folds = {"rig-a": {"rig-a": {"crops": crops}, "frames": frames}}
    lines = report({"summary": crossrig.summary(folds, (25.0, 18.0)), "folds": folds})
    text = "\n".join(lines)
    assert "worst rig: rig-a 90.0%" in text and "25 s classifier" in text
    assert any(line.startswith("rig-a") and "d6" in line and "90.0%" in line for line in lines)
    assert any(line.startswith("rig-a") and "100.0%" in line and "90.0%" in line
               for line in lines if "frames" not in line)


def test_kinds_whose_sure_readings_fail_on_an_unseen_rig_are_always_checked() -> None:
    def crops(sure_wrong: float | None) -> dict:
        row = {"dice": 10, "value_right": 90.0, "sure": 50.0, "sure_wrong": sure_wrong}
        return {"crops": {"d6": row, "d20": {**row, "sure_wrong": 0.0}, "all": row,
                          "bare_surface": {"crops": 0, "read_as_sure_die": 0}}}

    folds = {"a": {"a": crops(0.0), "frames": {}}, "b": {"b": crops(20.0), "frames": {}}}
    checked = crossrig.checked_kinds(folds)
    assert checked["d6"] == pytest.approx(0.8)  # the worst rig decides
    assert "d20" not in checked  # right whenever sure on every rig
    assert checked["d12"] is None and checked["d%"] is None  # no fold measured them
