"""A tiny dice game (Pig with a d6) used only until the real games land in the registry."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from companion.rules.core import (
    CHANCE,
    Game,
    GameState,
    Move,
    Outcome,
    RankedMove,
    Roll,
    RollRequest,
    require,
)
from companion.rules.errors import BadMoveText, NothingToUndo


@dataclass(frozen=True)
class PigMove(Move):
    word: str

    def text(self) -> str:
        return self.word


class PigState(GameState):
    def __init__(self, game: Pig, players: list[str], target: int) -> None:
        self.game = game
        self.d = {"players": players, "scores": [0] * len(players), "seat": 0, "pot": 0,
                  "rolled": False, "target": target, "last": None}
        self._stack: list[dict[str, Any]] = []

    @property
    def current_player(self) -> int | str | None:
        if max(self.d["scores"]) >= self.d["target"]:
            return None
        return self.d["seat"] if self.d["rolled"] else CHANCE

    def roll_wanted(self) -> RollRequest | None:
        if self.current_player != CHANCE:
            return None
        return RollRequest(("d6",), "turn roll", self.d["seat"])

    def legal_moves(self) -> list[Move]:
        return [PigMove("again"), PigMove("end")] if isinstance(self.current_player, int) else []

    def ranked_moves(self) -> list[RankedMove]:
        return [RankedMove(PigMove("end"), self.d["pot"], "bank"), RankedMove(PigMove("again"))] \
            if isinstance(self.current_player, int) else []

    def parse_move(self, text: str) -> Move | Roll:
        if text.startswith("roll"):
            return Roll.parse(text)
        if text not in ("again", "end"):
            raise BadMoveText(f"pig knows 'again' and 'end', not {text!r}")
        return PigMove(text)

    def apply(self, move: Move | Roll) -> None:
        if isinstance(move, Roll):
            wanted = self.roll_wanted()
            require(wanted is not None, "no roll wanted")
            roll = wanted.check(move)
            before = copy.deepcopy(self.d)
            if roll.values[0] == 1:
                self.d["pot"] = 0
                self.d["seat"] = (self.d["seat"] + 1) % len(self.d["players"])
            else:
                self.d["pot"] += roll.values[0]
                self.d["rolled"] = True
            self._stack.append(before)
            return
        require(move in self.legal_moves(), f"{move.text()} is not legal now")
        self._stack.append(copy.deepcopy(self.d))
        if move.text() == "end":
            self.d["scores"][self.d["seat"]] += self.d["pot"]
            self.d["pot"] = 0
            if max(self.d["scores"]) < self.d["target"]:
                self.d["seat"] = (self.d["seat"] + 1) % len(self.d["players"])
        self.d["rolled"] = False

    def undo(self) -> None:
        if not self._stack:
            raise NothingToUndo("start of game")
        self.d = self._stack.pop()

    def scores(self) -> list[int]:
        return list(self.d["scores"])

    @property
    def outcome(self) -> Outcome | None:
        if self.current_player is not None:
            return None
        return Outcome((self.d["scores"].index(max(self.d["scores"])),), "reached the target")

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(self.d)

    def describe(self) -> dict[str, Any]:
        return {"players": [{"name": n, "score": s}
                            for n, s in zip(self.d["players"], self.d["scores"], strict=True)],
                "pot": self.d["pot"]}


class Pig(Game):
    name = "pig"
    title = "Pig"
    min_players = 2
    max_players = 4

    @classmethod
    def options_schema(cls) -> list[dict[str, Any]]:
        return [{"name": "target", "type": "int", "default": 20, "help": "points to win"}]

    def new_state(self, players: list[str], options: dict[str, Any] | None = None) -> PigState:
        target = (options or {}).get("target", 20)
        if not isinstance(target, int) or target < 1:
            raise ValueError("target must be a positive whole number")
        return PigState(self, players, target)

    def state_from_json(self, data: dict[str, Any]) -> PigState:
        state = PigState(self, data["players"], data["target"])
        state.d = copy.deepcopy(data)
        return state


class PigRegistry:
    """Stands in for companion.rules.registry (History takes any object with these two)."""

    @staticmethod
    def get_game(name: str) -> type[Game]:
        from companion.rules.errors import UnknownGame

        if name != "pig":
            raise UnknownGame(f"unknown game {name!r}")
        return Pig

    @staticmethod
    def game_names() -> list[str]:
        return ["pig"]


games = PigRegistry()
