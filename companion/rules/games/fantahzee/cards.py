"""Fantahzee's cards as data: the book prints none of their texts (shared/rules-notes.md), so the
players enter them (JSON or CSV, once per table) and the engine reads them here.

A card set is JSON: {"heroes": [...], "actions": [...], "monsters": [...], "towns": [...],
"treasures": [...]}, each card {id, name, copies, text, source ("book" | "placeholder" |
"table"), ...its numbers}. Costs and effects are short texts:

    cost     'X X' any two dice, '5' a five, '3 3' two threes, '**' a pair, '****' four of a kind,
             'steam 4' four steam; alternatives joined by '|': '6 6 | steam 4'
    effects  'dice+2 rolls+1 shield+2 steam+4 strength+1 cut-x+1 wake banish<=6': an extra die,
             an extra roll, Shield, steam got, strength, reduce an X (or N of a kind) cost by one,
             activate a hero of equal or lower strength, put a face-up monster of strength N or
             less in the victory pile. Anything else is `text` a player resolves by hand.
"""

from __future__ import annotations

import csv
import functools
import io
from dataclasses import Field, dataclass, field, fields
from typing import Any

from ...errors import RulesError
from ...options import json_option
from ...records import slug, whole_number

HERO_TYPES = ("artificer", "mage", "warrior")
EFFECT_KEYS = ("dice", "rolls", "shield", "steam", "strength", "cut-x")
SOURCES = ("table", "book", "placeholder")
NUMBER_WORDS = dict(enumerate(("no", "one", "two", "three", "four", "five", "six", "seven",
                               "eight"))) | {n: str(n) for n in range(9, 41)}
KIND_WORDS = {2: "a pair of any number", 3: "three of a kind", 4: "four of a kind",
              5: "five of a kind"}


class CardError(RulesError, ValueError):
    """A card set that cannot be read: the message names the card and the field."""


@dataclass(frozen=True, slots=True)
class Cost:
    """One way to pay for a hero: specific numbers, groups of a kind, any dice, or steam."""

    numbers: tuple[int, ...] = ()  # counts of 1..6 wanted (index 0 is ones)
    groups: tuple[int, ...] = ()  # sizes of the N-of-a-kind groups
    any: int = 0  # X: any number
    steam: int = 0  # > 0: a steam cost, paid with steam alone

    @property
    def dice(self) -> int:
        return sum(self.numbers) + sum(self.groups) + self.any

    def text(self) -> str:
        if self.steam:
            return f"steam {self.steam}"
        words = [str(f + 1) for f, n in enumerate(self.numbers) for _ in range(n)]
        words += ["*" * g for g in self.groups] + ["X"] * self.any
        return " ".join(words) or "free"

    def words(self) -> str:
        """The cost as a player says it ('two 3s and a pair of any number'), not its notation
        ('3 3 **'), which stays the text entered and typed."""
        if self.steam:
            return f"{self.steam} steam"
        said = [f"a {f + 1}" if n == 1 else f"{NUMBER_WORDS[n]} {f + 1}s"
                for f, n in enumerate(self.numbers) if n]
        said += [KIND_WORDS.get(g, f"{g} of a kind") for g in self.groups]
        if self.any:
            said.append("any one die" if self.any == 1 else f"any {NUMBER_WORDS[self.any]} dice")
        return " and ".join(said) or "free"


@dataclass(frozen=True, slots=True)
class Effects:
    """What a card does that the engine can count; `wake` and `banish` are 0 when absent."""

    dice: int = 0
    rolls: int = 0
    shield: int = 0
    steam: int = 0
    strength: int = 0
    cut_x: int = 0
    wake: bool = False
    banish: int = 0

    def text(self) -> str:
        words = [f"{k}+{getattr(self, k.replace('-', '_'))}" for k in EFFECT_KEYS
                 if getattr(self, k.replace("-", "_"))]
        words += ["wake"] * self.wake + ([f"banish<={self.banish}"] if self.banish else [])
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Hero:
    id: str
    name: str
    type: str
    strength: int
    costs: tuple[Cost, ...]
    shield: int = 0
    steam: int = 0
    effects: Effects = Effects()
    text: str = ""
    copies: int = 1
    source: str = "table"


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    name: str
    effects: Effects = Effects()
    text: str = ""
    copies: int = 1
    source: str = "table"


@dataclass(frozen=True, slots=True)
class Monster:
    id: str
    name: str
    level: int
    strength: int
    xp: int
    counterattack: int = 0
    ambush: int = 0
    treasure: int = 0  # 0 none, else the treasure level it gives
    boss: bool = False
    text: str = ""
    copies: int = 1
    source: str = "table"


@dataclass(frozen=True, slots=True)
class Town:
    id: str
    name: str
    xp: int  # XP lost when it is destroyed (a positive number)
    text: str = ""
    copies: int = 1
    source: str = "table"


@dataclass(frozen=True, slots=True)
class Treasure:
    id: str
    name: str
    level1: Effects = Effects()
    level2: Effects = Effects()
    text: str = ""
    copies: int = 1
    source: str = "table"

    def side(self, level: int) -> Effects:
        return self.level2 if level == 2 else self.level1


CARD_TYPES = {"heroes": Hero, "actions": Action, "monsters": Monster, "towns": Town,
              "treasures": Treasure}
KINDS = tuple(CARD_TYPES)


@dataclass(frozen=True)
class CardSet:
    """Every card of a table, by id; `deck()` lists copies for the decks the players shuffle."""

    heroes: dict[str, Hero] = field(default_factory=dict)
    actions: dict[str, Action] = field(default_factory=dict)
    monsters: dict[str, Monster] = field(default_factory=dict)
    towns: dict[str, Town] = field(default_factory=dict)
    treasures: dict[str, Treasure] = field(default_factory=dict)

    def name(self, card: str) -> str:
        for table in (self.heroes, self.actions, self.monsters, self.towns, self.treasures):
            if card in table:
                return table[card].name
        raise CardError(f"no card {card!r} in this table's cards")

    def counts(self, kind: str) -> dict[str, int]:
        return {cid: c.copies for cid, c in getattr(self, kind).items()}

    def to_json(self) -> dict[str, Any]:
        return {kind: [_card_json(c) for c in getattr(self, kind).values()] for kind in KINDS}


def parse_cost(text: str) -> tuple[Cost, ...]:
    """'6 6 | steam 4' -> the ways to pay, checked."""
    costs = []
    for part in str(text).split("|"):
        words = part.split()
        if not words:
            raise CardError(f"empty activation cost in {text!r}")
        if words[0].lower() == "steam":
            if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 1:
                raise CardError(f"a steam cost reads 'steam 4', not {part.strip()!r}")
            costs.append(Cost(steam=int(words[1])))
            continue
        numbers, groups, anys = [0] * 6, [], 0
        for word in words:
            if word.upper() == "X":
                anys += 1
            elif word in ("1", "2", "3", "4", "5", "6"):
                numbers[int(word) - 1] += 1
            elif set(word) == {"*"} and 2 <= len(word) <= 6:
                groups.append(len(word))
            elif word.lower() == "free":
                continue
            else:
                raise CardError(f"{word!r} in cost {text!r}: write X, a number 1-6, ** for a "
                                "pair (*** three of a kind ...) or 'steam N'")
        costs.append(Cost(tuple(numbers), tuple(sorted(groups, reverse=True)), anys))
    return tuple(costs)


def parse_effects(text: str | None) -> Effects:
    values: dict[str, Any] = {}
    for word in str(text or "").split():
        word = word.lower()
        if word == "wake":
            values["wake"] = True
            continue
        if word.startswith("banish<="):
            number = word[len("banish<="):]
            if not number.isdigit():
                raise CardError(f"{word!r}: write banish<=N")
            values["banish"] = int(number)
            continue
        key, plus, number = word.partition("+")
        if not plus or key not in EFFECT_KEYS or not number.isdigit():
            raise CardError(f"unknown effect {word!r}; known: "
                            f"{', '.join(k + '+N' for k in EFFECT_KEYS)}, wake, banish<=N")
        values[key.replace("-", "_")] = int(number)
    return Effects(**values)


def _int(card: dict[str, Any], key: str, default: int | None = None, low: int = 0) -> int:
    return whole_number(card, key, f"card {card.get('id')!r}", CardError, default, low)


def _common(card: dict[str, Any]) -> dict[str, Any]:
    cid = slug(card.get("id") or card.get("name"))
    if not cid:
        raise CardError(f"a card needs an id or a name: {card!r}")
    source = str(card.get("source") or "table")
    if source not in SOURCES:
        raise CardError(f"card {cid!r}: source is table, book or placeholder")
    return {"id": cid, "name": str(card.get("name") or cid).strip(),
            "text": str(card.get("text") or ""), "copies": _int(card, "copies", 1, 1),
            "source": source}


def _hero(card: dict[str, Any]) -> Hero:
    common = _common(card)
    kind = str(card.get("type") or "warrior").lower()
    if kind not in HERO_TYPES:
        raise CardError(f"hero {common['id']!r}: type is one of {', '.join(HERO_TYPES)}")
    return Hero(**common, type=kind, strength=_int(card, "strength"),
                costs=parse_cost(str(card.get("cost") or "")), shield=_int(card, "shield", 0),
                steam=_int(card, "steam", 0), effects=parse_effects(card.get("effects")))


def _monster(card: dict[str, Any]) -> Monster:
    common = _common(card)
    boss = card.get("boss") in (True, "true", "1", 1, "yes", "boss")
    level = 2 if boss else _int(card, "level", 1, 1)
    if level not in (1, 2):
        raise CardError(f"monster {common['id']!r}: level is 1 or 2")
    treasure = _int(card, "treasure", 0)
    if treasure not in (0, 1, 2):
        raise CardError(f"monster {common['id']!r}: treasure is 0, 1 or 2")
    return Monster(**common, level=level, strength=_int(card, "strength"), xp=_int(card, "xp"),
                   counterattack=_int(card, "counterattack", 0), ambush=_int(card, "ambush", 0),
                   treasure=treasure, boss=boss)


def _treasure(card: dict[str, Any]) -> Treasure:
    return Treasure(**_common(card), level1=parse_effects(card.get("level1")),
                    level2=parse_effects(card.get("level2")))


READERS = {
    "heroes": _hero,
    "actions": lambda c: Action(**_common(c), effects=parse_effects(c.get("effects"))),
    "monsters": _monster,
    "towns": lambda c: Town(**_common(c), xp=_int(c, "xp")),
    "treasures": _treasure,
}


def card_set(data: dict[str, Any]) -> CardSet:
    """Read a card set from JSON-shaped data; ids are unique across all kinds."""
    if not isinstance(data, dict):
        raise CardError("a card set is an object with heroes, actions, monsters, towns, treasures")
    unknown = sorted(set(data) - set(KINDS))
    if unknown:
        raise CardError(f"unknown card kind(s) {', '.join(unknown)}; known: {', '.join(KINDS)}")
    tables: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    for kind in KINDS:
        cards = data.get(kind) or []
        if not isinstance(cards, list):
            raise CardError(f"{kind} is a list of cards")
        table = {}
        for raw in cards:
            if not isinstance(raw, dict):
                raise CardError(f"a card of {kind} is an object, not {raw!r}")
            card = READERS[kind](raw)
            if card.id in seen:
                raise CardError(f"two cards are called {card.id!r}")
            seen.add(card.id)
            table[card.id] = card
        tables[kind] = table
    return CardSet(**tables)


@functools.lru_cache(maxsize=32)
def card_set_from_text(text: str) -> CardSet:
    """The card set of a game's options (JSON text); '' is the placeholder deck."""
    if not text.strip():
        from .deck import PLACEHOLDER_TEXT

        text = PLACEHOLDER_TEXT
    return card_set(json_option("cards", text))


CSV_KINDS = {"hero": "heroes", "action": "actions", "monster": "monsters", "boss": "monsters",
             "town": "towns", "treasure": "treasures"}


def cards_from_csv(text: str) -> dict[str, Any]:
    """A CSV with a `kind` column (hero, action, monster, boss, town, treasure) and the JSON
    field names as the other columns -> the JSON shape `card_set` reads."""
    data: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
    for n, row in enumerate(csv.DictReader(io.StringIO(text)), 2):
        kind = str(row.get("kind") or "").strip().lower()
        if kind not in CSV_KINDS:
            raise CardError(f"CSV line {n}: kind is one of {', '.join(CSV_KINDS)}, not {kind!r}")
        card = {k: v.strip() for k, v in row.items() if k and k != "kind" and v and v.strip()}
        if kind == "boss":
            card["boss"] = True
        data[CSV_KINDS[kind]].append(card)
    card_set(data)  # checked here, so a bad file is refused before it is stored
    return data


def _card_json(card: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in card.__slots__:
        value = getattr(card, name)
        if name == "costs":
            out["cost"] = " | ".join(c.text() for c in value)
        elif isinstance(value, Effects):
            out[name] = value.text()
        else:
            out[name] = value
    return out


# -- the Cards page's form: the card classes' fields, as `_card_json` writes them --------------

HINTS = {
    "cost": "X any die, 5 a five, ** a pair, **** four of a kind, steam 4; alternatives with |",
    "effects": "dice+1 rolls+1 shield+2 steam+4 strength+1 cut-x+1 wake banish<=6",
    "level1": "effects, as for heroes", "level2": "effects, as for heroes",
    "type": "artificer, mage or warrior", "boss": "a Boss Monster (level 2)",
    "treasure": "0, or the treasure level it gives (1 or 2)",
}
_FORM_FIRST = {"name": 0, "copies": 1}  # then the card's own fields in their order


def _form_field(card_field: Field[Any]) -> dict[str, str]:
    name = "cost" if card_field.name == "costs" else card_field.name  # the costs as one text
    widget = {"int": "number", "bool": "bool"}.get(str(card_field.type), "text")
    return {"name": name, "type": widget, "hint": HINTS.get(name, "")}


def form() -> dict[str, Any]:
    """The Cards page's form (Game.table_data_form), made from the card classes the readers
    build: every field but the id (made from the name) and the source (a table's own)."""
    kinds = []
    for kind, card_type in CARD_TYPES.items():
        entered = sorted((f for f in fields(card_type) if f.name not in ("id", "source")),
                         key=lambda f: _FORM_FIRST.get(f.name, 2))
        kinds.append({"name": kind, "shape": "list", "fields": [_form_field(f) for f in entered]})
    return {"kinds": kinds, "default": "placeholder deck and the book's cards", "csv": True,
            "import": f"CSV: a kind column ({', '.join(CSV_KINDS)}) and the field names as "
                      "the other columns. An import replaces every card."}
