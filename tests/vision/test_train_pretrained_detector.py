"""The detector's head on Lite0's frozen ImageNet features (issue 53): a training step moves the
head alone and leaves the frozen features' weights and batch statistics as loaded; the features
run in onnxruntime (as training on a CPU does) give torch's outputs; and the shipped ONNX file
gives what the trained network gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # vision.train needs the train extra, which CI lacks
from vision.detect import Detector
from vision.train.fit import head_on_onnx_features, scene_set, train_detector
from vision.train.nets import DetectorExport, PretrainedDetector
from vision.train.scenes import render_scene
from vision.train.ship import ship_detector


@pytest.fixture(scope="module")
def scenes() -> list:
    return [render_scene(np.random.default_rng(seed)) for seed in range(2)]


def test_a_training_step_moves_the_head_and_leaves_the_pretrained_features_alone() -> None:
    net = PretrainedDetector().train()
    before = {k: v.clone() for k, v in net.state_dict().items()}
    x = torch.rand(2, 3, 128, 128) * 255
    heat, size, offset = net(x)
    (heat.mean() + size.mean() + offset.mean()).backward()
    after = net.state_dict()
    frozen = [k for k in before if k.startswith("backbone.")]
    assert any(k.endswith("running_var") for k in frozen)
    assert all(torch.equal(before[k], after[k]) for k in frozen)  # ImageNet's statistics kept
    assert all(p.grad is None for p in net.backbone.parameters())
    assert net.heat[-1].weight.grad is not None
    assert not torch.equal(before["fuse4.1.running_mean"], after["fuse4.1.running_mean"])


def test_the_features_in_onnxruntime_give_torchs_outputs() -> None:
    net = PretrainedDetector().eval()
    x = torch.rand(2, 3, 320, 320) * 255
    with torch.no_grad():
        ours = [t.numpy() for t in head_on_onnx_features(net)(x)]
        theirs = [t.numpy() for t in net(x)]
    np.testing.assert_allclose(ours[0], theirs[0], atol=1e-4)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-3)


def test_a_trained_head_ships_as_the_runtimes_detector(scenes: list, tmp_path: Path) -> None:
    data = scene_set([(s.image, s.boxes) for s in scenes], side=320)
    net = train_detector(data, seconds=0.0, log=lambda _: None, batch=2, steps=2,
                         pretrained=True)
    assert net.heat[-1].bias.item() != pytest.approx(-4.0)  # it starts at -4 and learnt
    path = tmp_path / "detector.onnx"
    ship_detector(net, path, "test", {"left_out_rigs": []})
    detector = Detector(path, threads=1)
    batch, _ = detector.preprocess(scenes[0].image)
    shipped = detector.session.run(None, {detector.input_name: batch})
    with torch.no_grad():
        ours = [t.numpy() for t in DetectorExport(net.eval())(torch.from_numpy(batch))]
    # the heatmap keeps local maxima only: two neighbouring cells within float rounding of each
    # other may fall either way, in torch and in onnxruntime alike
    peaks, kept = ours[0] > 0, shipped[0] > 0
    np.testing.assert_allclose(ours[0][peaks & kept], shipped[0][peaks & kept], atol=1e-4)
    assert (peaks != kept).mean() < 1e-3
    np.testing.assert_allclose(ours[1], shipped[1], rtol=1e-3)
