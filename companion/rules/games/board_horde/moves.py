"""The player's moves: a verb and at most one object, with one text form each.

    go | potion mage               start of a turn with a stored potion: roll, or use it first
    move rogue | enter warrior     use the movement roll (enter: out of the Spawning Portal)
    pass                           no hero can use the roll
    claim | keep                   a Rogue's disarmed Trap
    tame | keep                    a Warrior's defeated Monster
    collect | drink                a Mage on a Potion
    switch red-mage | switch m2    Switcheroo: a foe ahead to change places with
    flick red-mage | flick m2      Flick A Foe
    take shield                    one item of a stack
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import Move
from ...errors import BadMoveText

VERBS_WITH_OBJECT = frozenset({"potion", "move", "enter", "switch", "flick", "take"})
VERBS_ALONE = frozenset({"go", "pass", "claim", "keep", "tame", "collect", "drink"})


@dataclass(frozen=True, slots=True)
class Act(Move):
    """One choice: `verb` and, for moves that name a hero, foe or item, its `target`."""

    verb: str
    target: str | None = None

    def text(self) -> str:
        return f"{self.verb} {self.target}" if self.target else self.verb


def parse_move(text: str) -> Act:
    words = text.split()
    if not words:
        raise BadMoveText("an empty move")
    verb, rest = words[0].lower(), [w.lower() for w in words[1:]]
    if verb in VERBS_ALONE and not rest:
        return Act(verb)
    if verb in VERBS_WITH_OBJECT and len(rest) == 1:
        return Act(verb, rest[0])
    known = ", ".join(sorted(VERBS_ALONE | {f"{v} X" for v in VERBS_WITH_OBJECT}))
    raise BadMoveText(f"{text!r} is not a Board Horde move ({known})")
