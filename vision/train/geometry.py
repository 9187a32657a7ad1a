"""3D solids of the standard dice, with the value and numeral direction of every face.

Only what a top-down camera needs is modelled exactly: which face (or, for a tetrahedral d4,
which vertex) is up for a given value, and opposite faces summing as on real dice, so the
neighbours of the top face are plausible. Faces come from the convex hull of the vertices.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

PHI = (1.0 + 5.0**0.5) / 2.0


def cross3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product of two 3-vectors (np.cross is slow for single vectors in a hot loop)."""
    return np.array(
        (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    )


@dataclass(frozen=True)
class Solid:
    """A convex die: vertices, faces (vertex indices counter-clockwise seen from outside).

    `face_values[i]` is the value printed on face i (for the tetrahedral d4: the value that
    counts when face i lies on the table), `face_up[i]` the in-plane direction a numeral's top
    points to.
    """

    kind: str
    vertices: np.ndarray
    faces: tuple[tuple[int, ...], ...]
    face_values: tuple[int, ...]
    face_up: np.ndarray

    def normal(self, face: int) -> np.ndarray:
        """Outward unit normal of a face (read-only)."""
        return self._normals[face]

    @cached_property
    def _normals(self) -> np.ndarray:
        """Every face's outward unit normal, worked out once: drawing a die asks for each
        visible face's normal several times, some 17 a die (4% of a render's time)."""
        normals = []
        for face in self.faces:
            pts = self.vertices[list(face)]
            n = cross3(pts[1] - pts[0], pts[2] - pts[0])
            normals.append(n / np.linalg.norm(n))
        out = np.array(normals)
        out.flags.writeable = False
        return out

    def centroid(self, face: int) -> np.ndarray:
        """Centre of a face (mean of its corners)."""
        return self.vertices[list(self.faces[face])].mean(axis=0)

    def rest_face(self, value: int) -> int:
        """Index of the face that points up (or, for a tetrahedral d4, down) to show `value`."""
        return self.face_values.index(value)


def hull_faces(vertices: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Faces of the convex hull of a small point set, each ordered counter-clockwise."""
    n = len(vertices)
    centre = vertices.mean(axis=0)
    planes: dict[tuple[int, ...], None] = {}
    for i, j, k in itertools.combinations(range(n), 3):
        normal = np.cross(vertices[j] - vertices[i], vertices[k] - vertices[i])
        length = np.linalg.norm(normal)
        if length < 1e-9:
            continue
        normal /= length
        d = vertices - vertices[i]
        side = d @ normal
        if np.all(side <= 1e-6) or np.all(side >= -1e-6):
            members = tuple(int(m) for m in np.flatnonzero(np.abs(side) < 1e-6))
            planes[members] = None
    faces = []
    for members in planes:
        pts = vertices[list(members)]
        c = pts.mean(axis=0)
        normal = c - centre
        normal /= np.linalg.norm(normal)
        a = pts[0] - c
        a /= np.linalg.norm(a)
        b = np.cross(normal, a)
        angles = np.arctan2((pts - c) @ b, (pts - c) @ a)
        faces.append(tuple(members[i] for i in np.argsort(angles)))
    return tuple(sorted(faces))


def _opposite_pairs(solid_vertices: np.ndarray, faces: tuple[tuple[int, ...], ...]) -> list[tuple]:
    """Pairs of parallel (opposite) faces, in a stable order."""
    centre = solid_vertices.mean(axis=0)
    cents = [solid_vertices[list(f)].mean(axis=0) - centre for f in faces]
    pairs, used = [], set()
    for i, ci in enumerate(cents):
        if i in used:
            continue
        j = min(
            (j for j in range(len(faces)) if j != i and j not in used),
            key=lambda j: float(np.dot(ci, cents[j])),
        )
        used.update((i, j))
        pairs.append((i, j))
    return pairs


def _values_opposite_sum(vertices, faces, total: int, first: int = 1) -> tuple[int, ...]:
    """Number faces so opposite faces sum to `total` (as on real d6, d8, d10, d12, d20)."""
    values = [0] * len(faces)
    for n, (i, j) in enumerate(_opposite_pairs(vertices, faces)):
        values[i] = first + n
        values[j] = total - (first + n)
    return tuple(values)


def _up_towards(vertices, faces, target: np.ndarray | None = None) -> np.ndarray:
    """Per face, the in-plane unit vector from the centroid towards a vertex (or a target point)."""
    ups = []
    for f in faces:
        pts = vertices[list(f)]
        c = pts.mean(axis=0)
        goal = pts[0] if target is None else target
        if target is not None:
            # the face's corner nearest the target (e.g. a d10 kite's pole tip)
            goal = pts[np.argmin(np.linalg.norm(pts - target, axis=1))]
        u = goal - c
        ups.append(u / np.linalg.norm(u))
    return np.array(ups)


def _solid(kind: str, vertices: np.ndarray, values_total: int | None, first: int = 1) -> Solid:
    vertices = vertices - vertices.mean(axis=0)
    vertices = vertices / np.linalg.norm(vertices, axis=1).max()
    faces = hull_faces(vertices)
    values = _values_opposite_sum(vertices, faces, values_total, first) if values_total else ()
    return Solid(kind, vertices, faces, values, _up_towards(vertices, faces))


def _d10_vertices(tip_height: float = 0.105) -> np.ndarray:
    """Pentagonal trapezohedron: two poles and a zig-zag ring whose kites are exactly planar."""
    c36 = np.cos(np.pi / 5)
    pole = tip_height * (1 + c36) / (1 - c36)
    ring = []
    for k in range(10):
        ang = k * np.pi / 5
        ring.append((np.cos(ang), np.sin(ang), tip_height if k % 2 == 0 else -tip_height))
    return np.array([(0, 0, pole), (0, 0, -pole), *ring], dtype=float)


def _barrel_vertices(half_length: float = 1.6) -> np.ndarray:
    """A barrel/shard d4: a square prism lying along x with a pyramid tip on each end."""
    ring = [(x, y, z) for x in (-half_length, half_length) for y in (-1, 1) for z in (-1, 1)]
    return np.array([*ring, (-half_length - 0.9, 0, 0), (half_length + 0.9, 0, 0)], dtype=float)


@cache
def solid(kind: str) -> Solid:
    """The solid for a die kind: d4 (tetrahedron), d4-barrel, d6, d8, d10, d%, d12, d20."""
    if kind == "d4":
        verts = np.array([(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)], dtype=float)
        verts /= np.sqrt(3)
        faces = hull_faces(verts)
        # vertex i carries value i+1; the face opposite vertex i is the one on the table
        values = tuple(next(v + 1 for v in range(4) if v not in f) for f in faces)
        return Solid(kind, verts, faces, values, _up_towards(verts, faces))
    if kind == "d4-barrel":
        verts = _barrel_vertices()
        verts /= np.linalg.norm(verts, axis=1).max()
        faces = hull_faces(verts)
        long_faces = [i for i, f in enumerate(faces) if len(f) == 4]
        values = [0] * len(faces)
        order = {(0, 0, 1): 1, (0, 1, 0): 2, (0, 0, -1): 4, (0, -1, 0): 3}
        tmp = Solid(kind, verts, faces, tuple(values), np.zeros((len(faces), 3)))
        for i in long_faces:
            values[i] = order[tuple(round(c) for c in tmp.normal(i))]
        ups = []
        for i in range(len(faces)):
            n = tmp.normal(i)
            ups.append(np.cross(n, (1.0, 0.0, 0.0)) if values[i] else np.array((0.0, 0.0, 1.0)))
        ups = np.array([u / max(1e-9, np.linalg.norm(u)) for u in ups])
        return Solid(kind, verts, faces, tuple(values), ups)
    if kind == "d6":
        verts = np.array(list(itertools.product((-1, 1), repeat=3)), dtype=float)
        return _solid(kind, verts, 7)
    if kind == "d8":
        verts = np.array(
            [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)], float
        )
        return _solid(kind, verts, 9)
    if kind in ("d10", "d%"):
        verts = _d10_vertices()
        verts /= np.linalg.norm(verts, axis=1).max()
        faces = hull_faces(verts)
        raw = _values_opposite_sum(verts, faces, 9, first=0)
        scale = 10 if kind == "d%" else 1
        zero = 100 if kind == "d%" else 10
        values = tuple(zero if v == 0 else v * scale for v in raw)
        tmp_ups = []
        for f in faces:
            pts = verts[list(f)]
            pole = pts[np.argmax(np.abs(pts[:, 2]))]
            u = pole - pts.mean(axis=0)
            tmp_ups.append(u / np.linalg.norm(u))
        return Solid(kind, verts, faces, values, np.array(tmp_ups))
    if kind == "d12":
        ico = solid("d20")
        cents = np.array([ico.centroid(i) for i in range(len(ico.faces))])
        return _solid(kind, cents, 13)
    if kind == "d20":
        verts = []
        for a, b in itertools.product((-1, 1), repeat=2):
            verts += [(0, a, b * PHI), (a, b * PHI, 0), (b * PHI, 0, a)]
        return _solid(kind, np.array(verts, dtype=float), 21)
    raise KeyError(f"no solid for die kind {kind!r}")
