"""The Pi's Wi-Fi through NetworkManager (Raspberry Pi OS Bookworm's network stack): the table's
own network, and the known networks it joins instead when one is in range.

Run as root (`rollscribe wifi apply`, at boot and whenever the panel changes wifi.json): writes
one keyfile per connection into NetworkManager's folder, reloads them, scans, and brings up the
most preferred known network in range, else the table's own. NetworkManager's autoconnect
priorities say the same (known networks above the access point), so a plain reboot without
this command chooses alike. Every command goes through a `Runner`, so tests read the commands
and the files without touching a radio.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.network import AP_CONNECTION, KNOWN_PREFIX, Network, WifiSettings

NM_DIR = Path("/etc/NetworkManager/system-connections")
AP_ADDRESS = "10.42.0.1/24"  # NetworkManager's own choice for shared mode, made explicit
AP_PRIORITY = 0  # known networks rank 1 and up above it: NetworkManager joins the higher it can
SAFE_SSID = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.")

Runner = Callable[[list[str]], str]  # runs one command, answers its standard output


def run_command(argv: list[str]) -> str:
    """The real runner: fails loudly with the command's own words."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])} failed: {done.stderr.strip() or done.stdout}")
    return done.stdout


@dataclass(frozen=True)
class Choice:
    """What `apply` brought up."""

    mode: str  # "access point" or "client"
    connection: str
    ssid: str


def known_connection(index: int) -> str:
    return f"{KNOWN_PREFIX}{index + 1}"


def keyfiles(settings: WifiSettings) -> dict[str, str]:
    """NetworkManager keyfiles (name.nmconnection -> text) for every connection the settings
    describe."""
    files = {}
    if settings.access_point:
        files[f"{AP_CONNECTION}.nmconnection"] = keyfile(
            AP_CONNECTION, settings.access_point, settings.interface, AP_PRIORITY)
    for i, network in enumerate(settings.known):  # the player's order: first is preferred
        name = known_connection(i)
        files[f"{name}.nmconnection"] = keyfile(name, network, settings.interface,
                                                AP_PRIORITY + len(settings.known) - i)
    return files


def keyfile(name: str, network: Network, interface: str, priority: int) -> str:
    """One connection: the access point shares its address (NetworkManager's DHCP and DNS for
    the phones); a known network is joined as a client with DHCP. NetworkManager joins the
    connection of highest `priority` it can."""
    access_point = name == AP_CONNECTION
    sections = {
        "connection": {"id": name, "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, name)),
                       "type": "wifi", "interface-name": interface, "autoconnect": "true",
                       "autoconnect-priority": str(priority)},
        "wifi": {"mode": "ap" if access_point else "infrastructure",
                 "ssid": _ssid_value(network.ssid),
                 **({"band": "bg", "channel": "6"} if access_point else {})},
    }
    if network.password:
        sections["wifi-security"] = {"key-mgmt": "wpa-psk", "psk": _escape(network.password)}
        if access_point:  # WPA2 only: phones refuse nothing, and TKIP is long broken
            sections["wifi-security"].update(proto="rsn", pairwise="ccmp", group="ccmp")
    sections["ipv4"] = ({"method": "shared", "address1": AP_ADDRESS} if access_point
                        else {"method": "auto"})
    sections["ipv6"] = {"method": "disabled" if access_point else "auto"}
    return "\n".join(f"[{section}]\n" + "".join(f"{k}={v}\n" for k, v in keys.items())
                     for section, keys in sections.items())


def _ssid_value(ssid: str) -> str:
    """A plain name as itself; any other as NetworkManager's list of byte values, which needs no
    escaping at all."""
    if set(ssid) <= SAFE_SSID:
        return ssid
    return "".join(f"{byte};" for byte in ssid.encode())


def _escape(value: str) -> str:
    """A keyfile (GKeyFile) string: backslashes doubled, a leading space kept."""
    value = value.replace("\\", "\\\\")
    return "\\s" + value[1:] if value.startswith(" ") else value


def install_keyfiles(settings: WifiSettings, nm_dir: Path = NM_DIR) -> list[Path]:
    """Write the table's keyfiles (root only, mode 600 as NetworkManager insists) and remove the
    table's old ones that the settings no longer hold."""
    nm_dir.mkdir(parents=True, exist_ok=True)
    wanted = keyfiles(settings)
    for old in nm_dir.glob("rollscribe-*.nmconnection"):
        if old.name not in wanted:
            old.unlink()
    written = []
    for name, text in wanted.items():
        path = nm_dir / name
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.chmod(path, 0o600)  # an existing file keeps its mode through O_TRUNC
        written.append(path)
    return written


def ssids_in_range(run: Runner, interface: str) -> set[str]:
    """Networks a fresh scan sees (nmcli's terse output escapes ':' and '\\'). The radio cannot
    scan while it is the access point, so that is taken down first; a failed scan sees none."""
    with contextlib.suppress(RuntimeError):  # it was not up
        run(["nmcli", "connection", "down", "id", AP_CONNECTION])
    try:
        out = run(["nmcli", "-t", "-f", "SSID", "device", "wifi", "list", "ifname", interface,
                   "--rescan", "yes"])
    except RuntimeError:
        return set()
    return {line.replace("\\:", ":").replace("\\\\", "\\") for line in out.splitlines() if line}


def choose(settings: WifiSettings, in_range: set[str]) -> Choice | None:
    """The most preferred known network in range, else the table's own (None: neither)."""
    for i, network in enumerate(settings.known):
        if network.ssid in in_range:
            return Choice("client", known_connection(i), network.ssid)
    if settings.access_point:
        return Choice("access point", AP_CONNECTION, settings.access_point.ssid)
    return None


def apply(settings: WifiSettings, run: Runner = run_command, nm_dir: Path = NM_DIR) -> Choice | None:
    """Install the connections, then bring up the one `choose` picks."""
    install_keyfiles(settings, nm_dir)
    run(["nmcli", "connection", "reload"])
    in_range = ssids_in_range(run, settings.interface) if settings.known else set()
    choice = choose(settings, in_range)
    if choice is not None:
        run(["nmcli", "connection", "up", "id", choice.connection])
    return choice
