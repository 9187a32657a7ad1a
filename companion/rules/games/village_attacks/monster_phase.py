"""The Monster Phase: a Monster's turn from its activation (respawn, Burn, Stun, the Reserve
choice) through the roll, the reroll rule and the Villager results, to spending the dice."""

from __future__ import annotations

from typing import Any

from ...errors import IllegalMove
from . import board, pool
from .moves import Act, act
from .position import Position
from .rules import RESPAWN_COST, STATUSES, ZONE_CONDITIONS


def begin_turn(pos: Position, seat: int) -> None:
    """The Monster in `seat` activates: a slain one respawns in the Heart (the Heart takes 2)
    unless that would end the game, Burn bites, a Stun costs a die, then the Reserve choice."""
    s = pos.s
    s["seat"] = seat
    m = pos.monster(seat)
    m["turns"] += 1
    heart = pos.scenario.heart_zone
    s["turn"] = {"rolled": [], "spent": [], "total": 0, "moved": 0, "night_heart": False}
    if m["zone"] is None:
        if s["heart"] - RESPAWN_COST <= 0:
            note(pos, f"{pos.names[seat]}'s Monster cannot respawn: the Heart would fall")
            s["step"] = {"kind": "skip"}
            return
        s["heart"] -= RESPAWN_COST
        m["zone"] = heart
        note(pos, f"{pos.names[seat]}'s {pos.dashboard(seat).name} respawns in the Castle Heart "
                  f"(the Heart takes {RESPAWN_COST})")
    if m["burn"]:
        m["damage"] += m["burn"]  # BURN_PER_TOKEN
        note(pos, f"Burn: {pos.dashboard(seat).name} takes {m['burn']}")
        if m["damage"] >= pos.dashboard(seat).health:
            slay_monster(pos, seat)
            s["step"] = {"kind": "skip"}
            return
    s["turn"]["night_heart"] = bool(s["night"] and pos.options.day_night and m["zone"] == heart)
    s["step"] = {"kind": "reserve"} if m["reserve"] else roll_step(pos, True)


def roll_step(pos: Position, keep: bool) -> dict[str, Any]:
    """The chance step of the turn's roll (or the spending, when no die is left to roll)."""
    m, turn = pos.monster(), pos.turn
    count = pool.dice_count(pos, keep)
    m["stun"] = False  # "return the miniature to a standing position"
    if not keep:
        m["reserve"] = []
    turn["total"] = len(m["reserve"]) + count
    if count == 0:
        return {"kind": "spend"}
    return {"kind": "roll", "dice": list(pool.kinds_for(pos, count)), "face": ""}


def rolled(pos: Position, faces: list[tuple[str, str]]) -> None:
    """The dice of the roll (or a reroll) land among the turn's results."""
    pos.turn["rolled"] += [[die, face] for die, face in faces]
    pos.s["step"] = {"kind": "rolled"}


def slay_monster(pos: Position, seat: int) -> None:
    """Damage equal to its Health: everything leaves the dashboard but its abilities."""
    m = pos.monster(seat)
    m.update(zone=None, damage=0, xp=0, stun=False, reserve=[], guard=[],
             **{status: 0 for status in STATUSES})
    if seat == pos.seat and pos.turn:
        pos.turn["rolled"] = []
    note(pos, f"{pos.names[seat]}'s {pos.dashboard(seat).name} is slain")


def note(pos: Position, line: str) -> None:
    pos.s["notes"].append(line)


# -- what the dice on the table can pay for ----------------------------------------------


def spending(pos: Position) -> list[Act]:
    """Every way to spend the results now: movement, attacks, Defence, Reserve, abilities,
    Traps, objectives, healing in the Heart; and ending the turn."""
    m, dash, zone = pos.monster(), pos.dashboard(), pos.monster()["zone"]
    have = pool.available(pos)
    moves: list[Act] = []
    if zone is None:
        return [act("end")]
    limit = max(1, dash.movement - m["slow"])  # "a Monster must always have at least 1"
    hindered = sum(pos.standing(zone).values()) >= pos.health_left()
    if pos.turn["moved"] < limit and not hindered:
        moves += [act("move", z, f) for z in pos.adjacent(zone) for f in sorted(have)]
    tails = ("", "miss") if pos.has(zone, "unlucky") else ("",)
    if have["Melee"]:
        moves += [act("melee", k, *([t] if t else [])) for k in board.first_targets(pos, zone)
                  for t in tails]
    if have["Ranged"] and not pos.has(zone, "darkness"):  # RANGE_IS_ADJACENT
        for z in pos.adjacent(zone):
            if not pos.has(z, "darkness"):
                moves += [act("ranged", z, k, *([t] if t else []))
                          for k in board.first_targets(pos, z) for t in tails]
    if len(m["guard"]) < dash.defence - m["sunder"]:
        moves += [act("guard", f) for f in ("Defence", "Retaliate") if have[f]]
    if len(m["reserve"]) < dash.reserve - m["silence"]:
        moves += [act("reserve", f) for f in sorted({f for _, f in pos.turn["rolled"]})
                  if have[f]]
    moves += [act("ability", a.id) for a in dash.abilities
              if (cost := ability_cost(pos, a.id)) and a.id not in m["used"]
              and pool.can_pay(pos, cost)]
    room = pos.scenario.zone(zone).room
    traps = pos.data.traps
    if zone not in pos.s["placed"]:
        moves += [act("trap", t) for t in dict.fromkeys(pos.s["offered"])
                  if room in traps[t].rooms and pool.can_pay(pos, traps[t].cost)]
    moves += [act("objective", o.id) for o in pos.scenario.objectives
              if o.zone == zone and o.id not in pos.s["done"] and pool.can_pay(pos, o.cost)]
    if zone == pos.scenario.heart_zone and have["Magic"]:
        moves += [act("heal", what) for what in ("damage", *STATUSES) if m[what]]
    return [*moves, act("end")]


def ability_cost(pos: Position, aid: str, seat: int | None = None) -> tuple[str, ...]:
    """The unlocked version's cost; () for a locked or passive ability."""
    level = pos.monster(seat)["abilities"].get(aid, 0)
    ability = next(a for a in pos.dashboard(seat).abilities if a.id == aid)
    return (ability.cost, ability.advanced_cost)[level - 1] if level else ()


def by_hand(pos: Position) -> list[Act]:
    """What an ability or an event did that the players resolve and record
    (ABILITY_EFFECTS_BY_HAND)."""
    # ABILITY_EFFECTS_BY_HAND: slain, afflicted, marked, as the players read the card.
    moves = [act("slay", z, k) for z in sorted(pos.s["villagers"]) for k in
             sorted(pos.in_zone(z))]
    moves += [act("stun", z, k) for z in sorted(pos.s["villagers"]) for k in
              sorted(pos.standing(z))]
    moves += [act("afflict", seat, st) for seat, m in enumerate(pos.s["monsters"])
              if m["zone"] is not None for st in (*STATUSES, "stun")]
    moves += [act("mark", z.id, c) for z in pos.scenario.zones for c in ZONE_CONDITIONS
              if not pos.has(z.id, c)]
    return [*moves, act("done")]


def spend(pos: Position, move: Act) -> None:
    """Apply a spending move (legal already) to `pos`, a copy."""
    verb, args, m, zone = move.verb, move.args, pos.monster(), pos.monster()["zone"]
    data = pos.data
    if verb == "move":
        pool.pay(pos, (args[1],), "move")
        m["zone"] = args[0]
        pos.turn["moved"] += 1
        entered(pos, args[0])
    elif verb in ("melee", "ranged"):
        pool.pay(pos, ("Melee" if verb == "melee" else "Ranged",), verb)
        where = zone if verb == "melee" else args[0]
        kind = args[0] if verb == "melee" else args[1]
        if args[-1] != "miss":
            board.hurt(pos, where, kind, 1, pos.seat)
    elif verb == "guard":
        pool.pay(pos, (args[0],), "guard")
        m["guard"].append(args[0])
    elif verb == "reserve":
        index = next(i for i, r in enumerate(pos.turn["rolled"]) if r[1] == args[0])
        m["reserve"].append(pos.turn["rolled"].pop(index))
    elif verb == "ability":
        pool.pay(pos, ability_cost(pos, args[0]), f"ability {args[0]}")
        m["used"].append(args[0])
        pos.s["queue"].insert(0, pos.step)
        pos.s["step"] = {"kind": "effects", "why": args[0]}
    elif verb == "trap":
        pool.pay(pos, data.traps[args[0]].cost, f"trap {args[0]}")
        pos.s["offered"].remove(args[0])
        pos.s["placed"][zone] = args[0]
    elif verb == "objective":
        objective = next(o for o in pos.scenario.objectives if o.id == args[0])
        pool.pay(pos, objective.cost, f"objective {args[0]}")
        pos.s["done"].append(objective.id)
        pos.s["morale"] = max(0, pos.s["morale"] - objective.morale)
        m["xp"] += objective.experience
    elif verb == "heal":
        pool.pay(pos, ("Magic",), "heal")
        m[args[0]] -= 1
    else:
        raise IllegalMove(f"{move.text()!r} is not a way to spend the dice")


def entered(pos: Position, zone: str) -> None:
    """Day & Night mode's rooms by Day: Burn in the Graveyard and the Courtyard, and "Monsters
    lose 1 experience if they enter [the Castle Heart] during the Day"."""
    if not pos.options.day_night or pos.s["night"]:
        return
    m, room = pos.monster(), pos.scenario.zone(zone)
    if room.burns_by_day:
        m["burn"] += 1
        note(pos, f"the {room.name} by Day: Burn")
    if room.room == "heart" and m["xp"]:
        m["xp"] -= 1
        note(pos, "the Castle Heart by Day: 1 experience lost")


def record(pos: Position, move: Act) -> None:
    """A by-hand effect recorded: a Villager slain, a status inflicted, a zone marked."""
    verb, args = move.verb, move.args
    if verb == "slay":
        board.slain(pos, args[0], args[1], pos.seat if pos.s["phase"] == "monster" else None)
    elif verb == "afflict":
        m = pos.monster(int(args[0]))
        if args[1] == "stun":
            m["stun"] = True
        else:
            m[args[1]] += 1
    elif verb == "stun":
        board.stun(pos, args[0], args[1])
    elif verb == "mark":
        s, step = pos.s, pos.step
        s["conditions"].setdefault(args[0], []).append(args[1])
        if step.get("event") and s["event"] == step["why"]:  # EVENT_CONDITIONS_LAST
            s["lasting"].setdefault(args[0], []).append(args[1])
