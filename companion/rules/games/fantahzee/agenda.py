"""What follows a step, run until the table is needed: the setup's cards, the phases after the
Attack Step (counterattack, treasure, victory pile, Horde Phase, End Phase) and the next turn.
Each agenda item is [name, *args]; a handler either sets `step` (the table must act) or not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .position import Position
from .rules import DICE, DOOM, DRAW, HAND, REROLLS

AFTER_ATTACK = [["counter"], ["treasures"], ["victory"], ["horde"], ["draw", DRAW], ["limit"],
                ["end"]]


# -- the agenda ----------------------------------------------------------------------------------

def run(pos: Position) -> Position:
    """Do what waits in the agenda until a step needs a roll or a player."""
    s = pos.s
    s["step"] = None
    while s["step"] is None:
        item = s["agenda"].pop(0)
        AGENDA[item[0]](pos, *item[1:])
    return pos


def then(pos: Position, *items: list[Any]) -> None:
    pos.s["agenda"][:0] = [list(i) for i in items]


def _setup_stacks(pos: Position) -> None:
    then(pos, *[["reveal", "stack", st["uid"], "top"] for st in pos.s["stacks"]])


def _setup_hands(pos: Position) -> None:
    n = len(pos.names)
    order = [(pos.s["first"] + i) % n for i in range(n)]
    then(pos, *[["draw1", seat] for seat in order for _ in range(HAND)])


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
        stack = stack_by_uid(pos, ref)
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
    then(pos, *[["draw1", pos.seat] for _ in range(n)])


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
        then(pos, *[["treasure", level] for level in levels if level])


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
    then(pos, *items, ["ambush"])


def _ambush(pos: Position) -> None:
    cards = pos.cards
    _damage(pos, "ambush", sum(cards.monsters[st["top"]].ambush for st in pos.s["stacks"]
                               if st["top"] is not None))


def _limit(pos: Position) -> None:
    if len(pos.s["hands"][pos.seat]) > pos.hand_limit(pos.seat):
        pos.s["step"] = {"kind": "limit"}


def _end(pos: Position) -> None:
    s = pos.s
    s["turns"][pos.seat] += 1
    s["turn"] = new_turn()
    if s["doom"] >= DOOM and pos.seat == s["last"]:
        _finish(pos)
        return
    s["seat"] = (pos.seat + 1) % len(pos.names)
    then(pos, ["turn"])


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


def stack_by_uid(pos: Position, uid: int) -> dict[str, Any] | None:
    return next((st for st in pos.s["stacks"] if st["uid"] == uid), None)

