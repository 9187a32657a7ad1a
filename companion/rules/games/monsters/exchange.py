"""Combat rounds: the attacker strikes, the defender defends, damage is placed, the defender
counterattacks, and either may disengage. The numbers come from `combat`; this module walks the
steps: strike, defend, reroll (Lungs), grab, hurt, go-on.

Functions given a position they return as new copy it first; those documented "changes `pos`"
work on a copy the caller made.
"""

from __future__ import annotations

from typing import Any

from . import flow, invasion, kinds, powers
from .combat import Blow, Guard, Through, blow, describe_blow, describe_through, guard, through
from .moves import Act
from .position import BAG, BANK, GRAPPLED, READY, STUNNED, WOUNDED, Position
from .rules import DEFENCE_SUPPLEMENTS, MINUSES, WARGAME_ROUNDS


def engage(pos: Position, target: int, attacker_rolls: bool = False) -> Position:
    """Changes `pos`: the acting player attacks `target`, who rolls their pool (in the Wargame
    the attacker rolls first: a fight is the whole turn)."""
    seat = pos.seat
    pos.s["combat"] = {"a": seat, "d": target, "by": seat, "blow": [], "guard": [],
                       "guard_die": None, "rerolls": [], "struck": False, "brain": False,
                       "backlash": 0, "landed": False, "ray": False, "round": 1}
    pos.s["news"] = f"{pos.names[seat]} attacks {pos.names[target]}"
    if attacker_rolls and pos.in_pool(seat, READY):
        pos.s["step"] = {"kind": "attacker-roll"}
        return pos
    return defender_rolls(pos)


def defender_rolls(pos: Position) -> Position:
    """Changes `pos`: the defender rolls their pool, or with none the attacker strikes."""
    combat = pos.combat
    assert combat is not None
    if pos.scenario == "invasion" and pos.in_pool(combat["d"], BAG):
        pos.s["step"] = {"kind": "defender-draw"}
        return pos
    if pos.scenario != "invasion" and pos.in_pool(combat["d"], READY):
        pos.s["step"] = {"kind": "defender-roll"}
        return pos
    return strike_step(pos, combat["a"])


def strike_step(pos: Position, striker: int) -> Position:
    """Changes `pos`: `striker` chooses an attack (or passes)."""
    pos.s["combat"]["by"] = striker
    pos.s["step"] = {"kind": "strike"}
    return pos


def other(pos: Position, seat: int) -> int:
    combat = pos.combat
    assert combat is not None
    return combat["d"] if seat == combat["a"] else combat["a"]


def actor(pos: Position) -> int:
    step, combat = pos.step, pos.combat
    assert combat is not None
    kind = step["kind"]
    if kind in ("strike", "grab"):
        return int(combat["by"])
    if kind == "power":
        return int(step["seat"])
    if kind == "defend":
        return other(pos, combat["by"])
    return int(step["chooser"] if kind == "hurt" else step["asks"])


# -- what may be chosen ------------------------------------------------------------------------

def attacks(pos: Position, seat: int) -> list[tuple[tuple[int, ...], Blow]]:
    """Every distinct attack `seat` can make with its unspent dice: an attack die and up to one
    supplemental or Plus. Dice showing the same face are one choice (the lowest numbered)."""
    usable = pos.usable(seat)
    firsts: dict[str, int] = {}
    for die, face in usable.items():
        firsts.setdefault(face, die)
    demonic = kinds.can(pos, seat, "demonic")
    found = []
    for face, die in firsts.items():
        alone = blow(face, None, demonic)
        if alone is None:
            continue
        found.append(((die,), alone))
        for other_face, other_die in firsts.items():
            if other_face == face:
                other_die = next((d for d, f in usable.items() if f == face and d != die), -1)
                if other_die < 0:
                    continue
            paired = blow(face, other_face, demonic)
            if paired is not None:
                found.append(((die, other_die), paired))
    return found


def defences(pos: Position, seat: int, against: Blow) -> list[tuple[tuple[int, ...], Guard]]:
    """Every distinct defence `seat` can make against `against` with its unspent dice."""
    usable = pos.usable(seat)
    minus = [d for d, f in usable.items() if f == "minus"]
    bellows = [d for d, f in usable.items() if f == "bellows"]
    lungs = [d for d, f in usable.items() if f in DEFENCE_SUPPLEMENTS]  # RELEVANT_SUPPLEMENTAL
    firsts: dict[str, int] = {}
    for die, face in usable.items():
        if face not in MINUSES and face not in DEFENCE_SUPPLEMENTS:
            firsts.setdefault(face, die)
    heads: list[tuple[int, ...]] = [()]  # MINUS_WITHOUT_DEFENCE_DIE
    heads += [(d,) for f, d in firsts.items() if isinstance(guard([f], against), Guard)]
    found = []
    for head in heads:
        tails = [minus[:k] + bellows[:j] for k in range(len(minus) + 1)
                 for j in range(len(bellows) + 1)] + [lungs[:1]] * bool(head and lungs)
        for tail in tails:
            dice = tuple(sorted((*head, *tail)))
            chosen = guard(pos.faces(seat, list(dice)), against)
            if dice and isinstance(chosen, Guard):
                found.append((dice, chosen))
    return found


def legal(pos: Position) -> list[Act]:
    kind, combat = pos.step["kind"], pos.combat
    assert combat is not None
    if kind == "strike":
        moves = [Act("hit", tuple(d + 1 for d in dice)) for dice, _ in attacks(pos, combat["by"])]
        if kinds.can(pos, combat["by"], "pain"):
            moves.append(Act("pain"))
        if kinds.can(pos, combat["by"], "decay"):  # DECAY_BEFORE_STRIKING
            moves += [Act("decay", (d + 1,))
                      for d in pos.in_pool(other(pos, combat["by"]), STUNNED)]
        return moves + [Act("pass")]
    if kind == "defend":
        seat = other(pos, combat["by"])
        return [Act("defend", tuple(d + 1 for d in dice))
                for dice, _ in defences(pos, seat, current_blow(pos))] + [Act("take")]
    if kind == "hurt":
        victim = pos.step["victim"]
        return [Act("hurt", (d + 1,)) for d in hurtable(pos, victim)]
    if kind == "grab":
        return [Act("grab", (d + 1,)) for d in grabbable(pos, other(pos, combat["by"]))]
    if kind == "power":
        return powers.legal(pos)
    return [Act("continue"), Act("disengage")]


def grabbable(pos: Position, seat: int) -> list[int]:
    """Dice a Tentacle can take: the pool's, and a Tentacle of `seat` holding a die ("until
    grappling die is rerolled or itself grappled")."""
    holding = [g[1] for g in pos.s["grapples"] if g[0] == seat]
    return sorted(pos.in_pool(seat, READY) + holding)


def hurtable(pos: Position, seat: int) -> list[int]:
    return [d for d, where in enumerate(pos.s["pool"][seat]) if where in (READY, STUNNED, BANK)]


def current_blow(pos: Position) -> Blow:
    """The attack being made, from the faces its dice show now (None-safe for the panel)."""
    combat = pos.combat
    assert combat is not None
    faces = pos.faces(combat["by"], combat["blow"])
    made = blow(faces[0], faces[1] if len(faces) > 1 else None, combat["ray"])
    return made or Blow(str(faces[0]), None, 0, 0, 1, "plain")


def why_not(pos: Position, act: Act) -> str | None:
    """Why a move naming dice is refused: the die, its face and the rule."""
    combat = pos.combat
    if combat is None or act.verb not in ("hit", "defend"):
        return None
    seat = combat["by"] if act.verb == "hit" else other(pos, combat["by"])
    usable = pos.usable(seat)
    for number in act.numbers:
        if number - 1 not in usable:
            return f"{pos.names[seat]}'s die {number} is not in the pool unspent"
    faces = [usable[n - 1] for n in act.numbers]
    if act.verb == "hit":
        if len(faces) > 2 or blow(faces[0], faces[1] if len(faces) > 1 else None,
                                  kinds.can(pos, seat, "demonic")) is None:
            return (f"{' + '.join(faces)} is not an attack: one attack die and up to one "
                    f"supplemental or Plus (Combat Rounds)")
        return None
    made = guard(faces, current_blow(pos))
    return None if isinstance(made, Guard) else f"{' + '.join(faces)}: {made} (Combat Rounds)"


# -- playing them ------------------------------------------------------------------------------

def apply(pos: Position, act: Act) -> Position:
    new = pos.copy()
    s, combat = new.s, new.combat
    assert combat is not None
    kind = pos.step["kind"]
    if kind == "strike":
        return _strike(new, act)
    if kind == "defend":
        return _defend(new, act)
    if kind == "hurt":
        return _hurt(new, act.numbers[0] - 1)
    if kind == "grab":
        return _grab(new, act.numbers[0] - 1)
    if kind == "power":
        return powers.apply(new, act)
    asker = pos.step["asks"]
    if act.verb == "disengage":
        s["news"] = f"{pos.names[asker]} disengages"
        return flow.heal_step(new)
    s["news"] = f"{pos.names[asker]} fights on"
    if asker == combat["a"]:
        s["step"] = {"kind": "go-on", "asks": combat["d"]}
        return new
    combat["struck"] = False
    return strike_step(new, combat["a"])


def _strike(pos: Position, act: Act) -> Position:
    s, combat = pos.s, pos.combat
    assert combat is not None
    striker = combat["by"]
    name = pos.names[striker]
    if act.verb == "pass":
        s["news"] = f"{name} makes no {'attack' if striker == combat['a'] else 'counterattack'}"
        return _after(pos, landed=False)
    if act.verb == "decay":
        victim, die = other(pos, striker), act.numbers[0] - 1
        kinds.spend(pos, striker, "decay")
        s["pool"][victim][die] = WOUNDED
        s["health"][victim] -= 1
        s["news"] = (f"{name}'s Decay: {pos.names[victim]}'s stunned {pos.die_name(victim, die)} is wounded: "
                     f"health {s['health'][victim]}")
        if s["health"][victim] <= 0:
            flow.out_of_health(pos, victim)
            return pos if s["winners"] is not None else flow.heal_step(pos)
        return pos
    combat["struck"] = True
    if act.verb == "pain":
        kinds.spend(pos, striker, "pain")
        combat["blow"], combat["brain"] = [], False
        s["news"] = f"{name}'s Pain: one stun nobody can stop"
        return _damage(pos, Through(1, 0, False, False), chooser=other(pos, striker))
    dice = [n - 1 for n in act.numbers]
    for die in dice:
        s["spent"][striker][die] = True  # SPENT_FOR_THE_TURN
    combat["blow"] = dice
    faces = pos.faces(striker, dice)
    made = blow(faces[0], faces[1] if len(faces) > 1 else None,
                kinds.can(pos, striker, "demonic"))
    assert made is not None  # legal() offered it
    combat["ray"] = made.kind == "ray"
    if combat["ray"]:
        kinds.spend(pos, striker, "demonic")
    combat["brain"] = made.brain
    s["news"] = f"{name} attacks with {_named(pos, striker, dice)}: {describe_blow(made)}"
    s["step"] = {"kind": "defend"}
    return pos


def _defend(pos: Position, act: Act) -> Position:
    s, combat = pos.s, pos.combat
    assert combat is not None
    seat = other(pos, combat["by"])
    dice = [n - 1 for n in act.numbers] if act.verb == "defend" else []
    for die in dice:
        s["spent"][seat][die] = True
    combat["guard"] = dice
    heads = [d for d in dice
             if s["shown"][seat][d] not in MINUSES and s["shown"][seat][d] not in DEFENCE_SUPPLEMENTS]
    combat["guard_die"] = heads[0] if heads else None
    lungs = any(s["shown"][seat][d] in DEFENCE_SUPPLEMENTS for d in dice)
    s["news"] = (f"{pos.names[seat]} defends with {_named(pos, seat, dice)}" if dice
                 else f"{pos.names[seat]} does not defend")
    # LUNGS_REROLL: the defender's Lungs reroll the attack die, the attacker's the defence die.
    rerolls = [[combat["by"], combat["blow"][0]]] if lungs else []
    blow_faces = pos.faces(combat["by"], combat["blow"])
    if "lungs" in blow_faces[1:] and combat["guard_die"] is not None:
        rerolls.append([seat, combat["guard_die"]])
    combat["rerolls"] = rerolls
    if rerolls:
        s["step"] = {"kind": "reroll"}
        return pos
    return _resolve(pos)


def rerolled(pos: Position, seat: int, die: int) -> Position:
    """Changes `pos`: a die rerolled by Lungs shows its new face; on to the next or the end."""
    combat = pos.combat
    assert combat is not None
    combat["rerolls"].pop(0)
    pos.s["news"] = (f"{pos.names[seat]}'s {pos.die_name(seat, die)} is rolled again: "
                     f"{pos.s['shown'][seat][die]}")
    if combat["rerolls"]:
        return pos
    return _resolve(pos)


def chosen_guard(pos: Position) -> Guard | None:
    """The defence made, from the faces its dice show now (a rerolled die may no longer fit)."""
    combat = pos.combat
    assert combat is not None
    dice = combat["guard"]
    if not dice:
        return None
    seat = other(pos, combat["by"])
    faces = pos.faces(seat, dice)
    head = combat["guard_die"]
    others = [pos.s["shown"][seat][d] for d in dice if d != head]
    return Guard(pos.s["shown"][seat][head] if head is not None else None,
                 any(f in DEFENCE_SUPPLEMENTS for f in faces) and head is not None,
                 sum(1 for f in others if f in MINUSES),
                 sum(MINUSES.get(f or "", 0) for f in others))


def outcome_of(pos: Position, seat: int, made: Blow,
               chosen: Guard | None) -> tuple[Through, list[tuple[int, str]]]:
    """What gets through to `seat` if each kind's power that helps is used, and those powers
    (seat, power): the ranking's forecast (in play each is offered, `powers`). A Void attacker
    takes a point off the defence, a Void defender one off what gets through (wounds first);
    Frozen turns a wound that gets through into a stun, Flame a stun into a wound."""
    striker = other(pos, seat)
    used: list[tuple[int, str]] = []
    result = through(made, chosen)
    if chosen is not None and kinds.can(pos, striker, "void"):
        weakened = through(made, chosen, 1)
        if weakened != result:
            result = weakened
            used.append((striker, "void"))
    stun, wound = result.stun, result.wound
    if stun + wound > 0 and kinds.can(pos, seat, "void"):
        stun, wound = (stun, wound - 1) if wound else (stun - 1, wound)
        used.append((seat, "void"))
    if wound and kinds.can(pos, seat, "frozen"):
        stun, wound = stun + 1, wound - 1
        used.append((seat, "frozen"))
    if stun and kinds.can(pos, striker, "flame"):
        stun, wound = stun - 1, wound + 1
        used.append((striker, "flame"))
    return Through(stun, wound, result.grab, result.defended), used


def _resolve(pos: Position) -> Position:
    s, combat = pos.s, pos.combat
    assert combat is not None
    striker = combat["by"]
    faces = pos.faces(striker, combat["blow"])
    made = blow(faces[0], faces[1] if len(faces) > 1 else None, combat["ray"])
    if made is None:
        s["news"] += f"; the {faces[0]} no longer attacks"
        return _after(pos, landed=False)
    return powers.start(pos, through(made, chosen_guard(pos)))


def land(pos: Position) -> Position:
    """Changes `pos`: what got through (the powers chosen) lands: a grab holds, or the damage
    waits to be placed; a Disease defender's backlash is counted."""
    s, combat = pos.s, pos.combat
    assert combat is not None
    striker = combat["by"]
    victim = other(pos, striker)
    made = current_blow(pos)
    result = powers.now(pos)
    if made.grab and result.grab and grabbable(pos, victim):
        s["news"] += "; the Tentacle's grab holds"
        s["step"] = {"kind": "grab"}
        return pos
    s["news"] += f"; {describe_through(result)}"
    if result.wound and kinds.can(pos, victim, "disease"):
        kinds.spend(pos, victim, "disease")
        combat["backlash"] = result.wound
    combat["brain"] = combat["brain"] and result.success
    chooser = striker if made.targeted else victim  # TARGETED_EQUIPMENT
    return _damage(pos, result, chooser)


def _damage(pos: Position, result: Through, chooser: int) -> Position:
    """Changes `pos`: the points that got through wait to be placed die by die."""
    combat = pos.combat
    assert combat is not None
    victim = other(pos, combat["by"])
    points = ["wound"] * result.wound + ["stun"] * result.stun
    combat["landed"] = result.success
    return _place(pos, victim, chooser, points)


def _place(pos: Position, victim: int, chooser: int, points: list[str]) -> Position:
    """Changes `pos`: each point waits for a die to hurt; with none the health goes anyway."""
    s = pos.s  # DAMAGE_POINT_BY_POINT
    if points and not hurtable(pos, victim):
        loss = sum(2 if p == "wound" else 1 for p in points)
        s["health"][victim] -= loss
        s["news"] += f"; {pos.names[victim]} has no die left to hurt: health -{loss}"
        points = []
    if points and s["health"][victim] > 0:
        s["step"] = {"kind": "hurt", "victim": victim, "chooser": chooser, "points": points}
        return pos
    if s["health"][victim] <= 0 and not pos.fallen(victim):
        flow.out_of_health(pos, victim)
    return _after_damage(pos)


def _hurt(pos: Position, die: int) -> Position:
    s, step = pos.s, pos.step
    victim, points = step["victim"], list(step["points"])
    point = points.pop(0)
    where = s["pool"][victim][die]
    name = pos.names[victim]
    if point == "wound" or where == STUNNED:
        s["pool"][victim][die] = WOUNDED
        s["health"][victim] -= 2 if point == "wound" else 1
        s["news"] = f"{name}'s {pos.die_name(victim, die)} is wounded: health {s['health'][victim]}"
        _bloodborne(pos, other(pos, victim))
    else:
        s["pool"][victim][die] = STUNNED
        s["health"][victim] -= 1
        s["news"] = f"{name}'s {pos.die_name(victim, die)} is stunned: health {s['health'][victim]}"
    return _place(pos, victim, step["chooser"], points)


def _bloodborne(pos: Position, seat: int) -> None:
    """Changes `pos`: a Bloodborne monster that wounds a die removes one of its stun effects."""
    stunned = pos.in_pool(seat, STUNNED)
    if stunned and kinds.can(pos, seat, "bloodborne") and not pos.s["out"][seat]:
        kinds.spend(pos, seat, "bloodborne")
        pos.s["pool"][seat][stunned[0]] = READY
        pos.s["health"][seat] = min(len(pos.dice(seat)), pos.s["health"][seat] + 1)
        pos.s["news"] += f"; Bloodborne: {pos.names[seat]}'s {pos.die_name(seat, stunned[0])} is unstunned"


def _grab(pos: Position, die: int) -> Position:
    s, combat = pos.s, pos.combat
    assert combat is not None
    striker = combat["by"]
    victim = other(pos, striker)
    tentacle = combat["blow"][0]
    if pos.scenario == "invasion":
        invasion.grabbed(pos, victim, die)
        s["news"] = (f"{pos.names[striker]}'s Tentacle throws {pos.names[victim]}'s die "
                     f"{die + 1} back in the bag")
        combat["landed"] = True
        return _after(pos, landed=True)
    for grapple in [g for g in s["grapples"] if g[:2] == [victim, die]]:
        flow.release(pos, grapple)  # the grappler grappled lets go of what it held
    s["pool"][victim][die] = GRAPPLED
    s["pool"][striker][tentacle] = GRAPPLED
    s["grapples"].append([striker, tentacle, victim, die])
    s["news"] = (f"{pos.names[striker]}'s Tentacle holds {pos.names[victim]}'s "
                 f"{pos.die_name(victim, die)}")
    combat["landed"] = True
    return _after(pos, landed=True)


def _after_damage(pos: Position) -> Position:
    """Changes `pos`: a Disease monster's backlash, then what follows the strike."""
    combat = pos.combat
    assert combat is not None
    if pos.s["winners"] is not None:
        return pos
    backlash = combat["backlash"]
    striker = combat["by"]
    if backlash and not pos.fallen(striker):
        combat["backlash"] = 0
        pos.s["news"] += f"; Disease: {pos.names[striker]} takes {backlash} stun"
        return _place(pos, striker, striker, ["stun"] * backlash)
    return _after(pos, landed=combat["landed"])


def _after(pos: Position, landed: bool) -> Position:
    """Changes `pos`: BRAIN_BEFORE_COUNTER, then the counterattack, then whether to go on."""
    combat = pos.combat
    assert combat is not None
    a, d, striker = combat["a"], combat["d"], combat["by"]
    if pos.s["winners"] is not None:
        return pos
    if pos.fallen(a) or pos.fallen(d):
        return flow.heal_step(pos)
    if combat["brain"] and landed:  # BRAIN_BEFORE_COUNTER
        combat["brain"] = False
        return strike_step(pos, striker)
    if striker == a:
        return strike_step(pos, d)
    if pos.scenario == "wargame":  # WARGAME_ROUNDS
        combat["round"] += 1
        if combat["round"] > WARGAME_ROUNDS or not (_can_attack(pos, a) or _can_attack(pos, d)):
            return flow.heal_step(pos)
        return strike_step(pos, a)
    if not combat["struck"] or not (_can_attack(pos, a) or _can_attack(pos, d)):
        return flow.heal_step(pos)  # DISENGAGE_ASKS_BOTH
    pos.s["step"] = {"kind": "go-on", "asks": a}
    return pos


def _can_attack(pos: Position, seat: int) -> bool:
    return bool(attacks(pos, seat)) or kinds.can(pos, seat, "pain")


def _named(pos: Position, seat: int, dice: list[int]) -> str:
    """'Claw (die 3) + Thagomizer (die 9)': each die by its chip on the tray."""
    return " + ".join(f"{str(pos.s['shown'][seat][d]).title()} ({pos.die_name(seat, d)})"
                      for d in dice)


def view(pos: Position) -> dict[str, Any] | None:
    """The combat for the panel: who fights, the attack made and the defence, in words."""
    combat = pos.combat
    if combat is None:
        return None
    out: dict[str, Any] = {"attacker": pos.names[combat["a"]], "defender": pos.names[combat["d"]],
                           "striking": pos.names[combat["by"]]}
    if combat["blow"] and pos.step["kind"] in ("defend", "reroll"):
        out["attack"] = (f"{_named(pos, combat['by'], combat['blow'])}: "
                         f"{describe_blow(current_blow(pos))}")
    return out
