"""The network on the panel: the Wi-Fi QR code on the table's own screen (its modules against
the encoder's, which test_qr.py decodes with OpenCV), the join link on rollscribe.local, and the known networks a player with the PIN chooses."""

from __future__ import annotations

import html
import re

import pytest
from panel_support import PIN

from companion.network import MdnsName, Network, WifiSettings, load_settings, save_settings
from companion.web import create_app
from companion.web.qr import qr_matrix

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures

AP = Network("Rollscribe-AB12", "abcd-efgh-jkmn")


def coded(page: str) -> list[str]:
    """The texts of the page's QR codes: each SVG's modules must be exactly qr_matrix of the
    Wi-Fi payload or of the join link the page prints (OpenCV's detector misses a few valid
    codes, and the join link holds this machine's address, so decoding would hang on it)."""
    link = html.unescape(re.search(r'<p class="url">(.*?)</p>', page).group(1))
    known = {"L": [f"WIFI:T:WPA;S:{AP.ssid};P:{AP.password};;"], "M": [link]}
    texts = []
    for svg in re.findall(r"<svg.*?</svg>", page):
        size = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
        dark = {(int(x) - 4, int(y) - 4) for x, y in re.findall(r"M(\d+),(\d+)h1v1h-1z", svg)}
        drawn = [[(x, y) in dark for x in range(size - 8)] for y in range(size - 8)]
        texts += [text for level, options in known.items() for text in options
                  if qr_matrix(text, level) == drawn]
    return texts


@pytest.fixture
def wifi_path(table):
    return table.history.path.parent / "wifi.json"


def test_the_tables_screen_shows_its_own_wifi_beside_the_join_code(watcher, wifi_path):
    assert "Join the Wi-Fi" not in watcher.get("/panel").text  # none set up: none shown
    save_settings(wifi_path, WifiSettings(AP))
    page = watcher.get("/panel").text
    wifi_code, join_code = coded(page)
    assert wifi_code == "WIFI:T:WPA;S:Rollscribe-AB12;P:abcd-efgh-jkmn;;"
    assert join_code.endswith(f"/join#pin={PIN}")
    assert AP.ssid in page and AP.password in page


def test_a_damaged_wifi_file_is_said_on_the_screen_which_still_works(watcher, wifi_path):
    wifi_path.write_text("{not json")
    page = watcher.get("/panel")
    assert page.status_code == 200 and "cannot be read" in page.text
    assert coded(page.text)[0].endswith(f"/join#pin={PIN}")


def test_the_join_code_carries_the_mdns_name_while_it_resolves(table):
    for answers, host in ((True, "http://rollscribe.local/join"), (False, "http://")):
        app = create_app({"TESTING": True, "TABLE": table, "PIN": PIN,
                          "MDNS": MdnsName("rollscribe.local", lambda n, a=answers: a)})
        code = coded(app.test_client().get(
            "/panel", environ_base={"SERVER_PORT": "80"}).text)[0]
        assert code.startswith(host) and ("rollscribe.local" in code) == answers
        assert code.endswith(f"/join#pin={PIN}")


def test_phones_see_the_network_but_never_a_password(watcher, wifi_path):
    save_settings(wifi_path, WifiSettings(AP, (Network("Club", "secret-club-pw"),)))
    seen = watcher.get("/api/network")
    assert seen.status_code == 200 and seen.json["known"] == ["Club"]
    assert seen.json["access_point"] == AP.ssid and "mode" in seen.json
    assert AP.password not in seen.text and "secret-club-pw" not in seen.text
    assert watcher.get("/network").status_code == 200


def test_a_player_with_the_pin_chooses_the_known_networks(watcher, player, wifi_path):
    save_settings(wifi_path, WifiSettings(AP))
    refused = watcher.post("/api/network/known", json={"ssid": "Club", "password": "12345678"})
    assert refused.status_code == 403 and load_settings(wifi_path).known == ()
    assert player.post("/api/network/known",
                       json={"ssid": "Club", "password": "12345678"}).json["known"] == ["Club"]
    assert player.post("/api/network/known", json={"ssid": "Pub"}).json["known"] == ["Pub", "Club"]
    bad = player.post("/api/network/known", json={"ssid": "Cafe", "password": "short"})
    assert bad.status_code == 400 and "8 to 63" in bad.json["error"]
    assert player.post("/api/network/known", json={"password": "12345678"}).status_code == 400
    assert player.post("/api/network/forget", json={"ssid": "Pub"}).json["known"] == ["Club"]
    assert player.post("/api/network/forget", json={"ssid": "Nowhere"}).status_code == 400
    saved = load_settings(wifi_path)
    assert saved.access_point == AP and saved.known == (Network("Club", "12345678"),)
