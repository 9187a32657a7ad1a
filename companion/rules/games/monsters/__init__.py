"""Monsters! the Dice Game (shared/seeds/002_26b42cb172a4f771.txt): the Battle System with
monsters built from symbol dice, the kinds, the equipment, the Arena's bets, and the Invasion
and Wargame scenarios (the `scenario` option).

Modules: `rules` (faces as numbers, options, named assumptions), `build` (declared dice checked
against the construction rules), `combat` (what an attack does and a defence stops), `position`
(the position as plain data), `moves`, `flow` (initiative, the turn, healing, leaving),
`exchange` (combat rounds), `kinds` (the kinds' tokens), `ranking` (the panel's ranked moves),
`arena` (the kitty's payout, the Society's ranking points), `scoring` (playing cards),
`invasion` and `wargame` (the scenarios' turns), `state` (the table's GameState).

Every roll asks for N dice of kind `monsters` (the camera reads each symbol); the faces read are
matched to the player's dice that were rolled, and a face none of them carries is refused.

A turn: initiative rolls (chance, tied players again) -> the acting player rolls their pool
(chance) -> `attack N` | `end` | `surrender` -> the defender rolls (chance) -> `hit D[+E]` |
`pain` | `pass` -> `defend D+E+...` | `take` -> Lungs rerolls (chance) -> `hurt D` per point
(or `grab D`) -> a Brain's second attack -> the counterattack -> `continue` | `disengage` ->
`heal N` | `end` -> the next player.

`state.describe()` (the panel's view; keys are stable):
    game, phase, turn, current_player, roll_wanted, order (names in turn order), news,
    players: [{seat, name, score, health, max_health, pools: {ready, stunned, wounded,
               grappled, aside}, dice: [{die, faces, pool, showing, spent}], out, kind,
               secondary, tokens: {primary, secondary}, turns, active, summary}],
    grapples: [{holder, tentacle, held, die}], combat: null | {attacker, defender, striking,
    attack?}, arena: null | {bets: [{bettor, on, tokens}], kitty, payout: null | {name: tokens}},
    monsters: [{id, label, defeated}] (a chip each), squares (Wargame) / sections (Invasion):
    null | [{id, label, defeated?}], board: null | {name, columns, cells: [{n, card, down
    (face-down cards), gone (an exhausted pile), seats}]} (the grid drawn),
    society_points: [per seat], outcome, options.
    Wargame players add {square, tally}; Invasion players {section, feasted, sitting_out,
    exhausted}.
"""

from __future__ import annotations

from ...core import Game
from ...errors import RulesError
from . import flow
from .arena import parse_bets
from .build import build_all
from .position import Position
from .rules import ASSUMPTIONS, Options
from .state import MonstersState
from .wargame import MAX_PLAYERS


class Monsters(Game):
    """The rules: 2-6 monsters of the same size; the optional rules as options."""

    name = "monsters"
    title = "Monsters! the Dice Game"
    min_players, max_players = 2, 6
    options_type, position_type, state_type = Options, Position, MonstersState
    readings = ASSUMPTIONS
    turn_enders = frozenset({"end"})

    def start(self, names: list[str], options: Options) -> Position:
        parse_bets(options.bets, names)  # ARENA_BETS_AT_START: refused now, not at the payout
        if options.scenario == "wargame" and len(names) > MAX_PLAYERS:
            raise RulesError(f"the Wargame is for at most {MAX_PLAYERS} players, one corner "
                             f"each, not {len(names)}")
        return flow.start(names, options, build_all(names, options))
