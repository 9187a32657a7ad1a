"""Limits on every input the panel takes: body size, JSON depth, ids, text length, and bodies
the bodiless actions do not take. Each is refused with a 4xx and a message; nothing changes."""

from __future__ import annotations

import pytest
from panel_support import GAME, PLAYERS
from table_support import LINE_UP

pytest_plugins = ["panel_fixtures"]

BODY_ROUTES = ["/api/roll", "/api/correct", "/api/move", "/api/games", "/api/pin", "/api/undo",
               "/api/confirm", "/api/read"]


@pytest.fixture
def started(player):
    assert player.post("/api/games", json={"game": GAME, "players": PLAYERS}).status_code == 201
    return player


def test_a_big_body_is_refused_before_it_is_read(started, watcher, table):
    big = '{"roll": "' + "d20=3 " * 200_000 + '"}'  # 1.2 MB
    answer = started.post("/api/roll", data=big, content_type="application/json")
    assert answer.status_code == 413 and "too big" in answer.json["error"]
    assert watcher.post("/api/pin", data=big, content_type="application/json").status_code == 413
    assert table.history.events(table.game_id) == []


def test_long_texts_are_refused(started, table):
    answer = started.post("/api/roll", json={"roll": "d20=3 " * 2000})
    assert answer.status_code == 400 and "too long" in answer.json["error"]
    assert started.post("/api/move", json={"move": "x" * 5000}).status_code == 400


@pytest.mark.parametrize("path", BODY_ROUTES)
def test_deeply_nested_json_is_a_400_not_a_crash(started, path):
    deep = "[" * 5000 + "]" * 5000
    answer = started.post(path, data=deep, content_type="application/json")
    assert answer.status_code == 400 and "JSON" in answer.json["error"]


@pytest.mark.parametrize("url", ["/api/games/{}", "/api/games/{}/export.json",
                                 "/api/games/{}/export.csv", "/api/images/{}.jpg", "/games/{}"])
@pytest.mark.parametrize("number", [2**63 - 1, 2**63, 10**40])
def test_huge_ids_are_not_found_not_a_crash(watcher, url, number):
    assert watcher.get(url.format(number)).status_code == 404


@pytest.mark.parametrize("path", ["/api/undo", "/api/confirm", "/api/discard", "/api/end-turn",
                                  "/api/read", "/api/undo-turn"])
def test_bodiless_actions_refuse_malformed_json(started, table, path):
    answer = started.post(path, data="{oops", content_type="application/json")
    assert answer.status_code == 400 and "JSON object" in answer.json["error"]


def test_a_die_index_out_of_range_names_the_dice_there_are(started, table):
    from table_support import tray

    table.submit_reading(tray(LINE_UP, unsure=0))
    answer = started.post("/api/correct", json={"index": -1, "value": 3})
    assert answer.status_code == 409
    assert answer.json["error"] == "'index' counts the dice from 0: this reading has dice 0 to 3"


def test_a_chunked_body_is_bounded_and_checked_like_any_other(started, table):
    import io

    def chunked(data: bytes):
        # what a server hands on for a chunked body: no length, the stream ends by itself
        return started.post("/api/roll", input_stream=io.BytesIO(data),
                            environ_overrides={"wsgi.input_terminated": True},
                            headers={"Transfer-Encoding": "chunked",
                                     "Content-Type": "application/json"})

    big = chunked(b'{"roll": "' + b"d20=3 " * 200_000 + b'"}')
    assert big.status_code == 413
    assert chunked(b"{oops").status_code == 400
    assert table.history.events(table.game_id) == []


@pytest.mark.parametrize("game, option", [("fantahzee", "cards"), ("village-attacks", "data")])
def test_deeply_nested_json_in_an_option_is_a_400_naming_the_option(started, table, game,
                                                                     option):
    before = table.game_id
    answer = started.post("/api/games", json={"game": game, "players": PLAYERS,
                                              "options": {option: "[" * 1000}})
    assert answer.status_code == 400
    assert f"option '{option}' nests too deep" in answer.json["error"]
    assert table.game_id == before  # the game in play is still the one in play


def test_resuming_an_unknown_game_is_404_and_changes_nothing(started, table):
    before = table.game_id, len(table.history.events(table.game_id))
    answer = started.post("/api/games/999/resume", json={})
    assert answer.status_code == 404 and answer.json["error"] == "no game 999 in the history"
    assert (table.game_id, len(table.history.events(table.game_id))) == before
