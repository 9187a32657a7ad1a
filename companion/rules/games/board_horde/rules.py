"""Board Horde's tables as data, its variants as options, the board's layout, and our readings.

Where the book is silent there is a named assumption here (one line each), cited in a comment
beside the code that depends on it; where players could reasonably disagree it is an option.
The board art is not in the text (shared/rules-notes.md): a board side is one path of numbered
squares, 1 the Entrance Square, the Exit Portal just past the last; players say where they put
the tokens, or take the spread layout the panel offers.
"""

from __future__ import annotations

from ...options import Schema, SchemaOptions, schema_options

TEAMS: tuple[str, ...] = ("blue", "red", "purple")
ROLES: tuple[str, ...] = ("rogue", "warrior", "mage")
ITEMS: tuple[str, ...] = ("sword", "shoes", "shield")
ENTRANCE = 1
FIRST_SQUARES = 6  # "anywhere but the Entrance Square, Exit Portal, or first 6 Squares"
SPAWN_TRIES = 3  # "on your turn you roll the dice 3 times"
FREE_SPAWN_TURN = 3  # "If by your third turn you have yet to roll a 6, you may place a Hero"

# The book's points table.
MONSTER_POINTS = 3  # Monster Defeated, Claimed or Tamed
TRAP_POINTS = 2  # Trap Avoided, Claimed or Collected
POTION_POINTS = 1  # Potion Collected or Stored
ITEM_POINTS = 1  # Special Item Collected
HERO_POINTS = 3  # Other Player's Hero Defeated
EXIT_POINTS = 10  # Exit Reached

TOKEN_KINDS: tuple[str, ...] = ("monster", "trap", "potion")
TOKEN_PREFIX = {"monster": "m", "trap": "t", "potion": "p"}

ASSUMPTIONS: dict[str, str] = {
    "FOUR_OF_EACH": "Setup places four Monsters, four Traps and four Potions unless players "
                    "type where theirs went.",
    "FIRST_SIX_AFTER_ENTRANCE": "The 'first 6 squares' are the six after the Entrance Square "
                                "(2-7); no token starts on squares 1-7.",
    "FIRST_GO_PER_PLAYER": "'First go' is each player's own first turn, or any turn (or extra "
                           "roll) when no hero of any team is on the board: one roll moves a "
                           "hero out that far.",
    "BLOCKED_TURN_PASSES": "When no hero can legally use the roll, the turn passes.",
    "ENTRANCE_BLOCKED_BY_OWN": "While one of your heroes stands on the Entrance Square a 6 cannot "
                               "bring another out; it moves a hero instead.",
    "EXTRA_ROLL_REPEATS": "Each 6 rolled while none of your heroes waits in the portal earns "
                          "one more movement roll, again and again.",
    "FREE_SPAWN_ON_THIRD_TURN": "After two whole turns of three rolls without a 6, the third "
                                "turn places a hero on the Entrance without rolling.",
    "SPAWNED_HERO_WAITS": "A hero brought out by the three-roll rule ends that turn.",
    "TRAP_BONUS_STAYS": "Kept Traps add to every later trap roll, like kept Monsters to fights.",
    "ONE_AWARD_PER_TRAP": "Avoiding a trap and claiming or keeping it earn 2 points once.",
    "FLING_COLLISIONS_SCORE": "An opponent's hero or a Monster destroyed with you by a Fling "
                              "Back scores as if defeated.",
    "SHIELD_ONLY_AGAINST_LANDING": "The Shield saves its hero only from an opponent's hero landing "
                                   "on it, not from traps, potions or fling-back crashes.",
    "SHIELD_KNOCK_BACK": "A shielded hero is knocked to the nearest square behind with no hero "
                         "or token, else the nearest ahead, else to its portal.",
    "DROPPED_WHERE_DESTROYED": "A destroyed hero's Special Items lie on the square where it "
                               "was destroyed, for the next hero that lands there.",
    "ITEMS_LEAVE_WITH_HERO": "A hero that escapes takes its Special Items out of play.",
    "TELEPORT_CRUSHES_ANY_HERO": "A Teleport landing on any other hero, yours included, sends it "
                                 "to its portal; only opponents' heroes score.",
    "TELEPORT_MAY_ESCAPE": "A Teleport past the last square escapes, as a move would.",
    "TELEPORT_TRAP_AVOIDED": "A trap that fails under a Teleport counts as avoided (2 points).",
    "SWITCH_TRIGGERS_NOTHING": "After a Switcheroo neither the hero nor the foe sets off what "
                               "lies on its new square.",
    "FLICK_ANYWHERE": "Flick A Foe may remove any opponent's hero or Monster on the board.",
    "STORED_POTIONS_ADD_UP": "A Mage's team may store any number of potions; one is used a turn.",
    "DESTROYED_POTION_SCORES_NOTHING": "Potions and Special Items destroyed by a Teleport or "
                                       "Fling Back score nothing.",
    "TIES_SHARED": "Equal highest scores at the end share the win unless the ties option says "
                   "otherwise.",
    "BOARD_B_TWO_PLAYERS": "Board B (two separate sides) is for two players, one side each.",
    "ADVANCED_SKILLS_ABSENT": "The Advanced sheets' Special Skills are printed on cards the text "
                              "lacks; they are not played.",
}


OPTIONS_SCHEMA: Schema = [
    {"name": "board", "type": "choice", "default": "A", "choices": ["A", "B"],
     "help": "Board A: one path for everyone. Board B: two separate sides, one for each of two "
             "players (the Shield is not used)."},
    {"name": "squares", "type": "int", "default": 40, "min": 24, "max": 200,
     "help": "Squares on the path (each side), from the Entrance Square to the last before the "
             "Exit Portal."},
    {"name": "monsters", "type": "str", "default": "",
     "help": "Squares of the Monsters, e.g. '11 18 26 33' (Board B: 'L11 R18 ...') or 'none'; "
             "empty: four spread out, as the panel shows."},
    {"name": "traps", "type": "str", "default": "", "help": "Squares of the Traps, as above."},
    {"name": "potions", "type": "str", "default": "", "help": "Squares of the Potions, as above."},
    {"name": "items", "type": "str", "default": "",
     "help": "Squares of the Sword, Shoes and Shield in that order ('20 28 35'; Board B: the "
             "Sword's then the Shoes', 'L20 R20'), or one square for a stack; empty: spread out "
             "(Board B: mid each side, which side drawn with a roll)."},
    {"name": "item_setup", "type": "choice", "default": "scattered",
     "choices": ["scattered", "stack"],
     "help": "Setup A (each item on its own square) or B (all three stacked mid-board)."},
    {"name": "stored_potion", "type": "choice", "default": "then-roll",
     "choices": ["then-roll", "instead"],
     "help": "A stored potion is used 'before moving': then roll to move as usual, or instead "
             "of the movement roll."},
    {"name": "ties", "type": "choice", "default": "shared", "choices": ["shared", "escaped"],
     "help": "Equal highest scores: a shared win, or the player who got all heroes out wins."},
    {"name": "win", "type": "choice", "default": "score", "choices": ["score", "first-out"],
     "help": "Who wins: the highest score once a team is out (the book), or, scoring ignored, "
             "the first player to get all their heroes to the exit (the book's variant)."},
]


@schema_options(OPTIONS_SCHEMA)
class Options(SchemaOptions):
    """House rules and the board as set up; `SCHEMA` is what the panel offers."""

    board: str = "A"
    squares: int = 40
    monsters: str = ""
    traps: str = ""
    potions: str = ""
    items: str = ""
    item_setup: str = "scattered"
    stored_potion: str = "then-roll"
    ties: str = "shared"
    win: str = "score"

    @property
    def sides(self) -> int:
        return 2 if self.board == "B" else 1
