"""The tray in a player's words: why a die is unsure said in one short line, a die of a kind the
roll does not want named with the kind it wants, and the faces a die of this roll can show.

The reader (vision/) explains its doubts in its own terms ("numeral not clear", "d12 values by
the classifier alone are checked (sure ones 61% right on a rig it never saw)"): right for a
developer, noise to a player. The phones get these plain words; the reader's own stay behind a
"why?" toggle.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from typing import Any

JSON = dict[str, Any]

NOT_SURE = "the camera is not sure of this one"
# (a fragment of the reader's reason, what a player is told); the first that matches wins, and
# a reason none matches is NOT_SURE: whatever the reader says, the player checks the die.
PLAIN_REASONS = (
    ("frame edge", "half of it is outside the tray"),
    ("cocked", "it may be leaning"),
    ("numeral not seen", "it may be leaning"),
    ("no die", "there may be no die here"),
    ("found only faintly", "there may be no die here"),
    ("not among the expected dice", "the roll did not ask for this die"),
)
UNSURE_PREFIX = "unsure: "  # how the table starts its summary of a reading's unsure dice


def plain_reason(raw: str) -> str:
    """One reason of the reader's, as a player is told it."""
    return next((plain for fragment, plain in PLAIN_REASONS if fragment in raw), NOT_SURE)


def plural(kind: str) -> str:
    return kind if kind.endswith("s") else f"{kind}s"


def wanted_kind(die: JSON, wanted: list[str], kinds_read: Counter[str]) -> str | None:
    """The kind this die should be when the roll wants none of its kind: the first kind the roll
    wants more of than the tray shows (else the first it wants); None when its kind is wanted."""
    if not wanted or die["die"] in wanted or die.get("dropped"):
        return None
    short = [k for k, n in Counter(wanted).items() if kinds_read[k] < n]
    return (short or wanted)[0]


def die_words(die: JSON, wants: str | None, wanted: list[str]) -> str:
    """A die's one short line ("" for a die nothing is wrong with)."""
    if wants:
        kinds = " and ".join(plural(k) for k in dict.fromkeys(wanted))
        return f"it looks like a {die['die']}, the roll wants {kinds}"
    if not die.get("unsure"):
        return ""
    reasons = str(die.get("why_unsure", "")).split("; ")
    return plain_reason(reasons[0])


def die_details(die: JSON) -> str:
    """What the reader said of a die, for the "why?" toggle."""
    if not die.get("unsure"):
        return ""
    return f"read {die['die']} {die['value']} at {round(100 * die['confidence'])}% confidence: " \
           f"{die.get('why_unsure') or 'low confidence'}"


CHECK = "Check the dice marked ?: tap one to put it right."


def problem_words(dice: list[JSON]) -> str:
    """Why the reading waits, short: each die of a kind the roll does not want named (its fix is
    one tap), else a word to check the dice marked unsure (each chip says why)."""
    kinds = [f"Die {i + 1} {d['say'].removeprefix('it ')}." for i, d in enumerate(dice)
             if d["wants"]]
    return " ".join(kinds) or (CHECK if any(d["say"] for d in dice) else "")


def plain_reading(reading: JSON, roll_wanted: JSON | None) -> JSON:
    """The reading with each die's line (`say`), its details (`why`), the kind it should be
    (`wants`), and the faces a die of each kind can show in this roll."""
    wanted = list(roll_wanted["dice"]) if roll_wanted else []
    read = Counter(d["die"] for d in reading["dice"] if not d.get("dropped"))
    dice = []
    for d in reading["dice"]:
        wants = wanted_kind(d, wanted, read) if reading["pending"] else None
        dice.append({**d, "wants": wants, "say": die_words(d, wants, wanted),
                     "why": die_details(d)})
    raw = reading["problem"]
    said = problem_words(dice)
    if raw.startswith(UNSURE_PREFIX):  # the table's summary in the reader's words
        problem = said
    else:  # a roll that does not fit (the game's words): kept, after the dice to look at
        problem = " ".join(p for p in (said, raw[:1].upper() + raw[1:]) if p)
    return {**reading, "dice": dice, "problem": problem, "details": raw,
            "kinds": rolled_faces(reading["kinds"], roll_wanted)}


def rolled_faces(kinds: dict[str, list[Any]], roll_wanted: JSON | None) -> dict[str, list[Any]]:
    """Each kind's faces, narrowed, where the roll says which faces its dice carry (a Monsters!
    die carries a few of the game's 33), to the faces of the dice this roll throws."""
    if not roll_wanted or not roll_wanted.get("faces"):
        return kinds
    thrown: dict[str, dict[Any, None]] = {}
    for kind, faces in zip(roll_wanted["dice"], roll_wanted["faces"], strict=True):
        thrown.setdefault(kind, {}).update(dict.fromkeys(faces))
    return {k: [f for f in faces if f in thrown[k]] if k in thrown else faces
            for k, faces in kinds.items()}


def for_players(snapshot: JSON) -> JSON:
    """The snapshot as the phones show it (the table's own is left as it is)."""
    reading = snapshot.get("reading")
    if not reading:
        return snapshot
    return {**snapshot, "reading": plain_reading(reading, snapshot.get("roll_wanted"))}


@lru_cache(maxsize=4)
def players_text(text: str) -> str:
    """for_players over a snapshot's JSON text: once per version, as every phone's stream sends
    the same text (the table serializes it once; its hash is kept with it)."""
    return json.dumps(for_players(json.loads(text)))
