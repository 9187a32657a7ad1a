"""Pips counted on drawn d6 faces (vision.pips), and what the count does to the classifier's
odds."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.classify import Classifier, FaceReading
from vision.pips import DECIDED, FACES, SETTLING_FACES, SIDE, PipCount, count_pips, weigh
from vision.reader import die_value


def drawn_face(value: int, turn: float, body: tuple[int, int, int], pip: tuple[int, int, int],
               squash: float = 1.0) -> np.ndarray:
    """A square crop of one d6 seen from above on a grey tray: its face `turn` degrees round and
    `squash` times as high as wide (seen a little from the side), pips of colour `pip`."""
    crop = np.full((SIDE, SIDE, 3), (150, 155, 160), np.uint8)
    side = SIDE / 1.3  # vision.crops frames a die 1.3 times its side
    spin = np.deg2rad(turn)
    rotate = np.array([[np.cos(spin), -np.sin(spin)], [np.sin(spin), np.cos(spin)]])
    squeeze = np.diag([1.0, squash])

    def place(points: np.ndarray) -> np.ndarray:
        return points @ rotate.T @ squeeze.T + SIDE / 2

    corners = place(np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * side / 2)
    cv2.fillPoly(crop, [np.round(corners).astype(np.int32)], body, cv2.LINE_AA)
    spacing = 0.27 * side
    for x, y in place(FACES[value] * spacing):
        cv2.circle(crop, (round(x), round(y)), round(0.09 * side), pip, -1, cv2.LINE_AA)
    return crop


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize(("turn", "body", "pip"), [
    (0.0, (245, 245, 245), (20, 20, 20)),  # black pips on white
    (20.0, (40, 40, 200), (250, 250, 250)),  # white pips on red
    (55.0, (60, 150, 40), (30, 30, 220)),  # red pips on green: a colour, not a lightness
])
def test_each_face_is_counted_whatever_its_turn_and_colours(value, turn, body, pip):
    count = count_pips(drawn_face(value, turn, body, pip))
    assert count.best == value
    assert value in count.fits


def test_a_face_seen_a_little_from_the_side_is_counted():
    for value in range(1, 7):
        squashed = drawn_face(value, 30.0, (230, 230, 230), (30, 30, 30), 0.75)
        assert count_pips(squashed).best == value


def test_a_bare_die_has_no_pips_to_count():
    bare = drawn_face(1, 10.0, (200, 200, 200), (200, 200, 200))
    assert count_pips(bare) == PipCount(None, frozenset())


def test_a_larger_crop_is_read_at_the_counters_side():
    big = cv2.resize(drawn_face(5, 10.0, (240, 240, 240), (20, 20, 20)), (300, 300))
    assert count_pips(big).best == 5


FACES_1_TO_6 = (1, 2, 3, 4, 5, 6)


def test_the_counted_face_wins_where_the_classifier_doubted():
    doubtful = np.array([0.05, 0.40, 0.05, 0.35, 0.10, 0.05])  # a 2, nearly a 4
    weighed = weigh(FACES_1_TO_6, doubtful, PipCount(4, frozenset({1, 2, 4})))
    assert FACES_1_TO_6[int(np.argmax(weighed))] == 4
    assert weighed.sum() == pytest.approx(1.0)


def test_a_sure_classifier_outweighs_a_count_its_face_also_fits():
    sure = np.array([0.01, 0.01, 0.01, 0.01, 0.01, 0.95])  # a 6, whose corners fit a 4
    weighed = weigh(FACES_1_TO_6, sure, PipCount(4, frozenset({2, 4, 6})))
    assert FACES_1_TO_6[int(np.argmax(weighed))] == 6


def test_a_face_no_pips_fit_loses_to_one_they_do():
    split = np.array([0.02, 0.02, 0.46, 0.02, 0.46, 0.02])
    weighed = weigh(FACES_1_TO_6, split, PipCount(1, frozenset({1, 5})))
    assert FACES_1_TO_6[int(np.argmax(weighed))] == 5


def test_nothing_counted_changes_nothing():
    p = np.array([0.1, 0.2, 0.3, 0.2, 0.1, 0.1])
    assert weigh(FACES_1_TO_6, p, PipCount(None, frozenset())) == pytest.approx(p)


def test_the_reader_weighs_a_pipped_d6_by_its_pips():
    """vision.reader.die_value with the shipped classifier's faces: a d6 with no numeral read
    that the classifier leans to 2, in a crop that shows four pips, is read 4, its confidence
    the weighed share."""
    clf = Classifier(threads=1)
    logits = np.zeros(len(clf.value_labels), np.float32)
    faces = clf.faces("d6")
    leaning = {2: 2.0, 4: 1.8}
    for face, logit in leaning.items():
        logits[clf.value_labels.index(f"d6:{face}")] = logit
    before = clf.value_probabilities(logits, "d6")
    face = FaceReading("d6", 2, round(float(before[faces.index(2)]), 4), "flat",
                       np.zeros(8, np.float32))
    four = drawn_face(4, 15.0, (235, 235, 235), (25, 25, 25))
    valued = die_value(clf, face, None, four, logits)
    assert valued.value == 4
    after = weigh(faces, before, count_pips(four))
    assert valued.confidence == pytest.approx(float(after.max()), abs=1e-3)
    # the classifier's doubt stays: a weighed 4 under SURE_WEIGHED is not settled by its pips
    assert valued.why == "low confidence" and not valued.settled


def classifier_sure_of(clf: Classifier, value: int, p: float) -> tuple[FaceReading, np.ndarray]:
    """The shipped classifier's FaceReading and value logits for a d6 it reads as `value` at
    probability `p`, the rest spread evenly."""
    faces = clf.faces("d6")
    logits = np.full(len(clf.value_labels), -30.0, np.float32)
    rest = (1 - p) / (len(faces) - 1)
    for face in faces:
        logits[clf.value_labels.index(f"d6:{face}")] = np.log(p if face == value else rest)
    return FaceReading("d6", value, p, "flat", np.zeros(8, np.float32)), logits


@pytest.mark.parametrize("value", range(1, 7))
def test_pips_settle_a_sure_four_five_or_six_only(value):
    """A d6 the classifier reads surely, its pips counted alike: four to six pips settle it (no
    card check applies), a 1, 2 or 3 (a blob, a pair, a line: a numeral's strokes fit them
    too) never does."""
    clf = Classifier(threads=1)
    face, logits = classifier_sure_of(clf, value, 0.999)
    valued = die_value(clf, face, None, drawn_face(value, 25.0, (30, 30, 200), (245, 245, 245)),
                       logits)
    assert valued.value == value and valued.why == ""
    assert valued.settled == (value in SETTLING_FACES)


def test_pips_do_not_settle_a_count_the_classifier_doubts_or_denies():
    clf = Classifier(threads=1)
    five = drawn_face(5, 10.0, (240, 240, 240), (20, 20, 20))
    doubting, logits = classifier_sure_of(clf, 5, 0.9)  # weighed by the count: under 0.99
    assert not die_value(clf, doubting, None, five, logits).settled
    denying, logits = classifier_sure_of(clf, 6, 0.999)  # sure of a 6 the pips do not show
    valued = die_value(clf, denying, None, five, logits)
    assert valued.value == 6 and not valued.settled


@pytest.mark.parametrize(("top", "kept"), [(DECIDED + 0.002, True), (DECIDED - 0.002, False)])
def test_a_classifier_as_sure_as_decided_keeps_its_face_against_any_count(top, kept):
    """The reader skips counting above DECIDED: there no count can move the value, just below
    the strongest count against it does."""
    p = np.array([top, 1 - top, 0.0, 0.0, 0.0, 0.0])
    weighed = weigh(FACES_1_TO_6, p, PipCount(2, frozenset({2})))  # a 2, the 1 no fit
    assert (int(np.argmax(weighed)) == 0) == kept


def marbled_face(value: int, turn: float, seed: int) -> np.ndarray:
    """Red pips on a black die marbled with pale swirls (smooth noise of a fixed seed, light
    only), the kind of die whose swirls outshine its pips in the colour distance alone."""
    crop = drawn_face(value, turn, (35, 30, 30), (40, 40, 190))
    body = np.all(crop == (35, 30, 30), axis=2)
    noise = np.random.default_rng(seed).normal(size=crop.shape[:2]).astype(np.float32)
    field = cv2.GaussianBlur(noise, (0, 0), 5.0)
    swirls = np.clip(field / field.std(), 0, None) * 40.0
    marbled = crop.astype(np.float32)
    marbled[body] += swirls[body][:, None]
    return np.clip(marbled, 0, 255).astype(np.uint8)


def test_red_pips_on_a_marbled_black_die_are_counted():
    # 54 drawings (six faces, three turns, three marblings); the colour distance alone counted
    # 40 of them right, counting on redness too 53
    drawings = [(value, marbled_face(value, turn, seed)) for value in range(1, 7)
                for turn in (0.0, 20.0, 40.0) for seed in range(3)]
    right = sum(count_pips(crop).best == value for value, crop in drawings)
    assert right >= 50


def test_a_die_its_pips_settle_is_asked_where_its_kind_is_not_clear():
    """The kind bar of a die its numeral settles holds for pips too: a five counted and read
    surely, by a classifier that doubts it is a d6 at all, is asked for its kind."""
    clf = Classifier(threads=1)
    face, logits = classifier_sure_of(clf, 5, 0.999)
    doubted = replace(face, best_kind_p=0.8)
    valued = die_value(clf, doubted, None, drawn_face(5, 10.0, (240, 240, 240), (20, 20, 20)),
                       logits)
    assert valued.value == 5 and valued.settled
    assert valued.why == "kind not clear (d6 80%)"
    assert die_value(clf, face, None, drawn_face(5, 10.0, (240, 240, 240), (20, 20, 20)),
                     logits).why == ""
