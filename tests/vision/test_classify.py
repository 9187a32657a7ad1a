"""The shipped ONNX classifier, through the runtime wrapper: readings, expectation, bad models."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from model_copies import model_with_card, without_readers

import vision.classify
from vision.classify import DEFAULT_MODEL, RECHECK_BELOW, WIDER, Classifier, widened
from vision.errors import ModelError
from vision.model_file import file_sha256, softmax
from vision.reader import load_image
from vision.samples import sample_frames, truth
from vision.train.labels import KINDS
from vision.train.render import render_crop

CASES = [
    (k, v)
    for k in KINDS
    for v in {
        "d4": (1, 4),
        "d6": (2, 6),
        "d8": (3, 8),
        "d10": (6, 10),
        "d%": (30, 100),
        "d12": (9, 12),
        "d20": (6, 17),
    }[k]
]


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier(DEFAULT_MODEL)


@pytest.fixture(scope="module")
def crops(classifier: Classifier) -> list[np.ndarray]:
    rng = np.random.default_rng(2024)
    return [render_crop(rng, classifier.input_size, k, v).image for k, v in CASES]


def test_card_matches_the_shipped_model() -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    assert card["sha256"] == file_sha256(DEFAULT_MODEL)
    assert DEFAULT_MODEL.stat().st_size < 10_000_000
    assert card["kinds"] == list(KINDS)
    for kind in ("d4", "d6", "d8", "d10", "d20"):
        assert 0.0 <= card["accuracy"]["real_held_out"][kind]["value"] <= 1.0
    for kind in KINDS:
        assert card["accuracy"]["synthetic_held_out"][kind]["n"] > 0


def test_rendered_dice_kinds_read_right(classifier: Classifier, crops: list[np.ndarray]) -> None:
    readings = classifier.classify(crops)
    kinds_right = sum(r.die == k for r, (k, _) in zip(readings, CASES, strict=True))
    assert kinds_right >= len(CASES) - 2, [(c, r.die) for c, r in zip(CASES, readings, strict=True)]
    for r in readings:
        assert 0.0 <= r.confidence <= 1.0
        assert r.embedding.shape == (64,)
        assert np.linalg.norm(r.embedding) == pytest.approx(1.0, abs=1e-4)


def test_fresh_renders_read_as_well_as_the_card_says(classifier: Classifier) -> None:
    """The card's synthetic figures hold on renders it never saw (another seed)."""
    rng = np.random.default_rng(777)
    cases = [(k, None) for k in KINDS for _ in range(8)]
    samples = [render_crop(rng, classifier.input_size, k) for k, _ in cases]
    readings = classifier.classify([s.image for s in samples])
    kind_acc = np.mean([r.die == s.kind for r, s in zip(readings, samples, strict=True)])
    value_acc = np.mean(
        [(r.die, r.value) == (s.kind, s.value) for r, s in zip(readings, samples, strict=True)]
    )
    claimed = classifier.card["accuracy"]["synthetic_held_out"]["all"]
    assert kind_acc >= claimed["kind"] - 0.1
    assert value_acc >= claimed["value"] - 0.2
    assert value_acc > 3 / 20  # far above guessing among a kind's faces


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


def test_expect_restricts_the_kind(classifier: Classifier, crops: list[np.ndarray]) -> None:
    d20 = crops[CASES.index(("d20", 17))]
    forced = classifier.classify([d20], expect=["d6"])[0]
    assert forced.die == "d6" and 1 <= forced.value <= 6
    free = classifier.classify([d20], expect=["d6", "d20"])[0]
    assert free.die == "d20"
    with pytest.raises(ValueError):
        classifier.classify([d20], expect=["d7"])


SIX_NINE = {6: 9, 9: 6, 16: 19, 19: 16}


def test_six_and_nine_are_not_taken_for_each_other(classifier: Classifier) -> None:
    """A 6 seen upside down is a 9: the renders mark them as real dice do (underline, dot or
    bar), and the model must read the mark, whichever way the die is turned. On renders of two
    seeds never trained on, 1.6% of the 762 dice showing 6, 9, 16, 19, 60 or 90 were read as
    the other (one of them sure); of the 345 held-out real d10 6s and d20 9s, four d20 9s read
    as 6, none sure. These 64 renders: 50 right, two d20 6s read as 9, one of them sure."""
    rng = np.random.default_rng(69)
    cases = [(k, v) for k, faces in (("d10", (6, 9)), ("d12", (6, 9)), ("d20", SIX_NINE))
             for v in faces for _ in range(8)]
    readings = classifier.classify([render_crop(rng, classifier.input_size, k, v).image
                                    for k, v in cases])
    swapped = [(k, v, r.value, r.confidence) for (k, v), r in zip(cases, readings, strict=True)
               if r.die == k and r.value == SIX_NINE[v]]
    right = sum((r.die, r.value) == c for c, r in zip(cases, readings, strict=True))
    assert right >= 0.6 * len(cases)  # d20 renders are the hardest (the card: 71%)
    assert len(swapped) <= 0.05 * len(cases), swapped
    assert sum(r.value == SIX_NINE[v] and not r.unsure
               for (_, v), r in zip(cases, readings, strict=True)) <= 1, swapped


def test_cocked_die_and_empty_crop_are_unsure(classifier: Classifier) -> None:
    rng = np.random.default_rng(99)
    odd = [render_crop(rng, classifier.input_size, "d20", None, "empty").image for _ in range(6)]
    readings = classifier.classify(odd)
    assert sum(r.unsure for r in readings) >= 4
    assert all(r.why_unsure for r in readings if r.unsure)


def test_empty_batch(classifier: Classifier) -> None:
    assert classifier.classify([]) == []


def test_crops_from_a_frame_use_the_boxes(classifier: Classifier) -> None:
    frame = np.zeros((100, 200, 3), np.uint8)
    out = classifier.crops(frame, [(10, 10, 50, 60), (150, 40, 199, 99)])
    assert [c.shape for c in out] == [(classifier.input_size, classifier.input_size, 3)] * 2


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


def test_widened_box_keeps_its_centre() -> None:
    assert widened((10, 20, 30, 60), 1.5) == (5.0, 10.0, 35.0, 70.0)


def test_dice_of_doubtful_kind_are_looked_at_again_framed_wider(
    classifier: Classifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A die whose kind is doubtful gets the mean of its kind readings framed as trained and
    framed WIDER times as wide; the others keep their one reading."""
    frame = load_image(sample_frames()[1])
    boxes = [d["box"] for d in truth()[sample_frames()[1].name]]
    plain = classifier.look(classifier.crops(frame, boxes))
    sure = softmax(plain["kind"]).max(axis=1)
    # the bar between the dice's kind certainties, so that this frame holds both cases
    monkeypatch.setattr(vision.classify, "WIDEN_BELOW", float(np.median(sure)))
    doubtful = sure < np.median(sure)
    assert doubtful.any() and not doubtful.all()
    framed = classifier.look_framed(frame, boxes)
    wide = classifier.look(classifier.crops(frame, [widened(b, WIDER) for b in boxes]))
    assert np.allclose(framed["kind"][~doubtful], plain["kind"][~doubtful])
    mean = (softmax(plain["kind"]) + softmax(wide["kind"])) / 2
    assert np.allclose(np.exp(framed["kind"][doubtful]), mean[doubtful], atol=1e-5)
    for key in ("value", "state", "embedding"):
        assert np.allclose(framed[key], plain[key])


def test_doubtful_crops_get_a_second_look_turned_four_ways(
    tmp_path: Path, crops: list[np.ndarray]
) -> None:
    """Crops read below RECHECK_BELOW are averaged over four turns; sure ones are left alone
    (the dice model alone: the patch readers' readings are tested in test_numerals, test_pips)."""
    classifier = Classifier(model_with_card(tmp_path, without_readers))
    batch = classifier.preprocess(crops)
    plain = classifier.run(batch)
    looked = classifier.look(crops)
    doubtful = np.array([f.confidence < RECHECK_BELOW for f in classifier.postprocess(plain)])
    assert doubtful.any() and not doubtful.all(), "the fixture should hold both cases"
    turns = [
        classifier.run(np.ascontiguousarray(np.rot90(batch, k, axes=(2, 3)))) for k in range(4)
    ]
    for key in ("kind", "value", "state"):
        assert np.allclose(looked[key][~doubtful], plain[key][~doubtful])
        mean = np.mean([softmax(t[key]) for t in turns], axis=0)
        assert np.allclose(np.exp(looked[key][doubtful]), mean[doubtful], atol=1e-5)
    assert np.allclose(looked["embedding"], plain["embedding"])


def test_kinds_the_card_says_to_always_check_get_a_reason(tmp_path: Path) -> None:
    model = model_with_card(
        tmp_path, lambda card: card["accuracy"].update(always_check={"d20": 0.5587})
    )
    clf = Classifier(model)
    assert clf.always_check == {"d20": 0.5587}
    assert clf.check_reason("d20") == (
        "d20 readings are always checked (sure ones 56% right on real photos)"
    )
    assert clf.check_reason("d6") is None


def test_a_card_without_always_check_checks_no_kind(tmp_path: Path) -> None:
    model = model_with_card(tmp_path, lambda card: card["accuracy"].pop("always_check", None))
    clf = Classifier(model)
    assert clf.always_check == {}
    assert all(clf.check_reason(k) is None for k in clf.kinds)


def test_a_malformed_always_check_is_a_model_error(tmp_path: Path) -> None:
    model = model_with_card(tmp_path, lambda card: card["accuracy"].update(always_check=[1]))
    with pytest.raises(ModelError, match="lacks"):
        Classifier(model)
