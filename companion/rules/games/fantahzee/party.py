"""The Action Phase and the Roll Step: recruiting, actions, the dice and activating heroes."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ...errors import IllegalMove
from .activation import counts, faces, hero_payments
from .cards import Effects, Hero
from .position import Position
from .rules import ACTIONS, PARTY, RECRUITS

# Action Phase

def recruit(pos: Position, card: str = "", *rest: str) -> Position:
    s, turn = pos.s, pos.turn
    hand = s["hands"][pos.seat]
    if card not in hand or card not in pos.cards.heroes:
        raise IllegalMove(f"{card!r} is not a hero in {pos.names[pos.seat]}'s hand")
    if turn["recruits"] >= RECRUITS:
        raise IllegalMove(f"at most {RECRUITS} heroes are recruited a turn")
    party = pos.party()
    if len(party) >= PARTY:
        if len(rest) != 2 or rest[0] != "over":
            raise IllegalMove(f"the party has {PARTY} heroes: 'recruit {card} over HERO' "
                              "discards one")
        remove_hero(pos, rest[1])
    elif rest:
        raise IllegalMove("write 'recruit HERO' (with 'over HERO' only for a full party)")
    hand.remove(card)
    party.append({"uid": s["uid"], "card": card, "treasure": None})
    s["uid"] += 1
    turn["recruits"] += 1
    return pos


def remove_hero(pos: Position, key: str) -> dict[str, Any]:
    """A hero leaves the party for the discard pile; its treasure to the box
    (LOST_HERO_TO_DISCARD)."""
    try:
        member = pos.member(key)
    except KeyError:
        raise IllegalMove(f"no hero {key!r} in {pos.names[pos.seat]}'s party") from None
    pos.party().remove(member)  # LOST_HERO_TO_DISCARD
    pos.s["discard"].append(member["card"])
    if member["treasure"]:
        pos.s["box"].append(member["treasure"][0])
    if member["uid"] in pos.turn["active"]:
        pos.turn["active"].remove(member["uid"])
    return member


def play(pos: Position, card: str = "", *rest: str) -> Position:
    s, turn = pos.s, pos.turn
    hand = s["hands"][pos.seat]
    if card not in hand or card not in pos.cards.actions:
        raise IllegalMove(f"{card!r} is not an action in {pos.names[pos.seat]}'s hand")
    if turn["actions"] >= ACTIONS:
        raise IllegalMove(f"at most {ACTIONS} actions are played a turn")
    hand.remove(card)
    s["discard"].append(card)
    turn["actions"] += 1
    gain(turn, pos.cards.actions[card].effects)
    return pos


def gain(turn: dict[str, Any], effects: Effects, hero: Hero | None = None) -> None:
    """What an activated hero, its treasure or an action adds to the turn."""
    turn["shield"] += effects.shield
    turn["unrolled"] += effects.dice  # NEW_DICE_ROLL_AT_NEXT_REROLL
    turn["rerolls"] += effects.rolls
    turn["strength"] += effects.strength
    turn["cuts"] += effects.cut_x
    if effects.steam:
        turn["steam"].append(effects.steam)
    if effects.banish:
        turn["banish"].append(effects.banish)
    if effects.wake and hero is not None:
        turn["wakes"].append(hero.strength)


def dice_phase(pos: Position) -> Position:
    pos.s["step"] = {"kind": "roll", "dice": pos.turn["unrolled"]}
    return pos


# Roll Step

def _faces(words: tuple[str, ...]) -> list[int]:
    if not all(w in ("1", "2", "3", "4", "5", "6") for w in words):
        raise IllegalMove(f"dice are named by their faces 1-6, not {' '.join(words)!r}")
    return [int(w) for w in words]


def _take(dice: list[int], wanted: list[int]) -> None:
    for face in wanted:
        if face not in dice:
            raise IllegalMove(f"no free die shows {face} (free: {' '.join(map(str, dice))})")
        dice.remove(face)


def activate(pos: Position, key: str = "", how: str = "", *words: str) -> Position:
    turn = pos.turn
    try:
        member = pos.member(key)
    except KeyError:
        raise IllegalMove(f"no hero {key!r} in {pos.names[pos.seat]}'s party") from None
    if member["uid"] in turn["active"]:
        raise IllegalMove(f"{key} is already active: each hero is activated once a turn")
    hero = pos.cards.heroes[member["card"]]
    if how == "with":
        paid = _faces(words)
        options = hero_payments(hero.costs, counts(turn["dice"]), turn["cuts"],
                                pos.options.cut == "x-or-kind")
        wanted = counts(paid)
        if wanted not in options:
            cost = " or ".join(c.text() for c in hero.costs)
            raise IllegalMove(f"{' '.join(words) or 'no dice'} do not pay {hero.name} ({cost}) "
                              f"from the free dice {' '.join(map(str, turn['dice'])) or 'none'}")
        if options[wanted]:
            turn["cuts"] -= 1  # CUT_X_OR_KIND
        _take(turn["dice"], paid)
        turn["locked"].append([member["uid"], faces(wanted)])
    elif how == "steam" and not words:
        need = min((c.steam for c in hero.costs if c.steam), default=0)
        if not need:
            raise IllegalMove(f"{hero.name} is not paid with steam")
        pooled = pos.options.steam == "pooled"
        if not pay_steam(turn["steam"], need, pooled):
            where = "in all" if pooled else "from one card"
            raise IllegalMove(f"{hero.name} needs {need} steam {where}; steam got this "
                              f"turn: {turn['steam'] or 'none'} (never split or carried)")
    elif how == "free" and not words:
        fits = sorted(w for w in turn["wakes"] if w >= hero.strength)  # WAKE_ONCE
        if not fits:
            raise IllegalMove(f"no active ability activates a hero of strength {hero.strength}")
        turn["wakes"].remove(fits[0])
    else:
        raise IllegalMove("write 'activate HERO with 3 3', 'activate HERO steam' or "
                          "'activate HERO free'")
    turn["active"].append(member["uid"])
    turn["shield"] += hero.shield
    if hero.steam:
        turn["steam"].append(hero.steam)
    gain(turn, hero.effects, hero)
    if member["treasure"]:
        card, level = member["treasure"]
        gain(turn, pos.cards.treasures[card].side(level))
    return pos


def pay_steam(sources: list[int], need: int, pooled: bool) -> bool:
    """Spend steam for one hero (STEAM_ONE_SOURCE): the smallest card's steam that covers it,
    or with pooling the fewest sources adding up to it with least left over; what is left of
    the sources spent is lost, the others stay for other heroes. False if it cannot be paid."""
    sizes = range(1, len(sources) + 1) if pooled else (1,)  # STEAM_ONE_SOURCE
    spends = [c for k in sizes for c in combinations(range(len(sources)), k)
              if sum(sources[i] for i in c) >= need]
    if not spends:
        return False
    cheapest = min(spends, key=lambda c: (sum(sources[i] for i in c), len(c)))
    for i in sorted(cheapest, reverse=True):
        del sources[i]
    return True


def reroll(pos: Position, *words: str) -> Position:
    turn = pos.turn
    if turn["rerolls"] < 1:
        raise IllegalMove("no rerolls left")
    wanted = _faces(words)
    if not wanted and not turn["unrolled"]:
        raise IllegalMove("name the dice to reroll: 'reroll 6 4 1'")
    _take(turn["dice"], wanted)
    turn["rerolls"] -= 1
    pos.s["step"] = {"kind": "roll", "dice": len(wanted) + turn["unrolled"]}
    return pos


def strength(pos: Position) -> int:
    cards = pos.cards
    return sum(cards.heroes[m["card"]].strength for m in pos.active()) + pos.turn["strength"]


def to_attack(pos: Position) -> Position:
    pos.turn["left"] = strength(pos)
    pos.s["step"] = {"kind": "attack"}
    return pos

