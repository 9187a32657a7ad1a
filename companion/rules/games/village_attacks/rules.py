"""Village Attacks' fixed numbers, its house rules as options, and the readings we chose.

Where the book (shared/seeds/004_a9d503531e34dea2.txt) is silent or lost its icons there is a
named assumption here, one line each, cited in a comment beside the code that depends on it;
where players could reasonably disagree it is an option.
"""

from __future__ import annotations

from ...options import Schema, SchemaOptions, schema_options

DICE = 6  # "At the beginning of a Monster's turn the 6 custom dice are rolled"
REROLL_AT = 3  # "If 3 or more of the same result is rolled, then those results may be rerolled"
HEART_NIGHT_REROLL_AT = 2  # the Castle Heart at Night: "re roll 2 or more identical dice"
RESPAWN_COST = 2  # "the Castle Heart suffers 2 damage"
DEFENCE_BLOCKS = 2  # "block up to 2 points of damage from a single attack"
HUNTERS_PER_TYPE = 5  # "Only 5 of each type of Hunter may be in play at any one time"
TYPES = ("undead", "mythic", "cursed", "arcane", "demon")
STATUSES = ("burn", "silence", "slow", "sunder")  # tokens on a Monster's dashboard
ZONE_CONDITIONS = ("unlucky", "darkness")
# Morale and experience by what was slain: the book's table and its Attacking paragraph.
MORALE = {"peasant": 1, "hunter": 1, "hero": 2}
EXPERIENCE = {"peasant": 1, "hunter": 1, "hero": 2}
NEMESIS_HERO_EXPERIENCE = 3  # "2 (3 if the same type)"
LESSER = ("peasant", "hunter", "hero")  # targeting and action priority: Peasants < Hunters < Heroes

ASSUMPTIONS: dict[str, str] = {
    "FACES_BY_NAME": "The icons were lost; the six faces of the custom die are Melee, Ranged, "
                     "Magic, Defence, Retaliate and Villager, and the "
                     "Day and Night dice's faces are table data players edit.",
    "BOARD_AS_ZONES": "The board stays on the table; the scenario lists its zones, each with its "
                      "kind and the zones one step nearer the Castle Heart, and the companion "
                      "keeps which Villagers and Monsters stand in each.",
    "RANGE_IS_ADJACENT": "Ranged attacks reach adjacent zones only (the Ranged face's own words); "
                         "line of sight down long corridors is left to the players.",
    "REROLL_COUNTS_THE_ROLL": "The reroll rule counts the results of this turn's roll; the "
                              "Reserve's results of that symbol are rerolled with them and "
                              "join the turn's dice.",
    "REROLL_BEFORE_SPENDING": "Rerolls are taken before the first result is spent; Villager "
                              "results activate once the Monster keeps the roll.",
    "DAY_NIGHT_DIE_ALWAYS_ROLLED": "In Day & Night mode the Day or Night die is one of the dice "
                                   "rolled however few are rolled.",
    "STUN_AND_RESERVE_ADD": "A Stun and the Reserve each take a die off the roll; the roll "
                            "never goes below none.",
    "BURN_PER_TOKEN": "Each Burn token on a Monster deals 1 damage at the start of its "
                      "activation.",
    "SPEND_TURN_DICE_FIRST": "A cost is paid from this turn's results first, then from the "
                             "Reserve.",
    "PEASANT_RANGE": "The Villager table gives Peasants range 1, the Peasant paragraph range 0: "
                     "the paragraph is played, the table is an option.",
    "ATTACKS_FURTHEST_FIRST": "Villagers attack zone by zone, furthest from the Castle Heart "
                              "first, Peasants then Hunters then Town Heroes within a zone.",
    "ALL_IN_HEART_ATTACK_HEART": "When every Villager is in the Castle Heart a Villager result "
                                 "makes one of them attack the Castle Heart.",
    "TRAP_PUSH_AWAY": "A Trap that pushes moves the survivors it affects one zone away from the "
                      "Castle Heart, to the first zone listed that leads into theirs; from a "
                      "spawn zone with none they stay.",
    "SPAWN_TYPED": "Spawn cards are not data: the player types what the drawn card says "
                   "(Peasants, Hunters, or a Town Hero) for the current tier.",
    "TYPE_FULL_IS_SEASONED": "Hunters of a type that already has 5 in play spawn as Seasoned "
                             "Hunters, who are every type.",
    "ABILITY_EFFECTS_BY_HAND": "An ability's cost is paid through the companion and its effect "
                               "resolved by the players, who record what it slew or inflicted "
                               "with the slay, afflict and mark moves.",
    "TRAP_SLOTS_GUESSED": "The Game Overview tile's number of Trap slots is not in the text: "
                          "the scenario names it (3 in the example, a guess).",
    "LEVEL_UP_AT_ONCE": "A Monster whose experience reaches its dashboard's value levels up at "
                        "once, before anything else is played.",
    "SCORE_IS_KILLS": "A Monster's score is the Villagers it slew; the win or the loss is "
                      "shared by every player.",
    "EVENT_CONDITIONS_LAST": "Zone conditions 'expire at the end of the round, unless a "
                             "Village Event causes them to persist': those marked while a "
                             "persistent event's effects are played stay through Clean Up until "
                             "the next Village Event card is drawn.",
    "MORALE_BY_PLAYERS": "The book sets the starting Morale by scenario only, never by the "
                         "number of players; a scenario may add Morale for each Monster after "
                         "the first (morale_per_monster). The template's 20 + 10 a Monster is "
                         "a guess.",
    "VILLAGER_STUN": "A stunned Villager (recorded with 'stun ZONE KIND' after the ability "
                     "that stunned it) neither attacks nor marches in the Villager Phase, is "
                     "not moved by Villager results, does not count towards Hindered, and "
                     "stands again at Clean Up; Monsters may still strike it ('Stunned "
                     "Villagers can be targeted by Monsters attacks and abilities').",
    "HEAVE_BY_HAND": "How full a tile is the companion cannot see: a Heave is typed as 'heave "
                     "ZONE KIND DEST' at any step a player answers, one Villager one zone.",
    "EVENT_TEXT_BY_HAND": "A Village Event's effects are resolved by the players; the "
                          "companion records the card, keeps a persistent one until the next, "
                          "and flips Day and Night when the card says so.",
}

OPTIONS_SCHEMA: Schema = [
    {"name": "data", "type": "str", "default": "",
     "help": "The table's dashboards, Traps, Events, Town Heroes and scenarios as JSON (the "
             "table fills this from the Cards page); empty: the shipped template."},
    {"name": "scenario", "type": "str", "default": "",
     "help": "The scenario played, by id; empty: the first one."},
    {"name": "monsters", "type": "str", "default": "",
     "help": "The Monsters played, by dashboard id and comma, one a player in seat order; "
             "empty: the first dashboards."},
    {"name": "day_night", "type": "bool", "default": False,
     "help": "Day & Night mode: one die is swapped for the Day or Night die."},
    {"name": "night", "type": "bool", "default": False,
     "help": "Day & Night mode starts at Night (the token's flip)."},
    {"name": "troll", "type": "bool", "default": False,
     "help": "The Troll rolls a die at the end of each Villager Phase."},
    {"name": "peasant_range", "type": "int", "default": 0, "min": 0, "max": 1,
     "help": "Peasants' range: 0 (the Peasant paragraph) or 1 (the Villager table)."},
]


@schema_options(OPTIONS_SCHEMA)
class Options(SchemaOptions):
    """The table's data and the house rules; `SCHEMA` is what the panel offers."""

    data: str = ""
    scenario: str = ""
    monsters: str = ""
    day_night: bool = False
    night: bool = False
    troll: bool = False
    peasant_range: int = 0
