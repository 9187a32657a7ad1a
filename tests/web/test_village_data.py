"""Village Attacks through the panel's API, no browser: the Cards page's table data (the shipped
template until the table enters its own, then stored and used by the next game, bad data
refused with the field named) and a Monster's turn of typed symbol dice."""

from __future__ import annotations

import copy

from companion.rules.games.village_attacks.template import TEMPLATE

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures

GAME = "village-attacks"


def test_the_cards_page_lists_the_game_and_loads_the_template(watcher):
    catalog = watcher.get("/api/catalog").json["games"]
    listed = next(g for g in catalog if g["name"] == GAME)
    assert listed["table_data"] == "data"
    assert [k["name"] for k in listed["table_data_form"]["kinds"]] == [
        "monsters", "traps", "events", "heroes", "scenarios", "dice"]
    assert all(g["table_data_form"] is None for g in catalog if not g["table_data"])
    answer = watcher.get(f"/api/table-data/{GAME}").json
    assert answer["entered"] is False
    data = answer["data"]
    assert [m["name"] for m in data["monsters"]][:4] == ["Banshee", "Dullahan", "Lich", "Vampire"]
    chandelier = next(t for t in data["traps"] if t["id"] == "chandelier")
    assert chandelier["source"] == "book" and chandelier["guessed"] == ["cost", "rooms"]
    assert data["dice"]["village-night"] and data["scenarios"][0]["zones"]


def test_entered_data_is_stored_and_played_by_the_next_game(player, table):
    mine = copy.deepcopy(TEMPLATE)
    mine["scenarios"][0]["heart"] = 14
    answer = player.put(f"/api/table-data/{GAME}", json={"data": mine})
    assert answer.status_code == 200 and answer.json["entered"] is True
    assert player.post("/api/games", json={"game": GAME, "players": ["Ann", "Bob"]}
                       ).status_code == 201
    state = player.get("/api/state").json["state"]
    assert state["castle_heart"] == 14 and state["step"] == "spawn"


def test_bad_data_is_refused_with_the_field_named(player, table):
    bad = copy.deepcopy(TEMPLATE)
    bad["monsters"][0]["type"] = "robot"
    answer = player.put(f"/api/table-data/{GAME}", json={"data": bad})
    assert answer.status_code == 400 and "'banshee': type is one of" in answer.json["error"]
    assert table.history.table_data(GAME) is None


def test_a_turn_of_symbol_dice_through_the_api(player):
    assert player.post("/api/games", json={"game": GAME, "players": ["Ann"]}).status_code == 201
    for move in ("spawn 1 0", "spawn 0 0", "deal chandelier"):
        assert player.post("/api/move", json={"move": move}).status_code == 200
    snap = player.get("/api/state").json
    assert snap["state"]["roll_wanted"]["dice"] == ["village"] * 6
    faces = ["Melee", "Ranged", "Magic", "Magic", "Defence", "Retaliate"]
    roll = "roll " + " ".join(f"village={f}" for f in faces)
    snap = player.post("/api/roll", json={"roll": roll}).json
    titles = [m["title"] for m in snap["moves"]]
    assert "Store Magic in the Reserve (one die fewer rolled next turn)" in titles
    assert player.post("/api/roll", json={"roll": "roll village=Sword"}).status_code == 409
