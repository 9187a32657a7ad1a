"""The d4 kind expert as the classifier links it: which crops it reads, what it replaces, bad
cards, and that it reads real d4 photos better than the dice model alone."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from model_copies import model_with_card

from vision.classify import DEFAULT_MODEL, EXPERTS, READ_FROM, Classifier
from vision.crops import CROP_MARGIN
from vision.errors import ModelError
from vision.model_file import softmax
from vision.numerals import centre_patch
from vision.train.labels import KINDS
from vision.train.realdata import load_photos, measured_on, real_crop
from vision.train.render import render_crop

CARD = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())


def without_experts(card: dict) -> None:
    card.pop(EXPERTS)


@pytest.fixture(scope="module")
def crops() -> list[np.ndarray]:
    """Rendered crops of every kind, d4s among them."""
    rng = np.random.default_rng(7)
    return [render_crop(rng, 96, kind).image for kind in KINDS for _ in range(3)]


def test_the_shipped_card_links_a_d4_expert_beside_it() -> None:
    assert [e["kinds"] for e in CARD[EXPERTS]] == [["d4"]]
    clf = Classifier(DEFAULT_MODEL)
    (expert,) = clf.experts
    assert expert.kinds == ("d4",) and clf.kinds[expert.kind_columns[0]] == "d4"
    assert expert.model.value_labels == clf.value_labels
    assert not expert.model.experts and not expert.model.links  # an expert links nothing


def test_the_expert_reads_only_the_d4_values_of_likely_d4s(
    tmp_path: Path, crops: list[np.ndarray]
) -> None:
    linked = Classifier(DEFAULT_MODEL)
    alone = Classifier(model_with_card(tmp_path, without_experts))
    got, plain = linked.look(crops), alone.look(crops)
    d4 = KINDS.index("d4")
    likely = softmax(plain["kind"])[:, d4] >= READ_FROM
    assert likely.any() and not likely.all(), "the fixture should hold both cases"
    (columns,) = linked.experts[0].value_columns
    others = np.setdiff1d(np.arange(len(linked.value_labels)), columns)
    theirs = linked.experts[0].model._model_look([c for c, y in zip(crops, likely) if y])
    mean = (softmax(plain["value"][np.ix_(likely, columns)]) + softmax(theirs["value"][:, columns]))
    assert np.allclose(np.exp(got["value"][np.ix_(likely, columns)]), mean / 2, atol=1e-6)
    assert np.allclose(got["value"][~likely], plain["value"][~likely])
    assert np.allclose(got["value"][:, others], plain["value"][:, others])
    for key in ("kind", "state", "embedding"):
        assert np.allclose(got[key], plain[key])


def test_a_missing_expert_file_is_a_model_error(tmp_path: Path) -> None:
    model = model_with_card(tmp_path, lambda card: card[EXPERTS][0].update(file="gone.onnx"))
    with pytest.raises(ModelError, match="not found"):
        Classifier(model)


@pytest.mark.parametrize(
    "entry",
    [
        {"file": "d4.onnx", "kinds": ["d7"]},
        {"kinds": ["d4"]},
        {"file": "d4.onnx", "kinds": 4},
    ],
)
def test_a_malformed_expert_entry_is_a_model_error(tmp_path: Path, entry: dict) -> None:
    model = model_with_card(tmp_path, lambda card: card.update({EXPERTS: [entry]}))
    with pytest.raises(ModelError, match="kind expert"):
        Classifier(model)


def test_the_expert_reads_the_middle_of_the_crop_its_card_names(
    tmp_path: Path, crops: list[np.ndarray]
) -> None:
    """The shipped expert's card has it read the middle of the die's box, enlarged; the dice
    model reads the whole crop. Preprocessing gives the expert exactly that middle."""
    linked = Classifier(DEFAULT_MODEL)
    expert = linked.experts[0].model
    assert linked.share == CROP_MARGIN and expert.share < CROP_MARGIN
    middle = [centre_patch(c, 96, expert.share) for c in crops]
    assert np.array_equal(expert.preprocess(crops), linked.preprocess(middle))
    assert not np.array_equal(expert.preprocess(crops), linked.preprocess(crops))


@pytest.mark.parametrize("share", [0.0, CROP_MARGIN + 0.1, "near"])
def test_a_model_reading_an_impossible_share_is_a_model_error(
    tmp_path: Path, share: object
) -> None:
    model = model_with_card(tmp_path, lambda card: card["input"].update(share=share))
    with pytest.raises(ModelError, match="share|could not convert"):
        Classifier(model)


def test_an_expert_of_other_values_is_refused(tmp_path: Path) -> None:
    model = model_with_card(tmp_path)
    expert_card = tmp_path / CARD[EXPERTS][0]["file"].replace(".onnx", ".json")
    card = json.loads(expert_card.read_text())
    card["values"] = card["values"][::-1]
    expert_card.write_text(json.dumps(card))
    with pytest.raises(ModelError, match="not this model's"):
        Classifier(model)


def test_real_d4_photos_are_read_better_with_the_expert(tmp_path: Path) -> None:
    """Every third held-out real d4 photo (never trained on): the expert must add at least five
    points of value accuracy (its card and README give the full figures)."""
    photos = [p for p in measured_on(load_photos()) if p.kind == "d4"][::3]
    images = [real_crop(p, 96) for p in photos]

    def right(clf: Classifier) -> float:
        readings = clf.classify(images)
        return np.mean([(r.die, r.value) == (p.kind, p.value) for r, p in zip(readings, photos)])

    linked = right(Classifier(DEFAULT_MODEL))
    alone = right(Classifier(model_with_card(tmp_path, without_experts)))
    assert linked >= alone + 0.05, (linked, alone)
