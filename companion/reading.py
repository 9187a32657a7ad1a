"""What the camera hands the table: plain values, no vision code.

The reader (vision/) produces a TrayReading; the table session turns its dice into a Roll for
the game. Unsure dice are kept and flagged so that a player confirms or corrects them: the table
never silently guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

REASON_SEPARATOR = "; "  # between the reasons a die's why_unsure holds


class UnreadableRoll(ValueError):
    """A roll this camera cannot read at all (the demo's has no drawing of a symbol die): the
    players type it instead; nothing is broken."""


def join_reasons(*reasons: str) -> str:
    """Reasons not to trust a die as why_unsure holds them: in order, blanks and repeats dropped."""
    return REASON_SEPARATOR.join(dict.fromkeys(r for r in reasons if r))


@dataclass(frozen=True)
class DieReading:
    """One die seen in the tray."""

    die: str  # d4 d6 d8 d10 d% d12 d20, or a custom die's name
    value: int | str  # game convention: a d10 "0" is 10, a d% "00" is 100; a face name for symbols
    confidence: float  # 0..1
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels of the original frame
    unsure: bool = False
    why_unsure: str = ""  # "low confidence", "cocked", "cut by the frame edge", ...
    # the value was settled by what its face shows (its numeral read by the text recognizer, or
    # its pips counted), not by the classifier alone, whose card may ask every reading of a kind
    # to be checked; the reader's own note while it reads a frame, not kept in JSON and not part
    # of what a reading is
    settled: bool = field(default=False, compare=False)

    @property
    def reasons(self) -> list[str]:
        """The separate reasons in why_unsure (none for a die that can be trusted)."""
        return self.why_unsure.split(REASON_SEPARATOR) if self.why_unsure else []

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "die": self.die,
            "value": self.value,
            "confidence": round(float(self.confidence), 4),
            "box": [int(v) for v in self.box],
        }
        if self.unsure:
            out["unsure"] = True
            out["why_unsure"] = self.why_unsure
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DieReading:
        return cls(
            die=str(data["die"]),
            value=data["value"],
            confidence=float(data.get("confidence", 1.0)),
            box=tuple(int(v) for v in data.get("box", (0, 0, 0, 0))),  # type: ignore[arg-type]
            unsure=bool(data.get("unsure", False)),
            why_unsure=str(data.get("why_unsure", "")),
        )


@dataclass(frozen=True)
class TrayReading:
    """A settled reading of the whole tray, with a small JPEG of it for the history.

    `crops` holds, die by die, a JPEG of the crop the classifier read (when the reader keeps
    them, as the table's camera does).
    The history keeps them with the reading, so the values players confirm or correct turn them
    into labelled photos of the table's own dice, for training the next model
    (`rollscribe photos`).
    """

    dice: tuple[DieReading, ...]
    jpeg: bytes | None = field(default=None, repr=False)
    width: int = 0
    height: int = 0
    source: str = "camera"  # camera | typed | simulated
    crops: tuple[bytes, ...] = field(default=(), repr=False)

    @property
    def unsure(self) -> bool:
        return any(d.unsure for d in self.dice)

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": [d.to_json() for d in self.dice],
            "width": self.width,
            "height": self.height,
            "source": self.source,
        }
