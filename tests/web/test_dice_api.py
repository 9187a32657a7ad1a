"""The Dice page's API: the table's dice defined, renamed, deleted, exported and imported, with
the PIN; teaching without a camera says so."""

from __future__ import annotations

import base64
import json
import random
import urllib.error
import urllib.request

from panel_support import PIN, running

from companion.dice_store import DiceStore
from companion.history import History
from companion.rules.symbol_dice import SHIPPED
from companion.table import TableSession
from companion.web.dice import MAX_DIE_FILE
from companion.web.limits import MAX_BODY

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures

FATE = {"name": "fate", "title": "Fate dice",
        "faces": [{"name": "plus", "count": 2, "value": 1}, {"name": "minus", "count": 2},
                  {"name": "blank", "count": 2, "value": 0}]}


def test_the_shipped_dice_are_listed_and_changes_need_the_pin(watcher, table):
    listing = watcher.get("/api/dice").get_json()
    assert [d["name"] for d in listing["dice"]] == list(SHIPPED)
    assert listing["max_shots"] == 5 and listing["camera"] is False
    village = listing["dice"][0]
    assert village["shipped"] and not village["taught"]
    assert [f["shots"] for f in village["faces"]] == [0] * 6
    assert watcher.post("/api/dice", json=FATE).status_code == 403
    assert watcher.post("/api/dice/import", data=b"{}").status_code == 403
    assert b'id="dice-link"' in watcher.get("/games").data
    assert watcher.get("/dice").status_code == 200


def test_a_die_made_renamed_exported_imported_and_deleted(player):
    made = player.post("/api/dice", json=FATE).get_json()
    assert made["name"] == "fate" and [f["count"] for f in made["faces"]] == [2, 2, 2]
    bad = player.post("/api/dice", json={**FATE, "faces": [{"name": "plus", "count": "two"},
                                                           "minus"]})
    assert bad.status_code == 400 and "face 1 (plus): 'count'" in bad.get_json()["error"]
    renamed = player.post("/api/dice/fate/rename", json={"to": "fudge"}).get_json()
    assert renamed["name"] == "fudge"
    assert player.get("/api/dice/fate/history-name").get_json()["now"] == "fudge"
    exported = player.get("/api/dice/fudge/export")
    assert exported.headers["Content-Disposition"] == 'attachment; filename="fudge.die.json"'
    file = exported.get_json()
    # a file with its shots is far bigger than an action's body: the import takes it
    shot = base64.b64encode(b"\x89PNG" + bytes(30_000)).decode("ascii")
    file["shots"] = [{"face": face, "png": shot} for face in ("plus", "minus", "blank")
                     for _ in range(2)]
    body = json.dumps(file).encode()
    assert len(body) > 200_000
    imported = player.post("/api/dice/import?name=fudge-two", data=body)
    assert imported.status_code == 200, imported.get_json()
    assert [f["shots"] for f in imported.get_json()["faces"]] == [2, 2, 2]
    too_big = player.post("/api/dice/import", data=b" " * (MAX_DIE_FILE + 1))
    assert too_big.status_code == 413 and "at most 2048 KB" in too_big.get_json()["error"]
    refused = player.post("/api/dice/import", data=b'{"format": "zip"}')
    assert refused.status_code == 400 and "not a Rollscribe die file" in refused.get_json()["error"]
    assert player.post("/api/dice/fudge/delete").get_json() == {"deleted": "fudge"}
    told = player.get("/api/dice/fate/history-name").get_json()
    assert told["status"] == "deleted" and [f["name"] for f in told["faces"]] == [
        "plus", "minus", "blank"]
    shipped = player.post("/api/dice/village/delete")
    assert shipped.status_code == 400 and "games ask for by name" in shipped.get_json()["error"]


def test_teaching_without_a_camera_says_so(player):
    answer = player.post("/api/dice/village/shot")
    assert answer.status_code == 503
    assert "no camera to teach with" in answer.get_json()["error"]


def http(url: str, method: str = "GET", body: bytes | None = None) -> tuple[int, bytes]:
    """One request to a served panel with the PIN (as a script sends it)."""
    request = urllib.request.Request(url, body, method=method, headers={"X-Table-Pin": PIN})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def test_a_die_taught_five_shots_a_face_moves_between_tables_through_the_server(tmp_path):
    """Export from one table and import into another through the production server: the file
    (about 10 kB a shot, far over an action's body limit) arrives whole."""
    here, there = DiceStore(tmp_path / "here.dice.sqlite"), DiceStore(tmp_path / "there.dice.sqlite")
    rng = random.Random(5)
    faces = here.definition("village").face_names
    pngs = {(face, i): b"\x89PNG" + rng.randbytes(10_000) for face in faces for i in range(5)}
    for (face, _), png in pngs.items():
        here.add_shot("village", face, png)
    with (running(TableSession(History(tmp_path / "here.db")), DICE_STORE=here) as a,
          running(TableSession(History(tmp_path / "there.db")), DICE_STORE=there) as b):
        status, file = http(f"{a}/api/dice/village/export")
        assert status == 200 and len(file) > 5 * MAX_BODY
        status, answer = http(f"{b}/api/dice/import", "POST", file)
        assert status == 200, answer
        assert [f["shots"] for f in json.loads(answer)["faces"]] == [5] * len(faces)
        # an action's body is still held to its own limit
        status, answer = http(f"{b}/api/roll", "POST", file)
        assert status == 413 and b"at most 64 KB" in answer
    assert sorted(s.image for s in there.shots("village")) == sorted(pngs.values())
