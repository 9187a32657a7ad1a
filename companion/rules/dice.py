"""Dice kinds and physical roll values.

A die kind is a named list of faces. Polyhedral dice read as integers in game convention
(a d10 face "0" counts 10, a d% face "00" counts 100); custom symbol dice read as face names.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import BadRoll, RulesError

FaceValue = int | str


@dataclass(frozen=True)
class DieKind:
    """A kind of die: its name (d6, d%, or a custom name) and the values its faces read."""

    name: str
    faces: tuple[FaceValue, ...]

    @property
    def sides(self) -> int:
        return len(self.faces)

    @property
    def is_custom(self) -> bool:
        return self.name not in STANDARD

    def read(self, face: FaceValue | str) -> FaceValue:
        """Turn what is printed on a face (or typed by a player) into the value games count.

        Raises BadRoll for a face this kind does not have (a 9 on a d8, "00" on a d10).
        """
        if type(face) is int and face in self.faces:  # the usual case: already a face value
            return face
        value = _normalise(self.name, face)
        if value not in self.faces:
            raise BadRoll(f"a {self.name} has no face {face!r}")
        return value

    def roll(self, rng: random.Random) -> FaceValue:
        return rng.choice(self.faces)

    def expected(self) -> float | None:
        """Mean face value (None for symbol dice): used for the 'dice luck' statistics."""
        if all(isinstance(f, int) for f in self.faces):
            return sum(self.faces) / len(self.faces)  # type: ignore[arg-type]
        return None


def _normalise(kind: str, face: FaceValue | str) -> FaceValue:
    if isinstance(face, bool):
        raise BadRoll(f"{face!r} is not a die face")
    if kind in STANDARD:
        text = str(face).strip()
        if kind == "d10" and text in ("0", "00"):
            return 10
        if kind == "d%" and text in ("00", "0"):
            return 100
        try:
            return int(text)
        except ValueError:
            raise BadRoll(f"a {kind} shows numbers, not {face!r}") from None
    return face if isinstance(face, int) else str(face).strip()


STANDARD: dict[str, DieKind] = {
    "d4": DieKind("d4", tuple(range(1, 5))),
    "d6": DieKind("d6", tuple(range(1, 7))),
    "d8": DieKind("d8", tuple(range(1, 9))),
    "d10": DieKind("d10", tuple(range(1, 11))),
    "d%": DieKind("d%", tuple(range(10, 101, 10))),
    "d12": DieKind("d12", tuple(range(1, 13))),
    "d20": DieKind("d20", tuple(range(1, 21))),
}


def custom_die(name: str, faces: list[str] | tuple[str, ...]) -> DieKind:
    """Declare a symbol die: a name and its list of named faces (repeats allowed)."""
    if not name or name in STANDARD:
        raise RulesError(f"a custom die needs its own name, not {name!r}")
    if not faces:
        raise RulesError(f"custom die {name!r} needs at least one face")
    return DieKind(name, tuple(str(f) for f in faces))


def die_kind(name: str, custom: dict[str, DieKind] | None = None) -> DieKind:
    """Look a kind up by name; raises BadRoll for a name nobody declared."""
    if name in STANDARD:
        return STANDARD[name]
    if custom and name in custom:
        return custom[name]
    raise BadRoll(f"unknown die kind {name!r}")
