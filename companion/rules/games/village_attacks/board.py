"""Who stands where, and the book's priorities: which Villager a blow, a Trap or a Villager
result reaches, whom a Villager attacks, and what slaying one is worth.

A Villager is named by its KIND: peasant, hunter:TYPE, hunter:seasoned or hero:ID.
"""

from __future__ import annotations

from .position import Position
from .rules import EXPERIENCE, LESSER, MORALE, NEMESIS_HERO_EXPERIENCE


def rank(kind: str) -> str:
    """peasant, hunter or hero: what the priorities and the tables go by."""
    return kind.split(":")[0]


def add(pos: Position, zone: str, kind: str, count: int = 1) -> None:
    if count > 0:
        here = pos.s["villagers"].setdefault(zone, {})
        here[kind] = here.get(kind, 0) + count


def remove(pos: Position, zone: str, kind: str, count: int = 1) -> None:
    """Villagers off `zone`: those standing first, so the stunned stay down."""
    here = pos.s["villagers"][zone]
    here[kind] -= count
    down = pos.s["stunned"].get(zone, {})
    if down.get(kind, 0) > max(here[kind], 0):
        down[kind] = max(here[kind], 0)
    if here[kind] <= 0:
        del here[kind]
        down.pop(kind, None)
    if not here:
        del pos.s["villagers"][zone]
    if zone in pos.s["stunned"] and not down:
        del pos.s["stunned"][zone]


def stun(pos: Position, zone: str, kind: str) -> None:
    """One standing Villager of `kind` in `zone` is laid on its side until Clean Up."""
    down = pos.s["stunned"].setdefault(zone, {})
    down[kind] = down.get(kind, 0) + 1


def heave(pos: Position, zone: str, kind: str, dest: str) -> None:
    """A Villager forced one zone by a Heave: "a Villager of the same type is forced 1 zone
    towards the Castle Heart by the shortest route possible" (or away, when pushed back)."""
    remove(pos, zone, kind)
    add(pos, dest, kind)


def first_targets(pos: Position, zone: str, affects: tuple[str, ...] = LESSER) -> list[str]:
    """The kinds a blow into `zone` must strike: the lesser enemy first (Peasants, Hunters, Town
    Heroes); among Hunters of several types or several Town Heroes the players choose."""
    here = pos.in_zone(zone)
    for level in LESSER:
        if level in affects:
            kinds = sorted(k for k in here if rank(k) == level)
            if kinds:
                return kinds
    return []


def villager_health(pos: Position, kind: str) -> int:
    if rank(kind) == "hero":
        return pos.data.heroes[kind.split(":")[1]].health - pos.s["hero_damage"].get(
            kind.split(":")[1], 0)
    return 1  # Peasants and Hunters "have 1 health"


def hurt(pos: Position, zone: str, kind: str, amount: int, by: int | None) -> bool:
    """`amount` damage to one Villager of `kind` in `zone`; True when it is slain. `by` is the
    Monster that earns the experience (None: a Trap or a Burn, which earn none)."""
    if amount <= 0:
        return False
    if rank(kind) == "hero":
        hid = kind.split(":")[1]
        damage = pos.s["hero_damage"].get(hid, 0) + amount
        if damage < pos.data.heroes[hid].health:
            pos.s["hero_damage"][hid] = damage
            return False
        pos.s["hero_damage"].pop(hid, None)
    slain(pos, zone, kind, by)
    return True


def slain(pos: Position, zone: str, kind: str, by: int | None) -> None:
    """Off the board: Morale falls (never below zero) and the slayer gains experience."""
    remove(pos, zone, kind)
    level = rank(kind)
    pos.s["morale"] = max(0, pos.s["morale"] - MORALE[level])
    if by is None:
        return
    monster = pos.monster(by)
    gained = EXPERIENCE[level]
    if level == "hero" and pos.data.heroes[kind.split(":")[1]].type == pos.dashboard(by).type:
        gained = NEMESIS_HERO_EXPERIENCE
    if level == "peasant" and pos.s["night"] and pos.options.day_night and \
            pos.scenario.zone(zone).night_peasant_xp:
        gained += 1  # the Graveyard at Night
    monster["xp"] += gained
    monster["kills"] += 1


def spread(pos: Position, zone: str, damage: int, affects: tuple[str, ...]) -> int:
    """A Trap's damage, one point a Villager down the targeting priority; how many fell."""
    fallen = 0
    while damage > 0:
        kinds = first_targets(pos, zone, affects)
        if not kinds:
            break
        kind = kinds[0]
        need = villager_health(pos, kind)
        fallen += hurt(pos, zone, kind, min(damage, need), None)
        damage -= need
    return fallen


# -- the board's shape ---------------------------------------------------------------------


def within(pos: Position, zone: str, reach: int) -> list[str]:
    """Zones at most `reach` doors from `zone` (itself first)."""
    seen, edge = [zone], [zone]
    for _ in range(reach):
        edge = [n for z in edge for n in pos.adjacent(z) if n not in seen]
        seen += list(dict.fromkeys(edge))
    return seen


def away(pos: Position, zone: str) -> str:
    """The zone one step further from the Heart (TRAP_PUSH_AWAY): the first that leads here."""
    behind = [z.id for z in pos.scenario.zones if zone in z.toward]  # TRAP_PUSH_AWAY
    return behind[0] if behind else zone


# -- Villager results ----------------------------------------------------------------------


def activation_choices(pos: Position) -> list[tuple[str, str, str]]:
    """(zone, kind, destination) a Villager result may move: the zone furthest from the Heart,
    the lesser enemy first; equal zones and forks are the coin's to decide."""
    heart = pos.scenario.heart_zone
    dist = pos.distance
    zones = [z for z in pos.s["villagers"] if z != heart and pos.standing(z)]
    if not zones:
        return []
    far = max(dist[z] for z in zones)
    furthest = [z for z in zones if dist[z] == far]
    # "If a Monster rolled multiple results then they should attempt to resolve all of these in
    # the same zone": the zone this turn's first result chose keeps the rest while it can.
    if pos.turn.get("villager_zone") in furthest:
        furthest = [pos.turn["villager_zone"]]
    for level in LESSER:
        picks = [(z, k) for z in furthest for k in sorted(pos.standing(z)) if rank(k) == level]
        if picks:
            return [(z, k, d) for z, k in picks for d in pos.scenario.zone(z).toward]
    return []


# -- Villagers attacking -------------------------------------------------------------------


def reach_of(pos: Position, kind: str) -> int:
    level = rank(kind)
    if level == "peasant":
        return pos.options.peasant_range  # PEASANT_RANGE
    if level == "hunter":
        return 1  # Hunters: "1 range"
    return pos.data.heroes[kind.split(":")[1]].range


def is_nemesis(pos: Position, kind: str, seat: int) -> bool:
    level, _, which = kind.partition(":")
    if level == "hunter":
        return which in ("seasoned", pos.dashboard(seat).type)
    if level == "hero":
        return pos.data.heroes[which].type == pos.dashboard(seat).type
    return False


def blow(pos: Position, kind: str, seat: int | None) -> int:
    """A Villager's damage: 1, a Town Hero's own, +1 to a Monster of its type."""
    base = pos.data.heroes[kind.split(":")[1]].damage if rank(kind) == "hero" else 1
    return base + (1 if seat is not None and is_nemesis(pos, kind, seat) else 0)


def attack_targets(pos: Position, zone: str, kind: str) -> list[int | str]:
    """Whom a Villager attacks, the book's order: a Nemesis, the Castle Heart, Monsters in its
    zone, Monsters in adjacent zones; several of the first level: the coin decides."""
    reach = [z for z in within(pos, zone, reach_of(pos, kind))
             if z == zone or not (pos.has(z, "darkness") or pos.has(zone, "darkness"))]
    in_reach = [s for z in reach for s in pos.monsters_in(z)]
    nemeses = [s for s in in_reach if is_nemesis(pos, kind, s)]
    if nemeses:
        return sorted(nemeses)
    if pos.scenario.heart_zone in reach:
        return ["heart"]
    mine = pos.monsters_in(zone)
    return sorted(mine or in_reach)
