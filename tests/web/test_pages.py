"""Pages, the PIN hand-over (panel, QR link), and the live stream."""

from __future__ import annotations

import json
import threading

from panel_support import GAME, PIN, PLAYERS, roll_text

from companion.web.plain_words import for_players

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures


def test_pages_render_and_link_their_local_scripts(watcher, player, table):
    player.post("/api/games", json={"game": GAME, "players": PLAYERS})
    for path, script in [("/", "table.js"), ("/new", "new.js"), ("/games", "games.js"),
                         (f"/games/{table.game_id}", "history.js")]:
        page = watcher.get(path)
        assert page.status_code == 200 and f"/static/{script}" in page.text
        assert "http" not in page.text.split("<main>")[0].replace("http-equiv", "")  # no CDN
        assert watcher.get(f"/static/{script}").status_code == 200
    assert 'data-can-act="no"' in watcher.get("/").text
    assert 'href="/api/dice-photos.zip"' in watcher.get("/games").text
    assert 'data-can-act="yes"' in player.get("/").text
    missing = watcher.get("/games/999", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and "no game 999" in missing.text


def test_the_panel_shows_pin_and_qr_only_on_the_table_itself(app, watcher):
    panel = watcher.get("/panel")
    assert panel.status_code == 200 and PIN in panel.text and "<svg" in panel.text
    assert f"/join#pin={PIN}" in panel.text and "?pin=" not in panel.text
    phone = app.test_client()
    refused = phone.get("/panel", environ_base={"REMOTE_ADDR": "192.168.1.40"})
    assert refused.status_code == 403 and PIN not in refused.text


def test_the_qr_link_is_a_page_that_hands_the_pin_over_itself(watcher):
    # /join#pin=NNNN: the fragment never reaches the server; join.js posts it to /api/pin.
    page = watcher.get("/join")
    assert page.status_code == 200 and "join.js" in page.text
    assert watcher.get(f"/join?pin={PIN}").status_code == 200  # a PIN in the query does nothing
    assert watcher.get("/api/access").json == {"can_act": False}


def test_the_stream_sends_the_state_then_every_change(app, player, table):
    player.post("/api/games", json={"game": GAME, "players": PLAYERS})
    stream = app.test_client().get("/events", buffered=False)
    assert stream.mimetype == "text/event-stream"
    chunks = iter(stream.response)
    assert next(chunks).decode() == "retry: 1000\n\n"
    first = next(chunks).decode()
    version = json.loads(first.split("data: ", 1)[1])["version"]
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(next(chunks).decode()))
    reader.start()
    player.post("/api/roll", json={"roll": roll_text(table.snapshot())})
    reader.join(5)
    assert got and got[0].startswith(f"id: {version + 1}\nevent: state\n")
    assert json.loads(got[0].split("data: ", 1)[1]) == for_players(table.snapshot())
    stream.close()


def test_the_stream_keeps_a_quiet_connection_alive(table):
    from companion.web import create_app

    app = create_app({"TESTING": True, "TABLE": table, "PIN": PIN, "SSE_HEARTBEAT": 0.05})
    chunks = iter(app.test_client().get("/events", buffered=False).response)
    next(chunks), next(chunks)
    assert next(chunks) == b": still here\n\n"


def test_every_api_route_is_documented(app):
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    routes = {rule.rule.replace("<id:game_id>", "<id>").replace("<id:event_id>", "<event>")
              .replace("<int:die>", "<die>")
              for rule in app.url_map.iter_rules() if rule.rule.startswith(("/api", "/events"))}
    assert routes and not {r for r in routes if f"`GET {r}" not in doc
                           and f"`POST {r}" not in doc}


def test_the_qr_code_points_phones_at_the_public_address_when_one_is_set(table):
    from companion.web import create_app

    app = create_app({"TABLE": table, "PIN": PIN, "PUBLIC_URL": "http://dice.local:8000/"})
    assert "http://dice.local:8000/join#pin=2468" in app.test_client().get("/panel").text


def test_pin_and_unlocked_phones_survive_a_restart_of_the_table(tmp_path):
    from companion.history import History
    from companion.table import TableSession
    from companion.web import create_app

    def start():
        return create_app({"TABLE": TableSession(History(tmp_path / "restart.db"))})

    first = start()
    pin = first.extensions["rollscribe"].pin
    assert len(pin) == 4 and pin.isdigit()
    phone = first.test_client()
    assert phone.post("/api/pin", json={"pin": pin}).status_code == 200
    second = start()
    assert second.extensions["rollscribe"].pin == pin
    cookie = phone.get_cookie("session")
    again = second.test_client()
    again.set_cookie("session", cookie.value)
    assert again.get("/api/access").json == {"can_act": True}
