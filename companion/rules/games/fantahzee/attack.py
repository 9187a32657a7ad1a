"""The Attack Step, taking damage, the treasure drawn and the hand limit."""

from __future__ import annotations

from typing import Any

from ...errors import IllegalMove
from .agenda import AFTER_ATTACK, run
from .party import remove_hero
from .position import Position

# Attack Step

def _stack_at(pos: Position, word: str) -> dict[str, Any]:
    stacks = pos.s["stacks"]
    if not word.isdigit() or not 1 <= int(word) <= len(stacks):
        raise IllegalMove(f"stacks are numbered 1-{len(stacks)} from the left, not {word!r}")
    return stacks[int(word) - 1]


def fight(pos: Position, word: str = "", *rest: str) -> Position:
    stack, turn = _stack_at(pos, word), pos.turn
    if stack["top"] is None:
        raise IllegalMove(f"stack {word} has no face-up monster: 'flip {word}' after defeating "
                          "its top one")
    if turn["into"] is not None:
        raise IllegalMove("the party flipped into a stack: it cannot go back to other stacks")
    monster = pos.cards.monsters[stack["top"]]
    if monster.strength > turn["left"]:
        raise IllegalMove(f"{monster.name} has strength {monster.strength}; the party has "
                          f"{turn['left']} left")
    defeat(pos, stack)
    return pos


def defeat(pos: Position, stack: dict[str, Any]) -> None:
    turn = pos.turn
    monster = pos.cards.monsters[stack["top"]]
    turn["left"] -= monster.strength
    turn["aside"].append(monster.id)
    _clear(pos, stack, monster.boss)


def _clear(pos: Position, stack: dict[str, Any], boss: bool) -> None:
    stack["top"] = None
    pos.turn["cleared"].append(stack["uid"])
    if boss:
        pos.s["doom"] += 1  # DOOM_ON_DEFEAT
    if not stack["l1"] and not stack["l2"]:
        pos.s["stacks"].remove(stack)  # STACK_REMOVED_WHEN_EMPTY


def flip(pos: Position, word: str = "", *rest: str) -> Position:
    stack, turn = _stack_at(pos, word), pos.turn
    if stack["top"] is not None or stack["uid"] not in turn["cleared"]:
        raise IllegalMove(f"only a stack whose top monster was defeated this turn is flipped; "
                          f"stack {word} is not one")
    if turn["into"] not in (None, stack["uid"]):
        raise IllegalMove("the party is locked into the stack it flipped")
    pos.s["step"] = {"kind": "card", "deck": "stack", "ref": stack["uid"], "then": "flip",
                     "for": pos.seat, "extra": []}
    return pos


def banish(pos: Position, word: str = "", *rest: str) -> Position:
    stack, turn = _stack_at(pos, word), pos.turn
    if stack["top"] is None or turn["into"] is not None:  # BANISH_FACE_UP
        raise IllegalMove("only a face-up top monster is put in the victory pile, before the "
                          "party flips into a stack")
    monster = pos.cards.monsters[stack["top"]]
    fits = sorted(b for b in turn["banish"] if b >= monster.strength)
    if not fits:
        raise IllegalMove(f"no active ability takes a monster of strength {monster.strength}")
    turn["banish"].remove(fits[0])
    pos.s["victory"][pos.seat].append(["m", monster.id])
    _clear(pos, stack, monster.boss)
    return pos


def stop(pos: Position, *rest: str) -> Position:
    pos.s["agenda"] = [list(i) for i in AFTER_ATTACK]
    return run(pos)


# Damage, treasure, hand limit

def active_member(pos: Position, key: str, why: str) -> dict[str, Any]:
    """The party member `key` names, if it is one of this turn's active heroes; else the move
    is illegal, and `why` says what only active heroes may do."""
    try:
        member = pos.member(key)
    except KeyError:
        member = None
    if member is None or member["uid"] not in pos.turn["active"]:
        raise IllegalMove(f"{why}; {key!r} is not one")
    return member


def lose(pos: Position, key: str = "", *rest: str) -> Position:
    step = pos.step
    member = active_member(pos, key, "only active heroes take damage")
    remove_hero(pos, key)
    step["left"] -= pos.cards.heroes[member["card"]].strength
    if step["left"] > 0 and pos.active():
        return pos
    return run(pos)


def attach(pos: Position, key: str = "", *rest: str) -> Position:
    step = pos.step
    member = active_member(pos, key, "treasures go on active heroes only")
    if member["treasure"]:
        pos.s["treasure_discard"].append(member["treasure"][0])
    member["treasure"] = [step["card"], step["level"]]
    return run(pos)


def discard(pos: Position, card: str = "", *rest: str) -> Position:
    s = pos.s
    if pos.step["kind"] == "attach":
        if card:
            raise IllegalMove("'discard' alone throws the treasure away")
        s["treasure_discard"].append(pos.step["card"])
        return run(pos)
    hand = s["hands"][pos.seat]
    if card not in hand:
        raise IllegalMove(f"{card!r} is not in {pos.names[pos.seat]}'s hand")
    hand.remove(card)
    s["discard"].append(card)  # HAND_LIMIT_DISCARD
    return pos if len(hand) > pos.hand_limit(pos.seat) else run(pos)

