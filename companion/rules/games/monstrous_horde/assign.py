"""Assigning a rolled melee team: checking a play, and finding every distinct play worth making.

Two plays that defeat the same enemies and heal the same characters leave the game in the same
state (which die did the work never matters later), so "distinct" means distinct in effect: the
enumeration returns one canonical play per reachable effect, ranked by points then wounds healed.
Any other assignment with a legal effect is still accepted by `resolve`.

The search (`_Search`) runs over targets in a fixed order with the set of free dice as a bitmask
and memoises on (target, free dice, abilities left, two flags). For each target it keeps only the
undominated ways to hit it: a subset of dice using a subset of the abilities beats any superset,
because whatever the larger group allows afterwards, the smaller one allows too. Identical targets
(two enemies showing 12, two Hydra heads of 7; not a Huge Spider and a Wraith of one total) are
taken in order so no effect is found twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from ...core import RankedMove
from ...errors import IllegalMove
from .moves import DieUse, Group, Play
from .position import Enemy, Position
from .rules import (
    BARBARIAN,
    BEAR_DICE,
    CLERIC,
    DRUID,
    ENEMY_DICE,
    HEAD_POINTS,
    MAX_BOLTS,
    ROGUE,
    ROLE_INDEX,
    ROLES,
    WOUNDED,
)

BACKSTAB, GUIDANCE, RAGE = 1, 2, 4  # abilities a play may spend (GUIDANCE also covers Heal)
HEAD, FINAL, OTHER, MEND = 0, 1, 2, 3  # target tiers, in search order
_HEAL_COST = {ROGUE: BACKSTAB, BARBARIAN: RAGE}
_BOLTS = tuple(f"bolt{i + 1}" for i in range(MAX_BOLTS))
_BEARS = tuple(f"bear{i + 1}" for i in range(BEAR_DICE))
_SLOTS = tuple(f"e{i + 1}" for i in range(ENEMY_DICE))


class Die(NamedTuple):
    """A die the play may assign: a character die or a pool die (Fire Bolt, Bear Form).

    Die and Target are NamedTuples rather than dataclasses: every ranked list builds dozens.
    """

    token: str
    value: int
    char: bool
    heals: bool  # may join a healing group
    heal_cost: int  # ability forgone if it heals (a Rogue or Barbarian crit heals, no ability)


class Target(NamedTuple):
    """Something a group of dice can hit: an enemy, a Hydra head, or a wounded character.

    Fields in search order, so that sorting targets sorts by tier, then total, then name.
    """

    tier: int
    need: int
    ref: str
    points: int
    label: str


@lru_cache(maxsize=1024)
def _enemy_targets(enemy: Enemy, slot: int) -> tuple[Target, ...]:
    """What an enemy in line-up slot `slot` offers to hit (cached: enemies are values)."""
    if enemy.monster == "hydra" and enemy.epic:
        return (*(Target(HEAD, v, f"h{i + 1}", HEAD_POINTS, f"Hydra head {v}")
                  for i, v in enumerate(enemy.heads)),
                Target(FINAL, 20, _SLOTS[slot], HEAD_POINTS, "Hydra's last head 20"))
    return (Target(OTHER, enemy.need, _SLOTS[slot], enemy.points, enemy.label()),)


_MEND_TARGETS = tuple(Target(MEND, role.sides, role.name, 0, role.name.capitalize())
                      for role in ROLES)


@dataclass(frozen=True, slots=True)
class Effect:
    """What a play does: what it defeats and heals, and what that is worth."""

    defeated: tuple[str, ...]
    healed: tuple[int, ...]
    points: int


class Board:
    """The active player's dice and targets at the moment of the play."""

    def __init__(self, pos: Position) -> None:
        turn = pos.turn
        assert turn is not None and pos.seat is not None
        self.pos = pos
        abilities = (
            (BACKSTAB if turn.crit(ROGUE) else 0) | (GUIDANCE if turn.crit(CLERIC) else 0)
            | (RAGE if turn.crit(BARBARIAN) else 0)
        )
        self.abilities = abilities
        values, used = turn.values, turn.used
        dice: list[Die] = []
        active = sorted(turn.active())
        for role in active:
            value = values[role]
            assert value is not None
            # ONES_STILL_FIGHT: a 1 may attack but never heal; a used ability forbids healing.
            # The Cleric may heal even after its own ability (its Heal, used before the play).
            dice.append(Die(ROLES[role].name, value, True,
                            value != 1 and (role not in used or role == CLERIC),
                            _HEAL_COST.get(role, 0) & abilities))
        dice += [Die(_BOLTS[i], v, False, False, 0) for i, v in enumerate(turn.bolts)]
        first_bear = len(dice)
        dice += [Die(_BEARS[i], v, False, False, 0) for i, v in enumerate(turn.bear)]
        self.dice = dice
        self.index = {d.token: i for i, d in enumerate(dice)}
        # BEAR_DICE_WITH_DRUID: the Druid in bear form and its d10s go to a single enemy.
        self.bear_mask = ((1 << len(dice)) - (1 << first_bear)) | (
            1 << active.index(DRUID) if turn.bear and DRUID in active else 0)

        hydra = next((e for e in pos.enemies if e.monster == "hydra" and e.epic), None)
        self.hydra = hydra is not None
        self.unlock = hydra is None or pos.options.hydra_unlock == "same-turn"
        targets: list[Target] = []
        for slot, enemy in enumerate(pos.enemies):
            if enemy.d20 is not None and (enemy is hydra or self.unlock):
                targets += _enemy_targets(enemy, slot)
        # PREVIOUS_WOUNDS_ONLY: this turn's 1s are not wounded yet
        targets += [_MEND_TARGETS[r] for r, s in enumerate(pos.status[pos.seat]) if s == WOUNDED]
        targets.sort()
        self.targets = targets
        self.by_ref = {t.ref: t for t in targets}
        self._built: dict[int, Play] = {}  # plays built by ranked()/best(), by identity
        self._parts: dict[tuple[int, int, Any], tuple[str, Any, str]] = {}

    # ---- checking one play ------------------------------------------------------------------

    def resolve(self, play: Play) -> Effect:
        """Check a play against every rule; return its effect or raise IllegalMove naming the rule."""
        seen: set[str] = set()
        spent = 0
        groups: list[tuple[Group, bool]] = [(g, False) for g in play.attacks]
        groups += [(g, True) for g in play.heals]
        hit: list[Target] = []
        bear_groups: set[str] = set()
        for group, heal in groups:
            target = self._target(group.target, heal)
            if any(t.ref == target.ref for t in hit):
                raise IllegalMove(f"{target.label} is targeted twice")
            total = 0
            for use in group.dice:
                die = self._die(use.die)
                if use.die in seen:
                    raise IllegalMove(f"{use.die} is assigned twice: each die goes to one target")
                seen.add(use.die)
                spent = self._spend_mods(use, die, heal, spent)
                if heal:
                    spent = self._check_healer(die, spent)
                if self.bear_mask >> self.index[use.die] & 1:
                    bear_groups.add(group.target)
                total += use.value(die.value)
            if total != target.need:
                raise IllegalMove(
                    f"{target.label} needs exactly {target.need}, "
                    f"{'+'.join(d.text() for d in group.dice)} make {total}")
            hit.append(target)
        if len(bear_groups) > 1:
            raise IllegalMove("Bear Form: the Druid and its bear d10s must attack a single enemy")
        if play.rage is not None:
            spent = self._spend(RAGE, spent, "Battle Rage needs the Barbarian's crit (a 20)")
            target = self._target(play.rage, False)
            if any(t.ref == target.ref for t in hit):
                raise IllegalMove(f"{target.label} is targeted twice")
            hit.append(target)
        restored: list[int] = []
        if play.restore is not None:
            spent = self._spend(GUIDANCE, spent,
                                "the Cleric's crit gives Heal or Holy Guidance, not both")
            target = self._target(play.restore, True, restore=True)
            if any(t.ref == target.ref for t in hit):
                raise IllegalMove(f"{target.label} is healed twice")
            restored.append(ROLE_INDEX[target.ref])
        self._check_hydra(hit, bool(play.heals))
        return self._effect(play)

    def effect(self, play: Play) -> Effect:
        """The effect of a play: at once for a play object this board built, else `resolve`.

        The search only builds legal plays (tests/rules/test_horde_search.py resolves every one
        of them), so self-play skips re-checking; any other play, however it was made, is
        checked in full.
        """
        if self._built.get(id(play)) is play:
            return self._effect(play)
        return self.resolve(play)

    def _effect(self, play: Play) -> Effect:
        """What a legal play defeats, heals and scores (attacks and Rage defeat, heals mend)."""
        defeated = tuple(g.target for g in play.attacks)
        if play.rage is not None:
            defeated += (play.rage,)
        healed = [ROLE_INDEX[g.target] for g in play.heals]
        if play.restore is not None:
            healed.append(ROLE_INDEX[play.restore])
        by_ref = self.by_ref
        return Effect(defeated, tuple(sorted(healed)), sum(by_ref[r].points for r in defeated))

    def _die(self, token: str) -> Die:
        if token not in self.index:
            raise IllegalMove(f"{token} is not available to this play (not in the melee team, "
                              "paralyzed, or no such pool die)")
        return self.dice[self.index[token]]

    def _target(self, ref: str, heal: bool, restore: bool = False) -> Target:
        target = self.by_ref.get(ref)
        if heal:
            if target is None or target.tier != MEND:
                raise IllegalMove(f"{ref} is not a wounded character of yours")
            if not restore and not self.unlock:
                raise IllegalMove("while the Hydra lives only the Cleric's Heal may heal")
            return target
        if target is None or target.tier == MEND:
            if self.hydra and ref.startswith("e") and not self.unlock:
                raise IllegalMove("while the Hydra lives no other enemy may be attacked")
            raise IllegalMove(f"{ref} is not an enemy in the line-up")
        return target

    def _spend(self, ability: int, spent: int, rule: str) -> int:
        if not self.abilities & ability or spent & ability:
            raise IllegalMove(rule)
        return spent | ability

    def _spend_mods(self, use: DieUse, die: Die, heal: bool, spent: int) -> int:
        if use.mods and not die.char:
            raise IllegalMove("Backstab and Holy Guidance apply to character dice only")
        for mod in use.mods:
            if mod == "*2":
                if heal:
                    raise IllegalMove("Backstab doubles an attack, never a heal")
                spent = self._spend(BACKSTAB, spent, "Backstab needs the Rogue's crit (a 6), "
                                    "once a turn, and a Rogue that does not heal")
            else:
                spent = self._spend(GUIDANCE, spent, "Holy Guidance needs the Cleric's crit "
                                    "(an 8), once a turn, instead of the Cleric's Heal")
        return spent

    def _check_healer(self, die: Die, spent: int) -> int:
        if not die.char:
            raise IllegalMove(f"{die.token} is a pool die: pool dice never heal")
        if not die.heals:
            raise IllegalMove(f"{die.token} cannot heal: it rolled a 1 or used its ability")
        if die.heal_cost:
            name = "Backstab" if die.heal_cost == BACKSTAB else "Battle Rage"
            return self._spend(die.heal_cost, spent, f"{die.token} may heal or use {name}, "
                               "not both")
        return spent

    def _check_hydra(self, hit: list[Target], dice_heals: bool) -> None:
        if not self.hydra:
            return
        refs = {t.ref for t in hit}
        heads = [t for t in self.targets if t.tier == HEAD]
        final = next(t for t in self.targets if t.tier == FINAL)
        if final.ref in refs and any(h.ref not in refs for h in heads):
            raise IllegalMove("the Hydra's d20 head falls only after all its d10 heads")
        dead = final.ref in refs
        if not dead and (dice_heals or any(t.tier == OTHER for t in hit)):
            raise IllegalMove("while the Hydra lives no other enemy may be attacked and only "
                              "the Cleric's Heal may heal")

    # ---- every distinct play ----------------------------------------------------------------

    def ranked(self, showdown: bool = False) -> list[RankedMove]:
        """One play per reachable effect, best first (points, then wounds healed)."""
        return [self._ranked_move(*score) for score in sorted(self._scores(showdown))]

    def best(self, showdown: bool = False) -> RankedMove:
        """The first of `ranked()`, without building the plays that lose to it."""
        return self._ranked_move(*min(self._scores(showdown)))

    def _scores(self, showdown: bool) -> list[tuple[int, int, int, int, int, Any]]:
        """(-points, -healed, -kills, cleared, mask, witness chain) of every reachable effect.

        Ties in points go to the play that heals more, then defeats more, then leaves the
        hardest enemies standing for the next player (`cleared` sums the totals it defeats: a
        defeated enemy is rolled again, so beating an easy one takes it from the others). The
        mask (targets hit) is unique, so it settles what is left and the chain is never compared.
        """
        targets = self.targets
        scores = []
        for mask, chain in _Search(self).run().items():
            points = kills = healed = cleared = 0
            link = chain
            while link is not None:
                target = targets[link[0]]
                if target.tier == MEND:
                    healed += 1
                else:
                    kills += 1
                    points += target.points
                    cleared += target.need
                link = link[3]
            scores.append((-(kills if showdown else points), -healed, -kills, cleared, mask,
                           chain))
        return scores

    def _ranked_move(self, points: int, healed: int, kills: int, cleared: int, mask: int,
                     chain: Any) -> RankedMove:
        """The play a witness chain stands for, with its worth and words for the panel."""
        attacks: list[Group] = []
        heals: list[Group] = []
        rage = restore = None
        details: list[str] = []
        words: list[str] = []
        while chain is not None:
            key = chain[:3]
            part = self._parts.get(key)
            if part is None:
                part = self._parts[key] = self._part(*key)
            kind, payload, detail, said = part
            details.append(detail)
            words.append(said)
            if kind == "attack":
                attacks.append(payload)
            elif kind == "heal":
                heals.append(payload)
            elif kind == "rage":
                rage = payload
            else:
                restore = payload
            chain = chain[3]
        attacks.sort(key=_by_target)
        heals.sort(key=_by_target)
        play = Play(tuple(attacks), tuple(heals), rage, restore)
        self._built[id(play)] = play
        detail = "; ".join(details) or "end the turn without attacking"
        title = "; ".join(words) or "End the turn without attacking"
        if points:
            title += f" for {-points} point{'s' if points != -1 else ''}"
        return RankedMove(play, -points, detail, {"heals": -healed, "kills": -kills}, title)

    def _part(self, i: int, subset: int, spec: Any) -> tuple[str, Any, str, str]:
        """One step of a witness: (kind, group or target ref, short words for the detail line,
        the player's words for the title)."""
        target = self.targets[i]
        if spec == "rage":
            return ("rage", target.ref, f"Barbarian rages -> {target.label}",
                    f"the Barbarian's Battle Rage defeats {target_words(target)}")
        if spec == "restore":
            return ("restore", target.ref, f"Cleric restores {target.label}",
                    f"the Cleric heals the {target.label}")
        uses = []
        words = []
        for j, die in enumerate(self.dice):
            if subset >> j & 1:
                use = DieUse(die.token, spec[1] if spec and spec[0] == j else ())
                uses.append(use)
                words.append(f"{die.token.capitalize()} {die_text(die, use)}")
        group = Group(target.ref, tuple(uses))
        dice = " + ".join(words)
        if target.tier == MEND:
            return "heal", group, f"{dice} heal {target.label}", f"{dice} heal the {target.label}"
        verb = "defeats" if len(words) == 1 else "defeat"
        return ("attack", group, f"{dice} -> {target.label}",
                f"{dice} {verb} {target_words(target)}")


def target_words(target: Target) -> str:
    """An enemy as players name it: what it is, the total that beats it, and its place in the
    line-up, which it keeps all turn ("the Ogre 18 (e3)", "the Hydra head 7 (h2)")."""
    name = target.label[0].upper() + target.label[1:]
    return f"the {name} ({target.ref})"


def _by_target(group: Group) -> str:
    return group.target


def die_text(die: Die, use: DieUse) -> str:
    return f"{die.value}{''.join(use.mods)}" if use.mods else str(die.value)


class _Search:
    """Memoised search of every reachable effect (a bitmask over the board's targets)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        dice = board.dice
        n = len(dice)
        self.n = n
        self.by_sum = _subsets_by_sum(tuple(d.value for d in dice))
        self.chars = [i for i, d in enumerate(dice) if d.char]
        self.char_mask = sum(1 << i for i in self.chars)
        self.heal_mask = sum(1 << i for i, d in enumerate(dice) if d.heals)
        # A target nothing can hit is left out (the Hydra's heads stay: they gate the rest).
        self.places: list[int] = []
        self.options = []
        for place, target in enumerate(board.targets):
            options = self._options(target)
            if options or target.tier in (HEAD, FINAL):
                self.places.append(place)
                self.options.append(options)
        self.targets = [board.targets[p] for p in self.places]
        # The label names the enemy (a Huge Spider 25 and a Wraith 25 differ, two enemies of 12
        # do not): only targets that are the same in every way are taken in order.
        refs = [(t.tier, t.need, t.points, t.label) for t in self.targets]
        self.same_prev = [i > 0 and refs[i] == refs[i - 1] and self.targets[i].tier != MEND
                          for i in range(len(refs))]
        self.memo: dict[int, dict[int, Any]] = {}

    def _options(self, target: Target) -> list[tuple[int, int, Any]]:
        """Undominated (dice subset, abilities spent, modifier spec) that hit the target."""
        board, by_sum, need = self.board, self.by_sum, target.need
        have = board.abilities
        found: list[tuple[int, int, Any]] = []
        if target.tier == MEND:
            heal_mask, dice = self.heal_mask, board.dice
            if board.unlock:
                guide = [(0, ())] + ([(1, ("+1",)), (-1, ("-1",))] if have & GUIDANCE else [])
                for delta, mods in guide:
                    for subset in by_sum.get(need - delta, ()):
                        if subset & ~heal_mask:
                            continue
                        cost = GUIDANCE if mods else 0
                        for j in range(self.n):
                            if subset >> j & 1:
                                cost |= dice[j].heal_cost
                        lead = (subset & -subset).bit_length() - 1
                        found.append((subset, cost, (lead, mods) if mods else None))
            if have & GUIDANCE:
                found.append((0, GUIDANCE, "restore"))
            return _undominated(found)
        found += [(s, 0, None) for s in by_sum.get(need, ())]
        if not have:
            # One total and no abilities: no subset holds another (every die shows 1 or more),
            # so nothing is dominated and only _undominated's ordering is left to do.
            found.sort(key=_option_size)
            return found
        if have & GUIDANCE:
            for delta, mod in ((1, "+1"), (-1, "-1")):
                for subset in by_sum.get(need - delta, ()):
                    if subset & self.char_mask:
                        lead = (subset & self.char_mask & -(subset & self.char_mask))
                        found.append((subset, GUIDANCE, (lead.bit_length() - 1, (mod,))))
        if have & BACKSTAB:
            for j in self.chars:
                value = self.board.dice[j].value
                variants = [(value, BACKSTAB, ("*2",))]
                if have & GUIDANCE:
                    variants += [(value + 1, BACKSTAB | GUIDANCE, ("*2", "+1")),
                                 (value - 1, BACKSTAB | GUIDANCE, ("*2", "-1")),
                                 (value + 2, BACKSTAB | GUIDANCE, ("+1", "*2")),
                                 (value - 2, BACKSTAB | GUIDANCE, ("-1", "*2"))]
                for extra, cost, mods in variants:
                    for subset in by_sum.get(need - extra, ()):
                        if subset >> j & 1:
                            found.append((subset, cost, (j, mods)))
        if have & RAGE:
            found.append((0, RAGE, "rage"))
        return _undominated(found)

    def run(self) -> dict[int, Any]:
        """{mask over the searched targets: witness chain of (board target, dice, spec, rest)}."""
        return self._reach(0, (1 << self.n) - 1, self.board.abilities, False, True)

    def _reach(self, i: int, free: int, left: int, skipped: bool, hydra_ok: bool) -> dict[int, Any]:
        """Effects reachable from target i on: {mask of targets hit: witness chain}."""
        targets = self.targets
        if i == len(targets) or (free == 0 and left == 0):
            return _NOTHING
        key = ((((i << 12 | free) << 3 | left) << 1 | skipped) << 1) | hydra_ok
        found = self.memo.get(key)
        if found is not None:
            return found
        tier = targets[i].tier
        skipping = self._reach(i + 1, free, left, True, hydra_ok and tier not in (HEAD, FINAL))
        result = skipping
        allowed = not (skipped and self.same_prev[i])
        if tier == FINAL or tier == OTHER:
            allowed = allowed and hydra_ok
        if allowed:
            bit = 1 << i
            bear = self.board.bear_mask
            place = self.places[i]
            dice_ok = tier != MEND or hydra_ok or not self.board.hydra
            for subset, cost, spec in self.options[i]:
                if subset & ~free or cost & ~left or (subset and not dice_ok):
                    continue
                rest = free & ~subset
                if subset & bear:
                    rest &= ~bear
                sub = self._reach(i + 1, rest, left & ~cost, False, hydra_ok)
                if result is skipping:
                    result = dict(skipping)  # memoised dicts are shared: copy before adding
                for mask, chain in sub.items():
                    mask |= bit
                    if mask not in result:
                        result[mask] = (place, subset, spec, chain)
        self.memo[key] = result
        return result


def _subsets_by_sum(values: tuple[int, ...]) -> dict[int, list[int]]:
    """Every non-empty subset of the dice (a bitmask) by its total."""
    sums = [0] * (1 << len(values))
    by_sum: dict[int, list[int]] = {}
    for subset in range(1, 1 << len(values)):
        low = subset & -subset
        total = sums[subset] = sums[subset ^ low] + values[low.bit_length() - 1]
        if total in by_sum:
            by_sum[total].append(subset)
        else:
            by_sum[total] = [subset]
    return by_sum


_NOTHING: dict[int, Any] = {0: None}  # hitting nothing; shared, never changed (callers copy)


def _option_size(option: tuple[int, int, Any]) -> tuple[int, int]:
    """Fewer dice, then fewer abilities, first."""
    return option[0].bit_count(), option[1].bit_count()


def _undominated(options: list[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
    """Drop an option when another uses a subset of its dice and of its abilities."""
    if len(options) < 2:
        return options
    options.sort(key=_option_size)
    kept: list[tuple[int, int, Any]] = []
    for subset, cost, spec in options:
        if not any(s & ~subset == 0 and c & ~cost == 0 for s, c, _ in kept):
            kept.append((subset, cost, spec))
    return kept
