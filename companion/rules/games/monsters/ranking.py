"""The panel's ranked moves, in the player's words: every legal attack with the damage it does
and what the defender's best answer to it lets through, every legal defence with the damage that
gets through, and the smaller choices (whom to attack, which die takes a point, healing)."""

from __future__ import annotations

from ...core import RankedMove
from . import exchange, flow, invasion, powers
from .combat import Blow, describe_blow, describe_through
from .exchange import attacks, defences, other, outcome_of
from .moves import Act
from .position import READY, STUNNED, Position
from .rules import ATTACKS, DEFENCE_SUPPLEMENTS, DEFENCES, MINUSES
from .scoring import invasion_points, wargame_points


def ranked(pos: Position) -> list[RankedMove]:
    kind = pos.step["kind"]
    if kind == "strike":
        return _strikes(pos)
    if kind == "defend":
        return _defences(pos)
    if kind in ("hurt", "grab"):
        return _dice(pos, kind)
    if kind == "power":
        return _power(pos)
    if pos.scenario == "invasion" and kind in flow.INVASION_STEPS:
        return _invasion(pos)
    if kind in ("place", "card") or (kind == "act" and pos.scenario == "wargame"):
        return _wargame(pos)
    moves = [_plain(pos, act) for act in flow.legal(pos)]
    if kind == "act":  # the weakest monster first: least health, then fewest dice ready
        moves.sort(key=lambda m: m.extra.get("order", (99, 99)))
    return moves


TARGETS = frozenset({"attack", "fight"})  # moves that choose whom to fight


def tied_best(pos: Position) -> list[Act]:
    """The best-ranked move and the targets ranked equal to it (the same worth: equal health
    and dice ready in battle), so self-play does not always pick the lowest seat."""
    moves = ranked(pos)
    top = moves[0]
    if top.move.verb not in TARGETS:
        return [top.move]
    return [m.move for m in moves if m.move.verb == top.move.verb
            and (m.points, m.extra) == (top.points, top.extra)]


def _faces(pos: Position, seat: int, dice: tuple[int, ...]) -> str:
    return " + ".join(str(pos.s["shown"][seat][d]).title() for d in dice)


def _best_answer(pos: Position, victim: int, made: Blow) -> tuple[int, str]:
    """Health the victim loses to their best defence of their dice now, and in words."""
    answers = [("no defence", outcome_of(pos, victim, made, None)[0])]
    answers += [(_faces(pos, victim, dice), outcome_of(pos, victim, made, chosen)[0])
                for dice, chosen in defences(pos, victim, made)]
    name, result = min(answers, key=lambda a: (a[1].health + a[1].grab, len(a[0])))
    return result.health + result.grab, f"best answer {name}: {describe_through(result)}"


def _strikes(pos: Position) -> list[RankedMove]:
    combat = pos.combat
    assert combat is not None
    striker = combat["by"]
    victim = other(pos, striker)
    moves = []
    for dice, made in attacks(pos, striker):
        raw = made.stun + 2 * made.wound + made.grab
        left, answer = _best_answer(pos, victim, made)
        title = (f"{_faces(pos, striker, dice)} at {pos.names[victim]}: {describe_blow(made)}"
                 f" (health -{raw}); {answer}")
        moves.append(RankedMove(Act("hit", tuple(d + 1 for d in dice)), left, answer,
                                {"raw": raw}, title))
    moves.sort(key=lambda m: (-m.points, -m.extra["raw"], len(m.move.text())))
    legal = exchange.legal(pos)  # once: each listing works out every attack again
    if Act("pain") in legal:
        moves.insert(0, RankedMove(Act("pain"), 1, "one token", {"raw": 1},
                                   f"Pain: {pos.names[victim]} takes one stun nobody can stop"))
    for act in legal:
        if act.verb == "decay":
            moves.insert(0, RankedMove(act, 1, "one token", {"raw": 1},
                                       f"Decay: {pos.names[victim]}'s stunned "
                                       f"{pos.die_name(victim, act.numbers[0] - 1)} becomes a "
                                       "wound (health -1)"))
    word = "attack" if striker == combat["a"] else "counterattack"
    return moves + [RankedMove(Act("pass"), 0, "", {"raw": 0}, f"Make no {word}")]


def _defences(pos: Position) -> list[RankedMove]:
    combat = pos.combat
    assert combat is not None
    seat = other(pos, combat["by"])
    made = exchange.current_blow(pos)
    def named(dice: tuple[int, ...]) -> str:  # the defence die first, then what helps it
        faces = pos.faces(seat, list(dice))
        return " + ".join(str(f).title() for f in sorted(
            faces, key=lambda f: f in MINUSES or f in DEFENCE_SUPPLEMENTS))

    options = [(Act("defend", tuple(d + 1 for d in dice)), named(dice), chosen)
               for dice, chosen in defences(pos, seat, made)]
    moves = []
    for act, name, chosen in options + [(Act("take"), "", None)]:
        result = outcome_of(pos, seat, made, chosen)[0]
        slow = chosen is not None and not result.defended
        words = describe_through(result) + (" (too slow for this attack)" if slow else "")
        title = f"{name}: {words}" if name else f"No defence: {words}"
        moves.append(RankedMove(act, -result.health - result.grab, words,
                                {"dice": len(act.numbers)}, title))
    moves.sort(key=lambda m: (-m.points, m.extra["dice"]))
    return moves


def die_worth(pos: Position, seat: int, die: int) -> int:
    """How much a die can do: its faces that attack or defend."""
    return sum(1 for f in pos.dice(seat)[die] if f in ATTACKS or f in DEFENCES)


def _power(pos: Position) -> list[RankedMove]:
    """A kind's power offered: using it first when it saves its owner health or costs the foe
    more (points: the health it changes), keeping the token after."""
    step = pos.step
    power, who = step["power"], step["who"]
    before = powers.now(pos)
    after = powers.changed(pos, who, power)
    assert after is not None
    gain = before.health - after.health if who == "victim" else after.health - before.health
    use = RankedMove(Act(power), gain, "one token", {},
                     f"{power.title()}: {describe_through(after)} (health -{after.health}) "
                     f"instead of {describe_through(before)}")
    keep = RankedMove(Act("keep"), 0, "", {},
                      f"Keep the {power.title()} token: {describe_through(before)}")
    return sorted([use, keep], key=lambda m: -m.points)


def _dice(pos: Position, kind: str) -> list[RankedMove]:
    """Which die takes a point (or is grabbed): a defender gives up what it can spare (a spent
    die to stun, the least able), an attacker takes the most able die."""
    step = pos.step
    combat = pos.combat
    assert combat is not None
    if kind == "hurt":
        victim, chooser, point = step["victim"], step["chooser"], step["points"][0]
        dice = exchange.hurtable(pos, victim)
    else:
        victim, chooser, point = other(pos, combat["by"]), combat["by"], "grab"
        dice = exchange.grabbable(pos, victim)
    moves = []
    for die in dice:
        where = pos.s["pool"][victim][die]
        result = ("grabbed" if point == "grab" else
                  "wounded" if point == "wound" or where == STUNNED else "stunned")
        showing = pos.s["shown"][victim][die]
        main = "/".join(sorted(set(pos.dice(victim)[die])))[:40]
        cost = die_worth(pos, victim, die) + (4 if where == STUNNED or result == "wounded" else 0)
        unspent = where == READY and not pos.s["spent"][victim][die]
        cost += 2 if unspent else 0
        title = (f"{pos.names[victim]}'s {pos.die_name(victim, die)} is {result} ({main}"
                 + (f"; showing {showing}" if unspent and showing else "") + ")")
        worth = cost if chooser != victim else -cost
        moves.append(RankedMove(Act(kind, (die + 1,)), 0, result, {"worth": worth}, title))
    moves.sort(key=lambda m: -m.extra["worth"])
    return moves


def _wargame(pos: Position) -> list[RankedMove]:
    """The Wargame's choices: flip a card first (a red one scores), then fight, then move; a
    square reached is worth its face-down card."""
    s, seat = pos.s, pos.seat
    moves = []
    for act in flow.legal(pos):
        if act.verb == "card":
            points = wargame_points(act.card)
            moves.append(RankedMove(act, points, "", {"worth": 0},
                                    f"The card is {act.card} (+{points})"))
            continue
        if act.verb == "go":
            sq = act.numbers[0] - 1
            there = [pos.names[p] for p in pos.alive() if p != seat and s["at"][p] == sq]
            card = s["grid"][sq]
            title = (f"Move to square {sq + 1}: " + (card or "a face-down card")
                     + (f", {' and '.join(there)} there" if there else ""))
            moves.append(RankedMove(act, 0, "", {"worth": (card is None) + 0.5 * bool(there)},
                                    title))
            continue
        worth, title = {"move": (1, "Roll the die and move"),
                        "flip": (3, f"Flip the card on square {s['at'][seat] + 1}"),
                        "surrender": (-1, "Surrender: leave the game")}.get(act.verb, (0, ""))
        if act.verb == "fight":
            target = act.numbers[0] - 1
            worth, title = 2, (f"Fight {pos.names[target]} (health {s['health'][target]} of "
                               f"{len(pos.dice(target))}): three combat rounds")
        moves.append(RankedMove(act, 0, "", {"worth": worth}, title))
    moves.sort(key=lambda m: -m.extra["worth"])
    return moves


def _invasion(pos: Position) -> list[RankedMove]:
    """Invasion's choices: remove a stun, go where mortals wait alone, feast while a Minus
    lasts, fight, bank a Plus or Minus for later. Only feasting ends the game, so a move to an
    exhausted section ranks above a fight when it nears the cards left (else every monster
    crowds the last pile and they fight there for ever) and below ending the turn when it
    does not (else they wander the exhausted sections for ever)."""
    s, seat = pos.s, pos.seat
    moves = []
    for act in flow.legal(pos):
        worth, title = 0.0, ""
        if act.verb == "card":
            worth, title = 0, f"The card is {act.card} (+{invasion_points(act.card)})"
        elif act.verb == "go":
            sq = act.numbers[0] - 1
            pile = s["piles"][sq]
            there = [pos.names[p] for p in pos.alive() if p != seat and s["at"][p] == sq]
            cards = pile["down"] + (pile["up"] is not None)
            worth, aim = 0.5 if there else cards, ""
            if not (there or cards):
                nearer = _moves_to_cards(pos, sq) < _moves_to_cards(pos, s["at"][seat])
                worth, aim = (0.75, "; nearer") if nearer else (-0.75, "; no nearer")
                aim += " the cards left"
            title = (f"Move to section {sq + 1}: {cards} card{'s' * (cards != 1)}"
                     + (f" (top {pile['up']})" if pile["up"] else "")
                     + (f"; fight {' or '.join(there)}" if there else "") + aim)
        elif act.verb == "fight":
            target = act.numbers[0] - 1
            worth, title = 0.5, f"Fight {pos.names[target]} (health {s['health'][target]})"
        elif act.verb == "unstun":
            worth, title = 3, (f"Spend a Plus: {pos.die_name(seat, act.numbers[0] - 1)} is no "
                               "longer stunned")
        elif act.verb in ("bank", "unbank", "swap"):
            die = act.numbers[0] - 1
            face = s["shown"][seat][die]
            named = pos.die_name(seat, die)
            words = {"bank": f"Bank {named} ({face})",
                     "unbank": f"Put banked {named} ({face}) back in the bag",
                     "swap": f"Bank {named} ({face}), take "
                             f"{pos.die_name(seat, act.numbers[-1] - 1)} back"}
            worth, title = (1 if act.verb != "unbank" and face in ("plus", "minus") else 0,
                            words[act.verb])
        else:
            worth, title = {"feast": (2, "Feast: a Minus takes the top card"),
                            "stop": (0, "Stop feasting"),
                            "end": (-0.5, "Done" + (" (then bank a die)" if pos.step["kind"]
                                                    == "act" else ": bank nothing")),
                            "surrender": (-1, "Surrender: leave the game")}[act.verb]
        moves.append(RankedMove(act, 0, "", {"worth": worth}, title))
    moves.sort(key=lambda m: -m.extra["worth"])
    return moves


def _moves_to_cards(pos: Position, at: int | None) -> int:
    """Moves a pawn at section `at` needs to arrive at a pile with cards left: a monster feasts
    only as it arrives, so the pile underfoot is two moves away (out and back); off the grid
    every pile is one."""
    piles = [sq for sq, pile in enumerate(pos.s["piles"]) if pile["down"] or pile["up"]]
    return min((1 if at is None else 2 if sq == at else invasion.distance(at, sq)
                for sq in piles), default=0)


def _plain(pos: Position, act: Act) -> RankedMove:
    s = pos.s
    seat = flow.actor(pos)
    if act.verb == "attack":
        target = act.numbers[0] - 1
        ready = len(pos.in_pool(target, READY))
        return RankedMove(act, 0, "", {"order": (s["health"][target], ready)},
                          f"Attack {pos.names[target]} (health "
                          f"{s['health'][target]} of {len(pos.dice(target))}, {ready} dice ready)")
    if act.verb == "heal":
        n = act.numbers[0]
        health = s["health"][seat]
        return RankedMove(act, n, "", {}, f"Spend {n} Plus: health {health} to {health + n}")
    if act.verb == "unstun":
        return RankedMove(act, 0, "", {}, f"Spend a Plus: {pos.die_name(seat, act.numbers[0] - 1)}"
                          " is no longer stunned (back in the pool)")
    if act.verb == "mend":
        die = act.numbers[0] - 1
        tool = pos.s["shown"][seat][flow.mends(pos)[die]]
        where = s["pool"][seat][die]
        return RankedMove(act, 2 if where == "wounded" else 1, "", {},
                          f"{str(tool).title()}: {pos.die_name(seat, die)} ({where}) back to the "
                          "pool")
    titles = {"end": "Attack nobody" if pos.step["kind"] == "act" else "Heal nothing",
              "surrender": "Surrender: leave the arena", "continue": "Fight on",
              "disengage": "Disengage: the combat ends"}
    return RankedMove(act, 0, "", {}, titles[act.verb])
