"""The player's moves: a verb and its words, one text form each.

    card ID                        the card drawn or flipped (the panel asks for it)
    recruit ID | recruit ID over KEY | play ID | dice         Action Phase (dice: roll them)
    activate KEY with 3 3 3 | activate KEY steam | activate KEY free     Roll Step
    reroll 6 4 1 | reroll (only the new dice) | attack
    fight N | flip N | banish N | stop                        Attack Step (N: stack, 1 leftmost)
    lose KEY                       damage: the hero discarded
    attach KEY | discard           a treasure drawn
    discard ID                     down to the hand limit
    adjust xp|strength|shield|dice|rolls|steam|hand +N       by hand (MANUAL_ADJUSTMENTS)

KEY names a hero of the party: its card id, 'sergeant-2' for a second Sergeant.
"""

from __future__ import annotations

from ...errors import BadMoveText
from ...verbs import VerbMove, split_verb

VERBS = frozenset({"card", "recruit", "play", "dice", "activate", "reroll", "attack", "fight",
                   "flip", "banish", "stop", "lose", "attach", "discard", "adjust"})
ADJUSTABLE = ("xp", "strength", "shield", "dice", "rolls", "steam", "hand")


class Act(VerbMove):
    """A Fantahzee move."""

    __slots__ = ()


act = Act.of


def parse_move(text: str) -> Act:
    verb, rest = split_verb(text, VERBS, "Fantahzee")
    args = tuple(w.lower() for w in rest)
    if verb == "adjust":
        if len(args) != 2 or args[0] not in ADJUSTABLE or not _signed(args[1]):
            raise BadMoveText(f"write 'adjust {'|'.join(ADJUSTABLE)} +N', not {text!r}")
        args = (args[0], f"{int(args[1]):+d}")
    return Act(verb, args)


def _signed(word: str) -> bool:
    return word.lstrip("+-").isdigit()
