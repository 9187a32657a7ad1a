"""Board Horde (shared/seeds/003_64bb71c60e1c6f9b.txt): the race board with one six-sided die.

Modules: `rules` (points, options, named assumptions), `setup` (where tokens and items start),
`position` (the position as plain data), `moves` (move values and their text), `flow` (turn
steps and chance steps), `ranking` (the panel's ranked moves), `state` (the table's GameState).

A turn: (with a stored potion: `go` or `potion ROLE` and its rolls) -> movement roll (chance) ->
`move ROLE` / `enter ROLE` / `pass` -> what the square holds: a fight, trap or potion roll
(chance) and the choices after it (`tame`/`keep`, `claim`/`keep`, `collect`/`drink`, `switch X`,
`flick X`, `take ITEM`) -> an extra roll after a 6 while no hero waits in the portal -> next
player. Heroes are `blue-rogue` ... `purple-mage` (seat 0 blue, 1 red, 2 purple); tokens `m1`
(monsters), `t1` (traps), `p1` (potions).

`state.describe()` (the phone panel's view; keys are stable):
    game, phase (first|start|move-roll|move|spawn-roll|place|monster-roll|monster-choice|
    trap-roll|fling-roll|trap-choice|potion-choice|potion-roll|teleport-roll|switch|flick|
    item-choice|over), turn, current_player (seat | "chance" | null), squares, board (A|B),
    roll_wanted ({dice, reason, player} | null), movement (the roll being used, or null),
    extra_roll (bool),
    players: [{seat, name, team, score, score_track (where the Reaper stands, 0-49), kept_traps,
               kept_monsters, stored_potions, turns, active, escaped}],
    heroes: [{id, team, role, at ('12', 'L12'/'R12' on Board B, 'portal' or 'out'), items}],
    tokens: [{id, kind (monster|trap|potion), at, owner (seat that tamed/claimed it | null)}],
    items: [{id (sword|shoes|shield), at (a square, a hero id, or 'gone')}],
    track: {sides: [{name ('' | left | right), key ('' | L | R), cells: [{n, marks}]}],
            portal: marks, out: marks, legend: marks}, a mark being {text, title, team | null,
            hero},
    outcome: null | {winners, reason}, options,
    details: [{title, lines: [str]}] (the table as a player reads it: `words.details`).
"""

from __future__ import annotations

from ...core import Game
from ...errors import RulesError
from . import flow
from .position import Position
from .rules import ASSUMPTIONS, TEAMS, Options
from .setup import start_position
from .state import BoardHordeState


class BoardHorde(Game):
    """The rules: 2-3 players (Board B: 2), the board as set up, the house rules as options."""

    name = "board-horde"
    title = "Board Horde"
    min_players, max_players = 2, 3
    # ADVANCED_SKILLS_ABSENT: no option for the Advanced sheets; their skills are not in the text.
    options_type, position_type, state_type = Options, Position, BoardHordeState
    readings = ASSUMPTIONS
    turn_enders = frozenset({"pass"})  # a roll no hero can use
    teams = TEAMS

    def start(self, names: list[str], options: Options) -> Position:
        if options.sides == 2 and len(names) != 2:  # BOARD_B_TWO_PLAYERS
            raise RulesError(f"Board B is for two players, one side each, not {len(names)}")
        return flow.start(start_position(names, options))
