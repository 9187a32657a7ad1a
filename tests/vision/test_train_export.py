"""ONNX export and card: the runtime reads exactly what torch computed (needs the train extra)."""

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from trained_nets import TRAINING

from vision.classify import Classifier
from vision.model_file import file_sha256
from vision.train.card import write_readme
from vision.train.export import export_onnx, write_card
from vision.train.model import INPUT_SIZE, DiceNet

ACCURACY = {
    "real_held_out": {"d6": {"n": 10, "kind": 1.0, "value": 0.9}},
    "real_other_camera_d6": {"d6": {"n": 5, "kind": 1.0, "value": 0.8}},
    "synthetic_held_out": {"d20": {"n": 7, "kind": 0.9, "value": 0.5}},
    "synthetic_unsure_rate": {"cocked": 0.8, "empty": 1.0, "flat_unsure": 0.2},
    "measured_on": "a test",
}


def test_export_matches_torch_and_the_card_checks_out(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = DiceNet().eval()
    path = tmp_path / "dice.onnx"
    export_onnx(model, path)
    card = write_card(path, "0.0.1", ACCURACY, TRAINING)
    assert card["sha256"] == file_sha256(path)
    assert json.loads(path.with_suffix(".json").read_text())["values"][-1] == "d20:20"

    x = np.random.default_rng(0).integers(0, 256, (3, INPUT_SIZE, INPUT_SIZE, 3), dtype=np.uint8)
    clf = Classifier(path)
    onnx_out = clf.run(clf.preprocess(list(x)))
    with torch.no_grad():
        torch_out = model(torch.from_numpy(x).permute(0, 3, 1, 2).float())
    for name, ref in zip(("kind", "value", "state", "embedding"), torch_out, strict=True):
        np.testing.assert_allclose(onnx_out[name], ref.numpy(), rtol=1e-3, atol=1e-3)

    write_readme(card, tmp_path / "README.md")
    text = (tmp_path / "README.md").read_text()
    assert "| d6 | 10 | 100.00% | 90.00% |" in text
