"""The game state object the table session talks to, and the panel view (`describe`)."""

from __future__ import annotations

import random
from typing import Any

from ...core import JSON, Move, RankedMove, Roll, SteppedState
from . import flow, ranking, words
from .legal import activations, legal
from .moves import Act, act, parse_move
from .position import Position
from .rules import DOOM


class FantahzeeState(SteppedState):
    """A game of Fantahzee; each change makes a new Position, the old ones are the undo."""

    _pos: Position
    move_type = Act
    parse_act = staticmethod(parse_move)
    flow = flow

    def legal_moves(self) -> list[Move]:
        return list(legal(self._pos))

    def ranked_moves(self) -> list[RankedMove]:
        return ranking.ranked(self._pos)

    def asks(self) -> str | None:
        return _asking(self._pos) if self._pos.step["kind"] == "card" else None

    def best_move(self) -> Move:
        if self._pos.step["kind"] == "dice":
            return ranking.best_dice_move(self._pos)
        return self.ranked_moves()[0].move

    def dealt(self, rng: random.Random) -> Move | None:
        """A card off a deck the players shuffled: one of those that can come up, by count."""
        pos = self._pos
        if pos.step["kind"] != "card":
            return None
        pool = flow.candidates(pos, pos.step["deck"], pos.step["ref"])
        pick = rng.randrange(sum(pool.values()))
        for card, n in pool.items():
            pick -= n
            if pick < 0:
                return act("card", card)
        raise AssertionError("unreachable")

    def rolled(self, roll: Roll) -> Position:
        return flow.apply_roll(self._pos, [int(v) for v in roll.values])

    def tell(self, move: Move | Roll) -> str:
        if not self._history:
            return move.text()
        before = self._history[-1]
        if isinstance(move, Roll):
            wanted = flow.request(before)
            return words.told(before, self._pos, move, "", wanted.player if wanted else None)
        said = words.title(before, move)  # type: ignore[arg-type]
        return words.told(before, self._pos, move, said, flow.actor(before))

    def describe(self) -> JSON:
        """The panel's view; its keys are documented in the package docstring."""
        return describe(self, self._pos)


def describe(state: FantahzeeState, pos: Position) -> JSON:
    s, cards, step, turn = pos.s, pos.cards, pos.step, pos.turn
    wanted = state.roll_wanted()
    current = state.current_player
    players = []
    for seat, name in enumerate(pos.names):
        party = []
        for key, m in zip(pos.hero_keys(seat), pos.party(seat)):
            hero = cards.heroes[m["card"]]
            active = seat == pos.seat and m["uid"] in turn.get("active", [])
            party.append({"id": key, "name": hero.name, "strength": hero.strength,
                          "cost": " or ".join(c.words() for c in hero.costs), "active": active,
                          "treasure": (f"{cards.name(m['treasure'][0])} (level "
                                       f"{m['treasure'][1]})" if m["treasure"] else None)})
        victory = s["victory"][seat]
        players.append({
            "seat": seat, "name": name, "xp": pos.xp(seat), "turns": s["turns"][seat],
            "active": seat == pos.seat, "last_player": seat == s["last"],
            # Hands are private: the panel names the cards of the player to act only.
            "hand": [cards.name(c) for c in s["hands"][seat]] if seat == pos.seat else [],
            "hand_size": len(s["hands"][seat]), "hand_limit": pos.hand_limit(seat),
            "party": party,
            "monsters": sum(1 for k, _ in victory if k == "m"),
            "towns": [cards.name(c) for k, c in victory if k == "t"],
        })
    stacks = []
    for n, st in enumerate(s["stacks"], 1):
        down = st["l1"] + st["l2"]
        top = cards.monsters[st["top"]] if st["top"] else None
        label = (f"{top.name} (strength {top.strength}, {top.xp} XP, Counterattack "
                 f"{top.counterattack}, Ambush {top.ambush}{', boss' if top.boss else ''})"
                 if top else "face down")
        stacks.append({"id": n, "label": label + f" +{down} below",
                       "vanguard": n == len(s["stacks"]), "face_down": down,
                       "level": 1 if st["l1"] else 2})
    view: JSON = {
        "game": state.game.name, "phase": step["kind"], "turn": pos.seat,
        "current_player": current, "roll_wanted": wanted.to_json() if wanted else None,
        "asking": _asking(pos), "doom": s["doom"], "doom_tokens": DOOM,
        "first_player": s["first"], "last_player": s["last"],
        "hand_limit": pos.hand_limit(pos.seat),
        "players": players, "stacks": stacks, "details": words.details(pos),
        "decks": {"hero": sum(s["deck"].values()), "discard": len(s["discard"]),
                  "town": sum(s["towns"].values()), "treasure": sum(s["treasures"].values())},
        "outcome": None if state.outcome is None else state.outcome.to_json(),
        "options": {"steam": pos.options.steam, "cut": pos.options.cut,
                    "cards": "table" if pos.options.cards else "placeholder deck"},
    }
    if turn:
        view["dice"] = {"free": turn["dice"], "new": turn["unrolled"],
                        "rerolls": turn["rerolls"], "shield": turn["shield"],
                        "steam": turn["steam"], "strength": flow.strength(pos),
                        "locked": [{"hero": _key(pos, uid), "dice": f}
                                   for uid, f in turn["locked"]]}
        view["tray"] = [{"label": str(v)} for v in turn["dice"]] + [
            {"id": _key(pos, uid), "label": " ".join(map(str, f)) + " locked"}
            for uid, f in turn["locked"]]
        view["party"] = [{"id": p["id"], "label": f"{p['name']} {p['strength']}"
                          + (" ✓" if p["active"] else f" (pay {p['cost']})"),
                          "defeated": False} for p in players[pos.seat]["party"]]
    if step["kind"] == "dice":
        view["activations"] = _activations(state, pos)
    if step["kind"] == "attack":
        view["attack"] = {"strength_left": turn["left"], "locked_into": turn["into"],
                          "plans": ranking.plans(pos)}
    if step["kind"] == "damage":
        view["damage"] = {"source": step["source"], "total": step["total"],
                          "shield": turn["shield"], "left": step["left"],
                          "proposed_loss": ranking.proposal(pos)}
    return view


def _key(pos: Position, uid: int) -> str:
    try:
        return pos.key_of(uid)
    except KeyError:
        return "lost"


def _activations(state: FantahzeeState, pos: Position) -> list[JSON]:
    """Each hero the dice can activate, with which dice, the best payment first."""
    by_hero: dict[str, list[Any]] = {}
    ctx = ranking.dice_context(pos)
    ranked = sorted((ranking.rank_dice(pos, m, ctx) for m in activations(pos)),
                    key=lambda r: -r.extra["worth"])
    for r in ranked:  # every one an activation: 'activate KEY with 3 3', '... steam', '... free'
        said = r.move.text().split()
        by_hero.setdefault(said[1], []).append(
            {"move": r.move.text(), "dice": " ".join(said[3:]) or said[2], "detail": r.detail})
    return [{"hero": key, "ways": ways, "best": ways[0]["move"]} for key, ways in by_hero.items()]


def _asking(pos: Position) -> str:
    step = pos.step
    kind = step["kind"]
    if kind == "card":
        who = pos.names[flow.actor(pos)]
        where = {"hero": "the card drawn from the hero deck", "town": "the town card destroyed",
                 "treasure": "the treasure drawn"}.get(step["deck"])
        if where is None:
            n = next((i for i, st in enumerate(pos.s["stacks"], 1) if st["uid"] == step["ref"]),
                     0)
            where = f"the monster flipped on stack {n}"
        return f"{who}: enter {where}"
    if kind == "damage":
        return f"{pos.names[pos.seat]} takes {step['left']} {step['source']} damage: lose a hero"
    if kind == "limit":
        return f"{pos.names[pos.seat]}: discard down to {pos.hand_limit(pos.seat)} cards"
    if kind == "attach":
        return f"{pos.names[pos.seat]}: attach the treasure to an active hero, or discard it"
    return ""
