"""The detector's head on Lite0's frozen ImageNet features (issue 53): a training step moves the
head alone and leaves the frozen features' weights and batch statistics as loaded; the features
run in onnxruntime (as training on a CPU does) give torch's outputs, or in 8 bits their rounding;
and the shipped ONNX file, its Lite0 in 8 bits, gives what the head learnt on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # vision.train needs the train extra, which CI lacks
import onnx

from vision.detect import Detector
from vision.train.fit import head_on_onnx_features, onnx_features, scene_set, train_detector
from vision.train.nets import DiceDetector, PretrainedDetector
from vision.train.quantize import FROZEN, calibration
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


def test_the_features_in_8_bits_round_the_float_ones(scenes: list) -> None:
    """Lite0's frozen features (no trained weight in them: the same every run) in 8 bits over
    calibration frames: rounded, but each stride's features still tracking the float ones."""
    net = PretrainedDetector().eval()
    frames = calibration(scene_set([(s.image, s.boxes) for s in scenes], side=320).images)
    exact, rounded = onnx_features(net)(frames), onnx_features(net, frames)(frames)
    for a, b in zip(exact, rounded, strict=True):
        assert not np.allclose(a, b, atol=1e-3)
        assert np.corrcoef(a.ravel(), b.ravel())[0, 1] > 0.8  # 0.90-0.92 here


def test_a_trained_head_ships_as_the_runtimes_detector(scenes: list, tmp_path: Path) -> None:
    data = scene_set([(s.image, s.boxes) for s in scenes], side=320)
    net = train_detector(data, seconds=0.0, log=lambda _: None, batch=2, steps=2,
                         pretrained=True)
    assert net.heat[-1].bias.item() != pytest.approx(-4.0)  # it starts at -4 and learnt
    path = tmp_path / "detector.onnx"
    with pytest.raises(ValueError, match="8 bits"):
        ship_detector(net, path, "test", {"left_out_rigs": []})
    frames = calibration(data.images)
    ship_detector(net, path, "test", {"left_out_rigs": []}, frames=frames)
    # Lite0's convolutions take 8-bit weights, the trained head's float ones
    graph = onnx.load(str(path)).graph
    dequantized = {o for n in graph.node if n.op_type == "DequantizeLinear" for o in n.output}
    convs = {n.name: n.input[1] in dequantized for n in graph.node if n.op_type == "Conv"}
    lite0 = {name: any(part in name for part in FROZEN) for name in convs}
    assert any(lite0.values()) and not all(lite0.values())
    assert convs == lite0
    detector = Detector(path, threads=1)
    batch, _ = next(detector.inputs(scenes[0].image))
    shipped = detector.session.run(None, {detector.input_name: batch})
    with torch.no_grad():  # the features as the head learnt them: in 8 bits, over those frames
        logits, size, _ = head_on_onnx_features(net, frames)(torch.from_numpy(batch))
    heat = torch.sigmoid(logits).numpy()
    kept = shipped[0] > 0  # the heatmap keeps local maxima only
    assert kept.any()
    np.testing.assert_allclose(heat[kept], shipped[0][kept], atol=1e-3)
    np.testing.assert_allclose(size.numpy(), shipped[1], rtol=1e-2)


def test_a_pretrained_run_goes_on_only_from_a_pretrained_runs_weights(tmp_path: Path) -> None:
    from vision.train.__main__ import parse_args

    argv = ["--only", "detector", "--pretrained-detector", "--init", str(tmp_path)]
    with pytest.raises(SystemExit):  # a shipped model's folder: no detector.pt
        parse_args(argv)
    torch.save(DiceDetector().state_dict(), tmp_path / "detector.pt")
    with pytest.raises(SystemExit):  # a from-scratch run's weights
        parse_args(argv)
    assert parse_args(argv[:2] + argv[3:]).init == tmp_path  # ... go on from scratch
    torch.save(PretrainedDetector(pretrained=False).state_dict(), tmp_path / "detector.pt")
    assert parse_args(argv).init == tmp_path
    with pytest.raises(SystemExit):  # a pretrained run's, without --pretrained-detector
        parse_args(argv[:2] + argv[3:])
