"""Fantahzee's fixed numbers, its house rules as options, and the readings we chose.

Where the book (shared/seeds/001_a7e4a81d51491a7c.txt) is silent or garbled there is a named
assumption here, one line each, cited in a comment beside the code that depends on it; where
players could reasonably disagree it is an option.
"""

from __future__ import annotations

from ...options import Schema, SchemaOptions, schema_options

DICE = 5  # "Take five dice and roll them"
REROLLS = 2  # "You now get two rerolls"
RECRUITS = 2  # "recruit up to 2 heroes"
ACTIONS = 2  # "play up to 2 action cards"
PARTY = 5  # "You can only have up to five heroes in your party"
HAND = 5  # "Each player draws a hand of 5 cards"; the End Phase discards down to five
DRAW = 4  # "Draw four cards from the hero deck"
STACKS = 5  # five horde stacks, one Boss Monster each
DOOM = 3  # the game ends after the third Boss Monster falls

ASSUMPTIONS: dict[str, str] = {
    "BOOK_GAPS": "The book states only some numbers of its example cards; the rest are guessed "
                 "and each guessed field is named in the card's text.",
    "CARDS_ENTERED_AS_SEEN": "The table never sees a card: each card drawn or flipped is entered "
                             "by the player, from the cards that can still be in that deck.",
    "FIRST_PLAYER_ROLL": "Each player in turn rolls one die for the first player (one at a "
                         "time, so the camera knows whose it is); the highest goes first and "
                         "tied highest players roll again.",
    "STACKS_DEALT_FROM_THE_LEFT": "Monsters are dealt one a stack from the leftmost stack; the "
                                  "rightmost stack is the vanguard.",
    "NEW_DICE_ROLL_AT_NEXT_REROLL": "Dice gained during the Roll Step are rolled with the next "
                                    "reroll; with no reroll left they are not rolled.",
    "DICE_BY_FACE": "Dice showing the same number are interchangeable: a move names faces, not "
                    "which die.",
    "CUT_X_OR_KIND": "A 'reduce an X cost' ability takes one die off an any-number cost, else "
                     "off an N-of-a-kind cost (the Paladin's four of a kind becomes three), never "
                     "off a specific number; one use per ability.",
    "STEAM_ONE_SOURCE": "Each card's steam pays one hero whole and what is left of it is lost, "
                        "unless the steam option pools sources for one hero: then the fewest "
                        "sources that add up to the cost with least left over are spent, the "
                        "rest kept for other heroes.",
    "WAKE_ONCE": "'Activate a hero of equal or lower strength' activates one other hero of the "
                 "party without dice, once per use.",
    "BANISH_FACE_UP": "'Put a monster of strength N or less in your victory pile' takes a face-"
                      "up top monster before the party is locked into a stack; it clears the "
                      "stack for a flip and gives no counterattack and no treasure.",
    "FLIP_FORCED_FIGHT": "A flipped monster the party can defeat is defeated at once; one it "
                         "cannot defeat stays face up and ends the Attack Step.",
    "DOOM_ON_DEFEAT": "A doom token turns when the Boss Monster is defeated or put in a victory "
                      "pile.",
    "TREASURE_DECK_OUT": "With the treasure deck empty, no treasure is drawn; discarded "
                         "treasures are not reshuffled.",
    "LOST_HERO_TO_DISCARD": "A hero lost to damage goes to the hero discard pile; its treasure "
                            "goes back to the box.",
    "HAND_LIMIT_DISCARD": "Cards discarded down to the hand limit go to the hero discard pile.",
    "HAND_LIMIT_EFFECTS": "An effect that raises a player's maximum hand size ('unless you "
                          "have an effect that increases your maximum hand size') is typed as "
                          "'adjust hand +N' and lasts until typed back with 'adjust hand -N'.",
    "NO_CARDS_NO_DRAW": "When the hero deck and the discard pile are both empty, no more cards "
                        "are drawn.",
    "SCORE_IS_XP": "A player's score is XP from monsters, minus destroyed town cards, plus "
                   "adjustments typed on the panel; it may fall below zero.",
    "MANUAL_ADJUSTMENTS": "An ability the engine cannot apply is resolved by the players and "
                          "typed as 'adjust WHAT +N' (xp, strength, shield, dice, rolls, steam, "
                          "hand); "
                          "the history keeps it.",
    "STACK_REMOVED_WHEN_EMPTY": "A horde stack whose last card leaves is removed at once and "
                                "the stacks to its left move up; the rightmost is the vanguard.",
}

OPTIONS_SCHEMA: Schema = [
    {"name": "cards", "type": "str", "default": "",
     "help": "The table's cards as JSON (the table fills this from the cards entered on the "
             "Cards page); empty: the placeholder deck with the book's cards."},
    {"name": "steam", "type": "choice", "default": "one-source", "choices": ["one-source",
                                                                             "pooled"],
     "help": "Steam pays a hero from one card's steam (what is left is lost), or several "
             "cards' steam may add up for one hero."},
    {"name": "cut", "type": "choice", "default": "x-or-kind", "choices": ["x-or-kind", "x-only"],
     "help": "A 'reduce an X cost' ability also shortens an N-of-a-kind cost, or only any-number "
             "costs."},
]


@schema_options(OPTIONS_SCHEMA)
class Options(SchemaOptions):
    """The table's cards and the house rules; `SCHEMA` is what the panel offers."""

    cards: str = ""
    steam: str = "one-source"
    cut: str = "x-or-kind"

    def check(self) -> None:
        SchemaOptions.check(self)  # zero-argument super() fails in a slots dataclass
        from .cards import CardError, card_set_from_text

        cards = card_set_from_text(self.cards)
        bosses = sum(m.copies for m in cards.monsters.values() if m.boss)
        if bosses != STACKS:
            raise CardError(f"the horde needs {STACKS} Boss Monsters, the cards have {bosses}")
        if not cards.heroes:
            raise CardError("the cards have no heroes")
