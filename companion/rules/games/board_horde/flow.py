"""Board Horde's turn flow: every roll is a chance step, every decision a move, each applied to a
copy of the position.

A turn: (a stored potion: `go` or `potion ROLE`, its rolls) -> movement roll -> `move ROLE` /
`enter ROLE` / `pass` -> what the hero lands on (fight, trap, potion and their rolls and choices)
-> an extra roll after a 6 while no hero of the team waits in the portal -> next player. A team
with no hero on the board (while others have) rolls up to three times for a 6 instead.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core import RollRequest
from ...errors import IllegalMove
from .moves import Act
from .position import GONE, OUT, PORTAL, Position, hero_id, role_of, seat_of
from .rules import (
    ENTRANCE,
    EXIT_POINTS,
    FREE_SPAWN_TURN,
    HERO_POINTS,
    ITEM_POINTS,
    MONSTER_POINTS,
    POTION_POINTS,
    ROLES,
    SPAWN_TRIES,
    TRAP_POINTS,
)

CHANCE_STEPS = frozenset({"items-roll", "first", "move-roll", "spawn-roll", "trap-roll", "fling-roll",
                          "monster-roll", "potion-roll", "teleport-roll"})


def start(pos: Position) -> Position:
    """Everybody rolls a die for who goes first; on Board B with the items left to the panel, a
    roll first draws which side the Sword and the Shoes go to ("assigned at random")."""
    if pos.options.sides == 2 and not pos.options.items.strip():
        pos.step = {"kind": "items-roll"}
    else:
        _first_rolls(pos, list(range(len(pos.names))))
    return pos


def _first_rolls(pos: Position, contenders: list[int]) -> None:
    pos.step = {"kind": "first", "contenders": contenders, "rolls": []}


def _on_items_roll(pos: Position, value: int) -> None:
    if value >= 4:  # 1-3 keeps the Sword on the left side, 4-6 swaps it with the Shoes
        pos.items["sword"], pos.items["shoes"] = pos.items["shoes"], pos.items["sword"]
    _first_rolls(pos, list(range(len(pos.names))))


# -- what the game waits for -------------------------------------------------------------------

def actor(pos: Position) -> int:
    """The team whose turn it is: nobody moves out of turn in Board Horde."""
    return pos.seat


def request(pos: Position) -> RollRequest | None:
    step = pos.step
    kind = step["kind"]
    if kind not in CHANCE_STEPS:
        return None
    if kind == "items-roll":
        return RollRequest(("d6",), "Board B: 1-3 the Sword goes mid the left side and the Shoes "
                           "mid the right, 4-6 the other way round", None)
    if kind == "first":
        seat = step["contenders"][len(step["rolls"])]
        return RollRequest(("d6",), f"{pos.names[seat]} rolls for who goes first", seat)
    return RollRequest(("d6",), _reason(pos), pos.seat)


def _reason(pos: Position) -> str:
    step, name = pos.step, pos.names[pos.seat]
    hero = step.get("hero", "")
    kind = step["kind"]
    if kind == "move-roll":
        return f"{name}'s movement roll" + (" (the first go)" if step.get("first_go") else "")
    if kind == "spawn-roll":
        return f"{name} needs a 6 to bring a hero out (roll {step['tries'] + 1} of {SPAWN_TRIES})"
    if kind == "trap-roll":
        bonus = pos.kept_traps[pos.seat]
        return f"{hero} is on a trap: 1 zap, 2-4 fling back, 5+ safe" + _plus(bonus)
    if kind == "fling-roll":
        return f"{hero} is flung back: how many squares"
    if kind == "monster-roll":
        return f"{hero} fights a monster: 4+ wins" + _plus(fight_bonus(pos, hero))
    if kind == "potion-roll":
        return f"{hero}'s potion: 1 teleport, 2-3 death pulse, 4-5 switcheroo, 6 flick a foe"
    return f"{hero} teleports: how many squares forward"


def _plus(bonus: int) -> str:
    return f" (+{bonus} to the roll)" if bonus else ""


def fight_bonus(pos: Position, hero: str) -> int:
    """Kept Monsters and the Sword add to the fight roll."""
    return pos.kept_monsters[seat_of(hero)] + ("sword" in pos.carried(hero))


def legal(pos: Position) -> list[Act]:
    step, seat = pos.step, pos.seat
    kind = step["kind"]
    if kind == "start":
        return [Act("go")] + [Act("potion", role_of(h)) for h in pos.heroes(seat)
                              if pos.on_board(h)]
    if kind == "move":
        return movement(pos, step["value"], step.get("first_go", False)) or [Act("pass")]
    if kind == "place":
        return [Act("enter", role_of(h)) for h in pos.heroes(seat) if pos.where[h] == PORTAL]
    if kind == "trap-choice":
        return [Act("claim"), Act("keep")]
    if kind == "monster-choice":
        return [Act("tame"), Act("keep")]
    if kind == "potion-choice":
        return [Act("collect"), Act("drink")]
    if kind in ("switch", "flick"):
        return [Act(kind, target) for target in step["targets"]]
    if kind == "item-choice":
        return [Act("take", item) for item in pos.items_at(pos.where[step["hero"]])]
    return []


def movement(pos: Position, value: int, first_go: bool) -> list[Act]:
    """The ways to use a movement roll: heroes on the board forward, or one out of the portal."""
    seat = pos.seat
    portal = [h for h in pos.heroes(seat) if pos.where[h] == PORTAL]
    if first_go:  # FIRST_GO_PER_PLAYER
        return [Act("enter", role_of(h)) for h in portal]
    acts = [Act("move", role_of(h)) for h in pos.heroes(seat)
            if pos.on_board(h) and not _own_hero_on(pos, h, destination(pos, h, value))]
    entrance = pos.entrance(seat)
    if value == 6 and portal and not _own_hero_on(pos, portal[0], entrance):
        acts += [Act("enter", role_of(h)) for h in portal]  # ENTRANCE_BLOCKED_BY_OWN
    return acts


def arrival(pos: Position, act: Act) -> tuple[str, list[int]]:
    """The hero a `move` / `enter` act sends and the square it arrives on (past the last square:
    the Exit Portal). Entering on a 6, or placed after the three rolls: the Entrance."""
    hero = hero_id(pos.seat, str(act.target))
    if act.verb == "move":
        return hero, destination(pos, hero, pos.step["value"])
    if pos.step.get("first_go"):
        return hero, [pos.home(pos.seat), pos.step["value"]]
    return hero, pos.entrance(pos.seat)


def destination(pos: Position, hero: str, value: int) -> list[int]:
    side, square = pos.where[hero]
    return [side, square + value]


def _own_hero_on(pos: Position, hero: str, at: list[int]) -> bool:
    other = pos.hero_at(at)
    return other is not None and other != hero and seat_of(other) == seat_of(hero)


def why_not(pos: Position, act: Act) -> str:
    """The rule a refused move breaks, in words for the panel."""
    step = pos.step
    if step["kind"] == "move" and act.verb in ("move", "enter") and act.target in ROLES:
        hero = hero_id(pos.seat, act.target)
        if act.verb == "move" and not pos.on_board(hero):
            return f"{hero} is not on the board"
        if act.verb == "move":
            return f"{hero} cannot end its move on another of your heroes"
        if pos.where[hero] != PORTAL:
            return f"{hero} is not in the Spawning Portal"
        if step["value"] != 6 and not step.get("first_go"):
            return "only a 6 brings a hero out of the Spawning Portal"
        return "one of your heroes is on the Entrance Square: move it first"
    options = ", ".join(a.text() for a in legal(pos)) or "none: the dice roll next"
    return f"{act.text()!r} is not a move now (legal: {options})"


# -- applying ---------------------------------------------------------------------------------

def apply_roll(pos: Position, value: int) -> Position:
    new = pos.copy()
    _ROLLS[new.step["kind"]](new, value)
    return new


def apply_move(pos: Position, act: Act) -> Position:
    if act not in legal(pos):
        raise IllegalMove(why_not(pos, act))
    new = pos.copy()
    _MOVES[new.step["kind"]](new, act)
    return new


def _on_first(pos: Position, value: int) -> None:
    step = pos.step
    step["rolls"].append(value)
    if len(step["rolls"]) < len(step["contenders"]):
        return
    best = max(step["rolls"])
    tied = [s for s, r in zip(step["contenders"], step["rolls"]) if r == best]
    if len(tied) > 1:  # the highest roll goes first; a tie rolls again between those tied
        _first_rolls(pos, tied)
        return
    _start_turn(pos, tied[0])


def _start_turn(pos: Position, seat: int) -> None:
    pos.seat, pos.extra, pos.stage = seat, False, "move"
    pos.turns[seat] += 1
    if pos.stored[seat] and any(pos.on_board(h) for h in pos.heroes(seat)):
        pos.step = {"kind": "start"}
    else:
        _movement_start(pos)


def _movement_start(pos: Position) -> None:
    seat = pos.seat
    if pos.turns[seat] == 1 or not pos.any_on_board():  # FIRST_GO_PER_PLAYER
        pos.step = {"kind": "move-roll", "first_go": True}
    elif any(pos.on_board(h) for h in pos.heroes(seat)):
        pos.step = {"kind": "move-roll"}
    elif pos.fails[seat] >= FREE_SPAWN_TURN - 1:  # FREE_SPAWN_ON_THIRD_TURN
        pos.step = {"kind": "place"}
    else:
        pos.step = {"kind": "spawn-roll", "tries": 0}


def _on_start(pos: Position, act: Act) -> None:
    if act.verb == "go":
        _movement_start(pos)
        return
    hero = hero_id(pos.seat, str(act.target))
    pos.stored[pos.seat] -= 1
    pos.stage = "potion"
    pos.landing = {"hero": hero, "at": pos.where[hero], "mode": "stored", "done": [],
                   "took": False}
    pos.step = {"kind": "potion-roll", "hero": hero}


def _on_move_roll(pos: Position, value: int) -> None:
    first_go = pos.step.get("first_go", False)
    team = pos.heroes(pos.seat)
    if value == 6 and not first_go and all(pos.where[h] != PORTAL for h in team):
        pos.extra = True  # EXTRA_ROLL_REPEATS
    pos.step = {"kind": "move", "value": value, "first_go": first_go}


def _on_move(pos: Position, act: Act) -> None:
    if act.verb == "pass":  # BLOCKED_TURN_PASSES
        _after_action(pos)
        return
    if act.verb == "enter":  # a hero is out, however: the three-roll count starts again
        pos.fails[pos.seat] = 0
    arrive(pos, *arrival(pos, act), "move")


def _on_spawn_roll(pos: Position, value: int) -> None:
    tries = pos.step["tries"] + 1
    if value == 6:
        pos.step = {"kind": "place"}
    elif tries < SPAWN_TRIES:
        pos.step = {"kind": "spawn-roll", "tries": tries}
    else:
        pos.fails[pos.seat] += 1
        _next_turn(pos)


def _on_place(pos: Position, act: Act) -> None:
    pos.fails[pos.seat] = 0
    pos.extra = False  # SPAWNED_HERO_WAITS
    arrive(pos, *arrival(pos, act), "move")


# -- arriving on a square ---------------------------------------------------------------------

def arrive(pos: Position, hero: str, at: list[int], mode: str) -> None:
    """A hero reaches `at` by a move ("move"), a Fling Back ("fling") or a Teleport ("teleport"):
    heroes and tokens there meet it as that way of arriving says, then the square is resolved."""
    seat = seat_of(hero)
    if at[1] > pos.options.squares:  # TELEPORT_MAY_ESCAPE: the Exit Portal is past the last
        _escape(pos, hero)
        return
    other = pos.hero_at(at)
    pos.where[hero] = at
    if other is not None and other != hero:
        if mode == "move" and "shield" in pos.carried(other):
            _knock_back(pos, other)
        elif mode == "fling":  # FLING_COLLISIONS_SCORE, SHIELD_ONLY_AGAINST_LANDING
            destroy_hero(pos, other, seat)
            destroy_hero(pos, hero, None)
            return _after_action(pos)
        else:
            destroy_hero(pos, other, seat)  # TELEPORT_CRUSHES_ANY_HERO
    if mode in ("fling", "teleport"):
        for token in pos.tokens_at(at):
            kind = pos.tokens[token]["kind"]
            if kind == "monster":
                del pos.tokens[token]
                pos.scores[seat] += MONSTER_POINTS
                if mode == "fling":
                    destroy_hero(pos, hero, None)
                    return _after_action(pos)
            elif kind == "potion":
                del pos.tokens[token]  # DESTROYED_POTION_SCORES_NOTHING
        if mode == "fling":
            for item in pos.items_at(at):
                pos.items[item] = GONE
    pos.landing = {"hero": hero, "at": at, "mode": mode, "done": [], "took": False}
    _resolve(pos)


def _escape(pos: Position, hero: str) -> None:
    pos.where[hero] = OUT
    for item in pos.carried(hero):
        pos.items[item] = GONE  # ITEMS_LEAVE_WITH_HERO
    pos.scores[seat_of(hero)] += EXIT_POINTS
    pos.landing = None
    _after_action(pos)


def destroy_hero(pos: Position, hero: str, by: int | None) -> None:
    """Back to its portal; its items drop where it was; an opponent who did it scores."""
    at = pos.where[hero]
    for item in pos.carried(hero):
        pos.items[item] = at  # DROPPED_WHERE_DESTROYED
    pos.where[hero] = PORTAL
    if by is not None and by != seat_of(hero):
        pos.scores[by] += HERO_POINTS


def _knock_back(pos: Position, hero: str) -> None:
    side, square = pos.where[hero]

    def free(n: int) -> bool:
        return pos.hero_at([side, n]) is None and not pos.tokens_at([side, n])

    behind = [n for n in range(square - 1, ENTRANCE - 1, -1) if free(n)]
    ahead = [n for n in range(square + 1, pos.options.squares + 1) if free(n)]
    spot = behind[0] if behind else ahead[0] if ahead else None  # SHIELD_KNOCK_BACK
    pos.where[hero] = [side, spot] if spot is not None else PORTAL


def _resolve(pos: Position) -> None:
    """Meet what lies on the landing square, one thing at a time: monster, trap, potion, items.

    Stops where a roll or a choice is needed; its handler calls back here to go on.
    """
    land = pos.landing
    if land is None or land["mode"] == "stored" or pos.where[land["hero"]] != land["at"]:
        pos.landing = None
        _after_action(pos)
        return
    hero, at = land["hero"], land["at"]
    seat = seat_of(hero)
    for kind in ("monster", "trap", "potion"):
        for token in pos.tokens_at(at):
            if pos.tokens[token]["kind"] != kind or token in land["done"]:
                continue
            land["done"].append(token)
            if pos.tokens[token]["owner"] == seat:
                continue  # your Tamed Monster, your Claimed Trap
            if kind == "monster":
                pos.step = {"kind": "monster-roll", "hero": hero, "token": token}
                return
            if kind == "trap":
                if land["mode"] == "teleport" or "shoes" in pos.carried(hero):
                    if _trap_avoided(pos, hero, token):  # TELEPORT_TRAP_AVOIDED
                        return
                    continue
                pos.step = {"kind": "trap-roll", "hero": hero, "token": token}
                return
            if role_of(hero) == "mage":
                pos.step = {"kind": "potion-choice", "hero": hero, "token": token}
                return
            del pos.tokens[token]
            pos.scores[seat] += POTION_POINTS
            pos.step = {"kind": "potion-roll", "hero": hero}
            return
    items = pos.items_at(at)
    if items and not land["took"]:
        land["took"] = True
        if len(items) > 1:
            pos.step = {"kind": "item-choice", "hero": hero}
            return
        _take(pos, hero, items[0])
    pos.landing = None
    _after_action(pos)


def _take(pos: Position, hero: str, item: str) -> None:
    pos.items[item] = hero
    pos.scores[seat_of(hero)] += ITEM_POINTS


def _trap_avoided(pos: Position, hero: str, token: str) -> bool:
    """2 points; a Rogue then claims or keeps the trap. True when that choice waits."""
    pos.scores[seat_of(hero)] += TRAP_POINTS  # ONE_AWARD_PER_TRAP
    if role_of(hero) != "rogue":
        return False
    pos.step = {"kind": "trap-choice", "hero": hero, "token": token}
    return True


# -- what lies on the square ------------------------------------------------------------------

def _on_monster_roll(pos: Position, value: int) -> None:
    hero, token = pos.step["hero"], pos.step["token"]
    if value + fight_bonus(pos, hero) <= 3:
        destroy_hero(pos, hero, None)
        pos.landing = None
        _after_action(pos)
        return
    seat = seat_of(hero)
    pos.scores[seat] += MONSTER_POINTS
    pos.tokens[token]["owner"] = None  # another team's Tame marker goes back
    if role_of(hero) == "warrior":
        pos.step = {"kind": "monster-choice", "hero": hero, "token": token}
        return
    del pos.tokens[token]
    _resolve(pos)


def _on_trap_roll(pos: Position, value: int) -> None:
    hero, token = pos.step["hero"], pos.step["token"]
    total = value + pos.kept_traps[seat_of(hero)]  # TRAP_BONUS_STAYS
    if total <= 1:
        destroy_hero(pos, hero, None)  # Trap Zap
        pos.landing = None
        _after_action(pos)
    elif total <= 4:
        pos.step = {"kind": "fling-roll", "hero": hero}
    elif not _trap_avoided(pos, hero, token):
        _resolve(pos)


def _on_fling_roll(pos: Position, value: int) -> None:
    hero = pos.step["hero"]
    side, square = pos.where[hero]
    # flung only from a trap, and no trap lies on squares 1-7: never behind the Entrance
    arrive(pos, hero, [side, square - value], "fling")


def _on_token_choice(pos: Position, act: Act) -> None:
    """A beaten Monster or a disarmed Trap: `tame`/`claim` marks it for the team, `keep` takes it
    off the board for +1 on every later roll of its kind."""
    seat, token = pos.seat, pos.step["token"]
    if act.verb == "keep":
        kept = pos.kept_monsters if pos.tokens[token]["kind"] == "monster" else pos.kept_traps
        kept[seat] += 1
        del pos.tokens[token]
    else:
        pos.tokens[token]["owner"] = seat
    _resolve(pos)


def _on_potion_choice(pos: Position, act: Act) -> None:
    hero, token = pos.step["hero"], pos.step["token"]
    del pos.tokens[token]
    pos.scores[pos.seat] += POTION_POINTS
    if act.verb == "collect":
        pos.stored[pos.seat] += 1  # STORED_POTIONS_ADD_UP
        _resolve(pos)
    else:
        pos.step = {"kind": "potion-roll", "hero": hero}


def _on_potion_roll(pos: Position, value: int) -> None:
    hero = pos.step["hero"]
    if value == 1:
        pos.step = {"kind": "teleport-roll", "hero": hero}
        return
    if value <= 3:
        _death_pulse(pos, hero)
    else:
        verb = "switch" if value <= 5 else "flick"
        targets = foes(pos, hero, ahead_only=verb == "switch")
        if targets:
            pos.step = {"kind": verb, "hero": hero, "targets": targets}
            return
    _resolve(pos)


def foes(pos: Position, hero: str, ahead_only: bool) -> list[str]:
    """Other teams' heroes on the board and Monsters; for a Switcheroo only those in front."""
    seat, here = seat_of(hero), pos.where[hero][1]
    found = [h for h, w in pos.where.items() if isinstance(w, list) and seat_of(h) != seat
             and (not ahead_only or w[1] > here)]
    found += [t for t, token in pos.tokens.items() if token["kind"] == "monster"  # FLICK_ANYWHERE
              and (not ahead_only or token["at"][1] > here)]
    return found


def _death_pulse(pos: Position, hero: str) -> None:
    seat = seat_of(hero)
    side, square = pos.where[hero]
    for at in ([side, square - 1], [side, square + 1]):
        victim = pos.hero_at(at)
        if victim is not None and seat_of(victim) != seat:
            destroy_hero(pos, victim, seat)
        for token in pos.tokens_at(at):
            if pos.tokens[token]["kind"] == "monster":
                del pos.tokens[token]
                pos.scores[seat] += MONSTER_POINTS


def _on_teleport_roll(pos: Position, value: int) -> None:
    hero = pos.step["hero"]
    arrive(pos, hero, destination(pos, hero, value), "teleport")


def _on_switch(pos: Position, act: Act) -> None:
    hero, target = pos.step["hero"], str(act.target)
    mine = pos.where[hero]
    if target in pos.tokens:
        pos.where[hero], pos.tokens[target]["at"] = pos.tokens[target]["at"], mine
    else:
        pos.where[hero], pos.where[target] = pos.where[target], mine
    pos.landing = None  # SWITCH_TRIGGERS_NOTHING
    _after_action(pos)


def _on_flick(pos: Position, act: Act) -> None:
    target = str(act.target)
    if target in pos.tokens:
        del pos.tokens[target]
        pos.scores[pos.seat] += MONSTER_POINTS
    else:
        destroy_hero(pos, target, pos.seat)
    _resolve(pos)


def _on_item_choice(pos: Position, act: Act) -> None:
    _take(pos, pos.step["hero"], str(act.target))
    _resolve(pos)


# -- after each action ------------------------------------------------------------------------

def _after_action(pos: Position) -> None:
    for seat in range(len(pos.names)):
        if all(pos.where[h] == OUT for h in pos.heroes(seat)):
            _end(pos, seat)
            return
    if pos.stage == "potion":
        pos.stage = "move"
        if pos.options.stored_potion == "instead":
            _next_turn(pos)
        else:
            _movement_start(pos)
    elif pos.extra:
        pos.extra = False
        # FIRST GO "or if there are no heroes from any side left on the board": the extra roll
        # of a team whose last hero was lost on it brings a hero out that far.
        pos.step = {"kind": "move-roll", "first_go": not pos.any_on_board()}
    else:
        _next_turn(pos)


def _next_turn(pos: Position) -> None:
    _start_turn(pos, (pos.seat + 1) % len(pos.names))


def _end(pos: Position, finisher: int) -> None:
    if pos.options.win == "first-out":  # the book's variant: scoring ignored
        pos.winners = [finisher]
        pos.reason = f"{pos.names[finisher]} got all three heroes out first"
    else:
        best = max(pos.scores)
        tied = [s for s, score in enumerate(pos.scores) if score == best]
        if len(tied) > 1 and pos.options.ties == "escaped" and finisher in tied:
            tied = [finisher]
        winners = ", ".join(pos.names[s] for s in tied)  # TIES_SHARED
        pos.winners = tied
        pos.reason = (f"{pos.names[finisher]} got all three heroes out; "
                      f"highest score {best}: {winners}")
    pos.step = {"kind": "over"}
    pos.landing = None


_ROLLS: dict[str, Callable[[Position, int], None]] = {
    "items-roll": _on_items_roll, "first": _on_first, "move-roll": _on_move_roll, "spawn-roll": _on_spawn_roll,
    "trap-roll": _on_trap_roll, "fling-roll": _on_fling_roll, "monster-roll": _on_monster_roll,
    "potion-roll": _on_potion_roll, "teleport-roll": _on_teleport_roll,
}
_MOVES: dict[str, Callable[[Position, Act], None]] = {
    "start": _on_start, "move": _on_move, "place": _on_place, "trap-choice": _on_token_choice,
    "monster-choice": _on_token_choice, "potion-choice": _on_potion_choice,
    "switch": _on_switch, "flick": _on_flick, "item-choice": _on_item_choice,
}
