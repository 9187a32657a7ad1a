"""The synthetic renderer: dice geometry, the face shown for a value, crops and tray scenes."""

import itertools
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.crops import square_bounds, square_crop
from vision.train import render
from vision.train.geometry import solid
from vision.train.labels import FACE_VALUES, KINDS, VALUE_LABELS, face_text, value_label
from vision.train.render import (
    FONTS,
    TRUETYPE,
    DieSpec,
    DieStyle,
    crop_region,
    glyph,
    pip_shadow,
    render_crop,
    render_die,
    render_tray,
    world_pose,
)

OPPOSITE_SUM = {"d6": 7, "d8": 9, "d12": 13, "d20": 21}
# What only a TrueType face can show: a machine without Debian's faces (`make fonts`) draws
# Hershey ones in their place, which every other test here holds with too.
needs_faces = pytest.mark.skipif(
    bool(render.missing_faces()), reason="Debian's TrueType faces are not here (make fonts)"
)
FACES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d%": 10, "d12": 12, "d20": 20}


@pytest.mark.parametrize("kind", KINDS)
def test_solids_have_one_face_per_value(kind: str) -> None:
    body = solid(kind)
    assert len(body.faces) == FACES[kind]
    assert sorted(body.face_values) == sorted(FACE_VALUES[kind])


@pytest.mark.parametrize("kind", ["d6", "d8", "d12", "d20"])
def test_opposite_faces_sum_like_real_dice(kind: str) -> None:
    body = solid(kind)
    for f in range(len(body.faces)):
        opposite = min(range(len(body.faces)), key=lambda g: body.normal(f) @ body.normal(g))
        assert body.face_values[f] + body.face_values[opposite] == OPPOSITE_SUM[kind]


def test_d10_kites_are_planar_and_opposite_faces_sum_to_nine() -> None:
    body = solid("d10")
    assert all(len(f) == 4 for f in body.faces)
    digits = {f: v % 10 for f, v in enumerate(body.face_values)}  # the 10 face shows 0
    for f in range(10):
        opposite = min(range(10), key=lambda g: body.normal(f) @ body.normal(g))
        assert digits[f] + digits[opposite] == 9


@pytest.mark.parametrize("kind", ["d6", "d8", "d10", "d%", "d12", "d20", "d4-barrel"])
def test_requested_value_is_the_face_pointing_up(kind: str) -> None:
    body = solid(kind)
    values = FACE_VALUES["d4" if kind == "d4-barrel" else kind]
    for value in values:
        pose = world_pose(body, DieSpec(kind, value, 60, spin=1.0, tilt=0, view_roll=0))
        normals = [pose @ body.normal(f) for f in range(len(body.faces))]
        top = int(np.argmax([n[2] for n in normals]))
        assert body.face_values[top] == value
        assert normals[top][2] == pytest.approx(1.0)


@pytest.mark.parametrize("value", [1, 2, 3, 4])
def test_tetrahedral_d4_shows_its_value_at_the_top_vertex(value: int) -> None:
    body = solid("d4")
    pose = world_pose(body, DieSpec("d4", value, 60, spin=0.3, tilt=0, view_roll=0))
    heights = [(pose @ v)[2] for v in body.vertices]
    assert int(np.argmax(heights)) + 1 == value  # vertex i carries value i + 1
    bottom = int(np.argmin([(pose @ body.normal(f))[2] for f in range(4)]))
    assert value - 1 not in body.faces[bottom]


@pytest.mark.parametrize("edge_read", [False, True])
def test_d4_numerals_stand_clear_of_each_other_and_of_their_face_edges(edge_read: bool) -> None:
    """Each of a face's three numerals by its own vertex (or, edge-read, along the edge facing
    it), and at the largest size drawn none overlaps another or runs over an edge (a numeral's
    inscribed circle, half-size in radius, is the part that must stay clear)."""
    body = solid("d4")
    style = DieStyle(FONTS[0], 2, max(render.GLYPH_SCALES), False, edge_read, "underline")
    for face in range(4):
        corners = {v: body.vertices[v] for v in body.faces[face]}
        marks = render.decals(body, face, style)
        assert len(marks) == 3
        for (centre, _, half, _), vtx in zip(marks, corners, strict=True):
            near = min(corners, key=lambda v: np.linalg.norm(corners[v] - centre))
            assert (near == vtx) != edge_read  # edge-read: nearest the two other vertices
            assert render.edge_distance(centre, np.array(list(corners.values()))) >= half
        for (c1, _, h1, _), (c2, _, h2, _) in itertools.combinations(marks, 2):
            assert np.linalg.norm(c1 - c2) >= h1 + h2


def test_some_tetrahedral_d4s_are_seen_from_the_side_and_other_dice_from_above() -> None:
    """A share of tetrahedral d4s is drawn OBLIQUE_D4_DEG off vertical by a level camera, as d4s
    are photographed; every other die (barrel d4s too) keeps the camera within MAX_TILT_DEG."""
    rng = np.random.default_rng(0)
    specs = [render.random_spec(rng, kind) for kind in KINDS for _ in range(300)]
    low, high = render.OBLIQUE_D4_DEG
    level = [s for s in specs if s.level]
    assert {s.kind for s in level} == {"d4"}
    share = len(level) / sum(s.kind == "d4" for s in specs)
    assert abs(share - render.OBLIQUE_D4_SHARE) < 0.1
    assert all(low <= s.tilt <= high for s in level)
    assert max(s.tilt for s in level) > render.MAX_TILT_DEG
    assert all(s.tilt <= render.MAX_TILT_DEG for s in specs if not s.level)


def test_a_tilt_range_draws_every_die_within_it_turned_any_way() -> None:
    """`tilt_deg` (slanted views asked for) overrides both the usual tilt and the d4's
    level view: tilts spread over the range, the camera's roll over the full circle."""
    rng = np.random.default_rng(2)
    specs = [render.random_spec(rng, kind, tilt_deg=(20.0, 45.0)) for kind in KINDS * 60]
    tilts = np.array([s.tilt for s in specs])
    assert tilts.min() >= 20.0 and tilts.max() <= 45.0
    assert np.mean(tilts > 32.5) == pytest.approx(0.5, abs=0.1)
    assert not any(s.level for s in specs)
    rolls = np.array([s.view_roll for s in specs]) % (2 * np.pi)
    assert np.histogram(rolls, bins=4, range=(0, 2 * np.pi))[0].min() > len(specs) / 8
    crop = render_crop(rng, 48, "d6", 5, tilt_deg=(40.0, 40.0))
    assert (crop.kind, crop.value, crop.level) == ("d6", 5, False)


def test_a_d4_seen_from_the_side_has_its_apex_at_the_top_of_the_image() -> None:
    """Level views keep the photo's up: the top vertex projects above the die's middle (image
    rows grow downwards, render_die draws camera +y upwards)."""
    body = solid("d4")
    rng = np.random.default_rng(1)
    specs = [s for s in (render.random_spec(rng, "d4") for _ in range(200)) if s.level]
    assert len(specs) > 50
    for spec in specs:
        apex = body.vertices[spec.value - 1]  # the vertex carrying the value is on top
        seen = render.camera_pose(spec) @ world_pose(body, spec)
        up = (seen @ apex)[:2] - np.mean([(seen @ v)[:2] for v in body.vertices], axis=0)
        turned = np.degrees(np.arccos(up[1] / np.linalg.norm(up)))
        assert turned < 3.5 * render.LEVEL_ROLL_DEG  # upright, give or take its roll
    crops = [render_crop(rng, 48, "d4") for _ in range(40)]
    assert any(c.level for c in crops) and not all(c.level for c in crops)


@pytest.mark.parametrize("font", [FONTS[0], pytest.param(TRUETYPE[0], marks=needs_faces)])
def test_six_and_nine_differ_even_when_turned_upside_down(font: int | str) -> None:
    for mark in ("underline", "dot", "bar"):
        six = glyph("6", font, 2, mark) > 0.5
        nine_turned = np.rot90(glyph("9", font, 2, mark), 2) > 0.5
        overlap = (six & nine_turned).sum() / (six | nine_turned).sum()
        assert overlap < 0.75, mark


@needs_faces
def test_truetype_numerals_are_thin() -> None:
    """Why the TrueType faces are there: real dice numerals are thin strokes. Pillow draws them,
    so the share of the glyph an 8 inks is the same under any OpenCV (12.7% here)."""
    thin = (glyph("8", TRUETYPE[0], 1, "dot") > 0.5).mean()
    assert 0.02 < thin < 0.16  # drawn, not an empty mask, and thin


@needs_faces
@pytest.mark.skipif(
    int(cv2.__version__.split(".")[0]) < 5,
    reason="OpenCV 4's putText draws thin Hershey strokes at thickness 1 (an 8 inks 7.5-14% of "
    "its glyph under 4.11) and thicker ones as asked; OpenCV 5 draws every thickness bold",
)
def test_truetype_numerals_are_thinner_than_hershey_ones() -> None:
    """On OpenCV 5 Hershey numerals come out bold (an 8 inks 19-23% of its glyph, whatever the
    thickness asked): the TrueType ones are thinner."""
    thin = (glyph("8", TRUETYPE[0], 1, "dot") > 0.5).mean()
    for font in FONTS:
        assert thin < 0.8 * (glyph("8", font, 1, "dot") > 0.5).mean(), font


def test_missing_faces_names_the_faces_this_machine_lacks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    here = tmp_path / "Here.ttf"  # a face file this machine surely has, fonts installed or not
    here.write_bytes(b"")
    monkeypatch.setattr(render, "TRUETYPE", (str(here), "/nonexistent/NoSuchFace.ttf"))
    assert render.missing_faces() == ["/nonexistent/NoSuchFace.ttf"]


def test_a_missing_truetype_face_is_drawn_in_a_hershey_one() -> None:
    missing = "/nonexistent/NoSuchFace.ttf"
    hershey = FONTS[len(missing) % len(FONTS)]
    assert np.array_equal(glyph("7", missing, 1, "dot"), glyph("7", hershey, 1, "dot"))


@needs_faces
def test_a_face_that_is_here_is_drawn_in_itself() -> None:
    hershey = FONTS[len(TRUETYPE[0]) % len(FONTS)]
    assert not np.array_equal(glyph("7", TRUETYPE[0], 1, "dot"), glyph("7", hershey, 1, "dot"))


def test_face_text_uses_the_printed_digits() -> None:
    assert face_text("d10", 10) == "0"
    assert face_text("d%", 100) == "00"
    assert face_text("d%", 30) == "30"
    assert value_label("d%", 100) in VALUE_LABELS
    with pytest.raises(ValueError):
        value_label("d6", 7)


def test_render_die_draws_an_opaque_die_of_the_asked_size() -> None:
    sprite = render_die(DieSpec("d20", 17, 80, 0.0, 0.0, 0.0), np.random.default_rng(1))
    assert (sprite.kind, sprite.value) == ("d20", 17)
    _ys, xs = np.nonzero(sprite.alpha > 0.5)
    assert 60 < xs.max() - xs.min() < 90


def test_grain_roughens_the_plastic_and_leaves_the_pips_smooth() -> None:
    """The same die drawn with and without grain (the grain is drawn last, so every other draw
    matches): the plastic differs by about the grain's spread, the pips' paint not at all."""
    spec = DieSpec("d6", 5, 90, 0.4, 0.0, 0.0)
    style = DieStyle(FONTS[0], 2, 0.6, True, False, "dot", pip_size=1.3)
    smooth = render_die(spec, np.random.default_rng(0), style)  # an opaque plastic
    grainy = render_die(spec, np.random.default_rng(0), replace(style, grain=30.0))
    opaque = smooth.alpha > 0.99
    diff = np.abs(grainy.rgb - smooth.rgb).max(axis=2)[opaque]
    assert 0.6 * 30 < float(np.median(diff)) * 1.48 < 1.3 * 30  # ~ the std of a normal spread
    assert 0.08 < float(np.mean(diff < 0.5)) < 0.4  # the five pips, a share of the face


def test_a_drilled_pip_is_shaded_on_the_lights_side_and_lit_as_a_crescent_opposite() -> None:
    """Light from the camera's up (image top) and slanted 45 degrees: the wall on that side
    shades the pip's upper part, as deep as the pip is drilled; a light from straight above, or
    a pip not drilled, shades nothing."""
    ink = np.zeros((60, 60), np.float32)
    cv2.circle(ink, (30, 30), 10, 1.0, -1)
    shadow = pip_shadow(ink, np.array((0.0, 1.0, 1.0)) / np.sqrt(2), depth=6.0)
    shaded, lit = np.nonzero(shadow > 0.5)[0], np.nonzero(ink - shadow > 0.5)[0]
    assert shaded.min() == 20 and shaded.mean() < 25 and lit.mean() > 32  # rows: image top = 0
    assert float(shadow.sum()) < float(ink.sum()) and np.all(shadow <= ink)
    assert not pip_shadow(ink, np.array((0.0, 0.0, 1.0)), depth=6.0).any()
    assert not pip_shadow(ink, np.array((0.0, 1.0, 1.0)) / np.sqrt(2), depth=0.0).any()
    spec = DieSpec("d6", 5, 90, 0.4, 0.0, 0.0)
    style = DieStyle(FONTS[0], 2, 0.6, True, False, "dot", pip_size=1.3)
    flush = render_die(spec, np.random.default_rng(0), style)
    drilled = render_die(spec, np.random.default_rng(0), replace(style, pip_depth=1.0))
    assert float(drilled.rgb.sum()) < float(flush.rgb.sum())  # shaded paint, nothing else


def test_render_crop_labels_and_size() -> None:
    rng = np.random.default_rng(3)
    crop = render_crop(rng, 80, "d%", 100)
    assert crop.image.shape == (80, 80, 3) and crop.image.dtype == np.uint8
    assert (crop.kind, crop.value, crop.state) == ("d%", 100, "flat")


def test_a_widened_crop_holds_the_plain_crop_in_its_middle() -> None:
    """`widen` cuts the same die's box that many times as wide (training jitters the framing
    both ways from it); at 1.0, the default, the crop is the runtime's. Pooled over 14 seeds:
    the middle 1/1.25 of a crop widened 1.25 times is the plain crop of the same draw (but for
    the camera's noise and blur), and far from the crop of another draw."""
    same, other = [], []
    for seed in range(14):
        kind = KINDS[seed % len(KINDS)]
        plain = render_crop(np.random.default_rng(seed), 96, kind).image.astype(int)
        wide = render_crop(np.random.default_rng(seed), 120, kind, widen=1.25).image
        middle = cv2.resize(wide[12:108, 12:108], (96, 96), interpolation=cv2.INTER_AREA)
        same.append(np.abs(middle.astype(int) - plain).mean())
        elsewhere = render_crop(np.random.default_rng(seed + 100), 96, kind).image
        other.append(np.abs(elsewhere.astype(int) - plain).mean())
    assert np.mean(same) < 8 and max(same) < 15, np.round(same, 1)
    assert np.mean(other) > 25, np.round(other, 1)


@pytest.mark.parametrize("box", [(100, 90, 160, 150), (-10, 170, 40, 230), (180, -20, 250, 30)])
def test_the_camera_is_drawn_on_the_crops_part_of_the_scene_alone(box: tuple) -> None:
    """The part camera_effects is given must hold the whole square the crop is cut from (and
    the blur's reach), and cutting from it must give the crop cutting from the scene gives."""
    scene = np.random.default_rng(0).uniform(0, 255, (240, 260, 3)).astype(np.float32)
    region, (rx, ry) = crop_region(scene, box)
    sx, sy, side = square_bounds(box)
    assert rx == max(0, sx - render.EFFECTS_PAD) and ry == max(0, sy - render.EFFECTS_PAD)
    assert rx + region.shape[1] == min(260, sx + side + render.EFFECTS_PAD)
    assert ry + region.shape[0] == min(240, sy + side + render.EFFECTS_PAD)
    assert region.size < scene.size / 2
    shifted = (box[0] - rx, box[1] - ry, box[2] - rx, box[3] - ry)
    assert np.array_equal(square_crop(region, shifted, 32), square_crop(scene, box, 32))


def test_render_tray_is_deterministic_and_boxes_hold_dice() -> None:
    image, dice = render_tray(10, seed=7, size=(640, 480))
    again, dice_again = render_tray(10, seed=7, size=(640, 480))
    assert image.shape == (480, 640, 3)
    assert np.array_equal(image, again) and dice == dice_again
    assert 8 <= len(dice) <= 10
    for kind, value, (x0, y0, x1, y1) in dice:
        assert value in FACE_VALUES[kind]
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
        assert 15 < x1 - x0 < 120
