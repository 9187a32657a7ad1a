"""Village Attacks (shared/seeds/004_a9d503531e34dea2.txt): 1-5 players as Monsters defend the
Castle Heart with six custom dice; the board, miniatures and cards stay on the table and the
companion keeps the dice pool, every dial and dashboard, and walks the Villager Phase.

Modules: `rules` (numbers, options, named assumptions), `data` (dashboards, Traps, Events, Town
Heroes, scenarios and the Day/Night faces as table data), `template` (the shipped template and
example scenario), `setup`, `position` (the position as plain data), `moves` (move values and
text), `pool` (the dice pool and paying), `board` (zones, Villagers and the book's priorities),
`monster_phase` (a Monster's turn and spending), `villager_phase` (the Villager Phase checklist
and the Clean Up), `flow` (what the game waits for and how it moves on), `words` (titles and
what a move did), `state` (the GameState and `describe`).

`state.describe()` (the phone panel's view; keys are stable):
    game, phase (setup|monster|villager|cleanup), step, round, current_player, roll_wanted,
    asking (what only the players can answer now: a card drawn, the coin), scenario, castle_heart, morale, event_dial, next_event_at, event, time (day|night|null),
    tier, traps_offered,
    players: [{seat, name, monster, type, zone, slain, health, max_health, experience,
               level_at, level, kills, turns, status, reserve, reserve_slots, defence, defence_slots,
               movement_slots, abilities {name: locked|basic|advanced}, active, first_player}],
    zones: [{id, name, room, distance, villagers {name: n}, trap, conditions, monsters}],
    outcome, during a Monster's turn: dice {rolled, total, spent, rerollable, moved}, tray.
"""

from __future__ import annotations

import json
from typing import Any

from ...core import JSON, Game
from .data import DataError, data_from_text, form, table_data
from .position import Position
from .rules import ASSUMPTIONS, Options
from .setup import start_position
from .state import VillageState


class VillageAttacks(Game):
    """The rules: 1-5 Monsters, the table's data (or the template), house rules."""

    name = "village-attacks"
    title = "Village Attacks"
    min_players, max_players = 1, 5
    options_type, position_type, state_type = Options, Position, VillageState
    readings = ASSUMPTIONS
    turn_enders = frozenset({"end"})
    table_data = "data"
    cooperative = True

    @classmethod
    def read_table_data(cls, data: Any, form: str = "json") -> str:
        """The table's dashboards and cards (JSON-shaped) checked, as the `data` option's text."""
        if form != "json":
            raise DataError("Village Attacks' data is entered as JSON")
        return json.dumps(table_data(data).to_json(), sort_keys=True)

    @classmethod
    def default_table_data(cls) -> JSON:
        return data_from_text("").to_json()

    @classmethod
    def table_data_form(cls) -> JSON:
        return form()

    def start(self, names: list[str], options: Options) -> Position:
        return start_position(names, options, data_from_text(options.data))


__all__ = ["VillageAttacks"]
