"""Fine-tuning the shipped detector (issue 53): its weights read out of models/detector.onnx
compute what onnxruntime computes, and a run budgeted in steps keeps the norms it went on from."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # vision.train needs the train extra, which CI lacks
from vision.detect import DEFAULT_DETECTOR, Detector
from vision.train.fit import scene_set, train_detector
from vision.train.nets import DetectorExport
from vision.train.onnx_weights import detector_from_onnx, detector_state_from_onnx
from vision.train.scenes import render_scene


@pytest.fixture(scope="module")
def frames() -> list:
    return [render_scene(np.random.default_rng(seed)) for seed in range(3)]


def test_the_shipped_detectors_weights_in_torch_give_onnxruntimes_outputs(frames: list) -> None:
    net = DetectorExport(detector_from_onnx(DEFAULT_DETECTOR)).eval()
    detector = Detector(threads=1)
    for scene in frames:
        batch, _ = next(detector.inputs(scene.image))
        shipped = detector.session.run(None, {detector.input_name: batch})
        with torch.no_grad():
            ours = [t.numpy() for t in net(torch.from_numpy(batch))]
        assert shipped[0].max() > 0.5  # a frame with dice found, not an empty heatmap
        heat, size, offset = shipped
        np.testing.assert_allclose(ours[0], heat, atol=1e-4)
        np.testing.assert_allclose(ours[2], offset, atol=1e-4)
        # box sides in pixels (up to ~1000): the same to a ten-thousandth of themselves
        np.testing.assert_allclose(ours[1], size, rtol=1e-4)


def test_a_fine_tune_runs_its_steps_and_keeps_the_folded_norms(frames: list) -> None:
    start = detector_state_from_onnx(DEFAULT_DETECTOR)
    data = scene_set([(s.image, s.boxes) for s in frames], side=320)
    seen = []
    net = train_detector(data, seconds=0.0, log=seen.append, batch=2, steps=3, init=start)
    assert "3 steps" in seen[-1]  # the step budget ran though the seconds were none
    assert any("step 3," in line for line in seen)  # and logged as it went
    tuned = net.state_dict()
    norms = [k for k in start if k.endswith(("running_mean", "running_var"))]
    assert norms and all(torch.equal(tuned[k], start[k]) for k in norms)
    assert not torch.equal(tuned["heat.1.weight"], start["heat.1.weight"])  # it learnt
