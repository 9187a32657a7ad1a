"""A position kept as plain data: the players' names, the game's options, and `s`, everything that
changes, JSON-shaped (lists, dicts, numbers, strings).

Games whose positions are this shape (Fantahzee, Village Attacks, Monsters!) share the seat and
step accessors, the copy and the JSON round trip here, so a new game of that shape writes only
what is its own. A copy is one `marshal` round trip, and a state's undo is the list of old
positions (`core.SteppedState`).
"""

from __future__ import annotations

import dataclasses
import marshal
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from .errors import RulesError
from .options import SchemaOptions

O = TypeVar("O", bound=SchemaOptions)


def plain_copy(data: Any) -> Any:
    """A deep copy of JSON-shaped data; several times faster than `copy.deepcopy`, which
    self-play would pay on every step."""
    return marshal.loads(marshal.dumps(data))


@dataclass
class DataPosition(Generic[O]):
    """The shared part of a plain-data position. A game subclasses it, sets `options_type` and
    `game_name`, and adds its own fields after `s` (their JSON in `fields_from_json` and
    `to_json`)."""

    names: list[str]
    options: O
    s: dict[str, Any]

    options_type: ClassVar[type[Any]]
    """The game's `Options` class: what `from_json` reads the saved options with."""
    game_name: ClassVar[str]
    """How a corrupt saved position is named in the error (the game's registered name)."""

    def copy(self) -> Self:
        """A copy the flow may change in place; the names, options and any fixed fields are
        shared."""
        return dataclasses.replace(self, s=plain_copy(self.s))

    @property
    def seat(self) -> int:
        """The seat acting (or last to act)."""
        return int(self.s["seat"])

    @property
    def step(self) -> dict[str, Any]:
        """What the table waits for: a dict with its "kind" ("over" once the game ends)."""
        return self.s["step"]

    @property
    def winners(self) -> list[int] | None:
        return self.s["winners"]

    @property
    def reason(self) -> str:
        return str(self.s["reason"])

    def to_json(self) -> dict[str, Any]:
        return {"names": list(self.names), "options": self.options.to_json(),
                "s": plain_copy(self.s)}

    @classmethod
    def fields_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        """The constructor's arguments read back from `to_json`'s output; games with fields of
        their own extend it."""
        return {"names": list(data["names"]), "options": cls.options_type.from_json(data["options"]),
                "s": plain_copy(data["s"])}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """The position saved by `to_json`; RulesError naming the game when it is corrupt."""
        try:
            return cls(**cls.fields_from_json(data))
        except (KeyError, TypeError, ValueError, AssertionError) as exc:
            raise RulesError(f"corrupt {cls.game_name} position: {exc}") from None
