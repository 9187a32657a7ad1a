"""The d4 expert's training step: what it trains on, what it writes (needs the train extra)."""

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.classify import Classifier
from vision.crops import CROP_MARGIN
from vision.train import expert
from vision.train.dataset import Arrays
from vision.train.labels import KINDS, VALUE_LABELS
from vision.train.model import DiceNet
from vision.train.quantize import INT8


def crops(kinds: list[str]) -> Arrays:
    n = len(kinds)
    return Arrays(
        images=np.random.default_rng(n).integers(0, 256, (n, 96, 96, 3), dtype=np.uint8),
        kinds=np.array([KINDS.index(k) for k in kinds]),
        values=np.array([VALUE_LABELS.index(f"{k}:1") for k in kinds]),
        states=np.zeros(n, np.int64),
        level=np.zeros(n, bool),
    )


def test_the_expert_trains_on_its_kinds_alone_and_writes_an_int8_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, int] = {}
    real_train = expert.train

    def train(synthetic: Arrays, real: Arrays, *args: object) -> tuple:
        seen["kinds"] = {KINDS[k] for k in np.concatenate([synthetic.kinds, real.kinds])}
        seen["counts"] = (len(synthetic), len(real))
        return real_train(synthetic, real, *args)

    monkeypatch.setattr(expert, "train", train)
    monkeypatch.setattr(expert, "measure_expert", lambda path: {"measured": path.name})
    monkeypatch.setattr(expert, "calibration_crops", lambda: crops(["d4"] * 64).images)
    synthetic = crops(["d4", "d6", "d4", "d20", "d4"])
    real = crops(["d8", "d4", "d6"])
    config = expert.ExpertConfig(minutes=0.01, seed=0, bf16=False, threads=1)
    torch.manual_seed(0)
    entry = expert.build_expert(
        DiceNet(), synthetic, real, np.zeros(3, bool), np.zeros(3, bool), config, tmp_path,
        print, "a test", "fresh weights",
    )
    assert seen == {"kinds": {"d4"}, "counts": (3, 1)}
    assert entry == {"file": expert.FILE, "kinds": ["d4"]}
    model = Classifier(tmp_path / expert.FILE, linked=False)
    assert model.card["accuracy"] == {"measured": expert.FILE}
    assert model.card["training"]["trained_on_from"] == "fresh weights"
    assert model.share == expert.SHARE < CROP_MARGIN  # it reads the middle of the crop
    assert (tmp_path / expert.FILE).stat().st_size < 2.0e6  # int8: half of DiceNet's 3.5 MB
    assert model.card["weights"] == INT8
    assert len(model.classify([synthetic.images[0]])) == 1


def test_expert_only_without_dice_weights_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from vision.train.__main__ import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--expert-only"])
    assert "--expert-only needs --init" in capsys.readouterr().err
    assert parse_args(["--expert-only", "--init", "w.pt"]).init == Path("w.pt")


def test_the_expert_draws_renders_of_its_kinds_alone_from_a_stream_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[tuple] = []
    monkeypatch.setattr(
        expert.dataset, "synthetic",
        lambda count, seed, workers, kinds: asked.append((count, seed, workers, kinds)),
    )
    expert.own_renders(seed=0, workers=2)
    assert asked == [(expert.RENDERS, expert.RENDER_SEED, 2, expert.KINDS_READ)]
    # the dice model's renders are seeds 1 and 3 after the run's, its held-out renders seed 2
    assert expert.RENDER_SEED not in (1, 2, 3)
