"""The detector's head on Lite0's frozen ImageNet features (issue 53): training moves the head
alone, the frozen features keep their weights and batch statistics, and the shipped ONNX file
gives what the torch network gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # vision.train needs the train extra, which CI lacks
from vision.detect import Detector
from vision.train.fit import scene_set, train_detector
from vision.train.nets import DetectorExport, PretrainedDetector
from vision.train.scenes import render_scene
from vision.train.ship import ship_detector


def test_training_moves_the_head_and_leaves_the_pretrained_features_alone(tmp_path: Path) -> None:
    scenes = [render_scene(np.random.default_rng(seed)) for seed in range(2)]
    data = scene_set([(s.image, s.boxes) for s in scenes], side=320)
    before = PretrainedDetector().state_dict()
    net = train_detector(data, seconds=0.0, log=lambda _: None, batch=2, steps=2,
                         pretrained=True)
    after = net.state_dict()
    frozen = [k for k in before if k.startswith("backbone.")]
    assert any(k.endswith("running_var") for k in frozen)
    assert all(torch.equal(before[k], after[k]) for k in frozen)
    assert after["heat.1.bias"].item() != pytest.approx(-4.0)  # it starts at -4 and learnt
    assert not torch.equal(after["fuse4.1.running_mean"], torch.zeros(32))  # head norms train

    path = tmp_path / "detector.onnx"
    ship_detector(net, path, "test", {"left_out_rigs": []})
    detector = Detector(path, threads=1)
    batch, _ = detector.preprocess(scenes[0].image)
    shipped = detector.session.run(None, {detector.input_name: batch})
    with torch.no_grad():
        ours = [t.numpy() for t in DetectorExport(net.eval())(torch.from_numpy(batch))]
    np.testing.assert_allclose(ours[0], shipped[0], atol=1e-4)
    np.testing.assert_allclose(ours[1], shipped[1], rtol=1e-3)
