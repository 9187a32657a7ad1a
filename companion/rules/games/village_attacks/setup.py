"""The table as set up: the chosen scenario's dials, each player's Monster in the Castle Heart,
then the first spawn card for every spawn point and the first Trap card dealt."""

from __future__ import annotations

from typing import Any

from ...errors import RulesError
from .data import Scenario, TableData
from .position import Position
from .rules import Options


def chosen_monsters(names: list[str], options: Options, data: TableData) -> list[str]:
    """Dashboards by seat: the option's list, else the first dashboards in order."""
    picks = [w.strip().lower() for w in options.monsters.split(",") if w.strip()]
    if not picks:
        picks = list(data.monsters)[:len(names)]
    if len(picks) != len(names):
        raise RulesError(f"monsters: one dashboard a player, {len(names)}, not {len(picks)}")
    unknown = [p for p in picks if p not in data.monsters]
    if unknown:
        raise RulesError(f"monsters: no dashboard {', '.join(unknown)}; "
                         f"known: {', '.join(data.monsters)}")
    if len(set(picks)) != len(picks):
        raise RulesError("monsters: each player plays a different Monster")
    return picks


def start_position(names: list[str], options: Options, data: TableData) -> Position:
    if options.scenario and options.scenario not in data.scenarios:
        raise RulesError(f"scenario: no {options.scenario!r}; known: {', '.join(data.scenarios)}")
    scenario = data.scenarios[options.scenario or next(iter(data.scenarios))]
    heart = scenario.heart_zone
    monsters = [{"dashboard": d, "zone": heart, "turns": 0, "damage": 0, "xp": 0, "level": 1, "kills": 0, "burn": 0,
                 "silence": 0, "slow": 0, "sunder": 0, "stun": False,
                 "abilities": {data.monsters[d].abilities[0].id: 1}, "used": [],
                 "reserve": [], "guard": []}
                for d in chosen_monsters(names, options, data)]
    s: dict[str, Any] = {
        "round": 0, "first": 0, "seat": 0, "acted": 0, "phase": "setup",
        "heart": scenario.heart, "morale": starting_morale(scenario, len(names)), "dial": 0, "drawn": 0,
        "event": None, "night": bool(options.night), "monsters": monsters, "villagers": {},
        "hero_damage": {}, "offered": [], "placed": {}, "conditions": {}, "lasting": {}, "stunned": {}, "done": [],
        "event_deck": {e.id: e.copies for e in data.events.values()},
        "step": {"kind": "spawn", "zones": list(scenario.spawns)}, "queue": [{"kind": "deal"}],
        "turn": {}, "notes": [], "winners": None, "reason": "",
    }
    return Position(list(names), options, s)


def starting_morale(scenario: Scenario, monsters: int) -> int:
    """The scenario's Morale for one Monster and its `morale_per_monster` for each other: the
    book sets Morale by scenario only, with no word on the number of players."""
    return scenario.morale + scenario.morale_per_monster * (monsters - 1)  # MORALE_BY_PLAYERS
