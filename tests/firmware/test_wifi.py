"""The Pi's Wi-Fi through NetworkManager, checked without a radio: the keyfiles written, the
nmcli commands run, the choice between a known network and the table's own, and NetworkManager's
own nmcli (Debian bookworm's, the Pi's version) reading the keyfiles back unchanged."""

from __future__ import annotations

import configparser
import os
import stat
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from companion.network import Network, WifiSettings
from firmware import wifi

ROOT = Path(__file__).resolve().parents[2]
NM_DEFAULTS = {"autoconnect": "true", "autoconnect-priority": "0"}
NMCLI = ROOT / ".venv" / "nm" / "usr" / "bin" / "nmcli"  # unpacked by `make tools`
AP = Network("Rollscribe-AB12", "abcd-efgh-jkmn")
SETTINGS = WifiSettings(AP, (Network("Club", "12345678"), Network("Café ;Net", 'pa\\ss;word!'),
                             Network("Open Pub")))


def parse(text: str) -> configparser.ConfigParser:
    keys = configparser.ConfigParser(interpolation=None)
    keys.optionxform = str  # type: ignore[assignment,method-assign]
    keys.read_string(text)
    return keys


class Radio:
    """Stands in for nmcli: records each command and answers a scan with `in_range`."""

    def __init__(self, in_range: list[str], scan_fails: bool = False) -> None:
        self.commands: list[list[str]] = []
        self.in_range, self.scan_fails = in_range, scan_fails

    def __call__(self, argv: list[str]) -> str:
        self.commands.append(argv)
        if "list" in argv:
            if self.scan_fails:
                raise RuntimeError("nmcli device wifi failed: no scan in AP mode")
            return "".join(s.replace("\\", "\\\\").replace(":", "\\:") + "\n"
                           for s in self.in_range)
        return ""


def test_the_access_point_shares_its_address_with_wpa2_only():
    ap = parse(wifi.keyfiles(SETTINGS)["rollscribe-ap.nmconnection"])
    assert ap["connection"]["id"] == "rollscribe-ap" and ap["connection"]["type"] == "wifi"
    assert ap["connection"]["interface-name"] == "wlan0"
    assert ap["wifi"]["mode"] == "ap" and ap["wifi"]["ssid"] == AP.ssid
    security = ap["wifi-security"]
    assert (security["key-mgmt"], security["proto"], security["pairwise"], security["group"]) \
        == ("wpa-psk", "rsn", "ccmp", "ccmp")
    assert security["psk"] == AP.password
    assert ap["ipv4"]["method"] == "shared" and ap["ipv4"]["address1"] == wifi.AP_ADDRESS


def test_known_networks_rank_above_the_access_point_in_the_players_order():
    files = wifi.keyfiles(SETTINGS)
    assert sorted(files) == ["rollscribe-ap.nmconnection", "rollscribe-known-1.nmconnection",
                             "rollscribe-known-2.nmconnection", "rollscribe-known-3.nmconnection"]
    priority = {name: int(parse(text)["connection"]["autoconnect-priority"])
                for name, text in files.items()}
    assert priority["rollscribe-known-1.nmconnection"] > priority[
        "rollscribe-known-2.nmconnection"] > priority["rollscribe-known-3.nmconnection"] \
        > priority["rollscribe-ap.nmconnection"]
    odd = parse(files["rollscribe-known-2.nmconnection"])
    # NetworkManager's own spelling of an SSID with odd characters: its bytes as a list
    assert odd["wifi"]["ssid"] == "".join(f"{b};" for b in "Café ;Net".encode())
    assert odd["wifi-security"]["psk"] == "pa\\\\ss;word!"
    assert odd["ipv4"]["method"] == "auto" and odd["wifi"]["mode"] == "infrastructure"
    assert "wifi-security" not in parse(files["rollscribe-known-3.nmconnection"])  # open


def test_keyfiles_are_written_for_root_alone_and_old_ones_removed(tmp_path):
    (tmp_path / "rollscribe-known-7.nmconnection").write_text("[connection]\n")
    (tmp_path / "home.nmconnection").write_text("[connection]\n")  # not the table's: kept
    written = wifi.install_keyfiles(SETTINGS, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["home.nmconnection", *wifi.keyfiles(SETTINGS)])
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in written)


@pytest.mark.parametrize(("in_range", "scan_fails", "mode", "up"), [
    (["Neighbour", "Café ;Net", "Club"], False, "client", "rollscribe-known-1"),
    (["Neighbour", "Café ;Net"], False, "client", "rollscribe-known-2"),
    (["Neighbour"], False, "access point", "rollscribe-ap"),
    ([], True, "access point", "rollscribe-ap"),
])
def test_apply_joins_the_first_known_network_in_range_else_makes_its_own(
        tmp_path, in_range, scan_fails, mode, up):
    radio = Radio(in_range, scan_fails)
    choice = wifi.apply(SETTINGS, radio, tmp_path)
    assert choice is not None and (choice.mode, choice.connection) == (mode, up)
    assert radio.commands[0] == ["nmcli", "connection", "reload"]
    # the radio cannot scan while it is the access point: that goes down before the scan
    assert radio.commands[1] == ["nmcli", "connection", "down", "id", "rollscribe-ap"]
    assert radio.commands[2][:6] == ["nmcli", "-t", "-f", "SSID", "device", "wifi"]
    assert radio.commands[-1] == ["nmcli", "connection", "up", "id", up]


def test_with_no_known_network_apply_brings_up_the_table_network_without_a_scan(tmp_path):
    radio = Radio([])
    choice = wifi.apply(WifiSettings(AP), radio, tmp_path)
    assert choice == wifi.Choice("access point", "rollscribe-ap", AP.ssid)
    assert radio.commands == [["nmcli", "connection", "reload"],
                              ["nmcli", "connection", "up", "id", "rollscribe-ap"]]
    assert wifi.apply(WifiSettings(), Radio([]), tmp_path) is None


def test_the_dry_run_prints_the_files_and_commands_and_changes_nothing(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    assert main(["wifi", "setup", "--db", db]) == 0
    assert main(["wifi", "apply", "--dry-run", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "would run: nmcli connection up id rollscribe-ap" in out
    assert "would write /etc/NetworkManager/system-connections/rollscribe-ap.nmconnection" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wifi.json"]


@pytest.mark.skipif(not NMCLI.exists(), reason="NetworkManager's nmcli is unpacked by make tools")
def test_networkmanager_reads_every_keyfile_back_as_written(tmp_path):
    libraries = ":".join(str(d) for d in (NMCLI.parents[1] / "lib").glob("*-linux-gnu*"))
    env = {**os.environ, "LD_LIBRARY_PATH": libraries}
    for name, text in wifi.keyfiles(SETTINGS).items():
        connection = parse(text)["connection"]["id"]
        done = subprocess.run([str(NMCLI), "--offline", "connection", "modify",
                               "connection.id", connection], input=text, capture_output=True,
                              text=True, timeout=30, check=False, env=env)
        assert done.returncode == 0, done.stderr
        ours, theirs = parse(text), parse(done.stdout)
        for section in ours.sections():
            for key, value in ours[section].items():
                read = theirs[section].get(key)  # NetworkManager leaves its defaults out
                read = NM_DEFAULTS.get(key) if read is None else read.rstrip(";")  # lists end ;
                assert read == value.rstrip(";"), (name, section, key, read)
