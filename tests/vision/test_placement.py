"""Where the table's camera shows the top numeral: chosen only on evidence, cut where it says,
and learnt from a real angled table's confirmed dice, which it then reads better."""

from __future__ import annotations

from operator import attrgetter

import cv2
import numpy as np
import pytest

from companion.dice_memory import DiceMemory
from companion.die_photos import LabelledDie
from vision.crops import square_crop
from vision.memory_key import MemoryKey
from vision.numerals import (
    DEFAULT_MODEL,
    GRID,
    GRID_TURNS,
    PLACEMENTS,
    SEARCH_BELOW,
    UPRIGHT_BELOW,
    UPRIGHT_WINDOWS,
    NumeralReader,
    Placement,
    TableSight,
    cut_placed,
    cut_upright,
    decide,
    placements_for,
)
from vision.placement import MARGIN, MIN_DICE, ONE_CANDIDATE_MARGIN, TRUST, choose, crop_box, trusts
from vision.reader import KEPT_CROP_SIDE, kept_crop
from vision.table_memory import TableMemory
from vision.train.realdata import datasets_root, load_photos, locate_die, read_photo
from vision.train.realsets import rig_of, rig_table

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/numerals.onnx missing")
UP = PLACEMENTS.index(Placement(-0.2, 1.0))


def rows(locator: int, placed: int, n: int = MIN_DICE) -> list[tuple[bool, ...]]:
    """n confirmed dice: the first `locator` read right by the locator, the first `placed`
    by the candidate UP, none by any other."""
    return [tuple([i < locator] + [i < placed and c == UP for c in range(len(PLACEMENTS))])
            for i in range(n)]


def test_a_placement_is_chosen_only_where_it_reads_more_confirmed_dice_right():
    assert choose(rows(2, 9), "d20") == PLACEMENTS[UP]
    assert choose(rows(2, 9, n=MIN_DICE - 1), "d20") is None  # too few dice to say
    assert choose(rows(7, 7 + MARGIN - 1), "d20") is None  # within the margin: the locator stays
    assert choose(rows(7, 7 + MARGIN), "d20") == PLACEMENTS[UP]
    assert choose(rows(10, 9), "d20") is None


def test_a_d4s_one_candidate_is_upright_windows_above_and_below_its_middle():
    """A d4 seen from the side stands its value upright on the face turned to the camera, by
    its apex or along its bottom edge: its windows stand upright (turned at most 20 degrees) on
    a grid over the die's upper and lower parts, where a d20's go round above its middle. The
    middle, where an edge-read die's other numerals lie turned, is in no upright window."""
    assert placements_for("d4") == (UPRIGHT_WINDOWS,) and placements_for("d20") == PLACEMENTS
    assert choose([(False, True)] * MIN_DICE, "d4") == UPRIGHT_WINDOWS
    frame = np.full((400, 400, 3), 200, np.uint8)
    box = (100.0, 100.0, 300.0, 300.0)
    cv2.rectangle(frame, (235, 132), (245, 142), (20, 20, 20), -1)  # ink high on the right
    windows = cut_upright(frame, box)
    assert len(windows) == len(GRID) * len(GRID_TURNS)
    upright = {point: windows[i * len(GRID_TURNS) + GRID_TURNS.index(0)]
               for i, point in enumerate(GRID)}
    assert ink_rows(upright[(0.2, -0.3)]) > 0
    assert ink_rows(upright[(0.0, 0.15)]) == 0 and ink_rows(upright[(-0.2, 0.3)]) == 0
    middle = np.full((400, 400, 3), 200, np.uint8)
    cv2.rectangle(middle, (195, 197), (205, 203), (20, 20, 20), -1)
    standing = cut_upright(middle, box)[GRID_TURNS.index(0)::len(GRID_TURNS)]
    assert len(standing) == len(GRID) and max(ink_rows(window) for window in standing) == 0


def test_a_kind_with_one_candidate_takes_it_by_a_smaller_margin_than_the_best_of_eight():
    """The best of a d20's eight placements beats the locator by a die by chance; a d4's one
    candidate needs no such margin, and still never wins a tie."""
    assert ONE_CANDIDATE_MARGIN < MARGIN
    d4 = [(i < 7, i < 7 + ONE_CANDIDATE_MARGIN) for i in range(MIN_DICE)]
    assert choose(d4, "d4") == UPRIGHT_WINDOWS
    assert choose(rows(7, 7 + ONE_CANDIDATE_MARGIN), "d20") is None
    assert choose([(i < 7, i < 7) for i in range(MIN_DICE)], "d4") is None  # a tie: the locator


def test_a_kind_is_trusted_where_the_locator_read_nearly_all_confirmed_dice_right():
    assert trusts(rows(MIN_DICE, 0))
    assert not trusts(rows(MIN_DICE - 1, 0, n=MIN_DICE - 1))  # too few
    short = int(TRUST * MIN_DICE) - 1
    assert not trusts(rows(short, 0))  # the locator misses too many
    assert not trusts(rows(MIN_DICE - MARGIN, MIN_DICE))  # a placement reads them better


def test_the_kept_crop_holds_the_die_box_in_its_middle():
    frame = np.zeros((480, 640, 3), np.uint8)
    box = (200.0, 150.0, 300.0, 240.0)
    cv2.rectangle(frame, (200, 150), (300, 240), (255, 255, 255), -1)
    crop = square_crop(frame, box, KEPT_CROP_SIDE)
    x0, y0, x1, y1 = (round(v) for v in crop_box(crop))
    assert x1 - x0 == y1 - y0 == round(KEPT_CROP_SIDE / 1.3)
    # the box's long side spans the crop box; its short side is inside it
    assert crop[(y0 + y1) // 2, x0 + 2].min() == 255 and crop[(y0 + y1) // 2, x0 - 3].max() == 0


def ink_rows(window: np.ndarray) -> int:
    """How many rows of a window hold dark ink."""
    return int((window.min(axis=(1, 2)) < 100).sum())


@needs_model
def test_the_windows_are_cut_where_the_placement_says_and_undo_a_squashed_face():
    reader = NumeralReader(threads=1)
    frame = np.full((400, 400, 3), 200, np.uint8)
    box = (100.0, 100.0, 300.0, 300.0)  # side 200: a placement of -0.2 is 40 px above the middle
    numeral = np.full((70, 80, 3), 200, np.uint8)
    cv2.putText(numeral, "7", (18, 62), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (20, 20, 20), 5)
    frame[140:180, 160:240] = cv2.resize(numeral, (80, 40))  # seen aslant: 1.75 times shorter
    stretched, plain, centre = (cut_placed(frame, box, p, "d8") for p in (
        Placement(-0.2, 1.6), Placement(-0.2, 1.0), Placement(0.0, 1.0)))
    assert len(stretched) == 24  # every 15 degrees: the numeral's turn is the die's
    upright = [decide("d8", reader.recognise(w[:1])) for w in (stretched, plain, centre)]
    assert upright[0].value == upright[1].value == 7
    assert upright[2].value != 7 or upright[2].share < 0.5  # 40 px below it, no numeral
    assert ink_rows(stretched[0]) == pytest.approx(1.6 * ink_rows(plain[0]), rel=0.15)


ANGLED = "ucffool-angle"


def angled_d20s() -> list:
    table = rig_table(datasets_root())
    photos = [p for p in load_photos() if p.kind == "d20" and p.measurable
              and rig_of(table, p) == ANGLED]
    return sorted(photos, key=lambda p: p.path)


@needs_model
@pytest.mark.skipif(not (datasets_root() / "ucffool" / "labels.csv").is_file(),
                    reason="no ../shared/datasets")
def test_an_angled_table_learns_where_its_top_numerals_are_and_reads_them_better(tmp_path):
    """ucffool's angled rig (a camera looking in from the front, never seen by either model):
    its top faces lie above the die's middle, where the locator (renders seen so taught it)
    looks less surely: of these 12 later dice it reads 7 right, the placement learnt 10."""
    photos = angled_d20s()
    step = len(photos) // 13
    confirmed, later = photos[::step][:12], photos[step // 2::step][:12]
    store = DiceMemory(tmp_path / "t.dice.sqlite")
    labels = []
    for i, photo in enumerate(confirmed):
        image = read_photo(photo)
        crop = kept_crop(image, locate_die(image))
        labels.append(LabelledDie(1, 10 + i, 0, "d20", photo.value, "checked", 1.0, crop))
    store.learn(1, labels, attrgetter("jpeg"))
    reader = NumeralReader(threads=2)
    memory = TableMemory(store, MemoryKey(), reader)
    memory.refresh()  # the camera's refresh before a reading: the keys only
    assert memory.sight() == TableSight()
    memory.learn_sight()  # the memory's own thread
    placement = memory.sight().placed["d20"]
    assert "d20" not in memory.sight().trusted  # the locator read too few of them right
    assert placement.dy < 0  # above the middle, as a camera in front sees the top face
    right = {"locator": 0, "placed": 0}
    for photo in later:
        image = read_photo(photo)
        box = locate_die(image)
        right["locator"] += reader.read_many(image, [box], ["d20"])[0].value == photo.value
        right["placed"] += reader.read_many(image, [box], ["d20"], memory.sight())[0].value \
            == photo.value
    assert right["placed"] >= right["locator"] + 2, right


def test_no_reader_learns_no_placement(tmp_path):
    memory = TableMemory(DiceMemory(tmp_path / "t.dice.sqlite"))
    memory.refresh()
    memory.learn_sight()
    assert memory.sight() == TableSight() and memory.placements is None


def right_without_and_with_search(photos: list, kind: str, bar: float) -> dict[str, int]:
    """How many of `photos` (one `kind` die each) a table's reading and a photo's read right; a
    die whose located windows read a share under `bar` must come out of the search unsure, any
    other with the numeral the table reads, and a photo's sure die right (a d4 may be sure in a
    photo: its upright windows are read there): how many each read right ("table", "photo"),
    and how many the photo read surely ("sure")."""
    reader = NumeralReader(threads=2)
    right = {"table": 0, "photo": 0, "sure": 0}
    for photo in photos:
        image = read_photo(photo)
        box = locate_die(image)
        usual, searched = (reader.read_many(image, [box], [kind], search=search)[0]
                           for search in (False, True))
        right["table"] += usual.value == photo.value
        right["photo"] += searched.value == photo.value
        if usual.share < bar:
            assert searched.why_unsure, photo.path  # a searched die is never sure
        else:
            assert (searched.numeral, searched.share) == (usual.numeral, usual.share)
        assert searched.why_unsure or searched.value == photo.value, photo.path
        right["sure"] += not searched.why_unsure
    return right


@needs_model
@pytest.mark.skipif(not (datasets_root() / "ucffool" / "labels.csv").is_file(),
                    reason="no ../shared/datasets")
def test_a_photos_unclear_die_is_searched_at_every_placement_and_never_sure():
    """`rollscribe read` has no table to learn from: a die its located windows read unclearly
    is read at every placement too. 24 of the angled rig's d20s: 14 right without, 18 with."""
    photos = angled_d20s()
    right = right_without_and_with_search(photos[:: len(photos) // 24][:24], "d20", SEARCH_BELOW)
    assert right["photo"] >= right["table"] + 3, right


@needs_model
@pytest.mark.skipif(not (datasets_root() / "ucffool" / "labels.csv").is_file(),
                    reason="no ../shared/datasets")
def test_a_photos_d4_is_read_again_in_upright_windows_which_also_check_a_sure_one():
    """A photo's camera is held level: the d4 face turned to it stands its value upright, where
    the locator often points at one of the two turned numerals. One in 16 of each of the colour
    rig's d4 runs (neither model saw the rig): 42 of 58 read right without, 48 with; an unclear
    one never sure, a settled one sure where the upright windows read it too (8, all right)."""
    table = rig_table(datasets_root())
    runs: dict[str, list] = {}
    for p in load_photos():
        if p.kind == "d4" and p.measurable and rig_of(table, p) == "ucffool-colour":
            runs.setdefault(p.run, []).append(p)
    photos = [p for run in sorted(runs) for p in sorted(runs[run], key=attrgetter("path"))[::16]]
    right = right_without_and_with_search(photos, "d4", UPRIGHT_BELOW)
    assert right["photo"] >= right["table"] + 3, right
    assert right["sure"] >= 3, right  # settled, and the upright windows agree (UNSTOOD)
