"""The position of a game as immutable values, so undo is a stack of positions and costs nothing.

Transitions work on a mutable `Draft` copy and freeze it back; a move that turns out illegal
therefore never leaves a half-changed position behind.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from .rules import (
    CLERIC,
    HEAD_POINTS,
    MONSTER_POINTS,
    MONSTER_TITLES,
    OGRE_POINTS,
    OGRE_VALUES,
    READY,
    ROLES,
    STANDARD_POINTS,
    WOUNDED,
    Options,
)

V = TypeVar("V")
Task = tuple[Any, ...]
"""A pending chance step: (kind, *arguments), e.g. ("epic", 2) or ("enemies", (0, 3))."""


@dataclass(frozen=True, slots=True)
class Enemy:
    """One enemy d20 of the line-up, with an epic monster's extras when it shows 20."""

    d20: int | None  # None: defeated this turn, rerolled when the turn ends
    d10: int | None = None  # an epic monster's extra d10 (none for the Hydra)
    monster: str | None = None  # epic monster type once its d6 is known
    heads: tuple[int, ...] = ()  # the Hydra's d10 heads still alive

    @property
    def defeated(self) -> bool:
        return self.d20 is None

    @property
    def epic(self) -> bool:
        return self.d20 == 20

    @property
    def need(self) -> int:
        """The exact total that defeats it (the Hydra's d20 head needs 20)."""
        return (self.d20 or 0) + (self.d10 or 0)

    @property
    def points(self) -> int:
        if self.epic:
            return HEAD_POINTS if self.monster == "hydra" else MONSTER_POINTS.get(self.monster, 0)
        return OGRE_POINTS if self.d20 in OGRE_VALUES else STANDARD_POINTS

    @property
    def kind(self) -> str:
        if self.epic:
            return "epic"
        return "ogre" if self.d20 in OGRE_VALUES else "enemy"

    def label(self) -> str:
        if self.epic:
            title = MONSTER_TITLES.get(self.monster or "", "epic monster")
            return f"{title} {self.need}"
        return f"{'Ogre' if self.kind == 'ogre' else 'enemy'} {self.d20}"


@dataclass(frozen=True)
class Turn:
    """What the active player has on the table this turn (no __slots__: see `built`)."""

    team: tuple[int, ...] = ()  # role indices of the melee team (inspired dice join it)
    values: tuple[int | None, ...] = (None,) * len(ROLES)  # current value of each character
    paralyzed: tuple[int, ...] = ()  # characters the Basilisk sent back to the party
    used: tuple[int, ...] = ()  # characters whose ability was used this turn
    bolts: tuple[int, ...] = ()  # Fire Bolt d4s from the pool
    bear: tuple[int, ...] = ()  # Bear Form d10s from the pool
    regen: int | None = None  # slot of a defeated Troll awaiting its regeneration roll
    kills: int = 0  # enemies (and heads) defeated this turn
    aided: tuple[int, ...] = ()  # characters whose dice healed before the play (`aid`)

    def active(self) -> tuple[int, ...]:
        """Team members that may act: in the team, not paralyzed, not spent on an aid."""
        return tuple(c for c in self.team if c not in self.paralyzed and c not in self.aided)

    def crit(self, role: int) -> bool:
        """A crit usable now: active, showing its highest face, ability not used yet."""
        # ABILITY_ONCE_PER_TURN: `used` keeps a re-inspired crit from acting twice.
        # "They may not use their special ability and also heal" (the Cleric excepted).
        return (
            role in self.team and role not in self.paralyzed and role not in self.used
            and (role not in self.aided or role == CLERIC)
            and self.values[role] == ROLES[role].sides
        )


@dataclass(frozen=True, slots=True)
class Showdown:
    """Final Showdown: the tied players, who has played this round, and their kills."""

    seats: tuple[int, ...]
    played: int = 0
    kills: tuple[int, ...] = ()
    rounds: int = 1


@dataclass(frozen=True)
class Position:
    """Everything about a game at one moment; plain values only.

    No __slots__ on purpose: every step copies a position (see `built`).
    """

    options: Options
    names: tuple[str, ...]
    scores: tuple[int, ...]
    status: tuple[tuple[str, ...], ...]  # per seat, per role: ready | wounded | stone
    last: tuple[tuple[int | None, ...], ...]  # per seat, per role: last value rolled
    eliminated: tuple[bool, ...]
    turns: tuple[int, ...]
    enemies: tuple[Enemy, ...]
    phase: str = "setup"
    queue: tuple[Task, ...] = ()
    first: int | None = None
    seat: int | None = None
    round: int = 0
    end_round: int | None = None
    turn: Turn | None = None
    showdown: Showdown | None = None
    winners: tuple[int, ...] | None = None
    reason: str = ""

    @property
    def lineup_rolled(self) -> bool:
        """Whether the first line-up was rolled: before it, every slot is empty, not defeated."""
        return self.phase != "setup" or not all(e.defeated for e in self.enemies)

    @classmethod
    def start(cls, names: list[str], options: Options) -> Position:
        n = len(names)
        return cls(
            options=options, names=tuple(names), scores=(0,) * n,
            status=((READY,) * len(ROLES),) * n, last=((None,) * len(ROLES),) * n,
            eliminated=(False,) * n, turns=(0,) * n,
            enemies=(Enemy(None),) * 4,
        )

    def monster_alive(self, monster: str) -> bool:
        return monster_alive(self.enemies, monster)

    def to_json(self) -> dict[str, Any]:
        return _thaw(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        values = {f.name: _freeze(data[f.name]) for f in fields(cls)}
        values["options"] = Options.from_json(data["options"])
        values["enemies"] = tuple(Enemy(*e) for e in _rows(data["enemies"], Enemy))
        if data["turn"] is not None:
            values["turn"] = Turn(*_rows([data["turn"]], Turn)[0])
        if data["showdown"] is not None:
            values["showdown"] = Showdown(*_rows([data["showdown"]], Showdown)[0])
        return cls(**values)


def at_play(
    values: dict[int, int], enemies: tuple[Enemy, ...], wounded: tuple[int, ...] = (),
    bolts: tuple[int, ...] = (), bear: tuple[int, ...] = (), used: tuple[int, ...] = (),
    options: Options | None = None,
) -> Position:
    """Seat 0 of a two-player game at its play step with the dice given (role -> value).

    For checks and benchmarks of the play search that should not depend on replaying a game.
    """
    start = Position.start(["Ann", "Bob"], options or Options())
    status = tuple(WOUNDED if r in wounded else READY for r in range(len(ROLES)))
    turn = Turn(team=tuple(sorted(values)),
                values=tuple(values.get(r) for r in range(len(ROLES))),
                used=used, bolts=bolts, bear=bear)
    d = Draft(start)
    d.status = (status, start.status[1])
    d.enemies = enemies
    d.phase, d.seat, d.first, d.round, d.turn = "act", 0, 0, 1, turn
    return d.freeze()


class Draft:
    """A mutable working copy of a Position (same attribute names, and no others)."""

    def __init__(self, position: Position) -> None:
        self.__dict__.update(position.__dict__)

    def freeze(self) -> Position:
        return built(Position, self.__dict__)

    def set_status(self, seat: int, role: int, status: str) -> None:
        row = list(self.status[seat])  # type: ignore[attr-defined]
        row[role] = status
        self.status = _replace_at(self.status, seat, tuple(row))  # type: ignore[attr-defined]

    def add_score(self, seat: int, points: int) -> None:
        self.scores = _replace_at(self.scores, seat, self.scores[seat] + points)  # type: ignore

    def monster_alive(self, monster: str) -> bool:
        return monster_alive(self.enemies, monster)  # type: ignore[attr-defined]

    def set_enemy(self, slot: int, enemy: Enemy) -> None:
        self.enemies = _replace_at(self.enemies, slot, enemy)  # type: ignore[attr-defined]


def built(cls: type[V], values: dict[str, Any]) -> V:
    """An instance of a frozen dataclass holding `values` (every field, by name) as given.

    Positions and turns are copied at every step of a game; filling the new object's __dict__
    in one go skips __init__'s frozen setattr per field, a third of a step's cost.
    """
    value = object.__new__(cls)
    value.__dict__.update(values)
    return value


def monster_alive(enemies: tuple[Enemy, ...], monster: str) -> bool:
    """Epic monsters' abilities last while they are on the table."""
    return any(e.monster == monster and e.epic for e in enemies)  # the cheap test first


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1:]


def _thaw(value: Any) -> Any:
    if isinstance(value, Options):
        return value.to_json()
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _thaw(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _rows(items: list[dict[str, Any]], cls: type) -> list[tuple[Any, ...]]:
    """Each item's fields in order; a field added since the item was saved (always last, with
    a default) is left to its default."""
    names = [f.name for f in fields(cls)]
    return [tuple(_freeze(item[name]) for name in names if name in item) for item in items]
