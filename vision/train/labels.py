"""The classifier's label sets, shared by the renderer, the training and the model card.

Values are in game convention: a d10's 0 face counts 10 and a d%'s 00 face counts 100, so the
classifier never needs a second mapping step.
"""

from __future__ import annotations

KINDS: tuple[str, ...] = ("d4", "d6", "d8", "d10", "d%", "d12", "d20")

FACE_VALUES: dict[str, tuple[int, ...]] = {
    "d4": (1, 2, 3, 4),
    "d6": (1, 2, 3, 4, 5, 6),
    "d8": tuple(range(1, 9)),
    "d10": tuple(range(1, 11)),
    "d%": tuple(range(10, 101, 10)),
    "d12": tuple(range(1, 13)),
    "d20": tuple(range(1, 21)),
}

VALUE_LABELS: tuple[str, ...] = tuple(f"{k}:{v}" for k in KINDS for v in FACE_VALUES[k])

STATES: tuple[str, ...] = ("flat", "cocked", "empty")  # a face is up; cocked; no die


def value_label(kind: str, value: int) -> str:
    """The joint label "kind:value"; raises for a value the die does not have."""
    if value not in FACE_VALUES[kind]:
        raise ValueError(f"{kind} has no face {value}")
    return f"{kind}:{value}"


def face_text(kind: str, value: int) -> str:
    """What is printed on the face that counts `value` (d10 10 is "0", d% 100 is "00")."""
    if kind == "d10":
        return "0" if value == 10 else str(value)
    if kind == "d%":
        return "00" if value == 100 else str(value)
    return str(value)
