"""A position of Fantahzee as plain data: every card's place, the turn's dice, what waits.

`s` holds everything that changes, JSON-shaped (lists, dicts, ints, strings), so a copy is one
`marshal` round trip and the state's undo is the list of old positions. Cards are ids; copies
of a card are interchangeable, so a deck is a count per id (the table cannot see its order).

    seat, first, last (the Last Player token), turns, doom, step, agenda, uid (next party id)
    hands[p]: [card]   party[p]: [{uid, card, treasure: [card, level] | null, since}]
    victory[p]: [[kind 'm' | 't', card]]   adjust[p]: XP typed by hand
    deck: {card: n} (hero deck)  discard: [card]   towns, treasures: {card: n}
    treasure_discard, box: [card]   entered: [card] (the last few entered, latest first)
    unseen: {'1' | '2' | 'boss': {card: n}} (monsters face down)
    stacks: [{uid, top: card | null (face up), l1, l2 (face down by level), boss (0 | 1)}]
    turn: the current turn's dice, active heroes, shield, steam and attack (see agenda.new_turn)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...positions import DataPosition
from .cards import CardSet, card_set_from_text
from .rules import HAND, Options


@dataclass
class Position(DataPosition[Options]):
    options_type = Options
    game_name = "fantahzee"

    @property
    def cards(self) -> CardSet:
        return card_set_from_text(self.options.cards)

    def copy(self) -> Position:
        """A copy the flow may change: every container the flow changes in place is copied;
        lists it only ever replaces whole (a victory entry, a locked payment, a treasure, an
        agenda item) are shared. About five times faster than a deep copy, which self-play
        makes on every step."""
        s = self.s
        new = dict(s)
        for key in ("turns", "adjust", "hand_extra", "discard", "treasure_discard", "box", "agenda"):
            new[key] = s[key].copy()
        for key in ("deck", "towns", "treasures"):
            new[key] = s[key].copy()
        new["unseen"] = {k: v.copy() for k, v in s["unseen"].items()}
        new["hands"] = [hand.copy() for hand in s["hands"]]
        new["victory"] = [pile.copy() for pile in s["victory"]]
        new["party"] = [[dict(m) for m in party] for party in s["party"]]
        new["stacks"] = [dict(st) for st in s["stacks"]]
        new["turn"] = {k: v.copy() if isinstance(v, list) else v for k, v in s["turn"].items()}
        if s["step"] is not None:
            new["step"] = {k: v.copy() if isinstance(v, list) else v
                           for k, v in s["step"].items()}
        return Position(self.names, self.options, new)

    # -- the people -------------------------------------------------------------------------

    @property
    def turn(self) -> dict[str, Any]:
        return self.s["turn"]

    def party(self, seat: int | None = None) -> list[dict[str, Any]]:
        return self.s["party"][self.seat if seat is None else seat]

    def hero_keys(self, seat: int | None = None) -> list[str]:
        """How moves name the heroes of a party: the card id, '-2' on a second copy."""
        seen: dict[str, int] = {}
        out = []
        for member in self.party(seat):
            n = seen[member["card"]] = seen.get(member["card"], 0) + 1
            out.append(member["card"] if n == 1 else f"{member['card']}-{n}")
        return out

    def member(self, key: str) -> dict[str, Any]:
        for k, member in zip(self.hero_keys(), self.party()):
            if k == key:
                return member
        raise KeyError(key)

    def key_of(self, uid: int) -> str:
        for k, member in zip(self.hero_keys(), self.party()):
            if member["uid"] == uid:
                return k
        raise KeyError(uid)

    def active(self) -> list[dict[str, Any]]:
        """Heroes of the acting party activated this turn and still in it."""
        uids = self.turn["active"]
        return [m for m in self.party() if m["uid"] in uids]

    @classmethod
    def fields_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A game saved before hand limits could be raised has none raised."""
        fields = super().fields_from_json(data)
        fields["s"].setdefault("hand_extra", [0] * len(fields["names"]))
        return fields

    def hand_limit(self, seat: int) -> int:
        """Five, "unless you have an effect that increases your maximum hand size" (typed as
        'adjust hand +N', HAND_LIMIT_EFFECTS)."""
        return HAND + self.s["hand_extra"][seat]

    # -- scores ------------------------------------------------------------------------------

    def xp(self, seat: int) -> int:
        cards = self.cards
        total = self.s["adjust"][seat]
        for kind, card in self.s["victory"][seat]:
            total += cards.monsters[card].xp if kind == "m" else -cards.towns[card].xp
        return total

    @property
    def scores(self) -> list[int]:
        return [self.xp(seat) for seat in range(len(self.names))]
