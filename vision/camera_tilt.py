"""Which way a table's camera looks, from the dice it has read: no player need confirm one.

Why: a d20 looks alike from any side, so one die's crop cannot say whether the camera looks
down on it or in from the side (docs/reader-history.md: a tilt learnt from renders ordered
ucffool's rigs but did not part their dice). But a table's camera is the same at every roll, and
over several d20s the top-face locator (vision.top_face) says it: under a camera looking in, the
top face lies above the die's middle. The median offset of the located face, over the newest
WINDOW d20s read (shares of the die's side, negative above): ucffool's top rig +0.02, the demo's
top-down camera 0.00; the colour, wood and angled rigs -0.09, -0.10 and -0.14 (every 8th photo).
So a table whose median falls under IN_BELOW (the top face above the middle) reads an unclear
d20 again where such a camera shows the top face (vision.numerals.ASIDE, searched), and calls a
d20 sure where the look there reads its face plainly (numerals.aside_verdict), until its
confirmed d20s choose one placement (vision.placement); one whose median is over DOWN_ABOVE, over
a full WINDOW whose offsets spread less than DOWN_SPREAD (interquartile range), may call a d20
sure by the usual rule (numerals.ASLANT guards a camera not judged: looking in, the face turned
to it reads as plainly as the top one). The spread tells a camera looking steeply in (50-65
degrees off vertical), whose median is near 0: the locator puts some dice's top face above the
middle and takes the face turned to the camera at others (interquartile range 0.11 in renders,
against 0.04 at the top rig and the demo's top-down renders); read as looking down, 33 of 150
such renders were sure, all wrongly. Over 15 dice drawn at random, the top rig is judged to look
down 97% of the time (100% by the median alone), the demo's renders 89% (91%), the steep ones 3%
(62%). Such a camera is still judged to look in now and then, where the look above the middle
reads the face turned to it plainly (18 of those 150 sure, all wrongly): until its players
confirm enough d20s for the table to learn where their top face lies (vision.placement; then
27-34 of 40 read right, none sure), a few of its d20s are sure and wrong (5 of 150 read in
turn, 27 by the median alone).
Between the bars, or before MIN_SEEN d20s, nothing changes. The bars were chosen on those rigs'
photos and on renders (docs/reader-history.md has the figures).

The offsets are the reader's own, kept in memory: a restarted table learns them again within a
few rolls, and a photo (`rollscribe read`, each from its own camera) never uses them.
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Iterable
from dataclasses import replace

from vision.numerals import ASLANT, Camera, NumeralReading, TableSight

WINDOW = 15  # the newest judging dice whose offsets count
MIN_SEEN = 6  # judging dice read before the camera is judged
IN_BELOW = -0.04  # median offset under which the camera looks in (the top face above the middle)
DOWN_ABOVE = -0.02  # ... over which it looks down,
DOWN_SPREAD = 0.06  # the offsets' interquartile range over a full WINDOW under that


class CameraTilt:
    """The located top faces' offsets of the newest dice of the kinds a tilt fools
    (numerals.ASLANT: they judge the camera, the same for every die), and what they say of it.
    The camera's thread alone feeds and asks it."""

    def __init__(self) -> None:
        self._offsets = deque[float](maxlen=WINDOW)

    def saw(self, readings: Iterable[NumeralReading | None]) -> None:
        """Keep the offsets of a frame's numbered dice (None: a d6's pips, no numeral)."""
        for reading in readings:
            if reading is not None:
                self.note(reading.kind, reading.offset)

    def note(self, kind: str, offset: float) -> None:
        """Keep one die's offset (NumeralReading.offset), if its kind judges the camera."""
        if kind in ASLANT:
            self._offsets.append(offset)

    def looks(self) -> Camera:
        """"in", "down", or "" (not known yet, or between the bars)."""
        if len(self._offsets) < MIN_SEEN:
            return ""
        middle = statistics.median(self._offsets)
        if middle < IN_BELOW:
            return "in"
        if middle <= DOWN_ABOVE or len(self._offsets) < WINDOW:
            return ""
        low, _, high = statistics.quantiles(self._offsets, n=4, method="inclusive")
        return "down" if high - low < DOWN_SPREAD else ""

    def sight(self, base: TableSight) -> TableSight:
        """`base` (what the table's confirmed dice taught) with which way the camera looks."""
        return replace(base, camera=self.looks())
