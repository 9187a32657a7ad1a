"""The panel's ranked moves: what each choice scores for sure, what it risks, in words.

Points are the ones a move earns before any die is rolled (an escape, a knock-out, an item). The
order also weighs what the landing square holds by its odds: a fight won on 4+ is worth its 3
points that often and costs the hero's progress otherwise; a trap likewise. It is advice for the
table, not a solver: the dice after the move are not searched.
"""

from __future__ import annotations

from dataclasses import replace

from ...core import RankedMove
from .flow import arrival, fight_bonus, legal
from .moves import Act
from .position import Position, role_of
from .rules import (
    EXIT_POINTS,
    HERO_POINTS,
    ITEM_POINTS,
    MONSTER_POINTS,
    POTION_POINTS,
    TRAP_POINTS,
)
from .words import title

CHOICE_NOTES = {
    "claim": "your heroes pass this trap safely from now on",
    "keep": "take it: +1 on every later roll of that kind",
    "tame": "it stays and never attacks your heroes",
    "collect": "store it: any of your heroes may drink it at the start of a turn",
    "drink": "roll for its effect now",
    "go": "roll to move, keep the potion",
    "pass": "no hero can use this roll",
}


def ranked(pos: Position) -> list[RankedMove]:
    """Best first by worth; ties keep the rules' own order (heroes in team order)."""
    moves = [_titled(pos, _rank(pos, act)) for act in legal(pos)]
    return [m for _, m in sorted(enumerate(moves), key=lambda im: (-im[1].extra["worth"], im[0]))]


def _titled(pos: Position, ranked: RankedMove) -> RankedMove:
    return replace(ranked, title=title(pos, ranked.move, ranked.detail))  # type: ignore[arg-type]


def _rank(pos: Position, act: Act) -> RankedMove:
    if act.verb in ("move", "enter"):
        return _rank_arrival(pos, act)
    if act.verb in ("switch", "flick"):
        return _rank_foe(pos, act)
    if act.verb == "take":
        return RankedMove(act, ITEM_POINTS, f"the {act.target}", {"worth": ITEM_POINTS})
    if act.verb == "potion":
        return RankedMove(act, 0, f"{act.target} drinks a stored potion before the roll",
                          {"worth": -0.5})
    note = CHOICE_NOTES[act.verb]
    if act.verb == "keep":
        kind = "trap" if pos.step["kind"] == "trap-choice" else "monster"
        now = pos.kept_traps[pos.seat] if kind == "trap" else pos.kept_monsters[pos.seat]
        note = f"take the {kind}: +1 on every later {kind} roll (now +{now})"
    return RankedMove(act, 0, note, {"worth": 0.5 if act.verb in ("keep", "collect") else 0})


def _rank_arrival(pos: Position, act: Act) -> RankedMove:
    seat, step = pos.seat, pos.step
    hero, at = arrival(pos, act)
    start = pos.where[hero][1] if act.verb == "move" else 0
    if at[1] > pos.options.squares:
        return RankedMove(act, EXIT_POINTS, "escapes through the Exit Portal",
                          {"worth": EXIT_POINTS + 1})
    points, notes, risk_of_loss, expected = 0, [], 0.0, 0.0
    other = pos.hero_at(at)
    if other is not None and other != hero:
        if "shield" in pos.carried(other):
            notes.append(f"knocks {other} back (Shield)")
        else:
            points += HERO_POINTS
            notes.append(f"knocks {other} out")
    for token in pos.tokens_at(at):
        kind, owner = pos.tokens[token]["kind"], pos.tokens[token]["owner"]
        if owner == seat:
            notes.append(f"your {'tamed monster' if kind == 'monster' else 'claimed trap'}")
        elif kind == "monster":
            win = _chance_at_least(4 - fight_bonus(pos, hero))
            expected += MONSTER_POINTS * win
            risk_of_loss = 1 - win
            notes.append(f"fights monster {token}: wins {round(100 * win)}%")
        elif kind == "trap":
            if "shoes" in pos.carried(hero):
                points += TRAP_POINTS
                notes.append("walks over a trap (Shoes)")
            else:
                safe = _chance_at_least(5 - pos.kept_traps[seat])
                expected += TRAP_POINTS * safe
                risk_of_loss = _chance_at_least(2 - pos.kept_traps[seat], below=True)
                notes.append(f"trap {token}: safe {round(100 * safe)}%")
        else:
            points += POTION_POINTS
            notes.append("a potion" + (" to store or drink" if role_of(hero) == "mage" else ""))
    items = pos.items_at(at)
    if items:
        points += ITEM_POINTS
        notes.append(" or ".join(items))
    progress = (at[1] - start) / 6
    worth = points + expected + progress - risk_of_loss * (at[1] / 6)
    where = "Entrance" if act.verb == "enter" and not step.get("first_go") else f"square {at[1]}"
    detail = f"to {where}" + (": " + ", ".join(notes) if notes else "")
    return RankedMove(act, points, detail, {"worth": round(worth, 3)})


def _rank_foe(pos: Position, act: Act) -> RankedMove:
    target = str(act.target)
    if target in pos.tokens:
        square = pos.tokens[target]["at"][1]
        label = f"monster {target} on square {square}"
    else:
        square = pos.where[target][1]
        label = f"{target} on square {square}"
    if act.verb == "flick":
        worth = (MONSTER_POINTS if target in pos.tokens else HERO_POINTS) + square / 10
        return RankedMove(act, MONSTER_POINTS if target in pos.tokens else HERO_POINTS,
                          f"removes {label}", {"worth": worth})
    mine = pos.where[pos.step["hero"]][1]
    return RankedMove(act, 0, f"changes places with {label} ({square - mine:+d} squares)",
                      {"worth": square - mine})


def _chance_at_least(need: int, below: bool = False) -> float:
    """Chance that a d6 shows at least `need` (or, with below, less than `need`)."""
    hits = sum(1 for face in range(1, 7) if (face < need if below else face >= need))
    return hits / 6
