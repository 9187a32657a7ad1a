"""Monsters! the Dice Game's faces as numbers, its optional rules as options, and our readings.

Where the book (shared/seeds/002_26b42cb172a4f771.txt) is loose there is a named assumption
here, one line each, cited in a comment beside the code that depends on it; where players could
reasonably disagree it is an option.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...options import Schema, SchemaOptions, schema_options
from ...symbol_dice import BODY_PARTS, EQUIPMENT

WARGAME_ROUNDS = 3  # "there is three rounds of combat where the attacking player starts first"
MIN_SIZE = 16  # "at least 16 and every player uses the same amount"
POINTS_PER_TOKEN = 16  # "one token for every 16 construction points"
COMPLETE_PAIRS = frozenset({"arm", "leg", "eye"})  # "The exception are: Arm (2), Leg (2), Eye (2)"
COMPLETE_EQUIPMENT = 2  # "only two equipment may be used"


@dataclass(frozen=True)
class Attack:
    """What a face does as an attack die: stun and wound points, its speed, and its class
    ('stun' and 'wound' for the two special attack types, 'ray', or 'plain')."""

    stun: int = 0
    wound: int = 0
    speed: int = 1
    kind: str = "plain"
    grab: bool = False  # a tentacle: grabs one die instead of doing damage
    poison: bool = False  # a dart: one more wound when not defended
    targeted: bool = False  # the attacker picks the dice hurt


ATTACKS: dict[str, Attack] = {
    # SPECIAL_ATTACKS_ARE_POSTURES: the stun and wound postures are the two special attack types.
    "stun": Attack(stun=1, kind="stun"),
    "wound": Attack(wound=1, kind="wound"),
    "arm": Attack(stun=1), "leg": Attack(stun=1), "mouth": Attack(stun=1),
    "claw": Attack(wound=1), "tail": Attack(stun=2), "tentacle": Attack(grab=True),
    # TARGETED_EQUIPMENT: the weapons whose text says "to the target" are targeted attacks.
    "axe": Attack(wound=2, speed=3, targeted=True),
    "dart": Attack(wound=1, speed=3, poison=True, targeted=True),
    "mace": Attack(wound=1, targeted=True),
    "scythe": Attack(wound=2, speed=4),
    "sword": Attack(wound=2, speed=2, targeted=True),
    "trident": Attack(stun=2, wound=1, targeted=True),
    "whip": Attack(stun=2, speed=4, targeted=True),
    "staff": Attack(stun=1, speed=3, targeted=True),
    "wand": Attack(stun=1, targeted=True),
}
DEMONIC_EYE = Attack(stun=2, kind="ray")  # RAY_IS_STUN


@dataclass(frozen=True)
class Defence:
    """What a face does as a defence die: points stopped, against what, and its speed. `against`
    is block (not ray or sweep), dodge (ray, sweep, the stun attack), deflect (not the stun
    attack), either (dodge or deflect as needed) or any (equipment)."""

    value: int
    against: str
    speed: int = 1


DEFENCES: dict[str, Defence] = {
    "block": Defence(1, "block"), "deflect": Defence(1, "deflect"), "dodge": Defence(1, "dodge"),
    "arm": Defence(1, "deflect"), "leg": Defence(1, "deflect"), "shell": Defence(1, "deflect"),
    "eye": Defence(1, "either"), "wings": Defence(2, "either"),
    "buckler": Defence(1, "any", speed=2), "shield": Defence(2, "any"),
    "staff": Defence(1, "any", speed=3),
}

# Which defences may meet which class of attack. The book: stun attacks only by dodge, wound
# only by deflect, block not against ray or sweep, dodge only against ray or sweep.
STOPS: dict[str, frozenset[str]] = {
    "stun": frozenset({"dodge", "either", "any"}),
    "wound": frozenset({"deflect", "either", "any"}),
    "ray": frozenset({"dodge", "deflect", "either", "any"}),
    "plain": frozenset({"block", "deflect", "either", "any"}),
}

ATTACK_SUPPLEMENTS = frozenset({"brain", "lungs", "thagomizer", "stinger", "plus"})
DEFENCE_SUPPLEMENTS = frozenset({"lungs"})  # RELEVANT_SUPPLEMENTAL
MINUSES = {"minus": 1, "bellows": 2}  # "Bellows (auxiliary) provide 2 minuses"
# BODY_PART_ATTACKS: thagomizer and stinger need an attack die that is a body part.
BODY_PART_ATTACKS = frozenset(f for f in ATTACKS if f in BODY_PARTS)

WEAPONS = frozenset({"axe", "dart", "mace", "scythe", "sword", "trident", "whip"})
DEFENCE_EQUIPMENT = frozenset({"buckler", "shield"})
AUXILIARY = frozenset({"bellows", "potion", "staff", "wand"})
CATEGORIES: dict[str, frozenset[str]] = {"weapon": WEAPONS, "defence": DEFENCE_EQUIPMENT,
                                         "auxiliary": AUXILIARY}
assert frozenset(EQUIPMENT) == WEAPONS | DEFENCE_EQUIPMENT | AUXILIARY

KINDS = ("bloodborne", "decay", "demonic", "disease", "frozen", "flame", "pain", "void")

ASSUMPTIONS: dict[str, str] = {
    "SPECIAL_ATTACKS_ARE_POSTURES": "The two special attack types are the Stun and Wound "
                                    "postures: a Stun attack is stopped only by dodge (Dodge, "
                                    "Eye, Wings, equipment), a Wound attack only by deflect; "
                                    "body parts and weapons are plain attacks.",
    "TARGETED_EQUIPMENT": "Targeted attacks are the weapons whose text says 'to the target' "
                          "(Axe, Dart, Mace, Staff, Sword, Trident, Wand, Whip): their attacker "
                          "picks the dice hurt; otherwise the defender does.",
    "RELEVANT_SUPPLEMENTAL": "The only supplemental relevant to a defence is Lungs; Brain, "
                             "Thagomizer and Stinger supplement attacks only.",
    "BODY_PART_ATTACKS": "Thagomizer and Stinger supplement an attack die that is a body part "
                         "(Arm, Leg, Mouth, Claw, Tail, Tentacle), not a posture or weapon.",
    "MINUS_WITHOUT_DEFENCE_DIE": "A defender may answer with Minus dice alone, without a defence "
                                 "die; each Minus takes one point off the attack and adds 1 to "
                                 "the defence's speed.",
    "ATTACK_SPEED_IS_THE_DIE": "An attack's speed is its attack die's (1 unless equipment); a "
                               "defence's is the sum of its dice's, each 1 unless equipment.",
    "PLUS_ADDS_ITS_DIE_KIND": "A Plus adds one point of what the attack die mostly does (stun "
                              "for a Trident); it cannot add to a Tentacle's grab.",
    "DEFENCE_STOPS_WOUNDS_FIRST": "Points stopped by a defence come off the wound damage first, "
                                  "then the stun damage.",
    "SUCCESS_IS_DAMAGE": "An attack is successful (Brain) and not successfully defended (Stinger, "
                         "Dart) when any of its damage, or its grab, gets through.",
    "DAMAGE_POINT_BY_POINT": "Each point that gets through is placed on one die: stun damage "
                             "stuns a pool die or wounds a stunned die (health -1); wound damage "
                             "wounds a pool or stunned die (health -2). With no die left to "
                             "place it on, the health is lost all the same.",
    "SPENT_FOR_THE_TURN": "A die used in an attack or defence is spent until its owner rolls "
                          "again (their turn, or being attacked); spent dice stay in the pool "
                          "and can be stunned.",
    "HEAL_OPTION": "Healing spends the acting player's unspent Plus dice after the attack: each "
                   "raises health by one up to the maximum, or removes one stun effect (the "
                   "die back in the pool); with the heal option 'health-and-stun' each does "
                   "both.",
    "UNSTUN_HEALS": "Removing a stun effect gives back the point of health the stun took ('If "
                    "a player receives stun damage, their health is reduced by one'), up to "
                    "the maximum: a Plus in battle, Bloodborne and Invasion's Plus agree.",
    "MEND_RESTORES_HEALTH": "A Potion or Wand used after the attack returns a die to the pool "
                            "with the health it cost (1 stunned, 2 wounded), up to the maximum.",
    "LUNGS_REROLL": "A defender's Lungs makes the attacker reroll the attack die; an attacker's "
                    "Lungs makes the defender reroll the defence die (Minus and Lungs are not "
                    "rerolled); a new face that still attacks or defends counts, else the die is "
                    "spent for nothing.",
    "GRAPPLE_RELEASE": "A Tentacle's grab holds both dice until the grappler's next turn starts "
                       "(its pool is rolled again, Tentacle included), or the option says until "
                       "the grappler leaves; the grabbed die comes back spent.",
    "GRAB_IS_ONE_POINT": "A Tentacle's grab is one point for defences to stop; plain defences "
                         "stop it.",
    "BRAIN_BEFORE_COUNTER": "A successful attack with a Brain lets its attacker make another "
                            "attack at once, before the counterattack.",
    "DISENGAGE_ASKS_BOTH": "After the counterattack the attacker, then the defender, say whether "
                           "to continue; either may disengage; when neither has an attack die "
                           "left unspent the combat ends by itself.",
    "INITIATIVE_TIES": "Players tied on initiative roll again among themselves, as often as it "
                       "takes; the others keep their places.",
    "MAIN_SYMBOL": "A die's main symbol is its body part or equipment face; complete "
                   "construction counts dice by it and refuses a die with none or two.",
    "EQUIPMENT_BY_DIE": "The equipment limits count dice: a die carrying a weapon face is one "
                        "weapon (Staff and Wand are auxiliary).",
    "PRESET_DICE": "A monster given no dice is the preset: one die per body part (two Arms, "
                   "Legs and Eyes), each with its part and five postures in turn; declare your "
                   "real dice instead.",
    "KINDS_DECLARED": "Each player names their kind (and a secondary after a '+'); the book's "
                      "'highest kind' is left to the players.",
    "KINDS_MAY_CHOOSE": "The powers a monster 'may' use are choices: once a defence is made, "
                        "the attacker's Void, the defender's Void and Frozen, then the "
                        "attacker's Flame are each offered, when they would change what gets "
                        "through, to use for a token or keep. Disease ('For every point of "
                        "wounds received') and Bloodborne ('Whenever a bloodborne monster "
                        "wounds a die') say no 'may' and fire by themselves.",
    "DECAY_BEFORE_STRIKING": "A Decay monster uses its power when it is about to strike: one of "
                             "the foe's stunned dice becomes wounded (health -1), then it still "
                             "strikes.",
    "RAY_IS_STUN": "A Demonic Eye's two points of ray damage are stun damage.",
    "SCORE_IS_HEALTH": "A player's score is their health; the Arena's payouts and the Society's "
                       "ranking points are shown beside it.",
    "EVEN_SPLIT_BY_BETTOR": "The Arena's 'evenly distributed' is the same share for each person "
                            "who bet on the winner, whatever their stake (the split option "
                            "shares by stake instead); one who bet twice counts once.",
    "SOCIETY_TIES": "The Society gives a tie points only in Invasion; a shared win elsewhere "
                    "scores nothing.",
    "WARGAME_CORNERS": "In the Wargame the first player's token starts on square 1 (top left), "
                       "then square 16, 4 and 13, down the turn order.",
    "WARGAME_MOVE": "A Wargame move goes exactly the rolled number of squares ('Roll the die "
                    "and move that many spaces') along rows and columns, never diagonally and "
                    "never into a square twice in one move; a roll that cannot be walked so "
                    "ends the turn. The move option 'up-to' is the house rule of one to that "
                    "many squares.",
    "WARGAME_ROUNDS": "A Wargame fight is the acting player's whole turn: both roll, then three "
                      "rounds of an attack and a counterattack, no disengaging, no healing; it "
                      "ends early when neither can attack.",
    "WARGAME_TIES_ROLL": "With every card up, the highest tally among the monsters still in "
                         "wins; tied players each roll the die, the highest wins, ties roll "
                         "again.",
    "WARGAME_CARDS_TYPED": "A flipped card is typed by the player from those that can still be "
                           "face down; the table never sees it.",
    "INVASION_PILES": "Invasion deals two cards a pile for up to four players and two more a "
                      "pile for each further four (quick game: one); cards are typed as they "
                      "are turned up.",
    "INVASION_MOVE": "An Invasion move goes to a section beside along a row or column; a pawn "
                     "off the grid (at the start, or back from exhaustion) enters any section.",
    "INVASION_PAYS_PLUS_FIRST": "The die paying for a move or an attack is a Plus where there "
                                "is one (the pool before the bank), else a Minus, keeping Minus "
                                "for feasting.",
    "INVASION_UNSTUN_TO_BAG": "A stun removed with a Plus puts the die back in the bag and "
                              "gives back its point of health.",
    "INVASION_EMPTY_BAG": "A monster with no die in its bag draws nothing; with a Plus or "
                          "Minus in its bank its turn goes on from the bank (steps 2 and 3 "
                          "spend a die 'from either your bank or your dice pool').",
    "INVASION_OUT_OF_DICE": "A monster with nothing to draw and nothing in its bank to spend "
                            "has run out of dice: 'the player loses 1 turn', and its stunned "
                            "dice go back to the bag with their health so it can play on (the "
                            "book's 'Running Out of Dice' section is missing from the text).",
    "FACE_CARDS_FEAST": "The Minus a card lets feast are its face value (Aces 1, Jacks 11, "
                        "Queens 12, Kings 13); each takes the pile's top card, face-down ones "
                        "typed as they are taken.",
    "INVASION_FEAST_FACE_UP": "A monster arriving alone where the top card already lies face up "
                              "may feast at it as if it had turned it.",
    "INVASION_POOL_BACK_TO_BAG": "At the end of a turn the pool's dice go back in the bag; after "
                                 "a battle the spent dice and the defender's pool do; the "
                                 "defender draws and rolls up to five from its bag.",
    "INVASION_RETURN_FULL_HEALTH": "An exhausted monster comes back at full health, every die "
                                   "back in its bag, off the grid.",
    "INVASION_TIES_SHARE": "Equal highest points at the end of Invasion share the win.",
    "ARENA_BETS_AT_START": "Arena bets are placed with the game (the bets option), before play "
                           "begins, as the book says.",
    "ARENA_RAISES": "Once play begins a bettor may only add tokens to a bet they placed ('raise "
                    "Dora: Ann 3', typed at any player's step); the kitty and the payout count "
                    "them. Who holds how many tokens is not tracked.",
}


OPTIONS_SCHEMA: Schema = [
    {"name": "size", "type": "int", "default": MIN_SIZE, "min": MIN_SIZE, "max": 64,
     "help": "How many dice every monster has (at least 16, the same for all)."},
    {"name": "monsters", "type": "str", "default": "",
     "help": "Each player's dice in seat order, players apart by '|' (or a line '---'), dice "
             "by ';' (or a new line), each die its faces ('claw block dodge plus minus wound; "
             "2x arm deflect block; ...' with 2x for two alike), or the word 'preset'. Empty: "
             "everyone plays the preset."},
    {"name": "kinds", "type": "str", "default": "",
     "help": "Each player's kind in seat order, apart by ',' ('flame+void, none, pain': "
             "after a '+' the secondary kind). Empty: the kinds rules are not used."},
    {"name": "equipment", "type": "bool", "default": True,
     "help": "Equipment faces may be used (one of each category per 16 points)."},
    {"name": "complete", "type": "bool", "default": False,
     "help": "Complete monster construction: one die of each body part (two Arms, Legs, "
             "Eyes), at most two equipment."},
    {"name": "heal", "type": "choice", "default": "health", "choices": ["health",
                                                                       "health-and-stun"],
     "help": "A Plus spent healing raises health only, or also returns a stunned die."},
    {"name": "grapple", "type": "choice", "default": "next-turn",
     "choices": ["next-turn", "until-gone"],
     "help": "A Tentacle's grab lasts until the grappler's next turn, or until the grappler "
             "leaves the game."},
    {"name": "scenario", "type": "choice", "default": "battle",
     "choices": ["battle", "wargame", "invasion"],
     "help": "The Battle System alone (the Arena with bets), the Wargame on a 4x4 grid of "
             "playing cards (2-4 players), or Invasion on a 3x4 grid of card piles."},
    {"name": "move", "type": "choice", "default": "exact", "choices": ["exact", "up-to"],
     "help": "The Wargame: the die's number of squares exactly (the book), or one up to it."},
    {"name": "quick", "type": "bool", "default": False,
     "help": "Invasion's quick game: one card a pile."},
    {"name": "bets", "type": "str", "default": "",
     "help": "The Arena: bets apart by ';', each 'BETTOR: PLAYER TOKENS' ('Dora: Ann 5; Eve: "
             "Bob 3'). Empty: no bets."},
    {"name": "split", "type": "choice", "default": "even", "choices": ["even", "by-stake"],
     "help": "The Arena: what is left after the winner's quarter is shared evenly by those "
             "who bet on the winner, or in proportion to their stakes."},
]


@schema_options(OPTIONS_SCHEMA)
class Options(SchemaOptions):
    size: int = MIN_SIZE
    monsters: str = ""
    kinds: str = ""
    equipment: bool = True
    complete: bool = False
    heal: str = "health"
    grapple: str = "next-turn"
    scenario: str = "battle"
    move: str = "exact"
    quick: bool = False
    bets: str = ""
    split: str = "even"

def tokens_for(size: int) -> int:
    """Kind tokens, and equipment of each category allowed: one per 16 points or part of it."""
    return -(-size // POINTS_PER_TOKEN)
