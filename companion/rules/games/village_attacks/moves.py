"""The table's moves: a verb and its words, one text form each.

    keep | discard                      the Reserve kept, or discarded and rolled (before rolling)
    reroll FACE | accept                the reroll rule, or keep the roll
    advance ZONE KIND DEST              a Villager result: which Villager steps nearer the Heart
    move ZONE FACE | melee KIND [miss] | ranged ZONE KIND [miss] | guard FACE | reserve FACE
    ability ID | trap ID | objective ID | heal damage|STATUS | end           spending the dice
    slay ZONE KIND | stun ZONE KIND | afflict SEAT STATUS | mark ZONE CONDITION | done
                                        what an ability or an event did (by hand)
    heave ZONE KIND DEST                a Heave, typed at any step a player answers (by hand)
    learn ID | mend damage|STATUS       a level-up
    event ID                            the Village Event card drawn
    hit heart | hit SEAT [block] [retaliate] | miss              a Villager's attack
    path ZONE KIND DEST                 a coin flip where the path splits
    spring ZONE                         a Trap triggered
    spawn PEASANTS HUNTERS | spawn hero | type TYPE | hero ID     the spawn card drawn
    deal ID                             the Trap card dealt onto the Game Overview tile

KIND names Villagers: peasant, hunter:TYPE, hunter:seasoned, hero:ID.
"""

from __future__ import annotations

from ...verbs import VerbMove, split_verb

VERBS = frozenset({"keep", "discard", "reroll", "accept", "advance", "move", "melee", "ranged",
                   "guard", "reserve", "ability", "trap", "objective", "heal", "end", "slay",
                   "afflict", "mark", "learn", "mend", "event", "hit", "miss", "path", "spring",
                   "spawn", "type", "hero", "deal", "done", "stun", "heave"})


class Act(VerbMove):
    """A Village Attacks move."""

    __slots__ = ()


act = Act.of


def parse_move(text: str) -> Act:
    verb, rest = split_verb(text, VERBS, "Village Attacks")
    # A face keeps its capital (Melee), as the die's faces are named; other words are lower case.
    face_at = FACE_ARG.get(verb)
    args = tuple(w.capitalize() if i == face_at else w.lower() for i, w in enumerate(rest))
    return Act(verb, args)


FACE_ARG = {"reroll": 0, "move": 1, "guard": 0, "reserve": 0}  # which word names a face
