"""Core types every game shares: seats, roll requests, rolls, moves, outcomes, the state API.

Shaped after OpenSpiel: a game's rules (`Game`) are apart from its position (`GameState`), and a
physical roll is a chance step applied through the same `apply()` as a player's move, whether the
values came from the camera, a player typing them in, or a seeded roller.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Protocol

from .dice import DieKind, FaceValue, die_kind
from .errors import BadMoveText, BadRoll, IllegalMove, NothingToUndo, RulesError
from .options import SchemaOptions

CHANCE: Final = "chance"
"""`current_player` when the next step is a physical roll rather than a player's choice."""

JSON = dict[str, Any]


def face_of(text: str) -> FaceValue:
    """A typed face: a number where it is one, else a symbol's name."""
    return int(text) if text.lstrip("-").isdigit() else text


@dataclass(frozen=True)
class RollRequest:
    """What the game wants rolled now: the dice kinds in order, who rolls, and why."""

    dice: tuple[str, ...]
    reason: str
    player: int | None = None
    # the faces each die can show, where the game knows them and the kind alone does not say
    # (a Monsters! die carries a few of the game's 33 faces): a simulated camera throws them
    faces: tuple[tuple[str, ...], ...] | None = None

    def __post_init__(self) -> None:
        if self.faces is not None and len(self.faces) != len(self.dice):
            raise ValueError(f"{self.reason}: faces of {len(self.faces)} dice for "
                             f"{len(self.dice)} dice asked")

    def to_json(self) -> JSON:
        data: JSON = {"dice": list(self.dice), "reason": self.reason, "player": self.player}
        if self.faces is not None:
            data["faces"] = [list(f) for f in self.faces]
        return data

    @classmethod
    def from_json(cls, data: JSON) -> RollRequest:
        faces = data.get("faces")
        return cls(tuple(data["dice"]), data["reason"], data.get("player"),
                   None if faces is None else tuple(tuple(f) for f in faces))

    def fill(self, values: list[str]) -> Roll:
        """Bare faces typed in the order the dice are asked for ('17 3 12 8'), as a roll; the
        roll is still checked face by face when it is played."""
        if len(values) != len(self.dice):
            raise BadRoll(f"{self.reason}: wanted {len(self.dice)} values ({' '.join(self.dice)})"
                          f", got {len(values)}")
        return Roll(tuple(DieValue(kind, face_of(value))
                          for kind, value in zip(self.dice, values, strict=True)))

    def check(self, roll: Roll, custom: dict[str, DieKind] | None = None) -> Roll:
        """Return the roll with faces normalised, or raise BadRoll saying what does not fit.

        Dice may come in any order (the camera does not know which die is which): they are
        matched to the request by kind, and the result is in the request's order.
        """
        if len(roll.dice) != len(self.dice):
            raise BadRoll(
                f"{self.reason}: wanted {len(self.dice)} dice ({', '.join(self.dice)}), "
                f"got {len(roll.dice)}"
            )
        if all(d.kind == k and type(d.value) is int and d.value in die_kind(k, custom).faces
               for d, k in zip(roll.dice, self.dice)):
            return roll  # the usual case: in order, values already as games count them
        pending = list(roll.dice)
        ordered: list[DieValue] = []
        for kind_name in self.dice:
            kind = die_kind(kind_name, custom)
            match = next((d for d in pending if d.kind == kind_name), None)
            if match is None:
                got = ", ".join(d.kind for d in roll.dice)
                raise BadRoll(f"{self.reason}: wanted {', '.join(self.dice)}, got {got}")
            pending.remove(match)
            ordered.append(DieValue(kind_name, kind.read(match.value)))
        return Roll(tuple(ordered))


@dataclass(frozen=True)
class DieValue:
    """One die of a roll: its kind name and the value it shows (game convention)."""

    kind: str
    value: FaceValue

    def text(self) -> str:
        return f"{self.kind}={self.value}"


@dataclass(frozen=True)
class Roll:
    """A chance move: the values of the dice that were rolled."""

    dice: tuple[DieValue, ...]

    def text(self) -> str:
        """One text form for the panel, logs and history: `roll d20=17 d6=3`."""
        return "roll " + " ".join(d.text() for d in self.dice)

    @classmethod
    def parse(cls, text: str) -> Roll:
        words = text.split()
        if not words or words[0] != "roll":
            raise BadMoveText(f"a roll reads 'roll d6=3 d20=17', not {text!r}")
        dice = []
        for word in words[1:]:
            kind, sep, value = word.partition("=")
            if not sep or not kind or not value:
                raise BadMoveText(f"bad die {word!r} in {text!r}: write it as kind=value")
            dice.append(DieValue(kind, face_of(value)))
        return cls(tuple(dice))

    @classmethod
    def of(cls, *pairs: tuple[str, FaceValue]) -> Roll:
        return cls(tuple(DieValue(k, v) for k, v in pairs))

    @classmethod
    def random(
        cls, request: RollRequest, rng: random.Random, custom: dict[str, DieKind] | None = None
    ) -> Roll:
        """The seeded roller: what tests and `simulate` use in place of real dice."""
        return cls(tuple(DieValue(k, die_kind(k, custom).roll(rng)) for k in request.dice))

    @property
    def values(self) -> tuple[FaceValue, ...]:
        return tuple(d.value for d in self.dice)


class Move(ABC):
    """A player's choice. Concrete moves are frozen dataclasses with one text form."""

    @abstractmethod
    def text(self) -> str:
        """The single text form used by the panel, the logs and the history."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seats (several on a shared win) and why."""

    winners: tuple[int, ...]
    reason: str

    def to_json(self) -> JSON:
        return {"winners": list(self.winners), "reason": self.reason}


@dataclass(frozen=True)
class RankedMove:
    """A legal move with what it is worth, for the panel's ranked list."""

    move: Move
    points: int = 0
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    """The move in the player's words ("Wizard 3 + Druid 2 defeat the Goblin (5)"); the
    command text stays for the log and for typing. Empty: the command text is shown."""

    def to_json(self) -> JSON:
        return {"move": self.move.text(), "title": self.title or self.move.text(),
                "points": self.points, "detail": self.detail, **self.extra}


class GameState(ABC):
    """A position of one game. Single-threaded; the table session is its only writer."""

    game: Game

    @property
    @abstractmethod
    def current_player(self) -> int | str | None:
        """The seat to act, CHANCE when dice must be rolled, None when the game is over."""

    @abstractmethod
    def roll_wanted(self) -> RollRequest | None:
        """The roll the game waits for (only when current_player is CHANCE)."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every distinct legal move of the player to act (empty at chance nodes)."""

    def ranked_moves(self) -> list[RankedMove]:
        """Legal moves, best first; games with scoring choices override this."""
        return [RankedMove(m) for m in self.legal_moves()]

    def custom_dice(self) -> dict[str, DieKind]:
        """The symbol dice this game rolls, by name (the standard kinds need no entry): what a
        roll's faces are checked against and what the seeded roller rolls."""
        return {}

    def tell(self, move: Move | Roll) -> str:
        """What `move`, just applied, did, in one line a player reads ("Bob's Rogue won the
        fight: +3"); games override it, the default is the move's text."""
        return move.text()

    def seeded_roll(self, rng: random.Random) -> Roll:
        """The seeded roller's stand-in for the roll wanted now (tests, `simulate`). Games whose
        dice differ die by die under one kind name (a monster's declared dice) override it, so
        that it rolls only faces the dice on the table could show."""
        wanted = self.roll_wanted()
        if wanted is None:
            raise BadRoll("no roll is wanted now: a player chooses a move")
        return Roll.random(wanted, rng, self.custom_dice())

    def dealt(self, rng: random.Random) -> Move | None:
        """A step that is chance yet typed by a player (a card drawn from a deck the players
        shuffled): the seeded stand-in's pick, as `Roll.random` is for dice; None elsewhere."""
        return None

    def asks(self) -> str | None:
        """A question only a player can answer now (which card was drawn), so the OK button
        never guesses it; None when the best-ranked move may be played for them."""
        return None

    def best_move(self) -> Move:
        """The first of `ranked_moves()`; games may find it without ranking every move."""
        return self.ranked_moves()[0].move

    def best_moves(self) -> list[Move]:
        """The best move and those the ranking holds equal to it (equal targets), for
        self-play to draw between so no seat is favoured by its number; games with such ties
        override this, the default is the best move alone."""
        return [self.best_move()]

    @abstractmethod
    def parse_move(self, text: str) -> Move | Roll:
        """Turn a move's (or roll's) text form back into the value."""

    @abstractmethod
    def apply(self, move: Move | Roll) -> None:
        """Validate and play a move or a roll; raises IllegalMove / BadRoll naming the rule."""

    @abstractmethod
    def undo(self) -> None:
        """Restore the state before the last apply exactly; raises NothingToUndo."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Score of each seat."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def to_json(self) -> JSON:
        """Everything needed to rebuild this state (with from_json), as plain JSON."""

    @abstractmethod
    def describe(self) -> JSON:
        """A view for the panel: players, enemies, dice, whose turn, in plain JSON."""

    def apply_text(self, text: str) -> None:
        self.apply(self.parse_move(text))


class PositionState(GameState):
    """A state whose every change makes a new position object (the old ones are the undo).

    The position carries `scores`, `winners` (None while the game runs), `reason` and
    `to_json()`.
    """

    parse_act: ClassVar[Callable[[str], Move]]
    """The game's parser of its own moves' text (set as a staticmethod)."""

    def __init__(self, game: Game, position: Any) -> None:
        self.game = game
        self._pos = position
        self._history: list[Any] = []

    def _advance(self, new: Any) -> None:
        self._history.append(self._pos)
        self._pos = new

    def undo(self) -> None:
        if not self._history:
            raise NothingToUndo("nothing to undo")
        self._pos = self._history.pop()

    def parse_move(self, text: str) -> Move | Roll:
        """A roll where the first word is 'roll' ('roll d6=3 d20=17'), else the game's move."""
        return Roll.parse(text) if text.split()[:1] == ["roll"] else self.parse_act(text)

    def scores(self) -> list[int]:
        return list(self._pos.scores)

    @property
    def outcome(self) -> Outcome | None:
        pos = self._pos
        return None if pos.winners is None else Outcome(tuple(pos.winners), pos.reason)

    def to_json(self) -> JSON:
        """The position only: a restored state starts with an empty undo history."""
        return {"game": self.game.name, "position": self._pos.to_json()}


class StepFlow(Protocol):
    """A stepped game's flow module: the rules a `SteppedState` hands its position to."""

    CHANCE_STEPS: frozenset[str]
    """The kinds of step that want dice."""

    def request(self, pos: Any) -> RollRequest | None:
        """The roll a chance step wants (None at a player's step)."""

    def actor(self, pos: Any) -> int:
        """The seat whose move it is at a player's step."""

    def legal(self, pos: Any) -> Iterable[Move]:
        """The moves the player to act may make."""

    def apply_move(self, pos: Any, move: Any) -> Any:
        """The position after a move of the game's own kind."""


class SteppedState(PositionState):
    """A game walked one `step` at a time (the position's `step`, a dict with its "kind"): a
    chance step wants dice, any other a player's move, and "over" ends it. The game's `flow`
    says what each step wants and how a move makes the next position; the game says how a roll
    does (`rolled`)."""

    move_type: ClassVar[type[Move]]  # the game's own moves; any other is refused
    flow: ClassVar[StepFlow]

    @property
    def position(self) -> Any:
        return self._pos

    @property
    def current_player(self) -> int | str | None:
        kind = self._pos.step["kind"]
        if kind == "over":
            return None
        return CHANCE if kind in self.flow.CHANCE_STEPS else self.actor()

    def actor(self) -> int:
        """The seat whose move it is at a player's step."""
        return self.flow.actor(self._pos)

    def roll_wanted(self) -> RollRequest | None:
        return self.flow.request(self._pos)

    def legal_moves(self) -> list[Move]:
        return list(self.flow.legal(self._pos))

    @abstractmethod
    def rolled(self, roll: Roll) -> Any:
        """The position after the roll wanted (checked already)."""

    def moved(self, move: Move) -> Any:
        """The position after a move of the game's own kind."""
        return self.flow.apply_move(self._pos, move)

    def apply(self, move: Move | Roll) -> None:
        if self._pos.step["kind"] == "over":
            raise IllegalMove("the game is over")
        wanted = self.roll_wanted()
        if isinstance(move, Roll):
            if wanted is None:
                raise BadRoll("no roll is wanted now: a player chooses a move")
            self._advance(self.rolled(wanted.check(move, self.custom_dice())))
        elif wanted is not None:
            raise IllegalMove(f"dice first: roll {' '.join(wanted.dice)} ({wanted.reason})")
        elif not isinstance(move, self.move_type):
            raise IllegalMove(f"{move.text()!r} is not a {self.game.title} move")
        else:
            self._advance(self.moved(move))


class Game(ABC):
    """A game's rules: name, seats, options (house rules and variants), and a fresh state.

    A game names its `options_type`, `position_type` (read back with `from_json`) and
    `state_type`, and says in `start` how a game begins; making and restoring states is here.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    bgg_id: ClassVar[int | None] = None
    """BoardGameGeek's id of the game, for the plays sent to BG Stats (None: it has none)."""
    options_type: ClassVar[type[SchemaOptions]] = SchemaOptions
    """The game's options: house rules and variants, its `SCHEMA` what the panel offers."""
    position_type: ClassVar[Any]
    state_type: ClassVar[type[PositionState]]
    readings: ClassVar[dict[str, str]] = {}
    turn_enders: ClassVar[frozenset[str]] = frozenset()
    """Verbs of the moves that end a turn with nothing more played (End turn, the NEXT button)."""
    table_data: ClassVar[str | None] = None
    """The option the table fills with what its players entered for this game (cards), if any."""
    teams: ClassVar[tuple[str, ...]] = ()
    """The colours of the seats' teams, where the game names them (Board Horde's blue, red,
    purple): every page draws a seat in its team's colour."""
    score_floor: ClassVar[int | None] = 0
    """The lowest score a seat can have (None: no floor, as where penalties subtract)."""
    cooperative: ClassVar[bool] = False
    """The whole table wins or loses together (every seat a winner, or none)."""

    @classmethod
    def options_schema(cls) -> list[JSON]:
        """The options and variants players may set: [{name, type, default, choices?, help}]."""
        return [dict(item) for item in cls.options_type.SCHEMA]

    @classmethod
    def assumptions(cls) -> dict[str, str]:
        """Readings chosen where the rulebook is silent, by name, for the panel to show."""
        return dict(cls.readings)

    @classmethod
    def player_names(cls, players: list[str]) -> list[str]:
        """The names as given, trimmed; RulesError for a count or names the game cannot seat."""
        if not cls.min_players <= len(players) <= cls.max_players:
            raise RulesError(f"{cls.title} takes {cls.min_players} to {cls.max_players} "
                             f"players, not {len(players)}")
        names = [str(p).strip() for p in players]
        if any(not n for n in names) or len(set(names)) != len(names):
            raise RulesError("players need distinct, non-empty names")
        return names

    @classmethod
    def read_table_data(cls, data: Any, form: str = "json") -> str:
        """Check what the players entered for `table_data` (JSON-shaped data, or CSV text with
        form 'csv') and return it as the option's text; RulesError names what is wrong."""
        raise RulesError(f"{cls.title} takes no table data")

    @classmethod
    def default_table_data(cls) -> JSON:
        """What a table plays with before its players enter their own (as JSON)."""
        raise RulesError(f"{cls.title} takes no table data")

    @classmethod
    def table_data_form(cls) -> JSON | None:
        """How the Cards page asks for `table_data`, stated next to the game's parser so the two
        cannot drift: {kinds: [{name, shape ('list' of records, or 'map': first field the key,
        second the value), fields: [{name, type (text|number|bool|words|json), hint}]}],
        default (what plays until data is entered), csv (a CSV import is read), import (a
        hint)}. None where the game takes no table data."""
        return None

    def new_state(self, players: list[str], options: JSON | None = None) -> GameState:
        """A game at its very start (setup rolls are chance steps of the state)."""
        names = self.player_names(players)
        return self.state_type(self, self.start(names, self.options_type.from_json(options)))

    @abstractmethod
    def start(self, names: list[str], options: Any) -> Any:
        """The position a game of seated `names` with checked `options` starts from; RulesError
        where the game's own rules cannot seat them."""

    def state_from_json(self, data: JSON) -> GameState:
        """Rebuild a state saved by GameState.to_json; RulesError naming the game when the saved
        position is corrupt."""
        saved = self.saved_position(data)
        try:
            position = self.position_type.from_json(saved)
        except (KeyError, TypeError, IndexError) as exc:
            raise RulesError(f"corrupt {self.name} state: {exc}") from None
        return self.state_type(self, position)

    def saved_position(self, data: JSON) -> JSON:
        """The position of a state this game saved; RulesError for another game's or none."""
        if data.get("game") != self.name:
            raise RulesError(f"not a {self.name} state: {data.get('game')!r}")
        if not isinstance(data.get("position"), dict):
            raise RulesError(f"corrupt {self.name} state: no position")
        return data["position"]


__all__ = [
    "CHANCE", "BadRoll", "DieValue", "Game", "GameState", "Move", "Outcome", "PositionState",
    "RankedMove", "Roll", "RollRequest", "StepFlow", "SteppedState",
]
