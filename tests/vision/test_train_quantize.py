"""Int8 model files read as their float exports (needs the train extra)."""

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper
from trained_nets import TRAINING, exported, trained_looking_net

from vision.classify import Classifier
from vision.model_file import file_sha256
from vision.train.export import write_card
from vision.train.model import INPUT_SIZE
from vision.train.quantize import INT8, is_int8, quantize

REPO = Path(__file__).resolve().parents[2]


def dice_file(path: Path, seed: int) -> Path:
    """A trained-looking DiceNet's export with its card."""
    return exported(trained_looking_net(seed), path)


def crops(n: int, seed: int) -> np.ndarray:
    """Smooth colour fields with a bright blob, closer to die crops than pixel noise is."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:INPUT_SIZE, 0:INPUT_SIZE] / INPUT_SIZE
    out = np.empty((n, INPUT_SIZE, INPUT_SIZE, 3), np.uint8)
    for i in range(n):
        base = rng.uniform(20, 120, 3) + rng.uniform(-40, 40, 3) * xx[..., None]
        cx, cy, r = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.15, 0.3)
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / r**2)[..., None]
        out[i] = np.clip(base + blob * rng.uniform(80, 200, 3), 0, 255)
    return out


def outputs(path: Path, x: np.ndarray) -> dict[str, np.ndarray]:
    clf = Classifier(path, linked=False)
    return clf.run(clf.preprocess(list(x)))


def test_an_int8_file_reads_as_its_float_export_and_its_card_follows(tmp_path: Path) -> None:
    float_path = dice_file(tmp_path / "float" / "dice.onnx", 3)
    path = dice_file(tmp_path / "int8" / "dice.onnx", 3)
    quantize(path, crops(128, 0))
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["sha256"] == file_sha256(path) and card["size_bytes"] == path.stat().st_size
    assert card["weights"] == INT8 and is_int8(path) and not is_int8(float_path)
    assert path.stat().st_size < 0.55 * float_path.stat().st_size
    x = crops(64, 1)
    want, got = outputs(float_path, x), outputs(path, x)
    cosine = np.sum(want["embedding"] * got["embedding"], axis=1)
    assert cosine.min() > 0.95
    for name in ("kind", "state"):
        spread = np.abs(want[name]).max()
        assert np.abs(got[name] - want[name]).max() < 0.1 * spread
        assert np.mean(got[name].argmax(1) == want[name].argmax(1)) >= 0.9


def halved(path: Path) -> None:
    """The file with its large weights stored as float16, each cast to float32 in the graph, as
    the d4 expert was shipped before its convolutions were int8."""
    model = onnx.load(str(path))
    graph = model.graph
    casts = []
    for init in list(graph.initializer):
        weight = numpy_helper.to_array(init)
        if init.data_type != TensorProto.FLOAT or weight.size < 1024:
            continue
        graph.initializer.remove(init)
        graph.initializer.append(numpy_helper.from_array(weight.astype(np.float16), init.name + "h"))
        casts.append(helper.make_node("Cast", [init.name + "h"], [init.name], to=TensorProto.FLOAT))
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.save(model, str(path))


def test_a_float16_file_is_quantized_from_its_float32_weights(tmp_path: Path) -> None:
    plain = dice_file(tmp_path / "plain" / "dice.onnx", 4)
    half = dice_file(tmp_path / "half" / "dice.onnx", 4)
    halved(half)
    write_card(half, "0.0.1", {}, TRAINING)
    calibration = crops(64, 2)
    quantize(plain, calibration)
    quantize(half, calibration)
    def casts(path: Path) -> int:
        return sum(n.op_type == "Cast" for n in onnx.load(str(path)).graph.node)

    assert casts(half) == casts(plain)  # the weights' casts are gone, the graph's own stay
    x = crops(16, 3)
    want, got = outputs(plain, x), outputs(half, x)
    np.testing.assert_allclose(got["kind"], want["kind"], atol=0.05 * np.abs(want["kind"]).max())


def test_the_shipped_models_are_int8() -> None:
    for path in sorted((REPO / "models").glob("*.onnx")):
        card = json.loads(path.with_suffix(".json").read_text())
        assert is_int8(path) and card["weights"] == INT8, path.name
