"""Int8 model files: onnxruntime's static quantization of a model's convolutions, in place.

Why: the convolutions are nearly all of a model's arithmetic, and onnxruntime runs them in int8
(VNNI here, the dot-product instructions on a Pi 5) at a fraction of float32's cost: one dice
model call on ten crops took 3.9 ms instead of 9.2 on the same slow day, and the held-out photos
read as before (measured in docs/reader-history.md). The files shrink by half too.

Each convolution's weights become int8 per output channel and its input uint8, with the ranges
the model's own inputs reach on CALIBRATION_CROPS renders of a seed no run trains or measures on
(min-max). The heads stay float32: they are a sliver of the cost, and the value head's cosine
to the prototypes is what enrolled custom dice are compared by. The file stays one onnxruntime
runs as it is (QuantizeLinear / DequantizeLinear pairs around float operators, "QDQ"), and its
initializers keep their torch names, so vision.train.recover can take weights back from it.

`python -m vision.train.quantize models/` makes a folder's float model files int8 (older runs'
files, float16 ones included) and measures their cards again.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.classify import EXPERTS, LINKED, Classifier
from vision.model_file import file_sha256, load_card
from vision.numerals import NumeralReader
from vision.train import dataset
from vision.train.card import update_card

if TYPE_CHECKING:
    import onnx

CALIBRATION_CROPS = 512
CALIBRATION_SEED = 4040
# what a quantized file's card says under "weights"
INT8 = "int8 convolutions, float32 heads"


def calibration_crops(workers: int = 2) -> np.ndarray:
    """Rendered die crops of every kind (cocked and empty ones among them) to calibrate on."""
    return dataset.synthetic(CALIBRATION_CROPS, CALIBRATION_SEED, workers).images


def network_inputs(path: Path, crops: np.ndarray) -> np.ndarray:
    """What the model at `path` is given for these crops at run time (its card says whether it
    is a patch reader or a dice model, and which part of the crop it reads)."""
    if "texts" in load_card(path):
        return NumeralReader(path, threads=1).batch(list(crops))
    return Classifier(path, threads=1, linked=False).preprocess(list(crops))


def is_int8(path: Path) -> bool:
    """Whether the ONNX file at `path` is already quantized."""
    import onnx

    return any(n.op_type == "QuantizeLinear" for n in onnx.load(str(path)).graph.node)


def file_fields(path: Path) -> dict:
    """The card's keys that describe the file itself: checksum, size, and how weights are kept."""
    return {
        "sha256": file_sha256(path),
        "size_bytes": path.stat().st_size,
        "weights": INT8 if is_int8(path) else "float32",
    }


def _float32_weights(model: onnx.ModelProto) -> None:
    """Give a file whose weights were stored as float16 (cast to float32 in the graph) float32
    initializers under the cast's name again, so the quantizer finds each convolution's weight."""
    from onnx import TensorProto, numpy_helper

    graph = model.graph
    stored = {i.name: i for i in graph.initializer}
    casts = [n for n in graph.node if n.op_type == "Cast" and n.input[0] in stored]
    for node in casts:
        half = stored[node.input[0]]
        if half.data_type != TensorProto.FLOAT16:
            continue
        weight = numpy_helper.to_array(half).astype(np.float32)
        graph.initializer.remove(half)
        graph.initializer.append(numpy_helper.from_array(weight, node.output[0]))
        graph.node.remove(node)


class _Batches:
    """onnxruntime's CalibrationDataReader protocol over an input array, 32 at a time."""

    def __init__(self, name: str, inputs: np.ndarray) -> None:
        self._it: Iterator[dict[str, np.ndarray]] = (
            {name: inputs[i : i + 32]} for i in range(0, len(inputs), 32)
        )

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._it, None)


def quantize(path: Path, crops: np.ndarray) -> None:
    """Rewrite the float model at `path` with int8 convolutions calibrated on `crops` (uint8 BGR
    die crops); its card, which must be beside it, gets the new file's checksum and size."""
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    inputs = network_inputs(path, crops)
    model = onnx.load(str(path))
    _float32_weights(model)
    name = model.graph.input[0].name
    with tempfile.TemporaryDirectory() as tmp:
        plain, shaped = Path(tmp) / "plain.onnx", Path(tmp) / "shaped.onnx"
        onnx.save(model, str(plain))
        # shapes only: onnxruntime's graph optimisation would fold the prototypes' normalisation
        # into a new constant, and recover looks for them by name
        quant_pre_process(str(plain), str(shaped), skip_optimization=True)
        quantize_static(
            str(shaped), str(path), _Batches(name, inputs),
            quant_format=QuantFormat.QDQ, op_types_to_quantize=["Conv"], per_channel=True,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
        )
    training = json.loads(path.with_suffix(".json").read_text()).get("training", {})
    # without a float16 file's note on its weights: the card's own "weights" says int8 now
    update_card(path, {**file_fields(path),
                       "training": {k: v for k, v in training.items() if k != "weights"}})


def _models(folder: Path) -> list[Path]:
    """The dice model in `folder` and every model its card links (readers, experts)."""
    dice = folder / "dice.onnx"
    card = json.loads(dice.with_suffix(".json").read_text())
    linked = [card[key]["file"] for key in LINKED if card.get(key)]
    linked += [entry["file"] for entry in card.get(EXPERTS, [])]
    return [dice, *(folder / name for name in linked)]


def main(argv: list[str] | None = None) -> int:
    from vision.train import numerals, pips
    from vision.train.evaluate import remeasure
    from vision.train.expert import measure_expert

    p = argparse.ArgumentParser(prog="python -m vision.train.quantize", description=__doc__)
    p.add_argument("folder", type=Path, help="a models folder (dice.onnx and what it links)")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    crops = calibration_crops(args.workers)
    readers = {recipe.file: recipe for recipe in (numerals.RECIPE, pips.RECIPE)}
    dice, *linked = _models(args.folder)
    for path in (dice, *linked):
        if is_int8(path):
            print(f"{path}: int8 already")
            continue
        quantize(path, crops)
        print(f"{path}: int8, {path.stat().st_size / 1e6:.2f} MB")
    for path in linked:  # each alone, as its card measures it
        recipe = readers.get(path.name)
        accuracy = (
            recipe.measure(NumeralReader(path), args.workers, 0) if recipe else measure_expert(path)
        )
        update_card(path, {"accuracy": accuracy})
    value = remeasure(dice)["accuracy"]["real_held_out"]["all"]["value"]
    print(f"{dice} measured again with them: held-out real value {value:.2%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
