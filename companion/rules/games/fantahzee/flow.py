"""Fantahzee's turn: every die roll is a chance step, every card drawn or flipped is a `card`
move, every decision a move; each is applied to a copy of the position.

Setup: the first-player roll -> the five stacks' top cards -> each hand of 5. A turn: Action
Phase (`recruit`, `play`, `dice`) -> Roll Step (the roll, `activate`, `reroll`, `attack`) ->
Attack Step (`fight`, `flip`, `banish`, `stop`) -> Counterattack (`lose`) -> Treasure (`card`,
`attach` / `discard`) -> Horde Phase (town card, flips, Ambush, `lose`) -> End Phase (4 cards,
`discard` down to 5) -> the next player, or the end after the Last Player's turn once three
doom tokens are active. What follows a step waits in the position's agenda (`agenda.py`, run
until a step needs the table); the moves of the Action Phase and Roll Step are in `party.py`,
those of the Attack Step, damage, treasure and the hand limit in `attack.py`. Here: what the game
waits for, the chance steps, the cards entered, adjustments, and which move fits which step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core import RollRequest
from ...errors import IllegalMove
from . import attack, party
from .agenda import AFTER_ATTACK, candidates, run, stack_by_uid
from .attack import defeat
from .moves import Act
from .party import strength
from .position import Position

__all__ = ["CHANCE_STEPS", "actor", "apply_move", "apply_roll", "candidates", "request",
           "strength"]

CHANCE_STEPS = frozenset({"first", "roll"})
RECENT = 6  # cards the table entered lately, kept so the panel offers them first


# -- what the game waits for -------------------------------------------------------------------

def request(pos: Position) -> RollRequest | None:
    step = pos.step
    if step["kind"] == "first":  # one player's die at a time: the camera cannot tell whose
        seat = step["contenders"][len(step["rolls"])]
        again = " again (a tie)" if len(step["contenders"]) < len(pos.names) else ""
        return RollRequest(("d6",), f"{pos.names[seat]} rolls for the first player{again}", seat)
    if step["kind"] == "roll":
        n, turn = step["dice"], pos.turn
        what = "the roll" if not turn["rolled"] else f"a reroll ({turn['rerolls']} left after)"
        return RollRequest(("d6",) * n, f"{pos.names[pos.seat]}'s {what}: {n} dice", pos.seat)
    return None


def actor(pos: Position) -> int:
    step = pos.step
    return int(step.get("for", pos.seat))


# -- chance steps ---------------------------------------------------------------------------------

def apply_roll(pos: Position, values: list[int]) -> Position:
    pos = pos.copy()
    s, step = pos.s, pos.step
    if step["kind"] == "first":  # FIRST_PLAYER_ROLL
        step["rolls"].append(values[0])
        if len(step["rolls"]) < len(step["contenders"]):
            return pos
        best = max(step["rolls"])
        tied = [seat for seat, v in zip(step["contenders"], step["rolls"]) if v == best]
        if len(tied) > 1:
            step["contenders"], step["rolls"] = tied, []
            return pos
        s["first"] = s["seat"] = tied[0]
        s["last"] = (tied[0] - 1) % len(pos.names)  # the player to the first player's right
        s["agenda"] = [["stacks"], ["hands"], ["turn"]]
        return run(pos)
    turn = pos.turn
    turn["dice"] = sorted(turn["dice"] + list(values), reverse=True)
    turn["unrolled"] = 0
    turn["rolled"] = True
    s["step"] = {"kind": "dice"}
    return pos


# -- moves ------------------------------------------------------------------------------------------

def apply_move(pos: Position, move: Act) -> Position:
    kind = pos.step["kind"]
    if move.verb == "adjust":
        return _adjust(pos.copy(), move)
    handler = MOVES.get((kind, move.verb))
    low, high = ARITY.get(move.verb, (0, 99))
    if handler is not None and not low <= len(move.args) <= high:
        raise IllegalMove(f"{move.text()!r}: '{move.verb}' takes "
                          + (f"{low} word{'s' * (low != 1)}" if low == high
                             else f"{low} to {high} words"))
    if handler is None:
        allowed = sorted({verb for (k, verb) in MOVES if k == kind})
        raise IllegalMove(f"{move.text()!r} does not fit now ({_step_name(kind)}: "
                          f"{', '.join(allowed)})")
    pos = pos.copy()
    return handler(pos, *move.args)


def _step_name(kind: str) -> str:
    return {"card": "a card to enter", "action": "the Action Phase", "dice": "the Roll Step",
            "attack": "the Attack Step", "damage": "taking damage", "attach": "a treasure drawn",
            "limit": "discarding down to the hand limit"}.get(kind, kind)


def _card(pos: Position, card: str = "", *rest: str) -> Position:
    step, s = pos.step, pos.s
    pool = candidates(pos, step["deck"], step["ref"])
    if card not in pool:
        names = ", ".join(sorted(pool))
        raise IllegalMove(f"{card!r} cannot come up from the {_deck_name(step)} now: "
                          f"one of {names}")
    s["entered"] = [card, *(c for c in s["entered"] if c != card)][:RECENT]
    then = step["then"]
    if step["deck"] == "hero":
        s["deck"][card] -= 1
        s["hands"][step["ref"]].append(card)
    elif step["deck"] == "town":
        s["towns"][card] -= 1
        s["victory"][pos.seat].append(["t", card])
    elif step["deck"] == "treasure":
        s["treasures"][card] -= 1
        s["step"] = {"kind": "attach", "card": card, "level": step["extra"][0]}
        return pos
    else:
        stack = stack_by_uid(pos, step["ref"])
        assert stack is not None
        level = "1" if stack["l1"] else "2"
        monster = pos.cards.monsters[card]
        if monster.boss:
            s["unseen"]["boss"][card] -= 1
            stack["boss"] = 0
        else:
            s["unseen"][level][card] -= 1
        stack["l" + level] -= 1
        stack["top"] = card
        if then == "flip":
            turn = pos.turn
            turn["into"] = stack["uid"]
            if monster.strength <= turn["left"]:  # FLIP_FORCED_FIGHT
                defeat(pos, stack)
                s["step"] = {"kind": "attack"}
                return pos
            s["agenda"] = [list(i) for i in AFTER_ATTACK]
    return run(pos)


def _deck_name(step: dict[str, Any]) -> str:
    if step["deck"] == "stack":
        return "horde stack"
    return f"{step['deck']} deck"


def _adjust(pos: Position, move: Act) -> Position:
    """A hand-resolved ability, typed (MANUAL_ADJUSTMENTS)."""
    what, amount = move.args[0], int(move.args[1])  # MANUAL_ADJUSTMENTS
    kind = pos.step["kind"]
    if kind in ("over", "first"):
        raise IllegalMove("adjustments are made during a player's turn")
    turn = pos.turn
    if what not in ("xp", "hand") and not turn:
        raise IllegalMove(f"{what} is adjusted during a turn; before the first one only XP "
                          "and the hand limit")
    if what == "xp":
        pos.s["adjust"][actor(pos)] += amount
    elif what == "hand":  # HAND_LIMIT_EFFECTS
        seat = actor(pos)
        if pos.hand_limit(seat) + amount < 0:
            raise IllegalMove("the hand limit cannot fall below zero")
        pos.s["hand_extra"][seat] += amount
    elif what == "strength":
        # in the Attack Step what is left to spend, before it the party's strength to come
        key = "left" if kind == "attack" else "strength"
        turn[key] += amount
        if (turn["left"] if kind == "attack" else strength(pos)) < 0:
            raise IllegalMove("strength cannot fall below zero")
    elif what == "shield":
        turn["shield"] += amount
    elif what == "dice":
        if kind not in ("action", "dice") or turn["unrolled"] + amount < (kind == "action"):
            raise IllegalMove("extra dice are added before the Attack Step (and at least one "
                              "die is rolled)")
        turn["unrolled"] += amount
    elif what == "rolls":
        if turn["rerolls"] + amount < 0:
            raise IllegalMove("rerolls cannot fall below zero")
        turn["rerolls"] += amount
    elif amount > 0:
        turn["steam"].append(amount)
    else:
        raise IllegalMove("steam is added, never taken")
    return pos


# How many words each verb takes (the text form is the one form: no stray words accepted);
# apply_move checks it, so no handler needs to.
ARITY = {"card": (1, 1), "recruit": (1, 3), "play": (1, 1), "dice": (0, 0), "activate": (2, 8),
         "reroll": (0, 12), "attack": (0, 0), "fight": (1, 1), "flip": (1, 1), "banish": (1, 1),
         "stop": (0, 0), "lose": (1, 1), "attach": (1, 1), "discard": (0, 1)}

MOVES: dict[tuple[str, str], Callable[..., Position]] = {
    ("card", "card"): _card,
    ("action", "recruit"): party.recruit, ("action", "play"): party.play,
    ("action", "dice"): party.dice_phase,
    ("dice", "activate"): party.activate, ("dice", "reroll"): party.reroll,
    ("dice", "attack"): party.to_attack,
    ("attack", "fight"): attack.fight, ("attack", "flip"): attack.flip,
    ("attack", "banish"): attack.banish, ("attack", "stop"): attack.stop,
    ("damage", "lose"): attack.lose,
    ("attach", "attach"): attack.attach, ("attach", "discard"): attack.discard,
    ("limit", "discard"): attack.discard,
}

