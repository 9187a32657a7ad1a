"""The game state object the table session talks to, and the panel view (`describe`)."""

from __future__ import annotations

import random

from ...core import JSON, Move, RankedMove, Roll, SteppedState
from ...dice import DieKind, custom_die
from ...symbol_dice import VILLAGE
from . import flow, pool, ranking, words
from .moves import Act, parse_move
from .position import Position
from .villager_phase import tier


class VillageState(SteppedState):
    """A game of Village Attacks; each change makes a new Position, the old ones are the undo."""

    _pos: Position
    move_type = Act
    parse_act = staticmethod(parse_move)
    flow = flow

    def custom_dice(self) -> dict[str, DieKind]:
        """The custom die and the Day and Night dice as this table's data gives their faces."""
        kinds = {VILLAGE.name: VILLAGE.kind()}
        for name, faces in self._pos.data.dice.items():
            kinds[name] = custom_die(name, faces)
        return kinds

    def ranked_moves(self) -> list[RankedMove]:
        pos = self._pos
        return [RankedMove(m, points=ranking.worth(m), title=words.title(pos, m),
                           extra={"group": words.group(m)})
                for m in ranking.ranked(flow.legal(pos))]

    def best_move(self) -> Move:
        """The first of `ranked_moves()`, without putting every move into words."""
        return ranking.ranked(flow.legal(self._pos))[0]

    def asks(self) -> str | None:
        return ranking.asks(self._pos)

    def dealt(self, rng: random.Random) -> Move | None:
        return ranking.dealt(self._pos, rng)

    def tell(self, move: Move | Roll) -> str:
        before = self._history[-1] if self._history else self._pos
        return words.tell(before, self._pos, move)

    def rolled(self, roll: Roll) -> Position:
        return flow.apply_roll(self._pos, [(d.kind, str(d.value)) for d in roll.dice])

    def describe(self) -> JSON:
        """The panel's view; its keys are documented in the package docstring."""
        return describe(self, self._pos)


def describe(state: VillageState, pos: Position) -> JSON:
    s = pos.s
    wanted = state.roll_wanted()
    scenario = pos.scenario
    players = []
    for seat, name in enumerate(pos.names):
        m, dash = pos.monster(seat), pos.dashboard(seat)
        players.append({
            "seat": seat, "name": name, "monster": dash.name, "type": dash.type,
            "zone": pos.zone_name(m["zone"]) if m["zone"] else None, "slain": m["zone"] is None,
            "health": dash.health - m["damage"], "max_health": dash.health,
            "experience": m["xp"], "level_at": dash.experience, "level": m["level"],
            "kills": m["kills"],
            "turns": m["turns"],
            "status": {k: m[k] for k in ("burn", "silence", "slow", "sunder") if m[k]}
            | ({"stun": 1} if m["stun"] else {}),
            "reserve": [f for _, f in m["reserve"]],
            "reserve_slots": dash.reserve - m["silence"], "defence": list(m["guard"]),
            "defence_slots": dash.defence - m["sunder"],
            "movement_slots": max(1, dash.movement - m["slow"]),
            "abilities": {a.name: ["locked", "basic", "advanced"][m["abilities"].get(a.id, 0)]
                          for a in dash.abilities},
            "active": seat == pos.seat and s["phase"] == "monster",
            "first_player": seat == s["first"],
        })
    distance = pos.distance
    zones = [{"id": z.id, "name": z.name, "room": z.room, "distance": distance[z.id],
              "villagers": {words.villager(pos, k): n for k, n in pos.in_zone(z.id).items()},
              "trap": pos.data.traps[s["placed"][z.id]].name if z.id in s["placed"] else None,
              "conditions": s["conditions"].get(z.id, []),
              "monsters": [pos.names[i] for i in pos.monsters_in(z.id)]}
             for z in scenario.zones]
    view: JSON = {
        "game": state.game.name, "phase": s["phase"], "step": s["step"]["kind"],
        "round": s["round"], "current_player": state.current_player,
        "roll_wanted": wanted.to_json() if wanted else None, "asking": ranking.asks(pos),
        "scenario": scenario.name, "castle_heart": s["heart"], "morale": s["morale"],
        "event_dial": s["dial"],
        "next_event_at": (scenario.events[s["drawn"]] if s["drawn"] < len(scenario.events)
                          else None),
        "event": pos.data.events[s["event"]].name if s["event"] else None,
        "time": ("night" if s["night"] else "day") if pos.options.day_night else None,
        "tier": tier(pos), "traps_offered": [pos.data.traps[t].name for t in s["offered"]],
        "players": players, "zones": zones,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }
    if s["phase"] == "monster" and s["turn"]:
        turn = s["turn"]
        view["dice"] = {"rolled": [f for _, f in turn["rolled"]], "total": turn["total"],
                        "spent": [f"{f} ({use})" for f, use in turn["spent"]],
                        "rerollable": pool.rerollable(pos), "moved": turn["moved"]}
        view["tray"] = [{"label": f} for _, f in turn["rolled"]]
    return view
