"""The table memory's key (models/memory.onnx): unit keys of die crops, the file checked against
its card, and (with the train extra) the file is the wheel's ImageNet Lite0 it says it is."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from model_copies import model_with_card

from vision.errors import ModelError
from vision.memory_key import DEFAULT_MODEL, MemoryKey
from vision.top_face import DEFAULT_MODEL as LOCATOR
from vision.top_face import TopFaceLocator
from vision.train.render import render_crop

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/memory.onnx missing")


def crops(count: int, size: int = 96) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [render_crop(rng, size, "d20").image for _ in range(count)]


@needs_model
def test_keys_are_unit_rows_and_a_crop_of_another_size_is_brought_to_the_model_side() -> None:
    key = MemoryKey()
    big = crops(3, size=160)
    keys = key.embed(big)
    assert keys.shape == (3, 320) and keys.dtype == np.float32
    assert np.allclose(np.linalg.norm(keys, axis=1), 1.0, atol=1e-4)
    side = key.input_size
    resized = [cv2.resize(c, (side, side), interpolation=cv2.INTER_AREA) for c in big]
    assert np.allclose(key.embed(resized), keys, atol=1e-5)
    assert key.embed([]).shape[0] == 0
    with pytest.raises(ValueError, match="not a BGR image"):
        key.embed([big[0][..., 0]])


@needs_model
def test_a_missing_or_corrupt_key_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        MemoryKey(tmp_path / "memory.onnx")
    shutil.copy(DEFAULT_MODEL.with_suffix(".json"), tmp_path / "memory.json")
    (tmp_path / "memory.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="does not match its card"):
        MemoryKey(tmp_path / "memory.onnx")


@needs_model
@pytest.mark.parametrize("card", [lambda c: c.pop("input"), lambda c: c["input"].pop("size"),
                                  lambda c: c["input"].update(size="wide")])
def test_a_card_without_its_input_size_is_a_model_error(tmp_path: Path, card) -> None:
    """The memory's key and the top-face locator read their crop side from the card alone."""
    for model in (DEFAULT_MODEL, LOCATOR):
        with pytest.raises(ModelError, match="lacks its input size"):
            (MemoryKey if model == DEFAULT_MODEL else TopFaceLocator)(
                model_with_card(tmp_path / model.stem, card, model))


@needs_model
def test_the_shipped_key_is_the_wheels_imagenet_lite0_in_eight_bits() -> None:
    """The file's key of each crop is nearer the float network's key of that crop
    (vision.train.memory_key) than of any other: it is ImageNet's Lite0, untrained on dice, as
    its card says, its 8-bit rounding (cosines of 0.83-0.97 here) too small to mix dice up."""
    torch = pytest.importorskip("torch")  # the train extra, which CI lacks
    from vision.train.memory_key import MemoryKey as FloatKey

    batch = crops(8)
    with torch.no_grad():
        want = FloatKey().eval()(torch.from_numpy(
            np.stack(batch).transpose(0, 3, 1, 2).astype(np.float32))).numpy()
    got = MemoryKey().embed(batch)
    assert list((got @ want.T).argmax(axis=1)) == list(range(len(batch)))
