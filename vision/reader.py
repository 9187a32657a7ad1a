"""Frames -> a TrayReading: detect the dice, classify them in one batch, flag what is unsure.

The reader never guesses silently: a low-confidence face, a cocked die, a die cut by the frame
edge or a die the game did not expect is kept and flagged, so the table asks a player. With an
expectation ("d4,d6,d10,d12": what the game asked to roll) each detected die is matched to one
expected kind by the best joint assignment over the classifier's kind probabilities, so two
dice that each look a bit like a d10 cannot both be the one d10 that was rolled. The match never
changes a die's kind: a die the model reads as another kind than the one it was matched to keeps
its own kind and is flagged (`own_kind`), so a d8 among d6s shows as a d8. An expected taught
die (vision.prototypes) takes part in the same assignment, by how like its faces each crop looks
(icons and embedding), and is read only against its own faces; a die matched to it that looks
unlike them is flagged, a die beyond the roll too, and one the detector scored too low is looked
for among a few weaker boxes.

`read_settled` watches a frame stream and reads only once the dice have stopped (no motion over
a few consecutive frames) and no hand is over the tray.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from companion.reading import DieReading, TrayReading, join_reasons
from vision.camera_tilt import CameraTilt
from vision.capture import FrameSource
from vision.classify import Classifier, FaceReading
from vision.crops import square_crop, widened
from vision.detect import Box, Detection, Detector, DieBox, reading_order, shrink, skin_hand
from vision.die_check import DieCheck, taken
from vision.errors import ImageError, VisionError
from vision.imagefile import read_image
from vision.model_file import softmax
from vision.numerals import RECOGNIZED, NumeralReader, NumeralReading
from vision.photo_mode import photo_dice
from vision.pips import PipCount, count_pips, settles, weigh, worth_counting
from vision.prototypes import Match, Prototypes
from vision.table_memory import TableMemory

MIN_SIDE = 16  # px: a frame narrower either way holds no die the reader could read
JPEG_SIDE = 480  # long side of the JPEG kept with a reading (history, panel)
JPEG_QUALITY = 70
# Each die's crop kept with a reading (the history turns the players' checks into labelled
# photos of the table's own dice): larger than the model's input so a later model may read more.
KEPT_CROP_SIDE = 128
KEPT_CROP_QUALITY = 90
CUT_AWAY = "cut by the frame edge"
NOT_EXPECTED = "not among the expected dice"
COCKED_D6 = "d6 looks cocked (outline not square)"
GUESSED_BOX = ("no die outline found: the part of the photo unlike the table, or its middle, "
               "was read as one die")
FAINT_BOX = "found only faintly, where an expected taught die was missing"
# With nothing expected a taught die is read among every taught face, and a face whose prototype
# holds crops of confirmed rolls is not measured safe there: on the symbol memory bench (five
# dice, 40 fresh frames each, read with nothing expected) faces of taught shots alone left none
# of 200 readings sure and wrong, with 5, 20 and 50 confirmed rolls of each die learnt 1, 2 and
# 1 (the octahedron); asked, none at any point (unsure 35.5 / 58.5 / 95.5 / 95.5% after 0 / 5 /
# 20 / 50). A die the game expects is read only among its own faces, where played faces left
# none sure and wrong: it is read sure as before.
PLAYED_FACE = "read with nothing expected from faces learnt in play"
RESEMBLES = "it may be the taught die {} (its icons fit)"  # vision.prototypes.NEAR_AT
RESCALES = (0.8, 1.25)  # a doubtful taught die's box is cut again at these sizes
TRAY_PHOTO = 2  # dice over the threshold for photo mode to weigh the weaker peaks (a roll)
SPARE_BOXES = 5  # weaker boxes looked at for an expected taught die that no box held, and by
# the die check (vision.die_check) for dice the detector scored under its threshold
# A numbered die is sure only if the classifier gives its kind this much: a d10 showing 6 read
# surely as "d8 6" (the d8 at 40%) among 669 of ucffool's photos before this bar.
KIND_SURE = 0.9
D6_ELONGATION = 1.6  # long/short side of a d6's outline above which it is not lying flat


KIND_ALIASES = {"100": "d%", "00": "d%"}
# one entry of an expectation: "2xNAME" (any die, counted), else "2d6" or a plain name
EXPECT_ENTRY = re.compile(
    r"(?:(?P<count>\d*)(?=d[\d%])|(?P<times>\d+)x)?(?P<kind>d(?:\d+|%)|[^\W\d][\w-]*)"
)


@dataclass(frozen=True)
class Looked:
    """Dice's square crops and the classifier's outputs for them, in the dice's order."""

    crops: list[np.ndarray]
    outputs: dict[str, np.ndarray]


class SettleTimeout(VisionError, TimeoutError):
    """The dice did not come to rest (or a hand stayed over the tray) before the timeout."""


def parse_expect(text: str | None) -> list[str] | None:
    """ "d4,d6,2d10,2xskulls" -> ["d4", "d6", "d10", "d10", "skulls", "skulls"]; None or "" ->
    None (anything goes).

    A standard die is written d6 or 2d6 (the percentile die d%, d100 or d00); a taught die by its
    name, several as 2xNAME (2xd6 works too). Whether a name is known is the reader's to say
    (DiceReader.resolve): the parser does not know which dice were taught.
    """
    if not text or not text.strip():
        return None
    kinds: list[str] = []
    for part in text.lower().replace(" ", ",").split(","):
        if not part:
            continue
        entry = EXPECT_ENTRY.fullmatch(part)
        if entry is None:
            raise ValueError(f"{part!r} is not a die like d6, 2d6, or a taught die's name (2xNAME)")
        count, kind = entry["times"] or entry["count"], entry["kind"]
        if kind.startswith("d"):
            kind = KIND_ALIASES.get(kind[1:], kind)
        kinds.extend([kind] * int(count or 1))
    return kinds


def assign(cost: np.ndarray) -> list[int | None]:
    """Minimum-cost matching of rows to columns (Hungarian method); None for unmatched rows."""
    rows, cols = cost.shape
    if rows == 0 or cols == 0:
        return [None] * rows
    if rows > cols:
        by_col = assign(cost.T)
        out: list[int | None] = [None] * rows
        for c, r in enumerate(by_col):
            if r is not None:
                out[r] = c
        return out
    # e-maxx formulation, 1-based with a virtual column 0; rows <= cols
    u, v = np.zeros(rows + 1), np.zeros(cols + 1)
    match = np.zeros(cols + 1, int)  # match[col] = row (1-based), 0 = free
    for r in range(1, rows + 1):
        match[0] = r
        col0 = 0
        best = np.full(cols + 1, np.inf)
        prev = np.zeros(cols + 1, int)
        used = np.zeros(cols + 1, bool)
        while match[col0] != 0:
            used[col0] = True
            row = match[col0]
            delta, col1 = np.inf, 0
            for c in range(1, cols + 1):
                if used[c]:
                    continue
                reduced = cost[row - 1, c - 1] - u[row] - v[c]
                if reduced < best[c]:
                    best[c], prev[c] = reduced, col0
                if best[c] < delta:
                    delta, col1 = best[c], c
            for c in range(cols + 1):
                if used[c]:
                    u[match[c]] += delta
                    v[c] -= delta
                else:
                    best[c] -= delta
            col0 = col1
        while col0:
            col1 = prev[col0]
            match[col0] = match[col1]
            col0 = col1
    result: list[int | None] = [None] * rows
    for c in range(1, cols + 1):
        if match[c]:
            result[match[c] - 1] = c - 1
    return result


@dataclass(frozen=True)
class Settling:
    """How `read_settled` decides the dice are at rest."""

    still_frames: int = 4  # consecutive frames without motion and without a hand
    motion_level: int = 18  # grey-level change that counts as a moved pixel
    motion_fraction: float = 0.002  # fraction of moved pixels under which a frame is still
    side: int = 160  # long side of the motion image


def motion(previous: np.ndarray, current: np.ndarray, level: int) -> float:
    """Fraction of pixels that changed by more than `level` between two motion images."""
    return float((cv2.absdiff(previous, current) > level).mean())


def motion_image(frame: np.ndarray, side: int) -> np.ndarray:
    """Small blurred grey image: sensor noise and JPEG artefacts do not count as motion."""
    small, _ = shrink(frame, side)
    return cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)


def check_image(frame: object) -> np.ndarray:
    """The frame as a BGR uint8 array, or ImageError saying why it cannot be read."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise ImageError("not an 8-bit image array")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ImageError(f"not a BGR image: shape {frame.shape}")
    if min(frame.shape[:2]) < MIN_SIDE:
        raise ImageError(f"too small to hold a die: {frame.shape[1]}x{frame.shape[0]} px "
                         f"(at least {MIN_SIDE} px each way)")
    return frame


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR, or raise ImageError naming the file (and what is wrong: a
    folder, no image, or too many pixels, refused from the header before decoding)."""
    return check_image(read_image(path, ImageError))


class DiceReader:
    """Reads a tray: one detector call and one batched classifier call per frame, unsure flags.

    Both models are loaded once (ModelError if one is missing or corrupt) and shared by every
    frame; pass `classifier` or `detector` to reuse one already loaded.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        classifier: Classifier | None = None,
        detector: Detector | None = None,
        threads: int = 2,
        settling: Settling | None = None,
        clock: Callable[[], float] = time.monotonic,
        photo_fallback: bool = False,
        prototypes: Prototypes | None = None,
        keep_crops: bool = False,
        numerals: NumeralReader | None = None,
        memory: TableMemory | None = None,
        check_faint: bool = True,
    ) -> None:
        """`photo_fallback`: photo mode (vision.photo_mode: a photo's one die found where the
        tray detector boxed nothing or its marks) and a numbered die read unclearly searched at
        every placement of its numeral (vision.numerals.searched; 575 ms a die here) - for
        anyone's photos, never for a tray camera, where an empty tray must read as no dice and
        the table learns where its camera shows the numeral instead. `prototypes`: taught faces of custom
        dice (vision.prototypes), read by embedding before the standard kinds. `keep_crops`: each
        reading carries a JPEG crop of each die (the table keeps them for training; about 0.15 ms
        a die, which `rollscribe read` need not spend). `numerals`: the text recognizer that
        reads numbered dice's values (vision.numerals). `memory`: the dice this table's players
        confirmed (vision.table_memory), which a standard die's value is fused with; with
        what the dice a tray camera read say of which way it looks (vision.camera_tilt).
        `check_faint`: peaks the detector scored under its threshold are taken for dice where
        the die check says so (vision.die_check, fitted for the shipped models only; in photo
        mode only where TRAY_PHOTO dice were found over the threshold)."""
        self.classifier = classifier or Classifier(model_path, threads=threads)
        self.detector = detector or Detector(threads=threads)
        # photo mode weighs the weaker peaks only in a photo of a roll (TRAY_PHOTO dice found);
        # a one-die photo's are read by rules of its own (vision.photo_mode): weighed there too,
        # 8 fewer of ucffool's and skovy's 500 photos and 3 fewer of 140 rendered close-ups
        # were read right (one sitting)
        self.die_check = (DieCheck(self.classifier.card["sha256"], self.detector.card["sha256"])
                          if check_faint else None)
        self.numerals = numerals or NumeralReader(threads=threads)
        self.settling = settling or Settling()
        self.clock = clock
        self.photo_fallback = photo_fallback
        self.prototypes = prototypes or Prototypes(())
        self.keep_crops = keep_crops
        self.memory = memory or TableMemory()
        # which way the tray camera looks, from the dice read (a photo's camera is its own)
        self.tilt = None if photo_fallback else CameraTilt()

    def resolve(self, expect: Sequence[str] | None) -> list[str] | None:
        """The expectation with taught dice spelt as taught (names match whatever their case);
        ValueError naming the known dice (standard kinds, then taught) for anything else."""
        if expect is None:
            return None
        taught = {die.casefold(): die for die in self.prototypes.dice}
        known = [k if k in self.classifier.kinds else taught.get(k.casefold()) for k in expect]
        unknown = [k for k, name in zip(expect, known, strict=True) if name is None]
        if unknown or not expect:
            dice = ", ".join([*self.classifier.kinds, *sorted(self.prototypes.dice)])
            what = ", ".join(map(repr, unknown)) or "nothing"
            raise ValueError(f"cannot expect {what}; known dice: {dice}")
        return [name for name in known if name is not None]

    def read_frame(self, frame: np.ndarray, expect: Sequence[str] | None = None) -> TrayReading:
        """Read every die in one BGR frame; `expect` lists the dice rolled (with repeats)."""
        frame = check_image(frame)
        expect = self.resolve(expect)  # ValueError for unknown dice, before any work
        found, looked = self._find(frame, expect)
        dice = self._read_dice(frame, found, expect, looked)
        if self.photo_fallback:

            def read_as(box: DieBox) -> list[DieReading]:  # that box alone: no spare boxes
                return self._read_dice(frame, Detection((box,)), expect)

            dice = photo_dice(frame, found.dice, dice, read_as, found.spare)
        return self._tray(frame, dice)

    def find(self, frame: np.ndarray, expect: list[str] | None = None) -> Detection:
        """The dice in the frame, at least as many as expected, and those of the weaker peaks
        the die check takes for dice; the other weaker ones kept aside (where an expected taught
        die may be if no box found looks like it, or the one die of a photo)."""
        return self._find(frame, expect)[0]

    def _find(self, frame: np.ndarray, expect: list[str] | None) -> tuple[Detection, Looked | None]:
        """`find`, with the classifier's look at its dice: one batch for the dice found and the
        weaker peaks the die check weighs."""
        found = self.detector(frame, at_least=len(expect) if expect else 0, spare=SPARE_BOXES)
        weighed = found.spare if self.die_check is not None and (
            not self.photo_fallback or len(found.dice) >= TRAY_PHOTO) else ()
        boxes = [d.box for d in (*found.dice, *weighed)]
        if not boxes:
            return found, None
        clf = self.classifier
        crops = clf.crops(frame, boxes)
        outputs = clf.look(crops)
        n = len(found.dice)
        added: list[int] = []  # of the weighed peaks, those taken for dice
        if weighed:
            dice = self.die_check.dice(np.array([d.score for d in weighed]),
                                       {k: v[n:] for k, v in outputs.items()})
            added = taken([d.box for d in weighed], dice, [d.box for d in found.dice])
        kept = [*found.dice, *(weighed[i] for i in added)]
        order = reading_order(kept)
        rows = [[*range(n), *(n + i for i in added)][i] for i in order]
        spare = tuple(d for i, d in enumerate(found.spare) if i not in added)
        return (Detection(tuple(kept[i] for i in order), spare),
                Looked([crops[r] for r in rows], {k: v[rows] for k, v in outputs.items()}))

    def _tray(self, frame: np.ndarray, dice: Sequence[DieReading]) -> TrayReading:
        """The frame's reading, with every die whose value the classifier gave, of a kind its
        card says to always check, flagged for a player (a die its numeral or its pips settled
        is sure by their own rule); done last, so the choices before it weigh the
        model's own doubts."""
        checked = []
        for die in dice:
            why = card_check(self.classifier, die.die, die.settled)
            if why is not None:
                die = replace(die, unsure=True, why_unsure=join_reasons(die.why_unsure, why))
            checked.append(die)
        return tray_reading(frame, checked, self.keep_crops)

    def _read_dice(
        self, frame: np.ndarray, found: Detection, expect: list[str] | None,
        looked: Looked | None = None,
    ) -> list[DieReading]:
        """The found dice read; `looked`: the classifier's look at them, when taken already."""
        if not found.dice:
            return []
        clf = self.classifier
        standard = [k for k in expect if k in clf.kinds] if expect is not None else None
        clf.check_expect(standard or None)
        boxes = [d.box for d in found.dice]
        if looked is None:
            crops = clf.crops(frame, boxes)
            looked = Looked(crops, clf.look(crops))
        crops, outputs = looked.crops, looked.outputs
        no_die = clf.states.index("empty") if "empty" in clf.states else -1
        empty = outputs["state"].argmax(axis=1) == no_die
        if expect is None:
            custom = self.prototypes.match(outputs["embedding"], crops)
            resembled = self.prototypes.resembled(outputs["embedding"], crops)
            kinds: list[str | None] = [None] * len(crops)
            unexpected: set[int] = set()
        else:
            custom, kinds, unexpected = self._match_expected(outputs, crops, empty, expect)
            custom = self._second_look(frame, boxes, custom)
            resembled = [None] * len(crops)  # the expectation chose between them
        standard = {i: own_kind(clf, {key: values[i : i + 1] for key, values in outputs.items()},
                                kinds[i])
                    for i in range(len(crops)) if custom[i] is None and not empty[i]}
        numbered = [i for i, (face, _) in standard.items() if face.die in RECOGNIZED]
        ranked = [ranked_kinds(clf, outputs["kind"][i]) for i in numbered]
        sight = self.memory.sight()
        if self.tilt is not None:
            sight = self.tilt.sight(sight)
        read = self.numerals.read_many(frame, [boxes[i] for i in numbered],
                                       [standard[i][0].die for i in numbered], sight,
                                       search=self.photo_fallback, ranked=ranked)
        if self.tilt is not None:
            self.tilt.saw(read)
        numerals = {i: reading for i, reading in zip(numbered, read, strict=True)
                    if reading is not None}
        named = {i: read_kind(face, kind_why, kinds[i], numerals.get(i))
                 for i, (face, kind_why) in standard.items()}
        recalled = [i for i, (name, _) in named.items() if self.memory.remembers(name)]
        keyed = self.memory.keys([crops[i] for i in recalled])  # one batch, only those it can read
        memory_keys = dict(zip(recalled, keyed, strict=True)) if keyed is not None else {}
        dice = []
        for i, die in enumerate(found.dice):
            taught = custom[i]
            if empty[i] and taught is None:
                continue
            if taught is not None:
                name, value = taught.prototype.die, taught.prototype.face
                confidence = max(0.0, taught.similarity)
                unlike = taught.likeness() < 0.5
                face_why = (f"unlike its taught faces ({taught.likeness():.0%} like)" if unlike
                            else taught.doubt())
                if face_why is None and expect is None and taught.prototype.learnt:
                    face_why = PLAYED_FACE
                why = unsure_reasons(face_why, name, die, unexpected=i in unexpected)
                settled = False
            else:
                face = standard[i][0]
                name, kind_why = named[i]
                if resembled[i] is not None:
                    kind_why = join_reasons(kind_why, RESEMBLES.format(
                        resembled[i].prototype.die))
                valued = die_value(clf, face, numerals.get(i), crops[i], outputs["value"][i])
                value, confidence, face_why = self.memory.amend(
                    name, memory_keys.get(i), valued.value, valued.confidence, valued.why)
                settled = valued.settled  # a value the memory changed says so itself
                why = unsure_reasons(join_reasons(face_why, kind_why), name, die,
                                     unexpected=i in unexpected)
            dice.append(DieReading(name, value, confidence, die.box, bool(why), why,
                                   settled=settled))
        return dice + self._spare_taught(frame, found.spare, expect, custom)

    def _match_expected(
        self, outputs: dict[str, np.ndarray], crops: list[np.ndarray], empty: np.ndarray,
        expect: list[str]
    ) -> tuple[list[Match | None], list[str | None], set[int]]:
        """Each die matched to one expected die in one joint assignment: a standard die by the
        classifier's kind probability, a taught die by how like its faces the crop is
        (Match.likeness). Per crop: the taught face it shows (None: a standard die), the
        standard kind it was matched to, and the crops matched to nothing (beyond the roll).

        Why joint: the embedding alone, with a bar, let a numbered d6 beside a symbol cube take
        the cube's place while the cube was read as the d6 (10 of 1,000 validation frames of the
        symbol dice bench; 1 with the joint assignment). A crop matched to nothing is read as
        the taught die it is most like if it is likely that die, else as its own kind."""
        clf = self.classifier
        taught = sorted({d for d in expect if d in self.prototypes.dice})
        nearest = {d: self.prototypes.of({d}).nearest(outputs["embedding"], crops)
                   for d in taught}
        likeness = {d: np.array([m.likeness() for m in nearest[d]]) for d in taught}
        # boxes that hold no die (a shadow, a crumb) take no standard die, and take part only
        # if like a taught die
        probs = np.where(empty[:, None], 0.0, softmax(outputs["kind"]))
        columns = [likeness[k] if k in likeness else probs[:, clf.kinds.index(k)] for k in expect]
        like_taught = np.max([likeness[d] for d in taught] or [np.zeros(len(crops))], axis=0)
        rows = [i for i in range(len(crops)) if not empty[i] or like_taught[i] >= 0.5]
        cost = -np.log(np.maximum(np.stack(columns, axis=1)[rows], 1e-9))
        custom: list[Match | None] = [None] * len(crops)
        kinds: list[str | None] = [None] * len(crops)
        unexpected: set[int] = set()
        for i, slot in zip(rows, assign(cost), strict=True):
            if slot is None:
                unexpected.add(i)
                if like_taught[i] >= 0.5:
                    most = max(taught, key=lambda d: likeness[d][i])
                    custom[i] = nearest[most][i]
            elif expect[slot] in likeness:
                custom[i] = nearest[expect[slot]][i]
            else:
                kinds[i] = expect[slot]
        return custom, kinds, unexpected

    def _second_look(self, frame: np.ndarray, boxes: list[Box],
                     custom: list[Match | None]) -> list[Match | None]:
        """Each doubtful taught die read again from its box cut a little tighter and a little
        looser (RESCALES), keeping whichever of the three looks its die's faces score best; a
        die read from another look stays unsure (Match.second_look).

        Why: icons are compared at one scale, the teaching shots', and a detector box looser or
        tighter than theirs puts the icon at another. On 1,000 validation frames of the symbol
        dice bench, with the expectation: 98.8% -> 99.1% right, asked 12.9% as before. Taken
        as sure when it cleared the margin, a second look left 1 wrong reading sure (none when
        kept unsure), asking 7.9%: the best of three looks clears a margin more easily."""
        doubtful = [(i, m) for i, m in enumerate(custom)
                    if m is not None and m.score is not None and (m.likeness() < 0.5 or m.doubt())]
        if not doubtful:
            return custom
        better = list(custom)
        for i, first in doubtful:
            die = first.prototype.die
            looks = self._look_taught(frame, [widened(boxes[i], s) for s in RESCALES], {die})[die]
            best = max(looks, key=lambda m: m.score or -1.0)
            if (best.score or -1.0) > first.score:
                better[i] = replace(best, second_look=True)
        return better

    def _spare_taught(self, frame: np.ndarray, spare: Sequence[DieBox],
                      expect: list[str] | None, custom: list[Match | None]) -> list[DieReading]:
        """Expected taught dice that no die found was matched to, looked for among the
        detector's weaker boxes kept aside: the box most like each such die, if it is likely
        that die at all, read as it and flagged (found only faintly).

        Why: the detector, trained on numbered dice, scores a plain symbol die below a patch of
        the tray's pattern now and then; the die was among the next few boxes in 3 of 1,000
        validation frames of the symbol dice bench, and missing from the reading."""
        if expect is None or not spare:
            return []
        seen = Counter(m.prototype.die for m in custom if m is not None)
        missing = [d for d in dict.fromkeys(expect) if d in self.prototypes.dice
                   for _ in range(expect.count(d) - seen[d])]
        if not missing:
            return []
        looks = self._look_taught(frame, [die.box for die in spare], set(missing))
        taken: set[int] = set()
        dice = []
        for name in missing:
            matches = looks[name]
            best = max((i for i in range(len(spare)) if i not in taken),
                       key=lambda i: matches[i].likeness(), default=None)
            if best is None or matches[best].likeness() < 0.5:
                continue
            taken.add(best)
            match = matches[best]
            why = unsure_reasons(join_reasons(FAINT_BOX, match.doubt() or ""), name, spare[best],
                                 unexpected=False)
            dice.append(DieReading(name, match.prototype.face, max(0.0, match.similarity),
                                   spare[best].box, True, why))
        return dice

    def _look_taught(self, frame: np.ndarray, boxes: Sequence[Sequence[float]], dice: set[str]
                     ) -> dict[str, list[Match]]:
        """Per taught die: each box's crop as that die's nearest face (the crops cut and
        embedded once)."""
        crops = self.classifier.crops(frame, boxes)
        embeddings = self.classifier.look(crops)["embedding"]
        return {die: self.prototypes.of({die}).nearest(embeddings, crops) for die in dice}

    def read_settled(
        self,
        source: FrameSource,
        expect: Sequence[str] | None = None,
        timeout: float = 10.0,
        on_settled: Callable[[], object] | None = None,
    ) -> TrayReading:
        """Wait until the dice are at rest and no hand is over the tray, then read that frame.

        `on_settled` is called once the dice are at rest, before the frame is read (the box's
        lights switch from "settling" to "reading"). Raises SettleTimeout if that does not
        happen within `timeout` seconds, and lets the source's CameraError through (camera gone).
        """
        expect = self.resolve(expect)  # ValueError for unknown dice, before waiting
        settler = Settler(self.settling)
        deadline = self.clock() + timeout
        while True:
            frame = check_image(source.read())
            hand = skin_hand(frame)
            if settler.feed(frame, hand):
                if on_settled is not None:
                    on_settled()
                found, looked = self._find(frame, expect)
                return self._tray(frame, self._read_dice(frame, found, expect, looked))
            if self.clock() >= deadline:
                raise SettleTimeout(
                    "a hand is over the tray" if hand else "the dice are still moving"
                )


def own_kind(
    clf: Classifier, row: dict[str, np.ndarray], wanted: str | None
) -> tuple[FaceReading, str]:
    """One die read as the model reads it, whatever the roll wanted, and why its kind is in
    doubt: "" when it is the kind the die was matched to (`wanted`; None: matched to none).

    What the game asked for never changes a die's kind nor makes it surer: a d8 in a roll of d6s
    stays a d8, flagged, and is never sure, so the player sees it and sets it right. (An
    expectation that chose the kind read a d8 showing 6 as a sure "d6 6".)"""
    own = clf.postprocess(row)[0]
    if wanted is None or wanted == own.die:
        return own, ""
    return own, f"a {own.die} ({own.best_kind_p:.0%} sure), not the {wanted} wanted"


def ranked_kinds(clf: Classifier, kind_logits: np.ndarray) -> list[str]:
    """The classifier's kinds for one die, likeliest first (numerals.kind_for's order)."""
    return [clf.kinds[k] for k in np.argsort(-kind_logits)]


def read_kind(face: FaceReading, kind_why: str, wanted: str | None,
              numeral: NumeralReading | None) -> tuple[str, str]:
    """A standard die's kind and why it is in doubt (own_kind's): the classifier's, unless its
    numeral is on another kind (numerals.kind_for), which is then the die's, in doubt only if
    the roll wanted another still (the numeral's reason already asks)."""
    if numeral is None or numeral.kind == face.die:
        return face.die, kind_why
    return numeral.kind, f"not the {wanted} wanted" if wanted not in (None, numeral.kind) else ""


def pips_counted(clf: Classifier, face: FaceReading, count: PipCount,
                 before: np.ndarray) -> tuple[FaceReading, bool]:
    """A pipped d6's reading with its pips counted (vision.pips): the classifier's probabilities
    of its faces (`before`) weighed by the count, its confidence scaled alike; and whether the
    count settles it (vision.pips.settles)."""
    faces = clf.faces("d6")
    after = weigh(faces, before, count)
    best = int(np.argmax(after))
    confidence = face.confidence / float(before[faces.index(face.value)]) * float(after[best])
    weighed = replace(face, value=faces[best], confidence=round(min(confidence, 1.0), 4))
    return weighed, settles(count, faces[best], float(after[best]))


def card_check(clf: Classifier, kind: str, settled: bool) -> str | None:
    """Why the classifier's card asks a player to check a die's value (None: it need not): only
    a value the classifier gave alone, not one its face settled (DieReading.settled)."""
    return None if settled else clf.check_reason(kind)


def kind_doubt(face: FaceReading) -> str:
    """Why the kind of a die its face settled is in doubt: the classifier unsure of it ("" if
    not). One bar for a numeral read and pips counted alike."""
    return f"kind not clear ({face.die} {face.best_kind_p:.0%})" if (
        face.best_kind_p < KIND_SURE) else ""


@dataclass(frozen=True)
class Valued:
    """A standard die's value as die_value decides it: its confidence, why it is unsure ("" if
    it is not), and whether its face settled it (its numeral read, or its pips counted: then
    the classifier card's checks of the kind do not apply)."""

    value: int
    confidence: float
    why: str
    settled: bool


def die_value(clf: Classifier, face: FaceReading, numeral: NumeralReading | None,
              crop: np.ndarray, value_logits: np.ndarray) -> Valued:
    """The value of a standard die the classifier read as `face` from `crop` (`value_logits`:
    its value outputs): a numbered die's value is the recognizer's (`numeral`), its confidence
    the numeral's share times the kind's probability; a d6 with no numeral read is the
    classifier's, weighed by its pips counted in the crop (pips_counted) where the count could
    change or settle it (vision.pips.worth_counting)."""
    if numeral is None:
        p = clf.value_probabilities(value_logits, "d6") if face.die == "d6" else None
        if p is not None and worth_counting(clf.faces("d6"), p):
            face, settled = pips_counted(clf, face, count_pips(crop), p)
            why = join_reasons(face.why_unsure or "", kind_doubt(face) if settled else "")
            return Valued(face.value, face.confidence, why, settled)
        return Valued(face.value, face.confidence, face.why_unsure or "", False)
    lying = (face.why_unsure or "") if face.state != "flat" else ""  # cocked or no die
    confidence = round(numeral.share * face.best_kind_p, 4)
    return Valued(numeral.value, confidence,
                  join_reasons(lying, kind_doubt(face), numeral.why_unsure), True)


class Settler:
    """Counts consecutive still frames without a hand; the dice are settled after enough."""

    def __init__(self, rule: Settling | None = None) -> None:
        self.rule = rule or Settling()
        self._previous: np.ndarray | None = None
        self.still = 0

    def feed(self, frame: np.ndarray, hand: bool) -> bool:
        """Take the next frame (and whether a hand is in it); True once the dice are at rest."""
        current = motion_image(frame, self.rule.side)
        previous, self._previous = self._previous, current
        moving = (
            previous is None
            or previous.shape != current.shape
            or motion(previous, current, self.rule.motion_level) > self.rule.motion_fraction
        )
        self.still = 0 if moving or hand else self.still + 1
        return self.still >= self.rule.still_frames


def tray_reading(
    frame: np.ndarray, dice: Sequence[DieReading], keep_crops: bool = False
) -> TrayReading:
    """A frame's reading, with the annotated JPEG kept for the history and the panel (and with
    `keep_crops`, each die's crop for training on the table's own dice)."""
    return TrayReading(
        dice=tuple(dice),
        jpeg=thumbnail_jpeg(frame, dice),
        width=int(frame.shape[1]),
        height=int(frame.shape[0]),
        source="camera",
        crops=tuple(kept_crop(frame, d.box) for d in dice) if keep_crops else (),
    )


def kept_crop(frame: np.ndarray, box: Sequence[float]) -> bytes:
    """The JPEG of a die's crop the table keeps (KEPT_CROP_SIDE px), to learn its dice from."""
    return encode_jpeg(square_crop(frame, box, KEPT_CROP_SIDE), KEPT_CROP_QUALITY)


def unsure_reasons(face_why: str | None, kind: str, die: DieBox, unexpected: bool) -> str:
    """Every reason not to trust a die (the classifier's, if any, first), joined; "" when it
    can be trusted."""
    reasons = [
        face_why or "",
        # a d6 seen from above is square; leaning on a neighbour it shows a second face
        COCKED_D6 if kind == "d6" and die.elongation > D6_ELONGATION else "",
        CUT_AWAY if die.cut else "",
        GUESSED_BOX if die.guessed else "",
        NOT_EXPECTED if unexpected else "",
    ]
    return join_reasons(*reasons)


def thumbnail_jpeg(frame: np.ndarray, dice: Sequence[DieReading]) -> bytes:
    """A small JPEG of the frame with each die's box and number, unsure ones in orange."""
    small, scale = shrink(frame, JPEG_SIDE)
    small = small.copy() if small is frame else small
    for i, die in enumerate(dice):
        x0, y0, x1, y1 = (round(v * scale) for v in die.box)
        colour = (0, 140, 255) if die.unsure else (60, 200, 60)
        cv2.rectangle(small, (x0, y0), (x1, y1), colour, 2)
        cv2.putText(
            small,
            str(i + 1),
            (x0 + 2, max(12, y0 - 3)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            colour,
            1,
            cv2.LINE_AA,
        )
    return encode_jpeg(small, JPEG_QUALITY)


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    """A BGR image as JPEG bytes."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - encoding a valid uint8 image does not fail
        raise ImageError("cannot encode a reading's JPEG")
    return data.tobytes()
