"""A table's taught dice as the reader matches them, and the checks a teaching shot must pass.

The table's memory (companion.dice_memory) keeps the crops of its dice: the shots taught here
and the dice of confirmed rolls. `store_prototypes` turns a symbol die's into the reader's
prototypes (vision.prototypes): one per face, the mean direction of its crops' embeddings, with
the crops themselves for comparing icons (vision.icon_match); crops not yet embedded with this
model are embedded first and written back (vision.table_memory.embedded). Nothing is trained: a
shot counts at once, and so does each roll of the die a player confirms.

A teaching shot is refused, with the reason, when the tray shows no die or several, the die is
cut by the frame's edge, cocked or blurred, or (once the player names its face) it looks more
like another face of the same die than like the one named: a prototype learnt from such a shot
would read both faces as one.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.dice_memory import TAUGHT, RememberedDie
from companion.dice_store import MAX_SHOTS, DiceStore
from vision.classify import Classifier
from vision.detect import Detector
from vision.prototypes import MATCH_AT, FacePrototype, Prototypes, encode_shot
from vision.reader import encode_jpeg
from vision.table_memory import embedded, remember_turns

# How sharp the crop's strongest edges are (sharpness()), below which a shot is too blurred to
# learn a face from. On 40 tray renders of the bench's symbol dice, at the model's input size:
# sharp 0.054-0.174 (median 0.121), blurred by a Gaussian of 1.5 px 0.030-0.078 (median 0.042),
# of 3 px 0.015-0.079 (median 0.028).
MIN_SHARPNESS = 0.05
PENDING = 8  # shots read and waiting for a face to be named, per table


def sharpness(crop: np.ndarray) -> float:
    """How sharp a crop's edges are: the second derivative across its strongest tenth of edges
    per unit of their slope. Blur spreads an edge, lowering the first far less than the second;
    the ratio does not move with the light or the die's contrast."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    edges = slope > np.percentile(slope, 90)
    bend = np.abs(cv2.Laplacian(grey, cv2.CV_32F))[edges].mean()
    return float(bend / max(float(slope[edges].mean()), 1e-3))


def store_prototypes(store: DiceStore, classifier: Classifier, die: str | None = None
                     ) -> Prototypes:
    """The store's symbol dice (one, or all) as the reader matches them with this classifier:
    each face from what the table's memory holds of it, the shots it was taught from and the
    crops of confirmed rolls."""
    kinds = [die] if die is not None else list(store.definitions())
    by_face: dict[tuple[str, str], list[tuple[RememberedDie, np.ndarray]]] = defaultdict(list)
    for crop, vectors in embedded(store, classifier, kinds, images=True):  # icons from them
        by_face[(crop.kind, str(crop.value))].append((crop, vectors[0]))  # upright
    faces = []
    for (name, face), crops in by_face.items():
        crops.sort(key=lambda c: c[0].how != TAUGHT)  # taught first, each oldest first
        faces.append(FacePrototype.from_embeddings(
            name, face, np.stack([v for _, v in crops]), [c.image for c, _ in crops],
            learnt=sum(c.how != TAUGHT for c, _ in crops)))
    return Prototypes(faces, model_sha256=classifier.card["sha256"])


class StoreFaces:
    """A table store's symbol dice as the reader matches them, followed across its changes: a
    die's faces are made again only when its crops changed (a shot kept, a roll of it confirmed
    or undone, the die renamed, edited or imported), not at a roll of other dice, and the other
    dice keep theirs. Why: making one die's faces costs 17-189 ms on the Pi's class of CPU and
    its icon templates are made again at the next reading; most confirmed rolls are of standard
    dice only."""

    def __init__(self, store: DiceStore, classifier: Classifier) -> None:
        self.store = store
        self.classifier = classifier
        self.faces: tuple[FacePrototype, ...] = ()
        self._revision: int | None = None  # the store's, when last followed
        self._made: dict[str, tuple[tuple[tuple[int, str, str, float], ...],
                                    tuple[FacePrototype, ...]]] = {}

    def refresh(self) -> bool:
        """Follow the store; returns whether `faces` changed (a new tuple then)."""
        revision = self.store.revision
        if revision == self._revision:
            return False
        self._revision = revision
        made = {}
        for die, crops in self.store.symbol_crops().items():
            known = self._made.get(die)
            if known is None or known[0] != crops:
                known = (crops, store_prototypes(self.store, self.classifier, die).faces)
            made[die] = known
        changed = made.keys() != self._made.keys() or any(
            made[die] is not self._made[die] for die in made)
        self._made = made
        if changed:
            self.faces = tuple(f for _, faces in made.values() for f in faces)
        return changed


def face_vectors(store: DiceStore, classifier: Classifier, die: str) -> dict[str, np.ndarray]:
    """The upright embeddings of what the memory holds of one die, by face."""
    by_face: dict[str, list[np.ndarray]] = defaultdict(list)
    for crop, vectors in embedded(store, classifier, [die]):
        by_face[str(crop.value)].append(vectors[0])
    return {face: np.stack(vectors) for face, vectors in by_face.items()}


@dataclass(frozen=True)
class TakenShot:
    """A shot read from the tray, waiting for the player to name its face (or refused)."""

    token: str
    die: str
    crop: np.ndarray  # the model's input crop, BGR
    vector: np.ndarray  # its embedding
    problem: str | None  # why it cannot be kept (None: it may be, once its face is named)
    guess: str | None  # the taught face of this die it is most like, if close enough

    def jpeg(self) -> bytes:
        """The crop as the panel shows it."""
        return encode_jpeg(self.crop, 90)


class Teacher:
    """Teaching at the table: read one shot from the camera, check it, keep it under the face
    the player names. `frames` gives a frame of the tray with the dice at rest."""

    def __init__(
        self, classifier: Classifier, detector: Detector, frames: Callable[[], np.ndarray]
    ) -> None:
        self.classifier = classifier
        self.detector = detector
        self.frames = frames
        self._pending: OrderedDict[str, TakenShot] = OrderedDict()
        self._tokens = itertools.count(1)
        self._lock = threading.Lock()

    def take(self, store: DiceStore, die: str) -> TakenShot:
        """Read the tray and check the one die in it (store.definition raises for an unknown
        die, before the camera is used)."""
        store.definition(die)
        return self.check(self.frames(), store, die)

    def check(self, frame: np.ndarray, store: DiceStore, die: str) -> TakenShot:
        """The shot in this frame: its crop and embedding, and what is wrong with it, if any."""
        clf = self.classifier
        found = self.detector(frame, at_least=1).dice  # the player rolled one die
        box = found[0].box if found else _middle(frame)
        crop = clf.crops(frame, [box])[0]
        outputs = clf.look([crop])
        vector = outputs["embedding"][0]
        problem = None
        if not found:
            problem = "the tray looks empty: no die found. Roll the die into the tray"
        elif len(found) > 1:
            problem = f"{len(found)} dice in the tray: leave only the die being taught"
        elif found[0].cut:
            problem = "the die is cut by the frame's edge: roll it nearer the middle"
        else:
            problem = _state_problem(clf, outputs["state"][0]) or _blur_problem(crop)
        guess = None
        if problem is None:
            taught = store_prototypes(store, clf, die)
            match = taught.match(vector[None], [crop])[0]
            guess = match.prototype.face if match else None
        shot = TakenShot(f"s{next(self._tokens)}", die, crop, vector, problem, guess)
        if problem is None:
            with self._lock:
                self._pending[shot.token] = shot
                while len(self._pending) > PENDING:
                    self._pending.popitem(last=False)
        return shot

    def keep(self, store: DiceStore, token: str, face: str) -> str | None:
        """Keep a checked shot as `face`; the reason it is refused (and not kept), else None."""
        with self._lock:
            shot = self._pending.get(token)
        if shot is None:
            return "that shot is no longer waiting: read the tray again"
        counts = store.shot_counts(shot.die)
        if face not in counts:
            return f"die {shot.die!r} has no face {face!r}"
        if counts[face] >= MAX_SHOTS:
            return f"{face} has its {MAX_SHOTS} shots already: roll for another face"
        problem = unlike_face(face_vectors(store, self.classifier, shot.die), shot.vector, face)
        if problem is None:
            store.add_shot(shot.die, face, encode_shot(shot.crop), self.classifier.card["sha256"],
                           remember_turns(self.classifier, shot.crop).tobytes())
        with self._lock:
            self._pending.pop(token, None)
        return problem


def unlike_face(shots: dict[str, np.ndarray], vector: np.ndarray, face: str) -> str | None:
    """Why a shot named `face` must not be kept, given the embeddings of the die's crops so far
    by face: it is nearer another face's shots than `face`'s own (or, `face` having none yet, as
    near that face as its own shots are), and near enough to be read as it; else None."""
    if not any(len(v) for f, v in shots.items() if f != face):
        return None
    vector = vector / max(float(np.linalg.norm(vector)), 1e-9)
    prototypes = {f: FacePrototype.from_embeddings("", f, v).vector
                  for f, v in shots.items() if len(v)}
    similarity = {f: float(p @ vector) for f, p in prototypes.items()}
    other = max((f for f in similarity if f != face), key=similarity.__getitem__)
    if similarity[other] < MATCH_AT:
        return None
    if face in similarity:
        bar = similarity[face]
    else:  # a face's first shot: does it sit among the other face's shots?
        own = shots[other] / np.linalg.norm(shots[other], axis=1, keepdims=True)
        bar = float((own @ prototypes[other]).min()) - 1e-6
    if similarity[other] <= bar:
        return None
    return (f"it looks like {other} (similarity {similarity[other]:.2f}), so it would be read as "
            f"{other}: roll again, or tap {other} if that is the face up")


def _state_problem(classifier: Classifier, state_logits: np.ndarray) -> str | None:
    state = classifier.states[int(np.argmax(state_logits))]
    if state == "empty":
        return "the box found holds no die: roll the die into the tray"
    if state == "cocked":
        return "the die is cocked against something: roll again so it lies flat"
    return None


def _blur_problem(crop: np.ndarray) -> str | None:
    sharp = sharpness(crop)
    if sharp < MIN_SHARPNESS:
        return (f"the shot is blurred (sharpness {sharp:.3f}, needs {MIN_SHARPNESS}): let the die "
                "come to rest and keep the tray's light steady")
    return None


def _middle(frame: np.ndarray) -> tuple[int, int, int, int]:
    """A box in the middle of the frame: the crop shown for a tray with no die in it."""
    h, w = frame.shape[:2]
    side = min(h, w) // 4
    return (w // 2 - side, h // 2 - side, w // 2 + side, h // 2 + side)
