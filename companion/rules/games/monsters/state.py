"""The game state object the table session talks to, the panel view (`describe`) and `tell`."""

from __future__ import annotations

import random

from ...core import JSON, Move, RankedMove, Roll, SteppedState
from ...dice import DieKind
from ...symbol_dice import MONSTERS
from . import exchange, flow, invasion, ranking, wargame
from .arena import payout, society_points
from .moves import Act, parse_move
from .position import POOLS, Position


class MonstersState(SteppedState):
    """A Monsters! battle; each change makes a new Position, the old ones are the undo."""

    _pos: Position
    move_type = Act
    parse_act = staticmethod(parse_move)
    flow = flow

    def custom_dice(self) -> dict[str, DieKind]:
        return {MONSTERS.name: MONSTERS.kind()}

    def seeded_roll(self, rng: random.Random) -> Roll:
        return flow.seeded_roll(self._pos, rng)

    def ranked_moves(self) -> list[RankedMove]:
        # flow.legal (the moves) and ranking.ranked (the same moves, weighed) both give none at
        # a chance step or the end; the moves are not listed first just to see that.
        return ranking.ranked(self._pos)

    def best_moves(self) -> list[Move]:
        return ranking.tied_best(self._pos)

    def rolled(self, roll: Roll) -> Position:
        return flow.apply_roll(self._pos, roll)

    def dealt(self, rng: random.Random) -> Move | None:
        """The seeded stand-in's card: one of those that can still be face down."""
        if self._pos.step["kind"] != "card":
            return None
        return rng.choice(flow.legal(self._pos))

    def asks(self) -> str | None:
        pos = self._pos
        if pos.step["kind"] != "card":  # WARGAME_CARDS_TYPED
            return None
        where = pos.s["at"][pos.seat] + 1
        place = f"section {where}" if pos.scenario == "invasion" else f"square {where}"
        return f"Which card did {pos.names[pos.seat]} turn up on {place}?"

    def tell(self, move: Move | Roll) -> str:
        return str(self._pos.s["news"]) or move.text()

    def describe(self) -> JSON:
        """The panel's view; its keys are documented in the package docstring."""
        pos = self._pos
        s = pos.s
        wanted = self.roll_wanted()
        players = []
        for seat, name in enumerate(pos.names):
            monster = pos.monsters[seat]
            dice = [{"die": i + 1, "faces": list(faces), "pool": s["pool"][seat][i],
                     "showing": s["shown"][seat][i], "spent": s["spent"][seat][i]}
                    for i, faces in enumerate(monster.dice)]
            counts = {pool: len(pos.in_pool(seat, pool)) for pool in POOLS}
            players.append({
                "seat": seat, "name": name, "score": pos.scores[seat],
                "health": s["health"][seat], "max_health": len(monster.dice),
                "pools": counts, "dice": dice, "out": s["out"][seat],
                "kind": monster.primary, "secondary": monster.secondary,
                "tokens": {"primary": s["tokens"][seat][0], "secondary": s["tokens"][seat][1]},
                "turns": s["turns"][seat], "active": seat == pos.seat and not s["out"][seat],
                **({"square": s["at"][seat] + 1 if s["at"][seat] is not None else None,
                    "tally": s["tally"][seat]} if "tally" in s else {}),
                **({"section": s["at"][seat] + 1 if s["at"][seat] is not None else None,
                    "feasted": list(s["taken"][seat]), "sitting_out": s["sitting"][seat],
                    "exhausted": s["returning"][seat]}
                   if "taken" in s else {}),
                "summary": _summary(pos, seat),
            })
        winners = s["winners"]
        return {
            "game": self.game.name, "phase": pos.step["kind"], "turn": pos.seat,
            "current_player": self.current_player,
            "roll_wanted": wanted.to_json() if wanted else None,
            "order": [pos.names[p] for p in s["order"]], "players": players,
            "monsters": [{"id": name, "label": _summary(pos, seat), "defeated": s["out"][seat]}
                         for seat, name in enumerate(pos.names)],
            "grapples": [{"holder": pos.names[g[0]], "tentacle": g[1] + 1,
                          "held": pos.names[g[2]], "die": g[3] + 1} for g in s["grapples"]],
            "combat": exchange.view(pos), "news": s["news"],
            "arena": _arena(pos, winners),
            "squares": _squares(pos),
            "sections": _sections(pos),
            "board": _board(pos),
            "society_points": society_points(_challenge(pos), len(pos.names), winners),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "options": pos.options.to_json(),
        }


def _challenge(pos: Position) -> str:
    """Which of the Society's scorings a game is: Invasion, the Arena (bets placed), or a
    general challenge (a battle or the Wargame)."""
    if pos.scenario == "invasion":
        return "invasion"
    return "arena" if pos.options.bets.strip() else "battle"


def _summary(pos: Position, seat: int) -> str:
    """'health 12/16; ready 10 (3 spent), stunned 2, wounded 1; Flame 1 token' for the panel."""
    s = pos.s
    if s["out"][seat]:
        return "left the arena"
    spent = sum(1 for d in pos.in_pool(seat, "ready") if s["spent"][seat][d])
    parts = [f"health {s['health'][seat]}/{len(pos.dice(seat))}",
             f"ready {len(pos.in_pool(seat, 'ready'))}" + (f" ({spent} spent)" if spent else "")]
    parts += [f"{pool} {n}" for pool in ("stunned", "wounded", "grappled")
              if (n := len(pos.in_pool(seat, pool)))]
    monster = pos.monsters[seat]
    for kind, tokens in ((monster.primary, s["tokens"][seat][0]),
                         (monster.secondary, s["tokens"][seat][1])):
        if kind:
            parts.append(f"{kind.title()} {tokens} token{'s' * (tokens != 1)}")
    return "; ".join(parts)


def _squares(pos: Position) -> list[JSON] | None:
    """The Wargame's grid, square by square: the card (or face down) and who stands there."""
    if pos.options.scenario != "wargame":
        return None
    s = pos.s
    return [{"id": str(sq + 1), "label": " · ".join(
        [card or "face down"] + [pos.names[p] for p in pos.alive() if s["at"][p] == sq])}
        for sq, card in enumerate(s["grid"])]


def _sections(pos: Position) -> list[JSON] | None:
    """Invasion's grid, section by section: the pile (face down, the top card) and who is there;
    an exhausted pile shows its token."""
    if pos.scenario != "invasion":
        return None
    s = pos.s
    out = []
    for sq, pile in enumerate(s["piles"]):
        here = [pos.names[p] for p in pos.alive() if s["at"][p] == sq]
        cards = ([f"{pile['down']} face down"] if pile["down"] else []) + (
            [pile["up"]] if pile["up"] else [])
        out.append({"id": str(sq + 1), "label": " · ".join((cards or ["token"]) + here),
                    "defeated": not cards})
    return out


def _board(pos: Position) -> JSON | None:
    """The scenario's grid as the panel draws it, row by row like Board Horde's board: each
    cell's card (Wargame: face up or down; Invasion: the pile, or its token once exhausted)
    and the seats of the monsters standing there."""
    s = pos.s
    if pos.options.scenario == "wargame":
        name, columns = "Wargame", wargame.SIDE
        cards = [{"card": card or "", "down": 0 if card else 1, "gone": False} for card in s["grid"]]
    elif pos.scenario == "invasion":
        name, columns = "Invasion", invasion.COLS
        cards = [{"card": pile["up"] or "", "down": pile["down"],
                  "gone": not pile["down"] and not pile["up"]} for pile in s["piles"]]
    else:
        return None
    cells = [{"n": sq + 1, **card, "seats": [p for p in pos.alive() if s["at"][p] == sq]}
             for sq, card in enumerate(cards)]
    return {"name": name, "columns": columns, "cells": cells}


def _arena(pos: Position, winners: list[int] | None) -> JSON | None:
    """The Arena's bets and, once there is a winner, who gets what."""
    if not pos.options.bets.strip():
        return None
    bets = pos.bets()
    view: JSON = {"bets": [{"bettor": b, "on": pos.names[p], "tokens": t} for b, p, t in bets],
                  "kitty": sum(t for _, _, t in bets), "payout": None}
    if winners and len(winners) == 1:
        view["payout"] = payout(bets, winners[0], pos.names[winners[0]], pos.options.split)
    return view
