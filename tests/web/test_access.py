"""Who may act: a PIN that holds against many addresses, a cookie that carries no PIN, a PIN
kept out of the logs, actions only from the panel's own pages, and taps that mean what the
phone showed (a stale version is refused, never applied twice)."""

from __future__ import annotations

import itertools
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


def test_two_taps_of_undo_showing_one_version_undo_one_step(started, table):
    import random

    from table_support import play, seat_to_move

    table.type_roll(LINE_UP.text())
    snap = play(table, random.Random(3), seat_to_move)
    started.post("/api/move", json={"move": snap["moves"][0]["move"], "version": snap["version"]})
    shown = started.get("/api/state").json["version"]
    first = started.post("/api/undo", json={"version": shown})
    second = started.post("/api/undo", json={"version": shown})
    assert first.status_code == 200
    assert second.status_code == 409 and "changed since your phone showed it" in second.json["error"]
    assert [e.kind.value for e in table.history.events(table.game_id)].count("undo") == 1


def test_simultaneous_taps_act_once(started, app, table):
    import random

    from table_support import play

    table.type_roll(LINE_UP.text())
    play(table, random.Random(4), lambda s: len(table.history.events(table.game_id)) >= 10)
    before = len(table.history.events(table.game_id))
    shown = table.version
    answers: list[int] = []
    barrier = threading.Barrier(8)

    def tap() -> None:
        client = app.test_client()
        client.post("/api/pin", json={"pin": PIN})
        barrier.wait()
        answers.append(client.post("/api/undo", json={"version": shown}).status_code)

    threads = [threading.Thread(target=tap) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(answers) == [200] + [409] * 7
    events = table.history.events(table.game_id)
    assert len(events) == before + 1 and events[-1].kind.value == "undo"


@pytest.mark.parametrize(("path", "body"), [
    ("/api/roll", {"roll": "d20=1 d20=2 d20=3 d20=4"}), ("/api/move", {"move": "end"}),
    ("/api/correct", {"index": 0, "value": 3}), ("/api/confirm", {}), ("/api/read", {}),
    ("/api/games", {"game": GAME, "players": PLAYERS}), ("/api/end-turn", {}),
    ("/api/discard", {}), ("/api/undo", {}), ("/api/undo-turn", {})])
def test_every_action_refuses_a_stale_version(started, table, path, body):
    before = table.history.events(table.game_id)
    answer = started.post(path, json={**body, "version": table.version - 1})
    assert answer.status_code == 409 and "changed" in answer.json["error"]
    assert started.post(path, json={**body, "version": "7"}).status_code == 400
    assert table.history.events(table.game_id) == before


def test_the_stream_sends_each_version_once(app, started, table):
    from companion.web import create_app

    quick = create_app({"TESTING": True, "TABLE": table, "PIN": PIN, "SSE_HEARTBEAT": 0.05})
    real = table.snapshot
    changed = []

    def snapshot_after_a_change():  # a change lands between reading the version and the snapshot
        if not changed:
            changed.append(table.version)
            table.type_roll(roll_text(real()))
        return real()

    table.snapshot = snapshot_after_a_change
    chunks = iter(quick.test_client().get("/events", buffered=False).response)
    assert next(chunks) == b"retry: 1000\n\n"
    first = next(chunks).decode()
    assert json.loads(first.split("data: ", 1)[1])["version"] == changed[0] + 1
    assert next(chunks) == b": still here\n\n"  # not the same version a second time


def test_the_cookie_holds_a_session_not_the_pin(app, player):
    cookie = player.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    data = app.session_interface.get_signing_serializer(app).loads(cookie)
    assert PIN not in json.dumps(data) and "pin" not in data
    assert player.get("/api/access").json == {"can_act": True}
    other = app.test_client()
    other.post("/api/pin", json={"pin": PIN})
    theirs = app.session_interface.get_signing_serializer(app).loads(
        other.get_cookie(app.config["SESSION_COOKIE_NAME"]).value)
    assert theirs["sid"] != data["sid"]  # one session per phone


def test_a_session_ends_when_the_pin_changes(tmp_path, table):
    from companion.web import create_app

    first = create_app({"TABLE": table, "PIN": PIN, "SECRET_KEY": "k"})
    phone = first.test_client()
    phone.post("/api/pin", json={"pin": PIN})
    cookie = phone.get_cookie(first.config["SESSION_COOKIE_NAME"]).value
    again = create_app({"TABLE": table, "PIN": "97531", "SECRET_KEY": "k"}).test_client()
    again.set_cookie(first.config["SESSION_COOKIE_NAME"], cookie)
    assert again.get("/api/access").json == {"can_act": False}


def test_many_addresses_cannot_guess_the_pin_in_an_evening(app):
    guard = app.extensions["rollscribe"].guard
    now = [0.0]
    guard.clock = lambda: now[0]
    phone = app.test_client()
    checked = 0
    wrong = itertools.cycle([f"{n:04d}" for n in range(10_000) if f"{n:04d}" != PIN])
    for step in range(100):  # 100 addresses, each trying as fast as it is let, for ten minutes
        now[0] = step * 6.0
        for host in range(100):
            answer = phone.post("/api/pin", json={"pin": next(wrong)},
                                environ_base={"REMOTE_ADDR": f"10.0.1.{host}"})
            checked += answer.status_code == 403
    assert checked <= guard.table_wrong + 100  # was 100 addresses x 5 tries every 30 s: 10,000
    fresh = app.test_client().post("/api/pin", json={"pin": PIN},
                                   environ_base={"REMOTE_ADDR": "10.0.2.1"})
    assert fresh.status_code == 200  # the right PIN from a phone that never guessed still joins
    locked = phone.post("/api/pin", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "10.0.1.7"})
    assert locked.status_code == 429 and "at this table" in locked.json["error"]


def test_a_longer_pin_can_be_asked_for(table):
    from companion.web import create_app

    app = create_app({"TABLE": table, "PIN_DIGITS": 8})
    pin = app.extensions["rollscribe"].pin
    assert len(pin) == 8 and pin.isdigit()
    assert create_app({"TABLE": table, "PIN_DIGITS": 8}).extensions["rollscribe"].pin == pin
    with pytest.raises(ValueError, match="4 to 12 digits"):
        create_app({"TABLE": table, "PIN_DIGITS": 3})
