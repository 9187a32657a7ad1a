"""The Villager Phase as the checklist the table walks: the Village Event dial, every Villager's
attack then movement, the Traps, the spawns, the Troll; then the Clean Up Phase."""

from __future__ import annotations

from typing import Any

from . import board
from .monster_phase import note, slay_monster
from .moves import Act, act
from .position import Position
from .rules import DEFENCE_BLOCKS, HUNTERS_PER_TYPE, LESSER

SPAWN_MOST = 4  # the most Peasants, or Hunters, a spawn card is offered with
TROLL = {
    "Melee": "deals 4 damage to the Villagers in its zone",
    "Ranged": "deals 1 damage to each Monster in its zone",
    "Magic": "deals 1 damage to everything in its zone",
    "Defence": "flip the coin: heads, 1 zone toward the Castle Heart; tails, 1 zone toward the "
               "closest Villager Spawn point",
    "Retaliate": "moves 1 zone toward the Castle Heart",
    "Villager": "moves 1 zone toward the closest Villager Spawn token",
}


def begin(pos: Position) -> None:
    """Step 1: the dial advances by the number of Monsters; each trigger point reached or
    passed draws a Village Event. The rest of the checklist waits in the queue."""
    s, scenario = pos.s, pos.scenario
    s["phase"] = "villager"
    s["dial"] += len(pos.names)
    events = []
    while s["drawn"] + len(events) < len(scenario.events) and \
            s["dial"] >= scenario.events[s["drawn"] + len(events)]:
        events.append({"kind": "event"})
    note(pos, f"the Village Event dial advances {len(pos.names)} to {s['dial']}"
              + (f": {len(events)} Village Event drawn" if events else ""))
    steps = [*events, {"kind": "attack", "queue": None}, {"kind": "march", "groups": None},
             {"kind": "traps"}, {"kind": "spawn", "zones": list(scenario.spawns)}]
    if pos.options.troll:
        steps.append({"kind": "troll", "dice": ["village"], "face": ""})
    s["queue"] = [*steps, {"kind": "cleanup"}]
    s["step"] = s["queue"].pop(0)


# -- what each step offers -----------------------------------------------------------------


def choices(pos: Position) -> list[Act]:
    step = pos.step
    kind = step["kind"]
    if kind == "event":
        return [act("event", e) for e, n in pos.s["event_deck"].items() if n > 0]
    if kind == "attack":
        zone, villager = step["queue"][0]
        moves: list[Act] = []
        for target in board.attack_targets(pos, zone, villager):
            if target == "heart":
                moves.append(act("hit", "heart"))
                continue
            guard = pos.monster(int(target))["guard"]
            moves.append(act("hit", target))
            moves += [act("hit", target, "block")] * ("Defence" in guard)
            moves += [act("hit", target, "retaliate")] * ("Retaliate" in guard)
            moves += [act("hit", target, "block", "retaliate")] * (
                "Defence" in guard and "Retaliate" in guard)
        return moves + [act("miss")] * pos.has(zone, "unlucky")
    if kind == "march":
        zone, villager = step["groups"][0][:2]
        return [act("path", zone, villager, d) for d in pos.scenario.zone(zone).toward]
    if kind == "traps":
        return [act("spring", z) for z in springing(pos)]
    if kind == "spawn":  # SPAWN_TYPED: what the drawn card says, typed
        moves = [act("spawn", p, h) for p in range(SPAWN_MOST + 1) for h in range(SPAWN_MOST + 1)]
        return moves + [act("spawn", "hero")] * bool(heroes_left(pos))
    if kind == "type":
        return [act("type", t) for t in bag(pos)]
    if kind == "hero":
        return [act("hero", h) for h in heroes_left(pos)]
    if kind == "deal":
        return [act("deal", t) for t in traps_left(pos)]
    return []


def bag(pos: Position) -> list[str]:
    """The type tokens in the dice bag: the types of the Monsters played."""
    return sorted({pos.dashboard(seat).type for seat in range(len(pos.names))})


def heroes_left(pos: Position) -> list[str]:
    """Town Heroes that can be revealed: those not on the board (an exhausted pile is shuffled
    again)."""
    out = {k.split(":")[1] for here in pos.s["villagers"].values() for k in here
           if board.rank(k) == "hero"}
    return [h for h in pos.data.heroes if h not in out]


def traps_left(pos: Position) -> list[str]:
    """Trap cards that can be dealt: copies not on the tile and not on the board."""
    used = [*pos.s["offered"], *pos.s["placed"].values()]
    return [t.id for t in pos.data.traps.values() if used.count(t.id) < t.copies]


def springing(pos: Position) -> list[str]:
    return sorted(z for z in pos.s["placed"] if pos.villager_count(z))


# -- what each step does -------------------------------------------------------------------


def play(pos: Position, move: Act) -> None:
    """Apply a Villager Phase move (legal already) to `pos`, a copy."""
    s, step, verb, args = pos.s, pos.step, move.verb, move.args
    if verb == "event":
        event = pos.data.events[args[0]]
        s["event_deck"][event.id] -= 1
        if not any(s["event_deck"].values()):  # "Whenever a deck has been exhausted ..."
            s["event_deck"] = {e.id: e.copies for e in pos.data.events.values()}
        s["drawn"] += 1
        s["event"] = event.id if event.persistent else None
        s["lasting"] = {}  # the last persistent event ends "until the next ... is drawn"
        if event.flips_time and pos.options.day_night:
            s["night"] = not s["night"]
        s["step"] = {"kind": "effects", "why": event.id, "event": True}  # EVENT_TEXT_BY_HAND
    elif verb in ("hit", "miss"):
        zone, villager = step["queue"].pop(0)
        if verb == "hit":
            attack(pos, zone, villager, args)
    elif verb == "path":
        group = step["groups"][0]
        march_group(pos, group, args[2])
    elif verb == "spring":
        spring(pos, args[0])
    elif verb == "spawn":
        zone = step["zones"].pop(0)
        if args[0] == "hero":
            s["queue"].insert(0, step)
            s["step"] = {"kind": "hero", "zone": zone}
            return
        board.add(pos, zone, "peasant", int(args[0]))
        if int(args[1]):
            s["queue"].insert(0, step)
            s["step"] = {"kind": "type", "zone": zone, "count": int(args[1])}
    elif verb == "type":
        hunters = f"hunter:{args[0]}"
        out = sum(here.get(hunters, 0) for here in s["villagers"].values())
        if out + step["count"] > HUNTERS_PER_TYPE:
            hunters = "hunter:seasoned"  # TYPE_FULL_IS_SEASONED
        board.add(pos, step["zone"], hunters, step["count"])
        s["step"] = {"kind": "done"}
    elif verb == "hero":
        board.add(pos, step["zone"], f"hero:{args[0]}")
        s["step"] = {"kind": "done"}
    elif verb == "deal":
        s["offered"].append(args[0])
        s["step"] = {"kind": "done"}


def attack(pos: Position, zone: str, villager: str, args: tuple[str, ...]) -> None:
    """One Villager's blow: on the Heart, or on a Monster who may block up to 2 with a Defence
    result and strike back with a Retaliate result for as much as the blow."""
    if args[0] == "heart":
        pos.s["heart"] = max(0, pos.s["heart"] - board.blow(pos, villager, None))
        return
    seat = int(args[0])
    m = pos.monster(seat)
    damage = board.blow(pos, villager, seat)
    taken = damage
    if "block" in args:
        m["guard"].remove("Defence")
        taken = max(0, damage - DEFENCE_BLOCKS)
    m["damage"] += taken  # the Town Hero's blow lands whole before a Retaliation slays it
    if "retaliate" in args:
        m["guard"].remove("Retaliate")
        board.hurt(pos, zone, villager, damage, seat)
    if m["damage"] >= pos.dashboard(seat).health:
        slay_monster(pos, seat)


def march_groups(pos: Position) -> list[list[Any]]:
    """Every group of Villagers (one kind in one zone) with the zones it still moves."""
    heart = pos.scenario.heart_zone
    order = sorted(pos.s["villagers"], key=pos.distance.__getitem__, reverse=True)
    return [[z, k, n, speed(pos, k)] for z in order if z != heart
            for k, n in sorted(pos.standing(z).items(), key=lambda kv: _rank(kv[0]))]


def _rank(kind: str) -> tuple[int, str]:
    return LESSER.index(board.rank(kind)), kind


def speed(pos: Position, kind: str) -> int:
    if board.rank(kind) == "hero":
        return pos.data.heroes[kind.split(":")[1]].speed
    return 1  # Peasants and Hunters "move a single zone"


def march_group(pos: Position, group: list[Any], dest: str) -> None:
    zone, kind, count = group[0], group[1], group[2]
    count = min(count, pos.standing(zone).get(kind, 0))
    if count:
        board.remove(pos, zone, kind, count)
        board.add(pos, dest, kind, count)
    group[0], group[2], group[3] = dest, count, group[3] - 1


def spring(pos: Position, zone: str) -> None:
    trap = pos.data.traps[pos.s["placed"].pop(zone)]
    fallen = board.spread(pos, zone, trap.damage, trap.affects)
    pushed = 0
    if trap.push:
        behind = board.away(pos, zone)
        for kind, n in list(pos.in_zone(zone).items()):
            if board.rank(kind) in trap.affects and behind != zone:
                board.remove(pos, zone, kind, n)
                board.add(pos, behind, kind, n)
                pushed += n
    note(pos, f"{trap.name} in the {pos.zone_name(zone)}: {fallen} slain"
              + (f", {pushed} pushed back 1 zone" if pushed else ""))


# -- the steps that need no choice -----------------------------------------------------------


def settle(pos: Position) -> bool:
    """Play what needs no choice in the current step; True when the step is finished."""
    step = pos.step
    kind = step["kind"]
    if kind == "attack":
        if step["queue"] is None:
            order = sorted(pos.s["villagers"], key=pos.distance.__getitem__, reverse=True)  # ATTACKS_FURTHEST_FIRST
            step["queue"] = [[z, k] for z in order for k, n in  # VILLAGER_STUN
                             sorted(pos.standing(z).items(), key=lambda kv: _rank(kv[0]))
                             for _ in range(n)]
        while step["queue"]:
            zone, villager = step["queue"][0]
            if pos.standing(zone).get(villager) and board.attack_targets(pos, zone, villager):
                return False
            step["queue"].pop(0)
        return True
    if kind == "march":
        if step["groups"] is None:
            step["groups"] = march_groups(pos)
        heart = pos.scenario.heart_zone
        while step["groups"]:
            group = step["groups"][0]
            if group[3] <= 0 or group[0] == heart or not pos.standing(group[0]).get(group[1]):
                step["groups"].pop(0)
                continue
            toward = pos.scenario.zone(group[0]).toward
            if len(toward) > 1:
                return False  # a fork: the coin decides
            march_group(pos, group, toward[0])
        return True
    if kind == "traps":
        return not springing(pos)
    if kind == "spawn":
        return not step["zones"]
    if kind == "cleanup":
        cleanup(pos)
        return False
    return kind in ("done", "skip")


def cleanup(pos: Position) -> None:
    """Zone conditions expire ("unless a Village Event causes them to persist": those the
    persistent event in play marked stay), stunned Villagers stand, Defence slots and used
    abilities clear; a Trap card is dealt if the tile has room."""
    s = pos.s
    s["conditions"] = {zone: list(marks) for zone, marks in s["lasting"].items()}
    s["stunned"] = {}  # "returned to a standing position once they have missed their activation"
    for m in s["monsters"]:
        m["guard"], m["used"] = [], []
    s["phase"] = "cleanup"
    if len(s["offered"]) < pos.scenario.trap_slots and traps_left(pos):
        s["step"] = {"kind": "deal"}
    else:
        s["step"] = {"kind": "done"}


def tier(pos: Position) -> int:
    """The spawn tier: 1, then 2 and 3 as Morale falls to the scenario's marks."""
    return 1 + sum(pos.s["morale"] <= mark for mark in pos.scenario.tiers)

