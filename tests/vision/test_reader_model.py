"""The reader end to end with the shipped models (detector and classifier) on rendered trays."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import vision.reader as reader_module
from tests.short_of_goal import lower_bound, short_of_goal
from vision.capture import ReplaySource
from vision.classify import DEFAULT_MODEL
from vision.detect import iou, pairs
from vision.errors import CameraError
from vision.numerals import NUMBERED, RECOGNIZED
from vision.prototypes import FacePrototype, Prototypes
from vision.reader import (
    CUT_AWAY,
    NOT_EXPECTED,
    SPARE_BOXES,
    DiceReader,
    SettleTimeout,
    Settling,
    load_image,
)
from vision.samples import sample_frames, truth
from vision.train.detector_frames import alone_in_dark_tray
from vision.train.labels import KINDS
from vision.train.realdata import datasets_root, dice_together, load_photos, measured_on
from vision.train.render import render_crop, render_photo, render_tray

pytestmark = pytest.mark.skipif(
    not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet (make model)"
)
TRAYS = 12  # rendered trays of 10 dice (seeds 33000 on), read with the bundled ones
PHOTOS = 140  # renders of each photo-mode test (seeds 0 on), 20 of each kind


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


def _pairs(reading, dice: list[dict]) -> list[tuple[object, dict]]:
    """Each true die with the reading whose box overlaps it best (IoU >= 0.4: a die pressed
    against a neighbour may get a box a little too generous)."""
    pairs = []
    for true in dice:
        best = max(reading.dice, key=lambda d: iou(d.box, true["box"]), default=None)
        if best is not None and iou(best.box, true["box"]) >= 0.4:
            pairs.append((best, true))
    return pairs


def _trays() -> list[tuple[np.ndarray, list[dict]]]:
    """The bundled trays and TRAYS rendered ones of 10 dice, with their true dice."""
    known = truth()
    trays = [(load_image(path), known[path.name]) for path in sample_frames()]
    for k in range(TRAYS):
        image, dice = render_tray(10, seed=33000 + k)
        trays.append((image, [{"die": d, "value": v, "box": b} for d, v, b in dice]))
    return trays


def test_trays_are_read_end_to_end(reader: DiceReader) -> None:
    """Nearly every die found and its kind read, pooled over the trays, and the dice found read
    as well as the classifier reads their true boxes: what the detector adds (boxes, crops,
    batching) loses little that the model would get right.

    A die not found is the detector's to answer for (found >= 90%, as in test_detect; 100 other
    trays: 97.2%), not counted again against the true boxes. Values are read right on about 62%
    of the dice, so a box a few pixels off flips one die's value in eight either way: the values
    lost must be no more than chance explains (a sign test, 3 standard errors), which a set
    bar of 5 points over a hundred dice was not (one set of 8 other trays in eight failed it)."""
    clf = reader.classifier
    found = kinds = best_kinds = total = lost = won = 0
    for frame, dice in _trays():
        reading = reader.read_frame(frame)
        assert (reading.width, reading.height) == (1280, 960)
        assert reading.jpeg and reading.jpeg[:2] == b"\xff\xd8"
        pairs = _pairs(reading, dice)
        total += len(dice)
        found += len(pairs)
        oracle = clf.classify(clf.crops(frame, [t["box"] for _, t in pairs]))
        for (d, t), f in zip(pairs, oracle, strict=True):
            kinds += d.die == t["die"]
            best_kinds += f.die == t["die"]
            read_right = (d.die, d.value) == (t["die"], t["value"])
            best_right = (f.die, f.value) == (t["die"], t["value"])
            lost, won = lost + (best_right and not read_right), won + (read_right and not best_right)
        for die in reading.dice:
            assert 0.0 <= die.confidence <= 1.0
            assert die.unsure == bool(die.why_unsure)
    assert found >= 0.9 * total, f"found {found} of {total}"
    assert kinds >= 0.9 * found, f"kind right {kinds} of {found}"
    assert kinds >= best_kinds - 0.03 * found, f"kinds {kinds} / {best_kinds} on the true boxes"
    assert lost - won <= 3 * math.sqrt(lost + won), f"values lost {lost}, won {won}"


def test_expect_gives_exactly_the_kinds_rolled(reader: DiceReader) -> None:
    path = sample_frames()[2]  # one of each standard kind
    rolled = [d["die"] for d in truth()[path.name]]
    reading = reader.read_frame(load_image(path), expect=rolled)
    assert Counter(d.die for d in reading.dice) == Counter(rolled)
    assert not any(NOT_EXPECTED in d.why_unsure for d in reading.dice)


def test_a_die_that_was_not_rolled_is_flagged(reader: DiceReader) -> None:
    path = sample_frames()[2]
    rolled = [d["die"] for d in truth()[path.name]]
    reading = reader.read_frame(load_image(path), expect=rolled[1:])
    extra = [d for d in reading.dice if NOT_EXPECTED in d.why_unsure]
    assert len(extra) == 1 and extra[0].unsure
    assert Counter(d.die for d in reading.dice if d not in extra) == Counter(rolled[1:])
    with pytest.raises(ValueError, match="cannot expect"):
        reader.read_frame(load_image(path), expect=["d7"])


def test_a_die_cut_by_the_frame_edge_is_unsure(reader: DiceReader) -> None:
    path = sample_frames()[2]
    frame = load_image(path)
    die = truth()[path.name][0]["box"]
    cx = (die[0] + die[2]) // 2
    cut = np.ascontiguousarray(frame[:, cx:])  # the frame now starts through the die's middle
    reading = reader.read_frame(cut)
    edge = [d for d in reading.dice if d.box[0] == 0]
    assert edge and all(d.unsure and CUT_AWAY in d.why_unsure for d in edge)


def test_kinds_the_model_card_distrusts_wait_for_a_check(
    reader: DiceReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A die whose value the classifier gives (a d6's pips: the card checks no kind whose
    values the recognizer reads) of a kind on the card's always_check list is unsure however
    sure the model is, in a single frame and once settled; other kinds are left as read, and so
    is a d6 read by its numeral."""
    frame = load_image(sample_frames()[2])  # the sample tray with a (numbered) d6
    numeral_read = reader.read_frame(frame).dice
    monkeypatch.setattr(reader_module, "RECOGNIZED", NUMBERED)  # its value the classifier's
    monkeypatch.setattr(reader.classifier, "always_check", {})
    plain = reader.read_frame(frame).dice
    sure = [d.die for d in plain if not d.unsure and d.die not in NUMBERED]
    assert sure, "no d6 of the frame read surely"
    kind = sure[0]
    monkeypatch.setattr(reader.classifier, "always_check", {kind: 0.5})
    checked = reader.read_frame(frame).dice
    why = reader.classifier.check_reason(kind)
    for before, after in zip(plain, checked, strict=True):
        if after.die == kind:
            assert after.unsure and after.why_unsure.endswith(why)
            assert (after.value, after.confidence) == (before.value, before.confidence)
        else:
            assert after == before
    every = {k: 0.5 for k in reader.classifier.kinds if k not in NUMBERED}
    monkeypatch.setattr(reader.classifier, "always_check", every)
    with ReplaySource(sample_frames()[2], loop=True) as source:
        settled = reader.read_settled(source, timeout=30)
    by_classifier = [d for d in settled.dice if d.die not in NUMBERED]
    assert by_classifier and all(d.unsure for d in by_classifier)
    assert all(reader.classifier.check_reason(d.die) in d.why_unsure for d in by_classifier)
    monkeypatch.setattr(reader_module, "RECOGNIZED", RECOGNIZED)
    by_numeral = [d for d in numeral_read if d.settled and d.die == kind]
    assert by_numeral and reader.read_frame(frame).dice == numeral_read


def test_read_settled_reads_once_the_frames_are_still(reader: DiceReader) -> None:
    """Once settled, the frame is read as read_frame reads it."""
    calls = []
    path = sample_frames()[3]
    with ReplaySource(path, loop=True) as source:
        reading = reader.read_settled(source, timeout=30, on_settled=lambda: calls.append(1))
    assert calls == [1]
    assert reading.dice == reader.read_frame(load_image(path)).dice


def test_read_settled_times_out_while_dice_move() -> None:
    ticks = iter(range(1000))
    moving = DiceReader(settling=Settling(still_frames=3), clock=lambda: float(next(ticks)))
    frames = sample_frames()[::2]  # two trays of other dice, one after the other: motion
    with ReplaySource(frames, loop=True) as source, pytest.raises(SettleTimeout, match="moving"):
        moving.read_settled(source, timeout=8)


def test_read_settled_lets_the_camera_error_through(reader: DiceReader) -> None:
    with ReplaySource(sample_frames()[0], loop=False) as source, pytest.raises(CameraError):
        reader.read_settled(source, timeout=30)


def test_one_call_of_each_model_per_frame(
    reader: DiceReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The detector once on the frame at each scale its card names, then the classifier once on
    a batch of every die found and the weaker peaks the die check weighs."""
    calls: dict[str, list[int]] = {"detector": [], "classifier": []}

    def counting(name: str, session):
        real_run = session.run

        class Counting:
            def run(self, *args, **kwargs):
                calls[name].append(args[1][next(iter(args[1]))].shape[0])
                return real_run(*args, **kwargs)

            def __getattr__(self, attr):
                return getattr(session, attr)

        return Counting()

    monkeypatch.setattr(reader.detector, "session", counting("detector", reader.detector.session))
    monkeypatch.setattr(
        reader.classifier, "session", counting("classifier", reader.classifier.session)
    )
    frame = load_image(sample_frames()[1])
    found = reader.detector(frame, spare=SPARE_BOXES)
    calls["detector"].clear()
    reader.read_frame(frame)
    assert calls["detector"] == [1] * len(reader.detector.levels(frame))
    # one batch: the dice found and the weaker peaks the die check weighs
    assert calls["classifier"] == [len(found.dice) + len(found.spare)]


def test_a_taught_custom_die_is_read_by_its_face(reader: DiceReader) -> None:
    path = sample_frames()[3]  # one d20 alone
    frame = load_image(path)
    box = truth()[path.name][0]["box"]
    clf = reader.classifier
    shots = [frame, np.ascontiguousarray(frame[:, ::-1]), np.ascontiguousarray(frame[::-1])]
    flipped = [
        box,
        [1280 - box[2], box[1], 1280 - box[0], box[3]],
        [box[0], 960 - box[3], box[2], 960 - box[1]],
    ]
    embeddings = clf.run(clf.preprocess([clf.crops(s, [b])[0] for s, b in zip(shots, flipped)]))
    taught = Prototypes([FacePrototype.from_embeddings("bones", "skull", embeddings["embedding"])])
    custom = DiceReader(classifier=clf, prototypes=taught)
    reading = custom.read_frame(frame)
    assert [(d.die, d.value) for d in reading.dice] == [("bones", "skull")]
    assert custom.read_frame(frame, expect=["bones"]).dice[0].die == "bones"
    # expecting only standard dice, the taught face is not taken
    assert custom.read_frame(frame, expect=["d20"]).dice[0].die == "d20"


@short_of_goal("close-ups read as one die: 117 of 140 (83.6%, shown over 72%), 1,232 of "
               "1,540 renders in all (80.0%, seeds 0-139, 1000-1399, 2000-2999) against 80%")
def test_close_up_photos_of_one_die_read_as_that_one_die(reader: DiceReader) -> None:
    """Dice photographed close (renders the size of the photo, 480 px, the die about 370 px
    across: past the sizes the tray detector learnt), pooled over PHOTOS renders of every kind:
    photo mode reads most of them as the one die, boxed by its outline in the middle, the share
    shown over 80% (lower_bound: the shipped models' share lies on the bar, and 28 renders
    passed or failed with the seeds); a tray photo in the same photo mode still reads every
    die."""
    photo_mode = DiceReader(classifier=reader.classifier, detector=reader.detector,
                            photo_fallback=True)
    whole = 0
    for seed in range(PHOTOS):
        photo = render_crop(np.random.default_rng(seed), 480, KINDS[seed % 7]).image
        dice = photo_mode.read_frame(photo).dice
        if len(dice) == 1:
            x0, y0, x1, y1 = dice[0].box
            # render_crop puts the die's box, 1/1.3 of the crop, in the middle (jittered)
            middle = abs((x0 + x1) / 2 - 240) < 60 and abs((y0 + y1) / 2 - 240) < 60
            whole += middle and 0.55 * 480 < max(x1 - x0, y1 - y0) < 0.95 * 480
    tray = sample_frames()[1]
    assert len(photo_mode.read_frame(load_image(tray)).dice) >= len(truth()[tray.name]) - 1
    assert lower_bound(whole, PHOTOS) >= 0.8, f"{whole} of {PHOTOS} read as the one die"


def test_a_lone_die_on_a_table_reads_as_that_one_die(reader: DiceReader) -> None:
    """Photos of one die alone on a table (320 px, the die 110 px across), pooled over PHOTOS
    renders of every kind: photo mode reads nearly all of them as that one die, of its kind,
    boxed by its outline (the share shown over 85%, lower_bound), and hardly any die surely and
    wrongly. (134 of 140 since a die seen at two scales keeps its stronger reading, 130 before;
    seeds 1000-1299: 282 of 300.)"""
    photo_mode = DiceReader(classifier=reader.classifier, detector=reader.detector,
                            photo_fallback=True)
    one = sure_wrong = 0
    for seed in range(PHOTOS):
        photo, [(kind, value, box)] = render_photo(
            np.random.default_rng(seed), 320, [KINDS[seed % 7]], 110
        )
        dice = photo_mode.read_frame(photo).dice
        one += len(dice) == 1 and dice[0].die == kind and iou(dice[0].box, box) > 0.5
        sure_wrong += sum(not d.unsure and (d.die, d.value) != (kind, value) for d in dice)
    assert sure_wrong <= PHOTOS // 50, f"{sure_wrong} dice read surely and wrongly"
    assert lower_bound(one, PHOTOS) >= 0.85, f"{one} of {PHOTOS} read as the one die of its kind"


def test_each_die_keeps_the_crop_the_classifier_read(reader: DiceReader, tmp_path) -> None:
    """The crops a reading keeps (the table's own training photos later) are the classifier's
    view of each die: training cuts them to the same pixels the runtime read, JPEG aside."""
    from vision.crops import square_crop
    from vision.train.realdata import Photo, real_crop

    frame = load_image(sample_frames()[0])
    assert reader.read_frame(frame).crops == ()  # `rollscribe read` has no use for them
    reading = DiceReader(classifier=reader.classifier, keep_crops=True).read_frame(frame)
    assert reading.dice and len(reading.crops) == len(reading.dice)
    size = reader.classifier.input_size
    for i, (die, jpeg) in enumerate(zip(reading.dice, reading.crops, strict=True)):
        path = tmp_path / f"{i}.jpg"
        path.write_bytes(jpeg)
        kept = real_crop(Photo(path, "d6", 1, "table:t:game-1", "x", True), size)
        read = square_crop(frame, die.box, size)
        assert np.abs(kept.astype(int) - read.astype(int)).mean() < 4.0


@pytest.mark.skipif(
    not (datasets_root() / "ucffool" / "labels.csv").is_file(), reason="no ../shared/datasets"
)
def test_held_out_real_dice_set_together_are_each_found_and_read() -> None:
    """Two to four held-out real dice cut out of their photos and set apart on a rendered table
    (realdata.dice_together), read as `rollscribe read` reads a photo, pooled over 24 photos
    (seed 11, 72 dice; two tables patterned in strong stripes): each die found once, its kind
    right, its value nearly always, and a die read surely is read right (bench/reader_bench
    reads 120 such photos). 70 found, 69 kinds right, 65 values (60, short of the bar, before
    a photo's unclear d4 was read in upright windows too), none sure and wrong."""
    photos = [p for p in measured_on(load_photos()) if p.sequence != "skovy"]
    reader = DiceReader(photo_fallback=True)
    rng = np.random.default_rng(11)
    total = found = paired = kinds = values = sure_wrong = 0
    for n in range(24):
        photo, dice = dice_together(rng, photos, 2 + n % 3)
        read = reader.read_frame(photo).dice
        total, found = total + len(dice), found + len(read)
        for i, j in pairs([d.box for d in read], [d[2] for d in dice]):
            kind, value, _ = dice[j]
            paired += 1
            kinds += read[i].die == kind
            values += (read[i].die, read[i].value) == (kind, value)
            sure_wrong += not read[i].unsure and (read[i].die, read[i].value) != (kind, value)
    assert total == 72
    assert paired >= 0.9 * total and found - paired <= 5, (paired, found, total)
    assert kinds >= 0.95 * paired, (kinds, paired)
    assert values >= 0.88 * paired, (values, paired)
    assert sure_wrong <= 1


@pytest.mark.skipif(
    not (datasets_root() / "ucffool" / "labels.csv").is_file(), reason="no ../shared/datasets"
)
def test_one_real_die_in_a_large_black_tray_is_read_not_the_tray() -> None:
    """Issue 53's failure: one die alone in a large black tray, the tray boxed as a d6. Held-out
    real dice cut out of their photos, 40-350 px across in a 1280x960 frame
    (detector_frames.alone_in_dark_tray), pooled over 40 frames (seed 2): photo mode finds the
    die in nearly all (39; 33 before the detector's faint peak was read before the region unlike
    the corners), boxes no tray, and reads no die surely and wrongly."""
    photos = [p for p in measured_on(load_photos()) if p.sequence != "skovy"]
    reader = DiceReader(photo_fallback=True)
    rng = np.random.default_rng(2)
    found = tray = sure_wrong = 0
    for _ in range(40):
        frame, box, label = alone_in_dark_tray(rng, photos)
        dice = reader.read_frame(frame).dice
        found += bool(pairs([d.box for d in dice], [box]))
        tray += any(4 * (x1 - x0) * (y1 - y0) > frame.shape[0] * frame.shape[1]
                    for x0, y0, x1, y1 in (d.box for d in dice))
        sure_wrong += sum(not d.unsure and (d.die, d.value) != label for d in dice)
    assert found >= 36 and tray == 0 and sure_wrong == 0, (found, tray, sure_wrong)
