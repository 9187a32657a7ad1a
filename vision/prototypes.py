"""Custom dice without retraining: faces taught from a few shots, matched by embedding.

The classifier exposes an embedding of every crop. A custom die's face is stored as a prototype:
the mean direction of the embeddings of a few crops of that face. A crop whose embedding points
close enough to a prototype (cosine similarity) reads as that die and face; anything else is
left to the classifier's standard kinds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.errors import ModelError

MATCH_AT = 0.85  # cosine similarity from which a crop is taken for a taught face


def _unit(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.maximum(norms, 1e-9)


@dataclass(frozen=True)
class FacePrototype:
    """One taught face of a custom die."""

    die: str  # the custom die's name, e.g. "skulls"
    face: str  # the face's name, e.g. "skull"
    vector: np.ndarray = field(compare=False, repr=False)  # unit length

    @classmethod
    def from_embeddings(cls, die: str, face: str, embeddings: np.ndarray) -> FacePrototype:
        """The prototype of a face from the embeddings of a few crops of it."""
        if len(embeddings) == 0:
            raise ValueError(f"no shots of {die}:{face} to learn from")
        return cls(die, face, _unit(_unit(embeddings).mean(axis=0)))


@dataclass(frozen=True)
class Match:
    prototype: FacePrototype
    similarity: float


class Prototypes:
    """The taught faces, matched against a batch of embeddings at once."""

    def __init__(self, faces: Sequence[FacePrototype], match_at: float = MATCH_AT) -> None:
        self.faces = tuple(faces)
        self.match_at = match_at
        self._matrix = np.stack([f.vector for f in self.faces]) if self.faces else np.zeros((0, 0))

    @property
    def dice(self) -> set[str]:
        return {f.die for f in self.faces}

    def of(self, dice: set[str]) -> Prototypes:
        """Only the faces of these dice (an expected custom die is matched only against its own
        faces)."""
        return Prototypes([f for f in self.faces if f.die in dice], self.match_at)

    def match(self, embeddings: np.ndarray) -> list[Match | None]:
        """Per embedding: the closest taught face if it is close enough, else None."""
        if not self.faces or len(embeddings) == 0:
            return [None] * len(embeddings)
        similarity = _unit(embeddings) @ self._matrix.T
        best = similarity.argmax(axis=1)
        return [
            Match(self.faces[j], float(similarity[i, j]))
            if similarity[i, j] >= self.match_at
            else None
            for i, j in enumerate(best)
        ]

    def save(self, path: Path) -> None:
        data = [{"die": f.die, "face": f.face, "vector": f.vector.tolist()} for f in self.faces]
        path.write_text(json.dumps({"match_at": self.match_at, "faces": data}))

    @classmethod
    def load(cls, path: Path) -> Prototypes:
        """Read taught faces; a missing or malformed file is a ModelError (it extends the model)."""
        try:
            data = json.loads(path.read_text())
            faces = [
                FacePrototype(f["die"], f["face"], _unit(np.array(f["vector"])))
                for f in data["faces"]
            ]
            return cls(faces, float(data.get("match_at", MATCH_AT)))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"taught faces {path} are unreadable: {exc}") from exc
