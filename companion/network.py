"""The table's network as players meet it: its own Wi-Fi (name, password, the QR code phones
join from), the known networks it joins instead when one is in range, and how phones find the
panel (rollscribe.local over mDNS, else an address).

The settings live in `wifi.json` beside the history database: the panel (running as the service
user) writes the player's choices there, and root's `rollscribe wifi apply` turns them into
NetworkManager connections (firmware/wifi.py). Everything read from the file is checked again
here, because root acts on what the service user wrote.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FILE_NAME = "wifi.json"
INTERFACE = "wlan0"
AP_CONNECTION = "rollscribe-ap"  # NetworkManager's name for the table's own network
KNOWN_PREFIX = "rollscribe-known-"  # ... and for the networks it joins instead
# Lower case and digits without look-alikes (0/o, 1/l/i), so a password read off the screen is
# typed right: 12 of 31 symbols is 59 bits, out of reach of guessing a captured handshake.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address


class NetworkError(ValueError):
    """A network name or password that NetworkManager (or WPA2) would refuse."""


@dataclass(frozen=True)
class Network:
    """A Wi-Fi network: its name and WPA2 passphrase (empty for an open network)."""

    ssid: str
    password: str = ""

    def __post_init__(self) -> None:
        check_ssid(self.ssid)
        if self.password:
            check_password(self.password)

    def to_json(self) -> dict[str, str]:
        return {"ssid": self.ssid, "password": self.password}


@dataclass(frozen=True)
class WifiSettings:
    """The table's own network (None: it never makes one) and the networks it joins instead,
    most preferred first."""

    access_point: Network | None = None
    known: tuple[Network, ...] = ()
    interface: str = INTERFACE

    @classmethod
    def from_json(cls, data: Any) -> WifiSettings:
        if not isinstance(data, dict):
            raise NetworkError("the Wi-Fi settings are not a JSON object")
        try:
            ap = data.get("access_point")
            known = data.get("known", [])
            interface = data.get("interface", INTERFACE)
            if not isinstance(known, list) or not isinstance(interface, str) \
                    or not interface.isalnum():
                raise NetworkError("'known' must be a list and 'interface' a device name")
            return cls(Network(**ap) if ap is not None else None,
                       tuple(Network(**n) for n in known), interface)
        except TypeError as exc:
            raise NetworkError(f"the Wi-Fi settings are malformed: {exc}") from exc

    def to_json(self) -> dict[str, Any]:
        return {"access_point": self.access_point.to_json() if self.access_point else None,
                "known": [n.to_json() for n in self.known], "interface": self.interface}

    def joining(self, network: Network) -> WifiSettings:
        """These settings with `network` known (replacing one of the same name), first."""
        rest = tuple(n for n in self.known if n.ssid != network.ssid)
        return WifiSettings(self.access_point, (network, *rest), self.interface)

    def forgetting(self, ssid: str) -> WifiSettings:
        if all(n.ssid != ssid for n in self.known):
            raise NetworkError(f"no known network is called {ssid!r}")
        return WifiSettings(self.access_point, tuple(n for n in self.known if n.ssid != ssid),
                            self.interface)


def check_ssid(ssid: object) -> None:
    if not isinstance(ssid, str) or not 1 <= len(ssid.encode()) <= 32:
        raise NetworkError("a network name is 1 to 32 bytes long")
    if any(ord(c) < 32 or ord(c) == 127 for c in ssid) or ssid != ssid.strip():
        raise NetworkError("a network name may not hold control characters or start or end "
                           "with a space")


def check_password(password: object) -> None:
    if not isinstance(password, str) or not 8 <= len(password) <= 63 \
            or any(not 32 <= ord(c) <= 126 for c in password):
        raise NetworkError("a WPA2 password is 8 to 63 plain characters (letters, digits, "
                           "punctuation)")


def new_access_point() -> Network:
    """A table-specific name and a random password, chosen once at install time."""
    tag = "".join(secrets.choice(ALPHABET) for _ in range(4)).upper()
    words = ["".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(3)]
    return Network(f"Rollscribe-{tag}", "-".join(words))


def settings_path(db_path: Path | str) -> Path:
    """Where a table keeps its Wi-Fi settings: beside its history database."""
    return Path(db_path).parent / FILE_NAME


def load_settings(path: Path) -> WifiSettings:
    """The saved settings; none saved yet reads as no Wi-Fi of its own."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return WifiSettings()
    try:
        return WifiSettings.from_json(json.loads(text))
    except json.JSONDecodeError as exc:
        raise NetworkError(f"{path} is not JSON: {exc}") from exc


def save_settings(path: Path, settings: WifiSettings) -> None:
    """Replace the file whole (written aside, then renamed), readable by its owner only: it
    holds passwords."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(settings.to_json(), out, indent=1)
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)


def wifi_qr_payload(network: Network) -> str:
    """The text of a Wi-Fi QR code that phones' camera apps offer to join."""

    def escape(text: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in text)

    if not network.password:
        return f"WIFI:T:nopass;S:{escape(network.ssid)};;"
    return f"WIFI:T:WPA;S:{escape(network.ssid)};P:{escape(network.password)};;"


# -- what the table's network is now ------------------------------------------------------


@dataclass(frozen=True)
class NetworkStatus:
    """What doctor and the panel say about the network: the mode NetworkManager has up."""

    mode: str  # "access point", "client", or "unknown" (see `why`)
    ssid: str = ""
    addresses: tuple[str, ...] = field(default_factory=tuple)
    why: str = ""  # why the mode is unknown


def network_status(settings: WifiSettings, nmcli: str | None = None) -> NetworkStatus:
    """Ask NetworkManager which of the table's connections is up (nothing is changed)."""
    addresses = tuple(local_addresses())
    nmcli = nmcli or shutil.which("nmcli")
    if nmcli is None:
        return NetworkStatus("unknown", "", addresses, "NetworkManager (nmcli) is not installed")
    try:
        out = subprocess.run([nmcli, "-t", "-f", "NAME,TYPE", "connection", "show", "--active"],
                             capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return NetworkStatus("unknown", "", addresses, "NetworkManager is not running")
    for line in out.splitlines():
        name, _, kind = line.rpartition(":")
        name = name.replace("\\:", ":")
        if name == AP_CONNECTION and settings.access_point:
            return NetworkStatus("access point", settings.access_point.ssid, addresses)
        if kind == "802-11-wireless" or name.startswith(KNOWN_PREFIX):
            return NetworkStatus("client", name, addresses)
        if kind == "802-3-ethernet":
            return NetworkStatus("client", f"wired ({name})", addresses)
    return NetworkStatus("unknown", "", addresses, "no connection is up")


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses, loopback left out (Linux; none elsewhere)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            if name == "lo":
                continue
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR,
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def mdns_name() -> str:
    """The name Avahi publishes for this machine (rollscribe.local on an installed table)."""
    return f"{socket.gethostname().split('.')[0]}.local"


def resolves(name: str, timeout: float = 1.5) -> bool:
    """Whether `name` resolves here, given at most `timeout` seconds (a resolver with no mDNS
    may otherwise wait on DNS for a long time)."""
    answer: list[bool] = []

    def look() -> None:
        try:
            answer.append(bool(socket.getaddrinfo(name, None, socket.AF_INET)))
        except OSError:
            answer.append(False)

    worker = threading.Thread(target=look, daemon=True)
    worker.start()
    worker.join(timeout)
    return bool(answer and answer[0])


class MdnsName:
    """This machine's mDNS name and whether it resolves, asked at most once a minute (the join
    link is drawn on every visit of the table's screen)."""

    def __init__(self, name: str | None = None, check: Callable[[str], bool] = resolves,
                 every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name or mdns_name()
        self._check, self._every, self._clock = check, every, clock
        self._known: tuple[float, bool] | None = None

    def up(self) -> bool:
        now = self._clock()
        if self._known is None or now - self._known[0] >= self._every:
            self._known = (now, self._check(self.name))
        return self._known[1]


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent: UDP connect only)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


ANY_ADDRESS = ("", "0.0.0.0", "::")  # a server listening on these answers on every address


def panel_base(public_url: str | None, port: int, mdns: MdnsName | None,
               listen: str = "") -> str:
    """The address phones open: the one configured, else the one address the server listens on
    (`listen`: serve's --host; it answers on no other), else rollscribe.local while mDNS answers
    for it, else this machine's LAN address."""
    if public_url:
        return public_url.rstrip("/")
    if listen not in ANY_ADDRESS:
        host = f"[{listen}]" if ":" in listen else listen
    else:
        host = mdns.name if mdns is not None and mdns.up() else lan_address()
    return f"http://{host}" + ("" if port == 80 else f":{port}")
