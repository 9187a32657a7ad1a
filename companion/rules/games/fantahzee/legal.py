"""Every legal move of the player to act (what `legal_moves()` answers), step by step.

Adjustments (`adjust ...`) are legal at any player step but never listed: they are numbers a
player types (MANUAL_ADJUSTMENTS).
"""

from __future__ import annotations

from itertools import product

from .activation import counts, faces, hero_payments
from .agenda import candidates
from .moves import Act, act
from .position import Position
from .rules import ACTIONS, PARTY, RECRUITS


def legal(pos: Position) -> list[Act]:
    kind = pos.step["kind"]
    if kind == "card":
        step = pos.step
        return [act("card", c) for c in candidates(pos, step["deck"], step["ref"])]
    if kind == "action":
        return action_moves(pos)
    if kind == "dice":
        return activations(pos) + rerolls(pos) + [act("attack")]
    if kind == "attack":
        return attack_moves(pos)
    if kind == "damage":
        return [act("lose", pos.key_of(m["uid"])) for m in pos.active()]
    if kind == "attach":
        return [act("attach", pos.key_of(m["uid"])) for m in pos.active()] + [act("discard")]
    if kind == "limit":
        return [act("discard", c) for c in dict.fromkeys(pos.s["hands"][pos.seat])]
    return []


def action_moves(pos: Position) -> list[Act]:
    turn, cards = pos.turn, pos.cards
    hand = list(dict.fromkeys(pos.s["hands"][pos.seat]))
    moves = []
    if turn["recruits"] < RECRUITS:
        full = len(pos.party()) >= PARTY
        for card in hand:
            if card in cards.heroes:
                if full:
                    moves += [act("recruit", card, "over", key) for key in pos.hero_keys()]
                else:
                    moves.append(act("recruit", card))
    if turn["actions"] < ACTIONS:
        moves += [act("play", card) for card in hand if card in cards.actions]
    return moves + [act("dice")]


def activations(pos: Position) -> list[Act]:
    """Each inactive hero with each distinct set of free dice that pays it, steam, or free."""
    turn, cards = pos.turn, pos.cards
    pool = counts(turn["dice"])
    kinds_too = pos.options.cut == "x-or-kind"
    pooled = pos.options.steam == "pooled"
    moves = []
    for key, member in zip(pos.hero_keys(), pos.party()):
        if member["uid"] in turn["active"]:
            continue
        hero = cards.heroes[member["card"]]
        for paid in hero_payments(hero.costs, pool, turn["cuts"], kinds_too):
            moves.append(act("activate", key, "with", *faces(paid)))
        need = min((c.steam for c in hero.costs if c.steam), default=0)
        if need and (sum(turn["steam"]) >= need if pooled else
                     any(s >= need for s in turn["steam"])):
            moves.append(act("activate", key, "steam"))
        if any(w >= hero.strength for w in turn["wakes"]):
            moves.append(act("activate", key, "free"))
    return moves


def rerolls(pos: Position) -> list[Act]:
    """Every distinct choice of free dice to reroll (the rest are kept)."""
    turn = pos.turn
    if turn["rerolls"] < 1:
        return []
    pool = counts(turn["dice"])
    moves = []
    for choice in product(*(range(n + 1) for n in pool)):
        if any(choice) or turn["unrolled"]:
            moves.append(act("reroll", *faces(choice)))
    return moves


def attack_moves(pos: Position) -> list[Act]:
    turn, cards = pos.turn, pos.cards
    moves = []
    for n, stack in enumerate(pos.s["stacks"], 1):
        if stack["top"] is not None:
            if turn["into"] is None:
                strength = cards.monsters[stack["top"]].strength
                if strength <= turn["left"]:
                    moves.append(act("fight", n))
                if any(b >= strength for b in turn["banish"]):
                    moves.append(act("banish", n))
        elif (stack["uid"] in turn["cleared"] and turn["into"] in (None, stack["uid"])
              and (stack["l1"] or stack["l2"])):
            moves.append(act("flip", n))
    return moves + [act("stop")]
