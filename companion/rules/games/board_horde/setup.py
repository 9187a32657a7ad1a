"""Setting the board up: where the tokens and Special Items start, from the players' squares or a
spread layout, checked so that no two things share a square and none starts near the Entrance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import RulesError
from .position import GONE, PORTAL, Place, Position, hero_id
from .rules import ENTRANCE, FIRST_SQUARES, ITEMS, ROLES, TOKEN_KINDS, TOKEN_PREFIX, Options

Square = tuple[int, int]  # (side, square number)
DEFAULT_COUNT = 4  # FOUR_OF_EACH


def parse_squares(text: str, what: str, options: Options) -> list[Square]:
    """Squares typed at setup ('11 18 26', Board B 'L11 R18', or 'none'), checked."""
    found: list[Square] = []
    if text.strip().lower() == "none":
        return found
    for word in text.replace(",", " ").split():
        side = 0
        if options.sides == 2:
            if word[:1].upper() not in ("L", "R"):
                raise RulesError(f"{what}: on Board B write L or R before the square, not {word!r}")
            side, word = (0 if word[0].upper() == "L" else 1), word[1:]
        if not word.isdigit():
            raise RulesError(f"{what}: {word!r} is not a square number")
        number = int(word)
        if not ENTRANCE + FIRST_SQUARES < number <= options.squares:  # FIRST_SIX_AFTER_ENTRANCE
            raise RulesError(f"{what}: square {number} is not allowed; tokens go on squares "
                             f"{ENTRANCE + FIRST_SQUARES + 1}-{options.squares}")
        found.append((side, number))
    return found


def _spread_layout(options: Options) -> tuple[dict[str, list[Square]], list[Square]]:
    """Four of each token kind, interleaved evenly along each side, and the items between them.

    Board A: items scattered among the tokens, or stacked mid-board. Board B: the Shoes mid one
    side, the Sword mid the other, no Shield (the book's Board B setup).
    """
    first = ENTRANCE + FIRST_SQUARES + 1
    room = options.squares - first + 1
    kinds: dict[str, list[Square]] = {k: [] for k in TOKEN_KINDS}
    items: list[Square] = []
    for side in range(options.sides):
        per_kind = DEFAULT_COUNT // options.sides
        scatter = options.sides == 1 and options.item_setup == "scattered"
        order = (_interleave_items(per_kind) if scatter
                 else [k for _ in range(per_kind) for k in TOKEN_KINDS])
        slots = len(order) + 1
        middle = first + room // 2
        for i, kind in enumerate(order):
            square = (side, first + (i + 1) * (room - 1) // slots)
            (items if kind == "item" else kinds[kind]).append(square)
        if not scatter:
            taken = {sq for squares in kinds.values() for sq in squares}
            spot = next(s for s in range(middle, options.squares + 1) if (side, s) not in taken)
            items.append((side, spot))
    return kinds, items


def _interleave_items(per_kind: int) -> list[str]:
    """monster trap potion item monster trap potion item ... with three items in all."""
    order: list[str] = []
    for i in range(per_kind):
        order += list(TOKEN_KINDS)
        if i < len(ITEMS):
            order.append("item")
    return order


def start_position(names: list[str], options: Options) -> Position:
    """The board as set up, heroes in their portals, nobody to move yet (first-player rolls)."""
    spread_kinds, spread_items = _spread_layout(options)
    tokens: dict[str, dict[str, Any]] = {}
    taken: dict[Square, str] = {}

    def place(what: str, square: Square) -> None:
        if square in taken:
            raise RulesError(f"{what} and {taken[square]} are both on square "
                             f"{_name(square, options.sides)}; "
                             f"space them out")
        taken[square] = what

    for kind in TOKEN_KINDS:
        typed = getattr(options, kind + "s")
        squares = parse_squares(typed, kind + "s", options) if typed.strip() else spread_kinds[kind]
        for n, square in enumerate(squares, 1):
            token_id = f"{TOKEN_PREFIX[kind]}{n}"
            place(f"{kind} {token_id}", square)
            tokens[token_id] = {"kind": kind, "at": list(square), "owner": None}
    items = _item_places(options, spread_items, place)
    where = {hero_id(seat, role): PORTAL for seat in range(len(names)) for role in ROLES}
    n = len(names)
    return Position(
        names=list(names), options=options, where=where, tokens=tokens, items=items,
        scores=[0] * n, kept_traps=[0] * n, kept_monsters=[0] * n, stored=[0] * n,
        turns=[0] * n, fails=[0] * n,
    )


def _item_places(options: Options, spread: list[Square],
                 place: Callable[[str, Square], None]) -> dict[str, Place]:
    """Where the Sword, Shoes and Shield start: typed squares, or the spread layout's."""
    if options.sides == 2:
        names = ["shoes", "sword"]  # Board B: the Shield is removed from play
    else:
        names = list(ITEMS)
    items: dict[str, Place] = {item: GONE for item in ITEMS}
    if options.items.strip().lower() == "none":
        return items
    typed = parse_squares(options.items, "items", options) if options.items.strip() else spread
    stacked = options.item_setup == "stack" and options.sides == 1
    if stacked and len(typed) != 1:
        raise RulesError(f"a stack of items lies on one square, not {len(typed)}")
    if not stacked and len(typed) != len(names):
        raise RulesError(f"items: give {len(names)} squares ({', '.join(names)}), "
                         f"not {len(typed)}")
    for i, item in enumerate(names):
        square = typed[0] if stacked else typed[i]
        if i == 0 or not stacked:
            place("the stack of items" if stacked else item, square)
        items[item] = list(square)
    return items


def _name(square: Square, sides: int) -> str:
    side, number = square
    return str(number) if sides == 1 else f"{'LR'[side]}{number}"
