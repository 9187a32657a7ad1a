"""`rollscribe enroll`: symbol dice taught from a few shots, read back by `rollscribe read`.

The dice are the renderer's symbol d6s (vision.train.render: a symbol per face, its other faces'
symbols on its sides), in any style and turn, on a felt-like table, alone in the shot.
"""

from __future__ import annotations

import base64
import contextlib
import io
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.serve import camera_dice_source
from tests.short_of_goal import lower_bound
from vision.classify import DEFAULT_MODEL
from vision.errors import ModelError
from vision.prototypes import SURE_SHOTS, FacePrototype, Prototypes, decode_shot, encode_shot
from vision.reader import DiceReader
from vision.shots import ShotError, locate_one_die
from vision.train.render import DieStyle, paste, random_spec, render_die, shadow

pytestmark = pytest.mark.skipif(
    not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet (make model)"
)
FACES = ("circle", "cross", "triangle", "star")
SHOTS = 8  # shots of each face the store is taught from
NEW = 12  # new shots of each face read back by name


SYMBOL_OF = {"circle": 1, "cross": 2, "triangle": 3, "star": 4}  # the d6 face: render.SYMBOLS


def symbol_die(body: tuple[float, float, float], ink: tuple[float, float, float],
               thickness: int) -> DieStyle:
    """One symbol d6 as a player owns it: its plastic, ink and stroke stay from shot to shot
    (a die whose colours changed with every shot would be no die: icons are compared in
    colour, to tell a red die from its blue twin)."""
    return DieStyle(font=0, thickness=thickness, glyph_scale=1.0, pips=False, edge_read=False,
                    six_nine_mark="underline", symbols=True, plastic=(body, ink))


# two dice the measures are taken over: blue with white icons, ivory with black ones (BGR)
DICE = (symbol_die((200.0, 90.0, 30.0), (245.0, 245.0, 245.0), 3),
        symbol_die((200.0, 225.0, 235.0), (25.0, 25.0, 25.0), 2))
DIE = DICE[0]  # the die the other tests teach


def symbol_die_shot(face: str, seed: int, close_up: float = 0.0, die: DieStyle = DIE
                    ) -> np.ndarray:
    """A 640x480 photo of the symbol d6 `die` showing `face` on top (its other faces show
    other symbols on its sides) under its own light, anywhere on a felt-like table, or in the
    middle spanning `close_up` of the photo's height."""
    rng = np.random.default_rng(seed)
    h, w = 480, 640
    table = np.empty((h, w, 3), np.float32)
    table[:] = rng.uniform([60, 90, 40], [90, 130, 70])
    table += rng.normal(0, 4, (h, w, 3))
    side = min(w, h) * (close_up or rng.uniform(0.22, 0.3))
    spec = replace(random_spec(rng, "d6", SYMBOL_OF[face], side), tilt=float(rng.uniform(0, 12)))
    sprite = render_die(spec, rng, die)
    shift = (0, 0) if close_up else rng.uniform(-0.2, 0.2, 2) * (w, h)
    paste(table, sprite, w / 2 + shift[0], h / 2 + shift[1], shadow(rng, side))
    return np.clip(table, 0, 255).astype(np.uint8)


@cache
def photo_reader() -> DiceReader:
    """The reader `rollscribe read` runs (photo mode), without taught faces."""
    return DiceReader(photo_fallback=True)


def one_die_shots(face: str, first_seed: int, die: DieStyle = DIE) -> Iterator[np.ndarray]:
    """Shots of `face` from seed `first_seed` on, those in which enroll finds the one die: a
    symbol d6 at tray distance is now and then boxed as two dice, and a fixture must not hang
    on which (the close-up test keeps that as its goal)."""
    def found_alone(shot: np.ndarray) -> bool:
        try:
            locate_one_die(shot, photo_reader().detector)
        except ShotError:
            return False
        return True

    shots = (symbol_die_shot(face, seed, die=die) for seed in itertools.count(first_seed))
    return filter(found_alone, shots)


def one_die_shot(face: str, first_seed: int) -> np.ndarray:
    return next(one_die_shots(face, first_seed))


def save(tmp_path: Path, name: str, image: np.ndarray) -> str:
    path = tmp_path / f"{name}.png"
    assert cv2.imwrite(str(path), image)
    return str(path)


def face_args(tmp_path: Path, shots: int, die: DieStyle = DIE) -> list[str]:
    """--face NAME IMAGE... for every face, with `shots` fresh shots each."""
    args = []
    for f, face in enumerate(FACES):
        drawn = itertools.islice(one_die_shots(face, 100 * f, die), shots)
        args += ["--face", face, *(save(tmp_path, f"{face}-{s}", im) for s, im in enumerate(drawn))]
    return args


def taught_store(tmp: Path, die: DieStyle) -> tuple[Path, str]:
    """A store of `die` with the four faces taught from SHOTS shots each, and what enroll
    printed."""
    tmp.mkdir(exist_ok=True)
    path = tmp / "taught.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        args = ["enroll", "--store", str(path), "--die", "monster", *face_args(tmp, SHOTS, die)]
        assert main(args) == 0
    return path, out.getvalue()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """DIE taught (taught_store)."""
    return taught_store(tmp_path_factory.mktemp("enroll"), DIE)


def test_enroll_reports_shots_and_self_consistency(store: tuple[Path, str]) -> None:
    path, printed = store
    per_face = [re.search(rf"monster:{face}: {SHOTS} shots, (\d+)/{SHOTS} read back", printed)
                for face in FACES]
    assert all(per_face), printed
    total = re.search(rf"self-consistency \(leave-one-out\): (\d+)/{4 * SHOTS} = \d+%", printed)
    assert total, printed
    # the totals agree with the per-face lines; four faces drawn apart read back at least twice
    # as often as chance (1 in 4). Reader 4.0.0 read back 72% of 4 shots a face over ten seed
    # sets (9 to 14 of 16: a bar of 12 failed four sets in ten); 8 a face read back 27 of 32
    # here, and half of 32 lies 3 standard errors under 72%.
    right = int(total[1])
    assert right == sum(int(m[1]) for m in per_face)
    assert right >= 2 * SHOTS, printed
    faces = json.loads(path.read_text())["faces"]
    assert sorted((f["die"], f["face"]) for f in faces) == [("monster", f) for f in sorted(FACES)]
    assert all(len(f["vector"]) == 64 for f in faces)


def read_by_name(
    store: Path, first_seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    extra: tuple[tuple[str, np.ndarray], ...] = (), die: DieStyle = DIE,
) -> tuple[int, int, list[list[tuple[str, str]]]]:
    """NEW new shots of each face (the die found alone in each), and any `extra` ones, read with
    the store: how many are read as the monster die's face they show, of how many, and what
    each was read as."""
    shots = [(face, shot) for f, face in enumerate(FACES)
             for shot in itertools.islice(one_die_shots(face, first_seed + 100 * f, die), NEW)]
    shots += extra
    images = [save(tmp_path, f"new-{i}", shot) for i, (_, shot) in enumerate(shots)]
    capsys.readouterr()
    assert main(["read", "--json", "--taught", str(store), *images]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    read = [[(d["die"], d["value"]) for d in r["dice"]] for r in results]
    right = sum(dice == [("monster", face)] for dice, (face, _) in zip(read, shots, strict=True))
    return right, len(shots), read


def test_read_taught_reads_new_shots_by_face_name(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """New shots of each of two taught dice, NEW of each face at tray distance and one closer,
    are read as the taught die by their face's name: 85% shown (lower_bound) over both dice.
    Read so: 98 of 98 (before a photo in which the detector boxed nothing was read where it
    differs from the table: 75 of 98, every miss a photo read as no die, 20 of the 23 plain
    circles; before each shot was of one die, not of a die of new colours each time: 21 of
    33)."""
    right = n = 0
    read: list[list[tuple[str, str]]] = []
    for d, die in enumerate(DICE):
        path = store[0] if die == DIE else taught_store(tmp_path / f"die-{d}", die)[0]
        closer = ("star", symbol_die_shot("star", 6000, close_up=0.35, die=die))
        got = read_by_name(path, 5000, tmp_path, capsys, (closer,), die)
        right, n, read = right + got[0], n + got[1], read + got[2]
    # without the store the same die is some standard kind, never a face name
    assert main(["read", "--json", save(tmp_path, "plain", closer[1])]) == 0
    assert json.loads(capsys.readouterr().out)["dice"][0]["value"] not in FACES
    assert lower_bound(right, n) >= 0.85, f"{right} of {n} read by name: {read}"


def test_bad_shots_are_clear_errors_and_keep_the_store(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "taught.json"
    kept.write_bytes(store[0].read_bytes())
    before = kept.read_bytes()
    good = save(tmp_path, "good", one_die_shot("circle", 1))
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 cut short")
    blank = save(tmp_path, "blank", np.full((480, 640, 3), (70, 110, 50), np.uint8))
    two, _ = two_dice(tmp_path)
    cases = [
        (["--face", "eye", good, str(broken)], 1, "broken.jpg: not a readable image"),
        (["--face", "eye", str(tmp_path / "gone.png")], 1, "gone.png: no such file"),
        (["--face", "eye", blank], 1, "blank.png: no die found"),
        (["--face", "eye", two], 1, "2 dice found"),
        (["--face", "eye", good, "--face", "fang"], 2, "no shots of face 'fang'"),
        (["--die", "d6", "--face", "eye", good], 2, "'d6' is a standard kind"),
        (
            ["--face", "eye", good, "--model", str(tmp_path / "none.onnx")],
            3,
            "model file not found",
        ),
    ]
    for extra, status, message in cases:
        die = [] if "--die" in extra else ["--die", "monster"]
        assert main(["enroll", "--store", str(kept), *die, *extra]) == status, message
        out, err = capsys.readouterr()
        assert out == "" and message in err and "Traceback" not in err
        assert kept.read_bytes() == before
    assert sorted(p.name for p in tmp_path.glob(".taught*")) == []  # no temp file left


def test_serve_reads_taught_dice_through_the_camera(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The camera reads with the taught store as `rollscribe read --taught` does. The star is
    taught on this shot itself: how well the model reads a new shot's face is pooled in
    test_read_taught_reads_new_shots_by_face_name (this one shot, read as a triangle, made the
    camera's test an expected failure)."""
    pixels = one_die_shot("star", 7000)
    frame = save(tmp_path, "tray", pixels)
    path = tmp_path / "taught.json"
    taught_on(pixels, ["star"], store[0]).save(path)
    reading = camera_dice_source(f"replay:{frame}", taught=path)(None)
    assert [(d.die, d.value) for d in reading.dice] == [("monster", "star")]
    capsys.readouterr()
    assert main(["read", "--json", "--taught", str(path), frame]) == 0
    read = json.loads(capsys.readouterr().out)["dice"]
    assert [(d.die, d.value, list(d.box)) for d in reading.dice] == [
        (d["die"], d["value"], d["box"]) for d in read]
    # the store changes what the die is read as, not where the camera finds it
    plain = camera_dice_source(f"replay:{frame}")(None)
    assert [d.box for d in plain.dice] == [d.box for d in reading.dice]
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{")
    with pytest.raises(ModelError, match="unreadable"):  # the table shows it as a model fault
        camera_dice_source(f"replay:{frame}", taught=corrupt)(None)


def test_a_corrupt_store_is_refused_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corrupt = tmp_path / "taught.json"
    corrupt.write_text('{"faces": [{"die": "monster"')
    good = save(tmp_path, "good", one_die_shot("circle", 1))
    assert main(["enroll", "--store", str(corrupt), "--die", "m", "--face", "eye", good]) == 3
    assert "unreadable" in capsys.readouterr().err
    assert corrupt.read_text() == '{"faces": [{"die": "monster"'
    assert main(["read", "--taught", str(corrupt), good]) == 3


def test_teaching_again_replaces_that_face_and_keeps_the_others(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "taught.json"
    path.write_bytes(store[0].read_bytes())
    old = {f["face"]: f["vector"] for f in json.loads(path.read_text())["faces"]}
    shot = save(tmp_path, "one", one_die_shot("star", 77))
    assert main(["enroll", "--store", str(path), "--die", "monster", "--face", "star", shot]) == 0
    assert "monster:star: 1 shot, add a shot to check it" in capsys.readouterr().out
    new = {f["face"]: f["vector"] for f in json.loads(path.read_text())["faces"]}
    assert new.keys() == old.keys()
    assert not np.allclose(new["star"], old["star"], atol=1e-3)
    assert all(np.allclose(new[f], old[f], atol=1e-6) for f in FACES if f != "star")


def test_a_write_that_fails_midway_leaves_the_old_store_whole(
    store: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "taught.json"
    path.write_bytes(store[0].read_bytes())
    before = path.read_bytes()

    def half_written(self: Prototypes, target: Path) -> None:
        target.write_text('{"faces": [')
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Prototypes, "save", half_written)
    shot = save(tmp_path, "one", one_die_shot("star", 77))
    assert main(["enroll", "--store", str(path), "--die", "monster", "--face", "star", shot]) == 3
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def taught_on(image: np.ndarray, faces: list[str], store: Path) -> Prototypes:
    """The store with the monster's `faces` taught from the dice read in `image`, left to right:
    those dice are surely those faces, whatever the model makes of their symbols, so a test of
    what the reader does with taught dice does not hang on how well one shot is read."""
    taught = Prototypes.load(store)
    dice = sorted(photo_reader().read_frame(image).dice, key=lambda d: d.box[0])
    assert len(dice) == len(faces), [d.box for d in dice]
    clf = photo_reader().classifier
    crops = clf.crops(image, [d.box for d in dice])
    vectors = clf.look(crops)["embedding"]
    # the one crop as the few shots a face needs before it can be read as sure
    mine = {face: FacePrototype.from_embeddings("monster", face, vectors[[i] * SURE_SHOTS],
                                                [encode_shot(crops[i])] * SURE_SHOTS)
            for i, face in enumerate(faces)}
    faces_now = [mine.get(f.face, f) if f.die == "monster" else f for f in taught.faces]
    return Prototypes(faces_now, taught.match_at, taught.model_sha256)


def two_dice(tmp_path: Path) -> tuple[str, np.ndarray]:
    """A photo of two of the monster dice side by side, a cross and a star, drawn until the
    reader finds the two (each shot alone is read at twice the detector's scale)."""
    for seed in itertools.count(2):
        two = np.concatenate(
            [one_die_shot("cross", seed), one_die_shot("star", 1000 + seed)], axis=1
        )
        if len(photo_reader().read_frame(two).dice) == 2:
            return save(tmp_path, "two", two), two
    raise AssertionError("unreachable")


def test_expect_names_taught_dice_and_matches_only_their_faces(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Which taught die a die is, by the expectation (the dice are taught on the photo itself:
    how well the model reads a star is test_read_taught_reads_new_shots_by_face_name's to pool;
    one photo's star read as a triangle made this an expected failure)."""
    path = tmp_path / "taught.json"
    image, pixels = two_dice(tmp_path)
    monster = taught_on(pixels, ["cross", "star"], store[0])
    # a second die whose faces look exactly like the monster's: only the expectation tells them
    twin = [FacePrototype("twin", f.face, f.vector, f.shots) for f in monster.faces]
    Prototypes([*monster.faces, *twin], monster.match_at, monster.model_sha256).save(path)

    def read(expect: str) -> list[tuple[str, str, str]]:
        assert main(["read", "--json", "--taught", str(path), "--expect", expect, image]) == 0
        dice = json.loads(capsys.readouterr().out)["dice"]
        return sorted((d["die"], d["value"], d.get("why_unsure", "")) for d in dice)

    assert read("2xMonster") == [("monster", "cross", ""), ("monster", "star", "")]
    assert read("d6,twin,d20 twin") == [("twin", "cross", ""), ("twin", "star", "")]
    # one expected, two seen: both read, the less alike one flagged
    once = read("monster")
    assert [(d, why) for d, _, why in once].count(("monster", "")) == 1
    assert [d for d, _, _ in once] == ["monster", "monster"]
    assert any("not among the expected dice" in why for _, _, why in once)
    assert main(["read", "--taught", str(path), "--expect", "2xgoblin", image]) == 2
    err = capsys.readouterr().err
    assert "'goblin'" in err and "d20" in err and "monster" in err and "twin" in err
    # without the store a taught name is unknown too
    assert main(["read", "--expect", "monster", image]) == 2
    assert "'monster'" in capsys.readouterr().err


def test_an_expected_taught_die_unlike_its_faces_is_still_that_die_but_unsure(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An expected taught die that matches none of its faces well enough is read as its nearest
    face, unsure (the dice taught on the photo itself, as above, so the nearest is known)."""
    image, pixels = two_dice(tmp_path)
    taught = taught_on(pixels, ["cross", "star"], store[0])
    path = tmp_path / "strict.json"
    taught.save(path)
    monkeypatch.setattr("vision.prototypes.MATCH_AT", 1.5)  # nothing is alike enough ...
    monkeypatch.setattr("vision.prototypes.TAUGHT_AT", 2.5)  # ... by embedding or by icons
    assert main(["read", "--json", "--taught", str(path), image]) == 0
    assert all(d["die"] != "monster" for d in json.loads(capsys.readouterr().out)["dice"])
    assert main(["read", "--json", "--taught", str(path), "--expect", "2xmonster", image]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted((d["die"], d["value"]) for d in dice) == [
        ("monster", "cross"),
        ("monster", "star"),
    ]
    assert all(d["unsure"] and "unlike its taught faces" in d["why_unsure"] for d in dice)
    assert all(0 <= d["confidence"] <= 1.0 for d in dice)
    # with a d6 expected too, the d6 takes one die and the missing monster the other
    assert main(["read", "--json", "--taught", str(path), "--expect", "d6,monster", image]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(d["die"] for d in dice) == ["d6", "monster"]


def test_a_taught_die_matched_with_nothing_expected_but_unlike_its_faces_is_unsure(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With nothing expected, a die the embedding takes for a taught die whose icons do not fit
    its faces (a numbered d8 beside a symbol octahedron, read surely as the octahedron in the
    symbol memory bench) is read as that die but asked, as an expected one is."""
    image, pixels = two_dice(tmp_path)
    path = tmp_path / "strict.json"
    taught_on(pixels, ["cross", "star"], store[0]).save(path)
    monkeypatch.setattr("vision.prototypes.MATCH_AT", -1.0)  # any crop is alike enough ...
    assert main(["read", "--json", "--taught", str(path), image]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert dice and all(d["die"] == "monster" for d in dice)
    assert not any("unlike its taught faces" in d.get("why_unsure", "") for d in dice)
    monkeypatch.setattr("vision.prototypes.TAUGHT_AT", 2.5)  # ... but no icon fits
    assert main(["read", "--json", "--taught", str(path), image]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert dice and all(d["die"] == "monster" for d in dice)
    assert all(d["unsure"] and "unlike its taught faces" in d["why_unsure"] for d in dice)


def test_close_up_shots_teach_the_die_read_at_tray_distance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Shots held close to the camera (the die spans 45% to 100% of the photo's height, up to
    cut by the frame, past the die sizes the tray detector learnt: vision.shots finds them)
    teach each of two dice, read by its face's name at tray distance: 80% shown (lower_bound)
    over NEW shots of each face of both dice. Read so: 94 of 96 (before plain dice the
    detector found nothing on were found where the shot differs from the table, a circle at
    45% was refused and nothing written; before each shot was of one die: 14 of 32)."""
    right = n = 0
    read: list[list[tuple[str, str]]] = []
    for d, die in enumerate(DICE):
        args = []
        for f, face in enumerate(FACES):
            spans = np.linspace(0.45, 1.0, 4)
            shots = [symbol_die_shot(face, 300 + 10 * f + s, close_up=c, die=die)
                     for s, c in enumerate(spans)]
            args += ["--face", face,
                     *(save(tmp_path, f"{d}-{face}-{s}", im) for s, im in enumerate(shots))]
        path = tmp_path / f"taught-{d}.json"
        assert main(["enroll", "--store", str(path), "--die", "monster", *args]) == 0
        got = read_by_name(path, 8000, tmp_path, capsys, die=die)
        right, n, read = right + got[0], n + got[1], read + got[2]
    assert lower_bound(right, n) >= 0.8, f"{right} of {n} read by name: {read}"


def test_the_store_keeps_the_model_and_the_shots(store: tuple[Path, str]) -> None:
    data = json.loads(store[0].read_text())
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    assert data["model_sha256"] == card["sha256"]
    size = card["input"]["size"]
    for face in data["faces"]:
        assert len(face["shots"]) == SHOTS
        crops = [decode_shot(base64.b64decode(shot)) for shot in face["shots"]]
        assert all(crop.shape == (size, size, 3) for crop in crops)


def test_a_store_from_another_model_is_embedded_again_from_its_shots(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # as if taught with an older model: another sha, and vectors that mean nothing to this one
    data = json.loads(store[0].read_text())
    rng = np.random.default_rng(5)
    data["model_sha256"] = "0" * 64
    data["match_at"] = 0.85  # the bar stores kept for the embedding before it knew icons
    for face in data["faces"]:
        face["vector"] = rng.normal(size=len(face["vector"])).tolist()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    images = [save(tmp_path, face, one_die_shot(face, 5000 + 100 * i))
              for i, face in enumerate(FACES)]
    capsys.readouterr()
    assert main(["read", "--json", "--taught", str(store[0]), *images]) == 0
    fresh_read = capsys.readouterr().out
    assert main(["read", "--json", "--taught", str(path), *images]) == 0
    out, err = capsys.readouterr()
    # read as the store taught with this model reads them (how many of them right is the
    # new-shots test's figure: one set of four shots made this an expected failure)
    assert out == fresh_read
    assert err.count("embedded again from their stored shots") == 1  # once per run
    assert json.loads(path.read_text()) == data  # reading never writes the store
    # teaching into it saves it embedded for this model: the same vectors as a fresh store's
    shot = save(tmp_path, "eye", one_die_shot("circle", 42))
    assert main(["enroll", "--store", str(path), "--die", "other", "--face", "eye", shot]) == 0
    assert "embedded again" in capsys.readouterr().err
    again = Prototypes.load(path)
    assert again.model_sha256 == Prototypes.load(store[0]).model_sha256
    assert again.match_at == Prototypes.load(store[0]).match_at  # this model's bar, not 0.85
    fresh = {f.face: f.vector for f in Prototypes.load(store[0]).faces}
    for face in again.faces:
        if face.die == "monster":
            assert np.allclose(face.vector, fresh[face.face], atol=1e-5)


def test_a_store_without_shots_from_another_model_asks_to_teach_again(
    store: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(store[0].read_text())
    legacy = {
        "match_at": 0.85,
        "faces": [{k: f[k] for k in ("die", "face", "vector")} for f in data["faces"]],
    }  # a store as written before stores kept the model and the shots
    path = tmp_path / "legacy.json"
    path.write_text(json.dumps(legacy))
    before = path.read_bytes()
    shot = save(tmp_path, "eye", symbol_die_shot("circle", 42))
    assert main(["read", "--taught", str(path), shot]) == 3
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert "taught with an older model" in err and "teach those dice again" in err
    assert main(["enroll", "--store", str(path), "--die", "m", "--face", "eye", shot]) == 3
    assert "teach those dice again" in capsys.readouterr().err
    assert path.read_bytes() == before
    # stored shots that are not images are a corrupt store, also exit 3
    data["model_sha256"] = "0" * 64
    data["faces"][0]["shots"][0] = base64.b64encode(b"not a png").decode()
    path.write_text(json.dumps(data))
    assert main(["read", "--taught", str(path), shot]) == 3
    assert "unreadable" in capsys.readouterr().err
