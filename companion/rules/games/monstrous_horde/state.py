"""The game state object the table session talks to, and the panel view (`describe`)."""

from __future__ import annotations

from ...core import CHANCE, JSON, Game, Move, PositionState, RankedMove, Roll, RollRequest
from ...errors import BadRoll, IllegalMove
from . import flow, tell
from .moves import Play, parse_move
from .position import Position
from .rules import ROLES, STONE, WOUNDED

_ROLE_VIEW = tuple({"name": r.name, "die": r.die, "sides": r.sides, "ability": r.ability}
                   for r in ROLES)


class HordeState(PositionState):
    """A game of Against the Monstrous Horde; every change is a new immutable Position."""

    _pos: Position
    parse_act = staticmethod(parse_move)

    def __init__(self, game: Game, position: Position) -> None:
        super().__init__(game, position)
        self._ranked: tuple[Position, list[RankedMove]] | None = None
        self._wanted: tuple[Position, RollRequest | None] | None = None

    @property
    def position(self) -> Position:
        return self._pos

    @property
    def current_player(self) -> int | str | None:
        pos = self._pos
        if pos.phase == "over":
            return None
        return CHANCE if pos.queue else pos.seat

    def roll_wanted(self) -> RollRequest | None:
        if self._wanted is None or self._wanted[0] is not self._pos:
            self._wanted = (self._pos, flow.request(self._pos))
        return self._wanted[1]

    def legal_moves(self) -> list[Move]:
        return [ranked.move for ranked in self.ranked_moves()]

    def ranked_moves(self) -> list[RankedMove]:
        if self._ranked is None or self._ranked[0] is not self._pos:
            self._ranked = (self._pos, flow.ranked(self._pos))
        return list(self._ranked[1])

    def best_move(self) -> Move:
        if self._ranked is not None and self._ranked[0] is self._pos:
            return self._ranked[1][0].move
        return flow.best(self._pos).move

    def apply(self, move: Move | Roll) -> None:
        pos = self._pos
        if isinstance(move, Roll):
            wanted = self.roll_wanted()
            if wanted is None:
                raise BadRoll("no roll is wanted now: a player chooses a move"
                              if pos.phase != "over" else "the game is over")
            checked = wanted.check(move)
            new = flow.apply_roll(pos, [int(d.value) for d in checked.dice])
        else:
            if pos.phase == "over":
                raise IllegalMove("the game is over")
            if pos.queue:
                wanted = flow.request(pos)
                raise IllegalMove(f"dice first: roll {' '.join(wanted.dice)} ({wanted.reason})"
                                  if wanted else "dice first")
            new = flow.apply_move(pos, move)
        self._advance(new)

    def tell(self, move: Move | Roll) -> str:
        if not self._history:
            return move.text()
        before = self._history[-1]
        wanted = flow.request(before)
        if isinstance(move, Roll) and wanted is not None:
            values = [int(d.value) for d in wanted.check(move).dice]
            return tell.told(before, self._pos, tell.rolled(before, wanted.reason, values))
        who = before.names[before.seat] if before.seat is not None else "The table"
        if isinstance(move, Play) and move.text() != "end":
            return tell.told(before, self._pos, f"{who}'s play")  # the changes say it all
        title = next((r.title for r in flow.ranked(before) if r.move == move), "")
        return tell.told(before, self._pos, f"{who}: {title or move.text()}")

    def describe(self) -> JSON:
        """The panel's view; its keys are documented in the package docstring."""
        pos = self._pos
        turn = pos.turn
        wanted = self.roll_wanted()
        players = []
        for seat, name in enumerate(pos.names):
            mine = turn if seat == pos.seat else None
            chars = []
            for role, (status, last) in enumerate(zip(pos.status[seat], pos.last[seat])):
                value = last
                in_team = paralyzed = crit = used = False
                if mine is not None:
                    if mine.values[role] is not None:
                        value = mine.values[role]
                    in_team = role in mine.team
                    paralyzed = role in mine.paralyzed
                    crit = mine.crit(role)
                    used = role in mine.used
                chars.append({
                    **_ROLE_VIEW[role], "status": status, "wounded": status == WOUNDED,
                    "stone": status == STONE, "value": value, "in_team": in_team,
                    "paralyzed": paralyzed, "crit": crit, "ability_used": used,
                })
            players.append({
                "seat": seat, "name": name, "score": pos.scores[seat],
                "eliminated": pos.eliminated[seat], "turns": pos.turns[seat],
                "first": seat == pos.first, "active": seat == pos.seat, "characters": chars,
            })
        enemies = []
        # before the first line-up is rolled there are no enemies to show, defeated or not
        for slot, enemy in enumerate(pos.enemies if pos.lineup_rolled else ()):
            entry: JSON = {"id": f"e{slot + 1}", "defeated": enemy.defeated, "d20": enemy.d20,
                           "label": "defeated: a new one is rolled"}  # the line-up stays shown
            if not enemy.defeated:
                entry.update(value=enemy.need, kind=enemy.kind, label=enemy.label(),
                             monster=enemy.monster, d10=enemy.d10,
                             points=enemy.points,
                             heads=[{"id": f"h{i + 1}", "value": v}
                                    for i, v in enumerate(enemy.heads)])
            enemies.append(entry)
        showdown = pos.showdown
        return {
            "game": self.game.name, "phase": pos.phase, "round": pos.round, "turn": pos.seat,
            "current_player": self.current_player, "first_player": pos.first,
            "target": pos.options.target, "end_round": pos.end_round,
            "final_round": pos.end_round is not None and pos.round == pos.end_round,
            "roll_wanted": wanted.to_json() if wanted else None,
            "players": players, "enemies": enemies,
            "pool": {"bolts": list(turn.bolts) if turn else [],
                     "bear": list(turn.bear) if turn else []},
            "showdown": None if showdown is None else {
                "seats": list(showdown.seats), "kills": list(showdown.kills),
                "round": showdown.rounds},
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "options": pos.options.to_json(),
            "details": tell.details(pos),
        }
