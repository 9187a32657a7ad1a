"""The Wargame: the monsters on a 4x4 grid of face-down playing cards. A turn is one of: roll
the d6 and move, fight a monster on the same square (three combat rounds, the attacker first),
or flip the card underfoot (a red card scores). It ends when one monster is left or every card
is face up; the highest tally wins, a tie goes to a roll of the die.

Squares are numbered 1-16 row by row (0-15 here); cards are typed as 'QH', '10S'.
"""

from __future__ import annotations

from functools import cache

from ...errors import IllegalMove
from . import exchange, flow
from .moves import Act
from .position import Position
from .scoring import DECK, wargame_points

SIDE = 4
MAX_PLAYERS = 4  # "no more than 4 players on a given board"; one corner each
CORNERS = (0, 15, 3, 12)  # WARGAME_CORNERS


def setup(s: dict[str, object], players: int) -> None:
    """Changes `s`: no token placed yet, every card face down, nothing tallied."""
    s.update({"at": [None] * players, "grid": [None] * SIDE * SIDE, "tally": [0] * players})


def place_tokens(pos: Position) -> None:
    """Changes `pos`: tokens on the corners, the first player's first, down the turn order."""
    for corner, seat in zip(CORNERS, pos.s["order"]):
        pos.s["at"][seat] = corner


def _beside(sq: int) -> list[int]:
    row, col = divmod(sq, SIDE)
    return [r * SIDE + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1),
                                      (row, col + 1)) if 0 <= r < SIDE and 0 <= c < SIDE]


@cache
def reach(at: int, roll: int, up_to: bool = False) -> tuple[int, ...]:
    """Where the token can end: "Roll the die and move that many spaces", exactly `roll` steps
    along rows and columns, never entering a square twice in one move; with the move option
    'up-to', any square one to `roll` steps away."""
    if up_to:  # WARGAME_MOVE
        row, col = divmod(at, SIDE)
        return tuple(sq for sq in range(SIDE * SIDE)
                     if 1 <= abs(sq // SIDE - row) + abs(sq % SIDE - col) <= roll)
    ends: set[int] = set()

    def walk(path: list[int]) -> None:
        if len(path) == roll + 1:
            ends.add(path[-1])
            return
        for sq in _beside(path[-1]):
            if sq not in path:
                walk([*path, sq])

    walk([at])
    return tuple(sorted(ends))


def unseen(pos: Position) -> list[str]:
    """The cards that can still be face down: the deck less those turned up."""
    up = set(pos.s["grid"])
    return [card for card in DECK if card not in up]


def legal(pos: Position) -> list[Act]:
    s, seat, kind = pos.s, pos.seat, pos.step["kind"]
    if kind == "place":
        up_to = pos.options.move == "up-to"
        return [Act("go", (sq + 1,)) for sq in reach(s["at"][seat], pos.step["roll"], up_to)]
    if kind == "card":
        return [Act("card", card=card) for card in unseen(pos)]
    here = s["at"][seat]
    moves = [Act("move")]
    moves += [Act("fight", (p + 1,)) for p in pos.alive() if p != seat and s["at"][p] == here]
    if s["grid"][here] is None:
        moves.append(Act("flip"))
    return moves + [Act("surrender")]


def apply(pos: Position, act: Act) -> Position:
    """A Wargame move; the flow has checked it is legal. Returns the new position."""
    new = pos.copy()
    s, seat, name = new.s, pos.seat, pos.names[pos.seat]
    if act.verb == "move":
        s["step"] = {"kind": "move-roll"}
        s["news"] = f"{name} rolls the die to move"
    elif act.verb == "go":
        s["at"][seat] = act.numbers[0] - 1
        s["news"] = f"{name} moves to square {act.numbers[0]}"
        return flow.next_turn(new)
    elif act.verb == "fight":
        exchange.engage(new, act.numbers[0] - 1, attacker_rolls=True)
    elif act.verb == "flip":
        s["step"] = {"kind": "card"}
        s["news"] = f"{name} flips the card on square {s['at'][seat] + 1}"
    elif act.verb == "card":
        return _flipped(new, seat, act.card)
    else:
        raise IllegalMove(f"{act.text()!r} is not a Wargame move")
    return new


def _flipped(pos: Position, seat: int, card: str) -> Position:
    s = pos.s
    points = wargame_points(card)
    s["grid"][s["at"][seat]] = card
    s["tally"][seat] += points
    s["news"] = f"{pos.names[seat]} turns up {card}: +{points}, tally {s['tally'][seat]}"
    if all(s["grid"]):
        return _by_tally(pos)
    return flow.next_turn(pos)


def _by_tally(pos: Position) -> Position:
    """Changes `pos`: every card is up; the highest tally of those still in wins, ties roll."""
    s = pos.s  # WARGAME_TIES_ROLL
    alive = pos.alive()
    best = max(s["tally"][p] for p in alive)
    tied = [p for p in alive if s["tally"][p] == best]
    if len(tied) == 1:
        return _won(pos, tied[0], f"{pos.names[tied[0]]} has the highest tally, {best}")
    s["step"] = {"kind": "tiebreak", "tied": tied, "rolls": {}}
    s["seat"] = tied[0]
    return pos


def _won(pos: Position, seat: int, reason: str) -> Position:
    pos.s["winners"], pos.s["reason"] = [seat], reason
    pos.s["step"] = {"kind": "over"}
    return pos


def rolled(pos: Position, value: int) -> Position:
    """The d6: a move's length, or a tie-break roll (highest wins, ties roll again)."""
    new = pos.copy()
    s, step, seat = new.s, new.step, new.seat
    if step["kind"] == "move-roll":
        s["step"] = {"kind": "place", "roll": value}
        s["news"] = f"{pos.names[seat]} rolls {value} to move"
        if not legal(new):
            return flow.next_turn(new)
        return new
    step["rolls"][str(seat)] = value
    s["news"] = f"{pos.names[seat]} rolls {value} for the tie"
    waiting = [p for p in step["tied"] if str(p) not in step["rolls"]]
    if waiting:
        s["seat"] = waiting[0]
        return new
    best = max(step["rolls"].values())
    tied = [p for p in step["tied"] if step["rolls"][str(p)] == best]
    if len(tied) == 1:
        return _won(new, tied[0], f"{pos.names[tied[0]]} wins the tie on the die, {best}")
    s["step"] = {"kind": "tiebreak", "tied": tied, "rolls": {}}
    s["seat"] = tied[0]
    return new

