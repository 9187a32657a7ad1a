"""Against the Monstrous Horde (shared/seeds/000_e633f08d752cd723.txt), every rule and variant.

Modules: `rules` (tables, options, named assumptions), `position` (immutable state), `moves`
(move values and their text), `assign` (checking and enumerating plays), `flow` (turn steps and
chance steps), `state` (the GameState the table uses).

A turn: `team ...` (move) -> roll (chance) -> `keep` / `reroll ...` (move; skipped while a Wraith
lives) -> roll -> Basilisk gaze (chance, while one lives) -> abilities (`firebolt`, `bear`,
`sleep eN`, `inspire ROLE`, each followed by its roll; `restore ROLE`, the Cleric's Heal at
once) -> one play (`attack ...; heal ...;
rage ...; restore ...` or `end`) -> Troll regeneration, Dragon breath, defeated enemies rerolled
(chance) -> next player.

`state.describe()` (the phone panel's view; keys are stable):
    game, phase (setup|team|rolling|reroll|rerolling|gaze|act|ability|ending|showdown-setup|over),
    round, turn (active seat or null), current_player (seat | "chance" | null), first_player,
    target, end_round (null until someone reaches the target), final_round (bool),
    roll_wanted ({dice, reason, player} | null), options ({name: value}),
    players: [{seat, name, score, eliminated, turns, first, active,
               characters: [{name, die, sides, ability, status (ready|wounded|stone), wounded,
                             stone, value (this turn's, else last rolled, or null), in_team,
                             paralyzed, crit, ability_used}]}],
    enemies: [{id (e1..e4, line-up order), defeated, d20, label ("defeated: ..." while its
               replacement waits, so the line-up stays shown), and unless defeated: value (total to
               hit), kind (enemy|ogre|epic), label, monster (troll|spider|wraith|basilisk|hydra|
               dragon|null), d10, points, heads: [{id (h1..), value}]}],
    pool: {bolts: [d4 values], bear: [d10 values]},
    showdown: null | {seats, kills, round},
    outcome: null | {winners, reason},
    details: [{title, lines: [str]}] (the table as a player reads it: `tell.details`).
"""

from __future__ import annotations

from typing import ClassVar

from ...core import Game
from . import flow
from .position import Position
from .rules import ASSUMPTIONS, Options
from .state import HordeState


class MonstrousHorde(Game):
    """The rules: 2-6 players, options for the variants and the house rules players argue over."""

    name: ClassVar[str] = "monstrous-horde"
    title: ClassVar[str] = "Against the Monstrous Horde"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options_type, position_type, state_type = Options, Position, HordeState
    readings = ASSUMPTIONS
    turn_enders = frozenset({"end"})

    def start(self, names: list[str], options: Options) -> Position:
        return flow.start(names, Position.start(names, options))


