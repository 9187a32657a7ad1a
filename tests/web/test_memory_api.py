"""What the table learnt, on the Dice page's API: the line, forgetting and files, with the PIN."""

from __future__ import annotations

import base64
import json

import pytest

from companion.dice_store import DiceStore, store_path
from companion.history import History
from companion.table import TableSession
from companion.web.dice import learnt_line

pytest_plugins = ["panel_fixtures"]  # the app and client fixtures, over this module's table


@pytest.fixture
def table(tmp_path):
    return TableSession(History(tmp_path / "panel.db"),
                        memory=DiceStore(store_path(tmp_path / "panel.db")))


def memory_file(dice: list[tuple[str, int | str]]) -> bytes:
    """A memory file of these dice, each crop an image of its own."""
    return json.dumps({"format": "rollscribe-memory/2", "dice": [
        {"kind": k, "value": v, "how": "checked",
         "image": base64.b64encode(b"\xff\xd8crop %d" % i).decode()}
        for i, (k, v) in enumerate(dice)]}).encode()


def test_the_line_says_which_dice_it_knows_well_and_which_are_new():
    assert learnt_line([]).startswith("Nothing learnt yet")
    kinds = [{"kind": "d20", "well": True}, {"kind": "d6", "well": True},
             {"kind": "d12", "well": False}]
    assert learnt_line(kinds) == "Knows 2 of your 3 dice well; the d12 is still new."
    kinds.append({"kind": "d4", "well": False})
    assert learnt_line(kinds) == "Knows 2 of your 4 dice well; the d12 and the d4 are still new."


def test_imported_exported_and_forgotten_with_the_pin(watcher, player, table):
    dice = [("d20", 1 + i % 20) for i in range(50)] + [("d12", 3)] * 2
    assert watcher.post("/api/memory/import", data=memory_file(dice)).status_code == 403
    answer = player.post("/api/memory/import", data=memory_file(dice)).get_json()
    assert answer["imported"] == 52
    assert answer["line"] == "Knows 1 of your 2 dice well; the d12 is still new."
    assert watcher.get("/api/memory").get_json()["kinds"][0] == {
        "kind": "d20", "dice": 50, "corrected": 0, "taught": 0, "values": 20, "well": True}
    exported = watcher.get("/api/memory/export")
    assert exported.headers["Content-Disposition"].endswith('filename="table-memory.json"')
    assert len(exported.get_json()["dice"]) == 52
    assert watcher.post("/api/memory/forget").status_code == 403
    assert player.post("/api/memory/forget").get_json() == {"forgotten": 52}
    assert table.memory.dice() == []


def test_a_bad_memory_file_is_refused_by_what_is_wrong(player, table):
    assert player.post("/api/memory/import", data=memory_file([("d6", 2)])).status_code == 200
    answer = player.post("/api/memory/import", data=b"{not json")
    assert answer.status_code == 400 and "not JSON" in answer.get_json()["error"]
    answer = player.post("/api/memory/import", data=b'{"format": "rollscribe-die/1"}')
    assert answer.status_code == 400 and "not a Rollscribe memory file" in answer.get_json()["error"]
    assert len(table.memory.dice()) == 1


def test_a_table_whose_dice_file_cannot_be_opened_says_so(tmp_path):
    from companion.web import create_app

    (tmp_path / "blocker").write_text("a file where the table's folder should be")
    app = create_app({"TESTING": True, "DB_PATH": str(tmp_path / "blocker" / "n.db"),
                      "PIN": "1234"})
    answer = app.test_client().get("/api/memory")
    assert answer.status_code == 503 and "n.dice.sqlite" in answer.get_data(as_text=True)
