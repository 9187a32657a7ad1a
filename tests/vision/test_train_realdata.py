"""Real-photo handling: locating the single die, splits by sequence, the datasets path."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.crops import CROP_MARGIN
from vision.train.data import photo_frames
from vision.train.detector_frames import (
    BENCH_PHOTOS,
    NEAR,
    ONE_DIE_PHOTOS,
    rig_photos,
    training_photos,
)
from vision.train.realdata import (
    HELD_OUT_SEQUENCES,
    Photo,
    datasets_root,
    dice_together,
    die_alpha,
    die_sprite,
    is_held_out,
    load_photos,
    load_table_photos,
    locate_die,
    real_crop,
    seen_level,
    varied,
)
from vision.train.render import DieSpec, paste, render_die


def _iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


@pytest.mark.parametrize(
    ("seed", "surface"), [(1, (230, 230, 225)), (2, (60, 120, 40)), (3, (90, 140, 200))]
)
def test_locate_die_finds_a_die_on_a_plain_surface(seed: int, surface: tuple) -> None:
    rng = np.random.default_rng(seed)
    scene = np.empty((256, 256, 3), np.float32)
    scene[:] = surface
    scene += rng.normal(0, 3, scene.shape).astype(np.float32)
    sprite = render_die(DieSpec("d8", 3, 90, 0.5, 10.0, 0.0), rng)
    truth = paste(scene, sprite, 150, 110)
    box = locate_die(np.clip(scene, 0, 255).astype(np.uint8))
    assert _iou(box, truth) > 0.7, (box, truth)


def test_die_alpha_cuts_the_die_out_of_its_crop() -> None:
    rng = np.random.default_rng(4)
    scene = np.full((96, 96, 3), (60, 120, 40), np.float32)
    sprite = render_die(DieSpec("d20", 7, 60, 0.2, 5.0, 0.0), rng)
    paste(scene, sprite, 48, 48)
    crop = np.clip(scene, 0, 255).astype(np.uint8)
    alpha = die_alpha(crop)
    assert alpha is not None
    truth = np.zeros((96, 96), bool)
    h, w = sprite.alpha.shape
    y0, x0 = 48 - h // 2, 48 - w // 2
    truth[y0 : y0 + h, x0 : x0 + w] = sprite.alpha > 0.5
    cut = alpha > 0.5
    assert (cut & truth).sum() / (cut | truth).sum() > 0.9


def test_die_alpha_refuses_a_crop_with_no_die() -> None:
    assert die_alpha(np.full((96, 96, 3), 128, np.uint8)) is None


def test_datasets_root_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ROLLSCRIBE_DATASETS", str(tmp_path))
    assert datasets_root() == tmp_path
    monkeypatch.delenv("ROLLSCRIBE_DATASETS")
    assert datasets_root().parts[-2:] == ("shared", "datasets")


def test_held_out_is_by_whole_sequence() -> None:
    seq = next(iter(HELD_OUT_SEQUENCES))
    assert is_held_out(Photo(Path("x.jpg"), "d4", 1, seq, "any run", True))
    assert not is_held_out(Photo(Path("x.jpg"), "d4", 1, "d4_wood", "any run", True))


@pytest.mark.skipif(
    not (datasets_root() / "ucffool" / "labels.csv").exists(), reason="shared datasets not present"
)
def test_every_kind_keeps_training_and_held_out_photos() -> None:
    photos = load_photos()
    for kind in ("d4", "d6", "d8", "d10", "d20"):
        mine = [p for p in photos if p.kind == kind]
        held = {p.sequence for p in mine if is_held_out(p)}
        kept = {p.sequence for p in mine if not is_held_out(p)}
        assert held and kept and not held & kept


def test_only_runs_showing_many_values_count_as_varied() -> None:
    def photo(run: str, value: int) -> Photo:
        return Photo(Path(f"{run}-{value}.jpg"), "d8", value, "seq", run, True)

    turntable = [photo("blue die", 7)] * 5 + [photo("blue die", 3)]
    rerolled = [photo("rolled", v) for v in (1, 2, 3, 2)]
    same_note_other_sequence = Photo(Path("x.jpg"), "d8", 5, "other", "rolled", True)
    flags = varied([*turntable, *rerolled, same_note_other_sequence])
    assert flags.tolist() == [False] * 6 + [True] * 4 + [False]


def test_only_the_shared_photos_d4s_are_kept_level_in_training() -> None:
    """Side views by a level camera keep their up (the d4's upright numeral is its value); the
    other kinds turn freely, and a table's own photos are taken from above."""
    def photo(kind: str, sequence: str) -> Photo:
        return Photo(Path("x.jpg"), kind, 1, sequence, "", True)

    assert seen_level(photo("d4", "d4_wood"))
    assert not seen_level(photo("d20", "d20_wood"))
    assert not seen_level(photo("d4", "table:kitchen:game-1"))


def _table_folder(folder: Path, rows: list[str]) -> Path:
    folder.mkdir()
    (folder / "labels.csv").write_text(
        "path,die,top_value,how,confidence,sequence\n" + "\n".join(rows) + "\n"
    )
    return folder


def test_table_photos_keep_only_what_players_looked_at(tmp_path: Path) -> None:
    folder = _table_folder(tmp_path / "kitchen", [
        "crops/a.jpg,d20,17,corrected,1.0000,game-3",
        "crops/b.jpg,d20,4,checked,0.6100,game-3",
        "crops/c.jpg,d6,2,read,0.9900,game-3",  # nobody looked: not a label
        "crops/d.jpg,monster,claw,checked,0.9000,game-3",  # a custom die: taught, not trained
        "crops/e.jpg,d8,9,checked,0.5000,game-4",  # a d8 has no 9
    ])
    photos = load_table_photos([folder])
    assert [(p.path.name, p.kind, p.value, p.sequence) for p in photos] == [
        ("a.jpg", "d20", 17, "table:kitchen:game-3"), ("b.jpg", "d20", 4, "table:kitchen:game-3")]
    assert all(p.measurable for p in photos)
    with pytest.raises(FileNotFoundError, match="rollscribe photos"):
        load_table_photos([tmp_path / "nowhere"])


def test_table_photos_are_held_out_by_whole_game() -> None:
    def photo(game: int, value: int) -> Photo:
        return Photo(Path(f"{game}-{value}.jpg"), "d20", value, f"table:t:game-{game}", "x", True)

    held = [g for g in range(200) if is_held_out(photo(g, 1))]
    assert 0.1 < len(held) / 200 < 0.3  # about one game in five
    assert all(is_held_out(photo(g, v)) for g in held for v in range(1, 21))


def test_a_table_photo_is_already_a_crop(tmp_path: Path) -> None:
    """The table keeps each die cut with the crop convention; training only resizes it."""
    import cv2

    crop = np.zeros((128, 128, 3), np.uint8)
    crop[32:96, 32:96] = (40, 90, 200)
    cv2.imwrite(str(tmp_path / "c.png"), crop)
    out = real_crop(Photo(tmp_path / "c.png", "d6", 3, "table:t:game-1", "x", True), 96)
    assert np.abs(out.astype(int) - cv2.resize(crop, (96, 96), interpolation=cv2.INTER_AREA)).max() <= 1


def test_a_photos_die_is_cut_out_to_be_set_on_another_table(tmp_path) -> None:
    image = np.full((200, 240, 3), (60, 110, 40), np.uint8)  # a green table
    cv2.circle(image, (120, 100), 40, (30, 30, 200), -1)  # a red die 80 px across
    cv2.putText(image, "4", (108, 114), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (255, 255, 255), 3)
    path = tmp_path / "die.png"
    cv2.imwrite(str(path), image)
    sprite = die_sprite(Photo(path, "d6", 4, "seq", "", True), 110)
    assert sprite is not None and (sprite.kind, sprite.value) == ("d6", 4)
    side = round(110 * CROP_MARGIN)  # the die 110 px across, with the crop's margin around it
    assert sprite.alpha.shape == (side, side) and sprite.rgb.shape == (side, side, 3)
    # the die's disc (white numeral included) is kept, the table left out
    assert sprite.alpha[side // 2, side // 2] > 0.95 and sprite.alpha[2, 2] < 0.05
    assert 0.35 < (sprite.alpha > 0.5).mean() < 0.6  # pi/4 of (1/1.3)^2 = 0.46
    red = sprite.rgb[side // 2 - 30, side // 2] / sprite.alpha[side // 2 - 30, side // 2]
    assert red[2] > 150 and red[1] < 80
    cv2.imwrite(str(path), np.full((200, 240, 3), 90, np.uint8))  # no die: nothing to cut out
    assert die_sprite(Photo(path, "d6", 4, "seq", "", True), 110) is None
    with pytest.raises(OSError, match="cannot read"):
        die_sprite(Photo(tmp_path / "missing.jpg", "d6", 4, "seq", "", True), 110)


def _disc_photo(path: Path, colour: tuple[int, int, int]) -> Path:
    image = np.full((200, 240, 3), (60, 110, 40), np.uint8)
    cv2.circle(image, (120, 100), 40, colour, -1)
    cv2.imwrite(str(path), image)
    return path


def test_real_dice_are_set_apart_together_on_a_table(tmp_path) -> None:
    photos = [
        Photo(_disc_photo(tmp_path / f"{i}.png", colour), kind, value, "seq", "", True)
        for i, (colour, kind, value) in enumerate(
            [((30, 30, 200), "d6", 4), ((200, 60, 30), "d20", 17), ((40, 200, 230), "d8", 3)]
        )
    ]
    photo, dice = dice_together(np.random.default_rng(3), photos, 4)
    assert photo.shape == (480, 480, 3) and photo.dtype == np.uint8
    assert len(dice) == 4 and {(k, v) for k, v, _ in dice} <= {(p.kind, p.value) for p in photos}
    for i, (_, _, box) in enumerate(dice):
        assert 0 <= box[0] < box[2] <= 480 and 0 <= box[1] < box[3] <= 480
        assert 0.85 * 110 - 4 <= box[2] - box[0] <= 1.15 * 110 + 4  # the die, about 110 px
        assert all(_iou(box, other) == 0 for _, _, other in dice[i + 1:])  # apart
    with pytest.raises(ValueError, match="at most 4"):
        dice_together(np.random.default_rng(3), photos, 5)
    blank = [Photo(_disc_photo(tmp_path / "blank.png", (60, 110, 40)), "d6", 1, "s", "", True)]
    with pytest.raises(ValueError, match="no die could be cut out"):
        dice_together(np.random.default_rng(3), blank, 2)


@pytest.mark.skipif(
    not (datasets_root() / "ucffool" / "labels.csv").exists(), reason="shared datasets not present"
)
def test_one_die_photos_become_detector_frames_framed_as_they_are_and_tagged_by_rig() -> None:
    """A fold leaves a rig's photo frames out by their tag; each frame is the photo itself (not
    brought to a tray's size) with its one die's box inside it."""
    frames = photo_frames(3)
    rigs = [rig for _, rig in frames]
    assert "nell-byler-trays" not in rigs  # its trays are real scenes already
    assert "skovy-webcam" not in rigs  # every skovy crop is held out: the benches read them
    assert {"ucffool-angle", "ucffool-colour", "ucffool-top", "ucffool-wood"} <= set(rigs)
    for (image, boxes, labels), _ in frames:
        assert max(image.shape[:2]) <= 256 and boxes.shape == (1, 4) and len(labels) == 1
        x0, y0, x1, y1 = boxes[0]
        assert 0 <= x0 < x1 <= image.shape[1] and 0 <= y0 < y1 <= image.shape[0]


@pytest.mark.skipif(
    not (datasets_root() / "ucffool" / "labels.csv").exists(), reason="shared datasets not present"
)
def test_the_detector_trains_on_no_photo_a_bench_reads_nor_on_a_near_twin() -> None:
    """bench/detector_rigs_bench.py reads rig_photos(BENCH_PHOTOS), the reader's benches
    rig_photos(ONE_DIE_PHOTOS) and the held-out runs; a model trained on those (or their
    turntable neighbours) would be judged on frames it learnt."""
    benches = rig_photos(BENCH_PHOTOS), rig_photos(ONE_DIE_PHOTOS)
    every = rig_photos(1_000_000)  # in run order
    trained = training_photos(300)
    assert set(trained) == set(benches[0])
    for rig, photos in trained.items():
        order = {p.path: i for i, p in enumerate(every[rig])}
        benched = {order[p.path] for bench in benches for p in bench[rig]}
        assert all(min(abs(order[p.path] - b) for b in benched) > NEAR for p in photos)
        assert not any(is_held_out(p) for p in photos)  # the reader's benches read those
    assert all(len(trained[rig]) == 300 for rig in trained if rig.startswith("ucffool"))
