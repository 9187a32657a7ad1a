"""Players' names as typed on a phone: plain visible text, none a look-alike of another.

A name is shown on every phone, written to exports and read aloud at the table, so it may not
hide characters (NUL, line breaks, zero-width or direction-changing ones), and two names may not
look the same: "Ann" and "Аnn" (a Cyrillic А) would let one player pass for the other.
"""

from __future__ import annotations

import unicodedata
from typing import Any

MAX_NAME = 40
# Control, format (zero-width, direction overrides), private, surrogate, unassigned, line breaks.
HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
# Letters of other scripts drawn like Latin ones (after case folding), and digits like letters.
LOOKALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "ӏ": "l", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ɡ": "g", "ı": "i",
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s",
})


class BadName(ValueError):
    """A player's name the table will not take (the web layer answers 400)."""


def lookalike_key(name: str) -> str:
    """What a name looks like: compatibility forms, accents, case and look-alike letters
    folded away, spaces ignored; two names with the same key are too alike to tell apart."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c) and not c.isspace())
    return unicodedata.normalize("NFKC", bare).casefold().translate(LOOKALIKE)


def check_name(raw: Any) -> str:
    """The name to keep (trimmed, NFC), or BadName saying what is wrong with it."""
    if not isinstance(raw, str):
        raise BadName("every player needs a name")
    name = unicodedata.normalize("NFC", raw.strip())
    hidden = [c for c in name if unicodedata.category(c) in HIDDEN]
    if hidden:
        shown = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(hidden))
        raise BadName(f"a player's name holds characters that do not show ({shown})")
    if not any(c.isalnum() or unicodedata.category(c).startswith(("P", "S")) for c in name):
        raise BadName("every player needs a name")
    if len(name) > MAX_NAME:
        raise BadName(f"a player's name is at most {MAX_NAME} characters")
    return name


def player_names(players: Any) -> list[str]:
    """The names of a new game's players, checked one by one and against each other."""
    if not isinstance(players, list | tuple) or not players:
        raise BadName("players must be a non-empty list of names")
    names = [check_name(p) for p in players]
    seen: dict[str, str] = {}
    for name in names:
        key = lookalike_key(name)
        if key in seen:
            same = "the same name" if seen[key].casefold() == name.casefold() else "look-alike names"
            raise BadName(f"two players have {same}: {seen[key]!r} and {name!r}")
        seen[key] = name
    return names
