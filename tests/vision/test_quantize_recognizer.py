"""The recognizer's convolutions in 8 bits (vision.train.quantize, run by `make numerals`): a
file of an older opset is brought to one whose weights may be quantized per channel, every
convolution then reads 8-bit weights, and the network still computes nearly what it did."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")  # the train extra's, which CI lacks
from onnx import TensorProto, helper, numpy_helper

from vision.model_file import file_sha256
from vision.train.quantize import PER_CHANNEL_OPSET, eight_bit_convolutions


def two_convolutions(path: Path, rng: np.random.Generator) -> None:
    """A small network of opset 11, as PP-OCR's recognizer ships: conv, relu, conv."""
    w1 = numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w1")
    w2 = numpy_helper.from_array(rng.normal(0, 0.3, (4, 8, 3, 3)).astype(np.float32), "w2")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w1"], ["a"], name="conv1", pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["a"], ["b"], name="relu"),
         helper.make_node("Conv", ["b", "w2"], ["y"], name="conv2", pads=[1, 1, 1, 1])],
        "two", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3, 12, 18])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 4, 12, 18])], [w1, w2])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 7
    onnx.save(model, str(path))


def run(path: Path, x: np.ndarray) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def test_every_convolution_reads_eight_bit_weights_and_computes_nearly_the_same(
        tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    path = tmp_path / "net.onnx"
    two_convolutions(path, rng)
    inputs = rng.uniform(-1, 1, (32, 3, 12, 18)).astype(np.float32)
    before = run(path, inputs[:4])
    eight_bit_convolutions(path, inputs, batch=8)
    model = onnx.load(str(path))
    assert max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")) \
        >= PER_CHANNEL_OPSET
    dequantized = {o for n in model.graph.node if n.op_type == "DequantizeLinear"
                   for o in n.output}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    assert len(convs) == 2 and all(n.input[1] in dequantized for n in convs)
    after = run(path, inputs[:4])
    assert not np.array_equal(before, after)  # rounded ...
    assert np.abs(after - before).max() < 0.05 * np.abs(before).max()  # ... by little
    first = file_sha256(path)
    two_convolutions(path, np.random.default_rng(3))
    eight_bit_convolutions(path, inputs, batch=8)
    assert file_sha256(path) == first  # the same ranges, the same file: `make numerals` repeats


def test_a_network_without_convolutions_is_refused(tmp_path: Path) -> None:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")], "none",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 3])])
    path = tmp_path / "none.onnx"
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.save(model, str(path))
    with pytest.raises(ValueError, match="no convolutions"):
        eight_bit_convolutions(path, np.zeros((2, 3), np.float32))
