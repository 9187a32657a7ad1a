"""Fantahzee's cards at the table: entered once by form or file (JSON or CSV) through the API,
kept in SQLite beside the games, used by the games started after, refused with a reason when
wrong; a game plays through the API with a card asked for and a hand-made adjustment recorded."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.history import History
from companion.rules.games.fantahzee.deck import PLACEHOLDER_DECK

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures

GAME = "fantahzee"


def _deck_with(hero: dict) -> dict:
    return {**PLACEHOLDER_DECK, "heroes": [*PLACEHOLDER_DECK["heroes"], hero]}


def test_the_placeholder_deck_until_cards_are_entered(watcher):
    answer = watcher.get(f"/api/table-data/{GAME}").json
    assert answer["entered"] is False
    assert {c["id"] for c in answer["data"]["heroes"]} >= {"alchemist", "sergeant", "militia"}
    assert {c["source"] for c in answer["data"]["monsters"]} == {"book", "placeholder"}


def test_entered_cards_are_stored_and_used_by_the_next_game(player, table):
    hero = {"name": "Ice Giant", "type": "warrior", "strength": 6, "cost": "6 6 6",
            "effects": "banish<=6"}
    answer = player.put(f"/api/table-data/{GAME}", json={"data": _deck_with(hero)})
    assert answer.status_code == 200 and answer.json["entered"] is True
    giant = next(c for c in answer.json["data"]["heroes"] if c["id"] == "ice_giant")
    assert (giant["source"], giant["effects"], giant["cost"]) == ("table", "banish<=6", "6 6 6")
    assert player.post("/api/games", json={"game": GAME, "players": ["Ann", "Bob"]}
                       ).status_code == 201
    options = table.snapshot()["game"]["options"]
    assert "ice_giant" in json.loads(options["cards"])["heroes"][-1]["id"]
    # Games already started keep their cards; forgetting them brings back the placeholders.
    assert player.delete(f"/api/table-data/{GAME}").json["entered"] is False
    assert "ice_giant" in table.snapshot()["game"]["options"]["cards"]


def test_a_csv_file_replaces_the_cards(player):
    header = "kind,name,copies,type,strength,cost,level,xp,counterattack,ambush,treasure,"
    rows = [header + "level1,level2"]
    rows += ["hero,Militia,20,warrior,1,X,,,,,,,"]
    rows += [f"boss,Boss {i},1,,12,,2,10,2,,2,," for i in range(5)]
    rows += ["monster,Goblin,30,,2,,1,1,,,,,", "monster,Troll,25,,7,,2,4,1,1,1,,",
             "town,Hut,10,,,,,1,,,,,", "treasure,Charm,5,,,,,,,,,shield+1,dice+1"]
    answer = player.put(f"/api/table-data/{GAME}", json={"csv": "\n".join(rows)})
    assert answer.status_code == 200
    data = answer.json["data"]
    assert [c["id"] for c in data["heroes"]] == ["militia"]
    assert sum(m["boss"] for m in data["monsters"]) == 5
    assert data["treasures"][0]["level2"] == "dice+1"


@pytest.mark.parametrize(("body", "words"), [
    ({"data": {"heroes": [{"name": "Odd", "strength": 1, "cost": "7"}]}}, "'7' in cost"),
    ({"data": {"villains": []}}, "unknown card kind"),
    ({"data": {**PLACEHOLDER_DECK, "monsters": PLACEHOLDER_DECK["monsters"][:-1]}},
     "5 Boss Monsters"),
    ({"csv": "kind,name\nwizard,Merlin\n"}, "kind is one of"),
    ({"data": "cards"}, "'data' must be a dict"),
])
def test_bad_cards_are_refused_with_a_reason(player, table, body, words):
    answer = player.put(f"/api/table-data/{GAME}", json=body)
    assert answer.status_code == 400 and words in answer.json["error"]
    assert table.history.table_data(GAME) is None


def test_entering_cards_needs_the_pin(watcher):
    assert watcher.put(f"/api/table-data/{GAME}", json={"data": PLACEHOLDER_DECK}
                       ).status_code == 403
    assert watcher.get("/api/table-data/monstrous-horde").status_code == 400


def test_the_cards_page_and_a_game_through_the_api(player, table, watcher):
    page = watcher.get("/cards")
    assert page.status_code == 200 and b"cards.js" in page.data
    assert player.post("/api/games", json={"game": GAME, "players": ["Ann", "Bob"]}
                       ).status_code == 201
    player.post("/api/roll", json={"roll": "d6=6"})  # Ann's die for the first player
    snap = player.post("/api/roll", json={"roll": "d6=2"}).json  # then Bob's: Ann goes first
    assert snap["state"]["asking"] == "Ann: enter the monster flipped on stack 1"
    assert snap["moves"] and all(m["move"].startswith("card ") for m in snap["moves"])
    snap = player.post("/api/move", json={"move": "card goblin"}).json
    assert snap["state"]["stacks"][0]["label"].startswith("Goblin")
    snap = player.post("/api/move", json={"move": "adjust xp +2"}).json
    assert snap["scores"] == [2, 0]
    assert table.history.events(table.game_id)[-1].text == "adjust xp +2"
    bad = player.post("/api/move", json={"move": "card dragon"})
    assert bad.status_code == 409 and "cannot come up" in bad.json["error"]


def test_an_old_database_gains_the_cards_table(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT "
               "NOT NULL, options TEXT NOT NULL, started REAL NOT NULL)")
    db.execute("INSERT INTO games (game, players, options, started) VALUES "
               "('board-horde', '[\"A\", \"B\"]', '{}', 0)")
    db.commit()
    db.close()
    history = History(path)
    history.set_table_data(GAME, "{}")
    assert history.table_data(GAME) == "{}" and history.games()[0].game == "board-horde"
    history.close()


def test_the_ok_button_never_guesses_a_card(player, table):
    assert player.post("/api/games", json={"game": GAME, "players": ["Ann", "Bob"]}
                       ).status_code == 201
    player.post("/api/roll", json={"roll": "d6=6"})
    player.post("/api/roll", json={"roll": "d6=2"})
    answer = player.post("/api/confirm")
    assert answer.status_code == 409
    assert "cannot guess" in answer.json["error"] and "stack 1" in answer.json["error"]


def test_the_games_list_leaves_the_cards_out(player):
    player.put(f"/api/table-data/{GAME}", json={"data": PLACEHOLDER_DECK})
    assert player.post("/api/games", json={"game": GAME, "players": ["Ann", "Bob"]}
                       ).status_code == 201
    listed = player.get("/api/games").json["games"][0]
    assert listed["options"]["cards"] == "(entered)"
