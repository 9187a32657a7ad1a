"""The table's network settings: what is accepted, how they are kept, the Wi-Fi QR code, and how
the join link chooses between rollscribe.local and an address."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.network import (
    ALPHABET,
    MdnsName,
    Network,
    NetworkError,
    WifiSettings,
    load_settings,
    network_status,
    new_access_point,
    panel_base,
    save_settings,
    wifi_qr_payload,
)
from companion.web.qr import qr_matrix


def decode(text: str) -> str:
    dark = np.pad(np.array(qr_matrix(text, "L"), dtype=np.uint8), 4)
    picture = np.kron((1 - dark) * 255, np.ones((6, 6))).astype(np.uint8)
    return cv2.QRCodeDetector().detectAndDecode(picture)[0]


@pytest.mark.parametrize(("ssid", "password"), [
    ("", "12345678"), ("x" * 33, "12345678"), ("é" * 17, "12345678"),  # 34 bytes
    ("line\nbreak", "12345678"), ("nul\x00", "12345678"), (" padded", "12345678"),
    ("Cafe", "short"), ("Cafe", "x" * 64), ("Cafe", "tab\there1"), ("Cafe", "ünïcode!!"),
])
def test_names_and_passwords_that_wpa2_or_networkmanager_refuse_are_refused(ssid, password):
    with pytest.raises(NetworkError):
        Network(ssid, password)


def test_settings_read_back_as_saved_and_only_their_owner_can_read_them(tmp_path: Path):
    path = tmp_path / "wifi.json"
    assert load_settings(path) == WifiSettings()  # nothing saved: no Wi-Fi of its own
    settings = WifiSettings(Network("Rollscribe-AB12", "abcd-efgh-jkmn"),
                            (Network("Café ;Net", 'pa\\ss;wo"rd'), Network("Open")))
    save_settings(path, settings)
    assert load_settings(path) == settings
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.parametrize("text", [
    "[]", '{"known": {}}', '{"known": [{"ssid": "x", "password": "y", "extra": 1}]}',
    '{"known": [{"ssid": "bad\\nname"}]}', '{"interface": "wlan0; rm -rf /"}', "{not json",
])
def test_a_damaged_or_hostile_file_is_refused_whole(tmp_path: Path, text: str):
    # root applies what the service user wrote: nothing odd may reach NetworkManager
    path = tmp_path / "wifi.json"
    path.write_text(text)
    with pytest.raises(NetworkError):
        load_settings(path)


def test_known_networks_are_kept_most_recent_first_and_can_be_forgotten():
    settings = WifiSettings().joining(Network("Club", "12345678")).joining(Network("Pub"))
    assert [n.ssid for n in settings.known] == ["Pub", "Club"]
    again = settings.joining(Network("Club", "87654321"))
    assert [(n.ssid, n.password) for n in again.known] == [("Club", "87654321"), ("Pub", "")]
    assert [n.ssid for n in again.forgetting("Pub").known] == ["Club"]
    with pytest.raises(NetworkError, match="no known network"):
        again.forgetting("Elsewhere")


def test_each_table_gets_its_own_name_and_an_unguessable_password():
    made = [new_access_point() for _ in range(20)]
    assert len({ap.ssid for ap in made}) > 15 and len({ap.password for ap in made}) == 20
    for ap in made:
        assert ap.ssid.startswith("Rollscribe-") and len(ap.ssid) == 15
        assert len(ap.password.replace("-", "")) == 12
        assert set(ap.password.replace("-", "")) <= set(ALPHABET)


@pytest.mark.parametrize("network", [
    Network("Rollscribe-AB12", "abcd-efgh-jkmn"),
    Network("Café ;Net", 'pa\\ss;wo:rd,"x"'),
    Network("x" * 32, "~" * 63),
    Network("Open Table"),
])
def test_the_wifi_qr_code_decodes_to_the_join_text_phones_understand(network):
    text = wifi_qr_payload(network)
    assert decode(text) == text
    if network.password:
        assert text.startswith("WIFI:T:WPA;S:") and text.endswith(";;")
    else:
        assert text == f"WIFI:T:nopass;S:{network.ssid};;"
    # every special character is escaped, so the fields split back exactly
    fields, part, escaped = [], "", False
    for c in text[5:]:
        if escaped or c not in "\\;":
            part, escaped = part + c, False
        elif c == "\\":
            escaped = True
        else:
            fields.append(part)
            part = ""
    found = dict(f.split(":", 1) for f in fields if f)
    assert found["S"] == network.ssid and found.get("P", "") == network.password


def test_the_mdns_answer_is_asked_at_most_once_a_minute():
    asked: list[str] = []
    now = [0.0]
    name = MdnsName("rollscribe.local", lambda n: asked.append(n) or True, clock=lambda: now[0])
    assert name.up() and name.up() and asked == ["rollscribe.local"]
    now[0] = 61.0
    assert name.up() and len(asked) == 2


def test_phones_are_sent_to_the_name_while_mdns_answers_else_to_an_address():
    up = MdnsName("rollscribe.local", lambda n: True)
    down = MdnsName("rollscribe.local", lambda n: False)
    assert panel_base(None, 80, up) == "http://rollscribe.local"
    assert panel_base(None, 8000, up) == "http://rollscribe.local:8000"
    assert panel_base(None, 8000, down).startswith("http://")
    assert "rollscribe.local" not in panel_base(None, 8000, down)
    assert panel_base("http://table.example/", 80, up) == "http://table.example"


@pytest.mark.parametrize(("active", "mode", "ssid"), [
    ("rollscribe-ap:802-11-wireless\nlo:loopback\n", "access point", "Rollscribe-AB12"),
    ("rollscribe-known-1:802-11-wireless\n", "client", "rollscribe-known-1"),
    ("Wired connection 1:802-3-ethernet\n", "client", "wired (Wired connection 1)"),
    ("", "unknown", ""),
])
def test_the_mode_is_read_from_what_networkmanager_has_up(tmp_path, active, mode, ssid):
    nmcli = tmp_path / "nmcli"
    (tmp_path / "out").write_text(active)
    nmcli.write_text(f"#!/bin/sh\ncat {tmp_path / 'out'}\n")
    nmcli.chmod(0o755)
    settings = WifiSettings(Network("Rollscribe-AB12", "abcd-efgh-jkmn"))
    status = network_status(settings, str(nmcli))
    assert (status.mode, status.ssid) == (mode, ssid)
    assert (status.why == "no connection is up") == (mode == "unknown")


def test_a_networkmanager_that_is_not_running_is_said_so(tmp_path):
    nmcli = tmp_path / "nmcli"
    nmcli.write_text("#!/bin/sh\necho 'Error: NetworkManager is not running.' >&2\nexit 8\n")
    nmcli.chmod(0o755)
    status = network_status(WifiSettings(), str(nmcli))
    assert (status.mode, status.why) == ("unknown", "NetworkManager is not running")


def test_the_wifi_command_sets_up_joins_forgets_and_shows(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    assert main(["wifi", "setup", "--db", db]) == 0
    first = load_settings(tmp_path / "wifi.json").access_point
    assert main(["wifi", "setup", "--db", db]) == 0  # a reinstall keeps the password
    assert load_settings(tmp_path / "wifi.json").access_point == first
    assert main(["wifi", "join", "Club", "--password", "12345678", "--db", db]) == 0
    assert main(["wifi", "join", "Pub", "--open", "--db", db]) == 0
    assert main(["wifi", "join", "Bad", "--password", "short", "--db", db]) == 1
    assert main(["wifi", "forget", "Pub", "--db", db]) == 0
    saved = json.loads((tmp_path / "wifi.json").read_text())
    assert [n["ssid"] for n in saved["known"]] == ["Club"]
    capsys.readouterr()
    assert main(["wifi", "show", "--db", db]) == 0
    out = capsys.readouterr().out
    assert first is not None and first.ssid in out and first.password in out and "Club" in out
    assert main(["wifi", "setup", "--new-password", "--db", db]) == 0
    assert load_settings(tmp_path / "wifi.json").access_point != first
