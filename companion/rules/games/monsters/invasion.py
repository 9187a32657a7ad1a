"""Invasion: the monsters roam a 3x4 grid of playing-card piles (mortals), feasting with Minus
dice and fighting whoever shares their section. Each monster's dice live in a bag: a turn draws
up to five and rolls them, may remove a stun with a Plus, spends one Plus or Minus to move (and
feast, or fight) or to attack, then banks one die (up to three, keeping its face). Running out
of health sits a turn out; the game ends when every card is taken, most points winning.

Sections are numbered 1-12 row by row (0-11 here); cards are typed as they are turned up.
"""

from __future__ import annotations

import random
from typing import Any

from . import exchange, flow
from .moves import Act
from .position import BAG, BANK, READY, STUNNED, Position
from .scoring import DECK, feast_limit, invasion_points

ROWS, COLS = 3, 4  # "build out a 3 x 4 grid"
DRAW = 5  # "Draw dice randomly from the bag to form the dice pool (5 maximum)"
BANK_SIZE = 3  # "Bank 1 die (up to 3)"


def setup(s: dict[str, Any], players: int, quick: bool) -> None:
    """Changes `s`: every die in its bag, no pawn on the grid, the piles dealt face down: two
    cards a pile, two more for each four players past four; one if quick."""
    per_pile = 1 if quick else 2 * -(-players // 4)  # INVASION_PILES
    s["pool"] = [[BAG] * len(p) for p in s["pool"]]
    s.update({"at": [None] * players, "taken": [[] for _ in range(players)],
              "sitting": [0] * players, "returning": [False] * players,
              "piles": [{"down": per_pile, "up": None} for _ in range(ROWS * COLS)],
              "deck_seen": []})


def points(pos: Position, seat: int) -> int:
    return sum(invasion_points(card) for card in pos.s["taken"][seat])


def finished(pos: Position) -> bool:
    return all(p["down"] == 0 and p["up"] is None for p in pos.s["piles"])


# -- the turn ----------------------------------------------------------------------------------

def begin_turn(pos: Position, seat: int) -> Position:
    """Changes `pos`: a monster sitting out misses this turn; one back from the outer
    dimensions returns every die to its bag at full health; then it draws."""
    s = pos.s
    if s["sitting"][seat]:
        s["sitting"][seat] -= 1
        s["news"] += f"; {pos.names[seat]} sits this turn out"
        return flow.next_turn(pos)
    if s["returning"][seat]:
        s["returning"][seat] = False
        s["pool"][seat] = [BAG] * len(s["pool"][seat])
        s["health"][seat] = len(pos.dice(seat))  # INVASION_RETURN_FULL_HEALTH
    s["turn"] = {"unstunned": False, "acted": False}
    if pos.in_pool(seat, BAG):
        s["step"] = {"kind": "draw"}
        return pos
    if payer(pos, seat, ("plus", "minus")) is not None:  # INVASION_EMPTY_BAG
        s["step"] = {"kind": "act"}
        s["news"] += f"; {pos.names[seat]} has no dice to draw and plays from the bank"
        return pos
    return _out_of_dice(pos, seat)


def _out_of_dice(pos: Position, seat: int) -> Position:
    """Changes `pos`: "running out of dice does not remove the player from the game. Instead,
    the player loses 1 turn": the turn is lost and the stunned dice go back to the bag with
    their health, so the monster draws again next turn."""
    s = pos.s
    stunned = pos.in_pool(seat, STUNNED)  # INVASION_OUT_OF_DICE
    for die in stunned:
        spend(pos, seat, die)
    s["health"][seat] = min(len(pos.dice(seat)), s["health"][seat] + len(stunned))
    s["news"] += (f"; {pos.names[seat]} has run out of dice and loses the turn"
                  + (f" ({len(stunned)} stunned dice back in the bag)" if stunned else ""))
    return flow.next_turn(pos)


def drawn(pos: Position, seat: int, shown: dict[int, str]) -> None:
    """Changes `pos`: the dice drawn and rolled leave the bag for the pool."""
    for die, face in shown.items():
        pos.s["pool"][seat][die] = READY
        pos.s["shown"][seat][die] = face
        pos.s["spent"][seat][die] = False


def draw_count(pos: Position, seat: int) -> int:
    return min(DRAW, len(pos.in_pool(seat, BAG)))


def seeded_draw(pos: Position, seat: int, rng: random.Random) -> list[str]:
    """The seeded stand-in for a draw: dice taken from the bag at random, each rolled."""
    dice = rng.sample(pos.in_pool(seat, BAG), draw_count(pos, seat))
    return [rng.choice(pos.dice(seat)[d]) for d in sorted(dice)]


def neighbours(at: int | None) -> list[int]:
    """One section along a row or column; a pawn off the grid enters anywhere."""
    if at is None:  # INVASION_MOVE
        return list(range(ROWS * COLS))
    row, col = divmod(at, COLS)
    return [r * COLS + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1),
                                      (row, col + 1)) if 0 <= r < ROWS and 0 <= c < COLS]


def distance(a: int, b: int) -> int:
    """Moves from section `a` to section `b`, one section along a row or column a move
    (exhausted sections stay on the way: their tokens are there "for navigation purposes")."""
    (row_a, col_a), (row_b, col_b) = divmod(a, COLS), divmod(b, COLS)
    return abs(row_a - row_b) + abs(col_a - col_b)


def payer(pos: Position, seat: int, faces: tuple[str, ...]) -> int | None:
    """The die that pays: the first unspent one in the pool, then the bank, showing one of
    `faces` in their order (a Plus before a Minus)."""
    usable = pos.usable(seat)  # INVASION_PAYS_PLUS_FIRST
    for face in faces:
        for where in (READY, BANK):
            for die, shown in usable.items():
                if shown == face and pos.s["pool"][seat][die] == where:
                    return die
    return None


def spend(pos: Position, seat: int, die: int) -> None:
    """Changes `pos`: a die spent goes back to the bag ("When dice are spent ... they are
    returned to the bag")."""
    pos.s["pool"][seat][die] = BAG
    pos.s["shown"][seat][die] = None
    pos.s["spent"][seat][die] = False


def others_at(pos: Position, seat: int) -> list[int]:
    at = pos.s["at"][seat]
    return [p for p in pos.alive() if p != seat and at is not None and pos.s["at"][p] == at]


def legal(pos: Position) -> list[Act]:
    s, seat, step = pos.s, pos.seat, pos.step
    kind = step["kind"]
    if kind == "card":
        seen = set(s["deck_seen"])
        return [Act("card", card=c) for c in DECK if c not in seen]
    if kind == "feast":
        return [Act("feast"), Act("stop")]
    if kind == "bank":
        return _bank_moves(pos)
    if step.get("forced"):  # "if you are not alone at the card, you must fight one player"
        return [Act("fight", (p + 1,)) for p in others_at(pos, seat)]
    moves = []
    first = not (s["turn"]["unstunned"] or s["turn"]["acted"])  # step 2 comes before step 3
    if first and payer(pos, seat, ("plus",)) is not None:
        moves += [Act("unstun", (d + 1,)) for d in pos.in_pool(seat, STUNNED)]
    if not s["turn"]["acted"] and payer(pos, seat, ("plus", "minus")) is not None:
        moves += [Act("go", (sq + 1,)) for sq in neighbours(s["at"][seat])]
        moves += [Act("fight", (p + 1,)) for p in others_at(pos, seat)]
    return moves + [Act("end"), Act("surrender")]


def _bank_moves(pos: Position) -> list[Act]:
    seat = pos.seat
    pool = [d for d in pos.in_pool(seat, READY) if not pos.s["spent"][seat][d]]
    bank = pos.in_pool(pos.seat, BANK)
    moves = [Act("bank", (d + 1,)) for d in pool] if len(bank) < BANK_SIZE else []
    moves += [Act("unbank", (d + 1,)) for d in bank]
    moves += [Act("swap", (d + 1, e + 1)) for d in pool for e in bank]
    return moves + [Act("end")]


def apply(pos: Position, act: Act) -> Position:
    """An Invasion move (checked legal by the flow); returns the new position."""
    new = pos.copy()
    s, seat, kind = new.s, pos.seat, pos.step["kind"]
    name = pos.names[seat]
    if kind == "card":
        return _card(new, act.card)
    if kind == "feast":
        return _feast(new) if act.verb == "feast" else _acted(new)
    if kind == "bank":
        return _banked(new, act)
    if act.verb == "unstun":
        die = act.numbers[0] - 1
        paid = payer(new, seat, ("plus",))
        assert paid is not None
        spend(new, seat, paid)
        s["pool"][seat][die] = BAG  # INVASION_UNSTUN_TO_BAG
        s["health"][seat] = min(len(pos.dice(seat)), s["health"][seat] + 1)
        s["turn"]["unstunned"] = True
        s["news"] = f"{name} spends a Plus: {pos.die_name(seat, die)} is no longer stunned"
        return new
    if act.verb == "end":
        return bank_step(new)
    if act.verb == "surrender":
        s["news"] = ""
        flow.leave(new, seat, "surrenders")
        s["at"][seat] = None
        return new if s["winners"] is not None else flow.next_turn(new)
    if act.verb == "fight":
        if not pos.step.get("forced"):
            _pay(new, seat)
        s["turn"]["acted"] = True
        return exchange.engage(new, act.numbers[0] - 1)
    _pay(new, seat)  # go
    s["turn"]["acted"] = True
    return _arrive(new, seat, act.numbers[0] - 1)


def _pay(pos: Position, seat: int) -> None:
    paid = payer(pos, seat, ("plus", "minus"))
    assert paid is not None
    pos.s["news"] = f"{pos.names[seat]} spends a {pos.s['shown'][seat][paid]}"
    spend(pos, seat, paid)


def _arrive(pos: Position, seat: int, section: int) -> Position:
    """Changes `pos`: the pawn moves in; a crowd means a fight, a face-down card a flip."""
    s = pos.s
    s["at"][seat] = section
    s["news"] += f" and moves to section {section + 1}"
    pile = s["piles"][section]
    if others_at(pos, seat):
        s["step"] = {"kind": "act", "forced": True}
    elif pile["up"] is None and pile["down"]:
        s["step"] = {"kind": "card", "then": "feast"}
    elif pile["up"] is not None:  # INVASION_FEAST_FACE_UP
        s["step"] = {"kind": "feast", "limit": feast_limit(pile["up"]), "eaten": 0}
        return _feast_or_on(pos)
    return pos


def _card(pos: Position, card: str) -> Position:
    """Changes `pos`: a card typed as it is turned up: on arrival it lies face up and sets how
    many Minus may feast; while feasting it goes straight to the scoring pile."""
    s, seat = pos.s, pos.seat
    pile = s["piles"][s["at"][seat]]
    pile["down"] -= 1
    s["deck_seen"].append(card)
    if pos.step["then"] == "feast":
        pile["up"] = card
        s["news"] = f"{pos.names[seat]} turns up {card}"
        s["step"] = {"kind": "feast", "limit": feast_limit(card), "eaten": 0}
        return _feast_or_on(pos)
    s["taken"][seat].append(card)
    s["news"] = f"{pos.names[seat]} feasts on {card}: +{invasion_points(card)}"
    step = dict(pos.step["feast"])
    s["step"] = step
    return _after_meal(pos)


def _feast_or_on(pos: Position) -> Position:
    """Changes `pos`: the feast step while a Minus, a card and the limit allow."""
    s, seat, step = pos.s, pos.seat, pos.step
    pile = s["piles"][s["at"][seat]]
    left = pile["down"] + (pile["up"] is not None)
    if left and step["eaten"] < step["limit"] and payer(pos, seat, ("minus",)) is not None:
        return pos
    return _acted(pos)


def _feast(pos: Position) -> Position:
    """Changes `pos`: a Minus spent takes the top card of the pile into the scoring pile."""
    s, seat = pos.s, pos.seat
    paid = payer(pos, seat, ("minus",))
    assert paid is not None
    spend(pos, seat, paid)
    pile = s["piles"][s["at"][seat]]
    pos.step["eaten"] += 1
    if pile["up"] is not None:
        card, pile["up"] = pile["up"], None
        s["taken"][seat].append(card)
        s["news"] = f"{pos.names[seat]} feasts on {card}: +{invasion_points(card)}"
        return _after_meal(pos)
    s["step"] = {"kind": "card", "then": "take", "feast": dict(pos.step)}
    return pos


def _after_meal(pos: Position) -> Position:
    """Changes `pos`: an exhausted pile gets its token; the game may be over."""
    if finished(pos):
        return end_by_points(pos)
    return _feast_or_on(pos)


def _acted(pos: Position) -> Position:
    pos.s["step"] = {"kind": "act"}
    return pos


def bank_step(pos: Position) -> Position:
    """Changes `pos`: one banking action, or on to the end of the turn."""
    if len(_bank_moves(pos)) > 1:
        pos.s["step"] = {"kind": "bank"}
        return pos
    return end_turn(pos)


def _banked(pos: Position, act: Act) -> Position:
    """Changes `pos`: a banked die keeps its face until spent (Banking)."""
    s, seat = pos.s, pos.seat
    name = pos.names[seat]
    if act.verb == "bank":
        die = act.numbers[0] - 1
        s["pool"][seat][die] = BANK
        s["news"] = f"{name} banks {pos.die_name(seat, die)} showing {s['shown'][seat][die]}"
    elif act.verb == "unbank":
        die = act.numbers[0] - 1
        spend(pos, seat, die)
        s["news"] = f"{name} puts banked {pos.die_name(seat, die)} back in the bag"
    elif act.verb == "swap":
        into, out = act.numbers[0] - 1, act.numbers[1] - 1
        s["pool"][seat][into], s["pool"][seat][out] = BANK, READY
        s["news"] = (f"{name} banks {pos.die_name(seat, into)} and takes "
                     f"{pos.die_name(seat, out)} from the bank")
    else:
        s["news"] = f"{name} banks nothing"
    return end_turn(pos)


def end_turn(pos: Position) -> Position:
    """Changes `pos`: the pool goes back in the bag; the next player."""
    seat = pos.seat  # INVASION_POOL_BACK_TO_BAG
    for die in pos.in_pool(seat, READY):
        spend(pos, seat, die)
    return flow.next_turn(pos)


def after_battle(pos: Position) -> Position:
    """Changes `pos`: the battle over, spent dice and the defender's pool go back to the bag;
    the acting player goes on (banking) unless exhausted."""
    s, combat = pos.s, pos.combat
    assert combat is not None
    for seat in (combat["a"], combat["d"]):
        for die in pos.in_pool(seat, READY) + pos.in_pool(seat, BANK):
            if s["spent"][seat][die] or (seat == combat["d"] and s["pool"][seat][die] == READY):
                spend(pos, seat, die)
    s["combat"] = None
    if s["winners"] is not None:
        return pos
    if s["at"][pos.seat] is None or s["out"][pos.seat]:
        return flow.next_turn(pos)
    s["step"] = {"kind": "act"}
    return pos


def exhausted(pos: Position, seat: int) -> None:
    """Changes `pos`: Running Out of Health: the pawn leaves the grid, a turn is sat out, and
    on return every die goes back in the bag."""
    s = pos.s
    s["at"][seat] = None
    s["sitting"][seat] = 1
    s["returning"][seat] = True
    s["news"] += f"; {pos.names[seat]} is exhausted and returns to the outer dimensions"


def grabbed(pos: Position, seat: int, die: int) -> None:
    """Changes `pos`: in Invasion a grab discards the die into its bag instead of holding it."""
    spend(pos, seat, die)


def end_by_points(pos: Position) -> Position:
    """Changes `pos`: every card taken: the most points win; equal points share the win."""
    s = pos.s  # INVASION_TIES_SHARE
    totals = [points(pos, p) for p in range(len(pos.names))]
    best = max(totals[p] for p in pos.alive())
    s["winners"] = [p for p in pos.alive() if totals[p] == best]
    s["reason"] = (" and ".join(pos.names[p] for p in s["winners"])
                   + f" feasted most: {best} points")
    s["step"] = {"kind": "over"}
    return pos
