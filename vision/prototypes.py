"""Custom dice without retraining: faces taught from a few shots, matched by embedding.

The classifier exposes an embedding of every crop. A custom die's face is stored as a prototype:
the mean direction of the embeddings of a few crops of that face, with the shots' icons
(vision.icon_match). With nothing expected, a crop whose embedding points close enough to a
prototype (cosine similarity) reads as that die, its face chosen by icons and embedding
together; anything else is left to the classifier's standard kinds. An expected taught die is
found by how like its faces a crop looks (Match.likeness) in the reader's assignment instead.

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
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.errors import ModelError
from vision.icon_match import RADIUS, IconBank, fitted_radius, template

if TYPE_CHECKING:
    from vision.classify import Classifier

STORE_FORMAT = 2  # 1 (no "format" key): vectors only; 2: with model sha256 and the shots
# cosine similarity from which a crop is taken for a taught face. The embedding retrained for
# symbol dice (vision.train.icon_embedding) puts a face's crops nearer its own than any other
# face's, not near 0.85 (taught crops of the bench's dice, 600 validation frames: 0.2% reach
# 0.85, 93.5% 0.5, 99.0% 0.4; their companions, numbered dice: 0.0%, 3.7%, 10.3%; the shipped
# old embedding at 0.85 had 96.3% and 16.3%); 0.45 lies between
MATCH_AT = 0.45
# A crop nearly as like another taught face as like its nearest is read as the nearest but
# flagged unsure: two faces hardly told apart (a colour twin, a mirrored icon) are asked, not
# guessed. For faces taught without shots (the embedding alone): on 300 validation frames of
# the bench's five dice, matched among the expected die's faces, 0.07 left 12 wrong readings
# sure (107 right ones), 0.1 left 3 (85), 0.15 none (54). With the retrained embedding, 600
# validation crops within their die: 0.07 / 0.1 / 0.15 left 28 / 22 / 8 wrong readings sure
# (91% / 87% / 75% sure; the old embedding at 0.07: 24 and 48%).
MARGIN = 0.15
# Faces with shots are chosen by their icons too (vision.icon_match): a face's score is its icon
# correlation plus ICON_EMBEDDING times its embedding similarity, and a crop within FUSED_MARGIN
# of the next face's score is unsure. On 599 validation crops of the bench's five dice (seeds
# 8,000,000 on, neither taught nor read by it), within the expected die: icons alone 94.5% right,
# weights 0.25 / 0.5 / 1.0 gave 96.7% / 97.3% / 96.2%; at 0.5, margins 0.06 / 0.08 / 0.1 left
# 4 / 3 / 1 wrong readings sure (89% / 85% / 81% sure). Among all five dice's faces (nothing
# expected) 0.5 and 0.1 left 2 wrong readings sure of 599. With the retrained embedding (the
# same frames, truth boxes, 600 crops): weights 0.1 / 0.2 / 0.25 / 0.3 / 0.5 gave 98.0% /
# 99.3% / 99.3% / 99.0% / 98.5% (the old one at 0.5: 97.7%); at 0.25, margins 0.08 / 0.1 / 0.12
# left no wrong reading sure (90% / 86% / 84% sure); among all five dice's faces 96.7% right,
# none wrong and sure at 0.1.
ICON_EMBEDDING = 0.25
FUSED_MARGIN = 0.1
# How likely a crop is a taught die at all (Match.likeness), weighed against the classifier's
# kind probabilities when the expected dice are matched to the tray's: a logistic of the face's
# fused score about TAUGHT_AT (or, for faces taught without shots, of the embedding's similarity
# about MATCH_AT), TAUGHT_SLOPE steep. On 995 validation frames of the symbol dice bench (the
# taught die beside two numbered dice), the taught die's crop scored under 0.9 in 3% of frames
# and its companions over 0.9 in 0.5%; slopes 10 to 40 about 0.9 left the wrong crop matched
# to the taught die in 1 or 2 frames (about 0.8: 2 to 4).
TAUGHT_AT = 0.9
TAUGHT_SLOPE = 20.0
# A crop the embedding left just under MATCH_AT (NEAR_AT or more) whose icons and embedding fit a
# taught face as a taught die's do (a fused score of TAUGHT_AT or more) may be that die: read as
# a standard die, it is asked (vision.reader, nothing expected). The symbol memory bench read the
# green octahedron so as a d8 showing 4, sure (1 of its 200 fresh frames). On 500 validation
# frames of the symbol dice bench: taught crops in [0.25 / 0.3 / 0.35 / 0.4, 0.45) 18 / 16 / 16 /
# 12, fused over 0.9 13 / 11 / 11 / 9; their numbered companions there 383 / 208 / 102 / 44, fused
# over 0.9 6 / 5 / 4 / 0 (the dice a bar asks for nothing)
NEAR_AT = 0.4
# a face taught from fewer shots is never read as sure: one or two shots do not show how it
# looks under the tray's light and tilt (the demo's Monsters! faces, one shot each, were read
# sure and wrong in 2 of 20 sure readings)
SURE_SHOTS = 3


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
    # the crops (PNG or JPEG): the shots taught first, then those of confirmed rolls
    shots: tuple[bytes, ...] = field(default=(), compare=False, repr=False)
    learnt: int = field(default=0, compare=False)  # how many of the shots are confirmed rolls
    _icons: dict[float, np.ndarray] = field(
        default_factory=dict, init=False, compare=False, repr=False)

    @property
    def taught(self) -> int:
        """How many of the shots a player took to teach the face."""
        return len(self.shots) - self.learnt

    @cached_property
    def crops(self) -> list[np.ndarray]:
        """The shots decoded, once."""
        return [decode_shot(s) for s in self.shots]

    def icons(self, radius: float) -> np.ndarray:
        """The shots' icon templates (vision.icon_match) at `radius`, made once: (shots, ...)."""
        if radius not in self._icons:
            self._icons[radius] = np.stack([template(c, radius) for c in self.crops]) if (
                self.crops) else np.zeros((0, 1, 1), np.complex64)
        return self._icons[radius]

    @classmethod
    def from_embeddings(
        cls, die: str, face: str, embeddings: np.ndarray, shots: Sequence[bytes] = (),
        learnt: int = 0,
    ) -> FacePrototype:
        """The prototype of a face from the embeddings of a few crops of it (kept as `shots`,
        image bytes, to embed again with another model; the last `learnt` of them from
        confirmed rolls)."""
        if len(embeddings) == 0:
            raise ValueError(f"no shots of {die}:{face} to learn from")
        return cls(die, face, _unit(_unit(embeddings).mean(axis=0)), tuple(shots), learnt)


@lru_cache(maxsize=16)
def _fitted_radius(shots: tuple[tuple[bytes, ...], ...]) -> float:
    """fitted_radius for one die's shots (per face, PNG), kept for the dice seen last: a choice
    takes about 0.25 s for 40 shots, and the taught faces are made again whenever a shot is
    kept (and every reading takes the expected dice's faces apart), mostly with the same shots."""
    return fitted_radius([[decode_shot(s) for s in face] for face in shots])


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
    similarity: float  # the embedding's cosine similarity to the face
    rival: FacePrototype | None = None  # the next nearest face (of any die), if any
    rival_similarity: float = -1.0
    # icons and embedding together (None: the faces have no shots, the embedding alone chose)
    score: float | None = None
    rival_score: float = -1.0
    second_look: bool = False  # read from the die's box cut again (vision.reader), never sure

    def likeness(self) -> float:
        """How likely the crop shows this taught die at all, in (0, 1); 0.5 at the bar."""
        value, bar = (self.similarity, MATCH_AT) if self.score is None else (self.score, TAUGHT_AT)
        return float(1.0 / (1.0 + np.exp(-TAUGHT_SLOPE * (value - bar))))

    def doubt(self) -> str | None:
        """Why the match is not sure: its face was taught from too few shots (crops of
        confirmed rolls do not count: a face taught so was not measured), or another face lies
        within the margin of it; else None."""
        taught = self.prototype.taught
        if self.second_look:
            return ("its face was in doubt until read from its box cut tighter or looser: "
                    f"{self.prototype.face} ({self.score:.2f})")
        if self.prototype.shots and taught < SURE_SHOTS:
            return (f"{self.prototype.die}:{self.prototype.face} was taught from only {taught} "
                    f"shot{'' if taught == 1 else 's'}")
        if self.rival is None:
            return None
        if self.score is None:
            if self.similarity - self.rival_similarity >= MARGIN:
                return None
            near, best = self.rival_similarity, self.similarity
        else:
            if self.score - self.rival_score >= FUSED_MARGIN:
                return None
            near, best = self.rival_score, self.score
        return (f"as like {self.rival.die}:{self.rival.face} ({near:.2f}) as "
                f"like {self.prototype.die}:{self.prototype.face} ({best:.2f})")


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

    @cached_property
    def _icons(self) -> IconBank | None:
        """The faces' shots ready for icon matching (made when first needed), or None when a
        face has no shots. One die's faces are compared at its own disc; several dice's at
        RADIUS, so that all their scores are on one scale (on validation crops, a red die fitted
        to 0.19 and its blue twin to 0.22 were read as each other in 7 of 400 more)."""
        if not self.faces or not all(f.shots for f in self.faces):
            return None
        dice = self.dice
        radius = self.radius(dice.pop()) if len(dice) == 1 else RADIUS
        return IconBank([f.icons(radius) for f in self.faces], radius)

    def radius(self, die: str) -> float:
        """The icon disc for a die's faces, chosen from the shots it was taught from (not moved
        by every roll confirmed)."""
        return _fitted_radius(tuple(f.shots[:f.taught] for f in self.faces if f.die == die))

    @property
    def dice(self) -> set[str]:
        return {f.die for f in self.faces}

    def of(self, dice: set[str]) -> Prototypes:
        """Only the faces of these dice (an expected custom die is matched only against its own
        faces)."""
        return Prototypes(
            [f for f in self.faces if f.die in dice], self.match_at, self.model_sha256
        )

    def nearest(
        self, embeddings: np.ndarray, crops: Sequence[np.ndarray] | None = None
    ) -> list[Match]:
        """Per embedding: the closest taught face, however far (there must be faces), with the
        next closest. With the `crops` embedded, and shots for every face, faces are chosen by
        their icons and embedding together; else by the embedding alone."""
        similarity = _unit(embeddings) @ self._matrix.T
        icons = self._icons if crops is not None else None
        use_icons = icons is not None
        matches = []
        for i, row in enumerate(similarity):
            score = row if icons is None else icons.scores(crops[i]) + ICON_EMBEDDING * row
            first, *rest = np.argsort(-score)
            rival = rest[0] if rest else None
            matches.append(Match(
                self.faces[first], float(row[first]),
                None if rival is None else self.faces[rival],
                -1.0 if rival is None else float(row[rival]),
                float(score[first]) if use_icons else None,
                float(score[rival]) if use_icons and rival is not None else -1.0,
            ))
        return matches

    def match(
        self, embeddings: np.ndarray, crops: Sequence[np.ndarray] | None = None
    ) -> list[Match | None]:
        """Per embedding: the closest taught face (see nearest) if the crop is close enough to
        any taught face by embedding to be a taught die, else None (icons are compared only
        for those)."""
        return self._within(embeddings, crops, self.match_at, np.inf)

    def resembled(self, embeddings: np.ndarray, crops: Sequence[np.ndarray]
                  ) -> list[Match | None]:
        """Per crop: the taught face it may be though `match` left it out (NEAR_AT): its
        embedding just under the bar, its icons fitting that face as a taught die's do; else
        None (and for all when the faces have no shots to compare icons with)."""
        if self._icons is None:
            return [None] * len(embeddings)
        near = self._within(embeddings, crops, NEAR_AT, self.match_at)
        return [m if m is not None and m.score is not None and m.score >= TAUGHT_AT else None
                for m in near]

    def _within(self, embeddings: np.ndarray, crops: Sequence[np.ndarray] | None, low: float,
                high: float) -> list[Match | None]:
        """The nearest face of each crop whose best embedding similarity lies in [low, high)."""
        if not self.faces or len(embeddings) == 0:
            return [None] * len(embeddings)
        best = (_unit(embeddings) @ self._matrix.T).max(axis=1)
        taught = [i for i, b in enumerate(best) if low <= b < high]
        found = self.nearest(embeddings[taught],
                             None if crops is None else [crops[i] for i in taught])
        matches: list[Match | None] = [None] * len(embeddings)
        for i, m in zip(taught, found, strict=True):
            matches[i] = m
        return matches

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
        path.write_text(json.dumps({**store, "faces": faces}))

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
            # a "match_at" older stores kept is not read: the bar belongs to the model's
            # embedding and this code (0.85 stores would never match the icon-trained one)
            return cls(faces, MATCH_AT, str(sha) if sha else None)
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
            vectors = classifier.run(classifier.preprocess(f.crops))["embedding"]
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
