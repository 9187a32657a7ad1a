"""The shipped ONNX classifier, through the runtime wrapper: readings, expectation, bad models."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from model_copies import model_with_card

from tests.short_of_goal import short_of_goal
from vision.classify import DEFAULT_MODEL, OUTPUTS, Classifier
from vision.detect import DEFAULT_DETECTOR
from vision.errors import ModelError
from vision.model_file import file_sha256
from vision.train.labels import KINDS, VALUE_LABELS
from vision.train.render import render_crop

PER_KIND = 16  # rendered crops of each kind read by the accuracy tests (seed 2024)


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier(DEFAULT_MODEL)


@pytest.fixture(scope="module")
def renders(classifier: Classifier) -> list:
    """PER_KIND renders of each kind, of a seed the training never drew."""
    rng = np.random.default_rng(2024)
    return [render_crop(rng, classifier.input_size, k) for k in KINDS for _ in range(PER_KIND)]


def test_card_matches_the_shipped_model() -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    assert card["sha256"] == file_sha256(DEFAULT_MODEL)
    assert card["kinds"] == list(KINDS) and card["values"] == list(VALUE_LABELS)
    assert card["states"][0] == "flat" and {"cocked", "empty"} <= set(card["states"])
    # the budget: both models the reader runs under 20 MB together
    assert DEFAULT_MODEL.stat().st_size + DEFAULT_DETECTOR.stat().st_size < 20_000_000


@short_of_goal("renders' values 56% right against 70%")
def test_rendered_dice_read_right_of_every_kind(
    classifier: Classifier, renders: list
) -> None:
    """Kind and value pooled over PER_KIND renders of each kind; each kind, the d% and the d10
    among them, told from the others on most of its renders."""
    readings = classifier.classify([r.image for r in renders])
    kind_right = [r.die == s.kind for r, s in zip(readings, renders, strict=True)]
    value_right = [(r.die, r.value) == (s.kind, s.value)
                   for r, s in zip(readings, renders, strict=True)]
    assert np.mean(kind_right) >= 0.9, f"kind {np.mean(kind_right):.3f}"
    assert np.mean(value_right) >= 0.7, f"value {np.mean(value_right):.3f}"
    by_kind = {k: np.mean([ok for ok, s in zip(kind_right, renders, strict=True) if s.kind == k])
               for k in KINDS}
    assert min(by_kind.values()) >= 0.75, by_kind
    for r in readings:
        assert 0.0 <= r.confidence <= 1.0
        assert r.embedding.shape == (64,)
        assert np.linalg.norm(r.embedding) == pytest.approx(1.0, abs=1e-4)


@short_of_goal("38 of 112 renders read sure against 56")
def test_sure_readings_of_renders_are_nearly_always_right(
    classifier: Classifier, renders: list
) -> None:
    """What lets players stop checking: of the readings not flagged unsure, few are wrong."""
    readings = classifier.classify([r.image for r in renders])
    sure = [(r.die, r.value) == (s.kind, s.value)
            for r, s in zip(readings, renders, strict=True) if not r.unsure]
    assert len(sure) >= 0.5 * len(renders), f"{len(sure)} sure of {len(renders)}"
    assert np.mean(sure) >= 0.95, f"sure readings right {np.mean(sure):.3f}"


def _logits_for(classifier: Classifier, label: str) -> dict[str, np.ndarray]:
    kind = label.split(":")[0]
    outputs = {
        "kind": np.zeros((1, len(classifier.kinds)), np.float32),
        "value": np.zeros((1, len(classifier.value_labels)), np.float32),
        "state": np.array([[5.0, 0.0, 0.0]], np.float32),
        "embedding": np.zeros((1, 64), np.float32),
    }
    outputs["kind"][0, classifier.kinds.index(kind)] = 9.0
    outputs["value"][0, classifier.value_labels.index(label)] = 9.0
    return outputs


@pytest.mark.parametrize(("label", "value"), [("d10:10", 10), ("d%:100", 100), ("d%:30", 30)])
def test_values_use_game_convention(classifier: Classifier, label: str, value: int) -> None:
    reading = classifier.postprocess(_logits_for(classifier, label))[0]
    assert (reading.die, reading.value) == (label.split(":")[0], value)
    assert reading.confidence > 0.9 and not reading.unsure


def test_value_is_read_among_the_chosen_kinds_faces(classifier: Classifier) -> None:
    outputs = _logits_for(classifier, "d20:17")
    outputs["kind"][0, classifier.kinds.index("d6")] = 8.0  # second choice
    forced = classifier.postprocess(outputs, expect=["d6"])[0]
    assert forced.die == "d6" and 1 <= forced.value <= 6
    assert forced.confidence < 0.5  # the d6 logits give no clear face: unsure
    assert forced.unsure


def test_a_cocked_or_empty_state_is_unsure_however_sure_the_face(classifier: Classifier) -> None:
    for state, why in (("cocked", "cocked"), ("empty", "no die")):
        outputs = _logits_for(classifier, "d8:3")
        outputs["state"] = np.zeros((1, len(classifier.states)), np.float32)
        outputs["state"][0, classifier.states.index(state)] = 9.0
        reading = classifier.postprocess(outputs)[0]
        assert reading.state == state and reading.unsure and why in reading.why_unsure


def test_expect_restricts_the_kind(classifier: Classifier, renders: list) -> None:
    d20s = [r.image for r in renders if r.kind == "d20"]
    forced = classifier.classify(d20s, expect=["d6"])
    assert all(f.die == "d6" and 1 <= f.value <= 6 for f in forced)
    free = classifier.classify(d20s, expect=["d6", "d20"])
    assert sum(f.die == "d20" for f in free) >= 0.8 * len(d20s)
    with pytest.raises(ValueError):
        classifier.classify(d20s, expect=["d7"])
    with pytest.raises(ValueError):
        classifier.classify(d20s, expect=[])


SIX_NINE = {6: 9, 9: 6, 16: 19, 19: 16}


@short_of_goal("24 of 64 right against 38")
def test_six_and_nine_are_not_taken_for_each_other(classifier: Classifier) -> None:
    """A 6 seen upside down is a 9: the renders mark them as real dice do (underline, dot or
    bar), and the model must read the mark, whichever way the die is turned. 64 renders of
    d10, d12 and d20 6s and 9s (16s and 19s), pooled."""
    rng = np.random.default_rng(69)
    cases = [(k, v) for k, faces in (("d10", (6, 9)), ("d12", (6, 9)), ("d20", SIX_NINE))
             for v in faces for _ in range(8)]
    readings = classifier.classify([render_crop(rng, classifier.input_size, k, v).image
                                    for k, v in cases])
    swapped = [(k, v, r.value, r.confidence) for (k, v), r in zip(cases, readings, strict=True)
               if r.die == k and r.value == SIX_NINE[v]]
    right = sum((r.die, r.value) == c for c, r in zip(cases, readings, strict=True))
    assert right >= 0.6 * len(cases), f"{right} of {len(cases)} right"
    assert len(swapped) <= 0.05 * len(cases), swapped
    assert sum(r.value == SIX_NINE[v] and not r.unsure
               for (_, v), r in zip(cases, readings, strict=True)) <= 1, swapped


def test_empty_crops_and_cocked_dice_are_mostly_unsure(classifier: Classifier) -> None:
    rng = np.random.default_rng(99)
    size = classifier.input_size
    empty = classifier.classify([render_crop(rng, size, "d20", None, "empty").image
                                 for _ in range(20)])
    cocked = classifier.classify([render_crop(rng, size, KINDS[i % 7], None, "cocked").image
                                  for i in range(20)])
    assert sum(r.unsure for r in empty) >= 16, [r.state for r in empty]
    assert sum(r.unsure for r in cocked) >= 10, [r.state for r in cocked]
    assert all(r.why_unsure for r in empty + cocked if r.unsure)


def test_crops_become_the_models_raw_bgr_input(classifier: Classifier) -> None:
    """NCHW float32, channels in BGR order, raw 0-255 (scaling is in the graph); a crop of
    another size is resized to the model's."""
    s = classifier.input_size
    crop = np.zeros((2 * s, 2 * s, 3), np.uint8)
    crop[..., 0], crop[..., 1], crop[..., 2] = 10, 120, 250
    batch = classifier.preprocess([crop, crop[:s, :s]])
    assert batch.shape == (2, 3, s, s) and batch.dtype == np.float32
    assert [float(batch[0, c].mean()) for c in range(3)] == [10.0, 120.0, 250.0]
    assert np.array_equal(batch[0], batch[1])
    with pytest.raises(ValueError, match="not a BGR image"):
        classifier.preprocess([crop[..., 0]])


def test_look_gives_the_models_outputs_for_each_crop(
    classifier: Classifier, renders: list
) -> None:
    crops = [r.image for r in renders[:5]]
    looked = classifier.look(crops)
    assert set(looked) == set(OUTPUTS)
    assert looked["kind"].shape == (5, len(classifier.kinds))
    assert looked["value"].shape == (5, len(classifier.value_labels))
    assert looked["state"].shape == (5, len(classifier.states))
    # each crop read on its own gives its row of the batch (no crop changes another's reading),
    # to a relative tolerance: value logits reach the hundreds, where 1e-4 is an ulp or two of
    # float32 and another CPU's kernels may sum a batch of one in another order
    alone = classifier.look(crops[2:3])
    for key in OUTPUTS:
        assert np.allclose(alone[key][0], looked[key][2], rtol=1e-4, atol=1e-4)


def test_empty_batch(classifier: Classifier) -> None:
    assert classifier.classify([]) == []


def test_crops_from_a_frame_use_the_boxes(classifier: Classifier) -> None:
    frame = np.zeros((100, 200, 3), np.uint8)
    frame[:, 150:] = 255  # the second box lies on the white half, the first on the black
    out = classifier.crops(frame, [(10, 10, 50, 60), (170, 40, 190, 60)])
    assert [c.shape for c in out] == [(classifier.input_size, classifier.input_size, 3)] * 2
    assert out[0].max() == 0 and out[1].min() == 255


def test_missing_model_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        Classifier(tmp_path / "nothing.onnx")


def test_model_not_matching_its_card_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "dice.onnx"
    model.write_bytes(DEFAULT_MODEL.read_bytes()[:5000])
    shutil.copy(DEFAULT_MODEL.with_suffix(".json"), tmp_path / "dice.json")
    with pytest.raises(ModelError, match="does not match"):
        Classifier(model)


def test_garbage_model_with_a_matching_card_is_a_model_error(tmp_path: Path) -> None:
    model = tmp_path / "dice.onnx"
    model.write_bytes(b"this is not an onnx file" * 10)
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    card["sha256"] = file_sha256(model)
    (tmp_path / "dice.json").write_text(json.dumps(card))
    with pytest.raises(ModelError, match="cannot load"):
        Classifier(model)


def test_missing_card_is_a_model_error(tmp_path: Path) -> None:
    shutil.copy(DEFAULT_MODEL, tmp_path / "dice.onnx")
    with pytest.raises(ModelError, match="card"):
        Classifier(tmp_path / "dice.onnx")


@pytest.mark.parametrize("key", ["kinds", "values", "states", "input"])
def test_a_card_lacking_a_key_is_a_model_error(tmp_path: Path, key: str) -> None:
    model = model_with_card(tmp_path, lambda card: card.pop(key))
    with pytest.raises(ModelError, match="lacks"):
        Classifier(model)


def test_kinds_the_card_says_to_always_check_get_a_reason(tmp_path: Path) -> None:
    """Only kinds whose values the classifier gives: a numbered die's value is the recognizer's
    (vision.numerals), whose own rule says when it is sure."""
    model = model_with_card(
        tmp_path, lambda card: card["accuracy"].update(always_check={"d6": 0.5587, "d20": 0.3})
    )
    clf = Classifier(model)
    assert clf.always_check == {"d6": 0.5587}
    assert clf.check_reason("d6") == (
        "d6 values by the classifier alone are checked (sure ones 56% right on a rig it never saw)"
    )
    assert clf.check_reason("d20") is None


def test_a_card_without_always_check_checks_no_kind(tmp_path: Path) -> None:
    model = model_with_card(tmp_path, lambda card: card["accuracy"].pop("always_check", None))
    clf = Classifier(model)
    assert clf.always_check == {}
    assert all(clf.check_reason(k) is None for k in clf.kinds)


def test_a_malformed_always_check_is_a_model_error(tmp_path: Path) -> None:
    model = model_with_card(tmp_path, lambda card: card["accuracy"].update(always_check=[1]))
    with pytest.raises(ModelError, match="lacks"):
        Classifier(model)
