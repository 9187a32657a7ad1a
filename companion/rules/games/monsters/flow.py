"""The Battle System step by step: initiative, the turn, combat rounds, damage, healing, leaving.

Each function takes a position and returns a new one (never changes its argument), so the
state's undo is the list of old positions. The exchange of one attack lives in `exchange`.
"""

from __future__ import annotations

import random
from typing import Any

from ...core import DieValue, Roll, RollRequest
from ...errors import BadRoll, IllegalMove, RulesError
from . import exchange, invasion, wargame
from .arena import raised
from .build import Monster
from .moves import Act
from .position import ASIDE, BAG, GRAPPLED, READY, STUNNED, WOUNDED, Position
from .rules import Options, tokens_for

D6_STEPS = frozenset({"move-roll", "tiebreak"})  # the Wargame's six-sided die
DRAW_STEPS = frozenset({"draw", "defender-draw"})  # Invasion's dice drawn from the bag
CHANCE_STEPS = frozenset({"initiative", "turn-roll", "attacker-roll", "defender-roll",
                          "reroll"}) | D6_STEPS | DRAW_STEPS
INVASION_STEPS = frozenset({"act", "card", "feast", "bank"})
KIND = "monsters"  # the dice kind every roll asks for: the camera reads the symbol


def start(names: list[str], options: Options, monsters: list[Monster]) -> Position:
    """Setup: health is the dice pool; everyone rolls initiative."""
    n = len(names)
    s: dict[str, Any] = {
        "seat": 0, "order": [], "groups": [list(range(n))], "init": {}, "turns": [0] * n,
        "health": [len(m.dice) for m in monsters], "out": [False] * n,
        "pool": [[READY] * len(m.dice) for m in monsters],
        "shown": [[None] * len(m.dice) for m in monsters],
        "chips": [[None] * len(m.dice) for m in monsters],
        "spent": [[False] * len(m.dice) for m in monsters],
        "grapples": [], "combat": None, "news": "", "winners": None, "reason": "",
        "tokens": [[tokens_for(len(m.dice)) if m.primary else 0, 1 if m.secondary else 0]
                   for m in monsters],
        "step": {"kind": "initiative", "seat": 0},
    }
    if options.scenario == "wargame":
        wargame.setup(s, n)
    if options.scenario == "invasion":
        invasion.setup(s, n, options.quick)
    return Position(names, options, s, monsters)


# -- rolls -------------------------------------------------------------------------------------

def rolling(pos: Position) -> tuple[int, list[int]]:
    """Whose dice the chance step rolls, and which."""
    step = pos.step
    kind = step["kind"]
    if kind == "initiative":
        return step["seat"], list(range(len(pos.dice(step["seat"]))))
    if kind == "reroll":
        seat, die = pos.combat["rerolls"][0]  # type: ignore[index]
        return seat, [die]
    combat = pos.combat or {}
    seat = {"turn-roll": pos.seat, "attacker-roll": combat.get("a"), "draw": pos.seat,
            "defender-roll": combat.get("d"), "defender-draw": combat.get("d")}[kind]
    return seat, pos.in_pool(seat, BAG if kind in DRAW_STEPS else READY)


def request(pos: Position) -> RollRequest | None:
    kind = pos.step["kind"]
    if kind not in CHANCE_STEPS:
        return None
    if kind in D6_STEPS:
        why = "how far to move" if kind == "move-roll" else "the tie for the win"
        return RollRequest(("d6",), f"{pos.names[pos.seat]}, roll the die: {why}", pos.seat)
    seat, dice = rolling(pos)
    count = invasion.draw_count(pos, seat) if kind in DRAW_STEPS else len(dice)
    reason = {"initiative": "initiative: all your dice; plus and minus count",
              "draw": f"draw {count} dice from your bag and roll them",
              "defender-draw": f"attacked: draw {count} dice from your bag and roll them",
              "turn-roll": "your turn: roll your dice pool",
              "attacker-roll": "you fight: roll your dice pool",
              "defender-roll": "attacked: roll your dice pool",
              "reroll": "Lungs: roll that die again"}[kind]
    if kind in DRAW_STEPS:  # which of the bag's dice come out is chance: any of theirs
        bag = tuple(sorted({f for i in dice for f in pos.dice(seat)[i]}))
        faces = (bag,) * count
    else:
        faces = tuple(tuple(pos.dice(seat)[i]) for i in dice)
    name = pos.names[seat]
    return RollRequest((KIND,) * count, f"{name}, {reason}", seat, faces)


def seeded_roll(pos: Position, rng: random.Random) -> Roll:
    """What the dice on the table could show: each die rolls one of its own faces."""
    if pos.step["kind"] in D6_STEPS:
        return Roll.random(RollRequest(("d6",), "the die"), rng)
    seat, dice = rolling(pos)
    if pos.step["kind"] in DRAW_STEPS:
        return Roll(tuple(DieValue(KIND, f) for f in invasion.seeded_draw(pos, seat, rng)))
    return Roll(tuple(DieValue(KIND, rng.choice(pos.dice(seat)[i])) for i in dice))


def match(pos: Position, seat: int, dice: list[int], faces: list[str]) -> dict[int, int]:
    """Which die shows which face read (by its place in the roll, the tray's order): the faces
    are matched to the dice rolled, each to a die that carries it (typed in the dice's order,
    each face stays on its own die where it can); else BadRoll names the face."""
    carried = [set(pos.dice(seat)[i]) for i in dice]
    owner: dict[int, int] = {}  # die slot -> face index

    def place(f: int, seen: set[int]) -> bool:
        slots = [f, *range(len(carried))] if f < len(carried) else range(len(carried))
        for slot in slots:
            if faces[f] in carried[slot] and slot not in seen:
                seen.add(slot)
                if slot not in owner or place(owner[slot], seen):
                    owner[slot] = f
                    return True
        return False

    name = pos.names[seat]
    for f, face in enumerate(faces):
        if not any(face in has for has in carried):
            raise BadRoll(f"none of {name}'s dice rolled here carries {face!r}")
        if not place(f, set()):
            carriers = sum(1 for has in carried if face in has)
            raise BadRoll(f"{name}'s dice cannot show {faces.count(face)} {face!r} with the "
                          f"rest of this roll: {carriers} of the dice rolled carry it")
    return {dice[slot]: f for slot, f in owner.items()}


def apply_roll(pos: Position, roll: Roll) -> Position:
    if pos.step["kind"] in D6_STEPS:
        return wargame.rolled(pos, int(roll.dice[0].value))
    seat, dice = rolling(pos)
    read = [str(v) for v in roll.values]
    placed = match(pos, seat, dice, read)
    shown = {die: read[f] for die, f in placed.items()}
    new = pos.copy()
    s = new.s
    for die, face in shown.items():
        s["shown"][seat][die] = face
    kind = pos.step["kind"]
    if kind != "reroll":  # a Lungs reroll leaves the die its number from the roll it was in
        s["chips"][seat] = [None] * len(pos.dice(seat))
        for die, f in placed.items():
            s["chips"][seat][die] = f + 1
    if kind == "reroll":
        return exchange.rerolled(new, seat, dice[0])
    if kind in DRAW_STEPS:
        invasion.drawn(new, seat, shown)
        s["news"] = f"{pos.names[seat]} draws and rolls {', '.join(shown.values())}"
        if kind == "draw":
            s["step"] = {"kind": "act"}
            return new
        return exchange.strike_step(new, pos.combat["a"])  # type: ignore[index]
    for die in dice:
        s["spent"][seat][die] = False
    faces = [shown[d] for d in dice]
    if kind == "initiative":
        count = sum(1 for f in faces if f in ("plus", "minus"))
        s["init"][str(seat)] = count
        s["news"] = f"{pos.names[seat]} rolls {count} for initiative"
        return _next_initiative(new)
    s["news"] = f"{pos.names[seat]} rolls {', '.join(faces)}"
    if kind == "turn-roll":
        s["step"] = {"kind": "act"}
        return new
    if kind == "attacker-roll":
        return exchange.defender_rolls(new)
    return exchange.strike_step(new, pos.combat["a"])  # type: ignore[index]


def _next_initiative(pos: Position) -> Position:
    """INITIATIVE_TIES: the group rolling splits by count once all have rolled; tied players
    roll again among themselves; when nobody is tied the order is set and play starts."""
    s = pos.s
    groups: list[list[int]] = s["groups"]
    first = next(i for i, g in enumerate(groups) if len(g) > 1)
    group = groups[first]
    waiting = [p for p in group if str(p) not in s["init"]]
    if waiting:
        s["step"] = {"kind": "initiative", "seat": waiting[0]}
        return pos
    counts = sorted({s["init"][str(p)] for p in group}, reverse=True)  # INITIATIVE_TIES
    split = [[p for p in group if s["init"][str(p)] == c] for c in counts]
    s["groups"] = groups[:first] + split + groups[first + 1:]
    for p in group:
        del s["init"][str(p)]
    if any(len(g) > 1 for g in s["groups"]):
        return _next_initiative(pos)
    s["order"] = [g[0] for g in s["groups"]]
    s["seat"] = s["order"][0]
    s["news"] += "; turn order: " + ", ".join(pos.names[p] for p in s["order"])
    if pos.scenario == "wargame":
        wargame.place_tokens(pos)
    return begin_turn(pos, s["order"][0])


# -- the turn ----------------------------------------------------------------------------------

def begin_turn(pos: Position, seat: int) -> Position:
    """Changes `pos`: the seat's grapples let go (GRAPPLE_RELEASE), its pool is rolled."""
    s = pos.s
    s["seat"], s["combat"] = seat, None
    s["turns"][seat] += 1
    if pos.options.grapple == "next-turn":  # GRAPPLE_RELEASE
        for grapple in [g for g in s["grapples"] if g[0] == seat]:
            release(pos, grapple)
    if pos.scenario == "invasion":
        return invasion.begin_turn(pos, seat)
    rolls = pos.scenario == "battle" and pos.in_pool(seat, READY)
    s["step"] = {"kind": "turn-roll"} if rolls else {"kind": "act"}
    return pos


def release(pos: Position, grapple: list[int]) -> None:
    """Changes `pos`: both dice of a grapple come back; the grabbed one spent."""
    s = pos.s
    s["grapples"].remove(grapple)
    grappler, tentacle, grabbed, die = grapple
    for seat, d in ((grappler, tentacle), (grabbed, die)):
        if s["pool"][seat][d] == GRAPPLED:
            s["pool"][seat][d] = READY
    s["spent"][grabbed][die] = True
    s["shown"][grappler][tentacle] = None  # rolled again with its pool


def next_turn(pos: Position) -> Position:
    """Changes `pos`: the next player in the order still in the arena starts their turn."""
    order = pos.s["order"]
    at = order.index(pos.seat)
    for k in range(1, len(order) + 1):
        seat = order[(at + k) % len(order)]
        if not pos.s["out"][seat]:
            return begin_turn(pos, seat)
    return pos


def heal_step(pos: Position) -> Position:
    """Changes `pos`: after the attack, heal with the unspent Plus, or on to the next turn."""
    seat = pos.seat
    s = pos.s
    if pos.scenario == "invasion":
        return invasion.after_battle(pos)
    s["combat"] = None
    if pos.scenario == "wargame" and s["winners"] is None:
        return next_turn(pos)  # a Wargame turn is the one fight
    if s["out"][seat] or s["winners"] is not None:
        return pos if s["winners"] is not None else next_turn(pos)
    return _heal_or_next(pos)


def _heal_or_next(pos: Position) -> Position:
    """Changes `pos`: the heal step while a Plus, Potion or Wand can still do something."""
    if heal_room(pos) or mends(pos) or unstuns(pos):
        pos.s["step"] = {"kind": "heal"}
        return pos
    return next_turn(pos)


def mends(pos: Position) -> dict[int, int]:
    """Dice of the acting player a Potion or Wand can return to the pool, with the die that
    would do it: a stunned die by a Wand where there is one, a wounded die by a Potion."""
    seat = pos.seat
    tools: dict[str, int] = {}
    for die, face in pos.usable(seat).items():
        if face in ("potion", "wand"):
            tools.setdefault(face, die)
    found = {}
    for die in pos.in_pool(seat, STUNNED):
        if tools:
            found[die] = tools.get("wand", tools.get("potion", -1))
    if "potion" in tools:
        found.update({die: tools["potion"] for die in pos.in_pool(seat, WOUNDED)})
    return found


def mend(pos: Position, die: int) -> Position:
    """The die comes back with the health it cost, up to the maximum."""
    seat = pos.seat  # MEND_RESTORES_HEALTH
    tool = mends(pos)[die]
    new = pos.copy()
    s = new.s
    cost = 2 if s["pool"][seat][die] == WOUNDED else 1
    s["spent"][seat][tool] = True
    s["pool"][seat][die] = READY
    s["shown"][seat][die] = None
    s["health"][seat] = min(len(pos.dice(seat)), s["health"][seat] + cost)
    s["news"] = (f"{pos.names[seat]}'s {s['shown'][seat][tool].title()} returns {pos.die_name(seat, die)} "
                 f"to the pool: health {s['health'][seat]}")
    return _heal_or_next(new)


def heal_room(pos: Position) -> int:
    """How many Plus the acting player can spend healing now (HEAL_OPTION)."""
    seat = pos.seat
    plus = sum(1 for f in pos.usable(seat).values() if f == "plus")
    return min(plus, len(pos.dice(seat)) - pos.s["health"][seat])


def unstuns(pos: Position) -> list[int]:
    """Stunned dice a Plus can bring back on its own (HEAL_OPTION: with 'health-and-stun'
    healing does it already)."""
    seat = pos.seat
    if pos.options.heal != "health" or "plus" not in pos.usable(seat).values():
        return []
    return pos.in_pool(seat, STUNNED)


def unstun(pos: Position, die: int) -> Position:
    """A Plus removes a stun effect: the die back in the pool and the point of health the stun
    took ("If a player receives stun damage, their health is reduced by one") given back."""
    seat = pos.seat
    new = pos.copy()
    s = new.s
    plus = next(d for d, f in pos.usable(seat).items() if f == "plus")
    s["spent"][seat][plus] = True
    s["pool"][seat][die] = READY
    s["shown"][seat][die] = None
    s["health"][seat] = min(len(pos.dice(seat)), s["health"][seat] + 1)  # UNSTUN_HEALS
    s["news"] = (f"{pos.names[seat]} spends a Plus: {pos.die_name(seat, die)} is no longer stunned: "
                 f"health {s['health'][seat]}")
    return _heal_or_next(new)


def heal(pos: Position, count: int) -> Position:
    seat = pos.seat
    new = pos.copy()
    s = new.s
    plus = [d for d, f in pos.usable(seat).items() if f == "plus"][:count]  # HEAL_OPTION
    back = 0
    for die in plus:
        s["spent"][seat][die] = True
        s["health"][seat] += 1
        stunned = new.in_pool(seat, STUNNED)
        if pos.options.heal == "health-and-stun" and stunned:
            s["pool"][seat][stunned[0]] = READY
            back += 1
    s["news"] = (f"{pos.names[seat]} heals {count}: health {s['health'][seat]}"
                 + (f", {back} stunned dice back" if back else ""))
    return _heal_or_next(new)


def out_of_health(pos: Position, seat: int) -> None:
    """Changes `pos`: no health left: out of the arena, or in Invasion exhausted for a turn."""
    if pos.scenario == "invasion":
        invasion.exhausted(pos, seat)
    else:
        leave(pos, seat, "has no health left")


def leave(pos: Position, seat: int, why: str) -> None:
    """Changes `pos`: the player leaves the arena, their dice set aside; the last one in wins."""
    s = pos.s
    s["out"][seat] = True
    s["pool"][seat] = [ASIDE] * len(s["pool"][seat])
    for grapple in [g for g in s["grapples"] if seat in (g[0], g[2])]:
        release(pos, grapple)
        s["pool"][seat] = [ASIDE] * len(s["pool"][seat])
    s["news"] += f"; {pos.names[seat]} {why} and leaves the arena"
    alive = pos.alive()
    if len(alive) <= 1:
        s["winners"] = alive or [seat]
        s["reason"] = (f"{pos.names[alive[0]]} is the last monster standing" if alive
                       else "no monster is left standing")
        s["step"] = {"kind": "over"}


# -- moves -------------------------------------------------------------------------------------

def legal(pos: Position) -> list[Act]:
    kind = pos.step["kind"]
    seat = pos.seat
    if pos.scenario == "invasion" and kind in INVASION_STEPS:
        return invasion.legal(pos)
    if kind in ("place", "card") or (kind == "act" and pos.scenario == "wargame"):
        return wargame.legal(pos)
    if kind == "act":
        targets = [Act("attack", (p + 1,)) for p in pos.alive() if p != seat]
        return targets + [Act("end"), Act("surrender")]
    if kind == "heal":
        return ([Act("heal", (n,)) for n in range(heal_room(pos), 0, -1)]
                + [Act("unstun", (die + 1,)) for die in unstuns(pos)]
                + [Act("mend", (die + 1,)) for die in mends(pos)] + [Act("end")])
    return exchange.legal(pos) if kind not in CHANCE_STEPS and kind != "over" else []


def actor(pos: Position) -> int:
    kind = pos.step["kind"]
    if kind in ("act", "heal", "place", "card", "feast", "bank"):
        return pos.seat
    return exchange.actor(pos)


def raise_bet(pos: Position, act: Act) -> Position:
    """Tokens added to an Arena bet once play has begun."""
    # ARENA_RAISES: only to a bet already placed; nobody's purse of tokens is kept
    if not pos.options.bets.strip():
        raise IllegalMove("no Arena bets were placed in this game (the bets option)")
    try:
        bettor, seat, tokens = raised(pos.bets(), act.bet, pos.names)
    except RulesError as error:
        raise IllegalMove(str(error)) from None
    new = pos.copy()
    new.s["raises"] = [*pos.s.get("raises", []), [bettor, seat, tokens]]
    kitty = sum(t for _, _, t in new.bets())
    new.s["news"] = (f"{bettor} adds {tokens} token{'s' if tokens > 1 else ''} on "
                     f"{pos.names[seat]}: the kitty holds {kitty}")
    return new


def apply_move(pos: Position, act: Act) -> Position:
    kind = pos.step["kind"]
    if act.verb == "raise":
        return raise_bet(pos, act)
    if act not in legal(pos):
        raise IllegalMove(why_not(pos, act))
    name = pos.names[actor(pos)]
    if pos.scenario == "invasion" and kind in INVASION_STEPS:
        return invasion.apply(pos, act)
    if act.verb in ("move", "go", "fight", "flip", "card"):
        return wargame.apply(pos, act)
    if kind == "act":
        new = pos.copy()
        if act.verb == "surrender":
            new.s["news"] = ""
            leave(new, pos.seat, "surrenders")
            new.s["news"] = new.s["news"].removeprefix("; ")
            return new if new.s["winners"] is not None else next_turn(new)
        if act.verb == "end":
            new.s["news"] = f"{name} attacks nobody"
            return heal_step(new)
        return exchange.engage(new, act.numbers[0] - 1)
    if kind == "heal":
        if act.verb == "end":
            new = pos.copy()
            new.s["news"] = f"{name} does not heal"
            return next_turn(new)
        if act.verb == "mend":
            return mend(pos, act.numbers[0] - 1)
        if act.verb == "unstun":
            return unstun(pos, act.numbers[0] - 1)
        return heal(pos, act.numbers[0])
    return exchange.apply(pos, act)


def why_not(pos: Position, act: Act) -> str:
    """The rule a refused move breaks, in words."""
    kind = pos.step["kind"]
    reason = (exchange.why_not(pos, act)
              if kind not in ("act", "heal", "place", "card", "feast", "bank") else None)
    if reason:
        return reason
    wanted = ", ".join(m.text() for m in legal(pos)[:8])
    return f"{act.text()!r} is not a move now ({kind}); moves now: {wanted}"


__all__ = ["CHANCE_STEPS", "apply_move", "apply_roll", "legal", "request", "start"]
