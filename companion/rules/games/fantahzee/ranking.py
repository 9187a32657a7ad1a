"""The panel's ranked moves and the advice behind them: which heroes a roll can activate and
which payment leaves the dice other heroes still need, the attack plans ranked by XP with their
counterattack, and the cheapest loss when damage comes. Advice for the table, not a solver."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...core import RankedMove
from .activation import any_payment, counts, hero_payments, minus
from .agenda import candidates
from .legal import activations, legal
from .moves import Act
from .party import strength
from .position import Position
from .words import group, title


def ranked(pos: Position) -> list[RankedMove]:
    """Best first by worth; ties keep the rules' own order (cards by how many can come up,
    heroes in party order), each titled in the player's words."""
    kind = pos.step["kind"]
    moves = legal(pos)
    if kind not in RANKERS:
        return [_worded(pos, RankedMove(m)) for m in moves]
    rank, context = RANKERS[kind]
    ctx = context(pos)  # what every move of the step needs, worked out once
    scored = [rank(pos, m, ctx) for m in moves]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i].extra["worth"], i))
    return [_worded(pos, scored[i]) for i in order]


def _worded(pos: Position, ranked: RankedMove) -> RankedMove:
    move: Act = ranked.move  # type: ignore[assignment]
    return replace(ranked, title=title(pos, move),
                   extra={**ranked.extra, "group": group(pos, move)})


def _rm(move: Act, worth: float, detail: str = "", points: int = 0) -> RankedMove:
    return RankedMove(move, points, detail, {"worth": worth})


def _pool(pos: Position) -> dict[str, int]:
    return candidates(pos, pos.step["deck"], pos.step["ref"])


def _card(pos: Position, move: Act, pool: dict[str, int]) -> RankedMove:
    card, n = move.args[0], pool[move.args[0]]
    ranked = _rm(move, n, f"{pos.cards.name(card)}: {n} can come up")
    entered = pos.s["entered"]
    # the panel's card form: the name to tap, and how lately the table entered this card
    ranked.extra.update(card=pos.cards.name(card), count=n,
                        lately=entered.index(card) if card in entered else None)
    return ranked


def _none(pos: Position) -> None:
    return None


def _action(pos: Position, move: Act, ctx: None = None) -> RankedMove:
    cards = pos.cards
    if move.verb == "recruit":
        hero = cards.heroes[move.args[0]]
        if len(move.args) == 3:
            old = cards.heroes[pos.member(move.args[2])["card"]]
            gain = hero.strength - old.strength
            return _rm(move, 30 + gain if gain > 0 else -10 + gain,
                       f"{hero.name} ({hero.strength}) replaces {old.name} ({old.strength})")
        return _rm(move, 30 + hero.strength, f"{hero.name}: strength {hero.strength}, cost "
                   + " or ".join(c.words() for c in hero.costs))
    if move.verb == "play":
        action = cards.actions[move.args[0]]
        return _rm(move, 20, f"{action.name}: {action.effects.text() or action.text}")
    return _rm(move, 0, "to the Dice Phase: roll the dice")


def _inactive(pos: Position, but: int | None = None) -> list[Any]:
    turn, cards = pos.turn, pos.cards
    return [cards.heroes[m["card"]] for m in pos.party()
            if m["uid"] not in turn["active"] and m["uid"] != but]


def activation_advice(pos: Position, move: Act, ctx: dict[str, Any]) -> tuple[int, int, int]:
    """(other heroes still payable after this payment, those payable before, dice locked)."""
    turn, pool, kinds_too = pos.turn, ctx["pool"], ctx["kinds_too"]
    uid = pos.member(move.args[0])["uid"]
    if uid not in ctx["others"]:  # the same for each of this hero's payments
        others = [h for h in _inactive(pos, uid) if any(c.dice for c in h.costs)]
        ctx["others"][uid] = others, sum(any_payment(h.costs, pool, turn["cuts"], kinds_too)
                                         for h in others)
    others, before = ctx["others"][uid]
    if move.args[1] != "with":
        return before, before, 0
    paid = counts(int(w) for w in move.args[2:])
    after = minus(pool, paid)
    still = sum(any_payment(h.costs, after, turn["cuts"], kinds_too) for h in others)
    return still, before, sum(paid)


def dice_context(pos: Position) -> dict[str, Any]:
    """What every Roll Step move's rank needs, worked out once: the free dice, the heroes still
    waiting for dice and the reroll that keeps what they can use; and, filled in as moves are
    ranked, each hero's payments and the other heroes its activation could spoil."""
    waiting = [h for h in _inactive(pos) if any(c.dice for c in h.costs)]
    return {"waiting": waiting, "reroll": sorted(_keep(pos, waiting)),
            "pool": counts(pos.turn["dice"]), "kinds_too": pos.options.cut == "x-or-kind",
            "payments": {}, "others": {}}


def _uses_cut(pos: Position, hero: Any, move: Act, ctx: dict[str, Any]) -> bool:
    if hero.id not in ctx["payments"]:
        ctx["payments"][hero.id] = hero_payments(hero.costs, ctx["pool"], pos.turn["cuts"],
                                                 ctx["kinds_too"])
    return bool(ctx["payments"][hero.id].get(counts(int(w) for w in move.args[2:])))


def rank_dice(pos: Position, move: Act, ctx: dict[str, Any] | None = None) -> RankedMove:
    turn, cards = pos.turn, pos.cards
    ctx = ctx or dice_context(pos)
    if move.verb == "activate":
        hero = cards.heroes[pos.member(move.args[0])["card"]]
        still, before, locked = activation_advice(pos, move, ctx)
        spoils = before - still
        how = {"steam": "with steam", "free": "free"}.get(move.args[1], f"locks {locked} dice")
        if move.args[1] == "with" and _uses_cut(pos, hero, move, ctx):
            how += " (uses a cut)"
        note = (f"+{hero.strength} strength, {how}; "
                + (f"spoils {spoils} other hero{'es' if spoils > 1 else ''}' dice" if spoils
                   else "leaves the other heroes' dice"))
        return _rm(move, 100 + 2 * hero.strength - 10 * spoils - locked, note)
    if move.verb == "attack":
        worth = 20 if ctx["waiting"] and turn["rerolls"] else 60
        return _rm(move, worth, f"attack with strength {strength(pos)}")
    rolled = sorted(int(w) for w in move.args)
    best = rolled == ctx["reroll"]
    return _rm(move, 50 if best else -abs(len(rolled) - len(ctx["reroll"])),
               f"reroll {len(rolled) + turn['unrolled']} dice" + (" (keeps what the party "
                                                                  "needs)" if best else ""))


def best_dice_move(pos: Position) -> Act:
    """The top-ranked Roll Step move without ranking every reroll: the best activation, the
    reroll that keeps what waiting heroes can use, or the attack."""
    ctx = dice_context(pos)
    options = [rank_dice(pos, m, ctx) for m in activations(pos)]
    if pos.turn["rerolls"] and (ctx["reroll"] or pos.turn["unrolled"]):
        options.append(rank_dice(pos, Act("reroll", tuple(str(f) for f in ctx["reroll"])), ctx))
    options.append(rank_dice(pos, Act("attack"), ctx))
    return max(enumerate(options), key=lambda io: (io[1].extra["worth"], -io[0]))[1].move


def _keep(pos: Position, waiting: list[Any]) -> list[int]:
    """The dice the greedy reroll throws again: those no waiting hero's cost can use."""
    dice = list(pos.turn["dice"])
    pool = counts(dice)
    keep = [0] * 6
    for hero in waiting:
        for cost in hero.costs:
            for f, n in enumerate(cost.numbers):
                keep[f] = max(keep[f], min(n, pool[f]))
            if cost.groups:
                mode = max(range(6), key=lambda f: (pool[f], f))
                keep[mode] = pool[mode]
    reroll = []
    for f in range(6):
        reroll += [f + 1] * (pool[f] - keep[f])
    return reroll


def plans(pos: Position, limit: int = 12) -> list[dict[str, Any]]:
    """The ways to spend the party's strength on the face-up monsters, best XP first: each with
    its counterattack (after Shield) and what it leaves for the Horde Phase."""
    turn, cards, stacks = pos.turn, pos.cards, pos.s["stacks"]
    if pos.step["kind"] != "attack" or turn["into"] is not None:
        return []
    tops = [(n, cards.monsters[st["top"]]) for n, st in enumerate(stacks, 1) if st["top"]]
    aside_ca = sum(cards.monsters[m].counterattack for m in turn["aside"])
    out = []
    for mask in range(1 << len(tops)):
        chosen = [tops[i] for i in range(len(tops)) if mask >> i & 1]
        if sum(m.strength for _, m in chosen) > turn["left"]:
            continue
        ca = aside_ca + sum(m.counterattack for _, m in chosen)
        vanguard = bool(stacks) and any(n == len(stacks) for n, _ in chosen)
        left_up = [m for n, m in tops if all(n != c for c, _ in chosen)]
        out.append({
            "stacks": [n for n, _ in chosen], "monsters": [m.name for _, m in chosen],
            "xp": sum(m.xp for _, m in chosen), "counterattack": ca,
            "damage": max(0, ca - turn["shield"]),
            "ambush_showing": sum(m.ambush for m in left_up),
            "flips_next_horde_phase": len(chosen),
            "town_card": not vanguard and bool(stacks) and stacks[-1]["top"] is not None,
        })
    out.sort(key=lambda p: (-p["xp"], p["damage"], len(p["stacks"])))
    return out[:limit]


def _attack_plans(pos: Position) -> list[dict[str, Any]]:
    return plans(pos, 64)


def _attack(pos: Position, move: Act, all_plans: list[dict[str, Any]]) -> RankedMove:
    cards, turn = pos.cards, pos.turn
    if move.verb == "stop":
        return _rm(move, 0, f"end the attack with {turn['left']} strength left")
    stack = pos.s["stacks"][int(move.args[0]) - 1]
    if move.verb == "flip":
        worth = 5 if turn["left"] >= 5 else -5
        return _rm(move, worth, f"flip stack {move.args[0]} with {turn['left']} strength left: "
                                "locks the party into it")
    monster = cards.monsters[stack["top"]]
    if move.verb == "banish":
        return _rm(move, 100 + monster.xp, f"{monster.name} straight to the victory pile "
                   "(no counterattack)", monster.xp)
    best = next((p for p in all_plans if int(move.args[0]) in p["stacks"]), None)
    xp = best["xp"] if best else monster.xp
    damage = best["damage"] if best else 0
    return _rm(move, 10 + 10 * xp - damage,
               f"{monster.name}: {monster.xp} XP, counterattack {monster.counterattack}; best "
               f"plan with it {xp} XP, {damage} damage", monster.xp)


def cheapest_loss(heroes: list[tuple[str, int]], damage: int) -> list[str]:
    """The heroes to lose for `damage`: least strength lost, then fewest heroes; all of them if
    together they cannot cover it (a 0-strength hero only then)."""
    if sum(s for _, s in heroes) < damage:
        return [k for k, _ in heroes]
    best: tuple[int, int, list[str]] | None = None
    for mask in range(1, 1 << len(heroes)):
        chosen = [heroes[i] for i in range(len(heroes)) if mask >> i & 1]
        total = sum(s for _, s in chosen)
        if total >= damage and all(s > 0 for _, s in chosen):
            key = (total, len(chosen), [k for k, _ in chosen])
            if best is None or key[:2] < best[:2]:
                best = key
    return best[2] if best else [k for k, _ in heroes]


def proposal(pos: Position) -> list[str]:
    if pos.step["kind"] != "damage":
        return []
    cards = pos.cards
    heroes = [(pos.key_of(m["uid"]), cards.heroes[m["card"]].strength) for m in pos.active()]
    return cheapest_loss(heroes, pos.step["left"])


def _damage(pos: Position, move: Act, proposed: list[str]) -> RankedMove:
    hero = pos.cards.heroes[pos.member(move.args[0])["card"]]
    if move.args[0] in proposed:
        return _rm(move, 10 + hero.strength, f"{hero.name} ({hero.strength}): the cheapest "
                   f"loss is {', '.join(proposed)} for {pos.step['left']} damage")
    return _rm(move, -hero.strength, f"{hero.name} ({hero.strength})")


def _attach(pos: Position, move: Act, ctx: None = None) -> RankedMove:
    if move.verb == "discard":
        return _rm(move, -1, "throw the treasure away")
    member = pos.member(move.args[0])
    hero = pos.cards.heroes[member["card"]]
    worth = (0 if member["treasure"] else 10) + hero.strength
    return _rm(move, worth, f"on {hero.name}" + (" (replaces its treasure)"
                                                   if member["treasure"] else ""))


def _limit(pos: Position, move: Act, ctx: None = None) -> RankedMove:
    card = move.args[0]
    hero = pos.cards.heroes.get(card)
    return _rm(move, -hero.strength if hero else -2, pos.cards.name(card))


# Each step's ranker, and what its moves share (worked out once per ranking).
RANKERS: dict[str, tuple[Callable[..., RankedMove], Callable[[Position], Any]]] = {
    "card": (_card, _pool), "action": (_action, _none), "dice": (rank_dice, dice_context),
    "attack": (_attack, _attack_plans), "damage": (_damage, proposal),
    "attach": (_attach, _none), "limit": (_limit, _none),
}
