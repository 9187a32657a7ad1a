"""Board Horde in the player's words: a move's title ("Ann's Rogue to square 9: knocks Bob's
Mage out") and what a roll or move just did ("Bob's Warrior won the fight | Bob +3").

Heroes are named by their player and role, never by the id the commands use ("red-mage"), so
the panel reads the same whatever colours the teams have.
"""

from __future__ import annotations

from ...core import Move, Roll
from ...words import line, scored
from .moves import Act
from .position import OUT, PORTAL, Position, hero_id, role_of, seat_of, square_name
from .rules import TEAMS

CHOICES = {
    "go": "Roll to move (keep the potion)",
    "pass": "Pass: no hero can use this roll",
    "claim": "Claim the trap",
    "tame": "Tame the monster",
    "collect": "Collect the potion and store it",
    "drink": "Drink the potion now",
}
POTIONS = {1: "Teleport", 2: "Death Pulse", 3: "Death Pulse", 4: "Switcheroo", 5: "Switcheroo",
           6: "Flick A Foe"}
ROLLED_FOR = {"first": "for who goes first", "items-roll": "for where the items go",
              "move-roll": "to move", "spawn-roll": "for a 6", "fling-roll": "to be flung back",
              "teleport-roll": "to teleport", "potion-roll": "for the potion",
              "trap-roll": "on the trap", "monster-roll": "in the fight"}


def hero_name(pos: Position, hero: str) -> str:
    """'Ann's Rogue' for hero id 'blue-rogue'."""
    return f"{pos.names[seat_of(hero)]}'s {role_of(hero).capitalize()}"


def foe_name(pos: Position, target: str) -> str:
    """A hero by its player, a monster by its token and square."""
    if target in pos.tokens:
        return f"the monster {target} on square " \
               f"{square_name(pos.tokens[target]['at'], pos.options.sides)}"
    return hero_name(pos, target)


def title(pos: Position, act: Act, detail: str) -> str:
    """The move as a player says it; `detail` is the ranking's note on where it lands."""
    verb = act.verb
    if verb in ("move", "enter"):
        hero = hero_name(pos, hero_id(pos.seat, str(act.target)))
        for other in pos.where:  # the detail names heroes by id
            detail = detail.replace(other, hero_name(pos, other))
        return f"{hero} {'comes out ' if verb == 'enter' else ''}{detail}"
    if verb == "switch":
        return f"Switcheroo: swap with {foe_name(pos, str(act.target))}"
    if verb == "flick":
        return f"Flick {foe_name(pos, str(act.target))} off the board"
    if verb == "take":
        return f"Take the {act.target}"
    if verb == "potion":
        return f"{hero_name(pos, hero_id(pos.seat, str(act.target)))} drinks a stored potion first"
    if verb == "keep":
        kind = "trap" if pos.step["kind"] == "trap-choice" else "monster"
        return f"Keep the {kind}: +1 on later {kind} rolls"
    return CHOICES[verb]


def told(before: Position, after: Position, move: Move | Roll, said: str) -> str:
    """One line: who rolled what and what came of it; for a move, what changed (its title,
    `said`, only where nothing did: the title's odds are stale once it is played)."""
    changes = [*_heroes(before, after), *_tokens(before, after), *_kept(before, after),
               *scored(before, after)]
    if isinstance(move, Roll):
        return line(_rolled(before, after, int(move.dice[0].value)), changes)
    return f"{before.names[before.seat]}: " + (", ".join(changes) or said)  # changes say it


def _rolled(before: Position, after: Position, value: int) -> str:
    step = before.step
    kind = step["kind"]
    who = before.names[step["contenders"][len(step["rolls"])]] if kind == "first" \
        else before.names[before.seat]
    line = f"{who} rolled {value} {ROLLED_FOR.get(kind, '')}".rstrip()
    hero = step.get("hero")
    if kind == "monster-roll":
        won = after.where[hero] != PORTAL
        return f"{hero_name(before, hero)} {'won' if won else 'lost'} the fight ({value})"
    if kind == "trap-roll":
        outcome = ("zapped" if after.where[hero] == PORTAL else "flung back"
                   if after.step.get("kind") == "fling-roll" else "safe")
        return f"trap: {outcome} ({hero_name(before, hero)} rolled {value})"
    if kind == "potion-roll":
        return f"{line}: {POTIONS[value]}"
    return line


def _heroes(before: Position, after: Position) -> list[str]:
    said = []
    for hero, old in before.where.items():
        new = after.where[hero]
        if new == old:
            continue
        name = hero_name(after, hero)
        if new == PORTAL:
            said.append(f"{name} is sent back to the Spawning Portal")
        elif new == OUT:
            said.append(f"{name} escapes")
        else:
            said.append(f"{name} {'comes out on' if old == PORTAL else 'to'} square "
                        f"{square_name(new, after.options.sides)}")
    for item, old in before.items.items():
        new = after.items[item]
        if new != old and isinstance(new, str) and new in after.where:
            said.append(f"{hero_name(after, new)} takes the {item}")
    return said


def _tokens(before: Position, after: Position) -> list[str]:
    said = []
    for token, old in before.tokens.items():
        new = after.tokens.get(token)
        if new is None:
            said.append(f"the {old['kind']} {token} is gone")
        elif new["owner"] != old["owner"] and new["owner"] is not None:
            verb = "tames" if new["kind"] == "monster" else "claims"
            said.append(f"{after.names[new['owner']]} {verb} the {new['kind']} {token}")
    return said


def _kept(before: Position, after: Position) -> list[str]:
    said = []
    for seat, name in enumerate(after.names):
        for kind, old, new in (("trap", before.kept_traps, after.kept_traps),
                               ("monster", before.kept_monsters, after.kept_monsters),
                               ("potion stored", before.stored, after.stored)):
            if new[seat] > old[seat]:
                said.append(f"{name} keeps a {kind} ({new[seat]} now)")
            elif new[seat] < old[seat] and kind == "potion stored":
                said.append(f"{name} uses a stored potion")
    return said


def details(pos: Position) -> list[dict[str, object]]:
    """The table as a player reads it, for the panel's "Table details": each team with its
    score, where its heroes are and what it kept, then what lies on the board."""
    sections: list[dict[str, object]] = []
    for seat, name in enumerate(pos.names):
        lines = []
        for hero in pos.heroes(seat):
            where = pos.where[hero]
            place = (f"on square {square_name(where, pos.options.sides)}"
                     if isinstance(where, list) else
                     "in the Spawning Portal" if where == PORTAL else "escaped")
            items = pos.carried(hero)
            lines.append(f"{role_of(hero).capitalize()}: {place}"
                         + (f", carries the {' and the '.join(items)}" if items else ""))
        kept = [f"{n} {what}" for n, what in ((pos.kept_traps[seat], "kept traps"),
                                               (pos.kept_monsters[seat], "kept monsters"),
                                               (pos.stored[seat], "stored potions")) if n]
        if kept:
            lines.append(", ".join(kept))
        turn = " (to play)" if seat == pos.seat and pos.winners is None else ""
        sections.append({"title": f"{name} ({TEAMS[seat]}): {pos.scores[seat]} points{turn}",
                         "lines": lines})
    board = [f"{token['kind']} {t} on square {square_name(token['at'], pos.options.sides)}"
             + (f", {'tamed' if token['kind'] == 'monster' else 'claimed'} by "
                f"{pos.names[token['owner']]}" if token["owner"] is not None else "")
             for t, token in sorted(pos.tokens.items(), key=lambda kv: kv[1]["at"])]
    board += [f"the {item} on square {square_name(at, pos.options.sides)}"
              for item, at in pos.items.items() if isinstance(at, list)]
    sections.append({"title": "On the board", "lines": board or ["nothing"]})
    return sections
