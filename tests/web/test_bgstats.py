"""Finished games sent to BG Stats: the link decoded and every field checked against the game's
own history, for both games; unfinished games are refused."""

from __future__ import annotations

import json
import random
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from panel_support import play

from companion.bgstats import CREATE_PLAY
from companion.history import HistoryError
from companion.rules.registry import get_game

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures


def finish(table, game: str, players: list[str], options: dict, seed: int) -> int:
    game_id = table.new_game(game, players, options)
    play(table, random.Random(seed), lambda s: s["game"]["over"], limit=5000)
    return game_id


def sent(client, game_id: int) -> dict:
    answer = client.get(f"/games/{game_id}/bgstats")
    assert answer.status_code == 302
    url = urlsplit(answer.location)
    assert f"{url.scheme}://{url.netloc}{url.path}" == CREATE_PLAY
    return json.loads(parse_qs(url.query)["data"][0])


@pytest.mark.parametrize(("game", "players", "options", "seed"), [
    ("monstrous-horde", ["Ann", "Bob", "Cy"], {"target": 30}, 3),
    ("board-horde", ["Ann", "Bob"], {"board": "B"}, 5),
])
def test_the_link_carries_the_play_as_the_history_tells_it(
        table, watcher, game, players, options, seed):
    game_id = finish(table, game, players, options, seed)
    history = table.history
    record, events = history.game(game_id), history.events(game_id)
    data = sent(watcher, game_id)

    assert data["sourceName"] == "Rollscribe"
    assert data["sourcePlayId"] == f"{int(record.started)}-{game_id}"
    assert sent(watcher, game_id) == data  # the same play each time it is sent
    assert data["game"] == {"name": get_game(game).title, "sourceGameId": game,
                            "highestWins": True, "noPoints": False}
    assert data["playDate"] == time.strftime("%Y-%m-%d %H:%M:%S",
                                             time.localtime(record.started))
    assert data["durationMin"] == max(1, round((events[-1].at - record.started) / 60))
    assert [p["name"] for p in data["players"]] == players
    assert [p["score"] for p in data["players"]] == list(record.scores)
    winners = set(record.outcome["winners"])
    assert {i for i, p in enumerate(data["players"]) if p["winner"]} == winners
    for mine in data["players"]:
        beaten_by = [p for p in data["players"] if p["winner"] > mine["winner"] or (
            p["winner"] == mine["winner"] and p["score"] > mine["score"])]
        assert mine["rank"] == 1 + len(beaten_by)
    first = next(e.seat for e in events if e.turn >= 1 and e.seat is not None)
    assert [p["startPlayer"] for p in data["players"]] == [i == first
                                                          for i in range(len(players))]
    assert record.outcome["reason"] in data["comments"]
    option, value = next(iter(options.items()))
    assert f"{option} {value}" in data["comments"]
    assert data.get("board") == ("Board B" if game == "board-horde" else None)
    export = watcher.get(f"/api/games/{game_id}/export.bgstats.json")
    assert export.json == data and "attachment" in export.headers["Content-Disposition"]
    page = watcher.get(f"/games/{game_id}").text
    assert f"/games/{game_id}/bgstats" in page and "Send to BG Stats" in page


def test_a_game_with_a_bgg_id_sends_it(table, watcher, monkeypatch):
    game_id = finish(table, "monstrous-horde", ["Ann", "Bob"], {"target": 20}, 4)
    monkeypatch.setattr(get_game("monstrous-horde"), "bgg_id", 123456)
    assert sent(watcher, game_id)["game"]["bggId"] == 123456


def test_a_game_still_in_play_is_not_a_play_to_send(table, watcher, player):
    game_id = table.new_game("monstrous-horde", ["Ann", "Bob"])
    assert watcher.get(f"/api/games/{game_id}/export.bgstats.json").status_code == 409
    assert "not finished" in watcher.get(f"/games/{game_id}/bgstats").text
    assert "Send to BG Stats" not in watcher.get(f"/games/{game_id}").text


def test_sending_a_play_writes_nothing_and_works_from_a_history_that_takes_no_writes(
        table, watcher, monkeypatch):
    game_id = finish(table, "monstrous-horde", ["Ann", "Bob"], {"target": 20}, 6)

    def refused(*args, **kwargs):
        raise HistoryError("could not write the history: attempt to write a readonly database")

    monkeypatch.setattr(table.history, "_write", refused)  # as on a read-only card
    first = sent(watcher, game_id)
    assert sent(watcher, game_id) == first  # the same play, not a new one each time
