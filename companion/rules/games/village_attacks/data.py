"""Village Attacks' table data: what the book prints on dashboards, cards and tokens but does not
list (shared/rules-notes.md), entered by the players once per table (JSON) and read here.

    {"monsters": [dashboard], "traps": [...], "events": [...], "heroes": [...],
     "scenarios": [...], "dice": {"village-day": [faces], "village-night": [faces]}}

Every record has an `id` (made from its name when left out), `source` ("book", "guessed" or
"table") and `guessed`: the fields whose numbers the book does not state. Costs are face names
separated by spaces ("Magic Ranged"). docs/village-attacks-data.md gives every field.
"""

from __future__ import annotations

import functools
from dataclasses import Field, asdict, dataclass, fields
from typing import Any

from ...errors import RulesError
from ...options import json_option
from ...records import slug, whole_number
from ...symbol_dice import VILLAGE, VILLAGE_DAY, VILLAGE_NIGHT
from .rules import TYPES

USABLE = ("Melee", "Ranged", "Magic", "Defence", "Retaliate")
ROOMS = ("corridor", "small", "large", "heart")
KINDS = ("monsters", "traps", "events", "heroes", "scenarios")
SOURCES = ("table", "book", "guessed")


class DataError(RulesError, ValueError):
    """Table data that cannot be read: the message names the record and the field."""


@dataclass(frozen=True, slots=True)
class Ability:
    id: str
    name: str
    cost: tuple[str, ...]  # the basic version's cost; () is a passive ability
    advanced_cost: tuple[str, ...]
    text: str = ""


@dataclass(frozen=True, slots=True)
class Dashboard:
    id: str
    name: str
    type: str
    health: int
    experience: int
    defence: int
    reserve: int
    movement: int
    abilities: tuple[Ability, ...]  # the first is unlocked at the start
    source: str = "table"
    guessed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Trap:
    id: str
    name: str
    cost: tuple[str, ...]
    rooms: tuple[str, ...]
    damage: int
    push: bool = False
    affects: tuple[str, ...] = ("peasant", "hunter", "hero")
    copies: int = 1
    text: str = ""
    source: str = "table"
    guessed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    name: str
    persistent: bool = False
    flips_time: bool = False  # a Day/Night card: Day becomes Night or Night Day
    copies: int = 1
    text: str = ""
    source: str = "table"
    guessed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Hero:
    id: str
    name: str
    type: str
    health: int
    speed: int
    damage: int
    range: int
    text: str = ""
    source: str = "table"
    guessed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Zone:
    id: str
    name: str
    room: str  # corridor, small, large or heart
    toward: tuple[str, ...]  # BOARD_AS_ZONES: the zones one step nearer the Heart (several: a fork)
    # Day & Night mode's room conditions (the Graveyard's and the Courtyard's in the book):
    burns_by_day: bool = False  # Monsters entering during the Day suffer Burn
    night_peasant_xp: bool = False  # +1 experience for a Peasant slain here at Night


@dataclass(frozen=True, slots=True)
class Objective:
    id: str
    name: str
    zone: str
    cost: tuple[str, ...]
    morale: int = 0
    experience: int = 0


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    name: str
    heart: int
    morale: int
    events: tuple[int, ...]  # dial values at which a Village Event is drawn
    trap_slots: int
    zones: tuple[Zone, ...]
    spawns: tuple[str, ...]
    tiers: tuple[int, ...] = ()  # Morale at or below which tier 2, tier 3 spawn
    morale_per_monster: int = 0  # MORALE_BY_PLAYERS: added for each Monster after the first
    objectives: tuple[Objective, ...] = ()
    text: str = ""
    source: str = "table"
    guessed: tuple[str, ...] = ()

    @property
    def heart_zone(self) -> str:
        return next(z.id for z in self.zones if z.room == "heart")

    def zone(self, zid: str) -> Zone:
        for z in self.zones:
            if z.id == zid:
                return z
        raise DataError(f"scenario {self.id!r} has no zone {zid!r}")


@dataclass(frozen=True)
class TableData:
    monsters: dict[str, Dashboard]
    traps: dict[str, Trap]
    events: dict[str, Event]
    heroes: dict[str, Hero]
    scenarios: dict[str, Scenario]
    dice: dict[str, tuple[str, ...]]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {kind: [_plain(asdict(r)) for r in getattr(self, kind).values()]
                               for kind in KINDS}
        out["dice"] = {k: list(v) for k, v in self.dice.items()}
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _words(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return str(value or "").replace(",", " ").split()


def _cost(rid: str, value: Any, field: str = "cost") -> tuple[str, ...]:
    faces = []
    for word in _words(value):
        face = next((f for f in USABLE if f.lower() == word.lower()), None)
        if face is None:
            raise DataError(f"{rid!r}: {field} {word!r} is not a usable face "
                            f"({', '.join(USABLE)})")
        faces.append(face)
    return tuple(faces)


def _int(rid: str, record: dict[str, Any], key: str, default: int | None = None,
         low: int = 0) -> int:
    return whole_number(record, key, repr(rid), DataError, default, low)


def _numbers(rid: str, record: dict[str, Any], key: str) -> tuple[int, ...]:
    """A list of whole numbers ("6 12 18"); DataError naming the word that is not one."""
    numbers = []
    for word in _words(record.get(key)):
        try:
            numbers.append(int(word))
        except ValueError:
            raise DataError(f"{rid!r}: {key} are whole numbers, not {word!r}") from None
    return tuple(numbers)


def _bool(value: Any) -> bool:
    return value in (True, 1, "true", "yes", "1")


def _ident(record: Any, what: str) -> str:
    if not isinstance(record, dict):
        raise DataError(f"each of {what} is an object with fields, not {record!r}")
    rid = slug(record.get("id") or record.get("name"))
    if not rid:
        raise DataError(f"one of {what} needs an id or a name: {record!r}")
    return rid


def _common(rid: str, record: dict[str, Any]) -> dict[str, Any]:
    source = str(record.get("source") or "table")
    if source not in SOURCES:
        raise DataError(f"{rid!r}: source is one of {', '.join(SOURCES)}, not {source!r}")
    return {"id": rid, "name": str(record.get("name") or rid).strip(), "source": source,
            "guessed": tuple(_words(record.get("guessed")))}


def _type(rid: str, value: Any) -> str:
    kind = str(value or "").lower()
    if kind not in TYPES:
        raise DataError(f"{rid!r}: type is one of {', '.join(TYPES)}, not {value!r}")
    return kind


def _dashboard(r: dict[str, Any]) -> Dashboard:
    rid = _ident(r, "monsters")
    abilities = []
    for a in r.get("abilities") or []:
        aid = _ident(a, f"{rid}'s abilities")
        abilities.append(Ability(aid, str(a.get("name") or aid), _cost(aid, a.get("cost")),
                                 _cost(aid, a.get("advanced_cost", a.get("cost")),
                                       "advanced_cost"), str(a.get("text") or "")))
    if not abilities:
        raise DataError(f"monster {rid!r} needs its abilities (the first is unlocked at start)")
    return Dashboard(**_common(rid, r), type=_type(rid, r.get("type")),
                     health=_int(rid, r, "health", low=1),
                     experience=_int(rid, r, "experience", low=1),
                     defence=_int(rid, r, "defence"), reserve=_int(rid, r, "reserve"),
                     movement=_int(rid, r, "movement", low=1), abilities=tuple(abilities))


def _trap(r: dict[str, Any]) -> Trap:
    rid = _ident(r, "traps")
    rooms = tuple(w.lower() for w in _words(r.get("rooms")))
    if not rooms or any(room not in ROOMS for room in rooms):
        raise DataError(f"trap {rid!r}: rooms are some of {', '.join(ROOMS)}, not {rooms!r}")
    affects = tuple(w.lower() for w in _words(r.get("affects") or "peasant hunter hero"))
    if any(a not in ("peasant", "hunter", "hero") for a in affects):
        raise DataError(f"trap {rid!r}: affects is some of peasant, hunter, hero")
    return Trap(**_common(rid, r), cost=_cost(rid, r.get("cost")), rooms=rooms,
                damage=_int(rid, r, "damage", 0), push=_bool(r.get("push")), affects=affects,
                copies=_int(rid, r, "copies", 1, 1), text=str(r.get("text") or ""))


def _event(r: dict[str, Any]) -> Event:
    rid = _ident(r, "events")
    return Event(**_common(rid, r), persistent=_bool(r.get("persistent")),
                 flips_time=_bool(r.get("flips_time")), copies=_int(rid, r, "copies", 1, 1),
                 text=str(r.get("text") or ""))


def _hero(r: dict[str, Any]) -> Hero:
    rid = _ident(r, "heroes")
    return Hero(**_common(rid, r), type=_type(rid, r.get("type")),
                health=_int(rid, r, "health", low=1), speed=_int(rid, r, "speed", 1),
                damage=_int(rid, r, "damage", 1), range=_int(rid, r, "range", 0),
                text=str(r.get("text") or ""))


def _scenario(r: dict[str, Any]) -> Scenario:
    rid = _ident(r, "scenarios")
    zones = []
    for z in r.get("zones") or []:
        zid = _ident(z, f"{rid}'s zones")
        room = str(z.get("room") or "").lower()
        if room not in ROOMS:
            raise DataError(f"zone {zid!r}: room is one of {', '.join(ROOMS)}, not {room!r}")
        zones.append(Zone(zid, str(z.get("name") or zid), room,
                          tuple(w.lower() for w in _words(z.get("toward"))),
                          _bool(z.get("burns_by_day")), _bool(z.get("night_peasant_xp"))))
    ids = {z.id for z in zones}
    hearts = [z for z in zones if z.room == "heart"]
    if len(hearts) != 1:
        raise DataError(f"scenario {rid!r} needs exactly one zone whose room is heart")
    for z in zones:
        if any(t not in ids for t in z.toward):
            raise DataError(f"zone {z.id!r}: toward names a zone the scenario lacks")
        if z.room != "heart" and not z.toward:
            raise DataError(f"zone {z.id!r}: toward names the zones one step nearer the Heart")
    spawns = tuple(w.lower() for w in _words(r.get("spawns")))
    if not spawns or any(s not in ids for s in spawns):
        raise DataError(f"scenario {rid!r}: spawns names zones of the scenario")
    objectives = []
    for o in r.get("objectives") or []:
        oid = _ident(o, f"{rid}'s objectives")
        zone = str(o.get("zone") or "").lower()
        if zone not in ids:
            raise DataError(f"objective {oid!r}: zone {zone!r} is not in the scenario")
        objectives.append(Objective(oid, str(o.get("name") or oid), zone, _cost(oid, o.get("cost")),
                                    _int(oid, o, "morale", 0), _int(oid, o, "experience", 0)))
    events = tuple(sorted(_numbers(rid, r, "events")))
    scenario = Scenario(**_common(rid, r), heart=_int(rid, r, "heart", low=1),
                        morale=_int(rid, r, "morale", low=1), events=events,
                        morale_per_monster=_int(rid, r, "morale_per_monster", 0),
                        trap_slots=_int(rid, r, "trap_slots", 3, 1),  # TRAP_SLOTS_GUESSED
                        zones=tuple(zones),
                        spawns=spawns, tiers=_numbers(rid, r, "tiers"),
                        objectives=tuple(objectives), text=str(r.get("text") or ""))
    _distances(scenario)  # every zone reaches the Heart
    return scenario


@functools.lru_cache(maxsize=64)
def _distances(scenario: Scenario) -> dict[str, int]:
    """Zones one step at a time from the Heart along `toward`: how many steps each is away."""
    dist = {scenario.heart_zone: 0}
    changed = True
    while changed:
        changed = False
        for z in scenario.zones:
            near = [dist[t] + 1 for t in z.toward if t in dist]
            if near and dist.get(z.id, 10**6) > min(near):
                dist[z.id] = min(near)
                changed = True
    lost = [z.id for z in scenario.zones if z.id not in dist]
    if lost:
        raise DataError(f"scenario {scenario.id!r}: zones {', '.join(lost)} never reach the Heart")
    return dist


def distances(scenario: Scenario) -> dict[str, int]:
    return _distances(scenario)


def _dice(value: Any) -> dict[str, tuple[str, ...]]:
    # FACES_BY_NAME: the Day and Night dice's faces are the table's to correct.
    dice = {VILLAGE_DAY.name: VILLAGE_DAY.kind().faces, VILLAGE_NIGHT.name: VILLAGE_NIGHT.kind().faces}
    for name, faces in (value or {}).items():
        if name not in dice:
            raise DataError(f"dice: only {', '.join(dice)} are edited, not {name!r}")
        faces = tuple(str(f) for f in faces)
        allowed = (*VILLAGE.face_names, "blank")
        if len(faces) != 6 or any(f not in allowed for f in faces):
            raise DataError(f"dice {name!r}: six faces, each one of {', '.join(allowed)}")
        dice[name] = faces
    return dice


_READERS = {"monsters": _dashboard, "traps": _trap, "events": _event, "heroes": _hero,
            "scenarios": _scenario}


def table_data(raw: Any) -> TableData:
    """Check the players' data and return it; DataError names what is wrong."""
    if not isinstance(raw, dict):
        raise DataError("the data is an object: {monsters, traps, events, heroes, scenarios}")
    unknown = sorted(set(raw) - set(KINDS) - {"dice"})
    if unknown:
        raise DataError(f"unknown kind(s) {', '.join(unknown)}; known: {', '.join(KINDS)}, dice")
    parts: dict[str, Any] = {}
    for kind in KINDS:
        records = raw.get(kind) or []
        if not isinstance(records, list):
            raise DataError(f"{kind} is a list")
        table: dict[str, Any] = {}
        for record in records:
            item = _READERS[kind](record)
            if item.id in table:
                raise DataError(f"{kind}: {item.id!r} is there twice")
            table[item.id] = item
        if not table:
            raise DataError(f"the data needs at least one of {kind}")
        parts[kind] = table
    for trap in parts["traps"].values():
        if not trap.cost:
            raise DataError(f"trap {trap.id!r} needs a cost")
    return TableData(**parts, dice=_dice(raw.get("dice")))


@functools.lru_cache(maxsize=16)
def data_from_text(text: str) -> TableData:
    """The option's text as data; empty: the shipped template."""
    from .template import TEMPLATE

    return table_data(json_option("data", text) if text else TEMPLATE)


# -- the Cards page's form: the record classes' fields, as `TableData.to_json` writes them -----

RECORD_TYPES = {"monsters": Dashboard, "traps": Trap, "events": Event, "heroes": Hero,
                "scenarios": Scenario}
_NESTED = {"Ability": Ability, "Zone": Zone, "Objective": Objective}
_FACES = " ".join(USABLE)
HINTS = {  # by field, or kind.field where two kinds' fields share a name
    "type": ", ".join(TYPES), "experience": "to level up", "defence": "slots",
    "reserve": "slots", "movement": "slots",
    "abilities": "the first is unlocked at the start; an empty cost is a passive ability",
    "cost": f"face names: {_FACES}", "advanced_cost": f"face names: {_FACES}",
    "rooms": f"some of {' '.join(ROOMS)}", "traps.damage": "0: one point a Villager down the "
    "targeting priority", "push": "the survivors go back 1 zone",
    "affects": "some of peasant hunter hero (all when empty)", "copies": "1 when empty",
    "flips_time": "a Day/Night card", "persistent": "stays in play",
    "speed": "1 when empty", "heroes.damage": "1 when empty", "range": "0 when empty",
    "heart": "starting dial", "morale": "starting dial (one Monster)",
    "morale_per_monster": "Morale added for each Monster after the first (0 when empty)",
    "events": "dial values that draw a Village Event: 6 12 18", "trap_slots": "3 when empty",
    "tiers": "Morale at or below which tier 2, then 3, spawn: 12 6",
    "zones": "room: exactly one heart; toward: the zone ids one door nearer the Heart",
    "spawns": "zone ids", "objectives": "zone: a zone id; morale: the Morale it breaks",
}
_WIDGETS = {"str": "text", "int": "number", "bool": "bool", "tuple[str, ...]": "words",
            "tuple[int, ...]": "words"}  # any other field is a list of nested records
NESTED_HINTS = {"Zone.id": "one word, named by other zones' toward",
                "Objective.zone": "a zone id of this scenario"}


def _form_field(kind: str, record_field: Field[Any]) -> dict[str, Any]:
    """A field of the form: its widget, or (tuple[Ability, ...]) `records`, a list of nested
    records each with its own fields, so no player types JSON."""
    annotation = str(record_field.type)
    hint = HINTS.get(f"{kind}.{record_field.name}", HINTS.get(record_field.name, ""))
    if annotation in _WIDGETS:
        return {"name": record_field.name, "type": _WIDGETS[annotation], "hint": hint}
    nested_name = annotation.removeprefix("tuple[").partition(",")[0]
    nested = _NESTED[nested_name]
    # a zone's id is how the others name it (toward); an ability's is made from its name
    keep_id = nested is Zone
    sub = [{"name": f.name, "type": _WIDGETS[str(f.type)],
            "hint": NESTED_HINTS.get(f"{nested_name}.{f.name}", HINTS.get(f.name, ""))}
           for f in fields(nested) if keep_id or f.name != "id"]
    return {"name": record_field.name, "type": "records", "item": nested_name.lower(),
            "fields": sub, "hint": hint}


def form() -> dict[str, Any]:
    """The Cards page's form (Game.table_data_form), made from the record classes the readers
    build: every field but the id (made from the name), the source and the guessed list (a
    table's own record states its numbers); the dice are a map of die name to faces."""
    kinds = [{"name": kind, "shape": "list",
              "fields": [_form_field(kind, f) for f in fields(RECORD_TYPES[kind])
                         if f.name not in ("id", "source", "guessed")]} for kind in KINDS]
    faces = ", ".join(f'"{f}"' for f in (*VILLAGE.face_names, "blank"))
    kinds.append({"name": "dice", "shape": "map", "fields": [
        {"name": "name", "type": "text", "hint": f"{VILLAGE_DAY.name} or {VILLAGE_NIGHT.name}"},
        {"name": "faces", "type": "json", "hint": f"a JSON list of six of {faces}"}]})
    return {"kinds": kinds, "default": "the template", "csv": False,
            # every field is described for developers in docs/village-attacks-data.md
            "import": "Each record holds the fields its form above shows. An import "
                      "replaces all the data."}
