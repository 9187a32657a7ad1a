"""A position of Board Horde as plain data: where every hero, token and item is, and what waits.

The flow copies a position before changing it (`copy()`), so the state can undo by keeping the
old ones. Places are `[side, square]` lists, "portal" or "out" for heroes, and for items also a
carrying hero's id or "gone".
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from ...errors import RulesError
from .rules import ENTRANCE, ROLES, TEAMS, Options

PORTAL, OUT, GONE = "portal", "out", "gone"
Place = Any  # list[int] on the board, or one of the strings above (JSON-shaped on purpose)


def square_name(at: list[int] | tuple[int, int], sides: int) -> str:
    """'12' on Board A, 'L12' / 'R12' on Board B: how players type squares and the panel shows
    them."""
    side, number = at
    return str(number) if sides == 1 else f"{'LR'[side]}{number}"


def hero_id(seat: int, role: str) -> str:
    return f"{TEAMS[seat]}-{role}"


def seat_of(hero: str) -> int:
    return TEAMS.index(hero.split("-", 1)[0])


def role_of(hero: str) -> str:
    return hero.split("-", 1)[1]


@dataclass
class Position:
    """Everything a restart needs. `step` is what the game waits for (a roll or a choice)."""

    names: list[str]
    options: Options
    where: dict[str, Place]
    tokens: dict[str, dict[str, Any]]  # id -> {kind, at: [side, square], owner: seat | None}
    items: dict[str, Place]
    scores: list[int]
    kept_traps: list[int]
    kept_monsters: list[int]
    stored: list[int]  # potions a Mage stored, per team
    turns: list[int]
    fails: list[int]  # whole turns of three rolls without a 6, in a row
    seat: int = 0
    step: dict[str, Any] = field(default_factory=dict)
    landing: dict[str, Any] | None = None  # the arrival being resolved: {hero, at, mode, done}
    extra: bool = False  # a 6 earned one more movement roll
    stage: str = "move"  # "potion" while a stored potion is used before the movement roll
    winners: list[int] | None = None
    reason: str = ""

    def copy(self) -> Position:
        return copy.deepcopy(self)

    # -- queries -----------------------------------------------------------------------------

    def heroes(self, seat: int) -> list[str]:
        return [hero_id(seat, role) for role in ROLES]

    def on_board(self, hero: str) -> bool:
        return isinstance(self.where[hero], list)

    def home(self, seat: int) -> int:
        """The side a team's heroes come out on (Board B: one side each)."""
        return seat if self.options.sides == 2 else 0

    def hero_at(self, at: list[int]) -> str | None:
        return next((h for h, w in self.where.items() if w == at), None)

    def tokens_at(self, at: list[int]) -> list[str]:
        return [t for t, token in self.tokens.items() if token["at"] == at]

    def items_at(self, at: list[int]) -> list[str]:
        return [i for i, w in self.items.items() if w == at]

    def carried(self, hero: str) -> list[str]:
        return [i for i, w in self.items.items() if w == hero]

    def entrance(self, seat: int) -> list[int]:
        return [self.home(seat), ENTRANCE]

    def any_on_board(self) -> bool:
        return any(isinstance(w, list) for w in self.where.values())

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = self.options.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        try:
            fields = dict(data)
            fields["options"] = Options.from_json(fields["options"])
            return cls(**copy.deepcopy(fields))
        except (KeyError, TypeError) as exc:
            raise RulesError(f"corrupt board-horde position: {exc}") from None
