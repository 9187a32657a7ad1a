"""The JSON API: every action, the PIN, and bad input answered 400/409 with nothing changed."""

from __future__ import annotations

import csv
import io
import random
import zipfile

import pytest
from panel_support import GAME, PIN, PLAYERS, roll_text
from table_support import LINE_UP, play, seat_to_move, tray

from companion.rules.core import Roll

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures

@pytest.fixture
def started(player):
    assert player.post("/api/games", json={"game": GAME, "players": PLAYERS}).status_code == 201
    return player


def events(table) -> list:
    return table.history.events(table.game_id) if table.game_id else []


def test_watching_needs_no_pin_but_acting_does(watcher, started, table):
    assert watcher.get("/api/state").json["game"]["players"] == PLAYERS
    before = events(table)
    for path, body in [("/api/roll", {"roll": LINE_UP.text()}), ("/api/undo", {}),
                       ("/api/confirm", {}), ("/api/games", {"game": GAME, "players": PLAYERS})]:
        answer = watcher.post(path, json=body)
        assert answer.status_code == 403 and "PIN" in answer.json["error"]
    assert events(table) == before and watcher.get("/api/access").json == {"can_act": False}
    assert watcher.post("/api/pin", json={"pin": "0000"}).status_code == 403
    assert watcher.post("/api/roll", json={"roll": roll_text(table.snapshot())},
                        headers={"X-Table-Pin": PIN}).status_code == 200


def test_a_turn_through_the_api(started, table):
    snap = started.post("/api/roll", json={"roll": LINE_UP.text()}).json
    assert sorted(e["d20"] for e in snap["state"]["enemies"]) == [3, 5, 9, 12]
    snap = play(table, random.Random(3), seat_to_move)
    best = snap["moves"][0]["move"]
    after = started.post("/api/move", json={"move": best}).json
    assert after["version"] > snap["version"]
    assert [e.text for e in events(table)][-1] == best
    undone = started.post("/api/undo").json
    assert undone["moves"] == snap["moves"] and undone["state"] == snap["state"]


@pytest.mark.parametrize(("path", "body", "status", "words"), [
    ("/api/roll", {"roll": 17}, 400, "'roll' must be a str"),
    ("/api/roll", {"roll": "d20= three"}, 400, "kind=value"),
    ("/api/roll", {"roll": "d20=21 d20=2 d20=3 d20=4"}, 409, "no face 21"),
    ("/api/roll", {"roll": "d20=2 d20=3"}, 409, "wanted 4 dice"),
    ("/api/move", {"move": "end"}, 409, "roll the dice first"),
    ("/api/move", {}, 400, "'move' must be a str"),
    ("/api/correct", {"index": "x", "value": 3}, 400, "'index' must be a int"),
    ("/api/correct", {"index": 0, "value": 3}, 409, "no reading to correct"),
    ("/api/confirm", {}, 409, "roll the dice first"),
    ("/api/undo", {}, 409, "nothing to undo"),
    ("/api/undo-turn", {}, 409, "nothing to undo"),
    ("/api/end-turn", {}, 409, "no turn to end now"),
    ("/api/discard", {}, 409, "no reading is waiting"),
    ("/api/drop", {"index": 0}, 409, "no reading is waiting"),
    ("/api/drop", {"index": 0, "dropped": "yes"}, 400, "'dropped' must be a bool"),
    ("/api/add", {"die": "d20", "value": 3}, 409, "no reading is waiting"),
    ("/api/add", {"value": 3}, 400, "'die' must be a str"),
    ("/api/correct", {"index": 0, "value": 3, "kind": 8}, 400, "'kind' must be a str"),
    ("/api/read", {}, 409, "no camera"),
    ("/api/games", {"game": "chess", "players": PLAYERS}, 400, "unknown game 'chess'"),
    ("/api/games", {"game": GAME, "players": "Ann"}, 400, "'players' must be a list"),
    ("/api/games", {"game": GAME, "players": ["Ann"]}, 400, "2-6 players"),
    ("/api/games", {"game": GAME, "players": PLAYERS, "options": {"target": 15}}, 400,
     "target must be"),
    ("/api/games", {"game": GAME, "players": PLAYERS, "options": []}, 400, "'options'"),
])
def test_bad_requests_are_refused_clearly_and_change_nothing(started, table, path, body, status,
                                                             words):
    before, version = events(table), table.version
    answer = started.post(path, json=body)
    assert answer.status_code == status, answer.json
    assert words in answer.json["error"]
    assert events(table) == before and table.version == version


def test_a_body_that_is_not_a_json_object_is_400(started):
    answer = started.post("/api/roll", data="roll d20=3", content_type="application/json")
    assert answer.status_code == 400 and "JSON object" in answer.json["error"]
    assert started.post("/api/roll", json=["d20=3"]).status_code == 400


def test_correcting_a_held_reading_then_confirming(started, table):
    table.submit_reading(tray(LINE_UP, unsure=2, jpeg=b"\xff\xd8x"))
    snap = started.get("/api/state").json
    assert snap["reading"]["pending"] and snap["reading"]["image"].endswith(".jpg")
    assert started.get(snap["reading"]["image"]).data == b"\xff\xd8x"
    assert started.post("/api/correct", json={"index": 4, "value": 2}).status_code == 409
    assert started.post("/api/correct", json={"index": 2, "value": "21"}).status_code == 409
    snap = started.post("/api/correct", json={"index": 2, "value": "14"}).json
    assert snap["reading"]["dice"][2]["value"] == 14 and snap["reading"]["dice"][2]["corrected"]
    snap = started.post("/api/confirm").json
    assert snap["reading"]["pending"] is False
    assert sorted(e["d20"] for e in snap["state"]["enemies"]) == [5, 9, 12, 14]


def test_history_exports_and_stats(started, table):
    table.submit_reading(tray(LINE_UP))
    snap = play(table, random.Random(3), seat_to_move)
    started.post("/api/move", json={"move": snap["moves"][0]["move"]})
    started.post("/api/undo")
    gid = table.game_id
    detail = started.get(f"/api/games/{gid}").json
    assert [e["kind"] for e in detail["events"]] == [e.kind.value for e in events(table)]
    first, move, undo = detail["events"][0], detail["events"][-2], detail["events"][-1]
    assert first["image"] == f"/api/images/{first['id']}.jpg" and first["player"] is None
    assert move["undone"] is True and move["player"] in PLAYERS and undo["kind"] == "undo"
    csv = started.get(f"/api/games/{gid}/export.csv")
    assert csv.mimetype == "text/csv"
    lines = csv.text.splitlines()
    assert lines[0] == "seq,time,kind,turn,player,text,undone,score Ann,score Bob"
    assert lines[1].split(",")[2:7] == ["roll", "0", "", LINE_UP.text(), "0"]
    assert len(lines) == len(detail["events"]) + 1
    exported = started.get(f"/api/games/{gid}/export.json").json
    assert exported["game"]["id"] == gid and len(exported["events"]) == len(detail["events"])
    assert [g["id"] for g in started.get("/api/games").json["games"]] == [gid]
    stats = started.get("/api/stats").json["players"]
    assert [p["player"] for p in stats] == sorted(PLAYERS)
    assert started.get("/api/games/999").status_code == 404
    assert started.get("/api/images/999.jpg").status_code == 404


def test_the_dice_photos_download_is_the_folder_rollscribe_photos_writes(watcher, started, table):
    table.submit_reading(tray(LINE_UP, unsure=1))
    started.post("/api/correct", json={"index": 1, "value": 14})
    started.post("/api/confirm")
    answer = watcher.get("/api/dice-photos.zip")  # a download, like the game exports: no PIN
    assert answer.status_code == 200 and answer.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(answer.data)) as archive:
        labels = list(csv.DictReader(io.StringIO(archive.read("labels.csv").decode())))
        assert [(r["top_value"], r["how"]) for r in labels] == [
            ("5", "checked"), ("14", "corrected"), ("3", "checked"), ("9", "checked")]
        assert archive.read(labels[1]["path"]) == b"crop of die 1"


def test_catalog_lists_games_with_their_options(watcher):
    games = watcher.get("/api/catalog").json["games"]
    assert all({"name", "title", "min_players", "max_players", "options", "readings"} <= set(g)
               for g in games)
    board = next(g for g in games if g["name"] == "board-horde")
    assert "Board B (two separate sides) is for two players, one side each." in board["readings"]


WEIRD_BODIES = [None, [], "x", 3, {}, {"index": True, "value": None}, {"index": -1, "value": 3},
                {"index": 10**12, "value": "3"}, {"move": "x" * 5000}, {"roll": "d20=💥 d20"},
                {"roll": "roll"}, {"move": ""}, {"value": {"a": 1}, "index": 0},
                {"game": GAME, "players": [None, 3]}, {"game": [], "players": PLAYERS},
                {"game": GAME, "players": PLAYERS, "options": {"target": "ten"}}]


@pytest.mark.parametrize("path", ["/api/roll", "/api/correct", "/api/move", "/api/confirm",
                                  "/api/games", "/api/undo", "/api/end-turn", "/api/read"])
def test_no_body_makes_the_server_fail(started, table, path):
    table.submit_reading(tray(LINE_UP, unsure=0))
    for body in WEIRD_BODIES:
        before = events(table)
        answer = started.post(path, json=body)
        assert answer.status_code in (200, 201, 400, 409), (body, answer.json)
        assert answer.json["error"] if answer.status_code >= 400 else answer.json["version"]
        if answer.status_code >= 400:
            assert events(table) == before


def test_guessing_the_pin_is_slowed_down(app, watcher):
    now = [1000.0]
    app.extensions["rollscribe"].guard.clock = lambda: now[0]
    for guess in ["0000", "1111", "ü", "3333", "4444"]:
        assert watcher.post("/api/pin", json={"pin": guess}).status_code == 403
    locked = watcher.post("/api/pin", json={"pin": PIN})
    assert locked.status_code == 429 and "try again in 30 s" in locked.json["error"]
    other = app.test_client()
    assert other.post("/api/pin", json={"pin": PIN},
                      environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200
    now[0] += 31
    assert watcher.post("/api/pin", json={"pin": PIN}).status_code == 200


def test_a_reading_is_put_right_through_the_api(started, table):
    """A box of no die dropped, a missed die added, a die's kind changed: then it confirms."""
    table.submit_reading(tray(Roll.of(("d20", 5), ("d8", 6), ("d6", 3), ("d20", 9))))
    snap = started.post("/api/drop", json={"index": 1}).json
    assert snap["reading"]["dice"][1]["dropped"] and "got 3" in snap["reading"]["problem"]
    snap = started.post("/api/add", json={"die": "d20", "value": 12}).json
    assert "got d20, d6, d20, d20" in snap["reading"]["problem"]
    snap = started.post("/api/correct", json={"index": 2, "value": 3, "kind": "d20"}).json
    assert snap["reading"]["problem"] == "" and "d20" in snap["reading"]["kinds"]
    snap = started.post("/api/confirm").json
    assert sorted(e["d20"] for e in snap["state"]["enemies"]) == [3, 5, 9, 12]
    assert snap["reading"]["confirmed"]
