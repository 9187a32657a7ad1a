"""What a roll or a move just did, in one line a player reads ("Bob rolled the melee team:
Wizard 3, Druid 7 | the Ogre 18 (e3) is defeated, Bob +20").

Worked out from the positions before and after, so a roll and a move are told alike and
nothing the rules do on the way (a wound from a 1, a Hydra growing heads, a Troll coming back)
goes unsaid.
"""

from __future__ import annotations

from ...words import line, scored
from .position import Enemy, Position
from .rules import ROLES, STONE, WOUNDED

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def told(before: Position, after: Position, did: str) -> str:
    """`did` (who did what) followed by everything that changed on the table."""
    return line(did, [*_enemies(before, after), *_characters(before, after),
                      *scored(before, after)])


def enemy_name(enemy: Enemy, slot: int) -> str:
    """An enemy as the panel names it: what it is and its place in the line-up, kept all turn."""
    return f"the {_title(enemy)} (e{slot + 1})"


def _title(enemy: Enemy) -> str:
    label = enemy.label()
    return label[0].upper() + label[1:]


def _enemies(before: Position, after: Position) -> list[str]:
    """Enemies defeated and Hydra heads grown or lost; when new enemies are rolled the line-up
    is put back in order (the book's smallest to largest), so the whole line-up is said."""
    said = []
    placed = False
    for slot, (old, new) in enumerate(zip(before.enemies, after.enemies, strict=True)):
        if old == new:
            continue
        hydra = old.monster == "hydra" == new.monster
        if new.defeated and not old.defeated:
            said.append(f"{enemy_name(old, slot)} is defeated")
        elif hydra and len(new.heads) > len(old.heads):
            said.append(f"the Hydra grows {_count(len(new.heads) - len(old.heads), 'head')}")
        elif hydra and len(new.heads) < len(old.heads):
            said.append(f"the Hydra loses {_count(len(old.heads) - len(new.heads), 'head')}")
        elif old.epic and new.epic and new.monster is not None and new.monster != old.monster:
            said.append(f"e{slot + 1} is the {_title(new)}")  # its d10 and type came up
        else:
            placed = True
    if placed:
        said.append("line-up " + ", ".join(
            f"e{slot + 1} " + ("defeated" if e.defeated else "epic monster (type rolled next)"
                               if e.epic and e.monster is None else _title(e))
            for slot, e in enumerate(after.enemies)))
    return said


def _characters(before: Position, after: Position) -> list[str]:
    said = []
    for seat, name in enumerate(after.names):
        for role, (old, new) in enumerate(zip(before.status[seat], after.status[seat],
                                              strict=True)):
            if old != new:
                state = {WOUNDED: "is wounded", STONE: "is turned to stone"}.get(new, "is healed")
                said.append(f"{name}'s {ROLES[role].name.capitalize()} {state}")
        if after.eliminated[seat] and not before.eliminated[seat]:
            said.append(f"{name} is out: every character is lost")
    return said


def rolled(before: Position, reason: str, values: list[int]) -> str:
    """Who rolled what: the characters' dice by name where the roll was theirs."""
    who = before.names[before.seat] if before.seat is not None else "The table"
    task = before.queue[0]
    roles: tuple[int, ...] = ()
    if task[0] == "team" and before.turn is not None:
        roles = before.turn.team
    elif task[0] in ("reroll", "breath"):
        roles = task[1]
    elif task[0] == "inspire":
        roles = (task[1],)
    if task[0] == "rolloff":  # each d20 said with its player
        faces = ", ".join(f"{before.names[s]} {v}" for s, v in zip(task[1], values))
    elif len(roles) == len(values):
        faces = ", ".join(f"{ROLES[r].name.capitalize()} {v}" for r, v in zip(roles, values))
    else:
        faces = " ".join(str(v) for v in values)
    return f"{who} rolled ({reason}): {faces}"


def _count(n: int, noun: str) -> str:
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{word} {noun}{'s' if n != 1 else ''}"


def details(pos: Position) -> list[dict[str, object]]:
    """The table as a player reads it, for the panel's "Table details": whose turn and round,
    the line-up, and each party with its score and every character's state."""
    turn = pos.turn
    lineup = []
    for slot, enemy in enumerate(pos.enemies):
        if not pos.lineup_rolled:
            lineup.append(f"e{slot + 1}: rolled at the start")
        elif enemy.defeated:
            lineup.append(f"e{slot + 1}: defeated, a new one is rolled at the end of the turn")
        elif enemy.monster == "hydra":
            heads = ", ".join(map(str, enemy.heads)) or "none"
            lineup.append(f"e{slot + 1}: Hydra, d10 heads {heads}, then its d20 head (10 points a"
                          " head)")
        else:
            lineup.append(f"e{slot + 1}: {_title(enemy)} ({enemy.points} points)")
    sections: list[dict[str, object]] = [{"title": _round(pos), "lines": lineup}]
    if turn is not None and (turn.bolts or turn.bear):
        sections[0]["lines"] = [*lineup, "pool: " + ", ".join(
            [f"Fire Bolt {v}" for v in turn.bolts] + [f"Bear {v}" for v in turn.bear])]
    for seat, name in enumerate(pos.names):
        mine = turn if seat == pos.seat else None
        lines = []
        for role, (status, last) in enumerate(zip(pos.status[seat], pos.last[seat], strict=True)):
            value = mine.values[role] if mine is not None and mine.values[role] is not None \
                else last
            state = {WOUNDED: "wounded", STONE: "turned to stone"}.get(status, "ready")
            shows = f", shows {value}" if value is not None and status != STONE else ""
            team = " (in the melee team)" if mine is not None and role in mine.team else ""
            lines.append(f"{ROLES[role].name.capitalize()} {ROLES[role].die}: {state}{shows}{team}")
        notes = [" (to play)" if seat == pos.seat and pos.phase != "over" else "",
                 ", first player" if seat == pos.first else "",
                 ", out of the game" if pos.eliminated[seat] else ""]
        sections.append({"title": f"{name}: {pos.scores[seat]} points" + "".join(notes),
                         "lines": lines})
    return sections


def _round(pos: Position) -> str:
    if pos.phase == "over":
        return f"Game over: {pos.reason}"
    final = " (the final round)" if pos.end_round is not None and pos.round == pos.end_round \
        else ""
    return f"Round {pos.round}{final}, playing to {pos.options.target}: the line-up"
