"""The network and its training pieces (needs the `train` extra; skipped without torch)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.train.dataset import IGNORE, Arrays
from vision.train.labels import KINDS, VALUE_LABELS
from vision.train.model import EMBEDDING, INPUT_SIZE, DiceNet, parameter_count
from vision.train.train import (
    NOISE_FIELDS,
    SMALL_SIZE,
    TrainConfig,
    augment,
    camera_jitter,
    edge_bands,
    losses,
    noise_bank,
    shrink_some,
    train,
)


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
    small = augment(images, gen, size=SMALL_SIZE)
    assert small.shape == (5, 3, SMALL_SIZE, SMALL_SIZE)


def test_the_network_takes_the_low_resolution_phases_crops() -> None:
    """The same weights read SMALL_SIZE crops (TrainConfig.small_share) and INPUT_SIZE ones:
    the value embedding's central block still fits in the smaller feature map."""
    model = DiceNet().eval()
    for size in (SMALL_SIZE, INPUT_SIZE):
        kind, value, _state, emb = model(torch.rand(2, 3, size, size) * 255)
        assert kind.shape == (2, len(KINDS)) and value.shape == (2, len(VALUE_LABELS))
        assert emb.shape == (2, EMBEDDING)


def test_level_crops_keep_their_top_up_and_the_others_turn_all_ways() -> None:
    """A crop bright above and dark below stays so when it is level (turned by LEVEL_TURN at
    most); the same crops not level end up with their bright half anywhere."""
    gen = torch.Generator().manual_seed(1)
    images = torch.zeros((64, 96, 96, 3), dtype=torch.uint8)
    images[:, :48] = 255
    level = torch.arange(64) % 2 == 0
    x = augment(images, gen, level).mean(dim=1)
    top_minus_bottom = x[:, : INPUT_SIZE // 3].mean(dim=(1, 2)) - x[:, -INPUT_SIZE // 3 :].mean(
        dim=(1, 2)
    )
    assert bool((top_minus_bottom[level] > 100).all())
    assert bool((top_minus_bottom[~level] < 0).sum() > 8)


def test_camera_noise_comes_from_a_fixed_bank_a_field_a_crop() -> None:
    """Every run draws the same bank; each crop of a flat grey batch gets its own field, so
    crops differ from each other, and the same generator seed gives the same jitter."""
    bank = noise_bank((3, 16, 16))
    assert bank.shape == (NOISE_FIELDS, 3, 16, 16) and noise_bank((3, 16, 16)) is bank
    assert abs(float(bank.std()) - 1) < 0.02 and abs(float(bank.mean())) < 0.02
    grey = torch.full((64, 3, 16, 16), 128.0)
    a = camera_jitter(grey.clone(), torch.Generator().manual_seed(5))
    b = camera_jitter(grey.clone(), torch.Generator().manual_seed(5))
    assert torch.equal(a, b) and float(a.min()) >= 0 and float(a.max()) <= 255
    grain = a - a.mean(dim=(2, 3), keepdim=True)  # each crop's noise, its gain taken out
    assert len({round(float(g.abs().sum()), 2) for g in grain}) > 32


def test_the_noise_cap_sets_how_grainy_jittered_crops_get() -> None:
    """The pip reader trains with up to 24 grey levels of noise, the rest with up to 6: the
    spread of a flat crop's grain grows with the cap (the same draws, so only the cap differs)."""
    grey = torch.full((256, 3, 24, 24), 128.0)

    def grain(noise: float) -> float:
        x = camera_jitter(grey.clone(), torch.Generator().manual_seed(2), noise)
        return float((x - x.mean(dim=(2, 3), keepdim=True)).std())

    assert grain(0.0) < 0.5 < grain(6.0) and 3.5 * grain(6.0) < grain(24.0) < 4.5 * grain(6.0)


def test_edge_bands_replicate_the_inner_edge_and_leave_other_crops_alone() -> None:
    gen = torch.Generator().manual_seed(3)
    x = torch.rand(40, 3, 32, 32)
    out = edge_bands(x.clone(), gen, 0.5)
    changed = [i for i in range(40) if not torch.equal(out[i], x[i])]
    assert 8 < len(changed) < 32
    for i in changed:
        # a replicated band: columns (or rows) equal to their neighbour, unlike random pixels
        same_cols = (out[i][:, :, 1:] == out[i][:, :, :-1]).all(dim=(0, 1))
        same_rows = (out[i][:, 1:] == out[i][:, :-1]).all(dim=(0, 2))
        assert same_cols.any() or same_rows.any()
        widest = int(0.15 * 32)  # a band is at most 15% of the side, on each of two sides
        assert same_cols.sum() <= 2 * widest and same_rows.sum() <= 2 * widest
        # the middle of the crop is untouched
        assert torch.equal(out[i][:, 7:25, 7:25], x[i][:, 7:25, 7:25])


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


def test_value_weight_zero_removes_a_rows_value_label() -> None:
    """A real crop with value weight 0 teaches kind and state, never its value."""
    torch.manual_seed(0)
    model = DiceNet().eval()
    out = model(torch.rand(2, 3, INPUT_SIZE, INPUT_SIZE) * 255)
    kinds, states = torch.tensor([0, 0]), torch.tensor([0, 0])
    weights = torch.tensor([1.0, 0.0])
    base = losses(out, kinds, torch.tensor([0, 1]), states, weights)
    other = losses(out, kinds, torch.tensor([0, 2]), states, weights)  # only row 1's value differs
    assert torch.isclose(base, other)
    unweighted = losses(out, kinds, torch.tensor([0, 2]), states)
    assert not torch.isclose(base, unweighted)


def test_value_embedding_sees_where_a_feature_is() -> None:
    """Two feature maps with the same average: kind logits agree, value embeddings do not.

    A plain average would mix the top face's numeral with the side faces' numerals.
    """
    torch.manual_seed(0)
    model = DiceNet().eval()
    maps = torch.zeros(2, model.kind.in_features, 5, 5)
    maps[0, :, 2, 2] = 1.0  # a feature in the middle cell (the top face)
    maps[1, :, 0, 0] = 1.0  # the same feature in a corner (a side face)
    model.features = torch.nn.Identity()
    model.mean = torch.zeros(1, 1, 1, 1)
    with torch.no_grad():
        kind, _value, _state, emb = model(maps * 64.0)
    assert torch.allclose(kind[0], kind[1], atol=1e-4)
    assert float((emb[0] - emb[1]).abs().max()) > 1e-2


def _crops(n: int) -> Arrays:
    """n random crops with random labels, a third of them level."""
    rng = np.random.default_rng(0)
    return Arrays(
        rng.integers(0, 256, (n, 96, 96, 3), dtype=np.uint8),
        rng.integers(0, len(KINDS), n),
        rng.integers(0, len(VALUE_LABELS), n),
        np.zeros(n, np.int64),
        np.arange(n) % 3 == 0,
    )


@pytest.mark.parametrize("bf16", [True, False])
def test_a_short_run_learns_and_hands_back_a_plain_float_model(bf16: bool) -> None:
    """Whatever the arithmetic while training, the model comes back float32, NCHW, in eval mode
    (what the ONNX export expects), and its weights moved. Going on from trained weights, it
    keeps their size throughout (no low-resolution phase)."""
    n = 64
    data = _crops(n)
    start = DiceNet()
    before = start.embed.weight.detach().clone()
    config = TrainConfig(minutes=0.02, batch=16, bf16=bf16, small_share=0.5)
    model, summary = train(
        data, data, config, log=lambda _: None, init=start, real_varied=np.arange(n) % 2 == 0,
        real_table=np.arange(n) % 4 == 0,
    )
    assert summary["steps"] >= 1 and summary["real_varied_crops"] == n // 2
    assert summary["real_table_crops"] == n // 4
    assert summary["small_steps"] == 0 and summary["small_share"] == 0
    assert not model.training and model.embed.weight.dtype == torch.float32
    assert model.features[0].weight.is_contiguous()
    assert not torch.equal(before, model.embed.weight)


def test_a_run_from_scratch_trains_its_first_share_on_small_crops() -> None:
    data = _crops(32)
    config = TrainConfig(minutes=0.05, batch=16, small_share=0.5)
    model, summary = train(data, data, config, log=lambda _: None)
    # the first half of the time on small crops, the rest at the size the model reads
    assert 1 <= summary["small_steps"] < summary["steps"]
    assert not model.training


def test_shrink_some_takes_the_fine_detail_of_a_share_of_crops_and_keeps_their_size() -> None:
    """A one-pixel checkerboard drawn from fewer pixels and enlarged back loses its contrast:
    the crops picked lose it, the others are untouched."""
    board = (torch.arange(32)[:, None] + torch.arange(32)[None, :]) % 2 * 255.0
    x = board.expand(200, 3, 32, 32).clone()
    out = shrink_some(x.clone(), torch.Generator().manual_seed(4), 0.5, 8)
    assert out.shape == x.shape
    shrunk = [i for i in range(200) if not torch.equal(out[i], x[i])]
    assert 70 < len(shrunk) < 130
    for i in shrunk:
        assert float(out[i].std()) < 0.9 * float(x[i].std())
        assert abs(float(out[i].mean()) - 127.5) < 10  # the same light, less detail
    assert torch.equal(shrink_some(x.clone(), torch.Generator(), 0.0, 8), x)
