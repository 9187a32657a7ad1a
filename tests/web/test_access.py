"""Who may act: a PIN that holds against many addresses, a cookie that carries no PIN, a PIN
kept out of the logs, actions only from the panel's own pages, and taps that mean what the
phone showed (a stale version is refused, never applied twice)."""

from __future__ import annotations

import json
import threading

import pytest
from panel_support import GAME, PIN, PLAYERS, roll_text
from table_support import LINE_UP

pytest_plugins = ["panel_fixtures"]


@pytest.fixture
def started(player):
    assert player.post("/api/games", json={"game": GAME, "players": PLAYERS}).status_code == 201
    return player


@pytest.mark.parametrize("origin", ["http://localhost:9000", "http://evil.example", "null"])
def test_an_action_from_another_origin_is_refused(started, table, origin):
    started.post("/api/roll", json={"roll": LINE_UP.text()})
    before = table.history.events(table.game_id)
    answer = started.post("/api/undo", headers={"Origin": origin})
    assert answer.status_code == 403 and "another site" in answer.json["error"]
    form = started.post("/api/undo", data={"x": "1"}, headers={"Origin": origin})
    assert form.status_code == 403
    assert started.post("/api/pin", json={"pin": PIN}, headers={"Origin": origin}).status_code == 403
    assert table.history.events(table.game_id) == before


def test_an_action_from_the_panel_itself_or_a_script_is_let_in(started, table):
    assert started.post("/api/roll", json={"roll": LINE_UP.text()},
                        headers={"Origin": "http://localhost"}).status_code == 200
    assert started.post("/api/undo").status_code == 200  # no Origin: a script, with the PIN
    cross = started.post("/api/undo", headers={"Sec-Fetch-Site": "same-site"})
    assert cross.status_code == 403
