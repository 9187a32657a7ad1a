"""The rulebook's tables as data, its variants as options, and the readings we chose.

Every place where the book is silent has a named assumption here (one line each) or in the module
whose code depends on it; where players could reasonably disagree it is an option instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RulesError
from ...options import Schema, SchemaOptions, schema_options


@dataclass(frozen=True, slots=True)
class Role:
    """One character of an adventuring party: its die and its special ability."""

    name: str
    die: str
    sides: int
    ability: str


ROLES: tuple[Role, ...] = (
    Role("wizard", "d4", 4, "Fire Bolts or Sleep"),
    Role("rogue", "d6", 6, "Backstab"),
    Role("cleric", "d8", 8, "Heal or Holy Guidance"),
    Role("druid", "d10", 10, "Bear Form"),
    Role("paladin", "d12", 12, "Inspiration"),  # line lost in the text: see shared/rules-notes.md
    Role("barbarian", "d20", 20, "Battle Rage"),
)
ROLE_INDEX = {role.name: i for i, role in enumerate(ROLES)}
WIZARD, ROGUE, CLERIC, DRUID, PALADIN, BARBARIAN = range(6)

READY, WOUNDED, STONE = "ready", "wounded", "stone"

ENEMY_DICE = 4
MAX_TEAM = 4
MAX_BOLTS = 3  # "The Wizard can roll no more than 3 additional d4s this way"
BEAR_DICE = 2
HYDRA_BASE_HEADS = 3

# d6 of an epic monster -> (type, points when defeated)
MONSTERS: dict[int, str] = {
    1: "troll", 2: "spider", 3: "wraith", 4: "basilisk", 5: "hydra", 6: "dragon",
}
MONSTER_POINTS = {"troll": 20, "spider": 30, "wraith": 30, "basilisk": 30, "dragon": 30}
MONSTER_TITLES = {
    "troll": "Troll", "spider": "Huge Spider", "wraith": "Wraith", "basilisk": "Basilisk",
    "hydra": "Hydra", "dragon": "Young Dragon",
}
HEAD_POINTS = 10
STANDARD_POINTS, OGRE_POINTS = 10, 20
OGRE_VALUES = (18, 19)
TROLL_REGENERATES = (5, 6)

ASSUMPTIONS: dict[str, str] = {
    # Readings chosen where the book is silent. Each name is cited in a comment beside the code
    # that depends on it (a test checks); the ones players argue over are options below.
    "HYDRA_EPIC_D10_UNUSED": "A Hydra's d20 gets no d10: the d10 rolled beside it goes back.",
    "POOL_NOT_LIMITED": "Pool dice counts are not enforced: with too few, reroll one die.",
    "ABILITY_ONCE_PER_TURN": "An ability is used at most once a turn, even if inspired to crit "
                             "again.",
    "ONES_STILL_FIGHT": "A die showing 1 is unwounded until the turn ends: it may attack and be "
                        "doubled, never heal.",
    "PREVIOUS_WOUNDS_ONLY": "Heals (dice or the Cleric's) mend dice wounded on earlier turns.",
    "ROLLING_ABILITIES_FIRST": "Fire Bolts, Sleep, Bear Form and Inspiration roll dice, so they "
                               "come before the play; the Cleric's Heal ('restore X' on its own) "
                               "takes effect at once.",
    "HEAL_BEFORE_INSPIRE": "Step 4 is 'Use the characters to attack, heal, and/or perform "
                           "special abilities' with no order, and abilities go 'in any order': "
                           "a heal with dice may be made at once ('aid X=dice') before the "
                           "play, so the Paladin may then inspire the healed character; its "
                           "healers leave the play and, but the Cleric, lose their ability "
                           "('They may not use their special ability and also heal').",
    "BEAR_DICE_WITH_DRUID": "The Druid's die and the bear d10s it uses attack one enemy; the "
                            "Druid's die is not used elsewhere.",
    "MONSTERS_ACT_ON_ARRIVAL": "A monster woken mid-turn (by Sleep) acts from then on; its "
                               "start-of-turn effects wait for the next turn.",
    "FIRE_BREATH_AFTER_WOUNDS": "The Dragon breathes after 1s wound and before defeated enemies "
                                "are rerolled; a Dragon rolled then first breathes next turn.",
    "ELIMINATED_CANNOT_WIN": "A party wholly wounded is out: its score no longer competes.",
    "STONE_COUNTS_AS_LOST": "Petrified dice count like wounded ones for elimination.",
    "TEAM_NOT_EMPTY": "A melee team has at least one character.",
    "SHOWDOWN_FIRST": "The Final Showdown begins with the first tied player in turn order.",
    "SHOWDOWN_COUNTS_KILLS": "Showdown rounds compare enemies defeated; scores stay as they were.",
    "SHOWDOWN_TIED_CONTINUE": "Only the players tied for most kills play the next Showdown round.",
    "LINEUP_ORDERED_BETWEEN_TURNS": "The line-up is put in order (smallest first) at setup and "
                                    "when a turn ends; an enemy rerolled by Sleep keeps its "
                                    "place, so enemies keep their numbers all turn.",
    "SIMPLIFIED_TROLLS_STACK": "Simplified Monsters: several Trolls may be in play at once.",
}


OPTIONS_SCHEMA: Schema = [
    {"name": "target", "type": "int", "default": 100, "min": 10, "max": 1000,
     "help": "Score that triggers the end; Bigger Horde plays to 200 (a multiple of 10 up to 1000)."},
    {"name": "simplified_monsters", "type": "bool", "default": False,
     "help": "Simplified Monsters: no d6 for the type, every epic monster is a Troll."},
    {"name": "final_round", "type": "choice", "default": "extra", "choices": ["extra", "finish"],
     "help": "After the end is triggered: 'extra' (book) finishes the round then plays one more; "
             "'finish' only finishes the round so all have equal turns."},
    {"name": "ties", "type": "choice", "default": "showdown", "choices": ["showdown", "shared"],
     "help": "A tie for the highest score: Final Showdown rounds, or a shared victory."},
    {"name": "hydra_unlock", "type": "choice", "default": "same-turn",
     "choices": ["same-turn", "next-turn"],
     "help": "Once the Hydra's last head falls, may the same turn attack other enemies and heal?"},
    {"name": "wraith_blocks_sleep", "type": "bool", "default": True,
     "help": "Does the Wraith's 'no rerolls of any type' also stop the Wizard's Sleep?"},
]


@schema_options(OPTIONS_SCHEMA)
class Options(SchemaOptions):
    """House rules and variants; `SCHEMA` is what the panel offers when a game is set up."""

    target: int = 100
    simplified_monsters: bool = False
    final_round: str = "extra"
    ties: str = "showdown"
    hydra_unlock: str = "same-turn"
    wraith_blocks_sleep: bool = True

    def check(self) -> None:
        if not isinstance(self.target, int) or self.target <= 0 or self.target % 10:
            raise RulesError(f"target must be a positive score divisible by 10, not {self.target!r}")
        SchemaOptions.check(self)  # zero-argument super() fails in a slots dataclass
