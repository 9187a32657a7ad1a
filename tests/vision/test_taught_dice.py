"""Teaching a symbol die from the tray with the shipped models: shots checked and refused with
the reason, the store's shots embedded again for a new model, and a taught die read beside
numbered dice in whole frames."""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.dice_store import MAX_SHOTS, DiceStore
from companion.die_photos import LabelledDie
from companion.reading import DieReading, TrayReading
from vision.classify import DEFAULT_MODEL, Classifier
from vision.crops import widened
from vision.detect import Detection, Detector, DieBox, iou
from vision.prototypes import Prototypes, decode_shot, encode_shot
from vision.reader import FAINT_BOX, PLAYED_FACE, DiceReader
from vision.table_memory import TURNS
from vision.taught_dice import StoreFaces, Teacher, sharpness, store_prototypes
from vision.train.render import DieStyle, render_tray

pytestmark = pytest.mark.skipif(
    not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet (make model)"
)
SIZE = (1280, 960)
SYMBOLS = ("circle", "cross", "triangle", "star", "square", "moon")
STYLE = DieStyle(font=0, thickness=3, glyph_scale=1.0, pips=False, edge_read=False,
                 six_nine_mark="underline", symbols=True, symbol_faces=SYMBOLS,
                 plastic=((40.0, 40.0, 200.0), (245.0, 245.0, 245.0)))


@pytest.fixture(scope="module")
def teacher() -> Teacher:
    classifier, detector = Classifier(), Detector()

    def no_camera() -> np.ndarray:
        raise AssertionError("these tests hand the teacher their frames")

    return Teacher(classifier, detector, no_camera)


def _alone(seed: int) -> tuple[np.ndarray, str]:
    """A tray with the red symbol die alone, and the face it shows."""
    frame, [(_, value, _)] = render_tray(1, seed, SIZE, ["d6"], [STYLE])
    return frame, SYMBOLS[value - 1]


def _trays(seeds: range, kinds: list[str]) -> Iterator[tuple[np.ndarray, list]]:
    """Frames of the red symbol die (the first of `kinds`) beside numbered dice, and the dice
    drawn; a frame that a die did not fit in is skipped."""
    for seed in seeds:
        frame, dice = render_tray(len(kinds), seed, SIZE, kinds, [STYLE])
        if len(dice) == len(kinds):
            yield frame, dice


@pytest.fixture(scope="module")
def taught(teacher: Teacher, tmp_path_factory: pytest.TempPathFactory) -> DiceStore:
    """The red die taught from frames of it alone (seeds 5000 on), MAX_SHOTS shots a face."""
    store = DiceStore(tmp_path_factory.mktemp("dice") / "t.dice.sqlite")
    store.define({"name": "sigils", "faces": list(SYMBOLS)})
    seed = 5000
    while min(store.shot_counts("sigils").values()) < MAX_SHOTS and seed < 5400:
        seed += 1
        frame, face = _alone(seed)
        if store.shot_counts("sigils")[face] < MAX_SHOTS:
            shot = teacher.check(frame, store, "sigils")
            if shot.problem is None:
                teacher.keep(store, shot.token, face)
    assert set(store.shot_counts("sigils").values()) == {MAX_SHOTS}
    return store


def test_bad_shots_are_refused_with_the_reason(teacher: Teacher, tmp_path: Path) -> None:
    store = DiceStore(tmp_path / "t.dice.sqlite")
    store.define({"name": "sigils", "faces": list(SYMBOLS)})
    empty, _ = render_tray(0, 11, SIZE)
    assert "no die" in (teacher.check(empty, store, "sigils").problem or "")
    two, dice = render_tray(2, 12, SIZE, ["d6", "d6"], [STYLE, STYLE])
    assert len(dice) == 2
    assert teacher.check(two, store, "sigils").problem == (
        "2 dice in the tray: leave only the die being taught")
    frame, face = _alone(13)
    blurred = cv2.GaussianBlur(frame, (0, 0), 3)
    crop = teacher.check(frame, store, "sigils").crop
    assert sharpness(crop) > 0.05 > sharpness(teacher.classifier.crops(
        blurred, [teacher.detector(frame).dice[0].box])[0])
    assert "blurred" in (teacher.check(blurred, store, "sigils").problem or "")
    good = teacher.check(frame, store, "sigils")
    assert good.problem is None and teacher.keep(store, good.token, face) is None
    assert store.shot_counts("sigils")[face] == 1  # only the good shot was kept
    assert teacher.keep(store, good.token, face) == (
        "that shot is no longer waiting: read the tray again")


def test_a_shot_named_as_another_face_than_it_looks_is_refused(
    teacher: Teacher, taught: DiceStore, tmp_path: Path
) -> None:
    """A shot of the star named 'moon' (two shots of each taught so far) is refused: kept, it
    would teach moon the star."""
    store = DiceStore(tmp_path / "t.dice.sqlite")
    store.define({"name": "sigils", "faces": list(SYMBOLS)})
    for shot in taught.shots("sigils"):
        if shot.value in ("star", "moon") and store.shot_counts("sigils")[shot.value] < 2:
            store.add_shot("sigils", str(shot.value), shot.image, shot.model, shot.vectors)
    for seed in range(6000, 6100):
        frame, face = _alone(seed)
        if face == "star" and teacher.check(frame, store, "sigils").problem is None:
            break
    shot = teacher.check(frame, store, "sigils")
    assert shot.guess == "star"
    problem = teacher.keep(store, shot.token, "moon")
    assert problem is not None and problem.startswith("it looks like star")
    assert store.shot_counts("sigils") == {**dict.fromkeys(SYMBOLS, 0), "star": 2, "moon": 2}


def test_shots_of_another_model_are_embedded_again(teacher: Teacher, tmp_path: Path) -> None:
    store = DiceStore(tmp_path / "t.dice.sqlite")
    store.define({"name": "sigils", "faces": list(SYMBOLS)})
    frame, face = _alone(21)
    crop = teacher.check(frame, store, "sigils").crop
    store.add_shot("sigils", face, encode_shot(crop), "an-older-model", b"\x00" * 16)
    clf = teacher.classifier
    prototypes = store_prototypes(store, clf)
    [shot] = store.shots("sigils")
    assert shot.model == clf.card["sha256"] == prototypes.model_sha256
    want = clf.look([decode_shot(shot.image)])["embedding"][0]
    upright = np.frombuffer(shot.vectors or b"", np.float32).reshape(TURNS, -1)[0]
    assert np.allclose(upright, want / np.linalg.norm(want), atol=1e-5)
    assert [(f.die, f.face) for f in prototypes.faces] == [("sigils", face)]
    # matched by the new embedding, not the stale one
    assert np.allclose(prototypes.faces[0].vector, want / np.linalg.norm(want), atol=1e-5)


def test_a_confirmed_roll_of_the_die_joins_its_face_and_undo_takes_it_out(
    teacher: Teacher, taught: DiceStore, tmp_path: Path
) -> None:
    """The table's one memory: a roll of the taught die a player confirmed adds its crop to the
    face it showed (its mean and its icons), counted apart from the shots taught; the roll
    undone, the face is as taught again."""
    store = DiceStore(tmp_path / "t.dice.sqlite")
    store.import_die(taught.export("sigils"))
    clf = teacher.classifier
    before = {f.face: f for f in store_prototypes(store, clf).faces}
    frame, dice = next(_trays(range(7000, 7100), ["d6", "d20"]))
    reader = DiceReader(classifier=clf, detector=teacher.detector,
                        prototypes=store_prototypes(store, clf), keep_crops=True)
    reading = reader.read_frame(frame, ["sigils", "d20"])
    at = max(range(len(reading.dice)), key=lambda i: iou(reading.dice[i].box, dice[0][2]))
    face = SYMBOLS[dice[0][1] - 1]
    label = LabelledDie(1, 9, at, "sigils", face, "checked", 1.0, reading.crops[at])
    assert store.learn(1, [label], attrgetter("jpeg"))
    after = {f.face: f for f in store_prototypes(store, clf).faces}
    assert (after[face].taught, after[face].learnt) == (MAX_SHOTS, 1)
    assert after[face].shots[-1] == reading.crops[at]
    assert not np.allclose(after[face].vector, before[face].vector)
    assert all(np.allclose(after[f].vector, before[f].vector) for f in SYMBOLS if f != face)
    assert store.learn(1, [], attrgetter("jpeg"))  # the roll undone
    again = {f.face: f for f in store_prototypes(store, clf).faces}
    assert (again[face].taught, again[face].learnt) == (MAX_SHOTS, 0)
    assert np.allclose(again[face].vector, before[face].vector)


def test_a_dice_faces_are_made_again_only_when_its_crops_change(
    teacher: Teacher, taught: DiceStore, tmp_path: Path
) -> None:
    """The camera's view of the store's symbol dice: a confirmed roll of standard dice only
    moves the store's revision but makes no face again; a roll of one symbol die makes that
    die's faces again (its crop joins the face it showed) and leaves the other die's as they
    were; undone, the face is as taught again."""
    store = DiceStore(tmp_path / "t.dice.sqlite")
    store.import_die(taught.export("sigils"))
    store.import_die(taught.export("sigils"), name="runes")
    own = StoreFaces(store, teacher.classifier)
    assert own.refresh() and {f.die for f in own.faces} == {"sigils", "runes"}
    made, revision = own.faces, store.revision
    crop = taught.shots("sigils")[0].image
    d6 = LabelledDie(1, 5, 0, "d6", 4, "checked", 1.0, crop)
    assert store.learn(1, [d6], attrgetter("jpeg")) and store.revision > revision
    assert not own.refresh() and own.faces is made
    star = LabelledDie(1, 6, 0, "sigils", "star", "checked", 1.0, crop)
    assert store.learn(1, [d6, star], attrgetter("jpeg"))
    assert own.refresh()
    runes = [f for f in made if f.die == "runes"]
    assert all(a is b for a, b in zip(runes, [f for f in own.faces if f.die == "runes"],
                                      strict=True))
    learnt = {f.face: f.learnt for f in own.faces if f.die == "sigils"}
    assert learnt == {face: face == "star" for face in SYMBOLS}
    assert store.learn(1, [d6], attrgetter("jpeg"))  # the symbol die's roll undone
    assert own.refresh() and not any(f.learnt for f in own.faces)


def _cube(reader: DiceReader, frame: np.ndarray, box: tuple, expect: list[str] | None
          ) -> tuple[TrayReading, DieReading]:
    """The frame's reading and its die over `box`."""
    reading = reader.read_frame(frame, expect)
    return reading, max(reading.dice, key=lambda d: iou(d.box, box))


def test_a_die_read_from_a_face_learnt_in_play_is_sure_only_when_expected(
    teacher: Teacher, taught: DiceStore, tmp_path: Path
) -> None:
    """A die read sure and right from its taught shots, that roll then confirmed: its face now
    holds a crop of play, so the same frame read with nothing expected is asked (no measured
    bar covers faces learnt in play among every taught face), while the game expecting the die
    still reads it sure."""
    store = DiceStore(tmp_path / "t.dice.sqlite")
    store.import_die(taught.export("sigils"))
    clf = teacher.classifier
    reader = DiceReader(classifier=clf, detector=teacher.detector,
                        prototypes=store_prototypes(store, clf), keep_crops=True)
    expect = ["sigils", "d20", "d10"]
    for frame, dice in _trays(range(8000, 8012), ["d6", "d20", "d10"]):
        face, box = SYMBOLS[dice[0][1] - 1], dice[0][2]
        (plain, first), (_, first_expected) = (_cube(reader, frame, box, wanted)
                                               for wanted in (None, expect))
        if any((d.die, d.value, d.unsure) != ("sigils", face, False)
               for d in (first, first_expected)):
            continue
        at = plain.dice.index(first)
        label = LabelledDie(1, 9, at, "sigils", face, "checked", 1.0, plain.crops[at])
        assert store.learn(1, [label], attrgetter("jpeg"))
        reader.prototypes = store_prototypes(store, clf)
        (_, again), (_, expected) = (_cube(reader, frame, box, wanted) for wanted in (None, expect))
        assert (again.die, again.value) == ("sigils", face)
        assert again.unsure and PLAYED_FACE in (again.why_unsure or "")
        assert (expected.die, expected.value, expected.unsure) == ("sigils", face, False), (
            expected.why_unsure)
        return
    pytest.fail("no frame read the die sure and right from its taught shots")


def test_a_taught_die_is_read_beside_numbered_dice(teacher: Teacher, taught: DiceStore) -> None:
    """Frames never taught from (seeds 8000 on) of the symbol die with a d20 and a d10: the
    symbol die read by its name and face most of the time and never surely wrong (a face it
    does not recognise, the square most often, is left unsure), the others as their kinds, with
    and without the game's expectation. The issue's goal (98% right) is the bench's to measure
    (bench/symbol_dice_bench.py): these 12 frames measured 24 of 24 readings right, with the
    icons compared as by the embedding alone."""
    reader = DiceReader(classifier=teacher.classifier, detector=teacher.detector,
                        prototypes=store_prototypes(taught, teacher.classifier))
    frames = right = sure_wrong = kinds = 0
    for frame, dice in _trays(range(8000, 8012), ["d6", "d20", "d10"]):
        frames += 1
        for expect in (None, ["sigils", "d20", "d10"]):
            read = reader.read_frame(frame, expect).dice
            for i, (kind, value, box) in enumerate(dice):
                die = max(read, key=lambda d: iou(d.box, box))
                if i == 0:
                    ok = (die.die, die.value) == ("sigils", SYMBOLS[value - 1])
                    right += ok
                    sure_wrong += not ok and not die.unsure
                else:
                    kinds += die.die == kind
    assert frames >= 10
    assert right >= 0.85 * 2 * frames, (right, frames)
    assert sure_wrong == 0, sure_wrong
    assert kinds >= 0.9 * 4 * frames, (kinds, frames)


def test_an_expected_taught_die_is_told_from_a_d6_by_its_icons(
    teacher: Teacher, taught: DiceStore
) -> None:
    """The symbol cube beside a numbered d6, both expected: which die is the taught one is
    decided with the d6's kind probability in one assignment, by how like the taught faces each
    crop looks (icons and embedding), so it holds even with the embedding's own bar set so high
    that it admits no crop (it used to decide alone, and the d6 took the cube's place in about
    1% of the bench's frames)."""
    faces = store_prototypes(taught, teacher.classifier).faces
    reader = DiceReader(classifier=teacher.classifier, detector=teacher.detector,
                        prototypes=Prototypes(faces, match_at=1.5))
    frames = sure_right = 0
    for frame, dice in _trays(range(8100, 8110), ["d6", "d6", "d20"]):
        frames += 1
        read = reader.read_frame(frame, ["sigils", "d6", "d20"]).dice
        cube, d6 = (max(read, key=lambda d: iou(d.box, box)) for _, _, box in dice[:2])
        assert d6.die == "d6", d6
        assert (cube.die, cube.value) == ("sigils", SYMBOLS[dice[0][1] - 1]) or cube.unsure
        sure_right += cube.die == "sigils" and not cube.unsure
    assert frames >= 8
    assert sure_right >= 0.7 * frames, (sure_right, frames)


def test_an_expected_taught_die_the_detector_scored_low_is_found_among_the_spare_boxes(
    teacher: Teacher, taught: DiceStore
) -> None:
    """A detector that put the symbol die only among its weaker boxes (as the shipped one does
    now and then on a patterned tray) and a patch of tray among the dice: with the die expected,
    it is read from the spare box, by its face and flagged as found faintly; with nothing
    expected the spare boxes are never read."""
    frame, dice = render_tray(3, 8200, SIZE, ["d6", "d20", "d10"], [STYLE])
    assert len(dice) == 3
    boxes = {kind: DieBox(tuple(box), cut=False, elongation=1.0) for kind, _, box in dice}
    corner = DieBox((20, 20, 80, 80), cut=False, elongation=1.0)
    spares = (DieBox((600, 20, 660, 80), cut=False, elongation=1.0), boxes["d6"])

    class Weak:
        """The shipped detector's answer with the symbol die moved aside."""

        def __call__(self, frame: np.ndarray, at_least: int = 0, spare: int = 0) -> Detection:
            return Detection((boxes["d20"], boxes["d10"], corner), spares[:spare])

    reader = DiceReader(classifier=teacher.classifier, detector=Weak(), check_faint=False,
                        prototypes=store_prototypes(taught, teacher.classifier))
    read = reader.read_frame(frame, ["sigils", "d20", "d10"]).dice
    [cube] = [d for d in read if d.die == "sigils"]
    assert cube.box == boxes["d6"].box
    assert cube.value == SYMBOLS[dice[0][1] - 1]
    assert cube.unsure and FAINT_BOX in cube.why_unsure
    assert all(d.box != boxes["d6"].box for d in reader.read_frame(frame).dice)


def test_a_doubtful_taught_die_is_read_again_from_its_box_cut_tighter_or_looser(
    teacher: Teacher, taught: DiceStore
) -> None:
    """Boxes a third looser than the detector's (the icon smaller than in the teaching shots):
    a doubtful taught die is looked at again in its box cut tighter and looser, and the best
    look's face is taken, never as sure. 34 of 40 faces were right without the second look."""
    class Loose:
        def __call__(self, frame: np.ndarray, at_least: int = 0, spare: int = 0) -> Detection:
            found = teacher.detector(frame, at_least=at_least)
            return Detection(tuple(DieBox(widened(d.box, 1.3), cut=False, elongation=1.0)
                                   for d in found.dice))

    reader = DiceReader(classifier=teacher.classifier, detector=Loose(), check_faint=False,
                        prototypes=store_prototypes(taught, teacher.classifier))
    frames = right = second = 0
    for frame, dice in _trays(range(8300, 8340), ["d6", "d20", "d10"]):
        frames += 1
        read = reader.read_frame(frame, ["sigils", "d20", "d10"]).dice
        cube = max(read, key=lambda d: iou(d.box, dice[0][2]))
        right += (cube.die, cube.value) == ("sigils", SYMBOLS[dice[0][1] - 1])
        if "cut tighter or looser" in cube.why_unsure:
            second += 1
            assert cube.unsure
    assert frames == 40
    assert second > 0
    assert right >= 37, right
