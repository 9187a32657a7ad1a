"""The game state object the table session talks to, and the panel view (`describe`)."""

from __future__ import annotations

from ...core import JSON, Move, RankedMove, Roll, SteppedState
from . import flow, ranking, words
from .moves import Act, parse_move
from .position import Position, role_of, seat_of, square_name
from .rules import ROLES, TEAMS


class BoardHordeState(SteppedState):
    """A game of Board Horde; each change makes a new Position, the old ones are the undo."""

    _pos: Position
    move_type = Act
    parse_act = staticmethod(parse_move)
    flow = flow

    def ranked_moves(self) -> list[RankedMove]:
        return ranking.ranked(self._pos)

    def rolled(self, roll: Roll) -> Position:
        return flow.apply_roll(self._pos, int(roll.dice[0].value))

    def tell(self, move: Move | Roll) -> str:
        if not self._history:
            return move.text()
        before = self._history[-1]
        said = "" if isinstance(move, Roll) else next(
            (r.title for r in ranking.ranked(before) if r.move == move), move.text())
        return words.told(before, self._pos, move, said)

    def describe(self) -> JSON:
        """The panel's view; its keys are documented in the package docstring."""
        pos = self._pos
        wanted = self.roll_wanted()
        players = [{
            "seat": seat, "name": name, "team": TEAMS[seat], "score": pos.scores[seat],
            "score_track": pos.scores[seat] % 50, "kept_traps": pos.kept_traps[seat],
            "kept_monsters": pos.kept_monsters[seat], "stored_potions": pos.stored[seat],
            "turns": pos.turns[seat], "active": seat == pos.seat,
            "escaped": sum(pos.where[h] == "out" for h in pos.heroes(seat)),
        } for seat, name in enumerate(pos.names)]
        heroes = [{"id": h, "team": TEAMS[seat_of(h)], "role": role_of(h), "at": _place(pos, w),
                   "items": pos.carried(h)} for h, w in pos.where.items()]
        tokens = [{"id": t, "kind": token["kind"], "at": _place(pos, token["at"]),
                   "owner": token["owner"]}
                  for t, token in sorted(pos.tokens.items(), key=lambda kv: kv[1]["at"])]
        items = [{"id": i, "at": _place(pos, w)} for i, w in pos.items.items()]
        return {
            "game": self.game.name, "phase": pos.step["kind"], "turn": pos.seat,
            "current_player": self.current_player, "squares": pos.options.squares,
            "board": pos.options.board, "roll_wanted": wanted.to_json() if wanted else None,
            "movement": pos.step.get("value"), "extra_roll": pos.extra,
            "players": players, "heroes": heroes, "tokens": tokens, "items": items,
            "track": track(pos), "details": words.details(pos),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "options": pos.options.to_json(),
        }


# Symbols in the fonts a Pi and every phone have (DejaVu Sans), so nothing shows as a box.
GLYPHS = {"monster": "☠", "trap": "⚡", "potion": "⚗", "sword": "⚔", "shoes": "➶",
          "shield": "⬟"}
LEGEND = [{"text": text, "title": name, "team": None, "hero": False}
          for name, text in GLYPHS.items()] + [
    {"text": role[0].upper(), "title": role, "team": None, "hero": True} for role in ROLES]


def track(pos: Position) -> JSON:
    """The board as the panel draws it: each side's squares with what stands on them, and the
    heroes waiting in the portal or already out. Marks are {text, title, team | null, hero}."""
    def hero_mark(hero: str) -> JSON:
        glyphs = "".join(GLYPHS[i] for i in pos.carried(hero))
        title = hero + "".join(f" +{i}" for i in pos.carried(hero))
        return {"text": role_of(hero)[0].upper() + glyphs, "title": title,
                "team": TEAMS[seat_of(hero)], "hero": True}

    sides = []
    for side in range(pos.options.sides):
        cells = []
        for number in range(1, pos.options.squares + 1):
            at = [side, number]
            marks = [hero_mark(h) for h in pos.where if pos.where[h] == at]
            for t in pos.tokens_at(at):
                owner = pos.tokens[t]["owner"]
                kind = pos.tokens[t]["kind"]
                marks.append({"text": GLYPHS[kind], "team": None if owner is None else TEAMS[owner],
                              "title": f"{t}: {kind}" + (f" of {TEAMS[owner]}" if owner is not None
                                                         else ""), "hero": False})
            marks += [{"text": GLYPHS[i], "title": i, "team": None, "hero": False}
                      for i in pos.items_at(at)]
            cells.append({"n": number, "marks": marks})
        name = "" if pos.options.sides == 1 else ("left", "right")[side]
        sides.append({"name": name, "key": "" if not name else name[0].upper(), "cells": cells})
    return {"sides": sides, "legend": LEGEND,
            "portal": [hero_mark(h) for h, w in pos.where.items() if w == "portal"],
            "out": [hero_mark(h) for h, w in pos.where.items() if w == "out"]}


def _place(pos: Position, where: object) -> str:
    """A square's name, or 'portal' / 'out' / a carrying hero's id."""
    return square_name(where, pos.options.sides) if isinstance(where, list) else str(where)
