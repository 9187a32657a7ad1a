"""The dice pool of a Monster's turn: how many dice are rolled, which kinds, the reroll rule,
and paying a cost from the turn's results and the Reserve.

A result is [die, face]: the die it was rolled on (village, village-day, village-night) and the
face it shows, so a rerolled Night die is rolled again as the Night die.
"""

from __future__ import annotations

from collections import Counter

from ...errors import IllegalMove
from ...symbol_dice import VILLAGE, VILLAGE_DAY, VILLAGE_NIGHT
from .data import USABLE
from .position import Position
from .rules import DICE, HEART_NIGHT_REROLL_AT, REROLL_AT

UNREROLLABLE = "blank"  # "Blank faces are unusable results that may not be re rolled"


def dice_count(pos: Position, keep_reserve: bool) -> int:
    """One die fewer per result held in Reserve and for a Stun (STUN_AND_RESERVE_ADD)."""
    m = pos.monster()
    held = len(m["reserve"]) if keep_reserve else 0
    return max(0, DICE - held - (1 if m["stun"] else 0))  # STUN_AND_RESERVE_ADD


def time_die(pos: Position) -> str | None:
    if not pos.options.day_night:
        return None
    return VILLAGE_NIGHT.name if pos.s["night"] else VILLAGE_DAY.name


def kinds_for(pos: Position, count: int) -> tuple[str, ...]:
    """The dice rolled at the start of a turn: in Day & Night mode one of them is the Day or
    Night die, however few are rolled (DAY_NIGHT_DIE_ALWAYS_ROLLED)."""
    swapped = time_die(pos)
    if swapped is None or count == 0:
        return (VILLAGE.name,) * count
    return (VILLAGE.name,) * (count - 1) + (swapped,)  # DAY_NIGHT_DIE_ALWAYS_ROLLED


def reroll_threshold(pos: Position) -> int:
    return HEART_NIGHT_REROLL_AT if pos.turn.get("night_heart") else REROLL_AT


def rerollable(pos: Position) -> list[str]:
    """Faces the reroll rule lets the Monster roll again: shown by enough of this turn's
    results (REROLL_COUNTS_THE_ROLL); never before a result is spent (REROLL_BEFORE_SPENDING)."""
    counts = Counter(face for _, face in pos.turn["rolled"] if face != UNREROLLABLE)
    need = reroll_threshold(pos)
    return sorted(face for face, n in counts.items() if n >= need)


def reroll_dice(pos: Position, face: str) -> list[str]:
    """The dice rerolled for `face`: every die of the turn and every Reserve result showing it
    ("all dice showing the same symbol must be rerolled, including those placed in Reserve")."""
    return ([die for die, f in pos.turn["rolled"] if f == face]
            + [die for die, f in pos.monster()["reserve"] if f == face])


def take_for_reroll(pos: Position, face: str) -> None:
    """Lift the dice showing `face` off the turn and the Reserve; they come back rolled into the
    turn's results (REROLL_COUNTS_THE_ROLL)."""
    turn, m = pos.turn, pos.monster()
    turn["rolled"] = [r for r in turn["rolled"] if r[1] != face]
    m["reserve"] = [r for r in m["reserve"] if r[1] != face]  # REROLL_COUNTS_THE_ROLL


def available(pos: Position) -> Counter[str]:
    """Usable results the Monster may spend: the turn's and the Reserve's (Villager and blank
    results cannot be spent)."""
    faces = [f for _, f in pos.turn["rolled"]] + [f for _, f in pos.monster()["reserve"]]
    return Counter(f for f in faces if f in USABLE)


def can_pay(pos: Position, cost: tuple[str, ...]) -> bool:
    have = available(pos)
    return all(have[f] >= n for f, n in Counter(cost).items())


def pay(pos: Position, cost: tuple[str, ...], use: str) -> None:
    """Spend `cost` from this turn's results, then from the Reserve (SPEND_TURN_DICE_FIRST)."""
    turn, m = pos.turn, pos.monster()
    for face in cost:
        for source in (turn["rolled"], m["reserve"]):  # SPEND_TURN_DICE_FIRST
            index = next((i for i, r in enumerate(source) if r[1] == face), None)
            if index is not None:
                source.pop(index)
                turn["spent"].append([face, use])
                break
        else:
            raise IllegalMove(f"no {face} result to spend on {use}")


def pay_villager(pos: Position) -> None:
    """A Villager result is used up by the Villager it activated."""
    rolled = pos.turn["rolled"]
    rolled.pop(next(i for i, r in enumerate(rolled) if r[1] == "Villager"))
    pos.turn["spent"].append(["Villager", "villager"])
