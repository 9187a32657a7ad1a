"""Read a die's kind and top value from crops with the shipped ONNX model (onnxruntime, CPU).

preprocess -> run -> postprocess, nothing kept on self but the session and the model card, so one
Classifier serves any number of frames and threads. The card (models/<name>.json beside the .onnx)
names the labels and input, and its sha256 must match the file: a truncated or swapped model is
refused with a ModelError instead of giving silent nonsense. A card may link patch readers
(vision.numerals) that read the value of some kinds from the middle of the same crops: the
numeral reader (d20) and the pip reader (d6), which stands aside where it sees no pips. It may
also name kind experts: dice models of the same labels, trained on one kind's crops alone (the
d4 expert), whose value reading of that kind is averaged with this model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CROP_MARGIN, square_crop
from vision.errors import ModelError
from vision.model_file import load_card, open_session, softmax
from vision.numerals import NumeralReader, centre_patch

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "dice.onnx"
OUTPUTS = ("kind", "value", "state", "embedding")
# Below this confidence a reading is reported unsure. The card's "real_held_out_unsure_gate"
# records, for the shipped model, how many held-out real dice pass it and how often those are right
# (per kind; the kinds whose sure readings were too often wrong are its "always_check").
UNSURE_BELOW = 0.7
# Below this confidence a crop gets a second look: it is read again turned by 90, 180 and 270
# degrees and the four readings are averaged. On held-out real photos (model 2.0.0) this looked
# again at 49% of dice and raised value accuracy from 54.7% to 59.7% (all dice turned: 60.2%, at
# twice the cost); sure readings stayed 81% right.
RECHECK_BELOW = 0.5
# A die whose most likely kind is less likely than this is read again framed WIDER times as wide,
# and its kind taken from the mean of both readings: the model is sensitive to how tightly a die
# is framed. Another camera's d6 crops (skovy's webcam) through `rollscribe read`: kind 69.5% ->
# 74.8% (the bar and the width were chosen on those crops, so that figure is not blind). Held-out
# photos of shared/: 0.1% of dice doubtful enough, none read otherwise; 1400 renders: 3.9%, kind
# 98.57% -> 98.50% (one die). Reading every die both ways gave the same figures at twice the cost.
WIDEN_BELOW = 0.6
WIDER = 1.15
# Crops this likely (or more) to be of a kind a patch reader reads are read by it too; the
# others are not worth its time (four turns of each crop's middle).
READ_FROM = 0.01
# The card's keys that may link a patch reader, and what each reader is called.
LINKED = {"numerals": "numeral reader", "pips": "pip reader"}
# The card's key that lists its kind experts ({"file": ..., "kinds": [...]} each).
EXPERTS = "experts"
# A reader that can stand aside says the kind too where it reads its own faces at least this
# likely (pips only on a d6). Even odds, set before measuring: with the pip reader's first run,
# another camera's pipped d6s were read of the right kind 81.5% -> 90.7%, the held-out numbered
# photos unchanged. Letting every reading say the kind (no bar) read that camera's 96.0% right
# but cost the held-out photos one kind in 2,676 and 3 points of sure readings (75.5% -> 72.2%),
# since a die of another kind then lost whatever small share the reader gave pips. Pip reader
# 1.1.0 (drilled pips, grainy plastic) reads pips at even odds on four held-out d8 photos showing
# a 1 (a stroke like a column of pips), which at 0.5 became d6s; at 0.6 none does, and that
# camera's kind reads 94.7% instead of 96.0% (0.7: 91.4%). Chosen on those held-out photos.
SAYS_KIND_FROM = 0.6


@dataclass(frozen=True)
class FaceReading:
    """One crop's reading: kind, value in game convention, confidence, and the raw embedding."""

    die: str
    value: int
    confidence: float  # P(kind) * P(value | kind) * P(die lies flat)
    state: str  # "flat", "cocked" (no face up) or "empty" (no die in the crop)
    embedding: np.ndarray = field(compare=False, repr=False)

    @property
    def why_unsure(self) -> str | None:
        """Why this reading should not be trusted, or None when it can be."""
        if self.state == "cocked":
            return "die is cocked (no face flat on top)"
        if self.state == "empty":
            return "no die found in the box"
        if self.confidence < UNSURE_BELOW:
            return "low confidence"  # the figure itself is the reading's confidence
        return None

    @property
    def unsure(self) -> bool:
        return self.why_unsure is not None


@dataclass(frozen=True)
class KindExpert:
    """A dice model trained on some kinds alone, as a dice model's card links it: for crops
    likely (READ_FROM) of those kinds, their value is read by both models, probabilities averaged.
    Averaging rather than taking the expert's alone: on held-out real d4 photos (model 3.2.0 with
    two trial experts) both read the same values right, but the sure readings were right 95.5% /
    97.6% of the time instead of 88.2% / 91.7% (the dice model alone: 83.2%)."""

    model: Classifier
    kinds: tuple[str, ...]  # the kinds whose values it reads
    kind_columns: np.ndarray  # their columns in the kind output
    value_columns: tuple[np.ndarray, ...]  # per kind, its values' columns in both value outputs


@dataclass(frozen=True)
class ReaderLink:
    """A patch reader (numerals or pips) as a dice model's card links it."""

    reader: NumeralReader
    kinds: tuple[str, ...]  # the kinds whose values it reads
    kind_columns: np.ndarray  # their columns in the kind output
    columns: tuple[tuple[np.ndarray, np.ndarray], ...]  # per kind: value columns, text columns
    own_weight: float  # how much the dice model's own value reading still counts
    # the reader's text for "none of my faces" (the pip reader's "other"), or None. A reader that
    # has one stands aside by its share: the value is its reading of its own faces plus the
    # dice model's reading times the chance it stood aside
    other: int | None = None


def widened(box: Sequence[float], factor: float) -> tuple[float, float, float, float]:
    """The box grown `factor` times about its centre."""
    x0, y0, x1, y1 = (float(v) for v in box)
    cx, cy, half_w, half_h = (
        (x0 + x1) / 2,
        (y0 + y1) / 2,
        (x1 - x0) * factor / 2,
        (y1 - y0) * factor / 2,
    )
    return (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


class Classifier:
    """The ONNX dice classifier: give it square crops, get FaceReadings."""

    def __init__(
        self, model_path: Path | str | None = None, threads: int = 2, linked: bool = True
    ) -> None:
        """Load the model and, when `linked`, the readers and experts its card names."""
        self.model_path = Path(model_path) if model_path else DEFAULT_MODEL
        self.card = load_card(self.model_path)
        try:
            self.kinds: tuple[str, ...] = tuple(self.card["kinds"])
            self.value_labels: tuple[str, ...] = tuple(self.card["values"])
            self.states: tuple[str, ...] = tuple(self.card["states"])
            self.input_size = int(self.card["input"]["size"])
            # the share of the die's box it reads (its card's input.share, as a patch reader's):
            # the whole crop (CROP_MARGIN) unless it says less
            self.share = float(self.card["input"].get("share", CROP_MARGIN))
            if not 0 < self.share <= CROP_MARGIN:
                raise ValueError(f"input share {self.share} is not in (0, {CROP_MARGIN}]")
            # kinds a player must always check, with the share of sure readings that were right
            checks = self.card.get("accuracy", {}).get("always_check", {})
            self.always_check: dict[str, float] = {str(k): float(v) for k, v in checks.items()}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelError(f"model card for {self.model_path} lacks {exc}") from exc
        self.session = open_session(self.model_path, threads, OUTPUTS)
        self.input_name = self.session.get_inputs()[0].name
        # the value labels of each kind, as indices into the value logits
        self._kind_values = {
            k: np.array(
                [i for i, lab in enumerate(self.value_labels) if lab.rsplit(":", 1)[0] == k]
            )
            for k in self.kinds
        }
        self.links: tuple[ReaderLink, ...] = ()
        self.experts: tuple[KindExpert, ...] = ()
        if linked:
            links = (self._link(key, threads) for key in LINKED)
            self.links = tuple(link for link in links if link is not None)
            self.experts = tuple(self._expert(e, threads) for e in self.card.get(EXPERTS, []))

    def _expert(self, entry: dict, threads: int) -> KindExpert:
        """The kind expert a card entry names (its file beside this one, the kinds it reads)."""
        try:
            model = Classifier(self.model_path.parent / entry["file"], threads, linked=False)
            kinds = [self.kinds.index(k) for k in entry["kinds"]]
            if model.value_labels != self.value_labels:
                raise ValueError("its values are not this model's")
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"kind expert of {self.model_path} is unusable: {exc!r}") from exc
        values = tuple(self._kind_values[self.kinds[k]] for k in kinds)
        return KindExpert(model, tuple(entry["kinds"]), np.array(kinds), values)

    def _link(self, key: str, threads: int) -> ReaderLink | None:
        """The patch reader the card names under `key` (its file beside this one, the kinds it
        reads, the weight of this model's own reading), or None when it names none."""
        named = self.card.get(key)
        if not named:
            return None
        try:
            reader = NumeralReader(self.model_path.parent / named["file"], threads)
            columns = []
            for kind in named["kinds"]:
                faces = reader.card["faces"][kind]
                labels = self._kind_values[kind]
                values = [self.value_labels[i].rsplit(":", 1)[1] for i in labels]
                columns.append((labels, np.array([reader.texts.index(faces[v]) for v in values])))
            kinds = tuple(named["kinds"])
            kind_columns = np.array([self.kinds.index(k) for k in kinds])
            weight = float(named.get("own_weight", 0.0))
            other = reader.texts.index(reader.card["other"]) if "other" in reader.card else None
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"{LINKED[key]} of {self.model_path} is unusable: {exc!r}") from exc
        return ReaderLink(reader, kinds, kind_columns, tuple(columns), weight, other)

    def crops(self, frame: np.ndarray, boxes: Sequence[Sequence[float]]) -> list[np.ndarray]:
        """Cut the model's crops for die boxes from a BGR frame (the shared convention)."""
        return [square_crop(frame, box, self.input_size) for box in boxes]

    def look_framed(
        self, frame: np.ndarray, boxes: Sequence[Sequence[float]]
    ) -> dict[str, np.ndarray]:
        """`look` at the dice boxed in a frame; those whose kind is doubtful are looked at again
        framed WIDER times as wide, their kind output becoming the log of the mean of both."""
        outputs = self.look(self.crops(frame, boxes))
        if not len(boxes):
            return outputs
        kind_p = softmax(outputs["kind"])
        doubtful = np.flatnonzero(kind_p.max(axis=1) < WIDEN_BELOW)
        if len(doubtful):
            # only the kind is taken from the wider view: the numeral reader need not read it
            wide = self._model_look(self.crops(frame, [widened(boxes[i], WIDER) for i in doubtful]))
            mean = (kind_p[doubtful] + softmax(wide["kind"])) / 2.0
            outputs["kind"] = outputs["kind"].copy()
            outputs["kind"][doubtful] = np.log(np.maximum(mean, 1e-12))
        return outputs

    def preprocess(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """BGR uint8 crops -> float32 (N, 3, S, S) batch; crops of another size are resized, and
        a model that reads less than the whole crop (`share`) gets the middle it reads."""
        s = self.input_size
        batch = np.empty((len(crops), 3, s, s), np.float32)
        for i, crop in enumerate(crops):
            if crop.ndim != 3 or crop.shape[2] != 3:
                raise ValueError(f"crop {i} is not a BGR image: shape {crop.shape}")
            if self.share < CROP_MARGIN:
                crop = centre_patch(crop, s, self.share)
            elif crop.shape[:2] != (s, s):
                crop = cv2.resize(crop, (s, s), interpolation=cv2.INTER_AREA)
            batch[i] = crop.transpose(2, 0, 1)
        return batch

    def run(self, batch: np.ndarray) -> dict[str, np.ndarray]:
        """The raw model outputs (logits and embeddings) for a preprocessed batch."""
        if len(batch) == 0:
            return {name: np.zeros((0, 0), np.float32) for name in OUTPUTS}
        return dict(zip(OUTPUTS, self.session.run(None, {self.input_name: batch}), strict=True))

    def look(self, crops: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
        """Model outputs for crops, with a second look at the doubtful ones, then the values the
        kind experts and patch readers read for the crops likely of their kinds.

        For crops read below RECHECK_BELOW, the kind, value and state outputs become the log of
        the mean probabilities over the crop turned four ways (postprocess reads them like logits);
        the embedding stays the upright one, which taught dice were enrolled with.
        """
        outputs = self._model_look(crops)
        if len(crops):
            for expert in self.experts:
                self._ask(expert, crops, outputs)
            for link in self.links:
                self._read_with(link, crops, outputs)
        return outputs

    def _model_look(self, crops: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
        """The dice model's outputs for crops, doubtful ones averaged over four turns."""
        batch = self.preprocess(crops)
        outputs = self.run(batch)
        if not len(batch):
            return outputs
        first = self.postprocess(outputs)
        doubtful = np.array([i for i, face in enumerate(first) if face.confidence < RECHECK_BELOW])
        if len(doubtful):
            self._second_look(batch, outputs, doubtful)
        return outputs

    def _second_look(
        self, batch: np.ndarray, outputs: dict[str, np.ndarray], doubtful: np.ndarray
    ) -> None:
        """Average the doubtful crops' kind, value and state over four turns, in place."""
        probs = {key: softmax(outputs[key]) for key in ("kind", "value", "state")}
        turned = np.concatenate([np.rot90(batch[doubtful], k, axes=(2, 3)) for k in (1, 2, 3)])
        again = self.run(np.ascontiguousarray(turned))
        n = len(doubtful)
        for key, p in probs.items():
            views = softmax(again[key]).reshape(3, n, -1)
            mean = (p[doubtful] + views.sum(axis=0)) / 4.0
            outputs[key] = outputs[key].copy()
            outputs[key][doubtful] = np.log(np.maximum(mean, 1e-12))

    def _ask(
        self, expert: KindExpert, crops: Sequence[np.ndarray], outputs: dict[str, np.ndarray]
    ) -> None:
        """For the crops likely of the expert's kinds, the value of each of its kinds becomes the
        log of the mean of both models' probabilities (postprocess reads it like logits)."""
        likely = softmax(outputs["kind"])[:, expert.kind_columns].sum(axis=1)
        rows = np.flatnonzero(likely >= READ_FROM)
        if not len(rows):
            return
        theirs = expert.model._model_look([crops[i] for i in rows])["value"]
        outputs["value"] = outputs["value"].copy()
        for columns in expert.value_columns:
            cells = np.ix_(rows, columns)
            mean = (softmax(outputs["value"][cells]) + softmax(theirs[:, columns])) / 2.0
            outputs["value"][cells] = np.log(np.maximum(mean, 1e-12))

    def _read_with(
        self, link: ReaderLink, crops: Sequence[np.ndarray], outputs: dict[str, np.ndarray]
    ) -> None:
        """The value of the kinds a reader reads becomes its log-probability plus the card's
        `own_weight` times the dice model's own; for a reader that can stand aside, the log of
        its probability plus its "other" times the dice model's (postprocess reads both like
        logits)."""
        likely = softmax(outputs["kind"])[:, link.kind_columns].sum(axis=1)
        rows = np.flatnonzero(likely >= READ_FROM)
        if not len(rows):
            return
        p = link.reader.probabilities([crops[i] for i in rows])
        if link.other is not None:
            read = 1.0 - p[:, link.other]
            sure = read >= SAYS_KIND_FROM
            if sure.any():
                self._kind_from(link, rows[sure], read[sure], outputs)
        outputs["value"] = outputs["value"].copy()
        for labels, texts in link.columns:
            own = softmax(outputs["value"][np.ix_(rows, labels)])
            if link.other is None:
                mixed = np.log(np.maximum(p[:, texts], 1e-12)) + link.own_weight * np.log(
                    np.maximum(own, 1e-12))
            else:
                mixed = np.log(np.maximum(p[:, texts] + p[:, [link.other]] * own, 1e-12))
            outputs["value"][np.ix_(rows, labels)] = mixed

    @staticmethod
    def _kind_from(
        link: ReaderLink, rows: np.ndarray, read: np.ndarray, outputs: dict[str, np.ndarray]
    ) -> None:
        """A reader that saw its own faces (pips) also says the kind: the rows' kind becomes the
        mixture of the link's kinds, by the chance it read them, and the dice model's kind."""
        kind_p = softmax(outputs["kind"][rows])
        mine = kind_p[:, link.kind_columns]
        share = mine / np.maximum(mine.sum(axis=1, keepdims=True), 1e-12)
        mixed = (1.0 - read)[:, None] * kind_p
        mixed[:, link.kind_columns] += read[:, None] * share
        outputs["kind"] = outputs["kind"].copy()
        outputs["kind"][rows] = np.log(np.maximum(mixed, 1e-12))

    def check_reason(self, kind: str) -> str | None:
        """Why every reading of this kind waits for a player's check, or None if it need not."""
        right = self.always_check.get(kind)
        if right is None:
            return None
        return f"{kind} readings are always checked (sure ones {right:.0%} right on real photos)"

    def check_expect(self, expect: Sequence[str] | None) -> list[str]:
        """The kinds a reading may take: all, or the expected ones (which must be known)."""
        if expect is None:
            return list(self.kinds)
        unknown = [k for k in expect if k not in self.kinds]
        if unknown or not expect:
            raise ValueError(f"cannot expect {unknown or 'nothing'}; known kinds: {self.kinds}")
        return list(dict.fromkeys(expect))

    def postprocess(
        self, outputs: dict[str, np.ndarray], expect: Sequence[str] | None = None
    ) -> list[FaceReading]:
        """Decide kind (among the expected ones), then the value among that kind's faces."""
        allowed = self.check_expect(expect)
        mask = np.array([k in allowed for k in self.kinds])
        readings = []
        for i in range(len(outputs["kind"])):
            kind_logits = np.where(mask, outputs["kind"][i], -np.inf)
            kind_p = softmax(kind_logits)
            k = int(np.argmax(kind_p))
            idx = self._kind_values[self.kinds[k]]
            value_p = softmax(outputs["value"][i][idx])
            v = int(np.argmax(value_p))
            state_p = softmax(outputs["state"][i])
            s = int(np.argmax(state_p))
            label = self.value_labels[idx[v]]
            confidence = float(kind_p[k] * value_p[v] * state_p[self.states.index("flat")])
            readings.append(
                FaceReading(
                    self.kinds[k],
                    int(label.rsplit(":", 1)[1]),
                    round(confidence, 4),
                    self.states[s],
                    outputs["embedding"][i].copy(),
                )
            )
        return readings

    def classify(
        self, crops: Sequence[np.ndarray], expect: Sequence[str] | None = None
    ) -> list[FaceReading]:
        """Read a batch of square BGR crops (see vision.crops.square_crop)."""
        self.check_expect(expect)
        return self.postprocess(self.look(crops), expect)
