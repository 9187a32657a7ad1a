"""Training, export and card of the numeral reader (needs the train extra)."""

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.numerals import OUTPUTS, NumeralReader
from vision.train import numerals
from vision.train.export import export_onnx
from vision.train.numeral_model import NumeralNet
from vision.train.numeral_patches import PATCH_SIZE, TEXTS, numeral_patch


def test_a_short_run_exports_a_reader_the_runtime_reads_as_torch_does(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, len(TEXTS), 64)
    images = np.stack([numeral_patch(rng, TEXTS[i]) for i in labels])
    config = numerals.NumeralConfig(minutes=0.02, batch=16, bf16=False, threads=1)
    model, summary = numerals.train_numerals(images, labels, config, lambda msg: None)
    assert summary["steps"] >= 1 and summary["patches"] == 64
    path = tmp_path / numerals.FILE
    export_onnx(model, path, PATCH_SIZE, OUTPUTS)
    card = numerals.write_card(path, {"real_held_out": {}}, summary)
    assert card["faces"]["d10"]["10"] == "0" and card["faces"]["d%"]["100"] == "00"
    assert card["texts"] == list(TEXTS)

    reader = NumeralReader(path)
    with torch.no_grad():
        logits = model(torch.from_numpy(images[:3]).permute(0, 3, 1, 2).float())
    onnx = reader.session.run(None, {reader.input_name: images[:3].transpose(0, 3, 1, 2)
                                     .astype(np.float32)})[0]
    np.testing.assert_allclose(onnx, logits.numpy(), rtol=1e-3, atol=1e-3)
    probs = reader.read_patches(images[:3])
    assert probs.shape == (3, len(TEXTS)) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)

    assert numerals.link(path) == {"file": numerals.FILE, "kinds": list(numerals.NUMERAL_KINDS),
                                   "own_weight": numerals.OWN_WEIGHT}
    assert numerals.link(tmp_path / "absent.onnx") is None
    assert json.loads(path.with_suffix(".json").read_text())["sha256"] == card["sha256"]


def test_values_are_read_among_the_known_kinds_faces() -> None:
    """A d10 reading "0" counts 10; a d20 never reads a text its faces lack ("00")."""
    probs = np.zeros((2, len(TEXTS)))
    probs[0, TEXTS.index("0")] = 0.9
    probs[1, TEXTS.index("00")] = 0.9
    probs[1, TEXTS.index("12")] = 0.1
    assert numerals.read_values(TEXTS, probs, ["d10", "d20"]) == [10, 12]


def test_the_network_gives_one_logit_per_text() -> None:
    model = NumeralNet().eval()
    with torch.no_grad():
        assert model(torch.zeros(2, 3, PATCH_SIZE, PATCH_SIZE)).shape == (2, len(TEXTS))



def test_the_numeral_reader_draws_its_shrunk_share_of_patches_from_fewer_pixels() -> None:
    """The same turns and jitter with and without shrinking; shrunk, every patch loses fine
    detail (a numeral's edges), as a die further off shows it."""
    assert numerals.NumeralConfig().shrunk == numerals.SHRUNK_SHARE > 0
    rng = np.random.default_rng(1)
    labels = [TEXTS.index(t) for t in ("6", "9", "7", "1")] * 8
    images = torch.from_numpy(np.stack([numeral_patch(rng, TEXTS[i]) for i in labels]))

    def fine_detail(x: torch.Tensor) -> torch.Tensor:  # each patch's pixel-to-pixel change
        return (x[:, :, :, 1:] - x[:, :, :, :-1]).abs().mean(dim=(1, 2, 3))

    sharp = numerals.augment(images, torch.Generator().manual_seed(5), 0.0)
    shrunk = numerals.augment(images, torch.Generator().manual_seed(5), 0.0, 1.0)
    assert sharp.shape == shrunk.shape == (32, 3, PATCH_SIZE, PATCH_SIZE)
    assert (fine_detail(shrunk) < fine_detail(sharp)).all()
