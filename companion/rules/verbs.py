"""Moves that are a verb and its words ("recruit knight over sergeant-2", "move hall 2 Melee"),
with one text form each: the move value and the verb check that games of this shape share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from .core import Move
from .errors import BadMoveText


@dataclass(frozen=True, slots=True)
class VerbMove(Move):
    """One choice: `verb` and its words (`args`), as typed. A game subclasses it (with
    `__slots__ = ()`) so that its moves are a type of their own, which another game's state
    refuses."""

    verb: str
    args: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join((self.verb, *self.args))

    @classmethod
    def of(cls, verb: str, *args: object) -> Self:
        """The move with each of `args` as its word ('fight', 2 -> 'fight 2')."""
        return cls(verb, tuple(str(a) for a in args))


def split_verb(text: str, verbs: frozenset[str], game: str) -> tuple[str, list[str]]:
    """The verb of a typed move, lower case, and the words after it as typed; BadMoveText naming
    `game` and its verbs when the first word is none of them."""
    words = text.split()
    if not words or words[0].lower() not in verbs:
        raise BadMoveText(f"{text!r} is not a {game} move ({', '.join(sorted(verbs))})")
    return words[0].lower(), words[1:]
