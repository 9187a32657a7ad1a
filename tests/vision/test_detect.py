"""The learned dice detector: its model file and card, the pure arithmetic that turns the
network's heatmap into boxes, the hand check, and what it finds on rendered trays."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from model_copies import model_with_card

from vision.detect import (
    BIG_DIE,
    DEFAULT_DETECTOR,
    OVERLAP,
    SIZED,
    SIZED_AMONG,
    SIZED_SIDE,
    SMALLEST,
    Detection,
    Detector,
    at_border,
    iou,
    matched,
    pairs,
    skin_hand,
)
from vision.errors import ModelError
from vision.model_file import file_sha256
from vision.reader import load_image
from vision.samples import sample_frames
from vision.train.render import render_tray
from vision.train.scenes import DIAMETER

# Rendered trays of seeds no test or sample uses, 8 to 12 dice each. Figures pooled over 40: a
# tray's figure swings (one in 200 lost 7 of its 10 dice), and over 200 other trays (seeds 40000
# on) resampled 40 at a time, each bar below fails about one draw in a thousand or less.
TRAYS = 40
SKIN = (120, 150, 210)  # BGR of a light skin tone


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


@pytest.fixture
def rules(tmp_path: Path) -> Detector:
    """The shipped detector with a card of known figures, for the arithmetic of its peaks."""
    def known(card: dict) -> None:
        card.update(threshold=0.5, floor=0.1)
        card["input"].update(stride=4, side=512, scales=[1.0, 0.5, 0.25])

    return Detector(model_with_card(tmp_path, known, DEFAULT_DETECTOR))


def one_scale(detector: Detector, heat: np.ndarray, size: np.ndarray, offset: np.ndarray,
              scale: float, shape: tuple[int, ...], at_least: int = 0) -> list:
    """One scale's network outputs as the detector's boxes: its candidates, then its selection."""
    return detector.select(detector.candidates(heat, size, offset, scale, shape), at_least)


@pytest.fixture(scope="module")
def trays() -> list[tuple[np.ndarray, list[tuple[int, int, int, int]]]]:
    out = []
    for k in range(TRAYS):
        image, dice = render_tray(8 + k % 5, seed=31000 + k)
        out.append((image, [d[2] for d in dice]))
    return out


@pytest.fixture(scope="module")
def found(detector: Detector, trays: list) -> list[list[tuple[int, int, int, int]]]:
    """The boxes the detector finds on each tray, untold: detected once for the tests below."""
    return [[d.box for d in detector(image).dice] for image, _ in trays]


def test_the_shipped_detector_loads_with_its_card(detector: Detector) -> None:
    card = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    assert card["sha256"] == file_sha256(DEFAULT_DETECTOR)
    assert detector.side == card["input"]["side"] > 0
    assert detector.multiple % detector.stride == 0
    assert 0 < detector.floor <= detector.threshold < 1


def test_missing_or_corrupt_detector_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        Detector(tmp_path / "nothing.onnx")
    cut = tmp_path / "cut" / "detector.onnx"
    cut.parent.mkdir()
    cut.write_bytes(DEFAULT_DETECTOR.read_bytes()[:4000])
    shutil.copy(DEFAULT_DETECTOR.with_suffix(".json"), cut.with_suffix(".json"))
    with pytest.raises(ModelError, match="does not match"):
        Detector(cut)
    garbage = tmp_path / "detector.onnx"
    garbage.write_bytes(b"not an onnx graph" * 20)
    card = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    (tmp_path / "detector.json").write_text(json.dumps({**card, "sha256": file_sha256(garbage)}))
    with pytest.raises(ModelError, match="cannot load"):
        Detector(garbage)


@pytest.mark.parametrize("key", ["threshold", "floor", "input"])
def test_a_card_lacking_a_key_is_a_model_error(tmp_path: Path, key: str) -> None:
    with pytest.raises(ModelError, match="lacks"):
        Detector(model_with_card(tmp_path, lambda card: card.pop(key), DEFAULT_DETECTOR))


def test_a_card_lacking_its_scales_is_a_model_error(tmp_path: Path) -> None:
    """The scales a frame is read at are the card's to say, never a guess."""
    with pytest.raises(ModelError, match="scales"):
        Detector(model_with_card(tmp_path, lambda c: c["input"].pop("scales"), DEFAULT_DETECTOR))


def test_a_classifier_is_not_a_detector(tmp_path: Path) -> None:
    """The dice classifier's card names no detector figures: refused, not run."""
    with pytest.raises(ModelError, match="lacks"):
        Detector(model_with_card(tmp_path))


@pytest.mark.parametrize(
    "frame",
    [np.zeros((40, 40), np.uint8), np.zeros((40, 40, 4), np.uint8), np.zeros((0, 0, 3), np.uint8)],
)
def test_not_a_bgr_frame_is_a_value_error(detector: Detector, frame: np.ndarray) -> None:
    with pytest.raises(ValueError, match="BGR"):
        detector(frame)


def _outputs(peaks: dict[tuple[int, int], float], shape: tuple[int, int] = (30, 40),
             size: tuple[float, float] = (20.0, 16.0), offset: tuple[float, float] = (0.5, 0.25)):
    """A network's outputs with these peaks (cell -> score), every cell's box `size` input pixels
    and centre `offset` into its cell."""
    heat = np.zeros(shape, np.float32)
    for (y, x), score in peaks.items():
        heat[y, x] = score
    sizes = np.empty((2, *shape), np.float32)
    sizes[0], sizes[1] = size
    offsets = np.empty((2, *shape), np.float32)
    offsets[0], offsets[1] = offset
    return heat, sizes, offsets


def test_peaks_over_the_threshold_become_boxes_in_frame_pixels(rules: Detector) -> None:
    """A peak in cell (y, x) is a box centred at ((x + dx) * stride, (y + dy) * stride) input
    pixels, of the cell's size; the frame was brought to the input at `scale`, so frame pixels
    are those over `scale`. Strongest first; a peak under the threshold is no die."""
    heat, size, offset = _outputs({(5, 6): 0.9, (15, 20): 0.6, (10, 28): 0.3})
    found = one_scale(rules, heat, size, offset, 0.5, (240, 320, 3))
    # cell (5, 6): centre (6.5 * 4 / 0.5, 5.25 * 4 / 0.5) = (52, 42), size (40, 32)
    assert found == [((32, 26, 72, 58), pytest.approx(0.9)),
                     ((144, 106, 184, 138), pytest.approx(0.6))]


def test_a_peak_boxed_smaller_than_any_die_the_detector_learnt_is_no_die(rules: Detector) -> None:
    """A peak boxed under SMALLEST input pixels across both ways is dropped however strong
    (a spotted cloth's spots, boxed 5-6 px there); one that long either way is kept, at any
    scale of the frame."""
    for scale in (1.0, 0.4):
        for size, kept in (((SMALLEST - 1, SMALLEST - 2), False), ((SMALLEST, 3.0), True),
                           ((3.0, SMALLEST + 1), True)):
            heat, sizes, offset = _outputs({(5, 6): 0.9}, size=size)
            found = one_scale(rules, heat, sizes, offset, scale, (240, 320, 3))
            assert bool(found) == kept, (scale, size)
    # the bar stays under the smallest die the detector's scenes draw, whatever they draw next
    assert SMALLEST < DIAMETER[0]


def test_boxes_are_clipped_to_the_frame(rules: Detector) -> None:
    heat, size, offset = _outputs({(0, 0): 0.9, (29, 39): 0.8})
    found = [box for box, _ in one_scale(rules, heat, size, offset, 0.5, (236, 316, 3))]
    assert found == [(0, 0, 24, 18), (296, 218, 316, 236)]


def test_at_least_takes_weaker_peaks_down_to_the_floor(rules: Detector) -> None:
    """Told how many dice were rolled, the strongest peaks under the threshold are taken too,
    never one under the floor, and never fewer than those over the threshold."""
    heat, size, offset = _outputs({(5, 6): 0.9, (15, 20): 0.3, (25, 5): 0.2, (20, 35): 0.05})
    scores = [[s for _, s in one_scale(rules, heat, size, offset, 1.0, (120, 160, 3), n)]
              for n in (0, 1, 2, 3, 9)]
    assert scores == [[pytest.approx(0.9)], [pytest.approx(0.9)],
                      [pytest.approx(v) for v in (0.9, 0.3)],
                      [pytest.approx(v) for v in (0.9, 0.3, 0.2)],
                      [pytest.approx(v) for v in (0.9, 0.3, 0.2)]]


def test_a_frame_is_read_at_each_scale_but_never_enlarged(rules: Detector) -> None:
    """The card's scales of its side, each no larger than the frame, each once: a tray frame at
    three sizes, a small photo as it is and halved, a crop smaller than every scale as it is."""
    assert rules.levels(np.zeros((960, 1280, 3), np.uint8)) == [512, 256, 128]
    assert rules.levels(np.zeros((256, 200, 3), np.uint8)) == [256, 128]
    assert rules.levels(np.zeros((90, 120, 3), np.uint8)) == [120]


def test_each_scales_input_is_the_frame_shrunk_and_padded_to_the_stride(rules: Detector) -> None:
    """Each level's batch holds the frame at that size (shrunk from the level before), padded
    with zeros to a multiple of the network's stride, with the scale from frame to input."""
    frame = np.full((300, 500, 3), 200, np.uint8)
    got = list(rules.inputs(frame))
    assert [(b.shape, s) for b, s in got] == [((1, 3, 320, 512), 1.0), ((1, 3, 160, 256), 0.512),
                                             ((1, 3, 96, 128), 0.256)]
    for batch, scale in got:  # the picture, then zeros right and below it
        h, w = round(300 * scale), round(500 * scale)
        assert np.allclose(batch[0, :, :h, :w], 200, atol=1) and not batch[0, :, h:, :].any()
        assert not batch[0, :, :, w:].any()


def test_a_smaller_scale_answers_only_for_dice_too_big_for_the_one_before(
    rules: Detector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A close photo's die outgrows what the network learnt at the full scale, where it boxes a
    mark on it; at the half scale the die is in reach. A smaller scale's box counts only when it
    is BIG_DIE input pixels or more at the scale before (its small boxes are that scale's)."""
    frame = np.zeros((256, 256, 3), np.uint8)  # read at 256 (scale 1) and 128 (scale 0.5)
    big = BIG_DIE / 0.5 + 8  # input pixels at the half scale: a die of 144 frame pixels
    by_width = {256: _outputs({(10, 10): 0.9}, (64, 64), size=(20.0, 20.0)),
                128: _outputs({(16, 16): 0.8, (4, 4): 0.7}, (32, 32), size=(big, big))}
    small = _outputs({(4, 4): 0.7}, (32, 32), size=(10.0, 10.0))[1]  # a mark at the half scale
    by_width[128][1][:, 4, 4] = small[:, 4, 4]

    class Levels:
        def run(self, _names, feed):
            heat, size, offset = by_width[feed[rules.input_name].shape[3]]
            return heat[None, None], size[None], offset[None]

    monkeypatch.setattr(rules, "session", Levels())
    sides = sorted(max(b[2] - b[0], b[3] - b[1]) for b, _ in rules.peaks(frame))
    assert sides == [20, 256]  # the full scale's mark and the half scale's die, not its mark
    # A die the full scale found whole (over the threshold) is no bigger die at the half scale:
    # its coarser box there, holding it, is the same die (HELD), read more weakly there.
    by_width[256] = _outputs({(32, 32): 0.9}, (64, 64), size=(140.0, 140.0))
    assert [max(b[2] - b[0], b[3] - b[1]) for b, _ in rules.peaks(frame)] == [140]
    # ... but a mark on the die, HELD of it or more, read more weakly than the whole die at the
    # half scale is the die's twin that goes
    by_width[256] = _outputs({(32, 32): 0.6}, (64, 64), size=(140.0, 140.0))
    assert [(max(b[2] - b[0], b[3] - b[1]), round(s, 2)) for b, s in rules.peaks(frame)] == [
        (256, 0.8)]


def test_overlapping_peaks_are_one_die(rules: Detector) -> None:
    """Two peaks whose boxes overlap by more than OVERLAP are one die (the stronger kept); a
    neighbour touching it is another die."""
    heat, size, offset = _outputs({(10, 10): 0.9, (10, 11): 0.7, (10, 15): 0.8},
                                  size=(20.0, 20.0))
    found = one_scale(rules, heat, size, offset, 1.0, (120, 160, 3))
    assert [s for _, s in found] == [pytest.approx(0.9), pytest.approx(0.8)]
    (first, _), (second, _) = found
    assert iou(first, second) <= OVERLAP
    assert iou(first, (36, 31, 56, 51)) > OVERLAP  # the dropped peak's box


def test_a_detection_says_which_dice_are_cut_how_long_they_are_and_their_size(
    rules: Detector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The boxes become DieBoxes in reading order (rows of a die's side, then left to right),
    cut when at the frame's border, with their elongation."""
    boxes = [((400, 300, 480, 380), 0.9), ((0, 100, 60, 160), 0.8), ((100, 90, 160, 190), 0.7)]
    monkeypatch.setattr(rules, "peaks", lambda frame: boxes)
    found = rules(np.full((480, 640, 3), 90, np.uint8))
    assert isinstance(found, Detection)
    assert [d.box for d in found.dice] == [(0, 100, 60, 160), (100, 90, 160, 190),
                                           (400, 300, 480, 380)]
    assert [d.cut for d in found.dice] == [True, False, False]
    assert [d.elongation for d in found.dice] == pytest.approx([1.0, 100 / 60, 1.0])
    assert found.spare == ()
    monkeypatch.setattr(rules, "peaks", lambda frame: [])
    assert rules(np.full((480, 640, 3), 90, np.uint8)) == Detection(())


def test_weaker_boxes_are_kept_aside_when_asked_for(
    rules: Detector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the threshold (0.5 here), the strongest peaks that do not overlap a die found are
    kept aside, strongest first, as many as asked; they never join the dice found."""
    peaks = [((400, 300, 480, 380), 0.9), ((402, 302, 482, 382), 0.45),  # the same die again
             ((100, 90, 160, 150), 0.3), ((200, 90, 260, 150), 0.4), ((300, 90, 360, 150), 0.2)]
    monkeypatch.setattr(rules, "peaks", lambda frame: peaks)
    frame = np.full((480, 640, 3), 90, np.uint8)
    found = rules(frame, spare=2)
    assert [d.box for d in found.dice] == [(400, 300, 480, 380)]
    assert [d.box for d in found.spare] == [(200, 90, 260, 150), (100, 90, 160, 150)]
    found = rules(frame, at_least=2, spare=5)
    assert [d.box for d in found.dice] == [(200, 90, 260, 150), (400, 300, 480, 380)]
    assert [d.box for d in found.spare] == [(100, 90, 160, 150), (300, 90, 360, 150)]


def test_a_weaker_peak_the_size_of_a_rolls_dice_is_a_die(
    rules: Detector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where SIZED_AMONG dice cleared the threshold, a weaker peak down to SIZED about their size
    (within SIZED_SIDE of their median side either way) is a die too, unless it lies in one of
    them; a small one (a pip, a spot) or a big one (a tray's corner) is not, nor one under
    SIZED; with fewer dice over the threshold, none."""
    assert SIZED < rules.threshold and 0.5 < SIZED_SIDE < 0.9
    roll = [((100 * i, 0, 100 * i + 60 + i % 2 * 2, 60), 0.9 - 0.01 * i)
            for i in range(SIZED_AMONG)]  # a roll's dice, 60-62 px: their median side 60
    weak = [((0, 300, 60, 360), SIZED + 0.05),  # a die, scored low
            ((100, 300, 100 + round(60 * SIZED_SIDE) - 2, 340), SIZED + 0.08),  # too small
            ((10, 10, 58, 58), SIZED + 0.06),  # inside the first die
            ((200, 100, 200 + round(60 / SIZED_SIDE) + 4, 200), SIZED + 0.07),  # too big
            ((300, 300, 360, 360), SIZED - 0.05)]  # under SIZED
    frame = np.full((480, 640, 3), 90, np.uint8)
    monkeypatch.setattr(rules, "peaks", lambda frame: [*roll, *weak])
    assert sorted(d.box for d in rules(frame).dice) == sorted(
        [box for box, _ in roll] + [(0, 300, 60, 360)])
    monkeypatch.setattr(rules, "peaks", lambda frame: [*roll[:SIZED_AMONG - 1], *weak])
    assert sorted(d.box for d in rules(frame).dice) == sorted(
        box for box, _ in roll[:SIZED_AMONG - 1])


def test_at_border_of_scalars_and_arrays() -> None:
    assert at_border(0, 50, 10, 10, (100, 200))
    assert at_border(150, 50, 50, 10, (100, 200))  # reaches the right edge
    assert not at_border(50, 50, 10, 10, (100, 200))
    xs = np.array([0, 50, 190])
    assert at_border(xs, np.full(3, 40), np.full(3, 10), np.full(3, 10), (100, 200)).tolist() == [
        True, False, True]


def test_iou_arithmetic() -> None:
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (20, 0, 30, 10)) == 0.0
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    assert iou((0, 0, 10, 10), (2, 2, 8, 8)) == pytest.approx(36 / 100)
    assert iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0  # no area: no overlap, no division by zero


def test_found_boxes_pair_one_to_one_with_true_dice_best_first() -> None:
    truth = [(0, 0, 10, 10), (20, 0, 30, 10)]
    found = [(1, 0, 11, 10), (0, 0, 10, 10), (40, 40, 50, 50), (24, 0, 34, 10)]
    # the exact box takes the first die; the shifted one is left over, and a box half off the
    # second die (IoU 0.43) is no match
    assert pairs(found, truth) == [(1, 0)]
    assert matched(found, truth) == 1
    assert pairs([(21, 0, 31, 10), *found], truth) == [(2, 0), (0, 1)]
    assert pairs([], truth) == [] and matched(found, []) == 0


def _table(colour: tuple[int, int, int] = (60, 90, 40)) -> np.ndarray:
    frame = np.full((480, 640, 3), colour, np.uint8)
    for x, y in ((100, 100), (300, 200), (500, 350)):  # dice: white, blue, red
        cv2.rectangle(frame, (x, y), (x + 45, y + 45), (230, 230, 230), -1)
    cv2.rectangle(frame, (400, 80), (445, 125), (200, 60, 40), -1)
    cv2.rectangle(frame, (200, 350), (245, 395), (40, 40, 200), -1)
    return frame


def test_a_hand_over_the_tray_is_seen_by_its_skin() -> None:
    table = _table()
    assert not skin_hand(table)
    hand = table.copy()
    # a forearm reaching in from the bottom edge with a palm at its end
    cv2.rectangle(hand, (280, 350), (360, 480), SKIN, -1)
    cv2.ellipse(hand, (320, 320), (75, 60), 0, 0, 360, SKIN, -1)
    assert skin_hand(hand)
    fingertip = table.copy()
    cv2.circle(fingertip, (320, 240), 12, SKIN, -1)  # a skin-coloured die or token: no hand
    assert not skin_hand(fingertip)
    assert not skin_hand(np.full((480, 640, 3), SKIN, np.uint8))  # a table the colour of skin


def test_trays_without_a_hand_show_none(trays: list) -> None:
    """The bundled demo trays (replayed by `make run`: a frame taken for a hand never settles)
    show no hand, and hardly any rendered tray does (a wood table's grain is near skin's colour:
    33 of 700 other seeds, 4.7%, so one in five is the bar over TRAYS)."""
    assert [p.name for p in sample_frames() if skin_hand(load_image(p))] == []
    hands = sum(skin_hand(image) for image, _ in trays)
    assert hands <= TRAYS // 5, f"{hands} of {TRAYS} rendered trays taken for a hand"


def test_rendered_trays_dice_are_found_pooled(trays: list, found: list) -> None:
    """Recall and precision (IoU >= 0.5) pooled over TRAYS renders, so no single tray decides
    (200 other trays: 96.0% and 97.8%); a whole tray is never a die (no box near its size)."""
    tp = boxes = total = 0
    for (image, truth), kept in zip(trays, found, strict=True):
        tp, boxes, total = tp + matched(kept, truth), boxes + len(kept), total + len(truth)
        assert all(max(b[2] - b[0], b[3] - b[1]) < 0.4 * min(image.shape[:2]) for b in kept)
    assert tp / total >= 0.9, f"recall {tp / total:.3f} ({tp} of {total})"
    assert tp / max(1, boxes) >= 0.9, f"precision {tp / max(1, boxes):.3f} ({tp} of {boxes})"


def test_told_how_many_were_rolled_it_finds_them_all_pooled(
    detector: Detector, trays: list, found: list
) -> None:
    """With `at_least` the number of dice rolled, recall pooled over the trays rises to at least
    what it was without (200 other trays: 96.0% -> 98.0%, so 94% is the bar over TRAYS)."""
    told = plain = total = 0
    for (image, truth), kept in zip(trays, found, strict=True):
        told += matched([d.box for d in detector(image, at_least=len(truth)).dice], truth)
        plain += matched(kept, truth)
        total += len(truth)
    assert told >= plain and told / total >= 0.94, f"recall told {told / total:.3f} ({plain})"


def test_boxes_are_in_pixels_of_the_frame_given(detector: Detector, trays: list) -> None:
    """The same trays at half size give the same dice at half the coordinates (pooled over
    TRAYS: 200 other trays 96.0%)."""
    tp = total = 0
    for image, truth in trays:
        small = cv2.resize(image, (640, 480), interpolation=cv2.INTER_AREA)
        half = [tuple(v / 2 for v in box) for box in truth]
        tp += matched([d.box for d in detector(small).dice], half)
        total += len(truth)
    assert tp / total >= 0.9, f"recall at half size {tp / total:.3f} ({tp} of {total})"


def test_empty_trays_show_no_dice_pooled(detector: Detector) -> None:
    boxes = sum(len(detector(render_tray(0, seed=32000 + k)[0]).dice) for k in range(10))
    assert boxes <= 2, f"{boxes} boxes on 10 empty trays"
