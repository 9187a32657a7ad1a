"""Fantahzee's turn: every die roll is a chance step, every card drawn or flipped is a `card`
move, every decision a move; each is applied to a copy of the position.

Setup: the first-player roll -> the five stacks' top cards -> each hand of 5. A turn: Action
Phase (`recruit`, `play`, `roll`) -> Roll Step (the roll, `activate`, `reroll`, `attack`) ->
Attack Step (`fight`, `flip`, `banish`, `stop`) -> Counterattack (`lose`) -> Treasure (`card`,
`attach` / `discard`) -> Horde Phase (town card, flips, Ambush, `lose`) -> End Phase (4 cards,
`discard` down to 5) -> the next player, or the end after the Last Player's turn once three
doom tokens are active. What follows a step waits in `agenda`, run by `run()` until a step
needs the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core import RollRequest
from ...errors import IllegalMove
from .activation import counts, faces, hero_payments
from .cards import Effects, Hero
from .moves import Act
from .position import Position
from .rules import ACTIONS, DICE, DOOM, DRAW, HAND, PARTY, RECRUITS, REROLLS

CHANCE_STEPS = frozenset({"first", "roll"})
AFTER_ATTACK = [["counter"], ["treasures"], ["victory"], ["horde"], ["draw", DRAW], ["limit"],
                ["end"]]


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


# -- the agenda ----------------------------------------------------------------------------------

def run(pos: Position) -> Position:
    """Do what waits in the agenda until a step needs a roll or a player."""
    s = pos.s
    s["step"] = None
    while s["step"] is None:
        item = s["agenda"].pop(0)
        AGENDA[item[0]](pos, *item[1:])
    return pos


def _then(pos: Position, *items: list[Any]) -> None:
    pos.s["agenda"][:0] = [list(i) for i in items]


def _setup_stacks(pos: Position) -> None:
    _then(pos, *[["reveal", "stack", st["uid"], "top"] for st in pos.s["stacks"]])


def _setup_hands(pos: Position) -> None:
    n = len(pos.names)
    order = [(pos.s["first"] + i) % n for i in range(n)]
    _then(pos, *[["draw1", seat] for seat in order for _ in range(HAND)])


def _reveal(pos: Position, deck: str, ref: Any, then: str, *extra: Any) -> None:
    """Ask for the card coming up, unless none can."""
    # CARDS_ENTERED_AS_SEEN: the player enters it, from the cards that can still come up
    if candidates(pos, deck, ref):
        seat = ref if then == "hand" else pos.seat
        pos.s["step"] = {"kind": "card", "deck": deck, "ref": ref, "then": then, "for": seat,
                         "extra": list(extra)}


def candidates(pos: Position, deck: str, ref: Any) -> dict[str, int]:
    """The cards that can come up from a deck (for a stack, its next level), with their counts."""
    s = pos.s
    if deck == "hero":
        pool = s["deck"]
    elif deck == "town":
        pool = s["towns"]
    elif deck == "treasure":
        pool = s["treasures"]
    else:
        stack = _stack(pos, ref)
        if stack is None:
            return {}
        if stack["l1"]:
            pool = s["unseen"]["1"]
        elif stack["l2"]:
            pool = {}
            if stack["l2"] > stack["boss"]:
                pool.update(s["unseen"]["2"])
            if stack["boss"]:
                pool.update(s["unseen"]["boss"])
        else:
            pool = {}
    return {card: n for card, n in pool.items() if n > 0}


def _draw1(pos: Position, seat: int) -> None:
    s = pos.s
    if not any(s["deck"].values()) and s["discard"]:
        for card in s["discard"]:  # the discard pile shuffled into a new hero deck
            s["deck"][card] = s["deck"].get(card, 0) + 1
        s["discard"] = []
    _reveal(pos, "hero", seat, "hand")  # NO_CARDS_NO_DRAW


def _draw(pos: Position, n: int) -> None:
    _then(pos, *[["draw1", pos.seat] for _ in range(n)])


def _start_turn(pos: Position) -> None:
    pos.s["turn"] = new_turn()
    pos.s["step"] = {"kind": "action"}


def new_turn() -> dict[str, Any]:
    return {"recruits": 0, "actions": 0, "dice": [], "unrolled": DICE, "rerolls": REROLLS,
            "rolled": False, "locked": [], "active": [], "shield": 0, "steam": [], "cuts": 0,
            "wakes": [], "banish": [], "strength": 0, "left": 0, "aside": [], "cleared": [],
            "into": None}


def _counter(pos: Position) -> None:
    cards = pos.cards
    total = sum(cards.monsters[m].counterattack for m in pos.turn["aside"])
    _damage(pos, "counterattack", total)


def _damage(pos: Position, source: str, total: int) -> None:
    """Damage minus every active hero's Shield, lost or not (shields count against both)."""
    left = total - pos.turn["shield"]
    if left > 0 and pos.active():
        pos.s["step"] = {"kind": "damage", "source": source, "total": total, "left": left}


def _treasures(pos: Position) -> None:
    cards = pos.cards
    levels = [cards.monsters[m].treasure for m in pos.turn["aside"]]
    if pos.active():  # no active hero at the start of the Treasure Step: no treasure
        _then(pos, *[["treasure", level] for level in levels if level])


def _treasure(pos: Position, level: int) -> None:
    if pos.active():
        _reveal(pos, "treasure", None, "treasure", level)  # TREASURE_DECK_OUT


def _victory(pos: Position) -> None:
    pos.s["victory"][pos.seat] += [["m", m] for m in pos.turn["aside"]]
    pos.turn["aside"] = []


def _horde(pos: Position) -> None:
    stacks = pos.s["stacks"]
    items: list[list[Any]] = []
    if stacks and stacks[-1]["top"] is not None:  # a face-up monster in the vanguard
        items.append(["reveal", "town", None, "town"])
    items += [["reveal", "stack", st["uid"], "top"] for st in stacks if st["top"] is None]
    _then(pos, *items, ["ambush"])


def _ambush(pos: Position) -> None:
    cards = pos.cards
    _damage(pos, "ambush", sum(cards.monsters[st["top"]].ambush for st in pos.s["stacks"]
                               if st["top"] is not None))


def _limit(pos: Position) -> None:
    if len(pos.s["hands"][pos.seat]) > HAND:
        pos.s["step"] = {"kind": "limit"}


def _end(pos: Position) -> None:
    s = pos.s
    s["turns"][pos.seat] += 1
    s["turn"] = new_turn()
    if s["doom"] >= DOOM and pos.seat == s["last"]:
        _finish(pos)
        return
    s["seat"] = (pos.seat + 1) % len(pos.names)
    _then(pos, ["turn"])


def _finish(pos: Position) -> None:
    """Most XP; then most monsters in the victory pile; then most heroes; then a shared win."""
    s = pos.s

    def rank(seat: int) -> tuple[int, int, int]:
        monsters = sum(1 for kind, _ in s["victory"][seat] if kind == "m")
        return pos.xp(seat), monsters, len(s["party"][seat])

    best = max(rank(seat) for seat in range(len(pos.names)))
    s["winners"] = [seat for seat in range(len(pos.names)) if rank(seat) == best]
    s["reason"] = ("the third Boss Monster has fallen and the Last Player's turn is over: most "
                   "XP wins")
    s["step"] = {"kind": "over"}


AGENDA: dict[str, Callable[..., None]] = {
    "stacks": _setup_stacks, "hands": _setup_hands, "reveal": _reveal, "draw1": _draw1,
    "draw": _draw, "turn": _start_turn, "counter": _counter, "treasures": _treasures,
    "treasure": _treasure, "victory": _victory, "horde": _horde, "ambush": _ambush,
    "limit": _limit, "end": _end,
}


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
    if rest or card not in pool:
        names = ", ".join(sorted(pool))
        raise IllegalMove(f"{card!r} cannot come up from the {_deck_name(step)} now: "
                          f"one of {names}")
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
        stack = _stack(pos, step["ref"])
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
                _defeat(pos, stack)
                s["step"] = {"kind": "attack"}
                return pos
            s["agenda"] = [list(i) for i in AFTER_ATTACK]
    return run(pos)


def _deck_name(step: dict[str, Any]) -> str:
    if step["deck"] == "stack":
        return "horde stack"
    return f"{step['deck']} deck"


def _stack(pos: Position, uid: int) -> dict[str, Any] | None:
    return next((st for st in pos.s["stacks"] if st["uid"] == uid), None)


# Action Phase

def _recruit(pos: Position, card: str = "", *rest: str) -> Position:
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
        _remove(pos, rest[1], "discard")
    elif rest:
        raise IllegalMove("write 'recruit HERO' (with 'over HERO' only for a full party)")
    hand.remove(card)
    party.append({"uid": s["uid"], "card": card, "treasure": None})
    s["uid"] += 1
    turn["recruits"] += 1
    return pos


def _remove(pos: Position, key: str, why: str) -> dict[str, Any]:
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


def _play(pos: Position, card: str = "", *rest: str) -> Position:
    s, turn = pos.s, pos.turn
    hand = s["hands"][pos.seat]
    if rest or card not in hand or card not in pos.cards.actions:
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


def _dice_phase(pos: Position, *rest: str) -> Position:
    if rest:
        raise IllegalMove("'dice' takes no words")
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


def _activate(pos: Position, key: str = "", how: str = "", *words: str) -> Position:
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
        if not pay_steam(turn["steam"], need, pos.options.steam == "pooled"):
            raise IllegalMove(f"{hero.name} needs {need} steam from one card; steam got this "
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
    or with pooling every source; what is left is lost. False if it cannot be paid."""
    if pooled:
        if sum(sources) < need:
            return False
        sources.clear()
        return True
    fits = sorted(s for s in sources if s >= need)  # STEAM_ONE_SOURCE
    if not fits:
        return False
    sources.remove(fits[0])
    return True


def _reroll(pos: Position, *words: str) -> Position:
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


def _attack(pos: Position, *rest: str) -> Position:
    if rest:
        raise IllegalMove("'attack' takes no words")
    pos.turn["left"] = strength(pos)
    pos.s["step"] = {"kind": "attack"}
    return pos


# Attack Step

def _stack_at(pos: Position, word: str) -> dict[str, Any]:
    stacks = pos.s["stacks"]
    if not word.isdigit() or not 1 <= int(word) <= len(stacks):
        raise IllegalMove(f"stacks are numbered 1-{len(stacks)} from the left, not {word!r}")
    return stacks[int(word) - 1]


def _fight(pos: Position, word: str = "", *rest: str) -> Position:
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
    _defeat(pos, stack)
    return pos


def _defeat(pos: Position, stack: dict[str, Any]) -> None:
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


def _flip(pos: Position, word: str = "", *rest: str) -> Position:
    stack, turn = _stack_at(pos, word), pos.turn
    if stack["top"] is not None or stack["uid"] not in turn["cleared"]:
        raise IllegalMove(f"only a stack whose top monster was defeated this turn is flipped; "
                          f"stack {word} is not one")
    if turn["into"] not in (None, stack["uid"]):
        raise IllegalMove("the party is locked into the stack it flipped")
    pos.s["step"] = {"kind": "card", "deck": "stack", "ref": stack["uid"], "then": "flip",
                     "for": pos.seat, "extra": []}
    return pos


def _banish(pos: Position, word: str = "", *rest: str) -> Position:
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


def _stop(pos: Position, *rest: str) -> Position:
    pos.s["agenda"] = [list(i) for i in AFTER_ATTACK]
    return run(pos)


# Damage, treasure, hand limit

def _lose(pos: Position, key: str = "", *rest: str) -> Position:
    step = pos.step
    try:
        member = pos.member(key)
    except KeyError:
        member = None
    if member is None or member["uid"] not in pos.turn["active"]:
        raise IllegalMove(f"only active heroes take damage; {key!r} is not one")
    _remove(pos, key, "lost")
    step["left"] -= pos.cards.heroes[member["card"]].strength
    if step["left"] > 0 and pos.active():
        return pos
    return run(pos)


def _attach(pos: Position, key: str = "", *rest: str) -> Position:
    step = pos.step
    try:
        member = pos.member(key)
    except KeyError:
        member = None
    if member is None or member["uid"] not in pos.turn["active"]:
        raise IllegalMove(f"treasures go on active heroes only; {key!r} is not one")
    if member["treasure"]:
        pos.s["treasure_discard"].append(member["treasure"][0])
    member["treasure"] = [step["card"], step["level"]]
    return run(pos)


def _discard(pos: Position, card: str = "", *rest: str) -> Position:
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
    return pos if len(hand) > HAND else run(pos)


def _adjust(pos: Position, move: Act) -> Position:
    """A hand-resolved ability, typed (MANUAL_ADJUSTMENTS)."""
    what, amount = move.args[0], int(move.args[1])  # MANUAL_ADJUSTMENTS
    kind = pos.step["kind"]
    if kind in ("over", "first"):
        raise IllegalMove("adjustments are made during a player's turn")
    turn = pos.turn
    if what != "xp" and not turn:
        raise IllegalMove(f"{what} is adjusted during a turn; before the first one only XP")
    if what == "xp":
        pos.s["adjust"][actor(pos)] += amount
    elif what == "strength":
        turn["left" if kind == "attack" else "strength"] += amount
        if turn["left"] < 0:
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


# How many words each verb takes (the text form is the one form: no stray words accepted).
ARITY = {"card": (1, 1), "recruit": (1, 3), "play": (1, 1), "dice": (0, 0), "activate": (2, 8),
         "reroll": (0, 12), "attack": (0, 0), "fight": (1, 1), "flip": (1, 1), "banish": (1, 1),
         "stop": (0, 0), "lose": (1, 1), "attach": (1, 1), "discard": (0, 1)}

MOVES: dict[tuple[str, str], Callable[..., Position]] = {
    ("card", "card"): _card,
    ("action", "recruit"): _recruit, ("action", "play"): _play, ("action", "dice"): _dice_phase,
    ("dice", "activate"): _activate, ("dice", "reroll"): _reroll, ("dice", "attack"): _attack,
    ("attack", "fight"): _fight, ("attack", "flip"): _flip, ("attack", "banish"): _banish,
    ("attack", "stop"): _stop,
    ("damage", "lose"): _lose,
    ("attach", "attach"): _attach, ("attach", "discard"): _discard,
    ("limit", "discard"): _discard,
}
