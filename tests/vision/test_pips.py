"""The pip reader: its patches, the shipped model on rendered faces, and how the classifier takes
a d6's value (and, where it reads pips, its kind) from it."""

from pathlib import Path

import numpy as np
import pytest
from model_copies import linked_file, model_with_card, only_reader, without_readers

from vision.classify import READ_FROM, SAYS_KIND_FROM, Classifier
from vision.errors import ModelError
from vision.model_file import softmax
from vision.numerals import NumeralReader
from vision.train.pip_patches import OTHER, OTHER_SHARE, PIP_SHARE, TEXTS, _patch_chunk, pip_patch
from vision.train.render import GLYPH, pip_glyph, render_crop

PIPS = linked_file("pips")


@pytest.fixture(scope="module")
def reader() -> NumeralReader:
    return NumeralReader(PIPS)


def test_pip_glyphs_grow_and_spread_as_told() -> None:
    usual = pip_glyph(5)
    assert np.array_equal(usual, pip_glyph(5, 1.0, 1.0))
    assert pip_glyph(5, 1.3).sum() > usual.sum() * 1.5  # area grows with the radius squared
    yy, xx = np.mgrid[0:GLYPH, 0:GLYPH] - (GLYPH - 1) / 2

    def spread(mask: np.ndarray) -> float:
        return float((np.hypot(yy, xx) * mask).sum() / mask.sum())

    assert spread(pip_glyph(5, 1.0, 1.2)) > spread(usual) * 1.1
    assert pip_glyph(1).sum() < pip_glyph(6).sum()


def test_patches_are_seeded_and_labelled_by_their_pips() -> None:
    a = pip_patch(np.random.default_rng(4), "3")
    assert a.shape == (48, 48, 3) and a.dtype == np.uint8
    assert np.array_equal(a, pip_patch(np.random.default_rng(4), "3"))
    assert not np.array_equal(a, pip_patch(np.random.default_rng(4), "6"))
    images, labels = _patch_chunk((11, 200, 48))
    other = np.mean(labels == TEXTS.index(OTHER))
    assert images.shape == (200, 48, 48, 3) and abs(other - OTHER_SHARE) < 0.1
    assert set(labels.tolist()) == set(range(len(TEXTS)))


def test_shipped_reader_reads_rendered_pips_and_stands_aside_for_numbers(
    reader: NumeralReader,
) -> None:
    """Patches of a seed it never trained on: pips mostly read right, other dice mostly 'other'."""
    assert reader.texts == TEXTS and reader.share == PIP_SHARE
    rng = np.random.default_rng(20261125)
    texts = [TEXTS[i] for i in rng.integers(0, len(TEXTS), 70)]
    read = np.argmax(reader.read_patches(np.stack([pip_patch(rng, t) for t in texts])), axis=1)
    for pipped in (True, False):
        rows = [i for i, t in enumerate(texts) if (t != OTHER) == pipped]
        assert np.mean([TEXTS[read[i]] == texts[i] for i in rows]) >= 0.85


def test_classifier_mixes_the_pip_reading_with_its_own(tmp_path: Path, reader: NumeralReader) -> None:
    """For crops likely enough of a d6: value = P(pips v) + P(other) x the dice model's P(v);
    where pips are read at least SAYS_KIND_FROM likely, the kind is that much d6. Every other
    output is the dice model's own."""
    clf = Classifier(model_with_card(tmp_path / "pips", only_reader("pips")))
    alone = Classifier(model_with_card(tmp_path / "alone", without_readers))
    (link,) = clf.links
    assert link.kinds == ("d6",) and link.other == TEXTS.index(OTHER)
    rng = np.random.default_rng(12)
    crops = [render_crop(rng, 96, kind).image for kind in ("d6", "d6", "d6", "d20", "d8", "d6")]
    looked, own = clf.look(crops), alone.look(crops)
    d6 = clf.kinds.index("d6")
    kind_p = softmax(own["kind"])
    wanted = kind_p[:, d6] >= READ_FROM
    assert wanted.any() and not wanted.all()
    probs = reader.probabilities(crops)
    read = 1 - probs[:, link.other]
    cols = [j for j, lab in enumerate(clf.value_labels) if lab.startswith("d6:")]
    for i in range(len(crops)):
        if not wanted[i]:
            for key in ("kind", "value"):
                assert np.allclose(looked[key][i], own[key][i])
            continue
        mine = softmax(own["value"][i, cols])
        pips = probs[i, [TEXTS.index(lab.split(":")[1]) for lab in np.array(clf.value_labels)[cols]]]
        assert np.allclose(softmax(looked["value"][i, cols]), pips + probs[i, link.other] * mine,
                           atol=1e-4)
        want = kind_p[i].copy()
        if read[i] >= SAYS_KIND_FROM:
            want = (1 - read[i]) * want
            want[d6] += read[i]
        assert np.allclose(softmax(looked["kind"][i]), want, atol=1e-4)
    says = read[wanted] >= SAYS_KIND_FROM
    assert says.any() and not says.all(), "the crops should fall on both sides of the bar"


def test_a_missing_or_unusable_pip_reader_is_a_clear_error(tmp_path: Path) -> None:
    model = model_with_card(tmp_path)
    (tmp_path / PIPS.name).unlink()
    with pytest.raises(ModelError, match="not found"):
        Classifier(model)
    linked = model_with_card(tmp_path / "d8", lambda card: card["pips"].update(kinds=["d8"]))
    with pytest.raises(ModelError, match="pip reader"):
        Classifier(linked)
