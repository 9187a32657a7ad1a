"""The OpenSCAD parts render to valid printable meshes, and the arm is as high as the field of
view needs (checked on the rendered geometry, not only on the echoed number)."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hardware_modules import HARDWARE, load

camera_height = load("camera_height")
SCAD = HARDWARE / "scad"
Vertex = tuple[str, str, str]

pytestmark = pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad not installed")


def render(tmp_path: Path, name: str, **defines: str) -> tuple[list[tuple[Vertex, ...]], str]:
    out = tmp_path / f"{name}-{'-'.join(defines.values()) or 'default'}.stl"
    args = ["openscad", "-o", str(out)]
    for key, value in defines.items():
        args += ["-D", f'{key}="{value}"']
    done = subprocess.run([*args, str(SCAD / f"{name}.scad")], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return parse_ascii_stl(out.read_text()), done.stderr


def parse_ascii_stl(text: str) -> list[tuple[Vertex, ...]]:
    assert text.startswith("solid"), "not an ASCII STL"
    vertices = re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text)
    assert len(vertices) % 3 == 0
    return [tuple(vertices[i:i + 3]) for i in range(0, len(vertices), 3)]


def assert_closed_manifold(triangles: list[tuple[Vertex, ...]]) -> None:
    """Every edge is shared by exactly two triangles, walked once in each direction."""
    assert len(triangles) > 0
    directed: Counter[tuple[Vertex, Vertex]] = Counter()
    for a, b, c in triangles:
        assert len({a, b, c}) == 3, "degenerate triangle"
        directed.update([(a, b), (b, c), (c, a)])
    assert all(n == 1 for n in directed.values()), "an edge is walked twice the same way"
    assert all((b, a) in directed for a, b in directed), "an open edge: the mesh has a hole"


def lowest_z_near_centre(triangles: list[tuple[Vertex, ...]], half: float = 15) -> float:
    """Lowest point over the tray's centre: where the camera board sits."""
    return min(float(v[2]) for t in triangles for v in t
               if abs(float(v[0])) <= half and abs(float(v[1])) <= half)


def test_stl_checks_catch_a_hole() -> None:
    cube = parse_ascii_stl((Path(__file__).parent / "cube_missing_face.stl").read_text())
    with pytest.raises(AssertionError, match="open edge"):
        assert_closed_manifold(cube)


@pytest.mark.parametrize(("name", "part"), [("tray_arm", "tray"), ("button_panel", "")])
def test_printed_parts_are_closed_meshes(tmp_path: Path, name: str, part: str) -> None:
    triangles, _ = render(tmp_path, name, **({"part": part} if part else {}))
    assert_closed_manifold(triangles)


@pytest.mark.parametrize("camera", sorted(camera_height.CAMERAS))
def test_the_boom_holds_the_lens_at_the_computed_height(tmp_path: Path, camera: str) -> None:
    triangles, log = render(tmp_path, "tray_arm", part="boom", camera=camera)
    assert_closed_manifold(triangles)
    expected = camera_height.lens_height(camera_height.CAMERAS[camera])
    echoed = float(re.search(r"LENS_HEIGHT_MM=([\d.]+)", log).group(1))
    assert echoed == pytest.approx(expected, abs=0.01)
    # the standoffs' ends carry the board; the lens hangs cam_stack - 3 mm below them
    floor_t, cam_stack, standoff = 3, 12, 3
    bottom = lowest_z_near_centre(triangles)
    assert bottom - floor_t - (cam_stack - standoff) == pytest.approx(expected, abs=0.01)
