"""The numeral reader: its cut of a crop, the shipped model on rendered numerals, and how the
classifier takes its kinds' values from it."""

import json
from pathlib import Path

import numpy as np
import pytest
from model_copies import linked_file, model_with_card, only_reader, without_readers

from vision.classify import DEFAULT_MODEL, READ_FROM, Classifier
from vision.crops import CROP_MARGIN
from vision.errors import ModelError
from vision.model_file import softmax
from vision.numerals import PATCH_SHARE, NumeralReader, centre_patch
from vision.train.labels import FACE_VALUES, face_text
from vision.train.numeral_patches import TEXTS, numeral_patch
from vision.train.render import render_crop

NUMERALS = linked_file("numerals")


@pytest.fixture(scope="module")
def reader() -> NumeralReader:
    return NumeralReader(NUMERALS)


def test_centre_patch_is_the_middle_of_the_die_in_its_crop() -> None:
    """A die crop is CROP_MARGIN x its box; the patch is PATCH_SHARE of the box, centred."""
    crop = np.zeros((130, 130, 3), np.uint8)
    top = 65 - 130 / CROP_MARGIN * PATCH_SHARE / 2  # where the patch's first row lies
    crop[round(top) : 130 - round(top), round(top) : 130 - round(top)] = 200
    patch = centre_patch(crop, 48)
    assert patch.shape == (48, 48, 3)
    assert patch[1:-1, 1:-1].min() == 200  # the square fills the patch
    for start, first_row_lit in ((round(top) - 3, True), (round(top) + 3, False)):
        crop[:] = 0
        crop[start:] = 255  # light from a row just above, or just below, the patch's top
        assert (centre_patch(crop, 48)[0].min() > 200) == first_row_lit


def test_the_reader_cuts_with_the_share_its_card_records(tmp_path: Path) -> None:
    card = json.loads(NUMERALS.with_suffix(".json").read_text())
    reader = NumeralReader(NUMERALS)
    assert reader.share == card["input"]["share"]
    crop = numeral_patch(np.random.default_rng(3), "14", 96)
    wide = centre_patch(crop, 48, 0.8)
    assert not np.array_equal(wide, centre_patch(crop, 48, reader.share))
    model = model_with_card(tmp_path)
    numerals = json.loads((tmp_path / "numerals.json").read_text())
    numerals["input"]["share"] = 0.8
    (tmp_path / "numerals.json").write_text(json.dumps(numerals))
    taken = NumeralReader(tmp_path / NUMERALS.name)
    assert np.allclose(taken.probabilities([crop]), reader.read_patches(wide[None]), atol=1e-6)
    del numerals["input"]["share"]
    (tmp_path / "numerals.json").write_text(json.dumps(numerals))
    with pytest.raises(ModelError, match="lacks"):
        Classifier(model)


def test_patch_texts_cover_every_numbered_face_once() -> None:
    printed = {face_text(k, v) for k in ("d8", "d10", "d%", "d12", "d20") for v in FACE_VALUES[k]}
    assert sorted(TEXTS) == sorted(printed) and len(set(TEXTS)) == len(TEXTS)


def test_patches_are_seeded_and_show_their_text() -> None:
    a = numeral_patch(np.random.default_rng(4), "6")
    assert a.shape == (48, 48, 3) and a.dtype == np.uint8
    assert np.array_equal(a, numeral_patch(np.random.default_rng(4), "6"))
    assert not np.array_equal(a, numeral_patch(np.random.default_rng(4), "9"))


def test_shipped_reader_reads_rendered_numerals(reader: NumeralReader) -> None:
    """Patches from a seed the reader never trained on, d20 faces: most read right."""
    rng = np.random.default_rng(20261122)
    texts = [face_text("d20", v) for v in rng.integers(1, 21, 60)]
    patches = np.stack([numeral_patch(rng, t) for t in texts])
    read = np.argmax(reader.read_patches(patches), axis=1)
    right = np.mean([TEXTS[r] == t for r, t in zip(read, texts, strict=True)])
    assert right >= 0.8


def test_reader_turns_the_patch_four_ways(reader: NumeralReader) -> None:
    patch = numeral_patch(np.random.default_rng(1), "17")[None]
    one = reader.read_patches(patch)
    assert np.allclose(one, reader.read_patches(np.rot90(patch, 1, axes=(1, 2)).copy()), atol=1e-5)
    assert one.shape == (1, len(TEXTS)) and abs(one.sum() - 1) < 1e-5


def test_classifier_takes_linked_kinds_values_from_the_reader(
    tmp_path: Path, reader: NumeralReader
) -> None:
    """For crops likely enough of a linked kind, its values are the reader's log-probabilities
    plus the card's own_weight times the dice model's; every other value is the model's own."""
    clf = Classifier(model_with_card(tmp_path / "numerals", only_reader("numerals")))
    alone = Classifier(model_with_card(tmp_path / "alone", without_readers))
    (link,) = clf.links
    assert link.reader.model_path.name == NUMERALS.name and not alone.links
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())["numerals"]
    linked, weight = card["kinds"], card.get("own_weight", 0.0)
    assert link.kinds == tuple(linked) and link.own_weight == weight and link.other is None
    rng = np.random.default_rng(7)
    crops = [render_crop(rng, 96, kind, None).image for kind in ("d20", "d6", "d20", "d8")]
    looked, own = clf.look(crops), alone.look(crops)
    wanted = softmax(own["kind"])[:, [clf.kinds.index(k) for k in linked]].sum(1)
    assert (wanted >= READ_FROM).any() and (wanted < READ_FROM).any()
    probs = reader.probabilities(crops)
    for kind in clf.kinds:
        cols = [j for j, lab in enumerate(clf.value_labels) if lab.split(":")[0] == kind]
        for i in range(len(crops)):
            if kind in linked and wanted[i] >= READ_FROM:
                faces = [face_text(kind, int(clf.value_labels[j].split(":")[1])) for j in cols]
                mine = np.log(probs[i, [TEXTS.index(f) for f in faces]])
                want = mine + weight * np.log(softmax(own["value"][i, cols]))
                assert np.allclose(looked["value"][i, cols], want, atol=1e-4)
            else:
                assert np.allclose(looked["value"][i, cols], own["value"][i, cols])


def test_a_missing_or_corrupt_numeral_reader_is_a_clear_error(tmp_path: Path) -> None:
    model = model_with_card(tmp_path)
    (tmp_path / NUMERALS.name).unlink()
    with pytest.raises(ModelError, match="not found"):
        Classifier(model)
    (tmp_path / NUMERALS.name).write_bytes(NUMERALS.read_bytes()[:1000])
    with pytest.raises(ModelError, match="does not match"):
        Classifier(model)
    linked = model_with_card(tmp_path, lambda card: card["numerals"].update(kinds=["d7"]))
    with pytest.raises(ModelError, match="numeral reader"):
        Classifier(linked)
