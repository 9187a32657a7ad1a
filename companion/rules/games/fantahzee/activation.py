"""Which heroes a roll can activate and with which dice (the Roll Step's arithmetic).

Dice are counted by face (DICE_BY_FACE): a pool is six counts, ones to sixes, and a payment is
the counts it locks. Everything here is pure: the flow and the panel's advice call it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from .cards import Cost

Counts = tuple[int, int, int, int, int, int]


def counts(values: Iterable[int]) -> Counts:
    # DICE_BY_FACE: a pool is how many dice show each number, never which die
    c = [0] * 6
    for v in values:
        c[v - 1] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


def faces(payment: Sequence[int]) -> list[int]:
    """Counts back to the faces a move names, highest first: (0, 0, 3, 0, 0, 0) -> [3, 3, 3]."""
    return [f + 1 for f in range(5, -1, -1) for _ in range(payment[f])]


def cut_cost(cost: Cost, kinds_too: bool = True) -> Cost | None:
    """The cost one 'reduce an X' takes off, or None if it cannot apply (CUT_X_OR_KIND)."""
    if cost.steam:
        return None
    if cost.any:
        return replace(cost, any=cost.any - 1)
    if kinds_too and cost.groups:
        groups = list(cost.groups)
        groups[0] -= 1
        if groups[0] == 1:  # one of a kind is any one die
            return replace(cost, groups=tuple(g for g in groups[1:]), any=cost.any + 1)
        return replace(cost, groups=tuple(sorted(groups, reverse=True)))
    return None


def payments(cost: Cost, pool: Sequence[int]) -> list[Counts]:
    """Every distinct set of dice (as counts) from `pool` that pays a dice cost exactly."""
    if cost.steam:
        return []
    rest = list(pool)
    for f, n in enumerate(cost.numbers):
        rest[f] -= n
        if rest[f] < 0:
            return []
    base = list(cost.numbers) if cost.numbers else [0] * 6
    found: set[Counts] = set()

    def any_dice(start: int, need: int, rest: list[int], paid: list[int]) -> None:
        if need == 0:
            found.add((paid[0], paid[1], paid[2], paid[3], paid[4], paid[5]))
            return
        for f in range(start, 6):
            if rest[f]:
                rest[f] -= 1
                paid[f] += 1
                any_dice(f, need - 1, rest, paid)
                rest[f] += 1
                paid[f] -= 1

    def group(i: int, rest: list[int], paid: list[int]) -> None:
        if i == len(cost.groups):
            any_dice(0, cost.any, rest, paid)
            return
        size = cost.groups[i]
        for f in range(6):
            if rest[f] >= size:
                rest[f] -= size
                paid[f] += size
                group(i + 1, rest, paid)
                rest[f] += size
                paid[f] -= size

    group(0, rest, base)
    return sorted(found, reverse=True)


def can_pay(cost: Cost, pool: Sequence[int]) -> bool:
    """Whether any payment exists (cheaper than listing them all)."""
    if cost.steam:
        return False
    rest = [pool[f] - (cost.numbers[f] if cost.numbers else 0) for f in range(6)]
    if min(rest) < 0:
        return False
    return _groups_fit(tuple(cost.groups), rest, cost.any)


def _groups_fit(groups: tuple[int, ...], rest: list[int], anys: int) -> bool:
    if not groups:
        return sum(rest) >= anys
    size = groups[0]
    for f in range(6):
        if rest[f] >= size:
            rest[f] -= size
            ok = _groups_fit(groups[1:], rest, anys)
            rest[f] += size
            if ok:
                return True
    return False


def hero_payments(costs: Sequence[Cost], pool: Sequence[int], cuts: int,
                  kinds_too: bool) -> dict[Counts, bool]:
    """Distinct dice payments for a hero -> whether that payment needs a cut (a Sergeant)."""
    found: dict[Counts, bool] = {}
    for cost in costs:
        for paid in payments(cost, pool):
            found[paid] = False
        if cuts:
            cheaper = cut_cost(cost, kinds_too)
            if cheaper is not None:
                for paid in payments(cheaper, pool):
                    found.setdefault(paid, True)
    return found


def any_payment(costs: Sequence[Cost], pool: Sequence[int], cuts: int, kinds_too: bool) -> bool:
    for cost in costs:
        if can_pay(cost, pool):
            return True
        if cuts:
            cheaper = cut_cost(cost, kinds_too)
            if cheaper is not None and can_pay(cheaper, pool):
                return True
    return False


def minus(pool: Sequence[int], paid: Sequence[int]) -> Counts:
    return (pool[0] - paid[0], pool[1] - paid[1], pool[2] - paid[2], pool[3] - paid[3],
            pool[4] - paid[4], pool[5] - paid[5])
