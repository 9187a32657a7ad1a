"""The kinds' powers a monster "may" use in an exchange once the defence is made: Void ("may
reduce an attack or defense by one point"), Frozen ("may convert one point of undefended wound
damage to one point of stun damage") and Flame ("may convert one point of undefended stun
damage to one wound damage"). Each that would change what gets through is offered to its owner
in turn, to use for a token or to keep (KINDS_MAY_CHOOSE); then the damage lands.
"""

from __future__ import annotations

from . import exchange, kinds
from .combat import Through, describe_through, through
from .moves import Act
from .position import Position

# KINDS_MAY_CHOOSE: the attacker's Void on the defence, then the defender's Void and Frozen on
# what gets through, then the attacker's Flame.
ORDER = (("striker", "void"), ("victim", "void"), ("victim", "frozen"), ("striker", "flame"))
CHOICES = frozenset(power for _, power in ORDER)


def start(pos: Position, result: Through) -> Position:
    """Changes `pos`: what the defence lets through, before any power; the first offer."""
    combat = pos.combat
    assert combat is not None
    combat["through"] = [result.stun, result.wound, result.grab, result.defended]
    combat["offered"] = 0
    return _next(pos)


def now(pos: Position) -> Through:
    combat = pos.combat
    assert combat is not None
    return Through(*combat["through"])


def changed(pos: Position, who: str, power: str) -> Through | None:
    """What gets through if `who` (striker or victim) uses `power` now; None if nothing
    changes."""
    current = now(pos)
    if who == "striker" and power == "void":
        chosen = exchange.chosen_guard(pos)
        if chosen is None:
            return None
        weakened = through(exchange.current_blow(pos), chosen, 1)
        return weakened if weakened != current else None
    stun, wound = current.stun, current.wound
    if power == "void" and stun + wound:
        stun, wound = (stun, wound - 1) if wound else (stun - 1, wound)
    elif power == "frozen" and wound:
        stun, wound = stun + 1, wound - 1
    elif power == "flame" and stun:
        stun, wound = stun - 1, wound + 1
    else:
        return None
    return Through(stun, wound, current.grab, current.defended)


def _next(pos: Position) -> Position:
    """Changes `pos`: the next power that would change what gets through, offered to its owner;
    with none left the damage lands."""
    combat = pos.combat
    assert combat is not None
    striker = combat["by"]
    while combat["offered"] < len(ORDER):
        who, power = ORDER[combat["offered"]]
        combat["offered"] += 1
        seat = striker if who == "striker" else exchange.other(pos, striker)
        if kinds.can(pos, seat, power) and changed(pos, who, power) is not None:
            pos.s["step"] = {"kind": "power", "seat": seat, "who": who, "power": power}
            return pos
    return exchange.land(pos)


def legal(pos: Position) -> list[Act]:
    return [Act(pos.step["power"]), Act("keep")]


def apply(pos: Position, act: Act) -> Position:
    """Changes `pos`: the power used (a token) or kept; on to the next offer."""
    step, combat = pos.step, pos.combat
    assert combat is not None
    seat, power = step["seat"], step["power"]
    name = pos.names[seat]
    if act.verb == "keep":
        pos.s["news"] = f"{name} keeps the {power.title()} token"
        return _next(pos)
    result = changed(pos, step["who"], power)
    assert result is not None
    kinds.spend(pos, seat, power)
    combat["through"] = [result.stun, result.wound, result.grab, result.defended]
    pos.s["news"] = f"{name}'s {power.title()}: {describe_through(result)}"
    return _next(pos)
