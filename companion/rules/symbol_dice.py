"""The symbol dice Rollscribe ships definitions of: what the games roll and what the camera is
taught to read.

A definition is a die's name, the names of its faces with how many of each it carries, and
where the rulebook says nothing about them (it lost the Day and Night dice's icons), a note
saying so: players edit such a definition at the table. The games take their DieKind from here;
the panel offers these definitions to teach.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import DieKind, custom_die
from .errors import RulesError


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

    def kind(self) -> DieKind:
        """The die as the rules roll it: each face as often as the die carries it."""
        return custom_die(self.name, [f.name for f in self.faces for _ in range(f.count)])


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
