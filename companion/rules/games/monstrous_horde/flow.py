"""How a game moves on: setup, the steps of a turn, the chance steps, the end of turn and game.

Chance steps wait in `Position.queue` as tasks; a task asks for one roll and may queue more (an
enemy 20 queues its epic monster, a Fire Bolt 4 queues the next bolt). When the queue is empty the
phase moves on by itself until a player has to choose (team, reroll, act) or the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from functools import lru_cache
from itertools import combinations

from ...core import RankedMove, RollRequest
from ...errors import IllegalMove
from ...words import joined
from .assign import Board
from .moves import Ability, Aid, DieUse, Group, Play, Reroll, Team
from .position import Draft, Enemy, Position, Showdown, Task, Turn, built
from .rules import (
    BEAR_DICE,
    CLERIC,
    DRUID,
    ENEMY_DICE,
    MAX_BOLTS,
    MAX_TEAM,
    MONSTER_POINTS,
    MONSTERS,
    PALADIN,
    READY,
    ROLE_INDEX,
    ROLES,
    STONE,
    TROLL_REGENERATES,
    WIZARD,
    WOUNDED,
)
from .tell import enemy_name

ALL_SLOTS = tuple(range(ENEMY_DICE))


def start(names: list[str], pos: Position) -> Position:
    """Setup: the enemy line-up, its epic monsters, then the Barbarian roll-off."""
    return _replace_queue(pos, (("enemies", ALL_SLOTS, "enemy line-up"),
                                ("rolloff", tuple(range(len(names))))))


def _replace_queue(pos: Position, queue: tuple[Task, ...]) -> Position:
    d = Draft(pos)
    d.queue = queue
    return d.freeze()


# ---- chance steps ---------------------------------------------------------------------------

def request(pos: Position) -> RollRequest | None:
    """The roll the first pending task wants (None when a player chooses or the game is over)."""
    if not pos.queue:
        return None
    task = pos.queue[0]
    kind = task[0]
    seat = pos.seat
    if kind == "enemies":
        return RollRequest(("d20",) * len(task[1]), task[2], seat)
    if kind == "replace":
        slots = _defeated(pos)
        return RollRequest(("d20",) * len(slots), "defeated enemies replaced", seat)
    if kind == "rolloff":
        # which d20 is whose, by the die's number on the tray (the order the dice are typed)
        whose = ", ".join(f"die {i + 1} {pos.names[s]}'s" for i, s in enumerate(task[1]))
        return RollRequest(("d20",) * len(task[1]), f"Barbarian roll-off: {whose}", None)
    dice, reason = _REQUESTS[kind](pos, task)
    return RollRequest(dice, reason, seat)


def _turn(pos: Position) -> Turn:
    assert pos.turn is not None
    return pos.turn


_REQUESTS: dict[str, Callable[[Position, Task], tuple[tuple[str, ...], str]]] = {
    "epic": lambda p, t: (("d10",) if p.options.simplified_monsters else ("d10", "d6"),
                          "epic monster: d10 to add, d6 for its type"),
    "epic-type": lambda p, t: (("d6",), "epic monster type already in play: reroll the d6"),
    "heads": lambda p, t: (("d4",), "Hydra heads: 3 + d4"),
    "head-d10": lambda p, t: (("d10",) * t[2], "Hydra heads' d10s (1s rerolled)"),
    "team": lambda p, t: (tuple(ROLES[r].die for r in _turn(p).team), "melee team"),
    "reroll": lambda p, t: (tuple(ROLES[r].die for r in t[1]), "melee team reroll"),
    "gaze": lambda p, t: (("d10",), "Basilisk's paralyzing gaze"),
    "bolt": lambda p, t: (("d4",), "Fire Bolt"),
    "bear": lambda p, t: (("d10",) * BEAR_DICE, "Bear Form"),
    "inspire": lambda p, t: ((ROLES[t[1]].die,), f"Paladin inspires the {ROLES[t[1]].name}"),
    "regen": lambda p, t: (("d6",), "Troll regeneration: 5 or 6 regenerates"),
    "regen-d10": lambda p, t: (("d10",), "the Troll regenerates: its new d10"),
    "breath": lambda p, t: (tuple(ROLES[r].die for r in t[1]), "Young Dragon's fire breath"),
}


def apply_roll(pos: Position, values: Sequence[int]) -> Position:
    """Resolve the first pending task with the values rolled (already checked and ordered)."""
    d = Draft(pos)
    task = d.queue[0]
    d.queue = d.queue[1:]
    _HANDLERS[task[0]](d, task, list(values))
    _settle(d)
    return d.freeze()


def _push(d: Draft, *tasks: Task) -> None:
    d.queue = tuple(tasks) + d.queue


def _on_enemies(d: Draft, task: Task, values: list[int]) -> None:
    slots = _defeated(d) if task[0] == "replace" else task[1]
    showdown = d.showdown is not None
    again, epics = [], []
    for slot, value in zip(slots, values):
        d.set_enemy(slot, Enemy(value))
        if value == 1 or (showdown and value == 20):  # Showdown: no epic monsters either
            again.append(slot)
        elif value == 20:
            epics.append(slot)
    reason = "enemy 1s and 20s rerolled" if showdown else "enemy 1s rerolled"
    _push(d, *([("enemies", tuple(again), reason)] if again else []),
          *[("epic", slot) for slot in epics])


def _on_epic(d: Draft, task: Task, values: list[int]) -> None:
    slot = task[1]
    if task[0] == "epic":
        d10 = values[0]
        type_roll = 1 if d.options.simplified_monsters else values[1]
    else:
        d10, type_roll = d.enemies[slot].d10, values[0]
    monster = MONSTERS[type_roll]
    others = {e.monster for i, e in enumerate(d.enemies) if i != slot and e.epic}
    if monster in others and not d.options.simplified_monsters:  # SIMPLIFIED_TROLLS_STACK
        d.set_enemy(slot, Enemy(20, d10))
        _push(d, ("epic-type", slot))
    elif monster == "hydra":  # HYDRA_EPIC_D10_UNUSED
        d.set_enemy(slot, Enemy(20, None, "hydra"))
        _push(d, ("heads", slot))
    else:
        d.set_enemy(slot, Enemy(20, d10, monster))


def _on_heads(d: Draft, task: Task, values: list[int]) -> None:
    slot = task[1]
    if task[0] == "heads":
        _push(d, ("head-d10", slot, values[0] + 3 - 1))  # the d20 is one of 3 + d4 heads
        return
    hydra = d.enemies[slot]
    heads = tuple(sorted(hydra.heads + tuple(v for v in values if v != 1)))
    d.set_enemy(slot, Enemy(20, None, "hydra", heads))
    ones = values.count(1)
    if ones:
        _push(d, ("head-d10", slot, ones))


def _on_rolloff(d: Draft, task: Task, values: list[int]) -> None:
    best = max(values)
    tied = tuple(s for s, v in zip(task[1], values) if v == best)
    if len(tied) > 1:
        _push(d, ("rolloff", tied))
    else:
        d.first = tied[0]


def _on_team(d: Draft, task: Task, values: list[int]) -> None:
    turn = _turn(d)  # type: ignore[arg-type]
    roles = turn.team if task[0] == "team" else task[1]
    new = list(turn.values)
    for role, value in zip(roles, values):
        new[role] = value
    d.turn = _with(turn, values=tuple(new))


def _on_gaze(d: Draft, task: Task, values: list[int]) -> None:
    turn = _turn(d)  # type: ignore[arg-type]
    gaze = values[0]
    caught = tuple(r for r in turn.team if turn.values[r] == gaze)
    if gaze == 1:  # turned to stone: out for the rest of the game
        for role in caught:
            d.set_status(d.seat, role, STONE)
    d.turn = _with(turn, paralyzed=caught)


def _on_bolt(d: Draft, task: Task, values: list[int]) -> None:
    # POOL_NOT_LIMITED: no count of pool dice is kept, here or for Bear Form and monsters.
    turn = _turn(d)  # type: ignore[arg-type]
    d.turn = _with(turn, bolts=turn.bolts + (values[0],))
    if values[0] == 4 and len(turn.bolts) + 1 < MAX_BOLTS:
        _push(d, ("bolt",))


def _on_bear(d: Draft, task: Task, values: list[int]) -> None:
    d.turn = _with(_turn(d), bear=tuple(values))  # type: ignore[arg-type]


def _on_inspire(d: Draft, task: Task, values: list[int]) -> None:
    turn = _turn(d)  # type: ignore[arg-type]
    role = task[1]
    new = list(turn.values)
    new[role] = values[0]
    team = turn.team if role in turn.team else turn.team + (role,)
    paralyzed = tuple(r for r in turn.paralyzed if r != role)
    d.turn = _with(turn, values=tuple(new), team=team, paralyzed=paralyzed)


def _on_regen(d: Draft, task: Task, values: list[int]) -> None:
    slot = task[1]
    troll = d.enemies[slot]
    if task[0] == "regen-d10":
        d.set_enemy(slot, Enemy(20, values[0], troll.monster))
    elif values[0] in TROLL_REGENERATES:
        _push(d, ("regen-d10", slot))
    else:
        d.set_enemy(slot, Enemy(None))
        d.add_score(d.seat, MONSTER_POINTS["troll"])


def _on_breath(d: Draft, task: Task, values: list[int]) -> None:
    for role, value in zip(task[1], values):
        if value == 1:
            d.set_status(d.seat, role, WOUNDED)


_HANDLERS: dict[str, Callable[[Draft, Task, list[int]], None]] = {
    "enemies": _on_enemies, "replace": _on_enemies, "epic": _on_epic, "epic-type": _on_epic,
    "heads": _on_heads, "head-d10": _on_heads, "rolloff": _on_rolloff, "team": _on_team,
    "reroll": _on_team, "gaze": _on_gaze, "bolt": _on_bolt, "bear": _on_bear,
    "inspire": _on_inspire, "regen": _on_regen, "regen-d10": _on_regen, "breath": _on_breath,
}


def _with(turn: Turn, **changes: object) -> Turn:
    assert changes.keys() <= _TURN_FIELDS, changes
    return built(Turn, {**turn.__dict__, **changes})


_TURN_FIELDS = {f.name for f in fields(Turn)}


def _defeated(pos: Position | Draft) -> tuple[int, ...]:
    return tuple(i for i, e in enumerate(pos.enemies) if e.defeated)  # type: ignore[union-attr]


# ---- moving on when no roll is pending ------------------------------------------------------

def _settle(d: Draft) -> None:
    """Advance through the steps that need no choice until a roll or a choice is wanted."""
    while d.queue and d.queue[0] == ("replace",) and not _defeated(d):
        d.queue = d.queue[1:]  # a Troll that regenerated leaves nothing to replace
    if not d.queue and d.phase in ("setup", "showdown-setup", "ending"):
        # LINEUP_ORDERED_BETWEEN_TURNS: a slept enemy keeps its place until the turn ends.
        d.enemies = tuple(sorted(d.enemies, key=_lineup_key))
    while not d.queue:
        if d.phase in ("setup", "showdown-setup"):
            d.round = max(d.round, 1)
            _start_turn(d, d.first if d.showdown is None else d.showdown.seats[0])
        elif d.phase == "rolling":
            if d.monster_alive("wraith"):  # no rerolls of any type
                _after_reroll(d)
            else:
                d.phase = "reroll"
        elif d.phase == "rerolling":
            _after_reroll(d)
        elif d.phase in ("gaze", "ability"):
            d.phase = "act"
        elif d.phase == "ending":
            _finish_turn(d)
        else:
            return


def _lineup_key(enemy: Enemy) -> tuple[int, int, str]:
    return (enemy.d20 or 99, enemy.need, enemy.monster or "")


def _after_reroll(d: Draft) -> None:
    # MONSTERS_ACT_ON_ARRIVAL: the gaze is rolled here only; a Basilisk woken later waits.
    if d.monster_alive("basilisk"):
        d.phase = "gaze"
        d.queue = (("gaze",),)
    else:
        d.phase = "act"


def _start_turn(d: Draft, seat: int) -> None:
    d.seat = seat
    d.turn = None
    d.phase = "team"


def _finish_turn(d: Draft) -> None:
    seat = d.seat
    turn = _turn(d)  # type: ignore[arg-type]
    d.turns = d.turns[:seat] + (d.turns[seat] + 1,) + d.turns[seat + 1:]
    if all(s != READY for s in d.status[seat]):  # STONE_COUNTS_AS_LOST
        d.eliminated = d.eliminated[:seat] + (True,) + d.eliminated[seat + 1:]
    if d.showdown is not None:
        _finish_showdown_turn(d, seat, turn.kills)
        return
    alive = [s for s in range(len(d.names)) if not d.eliminated[s]]
    if len(alive) == 1:
        _over(d, (alive[0],), "every other party was eliminated")
        return
    if d.end_round is None and d.scores[seat] >= d.options.target:
        d.end_round = d.round + (1 if d.options.final_round == "extra" else 0)
    order = _turn_order(d)
    nxt = next(s for s in order[order.index(seat) + 1:] + order if not d.eliminated[s])
    if order.index(nxt) <= order.index(seat):
        if d.end_round is not None and d.round >= d.end_round:
            _final_scores(d)
            return
        d.round += 1
    _start_turn(d, nxt)


def _turn_order(d: Draft) -> list[int]:
    n = len(d.names)
    return [(d.first + i) % n for i in range(n)]


def _final_scores(d: Draft) -> None:
    # ELIMINATED_CANNOT_WIN: only parties still fighting compare scores.
    alive = [s for s in _turn_order(d) if not d.eliminated[s]]
    best = max(d.scores[s] for s in alive)
    tied = tuple(s for s in alive if d.scores[s] == best)
    if len(tied) == 1:
        _over(d, tied, f"highest score ({best})")
    elif d.options.ties == "shared":
        _over(d, tied, f"shared victory at {best}")
    else:
        _start_showdown(d, tied)


def _start_showdown(d: Draft, seats: tuple[int, ...], rounds: int = 1) -> None:
    # SHOWDOWN_FIRST: the first tied player in turn order begins.
    d.showdown = Showdown(seats, 0, (0,) * len(seats), rounds)
    d.enemies = (Enemy(None),) * ENEMY_DICE
    d.phase = "showdown-setup"
    d.seat = None
    d.turn = None
    d.queue = (("enemies", ALL_SLOTS, "Final Showdown line-up (1s and 20s rerolled)"),)


def _finish_showdown_turn(d: Draft, seat: int, kills: int) -> None:
    sd = d.showdown
    assert sd is not None
    index = sd.seats.index(seat)
    counts = sd.kills[:index] + (sd.kills[index] + kills,) + sd.kills[index + 1:]
    played = sd.played + 1
    if played < len(sd.seats):
        d.showdown = Showdown(sd.seats, played, counts, sd.rounds)
        _start_turn(d, sd.seats[played])
        return
    best = max(counts)
    top = tuple(s for s, k in zip(sd.seats, counts) if k == best)
    standing = tuple(s for s in top if not d.eliminated[s])
    if len(top) == 1:
        _over(d, top, f"Final Showdown: most enemies defeated ({best})")
    elif len(standing) <= 1:
        _over(d, standing or top, "Final Showdown: the other tied parties fell")
    else:  # SHOWDOWN_TIED_CONTINUE
        d.showdown = Showdown(standing, 0, (0,) * len(standing), sd.rounds + 1)
        _start_turn(d, standing[0])


def _over(d: Draft, winners: tuple[int, ...], reason: str) -> None:
    d.winners = winners
    d.reason = reason
    d.phase = "over"
    d.seat = None
    d.turn = None
    d.queue = ()


# ---- player moves ---------------------------------------------------------------------------

def apply_move(pos: Position, move: object) -> Position:
    """Validate and play a player's move; raises IllegalMove naming the rule broken."""
    if pos.phase == "team" and isinstance(move, Team):
        return _choose_team(pos, move)
    if pos.phase == "reroll" and isinstance(move, Reroll):
        return _reroll(pos, move)
    if pos.phase == "act" and isinstance(move, Ability):
        return _ability(pos, move)
    if pos.phase == "act" and isinstance(move, Play):
        return _play(pos, move)
    if pos.phase == "act" and isinstance(move, Aid):
        return _aid(pos, move)
    wanted = {"team": "choose a melee team ('team ...')", "reroll": "reroll some dice or 'keep'",
              "act": "use an ability or play the dice ('attack ...', 'end')"}
    raise IllegalMove(f"not now: {wanted.get(pos.phase, 'no move is wanted')}")


def team_limit(pos: Position) -> int:
    return MAX_TEAM - (1 if pos.monster_alive("spider") else 0)


def _choose_team(pos: Position, move: Team) -> Position:
    seat = pos.seat
    assert seat is not None
    limit = team_limit(pos)
    if not 1 <= len(move.roles) <= limit:  # TEAM_NOT_EMPTY
        raise IllegalMove(f"a melee team has 1 to {limit} characters"
                          + (" (the Huge Spider holds one back)" if limit < MAX_TEAM else ""))
    for role in move.roles:
        if pos.status[seat][role] != READY:
            raise IllegalMove(f"the {ROLES[role].name} is {pos.status[seat][role]}: "
                              "only unwounded characters join the melee team")
    d = Draft(pos)
    d.turn = Turn(team=move.roles)
    d.phase = "rolling"
    d.queue = (("team",),)
    return d.freeze()


def _reroll(pos: Position, move: Reroll) -> Position:
    turn = _turn(pos)
    missing = [ROLES[r].name for r in move.roles if r not in turn.team]
    if missing:
        raise IllegalMove(f"only the melee team may be rerolled, not {', '.join(missing)}")
    d = Draft(pos)
    if move.roles:
        d.phase = "rerolling"
        d.queue = (("reroll", move.roles),)
    else:
        _after_reroll(d)
    _settle(d)
    return d.freeze()


def _ability(pos: Position, move: Ability) -> Position:
    # ROLLING_ABILITIES_FIRST: these roll dice, so they are moves before the play.
    turn = _turn(pos)
    owner = {"firebolt": WIZARD, "sleep": WIZARD, "bear": DRUID, "inspire": PALADIN,
             "restore": CLERIC}[move.name]
    if not turn.crit(owner):
        raise IllegalMove(f"{move.name} needs the {ROLES[owner].name}'s crit "
                          f"(a {ROLES[owner].sides}) unused this turn, in the melee team")
    if move.name == "restore":
        return _restore(pos, turn, move.target or "")
    task: Task
    if move.name == "firebolt":
        task = ("bolt",)
    elif move.name == "bear":
        task = ("bear",)
    elif move.name == "sleep":
        if pos.options.wraith_blocks_sleep and pos.monster_alive("wraith"):
            raise IllegalMove("the Wraith allows no rerolls of any type, Sleep included")
        slot = _sleep_slot(pos, move.target or "")
        task = ("enemies", (slot,), "Sleep: the enemy is rerolled")
    else:
        if pos.monster_alive("wraith"):
            raise IllegalMove("the Wraith allows no rerolls, the Paladin's Inspiration included")
        role = ROLE_INDEX.get(move.target or "")
        if role is None or role == PALADIN or pos.status[pos.seat][role] != READY:  # type: ignore
            raise IllegalMove("Inspiration rolls one unwounded character other than the Paladin")
        task = ("inspire", role)
    d = Draft(pos)
    d.turn = _with(turn, used=turn.used + (owner,))
    d.phase = "ability"
    d.queue = (task,)
    return d.freeze()


def _restore(pos: Position, turn: Turn, target: str) -> Position:
    """The Cleric's Heal: "Immediately return any one wounded die back to your adventuring
    party"; it rolls nothing, the turn goes on, and the Cleric may still attack or heal."""
    seat = pos.seat
    assert seat is not None
    role = ROLE_INDEX.get(target)
    if role is None or pos.status[seat][role] != WOUNDED:  # PREVIOUS_WOUNDS_ONLY
        raise IllegalMove("the Cleric's Heal brings back one character wounded on an earlier turn")
    d = Draft(pos)
    d.turn = _with(turn, used=turn.used + (CLERIC,))
    d.set_status(seat, role, READY)
    return d.freeze()


def _aid(pos: Position, move: Aid) -> Position:
    """A heal with dice made at once (HEAL_BEFORE_INSPIRE): checked as a play of that heal
    alone; the healed character is back in the party and the healers leave the play (Holy
    Guidance in it uses the Cleric's crit)."""
    turn = _turn(pos)
    seat = pos.seat
    assert seat is not None
    board(pos).resolve(Play(heals=(move.group,)))  # HEAL_BEFORE_INSPIRE
    healers = tuple(ROLE_INDEX[use.die] for use in move.group.dice)
    guided = any(use.mods for use in move.group.dice)
    d = Draft(pos)
    d.turn = _with(turn, aided=turn.aided + healers,
                   used=turn.used + ((CLERIC,) if guided else ()))
    d.set_status(seat, ROLE_INDEX[move.group.target], READY)
    return d.freeze()


def _sleep_slot(pos: Position, target: str) -> int:
    if not (target.startswith("e") and target[1:].isdigit()) or not (
            1 <= int(target[1:]) <= ENEMY_DICE):
        raise IllegalMove(f"Sleep targets an enemy e1..e{ENEMY_DICE}, not {target!r}")
    slot = int(target[1:]) - 1
    if pos.enemies[slot].epic:
        raise IllegalMove("Sleep cannot reroll an epic monster (an enemy showing 20)")
    return slot


def _play(pos: Position, play: Play) -> Position:
    effect = board(pos).effect(play)
    seat = pos.seat
    turn = _turn(pos)
    assert seat is not None
    d = Draft(pos)
    trolls: list[int] = []
    heads_hit = {int(ref[1:]) - 1 for ref in effect.defeated if ref[0] == "h"}
    slots_hit = {int(ref[1:]) - 1 for ref in effect.defeated if ref[0] == "e"}
    points = effect.points
    for slot, enemy in enumerate(pos.enemies):
        if heads_hit and enemy.monster == "hydra" and enemy.epic:
            left = tuple(v for i, v in enumerate(enemy.heads) if i not in heads_hit)
            d.set_enemy(slot, Enemy(20, None, "hydra", left))
        if slot in slots_hit:
            if enemy.monster == "troll" and enemy.epic:
                trolls.append(slot)  # points wait for the regeneration roll
                points -= MONSTER_POINTS["troll"]
            else:
                d.set_enemy(slot, Enemy(None))
    if d.showdown is None:  # SHOWDOWN_COUNTS_KILLS
        d.add_score(seat, points)
    for role in effect.healed:
        d.set_status(seat, role, READY)
    for role in turn.active():
        if turn.values[role] == 1:
            d.set_status(seat, role, WOUNDED)
    last = list(pos.last[seat])
    for role in turn.team:
        last[role] = turn.values[role]
    d.last = pos.last[:seat] + (tuple(last),) + pos.last[seat + 1:]
    d.turn = _with(turn, kills=len(effect.defeated))
    queue: list[Task] = [("regen", slot) for slot in trolls]
    dragon = d.monster_alive("dragon")
    standing = tuple(r for r, s in enumerate(d.status[seat]) if s == READY)
    if dragon and standing:  # FIRE_BREATH_AFTER_WOUNDS
        queue.append(("breath", standing))
    queue.append(("replace",))
    d.queue = tuple(queue)
    d.phase = "ending"
    _settle(d)
    return d.freeze()


# ---- what a player may do now ---------------------------------------------------------------

def ranked(pos: Position) -> list[RankedMove]:
    """Every legal move of the player to act, best first."""
    if pos.phase == "team":
        return _team_moves(pos)
    if pos.phase == "reroll":
        return list(_reroll_moves(_turn(pos).team))
    if pos.phase != "act":
        return []
    plays = board(pos).ranked(showdown=pos.showdown is not None)
    first, later = _ability_moves(pos)
    return first + [m for m in plays if not _heal_alone(m.move)] + later + _aids(pos)


def _aids(pos: Position) -> list[RankedMove]:
    """Each heal with dice, made at once: offered only while the Paladin's Inspiration could
    then roll the healed character (a healed die rejoins the team no other way), so never with
    the Paladin's own die; Holy Guidance may nudge one die."""
    turn = _turn(pos)
    seat = pos.seat
    if seat is None or not turn.crit(PALADIN) or pos.monster_alive("wraith"):
        return []
    healers = [ROLES[r].name for r in turn.active() if r != PALADIN]
    nudges = [(), ("+1",), ("-1",)] if turn.crit(CLERIC) else [()]
    found = []
    for wounded in (ROLES[r].name for r, s in enumerate(pos.status[seat]) if s == WOUNDED):
        for size in range(1, len(healers) + 1):
            for dice in combinations(healers, size):
                for at, mods in ((at, m) for at in range(size) for m in nudges if m or at == 0):
                    uses = tuple(DieUse(d, mods if i == at else ()) for i, d in enumerate(dice))
                    group = Group(wounded, uses)
                    try:
                        board(pos).resolve(Play(heals=(group,)))
                    except IllegalMove:
                        continue
                    found.append(RankedMove(Aid(group), 0, "", {"group": "Abilities"},
                                            f"Heal the {wounded.capitalize()} at once with "
                                            f"{'+'.join(u.text() for u in uses)} (then inspire "
                                            "it?)"))
    return found


def best(pos: Position) -> RankedMove:
    """The first of `ranked(pos)`, building only that one play (greedy self-play's hot path)."""
    if pos.phase == "act":
        first, later = _ability_moves(pos)
        top = first[0] if first else board(pos).best(showdown=pos.showdown is not None)
        if _heal_alone(top.move):  # said as the ability, whose text is the same
            return next(m for m in later if m.move == Ability("restore", top.move.restore))
        return top
    return ranked(pos)[0]


def _heal_alone(move: object) -> bool:
    """A play of the Cleric's Heal and nothing else: offered as the `restore` ability instead
    (same text; the ability heals at once and the turn goes on)."""
    return isinstance(move, Play) and move.restore is not None and not (
        move.attacks or move.heals or move.rage)


def _team_moves(pos: Position) -> list[RankedMove]:
    seat = pos.seat
    assert seat is not None
    ready = tuple(r for r, s in enumerate(pos.status[seat]) if s == READY)
    return list(_teams(ready, team_limit(pos)))


@lru_cache(maxsize=256)
def _teams(ready: tuple[int, ...], limit: int) -> tuple[RankedMove, ...]:
    """Biggest teams of the biggest dice first (moves are immutable values: safe to share)."""
    teams = [c for size in range(min(limit, len(ready)), 0, -1) for c in combinations(ready, size)]
    teams.sort(key=lambda c: (-len(c), -sum(ROLES[r].sides for r in c)))
    return tuple(RankedMove(Team(c), 0, "", {"group": f"Teams of {len(c)}"},
                            f"Team of {len(c)}: {_names(c)}")
                 for c in teams)


@lru_cache(maxsize=256)
def _reroll_moves(team: tuple[int, ...]) -> tuple[RankedMove, ...]:
    return tuple(
        RankedMove(Reroll(roles), 0, "",
                   {"group": f"Reroll {len(roles)} {'die' if len(roles) == 1 else 'dice'}"
                    if roles else "Keep"},
                   f"Reroll the {_names(roles)}" if roles else "Keep the roll")
        for size in range(len(team) + 1) for roles in combinations(team, size))


_TITLES = tuple(role.name.capitalize() for role in ROLES)


def _names(roles: tuple[int, ...]) -> str:
    """Characters as a player lists them: "Wizard, Druid and Paladin"."""
    return joined([_TITLES[r] for r in roles])


def board(pos: Position) -> Board:
    """The Board of a position, kept for the last position asked (ranking then playing)."""
    global _last_board
    cached = _last_board
    if cached is None or cached[0] is not pos:
        cached = _last_board = (pos, Board(pos))
    return cached[1]


_last_board: tuple[Position, Board] | None = None


def _ability_moves(pos: Position) -> tuple[list[RankedMove], list[RankedMove]]:
    """Fire Bolts and Bear Form only add dice, so they rank first; the Cleric's Heal, Sleep and
    Inspiration last."""
    turn = _turn(pos)
    first: list[RankedMove] = []
    later: list[RankedMove] = []
    if turn.crit(WIZARD):
        first.append(_ability_move(Ability("firebolt"), "Wizard's Fire Bolts: roll a pool d4",
                                   "Ranked above plays that score: it only adds a d4 to the "
                                   "pool, and every play is still open after it"))
        if not (pos.options.wraith_blocks_sleep and pos.monster_alive("wraith")):
            later += [_ability_move(Ability("sleep", f"e{i + 1}"),
                               f"Wizard's Sleep: reroll {enemy_name(e, i)}")
                      for i, e in enumerate(pos.enemies) if not e.epic and not e.defeated]
    if turn.crit(DRUID):
        first.append(_ability_move(Ability("bear"), "Druid's Bear Form: roll two pool d10s",
                                   "Ranked above plays that score: it adds two d10s to the pool "
                                   "(the Druid attacks one enemy with them)"))
    if turn.crit(CLERIC):
        later += [_ability_move(Ability("restore", ROLES[r].name),
                           f"Cleric's Heal: the {_TITLES[r]} is back at once (inspire it?)")
                  for r, s in enumerate(pos.status[pos.seat or 0]) if s == WOUNDED]
    if turn.crit(PALADIN) and not pos.monster_alive("wraith"):
        seat = pos.seat
        assert seat is not None
        later += [_ability_move(Ability("inspire", ROLES[r].name),
                           f"Paladin inspires the {_TITLES[r]}: roll it again")
                  for r, s in enumerate(pos.status[seat]) if s == READY and r != PALADIN]
    return first, later


def _ability_move(move: Ability, title: str, why: str = "") -> RankedMove:
    """An ability, worth no points itself; `why`: what makes it rank above plays that score."""
    return RankedMove(move, 0, why, {"group": "Abilities"}, title)


__all__ = ["apply_move", "apply_roll", "best", "ranked", "request",
           "start", "team_limit"]
