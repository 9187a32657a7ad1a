"""Taught faces of custom dice: prototypes from a few embeddings, matching, files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.errors import ModelError
from vision.prototypes import MATCH_AT, FacePrototype, Prototypes, decode_shot, encode_shot


def _shots(direction: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    return direction + rng.normal(0, 0.05, (n, direction.size)) * np.linalg.norm(direction)


def test_faces_taught_from_a_few_shots_are_recognised() -> None:
    rng = np.random.default_rng(1)
    skull, crown = rng.normal(size=32), rng.normal(size=32)
    taught = Prototypes(
        [
            FacePrototype.from_embeddings("bones", "skull", _shots(skull, 4, rng)),
            FacePrototype.from_embeddings("bones", "crown", _shots(crown, 4, rng)),
        ]
    )
    assert taught.dice == {"bones"}
    seen = np.stack([_shots(crown, 1, rng)[0] * 7.0, _shots(skull, 1, rng)[0], rng.normal(size=32)])
    first, second, third = taught.match(seen)
    assert first is not None and first.prototype.face == "crown" and first.similarity > 0.85
    assert second is not None and second.prototype.face == "skull"
    assert third is None  # an unrelated crop is left to the standard classifier
    assert Prototypes([]).match(seen) == [None, None, None]


def test_prototypes_round_trip_and_bad_files(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    crop = rng.integers(0, 256, (24, 24, 3), dtype=np.uint8)
    shots = [encode_shot(crop), encode_shot(crop[::-1])]
    face = FacePrototype.from_embeddings("runes", "ansuz", rng.normal(size=(2, 16)), shots)
    assert np.linalg.norm(face.vector) == pytest.approx(1.0, abs=1e-5)
    path = tmp_path / "taught.json"
    Prototypes([face], match_at=0.9, model_sha256="ab" * 32).save(path)
    back = Prototypes.load(path)
    # the bar is this code's, set for the model's embedding, not the store's
    assert back.match_at == MATCH_AT and "match_at" not in json.loads(path.read_text())
    assert back.faces == (face,) and back.model_sha256 == "ab" * 32
    assert np.allclose(back.faces[0].vector, face.vector, atol=1e-6)
    assert np.array_equal(decode_shot(back.faces[0].shots[1]), crop[::-1])  # lossless
    assert back.of({"runes"}).model_sha256 == "ab" * 32 and back.of({"bones"}).faces == ()
    # a store from before the model and shots were kept still loads, as such
    path.write_text(json.dumps({"faces": [{"die": "x", "face": "y", "vector": [1, 0]}]}))
    old = Prototypes.load(path)
    assert old.model_sha256 is None and old.faces[0].shots == ()
    for bad in (
        {"format": 99, "faces": []},
        {"faces": [{"die": "x", "face": "y", "vector": [1, 0], "shots": ["not base64!"]}]},
    ):
        path.write_text(json.dumps(bad))
        with pytest.raises(ModelError, match="unreadable"):
            Prototypes.load(path)
    with pytest.raises(ValueError, match="not an image"):
        decode_shot(b"GIF89a but cut")
    path.write_text(json.dumps({"faces": [{"die": "x"}]}))
    with pytest.raises(ModelError, match="unreadable"):
        Prototypes.load(path)
    with pytest.raises(ModelError):
        Prototypes.load(tmp_path / "none.json")
    with pytest.raises(ValueError, match="no shots"):
        FacePrototype.from_embeddings("runes", "ansuz", np.zeros((0, 16)))
