"""Setting the board up: where the tokens and Special Items start, from the players' squares or a
spread layout, checked so that no two things share a square and none starts near the Entrance."""

from __future__ import annotations

from ...errors import RulesError
from .position import GONE, PORTAL, Place, Position, hero_id, square_name
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


def _spread_layout(options: Options) -> dict[str, list[Square]]:
    """Four of each token kind, interleaved evenly along each side, and the items between them.

    Board A: items scattered among the tokens, or stacked mid-board. Board B: the Sword mid the
    left side, the Shoes mid the right (flow's first roll may swap them), no Shield.
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
            items.append((side, middle))  # a token there moves it to the nearest free square
    return {**kinds, "item": items}


def _interleave_items(per_kind: int) -> list[str]:
    """monster trap potion item monster trap potion item ... with three items in all."""
    order: list[str] = []
    for i in range(per_kind):
        order += list(TOKEN_KINDS)
        if i < len(ITEMS):
            order.append("item")
    return order


def start_position(names: list[str], options: Options) -> Position:
    """The board as set up, heroes in their portals, nobody to move yet (first-player rolls).

    Squares the players typed go down first (two things typed on one square is a mistake to
    report); kinds left empty take the spread layout, each moved to the nearest free square.
    """
    spread = _spread_layout(options)
    typed = {kind: _typed(options, kind) for kind in spread}
    taken: dict[Square, str] = {}
    placed: dict[str, list[Square]] = {}
    for kind, squares in typed.items():
        if squares is not None:
            placed[kind] = squares
            for square in dict.fromkeys(squares):  # a stack's one square once
                if square in taken:
                    raise RulesError(f"{_a(kind)} and {_a(taken[square])} are both on square "
                                     f"{square_name(square, options.sides)}; space them out")
                taken[square] = kind
    for kind, squares in spread.items():
        if typed[kind] is None:
            placed[kind] = [_nearest_free(taken, square, kind, options)
                            for square in dict.fromkeys(squares)]
    tokens = {f"{TOKEN_PREFIX[kind]}{n}": {"kind": kind, "at": list(square), "owner": None}
              for kind in TOKEN_KINDS for n, square in enumerate(placed[kind], 1)}
    n = len(names)
    return Position(
        names=list(names), options=options, tokens=tokens, items=_items(options, placed["item"]),
        where={hero_id(seat, role): PORTAL for seat in range(n) for role in ROLES},
        scores=[0] * n, kept_traps=[0] * n, kept_monsters=[0] * n, stored=[0] * n,
        turns=[0] * n, fails=[0] * n,
    )


def _typed(options: Options, kind: str) -> list[Square] | None:
    """The squares typed for a kind ([] for 'none'), or None when left to the spread layout."""
    what = kind + "s"
    text = getattr(options, what)
    return parse_squares(text, what, options) if text.strip() else None


def _nearest_free(taken: dict[Square, str], square: Square, kind: str,
                  options: Options) -> Square:
    side, number = square
    first = ENTRANCE + FIRST_SQUARES + 1
    for distance in range(options.squares):
        for candidate in (number + distance, number - distance):
            if first <= candidate <= options.squares and (side, candidate) not in taken:
                taken[(side, candidate)] = kind
                return (side, candidate)
    raise RulesError(f"no free square left for a {kind}: make the board longer")


def _items(options: Options, squares: list[Square]) -> dict[str, Place]:
    """Where the Sword, Shoes and Shield start ('none': out of play; Board B: no Shield)."""
    items: dict[str, Place] = {item: GONE for item in ITEMS}
    if not squares:
        return items
    names = list(ITEMS[:2]) if options.sides == 2 else list(ITEMS)  # sword, shoes(, shield)
    stacked = options.item_setup == "stack" and options.sides == 1
    if stacked and len(squares) != 1:
        raise RulesError(f"a stack of items lies on one square, not {len(squares)}")
    if not stacked and len(squares) != len(names):
        raise RulesError(f"items: give {len(names)} squares ({', '.join(names)}), "
                         f"not {len(squares)}")
    for i, item in enumerate(names):
        items[item] = list(squares[0] if stacked else squares[i])
    return items


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind
