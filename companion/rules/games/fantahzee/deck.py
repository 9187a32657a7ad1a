"""The cards the engine ships: the book's own (only what its text states, the rest named in
BOOK_GAPS) and a placeholder deck built around them, so a table can play before entering its
cards. Numbers the book does not give are marked in each card's `text` and in rules.py."""

from __future__ import annotations

import json
from typing import Any

# The book's cards. Fields the text does not state are guessed; `text` says which (BOOK_GAPS).
BOOK: dict[str, list[dict[str, Any]]] = {
    "heroes": [
        {"id": "alchemist", "name": "Alchemist", "type": "mage", "strength": 0, "cost": "X",
         "effects": "dice+2 rolls+1", "copies": 2,
         "text": "Activate: two more dice and an extra roll. (Book: strength 0, dice and roll; "
                 "cost guessed: one die.)"},
        {"id": "sergeant", "name": "Sergeant", "type": "warrior", "strength": 2, "cost": "**",
         "effects": "cut-x+1", "copies": 3,
         "text": "Activate: reduce another hero's activation cost by one X. (Book: strength 2, "
                 "a pair.)"},
        {"id": "paladin", "name": "Paladin", "type": "warrior", "strength": 5, "cost": "****",
         "effects": "wake", "copies": 1,
         "text": "Activate: activate another hero of equal or lower strength. (Book: four of a "
                 "kind, three after a Sergeant; strength guessed 5 of the party's 15.)"},
        {"id": "steamsmith", "name": "Steamsmith", "type": "artificer", "strength": 3,
         "cost": "5", "steam": 4, "copies": 2,
         "text": "Activate: get 4 steam. (Book: strength 3, a specific number; the 5 guessed.)"},
        {"id": "steamasaur", "name": "Steamasaur", "type": "artificer", "strength": 5,
         "cost": "6 6 | steam 4", "copies": 1,
         "text": "(Book: a specific number or steam; strength 5 and the costs guessed.)"},
        {"id": "steam_brute", "name": "Steam Brute", "type": "artificer", "strength": 4,
         "cost": "4 4 | steam 3", "copies": 2,
         "text": "(Book: strength 4; cost guessed.)"},
    ],
    "actions": [
        {"id": "by_the_power_of", "name": "By the power of...", "effects": "dice+1", "copies": 3,
         "text": "An extra die this turn. (Book.)"},
        {"id": "whered_you_go", "name": "Where'd you go?", "effects": "shield+2", "copies": 3,
         "text": "Your party gets Shield 2 this turn. (Book.)"},
    ],
    "monsters": [
        {"id": "bone_warrior", "name": "Bone Warrior", "level": 1, "strength": 3, "xp": 3,
         "counterattack": 1, "copies": 2,
         "text": "(Book: strength 3, counterattack 1; XP guessed.)"},
        {"id": "rock_monster", "name": "Rock Monster", "level": 1, "strength": 4, "xp": 4,
         "copies": 2, "text": "(Book: strength 4; XP and counterattack 0 guessed.)"},
        {"id": "dark_assassin", "name": "Dark Assassin", "level": 1, "strength": 3, "xp": 3,
         "ambush": 1, "copies": 2,
         "text": "(Book: ambush 1; level, strength and XP guessed.)"},
        {"id": "wicked_spinner", "name": "Wicked Spinner", "level": 1, "strength": 3, "xp": 3,
         "ambush": 1, "copies": 2,
         "text": "(Book: ambush 1; level, strength and XP guessed.)"},
        {"id": "blighter", "name": "Blighter", "level": 2, "strength": 3, "xp": 4,
         "counterattack": 1, "copies": 2,
         "text": "(Book: level 2, strength 3; counterattack 1 of the example's 2 and XP "
                 "guessed.)"},
        {"id": "vampire_lord", "name": "Vampire Lord", "level": 2, "strength": 9, "xp": 8,
         "ambush": 3, "treasure": 2, "copies": 1,
         "text": "(Book: ambush 3; level, strength, XP and treasure guessed.)"},
        {"id": "shrewd_rakshasa", "name": "Shrewd Rakshasa", "level": 2, "strength": 7, "xp": 6,
         "counterattack": 4, "copies": 1,
         "text": "(Book: counterattack 4; level, strength and XP guessed.)"},
    ],
    "towns": [
        {"id": "tavern", "name": "Tavern", "xp": 2, "copies": 1, "text": "(Book: -2 XP.)"},
    ],
    "treasures": [
        {"id": "orb_of_power", "name": "Orb of Power", "level1": "dice+1",
         "level2": "shield+1 rolls+1 dice+1", "copies": 2,
         "text": "Level 1: an extra die. Level 2: Shield 1, an extra roll and an extra die. "
                 "(Book.)"},
    ],
}


def _cards(kind: str, rows: str, **extra: Any) -> list[dict[str, Any]]:
    """Placeholder rows: 'name;copies;field=value;...' one a line."""
    cards = []
    for line in rows.strip().splitlines():
        name, copies, *fields = [part.strip() for part in line.split(";")]
        card: dict[str, Any] = {"name": name, "copies": int(copies), "source": "placeholder",
                                "text": "Placeholder card: enter your table's cards.", **extra}
        for item in fields:
            key, _, value = item.partition("=")
            card[key] = int(value) if value.isdigit() else value
        cards.append(card)
    return cards


PLACEHOLDERS: dict[str, list[dict[str, Any]]] = {
    "heroes": _cards("heroes", """
        Militia;6;type=warrior;strength=1;cost=X
        Squire;4;type=warrior;strength=2;cost=X X
        Knight;3;type=warrior;strength=4;cost=***
        Shieldbearer;2;type=warrior;strength=2;shield=2;cost=3 3
        Apprentice;4;type=mage;strength=1;cost=1 | 2
        Illusionist;2;type=mage;strength=0;cost=**;effects=shield+2
        Pyromancer;2;type=mage;strength=5;cost=6 6
        Sorcerer;2;type=mage;strength=3;cost=****;effects=banish<=4
        Tinker;3;type=artificer;strength=1;cost=4;steam=3
        Boiler Golem;2;type=artificer;strength=6;cost=5 5 5 | steam 3
    """),
    "actions": _cards("actions", """
        Second Wind;2;effects=rolls+1
        Rally;2;effects=strength+2
    """),
    "monsters": _cards("monsters", """
        Goblin;6;level=1;strength=2;xp=1
        Orc;6;level=1;strength=4;xp=2;counterattack=1
        Wolf;4;level=1;strength=3;xp=2;ambush=1
        Imp;4;level=1;strength=1;xp=1;treasure=1
        Kobold;2;level=1;strength=1;xp=1
        Troll;6;level=2;strength=7;xp=4;counterattack=2
        Wraith;5;level=2;strength=6;xp=4;ambush=2;treasure=2
        Ogre;5;level=2;strength=8;xp=5;counterattack=1;treasure=1
        Wyvern;5;level=2;strength=9;xp=6;ambush=1
        Dragon;1;boss=true;strength=15;xp=13;counterattack=3;treasure=2
        Lich;1;boss=true;strength=13;xp=11;ambush=2;treasure=2
        Warlord;1;boss=true;strength=12;xp=10;counterattack=2;treasure=2
        Hydra;1;boss=true;strength=14;xp=12;counterattack=2;ambush=1;treasure=2
        Demon;1;boss=true;strength=15;xp=12;counterattack=3;treasure=2
    """),
    "towns": _cards("towns", """
        Market;3;xp=1
        Temple;2;xp=3
        Mill;2;xp=1
        Smithy;2;xp=2
    """),
    "treasures": _cards("treasures", """
        Ring of Warding;3;level1=shield+1;level2=shield+2
        Boots of Haste;2;level1=rolls+1;level2=rolls+2
        Runed Blade;3;level1=strength+1;level2=strength+2
    """),
}


for _cards_of_kind in BOOK.values():
    for _card in _cards_of_kind:
        _card["source"] = "book"

PLACEHOLDER_DECK: dict[str, list[dict[str, Any]]] = {
    kind: BOOK[kind] + PLACEHOLDERS[kind] for kind in BOOK}
PLACEHOLDER_TEXT = json.dumps(PLACEHOLDER_DECK, sort_keys=True)
