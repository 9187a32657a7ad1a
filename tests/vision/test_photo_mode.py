"""Photo mode's rules, which need no model: which boxes are one die's pieces or marks, and
which box stands for that die."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from companion.reading import DieReading
from vision.detect import DieBox, iou
from vision.photo_mode import (
    FAINT_PEAK,
    crowded_marks,
    die_of_marks,
    die_region,
    fragments_of_one,
    held_by_table,
    marks_on,
    photo_dice,
)
from vision.shots import unlike_corners


def test_pieces_huddled_together_may_be_one_die() -> None:
    def box(x: int, y: int, side: int = 30) -> DieBox:
        return DieBox((x, y, x + side, y + side), cut=False, elongation=1.0)

    pieces = [box(100, 100), box(135, 105), box(110, 140), box(150, 150, 25)]
    whole = fragments_of_one(pieces)
    assert whole is not None and whole.box == (100, 100, 175, 175)
    assert fragments_of_one(pieces[:2]) is None  # two boxes are two dice
    spread = [box(100, 100), box(400, 120), box(250, 300)]
    assert fragments_of_one(spread) is None
    in_a_row = [box(100, 100), box(131, 100), box(162, 100)]
    assert fragments_of_one(in_a_row) is None  # not square: dice side by side


def test_small_boxes_on_a_close_up_die_are_its_marks_and_a_clump_of_dice_is_not() -> None:
    def box(x: int, y: int, side: int) -> DieBox:
        return DieBox((x, y, x + side, y + side), cut=False, elongation=1.0)

    die = (50, 40, 450, 430)
    marks = [box(200, 150, 40), box(260, 300, 35), box(120, 250, 30), box(0, 0, 30)]
    assert marks_on(die, marks)  # three of four inside, each a tenth of the die
    assert not marks_on(die, [*marks, box(460, 440, 30), box(0, 440, 30)])  # half outside
    clump = [box(x, y, 190) for x in (60, 250) for y in (45, 235)]  # four dice filling the box
    assert not marks_on(die, clump)


def _read(box: tuple[int, int, int, int], confidence: float) -> DieReading:
    return DieReading("d4", 1, confidence, box, unsure=confidence < 0.7)


def test_boxes_overlapping_like_no_dice_can_are_one_dies_marks() -> None:
    """A large dark d20 on wood whose marks and facet edges are boxed as dice: small boxes
    crowding closer than their own size, read unsure; dice lie at least a side apart."""
    marks = [
        _read((100 + 9 * i, 100 + 7 * (i % 3), 112 + 9 * i, 112 + 7 * (i % 3)), 0.3)
        for i in range(8)
    ]
    assert crowded_marks(marks)
    assert not crowded_marks(marks[:4])  # too few to tell from a few dice touching
    sure = [_read(m.box, 0.9) if i % 2 else m for i, m in enumerate(marks)]
    assert not crowded_marks(sure)  # half of them read surely as dice
    apart = [_read((100 + 40 * i, 100, 130 + 40 * i, 130), 0.3) for i in range(8)]
    assert not crowded_marks(apart)  # a row of dice, each 10 px from the next


def test_a_dies_marks_are_read_as_the_region_they_lie_on_else_as_the_box_around_them() -> None:
    def mark(x: int, y: int, cut: bool = False) -> DieBox:
        return DieBox((x, y, x + 12, y + 12), cut=cut, elongation=1.0)

    marks = [mark(120, 130), mark(150, 140), mark(170, 175, cut=True)]
    frame = np.full((300, 300, 3), 160, np.uint8)
    frame[100:200, 90:210] = (40, 30, 120)  # the die: unlike the corners, the marks on it
    die = die_of_marks(frame, marks, unlike_corners(frame))
    assert all(abs(a - b) <= 3 for a, b in zip(die.box, (90, 100, 210, 200), strict=True))
    assert not die.cut
    plain = np.full((300, 300, 3), 160, np.uint8)  # nothing unlike the corners
    die = die_of_marks(plain, marks, unlike_corners(plain))
    assert die.box == (120, 130, 182, 187) and die.cut


def test_the_region_of_a_dies_boxes_holds_them_and_is_not_far_larger() -> None:
    """A d4 cut in two along an edge, or a dark die whose marks alone were boxed: the region
    unlike the corners is its die. On a blotchy table the region is a blotch or the whole
    photo, far larger than what the boxes span: no die region then."""

    def piece(x: int, y: int, side: int) -> DieBox:
        return DieBox((x, y, x + side, y + side), cut=False, elongation=1.0)

    frame = np.full((300, 300, 3), 160, np.uint8)
    frame[100:200, 90:210] = (40, 30, 120)  # the die
    halves = [piece(95, 105, 60), piece(150, 135, 55)]
    region = die_region(unlike_corners(frame), halves)
    assert region is not None
    assert all(abs(a - b) <= 3 for a, b in zip(region, (90, 100, 210, 200), strict=True))
    elsewhere = [piece(10, 230, 40), piece(240, 10, 40), halves[0]]
    assert die_region(region, elsewhere) is None  # most boxes off the region
    blotch = np.full((300, 300, 3), 160, np.uint8)
    blotch[20:290, 30:280] = (40, 30, 120)  # a region far larger than the boxes span
    assert die_region(unlike_corners(blotch), [piece(120, 130, 30), piece(150, 140, 30)]) is None
    assert unlike_corners(np.full((300, 300, 3), 160, np.uint8)) is None
    assert die_region(None, halves) is None  # no region


def test_a_doubted_box_centred_on_a_sure_die_is_a_piece_of_it() -> None:
    """Dice cannot overlap: of a die read surely and a doubted box centred on it, only the die
    is kept; a doubted box elsewhere is still a die."""

    def reading(box: tuple[int, int, int, int], confidence: float) -> DieReading:
        return DieReading("d8", 1, confidence, box, unsure=confidence < 0.7)

    def no_second_look(box: DieBox) -> list[DieReading]:
        raise AssertionError(f"no box needs reading again here, {box} was")

    die, piece, other = (100, 100, 160, 160), (120, 125, 150, 150), (300, 300, 360, 360)
    dice = [reading(die, 0.9), reading(piece, 0.3), reading(other, 0.4)]
    boxes = [DieBox(d.box, cut=False, elongation=1.0) for d in dice]
    table = np.full((480, 480, 3), 160, np.uint8)
    kept = photo_dice(table, boxes, dice, no_second_look)
    assert [d.box for d in kept] == [die, other]


def test_a_doubted_box_on_a_die_whose_face_alone_is_in_doubt_is_a_piece_of_it() -> None:
    """A taught die read with confidence but unsure which of two alike faces it shows is still
    surely a die: a small doubted box centred on it is its piece (the tighter unsure margin once
    made a photo of two such dice read as three). Two doubted dice of low confidence, one on
    the other, are both kept for a player to sort out."""

    def reading(box: tuple[int, int, int, int], confidence: float, die: str = "d6") -> DieReading:
        return DieReading(die, "cross" if die == "twin" else 6, confidence, box, unsure=True,
                          why_unsure="as like twin:triangle (0.91) as like twin:cross (1.00)")

    def no_second_look(box: DieBox) -> list[DieReading]:
        raise AssertionError(f"no box needs reading again here, {box} was")

    twin, piece = (255, 206, 379, 326), (269, 285, 305, 320)
    table = np.full((480, 640, 3), 160, np.uint8)
    for confidence, kept_boxes in ((1.0, [twin]), (0.3, [twin, piece])):
        dice = [reading(twin, confidence, "twin"), reading(piece, 0.14)]
        boxes = [DieBox(d.box, cut=False, elongation=1.0) for d in dice]
        kept = photo_dice(table, boxes, dice, no_second_look)
        assert [d.box for d in kept] == kept_boxes


def test_a_photo_with_no_die_read_is_read_as_its_middle_flagged_a_guess() -> None:
    asked: list[DieBox] = []

    def read_as(box: DieBox) -> list[DieReading]:
        asked.append(box)
        return [DieReading("d6", 4, 0.4, box.box, unsure=True, why_unsure="low confidence")]

    photo = np.full((300, 400, 3), 160, np.uint8)
    dice = photo_dice(photo, [], [], read_as)
    assert [b.box for b in asked] == [(110, 60, 290, 240)] and asked[0].guessed
    assert [d.box for d in dice] == [(110, 60, 290, 240)]


def test_a_photo_with_no_die_read_is_read_where_it_is_unlike_the_table_first() -> None:
    """A die off the middle that the detector boxed nothing on: the part of the photo unlike
    its corners is read as the die, flagged a guess; when that holds no die, the middle."""
    photo = np.full((300, 400, 3), 160, np.uint8)
    photo[40:100, 280:340] = (200, 90, 30)  # a die of 60 px, up and right
    asked: list[DieBox] = []

    def read_as(box: DieBox) -> list[DieReading]:
        asked.append(box)
        return [DieReading("d6", 4, 0.4, box.box, unsure=True, why_unsure="low confidence")]

    dice = photo_dice(photo, [], [], read_as)
    (region,) = asked
    assert iou(region.box, (280, 40, 340, 100)) > 0.8 and region.guessed
    assert [d.box for d in dice] == [region.box]

    def no_die_there(box: DieBox) -> list[DieReading]:
        return [] if box.box == region.box else read_as(box)

    asked.clear()
    dice = photo_dice(photo, [], [], no_die_there)
    assert [d.box for d in dice] == [b.box for b in asked] == [(110, 60, 290, 240)]


def test_a_close_up_cut_by_the_photos_edge_is_read_whole_and_cut() -> None:
    """A die filling most of the photo and reaching its right edge, boxed by the detector as
    three small marks read doubtfully: read as the one die, cut by the edge."""
    photo = np.full((300, 400, 3), 160, np.uint8)
    photo[40:260, 200:400] = (40, 30, 120)
    marks = [DieBox((x, 120, x + 20, 140), cut=False, elongation=1.0) for x in (240, 280, 320)]
    dice = [_read(m.box, 0.3) for m in marks]
    asked: list[DieBox] = []

    def read_as(box: DieBox) -> list[DieReading]:
        asked.append(box)
        return [_read(box.box, 0.8)]

    kept = photo_dice(photo, marks, dice, read_as)
    assert len(kept) == 1 and asked and asked[0].cut
    assert all(abs(a - b) <= 4 for a, b in zip(kept[0].box, (200, 40, 400, 260), strict=True))


def test_a_faint_peak_in_a_large_tray_is_read_before_the_tray() -> None:
    """One die in a large black tray that the detector scored under its threshold: its peak is
    read as the die, asked however surely it reads (its box may hold part of the die); the tray,
    the region unlike the table at the photo's corners, is not read."""
    photo = np.full((480, 640, 3), 170, np.uint8)  # a light table ...
    photo[20:470, 30:620] = 20  # ... under a black tray nearly filling the photo
    photo[200:250, 300:350] = (40, 40, 200)  # a red die, 50 px across
    peak = DieBox((298, 198, 352, 252), cut=False, elongation=1.0)
    asked: list[DieBox] = []

    def read_as(box: DieBox) -> list[DieReading]:
        asked.append(box)
        return [_read(box.box, 0.8)]

    dice = photo_dice(photo, [], [], read_as, faint=[peak])
    assert asked == [peak] and [d.box for d in dice] == [peak.box]
    assert dice[0].unsure and FAINT_PEAK in dice[0].why_unsure  # read at 0.8: sure as a box
    asked.clear()
    photo_dice(photo, [], [], read_as)  # without the peak: the tray, as before
    assert asked and asked[0].box != peak.box


def test_a_faint_peak_on_a_close_up_die_is_one_of_its_marks() -> None:
    """A die photographed close (the region unlike the corners half the photo) whose numeral
    alone peaked under the threshold: the die is read whole, not its numeral."""
    photo = np.full((300, 400, 3), 160, np.uint8)
    photo[60:240, 110:290] = (40, 30, 120)
    numeral = DieBox((180, 130, 220, 170), cut=False, elongation=1.0)
    asked: list[DieBox] = []

    def read_as(box: DieBox) -> list[DieReading]:
        asked.append(box)
        return [_read(box.box, 0.8)]

    dice = photo_dice(photo, [], [], read_as, faint=[numeral])
    assert numeral not in asked and len(dice) == 1
    assert iou(dice[0].box, (110, 60, 290, 240)) > 0.8


def test_where_the_region_is_no_close_up_a_faint_peak_is_read() -> None:
    photo = np.full((480, 640, 3), 150, np.uint8)
    peak = (100, 100, 150, 150)
    assert held_by_table(photo, peak, None)  # nothing unlike the table
    assert held_by_table(photo, peak, (500, 300, 560, 360))  # a patch of the table, or the die
    assert held_by_table(photo, peak, (10, 10, 630, 470))  # a tray round a small peak
    assert not held_by_table(photo, (200, 200, 420, 420), (10, 10, 630, 470))  # a die that big
    assert not held_by_table(photo, peak, (60, 60, 400, 400))  # a close-up die: the peak a mark


def test_doubted_specks_beside_a_die_surely_there_are_no_dice() -> None:
    """A d20 on a spotted cloth whose spots were boxed as small d6s read in doubt: the dice of
    one photo lie at one distance, so a doubted box under a third of the die's side is dropped;
    a doubted die of a like size, and a speck read surely, are kept."""
    photo = np.full((480, 640, 3), 150, np.uint8)
    d20 = DieReading("d20", 17, 0.9, (200, 200, 400, 400))
    spots = [DieReading("d6", 1, 0.3, (x, 60, x + 20, 80), unsure=True) for x in (60, 500)]
    beside = DieReading("d6", 3, 0.3, (450, 250, 600, 400), unsure=True)
    sure_speck = DieReading("d6", 1, 0.95, (60, 400, 100, 440))
    dice = [d20, *spots, beside, sure_speck]
    boxes = [DieBox(d.box, cut=False, elongation=1.0) for d in dice]
    kept = photo_dice(photo, boxes, dice, lambda box: [])
    assert kept == [d20, beside, sure_speck]


def test_with_nothing_read_a_weaker_peak_read_as_a_die_comes_before_the_middle() -> None:
    """A die on a busy cloth the detector scored under its threshold and the classifier did
    not take the region for: the weaker peaks are read, strongest first, the first the
    classifier reads as a die kept; the middle of the photo only when none is."""
    photo = np.full((300, 400, 3), 160, np.uint8)
    spot, die = (DieBox((20, 20, 40, 40), cut=False, elongation=1.0),
                 DieBox((300, 200, 350, 250), cut=False, elongation=1.0))
    asked: list[DieBox] = []

    def read_as(box: DieBox) -> list[DieReading]:
        asked.append(box)
        return [_read(box.box, 0.6)] if box == die else []

    dice = photo_dice(photo, [], [], read_as, faint=[spot, die])
    assert [d.box for d in dice] == [die.box] and asked[-2:] == [spot, die]
    assert FAINT_PEAK in dice[0].why_unsure
    asked.clear()
    assert photo_dice(photo, [], [], read_as, faint=[spot]) == []
    assert asked[-1].box == (110, 60, 290, 240) and asked[-1].guessed  # the middle, last


def test_a_region_read_only_as_a_doubted_pipped_die_leaves_a_die_read_by_its_numeral() -> None:
    """One die alone in the middle of the part of a tray a top-down photo holds, its numeral
    read but in doubt, looks like a close-up die's mark; read whole, the tray's floor is a
    doubted d6 showing a 1 (no pips), no numeral read: the die stays as read. A region read by
    its numeral, or surely, is the close-up die and is read whole."""
    photo = np.full((480, 640, 3), 160, np.uint8)
    photo[80:400, 160:480] = 20  # the part of a black tray
    numeral = (300, 220, 340, 260)  # the die in its middle
    photo[220:260, 300:340] = (40, 40, 200)
    die = DieReading("d20", 12, 0.3, numeral, unsure=True, settled=True)
    region = DieReading("d6", 1, 0.8, (0, 0, 1, 1), unsure=True)

    def read_as(reading: DieReading) -> Callable[[DieBox], list[DieReading]]:
        return lambda box: [replace(reading, box=box.box)]

    boxed = [DieBox(numeral, cut=False, elongation=1.0)]
    assert photo_dice(photo, boxed, [die], read_as(region)) == [die]
    for whole in (replace(region, settled=True), replace(region, unsure=False)):
        dice = photo_dice(photo, boxed, [die], read_as(whole))
        assert len(dice) == 1 and iou(dice[0].box, (160, 80, 480, 400)) > 0.8


def test_one_doubted_box_small_on_a_close_up_die_is_its_mark() -> None:
    """A phone's full-size photo of one die: the detector, which learnt dice of tray size,
    boxed only its numeral, read in doubt. The die, the region unlike the corners, is read
    whole. A die at the edge of a part of a tray (the region half the photo), or in the middle
    of a tray nearly filling the photo, stays as boxed: the tray is never read as the die."""
    photo = np.full((480, 640, 3), 160, np.uint8)
    photo[80:400, 160:480] = (40, 30, 120)  # the die, half the photo
    numeral = (300, 220, 340, 260)
    asked: list[DieBox] = []

    def read_as(box: DieBox) -> list[DieReading]:
        asked.append(box)
        return [_read(box.box, 0.8)]

    dice = photo_dice(photo, [DieBox(numeral, cut=False, elongation=1.0)],
                      [_read(numeral, 0.4)], read_as)
    assert len(dice) == 1 and iou(dice[0].box, (160, 80, 480, 400)) > 0.8
    surely = photo_dice(photo, [DieBox(numeral, cut=False, elongation=1.0)],
                        [_read(numeral, 0.9)], read_as)
    assert [d.box for d in surely] == [numeral]  # read surely: a die, not a mark

    tray = np.full((480, 640, 3), 160, np.uint8)
    tray[40:440, 300:600] = 20  # the part of a black tray in the photo
    die = (310, 220, 350, 260)  # lying at its edge
    tray[220:260, 310:350] = (40, 40, 200)
    asked.clear()
    kept = photo_dice(tray, [DieBox(die, cut=False, elongation=1.0)], [_read(die, 0.4)], read_as)
    assert [d.box for d in kept] == [die] and not asked

    whole_tray = np.full((480, 640, 3), 170, np.uint8)
    whole_tray[20:470, 30:620] = 20  # a black tray nearly filling the photo
    middle = (300, 220, 340, 260)  # one die in its middle
    whole_tray[220:260, 300:340] = (40, 40, 200)
    kept = photo_dice(whole_tray, [DieBox(middle, cut=False, elongation=1.0)],
                      [_read(middle, 0.4)], read_as)
    assert [d.box for d in kept] == [middle] and not asked
