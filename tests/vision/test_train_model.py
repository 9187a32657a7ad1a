"""The network and its training pieces (needs the `train` extra; skipped without torch)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.train.dataset import IGNORE
from vision.train.labels import KINDS, VALUE_LABELS
from vision.train.model import EMBEDDING, INPUT_SIZE, DiceNet, parameter_count
from vision.train.train import augment, losses


def test_heads_and_embedding() -> None:
    model = DiceNet().eval()
    kind, value, state, emb = model(torch.rand(3, 3, INPUT_SIZE, INPUT_SIZE) * 255)
    assert kind.shape == (3, len(KINDS)) and value.shape == (3, len(VALUE_LABELS))
    assert state.shape == (3, 3) and emb.shape == (3, EMBEDDING)
    assert torch.allclose(emb.norm(dim=1), torch.ones(3), atol=1e-5)
    assert parameter_count(model) * 4 < 10_000_000


def test_augment_resamples_to_the_input_size_in_range() -> None:
    gen = torch.Generator().manual_seed(0)
    images = torch.from_numpy(
        np.random.default_rng(0).integers(0, 256, (5, 96, 96, 3), dtype=np.uint8)
    )
    x = augment(images, gen)
    assert x.shape == (5, 3, INPUT_SIZE, INPUT_SIZE)
    assert float(x.min()) >= 0 and float(x.max()) <= 255


def test_loss_skips_ignored_labels() -> None:
    model = DiceNet()
    out = model(torch.rand(2, 3, INPUT_SIZE, INPUT_SIZE) * 255)
    kinds = torch.tensor([0, IGNORE])
    values = torch.tensor([IGNORE, IGNORE])
    states = torch.tensor([1, 2])
    loss = losses(out, kinds, values, states)
    assert torch.isfinite(loss)
    loss.backward()
    assert model.prototypes.grad is None or float(model.prototypes.grad.abs().sum()) == 0.0
