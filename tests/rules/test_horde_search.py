"""The play search finds exactly the effects a brute force over every assignment finds."""

from __future__ import annotations

import random
from itertools import product

import pytest

from companion.rules.errors import IllegalMove
from companion.rules.games.monstrous_horde.assign import (
    BACKSTAB,
    GUIDANCE,
    MEND,
    RAGE,
    Board,
    Effect,
)
from companion.rules.games.monstrous_horde.moves import DieUse, Group, Play
from companion.rules.games.monstrous_horde.position import Enemy, at_play
from companion.rules.games.monstrous_horde.rules import (
    BARBARIAN,
    CLERIC,
    DRUID,
    ROGUE,
    ROLES,
    WIZARD,
    Options,
)

Key = tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]


def _key(board: Board, effect: Effect) -> Key:
    """Identical enemies are interchangeable: compare what kinds of targets fell, not which."""
    kinds = sorted((t.tier, t.need, t.points) for t in (board.by_ref[r] for r in effect.defeated))
    return tuple(kinds), effect.healed


def _random_board(rng: random.Random, forced: tuple[int, ...] = ()) -> Board:
    others = [r for r in range(len(ROLES)) if r not in forced]
    roles = list(forced) + rng.sample(others, rng.randint(2, 4) - len(forced))
    values = {r: ROLES[r].sides if rng.random() < 0.5 or r in forced
              else rng.randint(1, ROLES[r].sides) for r in roles}
    used: list[int] = []
    bolts: tuple[int, ...] = ()
    bear: tuple[int, ...] = ()
    if values.get(WIZARD) == 4 and rng.random() < 0.6:
        used.append(WIZARD)
        bolts = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 2)))
    if values.get(DRUID) == 10 and rng.random() < 0.6:
        used.append(DRUID)
        bear = (rng.randint(1, 10), rng.randint(1, 10))
    faces = list(values.values()) + list(bolts) + list(bear)

    def likely() -> int:  # often a sum of some dice, so that plays exist to be found
        if rng.random() < 0.7:
            total = sum(rng.sample(faces, rng.randint(1, len(faces))))
            face = rng.choice(faces)
            total += rng.choice((0, 0, 1, -1, face, face + 1, face - 1, face + 2, face - 2))
            if 2 <= total <= 19:
                return total
        return rng.randint(2, 19)

    enemies = [Enemy(likely()) for _ in range(3)]
    if rng.random() < 0.3:
        enemies.append(Enemy(20, None, "hydra", tuple(sorted(
            min(10, max(2, likely())) for _ in range(rng.randint(0, 2))))))
    elif rng.random() < 0.3:
        enemies.append(Enemy(20, rng.randint(1, 10), "troll"))
    else:
        enemies.append(Enemy(likely()))
    others = [r for r in range(len(ROLES)) if r not in values]
    wounded = tuple(rng.sample(others, min(len(others), rng.randint(0, 2))))
    options = Options(hydra_unlock=rng.choice(["same-turn", "next-turn"]))
    return Board(at_play(values, tuple(enemies), wounded, bolts, bear, tuple(used), options))


def _brute_force(board: Board) -> set[Key]:
    """Try every assignment of dice to targets with every placement of every modifier."""
    dice, abilities = board.dice, board.abilities
    targets = list(board.targets)
    slack = (max(d.value for d in dice) + 2 if abilities & BACKSTAB else 0) + (
        1 if abilities & GUIDANCE else 0)
    chars = [d.token for d in dice if d.char]
    backstabs = [None] + (chars if abilities & BACKSTAB else [])
    guides = [None] + ([(c, m) for c in chars for m in ("+1", "-1")] if abilities & GUIDANCE
                       else [])
    found: set[Key] = set()
    for assignment in product(range(-1, len(targets)), repeat=len(dice)):
        groups: dict[int, list[int]] = {}
        for die, target in enumerate(assignment):
            if target >= 0:
                groups.setdefault(target, []).append(die)
        if any(abs(targets[t].need - sum(dice[d].value for d in ds)) > slack
               for t, ds in groups.items()):
            continue
        free = [t for t in range(len(targets)) if t not in groups]
        rages = [None] + ([targets[t].ref for t in free if targets[t].tier != MEND]
                          if abilities & RAGE else [])
        restores = [None] + ([targets[t].ref for t in free if targets[t].tier == MEND]
                             if abilities & GUIDANCE else [])
        for stab, guide, first, rage, restore in product(backstabs, guides, (True, False),
                                                         rages, restores):
            if not first and (guide is None or guide[0] != stab):
                continue  # the order of two modifiers matters only on the same die
            attacks, heals = [], []
            for t, ds in groups.items():
                uses = []
                for d in ds:
                    token = dice[d].token
                    mods = [m for m in ("*2",) if token == stab]
                    if guide and guide[0] == token:
                        mods.insert(0 if first else len(mods), guide[1])
                    uses.append(DieUse(token, tuple(mods)))
                group = Group(targets[t].ref, tuple(uses))
                (heals if targets[t].tier == MEND else attacks).append(group)
            try:
                effect = board.resolve(Play.make(attacks, heals, rage, restore))
            except IllegalMove:
                continue
            found.add(_key(board, effect))
    return found


@pytest.mark.parametrize(("seed", "forced"), [(s, ()) for s in range(60)] + [
    (s, (ROGUE, CLERIC)) for s in range(30)] + [(s, (BARBARIAN, CLERIC)) for s in range(10)])
def test_search_matches_brute_force(seed: int, forced: tuple[int, ...]) -> None:
    rng = random.Random(seed)
    board = _random_board(rng, forced)
    while (len(board.targets) + 1) ** len(board.dice) * 4 ** board.abilities.bit_count() > 40000:
        # keeps the brute force to a fraction of a second per board
        board = _random_board(rng, forced)
    ranked = board.ranked()
    searched = [_key(board, board.resolve(m.move)) for m in ranked]  # every play is legal
    assert [board.effect(m.move) for m in ranked] == [board.resolve(m.move) for m in ranked]
    assert len(set(searched)) == len(searched), "two plays with the same effect"
    assert set(searched) == _brute_force(board)
    points = [m.points for m in ranked]
    assert points == sorted(points, reverse=True)


def test_a_play_the_board_did_not_build_is_checked_in_full() -> None:
    board = Board(at_play({WIZARD: 3, ROGUE: 5}, (Enemy(8), Enemy(9), Enemy(12), Enemy(15))))
    built = board.best().move
    assert built.text() == "attack e1=wizard,rogue"
    assert board.effect(built) == board.resolve(built)
    with pytest.raises(IllegalMove, match="needs exactly 9"):
        board.effect(Play.make([Group("e2", (DieUse("wizard"), DieUse("rogue")))], [], None, None))
