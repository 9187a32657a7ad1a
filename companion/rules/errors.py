"""One root error type for the rules engine.

Every subclass also inherits the matching built-in, so callers that only know Python
(`except ValueError`) still catch an illegal move, and the web layer can map them to 400/409.
"""


class RulesError(Exception):
    """Root of every error the rules engine raises on purpose."""


class IllegalMove(RulesError, ValueError):
    """A move (or roll) the rules do not allow now; the message names the rule broken."""


class BadRoll(IllegalMove):
    """A roll that does not fit the roll wanted: wrong count, wrong kind, impossible face."""


class BadMoveText(RulesError, ValueError):
    """Move or roll text that cannot be parsed at all."""


class UnknownGame(RulesError, KeyError):
    """A game name that is not in the registry (lookups raise, never guess)."""

    def __str__(self) -> str:  # KeyError quotes its argument; a person should read plain text
        return str(self.args[0]) if self.args else "unknown game"


class NothingToUndo(RulesError, IndexError):
    """`undo()` at the start of a game."""
