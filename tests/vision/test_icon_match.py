"""The icon matcher on drawn dice: a turned icon is found at any angle, never matched to its
mirror image, and the same icon in another colour is another face. Every die is drawn from a
seeded generator (its angle, a small offset from the crop's middle, the light's colour and
strength, sensor noise) and each rule is checked on many draws, not one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.icon_match import RADII, RADIUS, IconBank, fitted_radius, similarities, template
from vision.prototypes import MATCH_AT, NEAR_AT, FacePrototype, Prototypes, encode_shot

SIDE = 96  # the reader's crop side
RED, BLUE, CREAM = (40, 40, 200), (200, 90, 30), (200, 225, 235)
WHITE, BLACK = (245, 245, 245), (25, 25, 25)
# chiral icons (none is its own mirror image at any turn) drawn as strokes, points about the
# die's middle
ICONS = {
    "flag": [(-8, 15), (-8, -15), (12, -9), (-8, -2)],
    "hook": [(-10, -14), (6, -14), (6, 10), (-4, 14), (-10, 6)],
    "bolt": [(4, -15), (-8, 1), (6, -1), (-4, 15)],
}
DRAWS = 12


def die_crop(icon: str, plastic: tuple[int, int, int], ink: tuple[int, int, int],
             rng: np.random.Generator, mirrored: bool = False, arc: float | None = None,
             off: float = 4) -> np.ndarray:
    """A crop as the reader cuts it: a die 58 px across showing `icon` on top (and a quarter
    arc `arc` px right of the middle), turned to a random angle, up to `off` px off the middle,
    under light of a random colour and strength, with noise."""
    layer = np.zeros((SIDE, SIDE, 3), np.float32)
    alpha = np.zeros((SIDE, SIDE), np.float32)
    middle = SIDE / 2
    cv2.rectangle(layer, (19, 19), (77, 77), plastic, -1)
    cv2.rectangle(alpha, (19, 19), (77, 77), 1.0, -1)
    points = np.array(ICONS[icon], np.float64) * (-1, 1) if mirrored else np.array(ICONS[icon])
    cv2.polylines(layer, [np.round(points + middle).astype(np.int32)], False, ink, 4, cv2.LINE_AA)
    if arc is not None:
        cv2.ellipse(layer, (round(middle), round(middle)), (round(arc), round(arc)), 0, -45, 45,
                    ink, 4, cv2.LINE_AA)
    shift = rng.uniform(-off, off, 2)
    turn = cv2.getRotationMatrix2D((middle, middle), float(rng.uniform(0, 360)), 1.0)
    turn[:, 2] += shift
    layer = cv2.warpAffine(layer, turn, (SIDE, SIDE), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(alpha, turn, (SIDE, SIDE), flags=cv2.INTER_LINEAR)[..., None]
    table = np.full((SIDE, SIDE, 3), rng.uniform(60, 140, 3), np.float32)
    image = (table * (1 - alpha) + layer * alpha) * rng.uniform(0.8, 1.15, 3) + rng.uniform(-15, 15)
    image = cv2.GaussianBlur(image + rng.normal(0, 4, image.shape), (0, 0), 0.7)
    return np.clip(image, 0, 255).astype(np.uint8)


def bank_of(faces: list[tuple[str, tuple[int, int, int], tuple[int, int, int], bool]],
            rng: np.random.Generator, shots: int = 3) -> IconBank:
    return IconBank([np.stack([template(die_crop(icon, plastic, ink, rng, mirrored))
                               for _ in range(shots)])
                     for icon, plastic, ink, mirrored in faces])


def test_a_turned_icon_is_found_at_any_angle_and_told_from_other_icons() -> None:
    rng = np.random.default_rng(42)
    faces = [(icon, CREAM, BLACK, False) for icon in ICONS]
    bank = bank_of(faces, rng)
    for draw in range(DRAWS):
        icon = list(ICONS)[draw % len(ICONS)]
        scores = bank.scores(die_crop(icon, CREAM, BLACK, rng))
        assert list(ICONS)[int(np.argmax(scores))] == icon, (draw, scores)
        assert scores.max() > 0.8 and np.sort(scores)[-2] < scores.max() - 0.1, (draw, scores)


def test_a_mirrored_icon_is_not_matched_to_its_mirror() -> None:
    rng = np.random.default_rng(7)
    for icon in ICONS:
        bank = bank_of([(icon, CREAM, BLACK, False), (icon, CREAM, BLACK, True)], rng)
        for draw in range(DRAWS // 3):
            mirrored = draw % 2 == 1
            scores = bank.scores(die_crop(icon, CREAM, BLACK, rng, mirrored))
            assert int(np.argmax(scores)) == int(mirrored), (icon, draw, scores)
            assert abs(scores[0] - scores[1]) > 0.05, (icon, draw, scores)


def test_a_colour_twin_is_not_matched_to_its_twin() -> None:
    """The same icons in red and in blue plastic: each crop is nearest its own colour, whatever
    the light's colour (each channel's gain drawn apart)."""
    rng = np.random.default_rng(11)
    faces = [(icon, plastic, WHITE, False) for plastic in (RED, BLUE) for icon in ("flag", "hook")]
    bank = bank_of(faces, rng)
    for draw in range(DRAWS):
        face = draw % len(faces)
        icon, plastic, ink, _ = faces[face]
        scores = bank.scores(die_crop(icon, plastic, ink, rng))
        assert int(np.argmax(scores)) == face, (draw, scores)
        twin = faces.index((icon, RED if plastic == BLUE else BLUE, ink, False))
        assert scores[face] - scores[twin] > 0.1, (draw, scores)


def test_a_face_scores_its_best_shots_and_one_with_none_scores_minus_one() -> None:
    rng = np.random.default_rng(3)
    shots = np.stack([template(die_crop("flag", CREAM, BLACK, rng)) for _ in range(3)])
    crop = die_crop("flag", CREAM, BLACK, rng)
    each = similarities(crop, np.ascontiguousarray(np.conj(shots).transpose(2, 1, 0)))
    scores = IconBank([shots, shots[:0], shots[:1]]).scores(crop)
    assert scores[0] == pytest.approx(np.sort(each)[-2:].mean(), abs=1e-5)
    assert scores[1] == -1.0 and scores[2] == pytest.approx(each[0], abs=1e-5)
    with pytest.raises(ValueError, match="BGR"):
        template(crop[..., 0])


def test_prototypes_with_shots_tell_faces_apart_that_the_embedding_cannot() -> None:
    """Two faces whose embeddings are the same (icons the classifier does not tell apart): with
    their shots the icons decide, and surely; without shots, or without the crops, the
    embedding alone leaves them unsure."""
    rng = np.random.default_rng(5)
    vector = rng.normal(size=16)

    def face(icon: str, shots: bool) -> FacePrototype:
        crops = [encode_shot(die_crop(icon, CREAM, BLACK, rng)) for _ in range(3)]
        return FacePrototype.from_embeddings("sigils", icon, vector[None], crops if shots else ())

    taught = Prototypes([face("flag", True), face("bolt", True)])
    bare = Prototypes([face("flag", False), face("bolt", False)])
    for draw in range(DRAWS // 2):
        icon = ("flag", "bolt")[draw % 2]
        crop = die_crop(icon, CREAM, BLACK, rng)
        match = taught.match(vector[None], [crop])[0]
        assert match is not None and match.prototype.face == icon
        assert match.doubt() is None and match.score is not None
        for embedding_only in (bare.match(vector[None], [crop])[0], taught.match(vector[None])[0]):
            assert embedding_only is not None and embedding_only.score is None
            assert embedding_only.doubt() is not None


@pytest.mark.parametrize(("taught", "learnt"), [(1, 0), (2, 0), (2, 3)])
def test_a_face_taught_from_too_few_shots_is_never_sure(taught: int, learnt: int) -> None:
    """The same clear match as above, but the face was taught from one or two shots: it is
    right, and still asked, saying why; crops of confirmed rolls beside them do not make it
    sure (a face taught so was never measured)."""
    rng = np.random.default_rng(7)
    vector = rng.normal(size=16)

    def face(icon: str, shots: int, learnt: int = 0) -> FacePrototype:
        crops = [encode_shot(die_crop(icon, CREAM, BLACK, rng)) for _ in range(shots + learnt)]
        return FacePrototype.from_embeddings("sigils", icon, vector[None], crops, learnt)

    few = Prototypes([face("flag", taught, learnt), face("bolt", 3)])
    match = few.match(vector[None], [die_crop("flag", CREAM, BLACK, rng)])[0]
    assert match is not None and match.prototype.face == "flag"
    shot_word = "shots" if taught > 1 else "shot"
    assert match.doubt() == f"sigils:flag was taught from only {taught} {shot_word}"


def test_a_die_whose_faces_differ_outside_the_usual_disc_chooses_a_wider_one() -> None:
    """Two faces with the same icon in the middle, one with an arc 21 px out: inside the usual
    disc (18 px) they look alike, and only the widest disc tried tells them apart. The die's
    own shots choose that disc, and fresh crops are then read right and surely."""
    rng = np.random.default_rng(13)

    def crops(arc: float | None, count: int) -> list[np.ndarray]:
        return [die_crop("flag", CREAM, BLACK, rng, arc=arc, off=1) for _ in range(count)]

    taught = [crops(None, 4), crops(21, 4)]
    assert fitted_radius(taught) == max(RADII) > RADIUS
    assert fitted_radius([taught[0][:2], taught[1]]) == RADIUS  # too few shots to choose

    def read(radius: float) -> tuple[int, int]:
        """Of 12 fresh crops matched at `radius`: those read right, and right by 0.1 or more."""
        bank = IconBank([np.stack([template(c, radius) for c in face]) for face in taught],
                        radius)
        right = sure = 0
        for draw in range(DRAWS):
            face = draw % 2
            scores = bank.scores(crops([None, 21][face], 1)[0])
            right, sure = right + (scores[face] > scores[1 - face]), sure + (
                scores[face] > scores[1 - face] + 0.1)
        return right, sure

    right, sure = read(max(RADII))
    assert right == DRAWS and sure >= DRAWS - 2
    assert read(RADIUS)[1] == 0


def test_prototypes_match_each_die_at_its_own_disc_chosen_once() -> None:
    """Faces of a die that differ only far out, beside a die of plain icons: each die gets its
    own disc, the same whether its faces are matched alone or among all taught faces."""
    rng = np.random.default_rng(17)

    def face(die: str, icon: str, arc: float | None) -> FacePrototype:
        shots = [encode_shot(die_crop(icon, CREAM, BLACK, rng, arc=arc, off=1)) for _ in range(3)]
        return FacePrototype.from_embeddings(die, f"{icon}{arc}", rng.normal(size=(1, 8)), shots)

    taught = Prototypes([face("arced", "flag", None), face("arced", "flag", 21),
                         face("plain", "hook", None), face("plain", "bolt", None)])
    arced = taught.of({"arced"})
    crop = die_crop("flag", CREAM, BLACK, rng, arc=21, off=1)
    match = arced.nearest(np.stack([arced.faces[1].vector]), [crop])[0]
    assert match.prototype.face == "flag21" and match.doubt() is None
    assert taught.radius("arced") == arced.radius("arced") == max(RADII)
    assert taught.radius("plain") in RADII


def test_a_crop_the_embedding_nearly_matched_is_resembled_only_where_its_icons_fit() -> None:
    """Nothing expected, a taught die whose embedding falls just under the bar is read as a
    standard die; `resembled` names it where its icons fit a taught face (so that reading is
    asked), and names nothing for a die of another icon, nor under NEAR_AT, nor without shots."""
    rng = np.random.default_rng(9)
    vector = np.eye(16)[0]

    def face(icon: str, shots: bool) -> FacePrototype:
        crops = [encode_shot(die_crop(icon, CREAM, BLACK, rng)) for _ in range(3)]
        return FacePrototype.from_embeddings("sigils", icon, vector[None], crops if shots else ())

    taught = Prototypes([face("flag", True), face("bolt", True)])
    bare = Prototypes([face("flag", False), face("bolt", False)])

    def at(similarity: float) -> np.ndarray:  # an embedding this like the faces'
        return (similarity * vector + np.sqrt(1 - similarity ** 2) * np.eye(16)[1])[None]

    near = (NEAR_AT + MATCH_AT) / 2
    for draw in range(DRAWS // 2):
        icon = ("flag", "bolt")[draw % 2]
        crop = die_crop(icon, CREAM, BLACK, rng)
        assert taught.match(at(near), [crop]) == [None]
        found = taught.resembled(at(near), [crop])[0]
        assert found is not None and found.prototype.face == icon
        assert taught.resembled(at(NEAR_AT - 0.05), [crop]) == [None]
        assert taught.resembled(at(MATCH_AT + 0.05), [crop]) == [None]  # matched, not resembled
        assert bare.resembled(at(near), [crop]) == [None]
        assert taught.resembled(at(near), [die_crop("hook", CREAM, BLACK, rng)]) == [None]
