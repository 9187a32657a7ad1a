"""Where this table's camera shows a die's top numeral, learnt from the dice its players confirmed.

Why: the top-face locator (vision.top_face) reads one die's crop, and a d20 looks alike from any
side: under a camera looking in from the front, it takes the face turned to the camera for the
top one and the recognizer reads a neighbour's numeral. The camera's tilt is the table's, the
same at every roll, and every die a player confirmed says which window reads its true value. So
for each numbered kind, the table's newest confirmed crops are read at each of a few
placements (PLACEMENTS: windows above the die's centre, stretched to undo a face seen aslant,
turned all round; a d4's, numerals.UPRIGHT_WINDOWS: where its located windows read it
unclearly, windows standing upright all over it, as a d4 seen from the side stands its value),
and a placement that reads MARGIN more of them right than the locator's windows is used for
that kind from then on. On ucffool's rigs, each played
as a table, with 10 confirmed dice of a kind the angled camera's d20s went from 35% to 76%
right, the colour rig's from 73% to 83% (100% after 20), the d4s from 59% to 76% (81% after
20); the top-down rigs kept the locator, and the kinds it read 90% of their confirmed dice
right for are trusted: sure at a lower bar (bench/placement_bench.py).
Learning costs about 0.7 s a confirmed die here, so it runs in the memory's own thread
(vision.table_memory), never on the camera's.

The crops are the ones the table keeps (vision.reader.KEPT_CROP_SIDE px, the die's box a square
of 1 / CROP_MARGIN of it in the middle); each is read once and its verdicts kept by id.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.dice_memory import TEACHES, DiceMemory, RememberedDie
from vision.crops import CROP_MARGIN
from vision.numerals import (
    NUMBERED,
    STANDING,
    UPRIGHT_BELOW,
    NumeralReader,
    Placement,
    TableSight,
    placements_for,
    upright_verdict,
)

KINDS = NUMBERED  # each kind's candidates: numerals.placements_for
MIN_DICE = 10  # confirmed dice of a kind before a placement is chosen
# how many more of them a placement must read right than the locator: one die more chose a
# placement on a top-down rig's d10s in 4 of 20 draws, and read them worse after (the best of
# eight candidates wins by a die by chance). A kind with one candidate (a d4's upright windows)
# takes it by ONE_CANDIDATE_MARGIN: a top-down camera, where they read worse (the demo's d4
# renders), chooses them so from 0.4% of 20 drawn dice (0.03% at MARGIN); chosen on ucffool's d4
# streams, where it made more d4s sure (docs/reader-history.md, 2026-12-01)
MARGIN = 2
ONE_CANDIDATE_MARGIN = 1
LEARN_FROM = 20  # the newest confirmed dice of a kind that choose it
TRUST = 0.9  # share of them the locator must read right for its kind to be trusted


def crop_box(crop: np.ndarray) -> tuple[float, float, float, float]:
    """The die's box in a kept crop: the middle square, 1 / CROP_MARGIN of the crop's side."""
    side = crop.shape[0] / CROP_MARGIN
    c = crop.shape[0] / 2
    return (c - side / 2, c - side / 2, c + side / 2, c + side / 2)


def verdicts(reader: NumeralReader, crop: np.ndarray, kind: str, value: int | str
             ) -> tuple[bool, ...]:
    """Whether each way of reading a kept crop gives the value a player confirmed: the
    locator's windows first, then each of the kind's placements (numerals.placements_for)."""
    box = crop_box(crop)
    usual = reader.read_many(crop, [box], [kind])[0]
    candidates = placements_for(kind)
    if kind in STANDING:  # upright windows, read only where the located ones are unclear
        placed = [usual if usual.share >= UPRIGHT_BELOW else
                  upright_verdict(usual, reader.read_placed(crop, box, kind, candidates)[0])]
    else:
        placed = reader.read_placed(crop, box, kind, candidates)
    return (usual.value == value, *(p.value == value for p in placed))


def better(rows: Sequence[tuple[bool, ...]]) -> int | None:
    """Which of the kind's placements reads the most of these confirmed dice right (`verdicts`
    rows), if it reads MARGIN more than the locator does (ONE_CANDIDATE_MARGIN where it is
    the only one); None below MIN_DICE dice or else."""
    if len(rows) < MIN_DICE:
        return None
    right = np.array(rows, dtype=int).sum(axis=0)
    located, candidates = right[0], right[1:]
    best = int(np.argmax(candidates))
    margin = MARGIN if len(candidates) > 1 else ONE_CANDIDATE_MARGIN
    return best if candidates[best] >= located + margin else None


def choose(rows: Sequence[tuple[bool, ...]], kind: str) -> Placement | None:
    """The placement these confirmed `kind` dice choose (better), if any."""
    best = better(rows)
    return None if best is None else placements_for(kind)[best]


def trusts(rows: Sequence[tuple[bool, ...]]) -> bool:
    """Whether these confirmed dice (`verdicts` rows, at least MIN_DICE) say the camera shows
    their kind's top numeral where the locator looks: it read TRUST of them right and no
    placement did better. Such a kind is sure at the lower bar (vision.numerals.TableSight)."""
    return (len(rows) >= MIN_DICE and better(rows) is None
            and sum(row[0] for row in rows) >= TRUST * len(rows))


class TablePlacements:
    """What a DiceMemory's confirmed crops say of each numbered kind (its placement, or the
    locator trusted); each crop read once (by its id), so following the store reads only the
    new dice."""

    def __init__(self, reader: NumeralReader) -> None:
        self.reader = reader
        self.sight = TableSight()
        self._verdicts: dict[int, tuple[bool, ...]] = {}

    def learn(self, store: DiceMemory) -> None:
        """Choose each kind's placement again from the store's newest confirmed crops (the
        verdicts of crops no longer among them are let go)."""
        confirmed: dict[str, list[RememberedDie]] = {kind: [] for kind in KINDS}
        for die in store.dice(KINDS, images=False):  # oldest first
            if die.how in TEACHES:
                confirmed[die.kind].append(die)
        newest = {kind: dice[-LEARN_FROM:] for kind, dice in confirmed.items()}
        new = [d for dice in newest.values() for d in dice if d.id not in self._verdicts]
        images = store.images_of([d.id for d in new]) if new else {}
        for die in new:
            image = images.get(die.id)
            crop = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR) if image \
                else None
            # an unreadable crop (a bad import) is marked read, with no verdicts, and left out
            self._verdicts[die.id] = () if crop is None else verdicts(self.reader, crop,
                                                                      die.kind, die.value)
        chosen, trusted = {}, set()
        for kind, dice in newest.items():
            rows = [self._verdicts[d.id] for d in dice if self._verdicts[d.id]]
            placement = choose(rows, kind)
            if placement is not None:
                chosen[kind] = placement
            elif trusts(rows):
                trusted.add(kind)
        self.sight = TableSight(chosen, frozenset(trusted))
        self._verdicts = {d.id: self._verdicts[d.id] for dice in newest.values() for d in dice}
