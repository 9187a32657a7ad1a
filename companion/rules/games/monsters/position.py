"""A position of a Monsters! battle as plain data.

The monsters as built are fixed for the game (`monsters`); `s` holds everything that changes,
JSON-shaped, so a copy is one `marshal` round trip and the undo is the list of old positions:

    seat (whose turn), order (initiative order), groups (initiative groups still tied),
    init: {seat: plus and minus counted}, turns[p], health[p], out[p] (left the arena),
    pool[p][die]: ready | stunned | wounded | grappled | aside,
    shown[p][die]: the face showing, or None (not rolled since it last came back),
    chips[p][die]: the die's number on the tray in its owner's last roll (its place in that
                   roll, as the panel's chips number them), or None (not in that roll),
    spent[p][die]: used in an attack or defence since its owner last rolled,
    grapples: [[grappler seat, tentacle die, grabbed seat, grabbed die]],
    raises: [[bettor, seat, tokens]] (the Arena's tokens added once play began),
    tokens[p]: [primary tokens, secondary tokens],
    combat: None | {a, d (the attacker and defender), by (who strikes now), blow: [dice],
                    guard: [dice], rerolls: [[seat, die]], struck: [a struck, d struck]},
    step: {kind, ...}, news (what the last step did, in words), winners, reason.
Dice are numbered from 0 here and from 1 in moves' commands; their words name a die by its
chip on the tray (`die_name`), so "Minus (die 4)" is the tray's chip 4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...positions import DataPosition
from .arena import Bet, parse_bets
from .build import Die, Monster
from .rules import Options
from .scoring import invasion_points

READY, STUNNED, WOUNDED, GRAPPLED, ASIDE = "ready", "stunned", "wounded", "grappled", "aside"
BAG, BANK = "bag", "bank"  # Invasion's
POOLS = (READY, STUNNED, WOUNDED, GRAPPLED, ASIDE, BAG, BANK)


@dataclass
class Position(DataPosition[Options]):
    monsters: list[Monster]  # as built, fixed for the game
    options_type = Options
    game_name = "monsters"

    @property
    def scenario(self) -> str:
        return self.options.scenario

    def bets(self) -> list[Bet]:
        """The Arena's bets: those placed before play (the bets option), then the tokens added
        since (`raises`)."""
        placed = parse_bets(self.options.bets, self.names)
        return placed + [(str(b), int(p), int(t)) for b, p, t in self.s.get("raises", [])]

    def fallen(self, seat: int) -> bool:
        """Out of this fight: left the arena, or (Invasion) exhausted."""
        return bool(self.s["out"][seat] or self.s.get("returning", [False] * (seat + 1))[seat])

    @property
    def combat(self) -> dict[str, Any] | None:
        return self.s["combat"]

    def dice(self, seat: int) -> tuple[Die, ...]:
        return self.monsters[seat].dice

    def in_pool(self, seat: int, pool: str) -> list[int]:
        return [i for i, where in enumerate(self.s["pool"][seat]) if where == pool]

    def usable(self, seat: int) -> dict[int, str]:
        """Dice of `seat` that may be used now: ready (or banked), rolled, not yet spent, by
        their face."""
        s = self.s
        return {i: face for i, where in enumerate(s["pool"][seat])
                if where in (READY, BANK) and (face := s["shown"][seat][i]) is not None
                and not s["spent"][seat][i]}

    def die_name(self, seat: int, die: int) -> str:
        """'die 4': the die's chip in its owner's last roll; a die not in that roll (stunned,
        banked before it) is named by its place in the monster: 'monster die 9'."""
        chip = self.s["chips"][seat][die]
        return f"die {chip}" if chip else f"monster die {die + 1}"

    def faces(self, seat: int, dice: list[int]) -> list[str | None]:
        return [self.s["shown"][seat][i] for i in dice]

    def alive(self) -> list[int]:
        return [p for p in range(len(self.names)) if not self.s["out"][p]]


    @property
    def scores(self) -> list[int]:  # SCORE_IS_HEALTH, in the Wargame the tally
        if self.options.scenario == "wargame":
            return list(self.s["tally"])
        if self.options.scenario == "invasion":
            return [sum(invasion_points(c) for c in taken) for taken in self.s["taken"]]
        return [max(0, h) for h in self.s["health"]]

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "monsters": [m.to_json() for m in self.monsters]}

    @classmethod
    def fields_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {**super().fields_from_json(data),
                "monsters": [Monster.from_json(m) for m in data["monsters"]]}
