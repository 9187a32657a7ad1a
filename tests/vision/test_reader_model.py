"""The reader end to end with the shipped model on the bundled rendered trays."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.capture import ReplaySource
from vision.classify import DEFAULT_MODEL
from vision.detect import iou, pairs
from vision.errors import CameraError
from vision.prototypes import FacePrototype, Prototypes
from vision.reader import CUT_AWAY, NOT_EXPECTED, DiceReader, SettleTimeout, Settling, load_image
from vision.samples import sample_frames, truth
from vision.train.labels import KINDS
from vision.train.realdata import datasets_root, dice_together, load_photos, measured_on
from vision.train.render import render_crop, render_photo

pytestmark = pytest.mark.skipif(
    not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet (make model)"
)


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


def test_bundled_trays_are_read_end_to_end(reader: DiceReader) -> None:
    """Every die found, and read as well as the classifier reads the true boxes: what the
    detector adds (boxes, crops, batching) loses nothing that the model would get right."""
    known = truth()
    clf = reader.classifier
    found = kinds = values = total = best_kinds = best_values = 0
    for path in sample_frames():
        frame = load_image(path)
        reading = reader.read_frame(frame)
        assert (reading.width, reading.height) == (1280, 960)
        assert reading.jpeg and reading.jpeg[:2] == b"\xff\xd8"
        dice = known[path.name]
        pairs = _pairs(reading, dice)
        total += len(dice)
        found += len(pairs)
        kinds += sum(d.die == t["die"] for d, t in pairs)
        values += sum(d.die == t["die"] and d.value == t["value"] for d, t in pairs)
        oracle = clf.classify(clf.crops(frame, [t["box"] for t in dice]))
        best_kinds += sum(f.die == t["die"] for f, t in zip(oracle, dice, strict=True))
        best_values += sum(
            f.die == t["die"] and f.value == t["value"] for f, t in zip(oracle, dice, strict=True)
        )
        for die in reading.dice:
            assert 0.0 <= die.confidence <= 1.0
            assert die.unsure == bool(die.why_unsure)
    assert found == total
    assert kinds >= best_kinds - 1 and kinds / total >= 0.85
    assert values >= best_values - 2


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
    """A die of a kind on the card's always_check list is unsure however sure the model is,
    in a single frame and once settled; other kinds are left as the model reads them."""
    frame = load_image(sample_frames()[1])  # three d20s, two of them read surely
    monkeypatch.setattr(reader.classifier, "always_check", {})
    plain = reader.read_frame(frame).dice
    assert any(d.die == "d20" and not d.unsure for d in plain)
    monkeypatch.setattr(reader.classifier, "always_check", {"d20": 0.5})
    checked = reader.read_frame(frame).dice
    why = reader.classifier.check_reason("d20")
    for before, after in zip(plain, checked, strict=True):
        if after.die == "d20":
            assert after.unsure and after.why_unsure.endswith(why)
            assert (after.value, after.confidence) == (before.value, before.confidence)
        else:
            assert after == before
    with ReplaySource(sample_frames()[3], loop=True) as source:
        settled = reader.read_settled(source, timeout=30)
    assert [(d.die, d.unsure) for d in settled.dice] == [("d20", True)]
    assert why in settled.dice[0].why_unsure


def test_read_settled_reads_once_the_frames_are_still(reader: DiceReader) -> None:
    calls = []
    path = sample_frames()[3]
    with ReplaySource(path, loop=True) as source:
        reading = reader.read_settled(source, timeout=30, on_settled=lambda: calls.append(1))
    assert calls == [1]
    assert [d.die for d in reading.dice] == [d["die"] for d in truth()[path.name]]


def test_read_settled_times_out_while_dice_move() -> None:
    ticks = iter(range(1000))
    moving = DiceReader(settling=Settling(still_frames=3), clock=lambda: float(next(ticks)))
    frames = sample_frames()[:2]
    with ReplaySource(frames, loop=True) as source, pytest.raises(SettleTimeout, match="moving"):
        moving.read_settled(source, timeout=8)


def test_read_settled_lets_the_camera_error_through(reader: DiceReader) -> None:
    with ReplaySource(sample_frames()[0], loop=False) as source, pytest.raises(CameraError):
        reader.read_settled(source, timeout=30)


def test_at_most_two_model_calls_per_frame(
    reader: DiceReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One batch of every die, then at most one batch of the doubtful ones turned three ways."""
    session = reader.classifier.session
    calls = []
    real_run = session.run

    class Counting:
        def run(self, *args, **kwargs):
            calls.append(args[1][next(iter(args[1]))].shape[0])
            return real_run(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(session, name)

    monkeypatch.setattr(reader.classifier, "session", Counting())
    path = sample_frames()[1]
    reading = reader.read_frame(load_image(path))
    assert calls[0] >= len(reading.dice) >= 10
    assert len(calls) <= 2
    if len(calls) == 2:
        assert calls[1] % 3 == 0 and 0 < calls[1] <= 3 * calls[0]


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


def test_close_up_photos_of_one_die_read_as_that_one_die() -> None:
    """Dice photographed close (renders the size of the photo, d6s and d8s of seeds 0-15): the
    tray detector boxes the numerals or pips of most of them as several dice, some of those read
    with confidence over SURE_PIECE; photo mode reads most of them as the one die, boxed by its
    outline in the middle; a tray photo in the same photo mode still reads every die. Which
    renders these are moves with the renderer's random draws, so the test takes them all from a
    range. Measured: renders v6 20 of the 22 taken apart, v7 21 of 24 (missed: a dark d6 on a
    dark table whose five pips stay five dice, a blurred dark d8 boxed by its numeral, a d6
    boxed off the middle)."""
    plain, reader = DiceReader(photo_fallback=False), DiceReader(photo_fallback=True)
    apart = whole = 0
    for kind in ("d6", "d8"):
        for seed in range(16):
            photo = render_crop(np.random.default_rng(seed), 480, kind).image
            if len(plain.read_frame(photo).dice) < 2:
                continue
            apart += 1
            dice = reader.read_frame(photo).dice
            if len(dice) == 1:
                x0, y0, x1, y1 = dice[0].box
                # render_crop puts the die's box, 1/1.3 of the crop, in the middle (jittered)
                middle = abs((x0 + x1) / 2 - 240) < 60 and abs((y0 + y1) / 2 - 240) < 60
                whole += middle and 0.55 * 480 < max(x1 - x0, y1 - y0) < 0.95 * 480
    assert apart >= 16
    assert whole >= 0.8 * apart
    tray = sample_frames()[1]
    assert len(reader.read_frame(load_image(tray)).dice) >= len(truth()[tray.name]) - 1


def test_a_lone_die_the_detector_takes_apart_reads_as_one_die() -> None:
    """Renders of one die alone on a busy table (320 px, the die 110 px across) that the tray
    detector boxes as two or more dice (its numerals, pips or facets, or a d4 cut in two along an
    edge, often with its outline lost on a table of its colour): photo mode reads most of them as
    that one die, boxed by its outline, and none surely and wrongly. Which renders these are
    moves with the opencv build (one seed once tested alone went from 6 boxes to 3), so the test
    takes them all from a range. Measured: 12 of the 17 in these 240 renders (5 before the
    reader took a region holding only doubted boxes for their die)."""
    plain, photo_mode = DiceReader(photo_fallback=False), DiceReader(photo_fallback=True)
    apart = one = 0
    for seed in range(240):
        photo, [(kind, value, box)] = render_photo(
            np.random.default_rng(seed), 320, [KINDS[seed % 7]], 110
        )
        if len(plain.read_frame(photo).dice) < 2:
            continue
        apart += 1
        dice = photo_mode.read_frame(photo).dice
        one += len(dice) == 1 and dice[0].die == kind and iou(dice[0].box, box) > 0.5
        assert all(d.unsure or (d.die, d.value) == (kind, value) for d in dice), seed
    assert apart >= 10  # the renders still hold such photos
    assert one >= 0.6 * apart


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
    (realdata.dice_together), read as `rollscribe read` reads a photo: each die found once, its
    kind right, its value nearly always, and a die read surely is read right. The bench reads
    120 such photos (recall 98.3%, precision 99.7%, kind 100%, value 96.9%); these 24 (seed 11)
    hold two tables patterned in strong stripes, where the detector loses a die or boxes its
    numerals: 67 of 72 dice found, all their kinds and 62 values right, none sure and wrong."""
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
    # 67 found, 4 boxes more (a sand-ripple table whose pattern is as strong as the dice)
    assert paired >= 0.9 * total and found - paired <= 5
    assert kinds >= paired - 1
    assert values >= 0.88 * paired
    assert sure_wrong <= 1
