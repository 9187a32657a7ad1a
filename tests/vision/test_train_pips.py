"""Training, export, card and linking of the pip reader (needs the train extra)."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from model_copies import model_with_card

from vision.classify import Classifier
from vision.model_file import file_sha256
from vision.numerals import OUTPUTS, NumeralReader
from vision.train import numerals, pips
from vision.train.card import reader_cards, write_readme
from vision.train.export import export_onnx
from vision.train.numerals import NumeralConfig, build_reader, train_numerals
from vision.train.pip_patches import OTHER, PATCH_SIZE, PIP_SHARE, TEXTS, pip_patch
from vision.train.quantize import INT8


def test_a_short_run_exports_a_reader_the_classifier_links(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, len(TEXTS), 48)
    images = np.stack([pip_patch(rng, TEXTS[i]) for i in labels])
    config = NumeralConfig(minutes=0.02, batch=16, bf16=False, threads=1)
    model, summary = train_numerals(images, labels, config, lambda msg: None, len(TEXTS))
    assert summary["steps"] >= 1
    model_path = model_with_card(tmp_path, lambda card: card.pop("pips", None))
    path = tmp_path / pips.FILE
    export_onnx(model, path, PATCH_SIZE, OUTPUTS)
    accuracy = {"real_pipped_d6": {"n": 151, "value": 0.5, "stood_aside": 0.25},
                "real_unpipped": {"n": 2676, "stood_aside": 0.99}}
    card = pips.write_card(path, accuracy, summary)
    assert card["texts"] == list(TEXTS) and card["other"] == OTHER
    assert card["faces"] == {"d6": {str(v): str(v) for v in range(1, 7)}}
    assert NumeralReader(path).share == PIP_SHARE

    entry = pips.link(path)
    assert entry == {"file": pips.FILE, "kinds": ["d6"]} and pips.link(tmp_path / "no") is None
    dice_card = json.loads(model_path.with_suffix(".json").read_text())
    dice_card["pips"] = entry
    model_path.with_suffix(".json").write_text(json.dumps(dice_card))
    linked = Classifier(model_path)
    assert [link.reader.model_path for link in linked.links][-1] == path
    readme = tmp_path / "README.md"
    write_readme(dice_card, readme, reader_cards(dice_card, tmp_path))
    text = readme.read_text()
    assert "- pips of d6: read by the pip reader pips.onnx" in text
    assert "value right 50.0%, stood aside 25.0%" in text and "99.00% of 2676" in text


def test_build_reader_trains_exports_measures_and_writes_the_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The steps every patch reader shares, with the pip reader's recipe on a few patches and a
    measurement that reads the exported (int8) file back."""
    rng = np.random.default_rng(5)
    die_crops = rng.integers(0, 256, (32, 96, 96, 3), np.uint8)
    monkeypatch.setattr(numerals, "calibration_crops", lambda workers: die_crops)
    labels = rng.integers(0, len(TEXTS), 32)
    images = np.stack([pip_patch(rng, TEXTS[i]) for i in labels])
    seen: list[NumeralReader] = []

    def measure(reader: NumeralReader, workers: int, seed: int) -> dict:
        seen.append(reader)
        return {"texts_read": len(reader.texts), "measured_on": "a test"}

    recipe = replace(pips.RECIPE, patches=lambda count, seed, workers: (images, labels),
                     measure=measure)
    config = replace(recipe.defaults, minutes=0.02, batch=8, bf16=False, threads=1)
    lines: list[str] = []
    card = build_reader(recipe, tmp_path / pips.FILE, config, 1, lines.append, "a command")
    assert seen and seen[0].model_path == tmp_path / pips.FILE
    assert card["accuracy"] == {"texts_read": len(TEXTS), "measured_on": "a test"}
    assert card["training"]["patches_version"] == recipe.patches_version
    assert card["training"]["command"] == "a command" and card["other"] == OTHER
    assert card["weights"] == INT8 and card["sha256"] == file_sha256(tmp_path / pips.FILE)
    assert json.loads((tmp_path / "pips.json").read_text()) == card
    assert lines[0] == "32 pip patches ready"
    assert lines[-1] == 'pip reader: {"texts_read": 7}'


class _Reader:
    """Stands in for a pip reader: reads each crop as the text its first pixel names."""

    texts = TEXTS

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        return np.eye(len(TEXTS))[[int(c[0, 0, 0]) for c in crops]]

    def read_patches(self, patches: np.ndarray) -> np.ndarray:
        return self.probabilities(list(patches))


def test_measure_scores_pipped_photos_and_standing_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pipped photos (skovy's): value right and share read 'other'; the rest: share 'other'."""
    from vision.train import evaluate
    from vision.train.dataset import Arrays
    from vision.train.realdata import Photo

    other = TEXTS.index(OTHER)
    shown = [  # (sequence, value, text read)
        ("skovy", 3, TEXTS.index("3")), ("skovy", 5, TEXTS.index("6")),
        ("skovy", 2, other), ("skovy", 1, TEXTS.index("1")),
        ("d6_color", 4, other), ("d20_top", 17, TEXTS.index("1")), ("d8_top", 2, other),
    ]
    photos = [Photo(Path("x.jpg"), "d6", v, seq, "", True) for seq, v, _ in shown]
    crops = np.zeros((len(shown), 8, 8, 3), np.uint8)
    crops[:, 0, 0, 0] = [t for *_, t in shown]
    none = np.zeros(len(shown), int)
    monkeypatch.setattr(evaluate, "held_out_crops",
                        lambda size, workers: (photos, Arrays(crops, none, none, none, none.astype(bool))))
    patch_texts = np.array([0, 1, other, 2])
    drawn = np.zeros((4, 8, 8, 3), np.uint8)
    drawn[:, 0, 0, 0] = [0, 1, other, 5]  # the last one read wrong
    monkeypatch.setattr(pips, "patches", lambda count, seed, workers: (drawn, patch_texts))
    got = pips.measure(_Reader())
    assert got["real_pipped_d6"] == {"n": 4, "value": 0.5, "stood_aside": 0.25}
    assert got["real_unpipped"] == {"n": 3, "stood_aside": round(2 / 3, 4)}
    assert got["synthetic_held_out_texts"] == 0.75
