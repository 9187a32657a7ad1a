"""A position of Village Attacks as plain data: the dials, each Monster's dashboard, who stands
in which zone, and what the table waits for.

`s` holds everything that changes, JSON-shaped, so a copy is one `marshal` round trip and the
state's undo is the list of old positions.

    round, first (holds the First Player coin), seat (the Monster acting or last to act),
    acted (Monsters done this round), phase (setup | monster | villager | cleanup),
    heart, morale, dial, drawn (events drawn so far), event (the persistent event in play),
    night (bool), tier, step ({"kind", ...}: what the table waits for), queue (steps to come),
    monsters[seat]: {dashboard, zone (None: slain), turns, damage, xp, level, kills, burn, silence, slow,
                     sunder, stun, abilities {id: level}, used [ids], reserve [[die, face]],
                     guard [face]}
    villagers: {zone: {"peasant" | "hunter:TYPE" | "hunter:seasoned" | "hero:ID": count}}
    hero_damage: {hero id: damage}   event_deck: {event id: copies left}   notes: [lines]
    offered: [trap ids on the Game Overview tile]   placed: {zone: trap id}
    conditions: {zone: [unlucky | darkness]}   done: [objective ids]
    lasting: {zone: [conditions]} marked by the persistent event in play: they outlast Clean Up
    stunned: {zone: {kind: count}} Villagers laid on their side until Clean Up
    turn: {rolled [[die, face]] (this turn's results), spent [[face, use]], total (results
           this turn: rolled + kept Reserve), moved, night_heart (began in the Heart at Night),
           villager_zone (where this turn's Villager results act)}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...positions import DataPosition
from .data import Dashboard, Scenario, TableData, data_from_text, distances
from .rules import Options


@dataclass
class Position(DataPosition[Options]):
    options_type = Options
    game_name = "village-attacks"

    @classmethod
    def fields_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A game saved before persistent events kept zone conditions, or Villagers could be
        stunned, has none kept and none stunned."""
        fields = super().fields_from_json(data)
        fields["s"].setdefault("lasting", {})
        fields["s"].setdefault("stunned", {})
        return fields

    @property
    def data(self) -> TableData:
        return data_from_text(self.options.data)

    @property
    def scenario(self) -> Scenario:
        data = self.data
        return data.scenarios[self.options.scenario or next(iter(data.scenarios))]

    @property
    def distance(self) -> dict[str, int]:
        return distances(self.scenario)

    @property
    def turn(self) -> dict[str, Any]:
        return self.s["turn"]

    def monster(self, seat: int | None = None) -> dict[str, Any]:
        return self.s["monsters"][self.seat if seat is None else seat]

    def dashboard(self, seat: int | None = None) -> Dashboard:
        return self.data.monsters[self.monster(seat)["dashboard"]]

    def health_left(self, seat: int | None = None) -> int:
        return self.dashboard(seat).health - self.monster(seat)["damage"]

    def in_zone(self, zone: str) -> dict[str, int]:
        return self.s["villagers"].get(zone, {})

    def villager_count(self, zone: str) -> int:
        return sum(self.in_zone(zone).values())

    def standing(self, zone: str) -> dict[str, int]:
        """The Villagers of `zone` not stunned: a stunned Villager "misses its next activation"
        and is "not added to the total Villager count when deciding whether a Monster is
        Hindered" (VILLAGER_STUN)."""
        down = self.s["stunned"].get(zone, {})
        return {k: n - down.get(k, 0) for k, n in self.in_zone(zone).items()
                if n > down.get(k, 0)}

    def monsters_in(self, zone: str) -> list[int]:
        return [seat for seat, m in enumerate(self.s["monsters"]) if m["zone"] == zone]

    def adjacent(self, zone: str) -> list[str]:
        """Zones one door away: those it leads toward and those that lead toward it."""
        scenario = self.scenario
        near = list(scenario.zone(zone).toward)
        near += [z.id for z in scenario.zones if zone in z.toward and z.id not in near]
        return near

    def zone_name(self, zone: str) -> str:
        return self.scenario.zone(zone).name

    def has(self, zone: str, condition: str) -> bool:
        return condition in self.s["conditions"].get(zone, [])

    # -- scores and the end ------------------------------------------------------------------

    @property
    def scores(self) -> list[int]:
        # SCORE_IS_KILLS: the table wins or loses together; a seat's score is its kills.
        return [m["kills"] for m in self.s["monsters"]]
