"""What the table waits for and how each roll or move makes the next position: the round's
three phases, level-ups breaking in, and the end (the Heart falls, or Morale breaks)."""

from __future__ import annotations

from ...core import Move, RollRequest
from ...errors import IllegalMove
from . import board, monster_phase, pool, villager_phase
from .moves import Act, act
from .position import Position
from .rules import STATUSES

CHANCE_STEPS = frozenset({"roll", "troll"})


def request(pos: Position) -> RollRequest | None:
    step = pos.step
    if step["kind"] == "roll":
        why = f"reroll the {step['face']} results" if step["face"] else "the Monster's dice"
        return RollRequest(tuple(step["dice"]), f"{pos.names[pos.seat]}: {why}", pos.seat)
    if step["kind"] == "troll":
        return RollRequest(tuple(step["dice"]), "the Troll's die")
    return None


def actor(pos: Position) -> int:
    """The Monster acting, or at a level-up the one levelling up."""
    step = pos.step
    return int(step["seat"]) if step["kind"] == "level" else pos.seat


def legal(pos: Position) -> list[Act]:
    kind = pos.step["kind"]
    if kind == "reserve":
        return [act("keep"), act("discard")]
    if kind == "rolled":  # REROLL_BEFORE_SPENDING: only until the roll is kept
        return [act("reroll", f) for f in pool.rerollable(pos)] + [act("accept")]
    if kind == "villager":
        return [act("advance", z, k, d) for z, k, d in board.activation_choices(pos)]
    if kind == "spend":
        return monster_phase.spending(pos)
    if kind == "effects":
        return monster_phase.by_hand(pos)
    if kind == "level":
        return level_choices(pos, pos.step["seat"])
    return villager_phase.choices(pos)


def level_choices(pos: Position, seat: int) -> list[Act]:
    """A new ability, or the next version of one; all bought: mend damage or a status."""
    m = pos.monster(seat)
    learn = [act("learn", a.id) for a in pos.dashboard(seat).abilities
             if m["abilities"].get(a.id, 0) < 2]
    if learn:
        return learn
    mend = [act("mend", what) for what in ("damage", *STATUSES) if m[what]]
    return mend or [act("mend", "nothing")]


def apply_roll(pos: Position, faces: list[tuple[str, str]]) -> Position:
    new = pos.copy()
    new.s["notes"] = []
    if new.step["kind"] == "troll":
        face = faces[0][1]
        monster_phase.note(new, f"the Troll rolls {face}: it {villager_phase.TROLL.get(face, 'does nothing')}")
        new.s["step"] = {"kind": "done"}
    else:
        monster_phase.rolled(new, faces)
    settle(new)
    return new


def apply_move(pos: Position, move: Move) -> Position:
    if isinstance(move, Act) and move.verb == "heave":
        return heave(pos, move)
    if not isinstance(move, Act) or move not in legal(pos):
        raise IllegalMove(why_not(pos, move))
    new = pos.copy()
    new.s["notes"] = []
    kind, verb, args = new.step["kind"], move.verb, move.args
    if kind == "reserve":
        new.s["step"] = monster_phase.roll_step(new, verb == "keep")
    elif kind == "rolled" and verb == "reroll":
        dice = pool.reroll_dice(new, args[0])
        pool.take_for_reroll(new, args[0])
        new.s["step"] = {"kind": "roll", "dice": dice, "face": args[0]}
    elif kind == "rolled":
        new.s["step"] = {"kind": "villager"}
    elif kind == "villager":
        new.turn.setdefault("villager_zone", args[0])
        board.remove(new, args[0], args[1])
        board.add(new, args[2], args[1])
        pool.pay_villager(new)
    elif kind == "spend" and verb == "end":
        finish_turn(new)
    elif kind == "spend":
        monster_phase.spend(new, move)
    elif kind == "effects" and verb == "done":
        new.s["step"] = new.s["queue"].pop(0)
    elif kind == "effects":
        monster_phase.record(new, move)
    elif kind == "level":
        level_up(new, new.step["seat"], move)
        new.s["step"] = new.s["queue"].pop(0)
    else:
        villager_phase.play(new, move)
    settle(new)
    return new


def heave(pos: Position, move: Act) -> Position:
    """A Heave the table saw (a zone too full for one more miniature), typed at any step a
    player answers and never offered: how full a tile is the board shows, not the companion
    (HEAVE_BY_HAND)."""
    if len(move.args) != 3:  # HEAVE_BY_HAND
        raise IllegalMove("write 'heave ZONE KIND DEST': the Villager forced one zone on")
    zone, kind, dest = move.args
    if not pos.in_zone(zone).get(kind):
        raise IllegalMove(f"no {kind} stands in {zone!r} to be heaved")
    if dest not in pos.adjacent(zone):
        raise IllegalMove(f"a Heave forces a Villager 1 zone: {dest!r} is not next to {zone!r}")
    new = pos.copy()
    new.s["notes"] = []
    board.heave(new, zone, kind, dest)
    settle(new)
    return new


RULES = {
    "move": "movement goes to an adjacent zone, one usable result a zone, within the "
            "dashboard's Movement slots less Slow",
    "melee": "a Melee result strikes the first Villager in your zone by the targeting priority "
             "(Peasants, Hunters, Town Heroes)",
    "ranged": "a Ranged result strikes the first Villager in an adjacent zone by the targeting "
              "priority; not into or out of Darkness",
    "guard": "Defence and Retaliate results go in the Defence slots, less Sunder",
    "reserve": "a usable result of this turn goes in a free Reserve slot, less Silence",
    "ability": "an unlocked ability, once a round, paid in full",
    "trap": "a Trap on the Game Overview tile, paid in full, in a room it may be placed in, "
            "one Trap a room",
    "heal": "healing is 1 Magic result for 1 damage or status, in the Castle Heart",
    "reroll": "only 3 or more identical results (2 in the Castle Heart at Night) may be "
              "rerolled, before any is spent; blanks never",
}


def why_not(pos: Position, move: Move) -> str:
    kind = pos.step["kind"]
    text = move.text()
    verb = move.verb if isinstance(move, Act) else ""
    if kind == "spend" and verb == "move" and pos.monster()["zone"] and \
            sum(pos.standing(pos.monster()["zone"]).values()) >= pos.health_left():
        return (f"{text!r}: Hindered: to leave a zone a Monster's health must be greater "
                f"than the number of Villagers in it")
    if verb in RULES and kind in ("spend", "rolled"):
        return f"{text!r}: {RULES[verb]}"
    offered = ", ".join(m.text() for m in legal(pos)[:8])
    return f"{text!r} is not allowed now ({kind}); allowed: {offered}"


def level_up(pos: Position, seat: int, move: Act) -> None:
    m = pos.monster(seat)
    m["xp"] -= pos.dashboard(seat).experience
    m["level"] += 1
    if move.verb == "learn":
        m["abilities"][move.args[0]] = m["abilities"].get(move.args[0], 0) + 1
        # "If an ability has been upgraded from its lesser version then it can be used again
        # this round"
        m["used"] = [a for a in m["used"] if a != move.args[0]]
    elif move.args[0] != "nothing":
        m[move.args[0]] -= 1


def finish_turn(pos: Position) -> None:
    """What is not in the Reserve or the Defence slots is discarded; the next Monster acts,
    clockwise from the First Player, or the Villager Phase begins."""
    s = pos.s
    pos.turn["spent"] += [[f, "unused"] for _, f in pos.turn["rolled"]]
    pos.turn["rolled"] = []
    s["acted"] += 1
    if s["acted"] < len(pos.names):
        monster_phase.begin_turn(pos, (s["first"] + s["acted"]) % len(pos.names))
    else:
        villager_phase.begin(pos)


def start_round(pos: Position, first: int) -> None:
    s = pos.s
    s.update(round=s["round"] + 1, first=first, acted=0, phase="monster", queue=[])
    monster_phase.begin_turn(pos, first)


def settle(pos: Position) -> None:
    """Play everything that needs no choice, until the table has something to decide."""
    s = pos.s
    for _ in range(10_000):
        if s["heart"] <= 0:
            s.update(step={"kind": "over"}, winners=[], reason="the Castle Heart has fallen")
            return
        if s["morale"] <= 0:
            s.update(step={"kind": "over"}, winners=list(range(len(pos.names))),
                     reason="the Villagers' Morale has broken")
            return
        kind = s["step"]["kind"]
        if kind != "level":
            ready = [seat for seat, m in enumerate(s["monsters"]) if m["zone"] is not None
                     and m["xp"] >= pos.dashboard(seat).experience]  # LEVEL_UP_AT_ONCE
            if ready:
                s["queue"].insert(0, s["step"])
                s["step"] = {"kind": "level", "seat": ready[0]}
                return
        if kind == "rolled" and not pool.rerollable(pos):
            s["step"] = {"kind": "villager"}
        elif kind == "villager" and not villager_results(pos):
            s["step"] = {"kind": "spend"}
        elif kind == "villager" and not board.activation_choices(pos):
            unanswered(pos)
        elif kind == "skip":
            finish_turn(pos)
        elif kind in ("reserve", "rolled", "villager", "spend", "effects", "level", "roll",
                      "troll", "over"):
            return
        elif villager_phase.settle(pos):
            if s["queue"]:
                s["step"] = s["queue"].pop(0)
            else:
                start_round(pos, (s["first"] + 1) % len(pos.names) if s["round"] else 0)
        elif s["step"]["kind"] == kind:
            return
    raise AssertionError("settle did not come to rest")


def villager_results(pos: Position) -> int:
    return sum(1 for _, f in pos.turn["rolled"] if f == "Villager")


def unanswered(pos: Position) -> None:
    """Villager results with no Villager outside the Heart to move: with every Villager in the
    Heart each makes one attack the Heart (ALL_IN_HEART_ATTACK_HEART); with none, nothing."""
    heart = pos.scenario.heart_zone
    for _ in range(villager_results(pos)):
        kinds = board.first_targets(pos, heart)
        if kinds:
            pos.s["heart"] = max(0, pos.s["heart"] - board.blow(pos, kinds[0], None))  # ALL_IN_HEART_ATTACK_HEART
            monster_phase.note(pos, f"a Villager result: a {board.rank(kinds[0])} in the Castle "
                                    f"Heart attacks it")
        pool.pay_villager(pos)
