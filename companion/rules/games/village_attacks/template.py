"""The shipped template: what plays until a table enters its own dashboards and cards.

Only names and numbers the book states are marked `book`; every other number is a guess, named
in the record's `guessed` list, for the players to correct from their own components. The book
names four Monsters (Banshee, Dullahan, Lich, Vampire) and some of their abilities, one Trap by
its effect (the Chandelier) and one by name (the Treasure Hoard), and rooms (Library, Armoury,
Courtyard, Graveyard, the Castle Heart); it prints no Town Hero, Village Event or scenario.
"""

from __future__ import annotations

from typing import Any


def _monster(name: str, kind: str, abilities: list[dict[str, Any]], guessed: str,
             source: str = "book", **stats: int) -> dict[str, Any]:
    base = {"health": 6, "experience": 4, "defence": 2, "reserve": 2, "movement": 2}
    return {"name": name, "type": kind, **base, **stats, "abilities": abilities,
            "source": source, "guessed": guessed}


def _ability(name: str, cost: str, advanced: str, text: str = "") -> dict[str, Any]:
    return {"name": name, "cost": cost, "advanced_cost": advanced, "text": text}


TEMPLATE: dict[str, Any] = {
    "monsters": [
        _monster("Banshee", "undead", [
            _ability("A Death Foretold", "Magic", "Magic", "lasts until the end of the round"),
            _ability("Comb Trap", "Magic Defence", "Magic"),
            _ability("Wail", "Magic Magic", "Magic")],
            "type health experience defence reserve abilities.cost abilities.3", movement=3),
        _monster("Dullahan", "mythic", [
            _ability("Unstoppable", "Defence", "Defence"),
            _ability("Whiplash", "Melee", "Melee",
                     "damages a second enemy of the same type in the zone"),
            _ability("Basin of Blood", "Magic Magic", "Magic",
                     "lasts until the end of the round")],
            "health experience defence reserve movement abilities.cost", defence=3),
        _monster("Lich", "arcane", [
            _ability("Soul Arrow", "Magic Ranged", "Magic Ranged"),
            _ability("Bone Wall", "Defence Magic", "Defence"),
            _ability("Raise Dead", "Magic Magic Magic", "Magic Magic")],
            "type health experience defence reserve(very large: 4) movement abilities.2-3 "
            "abilities.cost", reserve=4),
        _monster("Vampire", "cursed", [
            _ability("Regeneration", "Magic", "Magic", "heals; deals no damage"),
            _ability("Bat Swarm", "Ranged Ranged", "Ranged"),
            _ability("Mesmerise", "Magic Melee", "Magic")],
            "type health experience defence reserve movement abilities.2-3 abilities.cost"),
        _monster("Fifth Monster", "demon", [
            _ability("First Ability", "Melee Melee", "Melee"),
            _ability("Second Ability", "Magic Ranged", "Magic"),
            _ability("Third Ability", "Magic Magic", "Magic")],
            "everything: the book names no fifth Monster; enter yours", source="guessed"),
    ],
    "traps": [
        {"name": "Chandelier", "cost": "Magic", "rooms": "large small", "damage": 2,
         "push": True, "source": "book", "guessed": "cost rooms",
         "text": "deals 2 damage and pushes the surviving Villagers back 1 zone"},
        {"name": "Treasure Hoard", "cost": "Magic Magic", "rooms": "large", "damage": 0,
         "source": "book", "guessed": "cost rooms damage",
         "text": "triggers as soon as an eligible Villager enters its zone and lasts the round; "
                 "resolved by hand"},
        {"name": "Spike Pit", "cost": "Melee Defence", "rooms": "corridor", "damage": 3,
         "source": "guessed", "guessed": "everything", "copies": 2},
        {"name": "Oil Slick", "cost": "Ranged", "rooms": "corridor small", "damage": 1,
         "push": True, "source": "guessed", "guessed": "everything", "copies": 2},
    ],
    "events": [
        {"name": "Reinforcements", "source": "guessed", "guessed": "everything", "copies": 3,
         "text": "draw a Villager Spawn card for the spawn point furthest from the Heart"},
        {"name": "Fog", "persistent": True, "source": "guessed", "guessed": "everything",
         "copies": 2, "text": "a zone the players choose is in Darkness until the next event"},
        {"name": "Bad Omen", "source": "guessed", "guessed": "everything", "copies": 2,
         "text": "a zone the players choose is Unlucky this round"},
        {"name": "Day Breaks / Night Falls", "flips_time": True, "source": "book",
         "guessed": "copies", "copies": 2,
         "text": "Day & Night mode only: Day becomes Night, Night becomes Day"},
    ],
    "heroes": [
        {"name": f"{kind.title()} Town Hero", "type": kind, "health": 4, "speed": 2,
         "damage": 2, "range": 1, "source": "guessed", "guessed": "everything but the type",
         "text": "enter the token's special ability"}
        for kind in ("undead", "mythic", "cursed", "arcane", "demon")
    ],
    "scenarios": [
        {"name": "Example: the Siege of the Library", "source": "guessed",
         "heart": 10, "morale": 20, "morale_per_monster": 10, "events": "6 12 18 24 30 36",
         "trap_slots": 3, "tiers": "12 6",
         "guessed": "heart morale morale_per_monster events trap_slots tiers zones spawns "
                    "objectives",
         "text": "Only the rooms the book names; its layout, numbers and objective are guesses. "
                 "Win when the Villagers' Morale breaks; lose when the Heart falls.",
         "zones": [
             {"name": "Castle Heart", "room": "heart"},
             {"name": "Great Hall", "room": "corridor", "toward": "castle_heart"},
             {"name": "Library", "room": "large", "toward": "great_hall"},
             {"name": "Armoury", "room": "small", "toward": "library"},
             {"name": "Courtyard", "room": "large", "toward": "great_hall",
              "burns_by_day": True},
             {"name": "Split Corridor", "room": "corridor", "toward": "armoury courtyard"},
             {"name": "Graveyard", "room": "large", "toward": "split_corridor",
              "burns_by_day": True, "night_peasant_xp": True},
             {"name": "Gatehouse", "room": "corridor", "toward": "courtyard"},
         ],
         "spawns": "graveyard gatehouse",
         "objectives": [{"name": "Bar the Gate", "zone": "gatehouse",
                         "cost": "Defence Defence", "morale": 2, "experience": 1}]},
    ],
}
