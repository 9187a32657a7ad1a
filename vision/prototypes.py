"""Custom dice without retraining: faces taught from a few shots, matched by embedding.

The classifier exposes an embedding of every crop. A custom die's face is stored as a prototype:
the mean direction of the embeddings of a few crops of that face. A crop whose embedding points
close enough to a prototype (cosine similarity) reads as that die and face; anything else is
left to the classifier's standard kinds.

Embeddings belong to one model: the store records the sha256 of the model it was taught with,
and keeps the shots themselves (the model-input crops, as PNG) so that a store taught with
another model is re-embedded with the current one when it is loaded (load_taught), rather than
matched as nonsense. A store without shots (written before they were kept) cannot be, and is
refused with a request to teach its dice again.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.errors import ModelError

if TYPE_CHECKING:
    from vision.classify import Classifier

STORE_FORMAT = 2  # 1 (no "format" key): vectors only; 2: with model sha256 and the shots
MATCH_AT = 0.85  # cosine similarity from which a crop is taken for a taught face
# A crop nearly as like another taught face as like its nearest is read as the nearest but
# flagged unsure: two faces the embedding hardly tells apart (a colour twin, a mirrored icon)
# are asked, not guessed. On 300 validation frames of the bench's five dice (seeds of their
# own, neither taught from nor read by the bench), matched among the expected die's faces,
# 0.07 left 12 wrong readings sure (107 right ones), 0.1 left 3 (85), 0.15 none (54). 0.15
# also flags a photo's two taught dice 0.91 alike, and photo mode, finding every die unsure,
# then reads that photo as three dice (tests/test_cli_enroll.py): 0.07 until photo mode
# weighs a taught die's doubt apart from a missed outline.
MARGIN = 0.07


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
    shots: tuple[bytes, ...] = field(default=(), compare=False, repr=False)  # PNG crops

    @classmethod
    def from_embeddings(
        cls, die: str, face: str, embeddings: np.ndarray, shots: Sequence[bytes] = ()
    ) -> FacePrototype:
        """The prototype of a face from the embeddings of a few crops of it (kept as `shots`,
        PNG bytes, to embed again with another model)."""
        if len(embeddings) == 0:
            raise ValueError(f"no shots of {die}:{face} to learn from")
        return cls(die, face, _unit(_unit(embeddings).mean(axis=0)), tuple(shots))


def encode_shot(crop: np.ndarray) -> bytes:
    """A BGR crop as PNG bytes (lossless: embedded again, it gives the same vector)."""
    ok, data = cv2.imencode(".png", crop)
    if not ok:  # pragma: no cover - encoding a valid uint8 image does not fail
        raise ValueError("cannot encode the shot as PNG")
    return data.tobytes()


def decode_shot(data: bytes) -> np.ndarray:
    """PNG bytes back to the BGR crop; ValueError if they are not an image."""
    crop = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if crop is None:
        raise ValueError("a stored shot is not an image")
    return crop


@dataclass(frozen=True)
class Match:
    prototype: FacePrototype
    similarity: float
    rival: FacePrototype | None = None  # the next nearest face (of any die), if any
    rival_similarity: float = -1.0

    def doubt(self) -> str | None:
        """Why the match is not sure: another face lies within MARGIN of it; else None."""
        if self.rival is None or self.similarity - self.rival_similarity >= MARGIN:
            return None
        return (f"as like {self.rival.die}:{self.rival.face} ({self.rival_similarity:.2f}) as "
                f"like {self.prototype.die}:{self.prototype.face} ({self.similarity:.2f})")


class Prototypes:
    """The taught faces, matched against a batch of embeddings at once."""

    def __init__(
        self,
        faces: Sequence[FacePrototype],
        match_at: float = MATCH_AT,
        model_sha256: str | None = None,
    ) -> None:
        """`model_sha256`: the model whose embeddings the vectors are (None: not known)."""
        self.faces = tuple(faces)
        self.match_at = match_at
        self.model_sha256 = model_sha256
        self._matrix = np.stack([f.vector for f in self.faces]) if self.faces else np.zeros((0, 0))

    @property
    def dice(self) -> set[str]:
        return {f.die for f in self.faces}

    def of(self, dice: set[str]) -> Prototypes:
        """Only the faces of these dice (an expected custom die is matched only against its own
        faces)."""
        return Prototypes(
            [f for f in self.faces if f.die in dice], self.match_at, self.model_sha256
        )

    def nearest(self, embeddings: np.ndarray) -> list[Match]:
        """Per embedding: the closest taught face, however far (there must be faces), with the
        next closest."""
        similarity = _unit(embeddings) @ self._matrix.T
        order = np.argsort(-similarity, axis=1)
        matches = []
        for i, row in enumerate(order):
            rival = (self.faces[row[1]], float(similarity[i, row[1]])) if len(row) > 1 else None
            matches.append(Match(self.faces[row[0]], float(similarity[i, row[0]]),
                                 *(rival or (None, -1.0))))
        return matches

    def match(self, embeddings: np.ndarray) -> list[Match | None]:
        """Per embedding: the closest taught face if it is close enough, else None."""
        if not self.faces or len(embeddings) == 0:
            return [None] * len(embeddings)
        return [m if m.similarity >= self.match_at else None for m in self.nearest(embeddings)]

    def save(self, path: Path) -> None:
        faces = [
            {
                "die": f.die,
                "face": f.face,
                "vector": f.vector.tolist(),
                "shots": [base64.b64encode(shot).decode("ascii") for shot in f.shots],
            }
            for f in self.faces
        ]
        store = {"format": STORE_FORMAT, "model_sha256": self.model_sha256}
        path.write_text(json.dumps({**store, "match_at": self.match_at, "faces": faces}))

    @classmethod
    def load(cls, path: Path) -> Prototypes:
        """Read taught faces as stored; a missing or malformed file is a ModelError (it extends
        the model). See load_taught for a store checked against the model in use."""
        try:
            data = json.loads(path.read_text())
            if data.get("format", 1) > STORE_FORMAT:
                raise ValueError(f"format {data['format']} is newer than this Rollscribe's")
            faces = [
                FacePrototype(
                    f["die"],
                    f["face"],
                    _unit(np.array(f["vector"], np.float32)),
                    tuple(base64.b64decode(shot, validate=True) for shot in f.get("shots", ())),
                )
                for f in data["faces"]
            ]
            sha = data.get("model_sha256")
            return cls(faces, float(data.get("match_at", MATCH_AT)), str(sha) if sha else None)
        except (OSError, ValueError, KeyError, TypeError) as exc:  # binascii.Error too
            raise ModelError(f"taught faces {path} are unreadable: {exc}") from exc

    def embedded_with(self, classifier: Classifier) -> Prototypes:
        """These faces as the classifier's model sees them: themselves if they were taught with
        it, else every face again from its stored shots; ModelError if a face has none."""
        sha = classifier.card["sha256"]
        if self.model_sha256 == sha:
            return self
        if any(not f.shots for f in self.faces):
            taught = f"model {self.model_sha256[:12]}" if self.model_sha256 else "an older model"
            raise ModelError(
                f"were taught with {taught} and keep no shots to embed again with "
                f"{classifier.model_path.name}: teach those dice again (`rollscribe enroll`) "
                "into a new store"
            )
        faces = []
        for f in self.faces:
            crops = [decode_shot(shot) for shot in f.shots]
            vectors = classifier.run(classifier.preprocess(crops))["embedding"]
            faces.append(FacePrototype.from_embeddings(f.die, f.face, vectors, f.shots))
        return Prototypes(faces, self.match_at, sha)


def load_taught(path: Path, classifier: Classifier) -> tuple[Prototypes, str | None]:
    """The store at `path` ready to match the classifier's embeddings, and a note to show the
    player when its faces had to be embedded again (taught with another model), else None.
    ModelError when it is unreadable, or stale with no shots to embed again."""
    stored = Prototypes.load(path)
    try:
        ready = stored.embedded_with(classifier)
    except ModelError as exc:
        raise ModelError(f"taught faces {path} {exc}") from exc
    except ValueError as exc:  # a stored shot that is not an image
        raise ModelError(f"taught faces {path} are unreadable: {exc}") from exc
    if ready is stored:
        return stored, None
    return ready, (
        f"{path}: taught with another model, so its {len(ready.faces)} faces were embedded again "
        f"from their stored shots for {classifier.model_path.name}"
    )
