"""A simulated tray camera for the demo: each throw renders the very dice the game asked for.

`rollscribe serve --demo` has no dice and no camera, yet the players should see the real loop:
roll, read, check, choose, score. Told what was thrown (`throw`), this source renders a tray
holding exactly those dice with random faces, the standard ones drawn as one player's set
(`SETS`) (vision.train.render: numpy and OpenCV, no torch),
then hands out a few frames of them sliding to rest before the still tray, so the reader's own
settle check runs and the real detector and classifier read the frame. The true dice of each
throw are kept (`thrown`), so a bench can say how often the reader gets its own renders right.

It draws the shipped symbol dice too (companion.rules.symbol_dice), each face with an icon of the
renderer's own (`DRAWN`), and `teach_drawn` teaches them to a table's dice store from renders
through the Dice page's own checks, so the demo reads them with the real reader. A Monsters! die
carries a few of that game's 33 faces, declared with the monster: a throw told each die's faces
(the roll request's) draws that die with them, so it shows a face the game accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import cycle, islice
from typing import Any

import numpy as np

from companion.reading import UnreadableRoll
from companion.rules.symbol_dice import SHIPPED
from vision.capture import ClosingSource, check_frame
from vision.detect import skin_hand
from vision.train.labels import KINDS
from vision.train.render import BLANK, LETTERED, TRUETYPE, DieStyle, render_tray, symbol_face

SIZE = (1280, 960)  # the tray camera's frame (vision.capture's cameras ask for this)
SLIDING_FRAMES = 4  # frames of dice still moving before they come to rest
SLIDE = 1.5  # how far a die slides in, at first, in its own widths
TRIES = 20  # seeds tried for a throw that places every die and no patch of table like a hand
Thrown = tuple[str, int | str, tuple[int, int, int, int]]  # a die's kind, top face and box
TEACH_SEED = 4_000_000  # the renders a demo table is taught from (throws draw their own seeds)
TEACH_TRIES = 25  # renders tried a face, at most, before the teaching gives up on it
CUBE = 6  # the faces of the cube every symbol die is drawn as
# shots a Monsters! face is taught from: one adds ~7 s to the demo's first start; at two, 559
# renders for 66 shots (110 s): the second shot of a face is often refused as like another's
MONSTER_SHOTS = 1


@dataclass(frozen=True)
class Drawing:
    """How the demo draws a shipped symbol die: a cube, an icon a face, its plastic and ink."""

    icons: dict[str, str]  # face name -> the renderer's symbol (BLANK: nothing)
    plastic: tuple[tuple[float, float, float], tuple[float, float, float]]  # BGR body, ink
    shots: int | None = None  # shots a face the demo is taught (None: the store's most)

    def faces(self, die: str) -> tuple[str, ...]:
        """The die's faces (each as often as it carries it), in the order the renderer numbers
        a cube's (value 1 first): a die of more than six, like Monsters!', shows six at once."""
        return SHIPPED[die].kind().faces

    def cube(self, die: str, some: Sequence[str] = ()) -> tuple[str, ...]:
        """Six faces to draw the die with: its own, or for a die of more faces than a cube
        those of `some` over and over (its first six if none)."""
        faces = self.faces(die)
        return faces if len(faces) <= CUBE else tuple(islice(cycle(some or faces), CUBE))

    def style(self, faces: Sequence[str]) -> DieStyle:
        """The die drawn as a cube showing `faces` (value 1 first; fewer than six repeat)."""
        return DieStyle(font=0, thickness=3, glyph_scale=1.0, pips=False, edge_read=False,
                        six_nine_mark="underline", symbols=True, plastic=self.plastic,
                        symbol_faces=tuple(self.icons[f] for f in faces))


def _lettered(codes: dict[str, str]) -> dict[str, str]:
    return {face: f"{LETTERED}{code}" for face, code in codes.items()}


# Icons of our own for the dice the book shows but this project cannot copy: crossed blades for
# Melee, an arrow for Ranged, a star for Magic, a square shield for Defence, a bolt for
# Retaliate, a roof for the Villager; the Day die's blanks carry nothing.
DRAWN = {
    "village": Drawing({"Melee": "cross", "Ranged": "arrow", "Magic": "star",
                        "Defence": "square", "Retaliate": "bolt", "Villager": "triangle"},
                       ((235.0, 235.0, 235.0), (30.0, 30.0, 30.0))),
    "village-day": Drawing({"blank": BLANK, "Defence": "square"},
                           ((60.0, 200.0, 240.0), (20.0, 40.0, 90.0))),
    "village-night": Drawing({"Melee": "cross", "Magic": "star"},
                             ((110.0, 40.0, 30.0), (230.0, 230.0, 200.0))),
    # Monsters!: each face by its short name, told apart by a player as by the reader (33 are
    # more than the simple shapes drawn; the book's art is not ours to copy)
    "monsters": Drawing(_lettered({
        "block": "BK", "deflect": "DF", "dodge": "DG", "minus": "-", "plus": "+", "stun": "ST",
        "wound": "WD", "arm": "AR", "brain": "BR", "eye": "EY", "leg": "LG", "lungs": "LU",
        "mouth": "MO", "claw": "CL", "shell": "SH", "thagomizer": "TG", "stinger": "SG",
        "tail": "TL", "tentacle": "TN", "wings": "WI", "axe": "AX", "bellows": "BW",
        "buckler": "BU", "dart": "DT", "mace": "MA", "potion": "PO", "scythe": "SC",
        "shield": "SD", "staff": "SF", "sword": "SW", "trident": "TR", "wand": "WA",
        "whip": "WH",
    }), ((40.0, 40.0, 170.0), (240.0, 240.0, 240.0)), shots=MONSTER_SHOTS),
}


def _dice_set(font: str, mark: str, body: tuple[float, float, float],
              ink: tuple[float, float, float]) -> DieStyle:
    """A set's style: the renderer's TrueType `font` by its file's name, a 6 and 9 `mark`, and
    its plastic and ink (BGR)."""
    path = next(face for face in TRUETYPE if face.endswith(f"/{font}.ttf"))
    return DieStyle(font=path, thickness=2, glyph_scale=1.0, pips=True, edge_read=False,
                    six_nine_mark=mark, plastic=(body, ink))


# The demo table's own dice: one set, as a player brings to the table (the dice do not change
# from throw to throw): plastic of one colour, ink that stands out on it, a sans face, pipped d6s.
# Training's renders draw every die in a style of its own at random (marbled plastic, ink near its
# colour, small or thin numerals), so that the models carry to any table; the demo shows the
# reader on dice a player owns. A tray draws its set by its seed (`bench demo_camera` reads both).
SETS = {
    "red, white ink": _dice_set("DejaVuSans-Bold", "underline", (40.0, 40.0, 170.0),
                                (235.0, 235.0, 235.0)),
    "white, black ink": _dice_set("LiberationSans-Regular", "dot", (225.0, 225.0, 225.0),
                                  (25.0, 25.0, 25.0)),
    "blue, white ink": _dice_set("DejaVuSansCondensed-Bold", "underline", (150.0, 70.0, 30.0),
                                 (235.0, 235.0, 235.0)),
    "black, gold ink": _dice_set("LiberationSansNarrow-Bold", "dot", (30.0, 30.0, 30.0),
                                 (60.0, 190.0, 230.0)),
}


class SimulatedTray(ClosingSource):
    """A FrameSource over rendered throws; `seed` makes its throws repeatable. Its standard dice
    are one of `sets`, chosen by the seed (none: each die in a style of its own, as training's
    renders)."""

    def __init__(self, seed: int | None = None, size: tuple[int, int] = SIZE,
                 sets: Sequence[DieStyle] = tuple(SETS.values())) -> None:
        self.size = size
        self._seeds = np.random.default_rng(seed)
        # a generator of its own, so the set chosen leaves the throws' seeds as they were
        self.dice_set = sets[int(np.random.default_rng(seed).integers(len(sets)))] if sets \
            else None
        self._frames: list[np.ndarray] = []  # the throw's frames still to hand out, last at rest
        self.thrown: list[Thrown] = []

    def throw(self, kinds: Sequence[str],
              faces: Sequence[Sequence[str]] | None = None) -> list[Thrown]:
        """Roll `kinds` (standard dice and the DRAWN symbol dice; UnreadableRoll for one it has
        no drawing of) into the tray: the frames after this show them sliding in, then at
        rest. `faces`, where given, are the faces each die carries (a Monsters! die's few): a
        symbol die is drawn with its own; else with the die's (six of them at random for a
        die of more). Returns the true dice, a symbol die's top face by name."""
        cannot = sorted(set(kinds) - set(KINDS) - set(DRAWN))
        if cannot:
            raise UnreadableRoll(
                f"the demo camera cannot draw a {', '.join(cannot)} die (it draws "
                f"{', '.join([*KINDS, *DRAWN])}): type this roll in instead"
            )
        if faces is not None and len(faces) != len(kinds):
            raise ValueError(f"faces for {len(faces)} dice, but {len(kinds)} thrown")
        cubes = [self._cube(k, faces[i] if faces else ()) if k in DRAWN else ()
                 for i, k in enumerate(kinds)]
        solids = ["d6" if k in DRAWN else k for k in kinds]
        styles = [DRAWN[k].style(cube) if cube else self.dice_set
                  for k, cube in zip(kinds, cubes)]
        for _ in range(TRIES):
            seed = int(self._seeds.integers(2**31))
            still, dice = render_tray(len(kinds), seed, self.size, solids, styles)
            # every die placed, and no wooden table the hand check would take for a hand
            if len(dice) == len(kinds) and not skin_hand(still):
                break
        else:  # pragma: no cover - every throw of up to 25 dice is placed within a few seeds
            raise UnreadableRoll(f"could not lay out {len(kinds)} dice: type this roll in")
        empty, _ = render_tray(0, seed, self.size)  # the same tray and light, no dice yet
        self._frames = [*_sliding(still, empty, dice, self._seeds), still]
        self.thrown = [(k, symbol_face(cube, v) if cube else v, box)
                       for k, cube, (_, v, box) in zip(kinds, cubes, dice, strict=True)]
        return self.thrown

    def _cube(self, kind: str, own: Sequence[str]) -> tuple[str, ...]:
        """The faces a symbol die of `kind` is drawn with: `own` (checked), else the die's."""
        drawing = DRAWN[kind]
        unknown = sorted(set(own) - set(drawing.icons))
        if unknown:
            raise UnreadableRoll(f"the demo camera cannot draw the {', '.join(unknown)} face "
                                 f"of a {kind} die: type this roll in instead")
        if own or len(drawing.faces(kind)) <= CUBE:  # no draw: a throw's seed stays as it was
            return tuple(own) or drawing.cube(kind)
        names = sorted(drawing.icons)
        return drawing.cube(kind, [names[i] for i in self._seeds.permutation(len(names))])

    def read(self) -> np.ndarray:
        """The next frame of the throw; once at rest, the still tray again and again."""
        if not self._frames:  # nothing thrown yet: an empty tray
            self._frames = [render_tray(0, int(self._seeds.integers(2**31)), self.size)[0]]
        frame = self._frames.pop(0) if len(self._frames) > 1 else self._frames[0]
        return check_frame(frame, "simulated tray")

    def close(self) -> None:
        self._frames = []


def _sliding(
    still: np.ndarray, empty: np.ndarray, dice: Sequence[Thrown], rng: np.random.Generator
) -> list[np.ndarray]:
    """SLIDING_FRAMES frames of the dice coming to rest: each die's patch of the still frame
    drawn on the empty tray, each frame nearer to where it stops."""
    h, w = still.shape[:2]
    starts = rng.uniform(-SLIDE, SLIDE, (len(dice), 2))
    frames = []
    for step in range(SLIDING_FRAMES, 0, -1):
        frame = empty.copy()
        for (_, _, (x0, y0, x1, y1)), (sx, sy) in zip(dice, starts, strict=True):
            share = step / SLIDING_FRAMES
            dx = int(np.clip(sx * share * (x1 - x0), -x0, w - x1))
            dy = int(np.clip(sy * share * (y1 - y0), -y0, h - y1))
            frame[y0 + dy : y1 + dy, x0 + dx : x1 + dx] = still[y0:y1, x0:x1]
        frames.append(frame)
    return frames


def to_teach(store: Any, per_face: int | None = None) -> dict[str, int]:
    """The DRAWN dice `store` still lacks shots of, each with the shots a face it is taught
    (`per_face`, at most the drawing's own and the store's most). A die whose faces were edited
    at the table is left out: the drawing is not that die any more."""
    from companion.dice_store import MAX_SHOTS

    wanted = {name: min(per_face or MAX_SHOTS, drawing.shots or MAX_SHOTS)
              for name, drawing in DRAWN.items()
              if set(store.definition(name).face_names) == set(drawing.icons)}
    return {name: shots for name, shots in wanted.items()
            if min(store.shot_counts(name).values()) < shots}


def teach_drawn(teacher: Any, store: Any, per_face: int | None = None) -> int:
    """Teach `store` (a companion.dice_store.DiceStore) the DRAWN dice from renders of each alone
    in the tray, through `teacher` (vision.taught_dice.Teacher: the Dice page's checks), until
    every face has the shots `to_teach` says; faces taught already are left as they are, so a
    second start renders nothing. Returns the shots kept."""
    kept = 0
    for name, shots in to_teach(store, per_face).items():
        drawing = DRAWN[name]
        tries = TEACH_TRIES * len(drawing.icons)
        seed = TEACH_SEED + 100_000 * list(DRAWN).index(name)
        counts = store.shot_counts(name)
        while min(counts.values()) < shots and tries:
            tries, seed = tries - 1, seed + 1
            faces = drawing.cube(name, [f for f in drawing.icons if counts[f] < shots])
            frame, dice = render_tray(1, seed, SIZE, ["d6"], [drawing.style(faces)])
            face = symbol_face(faces, dice[0][1]) if dice else None
            if face is None or counts[face] >= shots:
                continue
            shot = teacher.check(frame, store, name)
            if shot.problem is None and teacher.keep(store, shot.token, face) is None:
                kept += 1
                counts[face] += 1
    return kept
