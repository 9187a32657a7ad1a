"""The symbol dice Rollscribe ships definitions of: what the games roll and what the camera is
taught to read.

A definition is a die's name, the names of its faces with how many of each it carries, and
where the rulebook says nothing about them (it lost the Day and Night dice's icons), a note
saying so: players edit such a definition at the table. The games take their DieKind from here;
the panel offers these definitions to teach.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .dice import STANDARD, DieKind, custom_die
from .errors import RulesError

# a die's name as games ask for it ("6xvillage"): a letter, then letters, digits, - or _
DIE_NAME = re.compile(r"[^\W\d_][\w-]{0,39}")
MAX_FACES = 40  # the longest shipped list, the Monsters! faces, names 33 symbols


@dataclass(frozen=True)
class SymbolFace:
    """One face of a symbol die: its name, how many faces of the die show it, and the number
    it counts for where a game gives it one (None: a symbol only)."""

    name: str
    count: int = 1
    value: int | None = None


@dataclass(frozen=True)
class SymbolDie:
    """A symbol die's definition."""

    name: str  # what games ask for ("6xvillage") and readings carry
    title: str  # what players call it
    faces: tuple[SymbolFace, ...]
    game: str = ""  # the game it belongs to ("" for a player's own die)
    note: str = ""  # what the book does not say about it, if anything

    def __post_init__(self) -> None:
        names = [f.name for f in self.faces]
        if len(set(names)) != len(names):
            raise RulesError(f"die {self.name!r} names a face twice")
        if any(f.count < 1 for f in self.faces):
            raise RulesError(f"die {self.name!r} has a face carried fewer than once")

    @property
    def face_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.faces)

    def to_json(self) -> dict[str, Any]:
        """The definition as a JSON object (the form from_json reads: files, the panel)."""
        return {
            "name": self.name,
            "title": self.title,
            "faces": [{"name": f.name, "count": f.count, "value": f.value} for f in self.faces],
            "game": self.game,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, data: object) -> SymbolDie:
        """A definition made by players (the panel's form or a die file); RulesError naming the
        field that is wrong."""
        if not isinstance(data, dict):
            raise RulesError("a die definition must be a JSON object")
        name = data.get("name")
        if not isinstance(name, str) or not DIE_NAME.fullmatch(name.strip()):
            raise RulesError("die 'name' must start with a letter and hold only letters, digits, "
                             "- or _ (at most 40), e.g. 'village' or 'fate-dice'")
        name = name.strip().lower()
        if name in STANDARD:
            raise RulesError(f"die 'name' {name!r} is a standard die; name the symbol die otherwise")
        faces = data.get("faces")
        if not isinstance(faces, list) or not 2 <= len(faces) <= MAX_FACES:
            raise RulesError(f"die {name!r}: 'faces' must list 2 to {MAX_FACES} faces")
        title, game, note = (_text(data, key, name) for key in ("title", "game", "note"))
        return cls(name, title or name, tuple(_face(f, name, i) for i, f in enumerate(faces)),
                   game, note)

    def kind(self) -> DieKind:
        """The die as the rules roll it: each face as often as the die carries it."""
        return custom_die(self.name, [f.name for f in self.faces for _ in range(f.count)])


def _text(data: dict[str, Any], key: str, die: str) -> str:
    value = data.get(key) or ""
    if not isinstance(value, str) or len(value) > 400:
        raise RulesError(f"die {die!r}: {key!r} must be text of at most 400 characters")
    return value.strip()


def _face(data: object, die: str, index: int) -> SymbolFace:
    """One face of a definition read from JSON: a name, or {"name", "count", "value"}."""
    where = f"die {die!r}, face {index + 1}"
    if isinstance(data, str):
        data = {"name": data}
    if not isinstance(data, dict):
        raise RulesError(f"{where}: a face is a name or an object with 'name'")
    name, count, value = data.get("name"), data.get("count", 1), data.get("value")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
        raise RulesError(f"{where}: 'name' must be 1 to 40 characters")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 20:
        raise RulesError(f"{where} ({name.strip()}): 'count' must be a whole number from 1 to 20")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise RulesError(f"{where} ({name.strip()}): 'value' must be a whole number or left out")
    return SymbolFace(name.strip(), count, value)


def _faces(*names: str) -> tuple[SymbolFace, ...]:
    return tuple(SymbolFace(n) for n in names)


VILLAGE = SymbolDie(
    "village", "Village Attacks die",
    _faces("Melee", "Ranged", "Magic", "Defence", "Retaliate", "Villager"), "village-attacks")
VILLAGE_DAY = SymbolDie(
    "village-day", "Village Attacks Day die",
    (SymbolFace("blank", 3), SymbolFace("Defence", 3)), "village-attacks",
    "the book says three blank faces and three with one symbol, and lost the symbol: "
    "Defence is a guess; edit the faces to match your die")
VILLAGE_NIGHT = SymbolDie(
    "village-night", "Village Attacks Night die",
    (SymbolFace("Melee", 3), SymbolFace("Magic", 3)), "village-attacks",
    "the book says three faces of one symbol and three of another, and lost both: Melee and "
    "Magic are a guess; edit the faces to match your die")

POSTURES = ("block", "deflect", "dodge", "minus", "plus", "stun", "wound")
BODY_PARTS = ("arm", "brain", "eye", "leg", "lungs", "mouth", "claw", "shell", "thagomizer",
              "stinger", "tail", "tentacle", "wings")
EQUIPMENT = ("axe", "bellows", "buckler", "dart", "mace", "potion", "scythe", "shield", "staff",
             "sword", "trident", "wand", "whip")
MONSTERS = SymbolDie(
    "monsters", "Monsters! die faces", _faces(*POSTURES, *BODY_PARTS, *EQUIPMENT), "monsters",
    "each physical die carries some of these faces, declared when the monster is built; the "
    "camera reads the symbol, the game knows which dice can show it")

SHIPPED: dict[str, SymbolDie] = {d.name: d for d in (VILLAGE, VILLAGE_DAY, VILLAGE_NIGHT,
                                                      MONSTERS)}
