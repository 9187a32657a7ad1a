"""The moves in the players' words (the panel's titles) and what a move did, in one line."""

from __future__ import annotations

from ...core import Move, Roll
from . import board, pool
from .moves import Act
from .position import Position
from .villager_phase import tier

GUARDS = {"Defence": "blocks up to 2 damage of one attack",
          "Retaliate": "strikes an attacker back for as much"}


def villager(pos: Position, kind: str) -> str:
    level, _, which = kind.partition(":")
    if level == "hero":
        return pos.data.heroes[which].name
    if level == "hunter":
        return f"{which.title()} Hunter"
    return "Peasant"


def monster(pos: Position, seat: int) -> str:
    return f"{pos.names[seat]}'s {pos.dashboard(seat).name}"


def title(pos: Position, move: Act) -> str:
    """The move as the table would say it."""
    verb, a = move.verb, move.args
    who = monster(pos, pos.seat) if pos.s["monsters"] else ""
    if verb == "keep":
        return (f"Keep the Reserve ({' '.join(f for _, f in pos.monster()['reserve'])}) and roll "
                f"{pool.dice_count(pos, True)} dice")
    if verb == "discard":
        return f"Discard the Reserve and roll {pool.dice_count(pos, False)} dice"
    if verb == "reroll":
        held = sum(1 for _, f in pos.monster()["reserve"] if f == a[0])
        count = len(pool.reroll_dice(pos, a[0]))
        return (f"Reroll all {count} {a[0]} results"
                + (f" ({held} from the Reserve)" if held else ""))
    if verb == "accept":
        return "Keep this roll"
    if verb == "advance":
        coin = " (coin flip)" if len(board.activation_choices(pos)) > 1 else ""
        return (f"Villager result: a {villager(pos, a[1])} in the {pos.zone_name(a[0])} steps to "
                f"the {pos.zone_name(a[2])}{coin}")
    if verb == "move":
        return f"{who} moves to the {pos.zone_name(a[0])} (pay {a[1]})"
    if verb in ("melee", "ranged"):
        where = pos.monster()["zone"] if verb == "melee" else a[0]
        target = villager(pos, a[0] if verb == "melee" else a[1])
        fails = ", the Unlucky coin says tails: it fails" if a[-1] == "miss" else ""
        return (f"{verb.title()}: 1 damage to a {target} in the {pos.zone_name(where)} "
                f"(pay {verb.title()}){fails}")
    if verb == "guard":
        return f"Put {a[0]} in a Defence slot ({GUARDS[a[0]]})"
    if verb == "reserve":
        return f"Store {a[0]} in the Reserve (one die fewer rolled next turn)"
    if verb == "ability":
        from .monster_phase import ability_cost

        name = next(x.name for x in pos.dashboard().abilities if x.id == a[0])
        return f"{who} uses {name} (pay {' '.join(ability_cost(pos, a[0]))})"
    if verb == "trap":
        trap = pos.data.traps[a[0]]
        return (f"Buy the {trap.name} for the {pos.zone_name(pos.monster()['zone'])} "
                f"(pay {' '.join(trap.cost)}): {trap.text or f'{trap.damage} damage'}")
    if verb == "objective":
        o = next(o for o in pos.scenario.objectives if o.id == a[0])
        return f"{o.name} (pay {' '.join(o.cost)}): Morale -{o.morale}, +{o.experience} experience"
    if verb == "heal":
        return f"Remove 1 {a[0]} in the Castle Heart (pay Magic)"
    if verb == "end":
        left = len(pos.turn["rolled"])
        return "End the turn" + (f" ({left} result{'s' if left > 1 else ''} unspent discarded)" if left else "")
    if verb == "slay":
        return f"Record: a {villager(pos, a[1])} in the {pos.zone_name(a[0])} was slain"
    if verb == "stun":
        return f"Record: a {villager(pos, a[1])} in the {pos.zone_name(a[0])} is stunned"
    if verb == "heave":
        return (f"Record: a {villager(pos, a[1])} is heaved from the {pos.zone_name(a[0])} "
                f"to the {pos.zone_name(a[2])}")
    if verb == "afflict":
        return f"Record: {monster(pos, int(a[0]))} suffers {a[1].title()}"
    if verb == "mark":
        return f"Record: the {pos.zone_name(a[0])} is {a[1].title()} this round"
    if verb == "done":
        return "Nothing more to record"
    if verb == "learn":
        level = pos.monster(pos.step["seat"])["abilities"].get(a[0], 0)
        name = next(x.name for x in pos.dashboard(pos.step["seat"]).abilities if x.id == a[0])
        return f"Level up: {'upgrade' if level else 'learn'} {name}"
    if verb == "mend":
        return f"Level up (every ability bought): remove 1 {a[0]}"
    if verb == "event":
        event = pos.data.events[a[0]]
        return f"Village Event drawn: {event.name}" + (" (persistent)" * event.persistent)
    if verb in ("hit", "miss"):
        return _attack_title(pos, move)
    if verb == "path":
        return (f"Coin flip: the {villager(pos, a[1])}s in the {pos.zone_name(a[0])} go to the "
                f"{pos.zone_name(a[2])}")
    if verb == "spring":
        return f"Trigger the {pos.data.traps[pos.s['placed'][a[0]]].name} in the {pos.zone_name(a[0])}"
    if verb == "spawn":
        where = pos.zone_name(pos.step["zones"][0])
        what = "a Town Hero" if a[0] == "hero" else f"{a[0]} Peasants, {a[1]} Hunters"
        return f"Spawn card (tier {tier(pos)}) at the {where}: {what}"
    if verb == "type":
        return f"Hunter type drawn from the bag: {a[0].title()}"
    if verb == "hero":
        return f"Town Hero revealed: {pos.data.heroes[a[0]].name}"
    if verb == "deal":
        return f"Trap card dealt onto the Game Overview tile: {pos.data.traps[a[0]].name}"
    return move.text()


# Where the panel lists a move: by what it does, not by its rank's worth (a cooperative game
# has no points to group by).
GROUPS = {"Attack": ("melee", "ranged", "spring"), "Defend": ("guard", "hit", "miss"),
          "Move": ("move", "advance", "path"), "Store": ("reserve",),
          "Ability": ("ability", "trap", "objective", "heal", "learn", "mend"),
          "Roll": ("keep", "discard", "reroll", "accept"),
          "Record": ("slay", "stun", "heave", "afflict", "mark", "done"),
          "Enter a card": ("event", "spawn", "type", "hero", "deal"), "End the turn": ("end",)}
GROUP_OF = {verb: name for name, verbs in GROUPS.items() for verb in verbs}


def group(move: Act) -> str:
    return GROUP_OF.get(move.verb, "Other moves")


def _attack_title(pos: Position, move: Act) -> str:
    zone, kind = pos.step["queue"][0]
    attacker = f"A {villager(pos, kind)} in the {pos.zone_name(zone)}"
    if move.verb == "miss":
        return f"{attacker}: the Unlucky coin says tails, the attack fails"
    target = move.args[0]
    if target == "heart":
        return f"{attacker} strikes the Castle Heart for {board.blow(pos, kind, None)}"
    seat = int(target)
    damage = board.blow(pos, kind, seat)
    nemesis = " (Nemesis)" if board.is_nemesis(pos, kind, seat) else ""
    words = f"{attacker} strikes {monster(pos, seat)} for {damage}{nemesis}"
    if "block" in move.args:
        words += f", blocked with Defence (takes {max(0, damage - 2)})"
    if "retaliate" in move.args:
        words += f", Retaliate strikes back for {damage}"
    return words


def tell(before: Position, after: Position, move: Move | Roll) -> str:
    """What the move did: its words, what changed on the dials, and what followed by itself."""
    if isinstance(move, Roll):
        head = f"rolled {' '.join(str(v) for v in move.values)}"
    else:
        head = title(before, move) if isinstance(move, Act) else move.text()
    changes = []
    for key, label in (("morale", "Morale"), ("heart", "Heart")):
        if before.s[key] != after.s[key]:
            changes.append(f"{label} {before.s[key]}→{after.s[key]}")
    for seat, (old, new) in enumerate(zip(before.s["monsters"], after.s["monsters"])):
        if new["kills"] > old["kills"]:
            changes.append(f"{monster(after, seat)} +{new['xp'] - old['xp']} experience"
                           if new["xp"] > old["xp"] else f"{monster(after, seat)} slew one")
    return "; ".join([head, *changes, *after.s["notes"]])
