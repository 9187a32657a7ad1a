"""The table's memory of its own dice: the crops players confirmed, read back at the next rolls.

Why: no reader trained elsewhere reads every table's dice under every lamp, and retraining is
hours of a Pi's CPU. But each die a player confirmed or corrected is a labelled photo of this
table's dice under this table's light. The memory keeps, per kind and value, a key of those
crops (each turned a quarter turn three times: a die lands at any turn) and reads a new die by
its nearest remembered dice of the same kind, fused with the general reader's own score: no
training, a few hundred dot products a die. A standard die's key is ImageNet features no model
here trained (vision.memory_key): it keeps dice apart at a table nothing saw. Symbol dice's
crops, kept in the same memory, are keyed the same way (`embedded`) by the classifier's
embedding, which was trained to tell taught faces apart, and read as their faces' prototypes
(vision.taught_dice).

The fusion is Bayesian in spirit: the reader's confidence spread over the kind's faces (all it
says is how much it trusts the value it read), times the memory's vote, a softmax of the k
nearest neighbours' similarities with a flat prior so an empty or far memory changes nothing.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from companion.dice_memory import DiceMemory, RememberedDie
from companion.reading import join_reasons
from companion.rules.dice import STANDARD
from vision.memory_key import MemoryKey
from vision.numerals import NOT_CLEAR, NumeralReader, TableSight
from vision.placement import TablePlacements

NEIGHBOURS = 7  # nearest remembered dice that vote
SHARPNESS = 0.05  # a neighbour's vote is exp((similarity - 1) / SHARPNESS)
PRIOR = 1.0  # votes spread flat over the faces: an empty or far memory changes nothing
WEIGHT = 2.0  # how much the memory's vote counts against the reader's, in log terms
TURNS = 4  # a remembered crop is kept upright and at each quarter turn
# A die the reader read but not surely is sure from the memory when every one of the nearest
# remembered dice shows that value, the nearest is this like it, and the fusion gives it this
# share; only for kinds where that was measured safe (bench/table_memory_bench.py: no d8, d10 or
# d20 made sure so was wrong, on any rig; d4s were, so never d4; d% and d12 have no photos; a
# d6's card keeps it checked).
SURE_NEAREST = 0.9
SURE_SHARE = 0.99
SURE_KINDS = ("d8", "d10", "d20")


@dataclass(frozen=True)
class Remembered:
    """One kind's remembered dice: unit embeddings, the value each showed, corrected or not."""

    vectors: np.ndarray  # (n, d) float32, unit length
    values: tuple[int | str, ...]

    def take(self, keep: np.ndarray) -> Remembered:
        """Only the rows where `keep` is true (the bench leaves out a die's own roll)."""
        return Remembered(self.vectors[keep], tuple(v for v, k in zip(self.values, keep,
                                                                       strict=True) if k))


@dataclass(frozen=True)
class Recall:
    """What the memory says of one die: its vote per value and how near the nearest is."""

    votes: dict[int | str, float]
    nearest: float  # cosine similarity of the nearest remembered die (-1 when none)
    agreeing: int  # how many of the nearest voters show the value with the most vote


def unit(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (cosine similarity is then a dot product)."""
    vectors = np.asarray(vectors, np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-9)


def recall(memory: Remembered | None, embedding: np.ndarray) -> Recall:
    """The nearest remembered dice's vote for one die's embedding."""
    if memory is None or not memory.values:
        return Recall({}, -1.0, 0)
    sims = memory.vectors @ unit(embedding)
    order = np.argsort(-sims)[:NEIGHBOURS]
    votes: dict[int | str, float] = {}
    for i in order:
        votes[memory.values[i]] = votes.get(memory.values[i], 0.0) + float(
            np.exp((sims[i] - 1.0) / SHARPNESS))
    top = max(votes, key=votes.__getitem__)
    return Recall(votes, float(sims[order[0]]),
                  sum(memory.values[i] == top for i in order))


def fuse(faces: Sequence[int | str], value: int | str, confidence: float,
         memory: Recall) -> tuple[int | str, float]:
    """The value the reader's reading and the memory's vote agree on best, with its share of
    the fused probability over the kind's faces."""
    if not memory.votes or value not in faces:
        return value, confidence
    n = len(faces)
    trust = min(max(confidence, 1.0 / n), 0.99)
    reader = np.array([trust if f == value else (1.0 - trust) / (n - 1) for f in faces])
    total = sum(memory.votes.values())
    vote = np.array([(memory.votes.get(f, 0.0) + PRIOR / n) / (total + PRIOR) for f in faces])
    score = np.log(reader) + WEIGHT * np.log(vote)
    best = int(np.argmax(score))
    share = float(np.exp(score[best] - np.logaddexp.reduce(score)))
    return faces[best], share


class Embedder(Protocol):
    """A model that keys die crops: the memory's key (standard dice) or the dice classifier's
    embedding (taught symbol dice). Its card's sha256 names the vectors it made in the store."""

    card: dict

    def embed(self, crops: Sequence[np.ndarray]) -> np.ndarray: ...


def remember_turns(embedder: Embedder, crop: np.ndarray) -> np.ndarray:
    """A kept crop's keys upright and at each quarter turn, (TURNS, d) unit rows: the same face
    lands at any turn, and the key is not blind to turns."""
    turned = [np.ascontiguousarray(np.rot90(crop, k)) for k in range(TURNS)]
    return unit(embedder.embed(turned))


def embedded(store: DiceMemory, embedder: Embedder, kinds: Iterable[str],
             images: bool = False) -> list[tuple[RememberedDie, np.ndarray]]:
    """The store's crops of these kinds with their keys by this embedder, (TURNS, d) unit rows
    each, and their images only if `images`: crops not yet keyed by it (just learnt or taught,
    imported, or from another model) are read and keyed now and written back; an unreadable
    crop (a bad import) is left out."""
    sha = embedder.card["sha256"]
    dice = store.dice(kinds, images)
    stale = [die.id for die in dice if die.model != sha or die.vectors is None]
    pictures = {} if images else store.images_of(stale)
    out, fresh = [], {}
    for die in dice:
        vectors = die.vectors if die.model == sha else None
        if vectors is None:
            image = die.image if images else pictures.get(die.id)
            crop = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR) if image \
                else None
            if crop is None:
                continue
            vectors = fresh[die.id] = remember_turns(embedder, crop).tobytes()
        out.append((die, np.frombuffer(vectors, np.float32).reshape(TURNS, -1)))
    if fresh:
        store.set_vectors(sha, fresh)
    return out


def from_memory(read: int | str) -> str:
    """Why a die whose value the memory changed waits for a player."""
    return f"value from the table's memory (read as {read})"


def memory_disagrees(remembered: int | str) -> str:
    """Why a die the reader read surely, and the memory otherwise, waits for a player."""
    return f"the table's memory reads it as {remembered}"


class TableMemory:
    """The reader's view of a table's remembered standard dice (companion.dice_memory): per kind,
    their keys (vision.memory_key), made again from the store whenever its revision moves.
    Without a store and a key it remembers nothing and changes no reading."""

    def __init__(self, store: DiceMemory | None = None, key: MemoryKey | None = None,
                 numerals: NumeralReader | None = None) -> None:
        self.store = store
        self.key = key
        # where the camera shows each numbered kind's top numeral (none without a reader)
        self.placements = TablePlacements(numerals) if numerals is not None else None
        self.kinds: dict[str, Remembered] = {}
        self._revision: int | None = None
        self._loading = threading.Lock()
        self._learning = threading.Lock()
        self._changed: threading.Event | None = None

    def follow(self) -> None:
        """Key what the store learns as soon as it learns it, and learn the camera's sight
        from it, in a thread of its own, so the next reading finds it ready instead of spending
        the time itself."""
        if self.store is None or self._changed is not None:
            return
        self._changed = threading.Event()
        self.store.listeners.append(self._changed.set)
        threading.Thread(target=self._follow, name="table-memory", daemon=True).start()

    def _follow(self) -> None:
        assert self._changed is not None
        while True:
            self._changed.wait()
            self._changed.clear()
            self.refresh()
            self.learn_sight()

    def refresh(self) -> None:
        """Load the store again if it changed; dice not yet keyed by this key model (just
        learnt, imported, or keyed by another) are keyed now and written back. A store that
        cannot be read leaves what was loaded (the table shows its fault)."""
        if self.store is None or self.key is None:
            return
        with self._loading:
            try:
                self._load(self.store, self.key)
            except sqlite3.Error:
                return

    def _load(self, store: DiceMemory, key: MemoryKey) -> None:
        revision = store.revision
        if revision == self._revision:
            return
        rows: dict[str, list[tuple[np.ndarray, int | str]]] = {}
        for die, vectors in embedded(store, key, STANDARD):
            rows.setdefault(die.kind, []).append((vectors, die.value))
        self.kinds = {kind: Remembered(np.concatenate([v for v, _ in kept]),
                                       tuple(value for _, value in kept for _ in range(TURNS)))
                      for kind, kept in rows.items()}
        self._revision = revision

    def learn_sight(self) -> None:
        """Learn again where the camera shows each numbered kind's top numeral from the store's
        confirmed dice (vision.placement). About 0.7 s a die not read before, so only the
        memory's own thread (`follow`) does it, never the camera's `refresh` before a reading.
        A store that cannot be read leaves what was learnt."""
        if self.store is None or self.placements is None:
            return
        with self._learning:
            try:
                self.placements.learn(self.store)
            except sqlite3.Error:
                return

    def sight(self) -> TableSight:
        """What this table's confirmed dice say of its camera (vision.placement)."""
        return self.placements.sight if self.placements is not None else TableSight()

    def remembers(self, kind: str) -> bool:
        """Whether the memory holds standard dice of `kind` to read one against."""
        return kind in STANDARD and kind in self.kinds

    def keys(self, crops: Sequence[np.ndarray]) -> np.ndarray | None:
        """A frame's crops of dice of remembered kinds (vision.crops) keyed in one batch, or None
        while the memory holds no dice to read them against (ten dice 4.9 ms in one batch on two
        threads, 8.6 ms one at a time, here)."""
        if not self.kinds or self.key is None or not crops:
            return None
        return self.key.embed(crops)

    def amend(self, kind: str, key: np.ndarray | None, value: int | str, confidence: float,
              why: str) -> tuple[int | str, float, str]:
        """A standard die's (value, confidence, why unsure) with what the table remembers of
        its kind; `key`: the die's (`keys`), None when it was not keyed."""
        if not self.remembers(kind) or key is None:
            return value, confidence, why
        return remembered_reading(kind, value, confidence, why, recall(self.kinds[kind], key))


def remembered_reading(kind: str, value: int | str, confidence: float, why: str,
                       memory: Recall) -> tuple[int | str, float, str]:
    """(value, confidence, why unsure) of a standard die read as `value`, fused with what the
    memory recalls of it: a value the memory changed is never sure; one it agrees with at every
    bar (SURE_*) loses the doubt of an unclear numeral, and no other. A reading the reader was
    sure of (no `why`) keeps its value where the memory reads otherwise, and is asked: the
    nearest remembered dice are often the same die showing other faces (wood's d8 after 20
    confirmed: 89% right when the memory took them, 98% so; docs/reader-history.md)."""
    fused, share = fuse(STANDARD[kind].faces, value, confidence, memory)
    if fused != value and not why:
        return value, confidence, memory_disagrees(fused)
    if fused != value:
        return fused, round(share, 4), join_reasons(why, from_memory(value))
    if (why == NOT_CLEAR and kind in SURE_KINDS and memory.agreeing == NEIGHBOURS
            and memory.nearest >= SURE_NEAREST and share >= SURE_SHARE):
        return value, round(share, 4), ""
    return value, confidence, why
