"""Fantahzee in the player's words: a move's title ("Activate the Knight with 3 3 3") and what a
roll or move just did ("Ann rolled 1 3 3 5 6 | Ann +4 XP").

Cards are named by their names on the table's own cards, never by the ids the commands use.
"""

from __future__ import annotations

from ...core import Move, Roll
from ...words import joined, line, scored
from .moves import Act
from .party import strength
from .position import Position


def title(pos: Position, move: Act) -> str:
    """The move as a player says it."""
    verb, args, name = move.verb, move.args, pos.cards.name
    if verb == "card":
        return f"The card is {name(args[0])}"
    if verb == "recruit":
        over = f" in place of the {_hero(pos, args[2])}" if len(args) == 3 else ""
        return f"Recruit the {name(args[0])}{over}"
    if verb == "play":
        return f"Play {name(args[0])}"
    if verb == "dice":
        return "On to the dice: roll them"
    if verb == "activate":
        how = {"steam": "with steam", "free": "for free"}.get(args[1], "with " + " ".join(args[2:]))
        return f"Activate the {_hero(pos, args[0])} {how}"
    if verb == "reroll":
        return f"Reroll {joined(args)}" if args else "Roll the dice not rolled yet"
    if verb == "attack":
        return f"Attack with strength {strength(pos)}"
    if verb in ("fight", "banish"):
        top = pos.s["stacks"][int(args[0]) - 1]["top"]
        return f"{verb.capitalize()} the {name(top)} (stack {args[0]})"
    if verb == "flip":
        return f"Flip stack {args[0]}: the party is locked into it"
    if verb == "stop":
        return "End the attack"
    if verb == "lose":
        return f"Lose the {_hero(pos, args[0])}"
    if verb == "attach":
        return f"Put the treasure on the {_hero(pos, args[0])}"
    if verb == "discard":
        return f"Discard {name(args[0])}" if args else "Throw the treasure away"
    return f"By hand: {args[0]} {args[1]}"  # adjust


def group(pos: Position, move: Act) -> str:
    """Where the panel lists a move among many (a Roll Step has dozens): a hero's payments
    together, rerolls by how many dice, the attack's choices together."""
    verb = move.verb
    if verb == "activate":
        return f"Activate the {_hero(pos, move.args[0])}"
    if verb == "reroll":
        return f"Reroll {len(move.args)} {'die' if len(move.args) == 1 else 'dice'}" \
            if move.args else "Reroll"
    return {"card": "Cards that can come up", "recruit": "Recruit", "play": "Play a card",
            "dice": "Dice", "attack": "Attack",
            "fight": "Attack", "flip": "Attack", "banish": "Attack", "stop": "Attack",
            "lose": "Lose a hero", "discard": "Discard"}.get(verb, "Other moves")


def _hero(pos: Position, key: str) -> str:
    return pos.cards.name(pos.member(key)["card"])


def told(before: Position, after: Position, move: Move | Roll, said: str,
         seat: int | None = None) -> str:
    """One line: who (`seat`, else the player whose turn it is) rolled or chose what (`said`:
    the move's title), then what changed."""
    who = before.names[before.seat if seat is None else seat]
    if isinstance(move, Roll):
        said = f"{who} rolled {' '.join(str(d.value) for d in move.dice)}"
    else:
        said = f"{who}: {said}"
    return line(said, [*_party(before, after), *_victories(before, after),
                       *scored(before, after, " XP")])


def _party(before: Position, after: Position) -> list[str]:
    said = []
    for seat, name in enumerate(after.names):
        old = {m["uid"]: m["card"] for m in before.s["party"][seat]}
        new = {m["uid"]: m["card"] for m in after.s["party"][seat]}
        said += [f"{name} loses the {after.cards.name(card)}" for uid, card in old.items()
                 if uid not in new]
        said += [f"the {after.cards.name(card)} joins {name}'s party" for uid, card in new.items()
                 if uid not in old]
    return said


def _victories(before: Position, after: Position) -> list[str]:
    said = []
    for seat, name in enumerate(after.names):
        won = after.s["victory"][seat][len(before.s["victory"][seat]):]
        said += [f"{name} {'defeats' if kind == 'm' else 'takes'} the {after.cards.name(card)}"
                 for kind, card in won]
    return said


def details(pos: Position) -> list[dict[str, object]]:
    """The table as a player reads it, for the panel's "Table details": the horde stacks, then
    each player with XP, party, hand size and victory pile."""
    s, cards = pos.s, pos.cards
    stacks = []
    for n, st in enumerate(s["stacks"], 1):
        top = cards.monsters[st["top"]] if st["top"] else None
        shown = (f"{top.name} (strength {top.strength}, {top.xp} XP)" if top else "face down")
        vanguard = ", the vanguard" if n == len(s["stacks"]) else ""
        stacks.append(f"stack {n}{vanguard}: {shown}, {st['l1'] + st['l2']} below")
    sections: list[dict[str, object]] = [
        {"title": f"The horde (doom {s['doom']})", "lines": stacks or ["no stacks left"]}]
    for seat, name in enumerate(pos.names):
        party = [f"{cards.heroes[m['card']].name} (strength {cards.heroes[m['card']].strength})"
                 + (f" with {cards.name(m['treasure'][0])}" if m["treasure"] else "")
                 for m in pos.party(seat)]
        won = [cards.name(card) for _, card in s["victory"][seat]]
        notes = (" (to play)" if seat == pos.seat and pos.winners is None else "") + \
            (", Last Player" if seat == s["last"] else "")
        sections.append({"title": f"{name}: {pos.xp(seat)} XP{notes}", "lines": [
            "party: " + (", ".join(party) or "nobody yet"),
            f"hand: {len(s['hands'][seat])} cards",
            "victory pile: " + (", ".join(won) or "empty")]})
    return sections
