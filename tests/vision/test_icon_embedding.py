"""The embedding retrained for symbol dice (vision.train.icon_embedding): written into the shipped
model without moving its other outputs, on dice that are not the bench's. Needs the train extra."""

import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from bench.symbol_dice_bench import DICE
from vision.classify import Classifier
from vision.train.icon_embedding import random_dice
from vision.train.ship import ship_embedding

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_only_the_embedding_changes(tmp_path: Path) -> None:
    for name in ("dice.onnx", "dice.json"):
        shutil.copy(MODELS / name, tmp_path / name)
    torch.manual_seed(0)
    card = ship_embedding(torch.nn.Linear(320, 64), tmp_path / "dice.onnx", {"note": "test"})
    assert card["training"] == {"note": "test"}
    crops = [np.random.default_rng(i).integers(0, 256, (96, 96, 3), np.uint8) for i in range(4)]
    before = Classifier(MODELS / "dice.onnx", threads=1).look(crops)
    after = Classifier(tmp_path / "dice.onnx", threads=1).look(crops)
    for output in ("kind", "value", "state"):
        assert np.array_equal(before[output], after[output])
    assert not np.allclose(before["embedding"], after["embedding"])
    assert np.allclose(np.linalg.norm(after["embedding"], axis=1), 1.0, atol=1e-5)


def test_random_dice_are_seeded_and_not_the_bench_dice() -> None:
    assert random_dice(0, 3) == random_dice(0, 3)
    bench = {(d.kind, d.style()) for d in DICE}
    drawn = [die for i in range(200) for die in random_dice(0, i)]
    assert not bench & set(drawn)
    assert len({style.symbol_faces for _, style in drawn}) > 150
