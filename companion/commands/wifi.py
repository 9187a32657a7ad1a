"""`rollscribe wifi`: the table's own Wi-Fi network and the networks it joins instead.

  rollscribe wifi show                   the network phones join, its password and QR code
  rollscribe wifi setup [--new-password] make the table's own network (kept if it exists)
  rollscribe wifi join SSID [--password P]   join SSID instead when it is in range (asks for
                                         the password when not given; --open for none)
  rollscribe wifi forget SSID
  rollscribe wifi apply [--dry-run]      (root) write NetworkManager's connections and bring up
                                         the best one: a known network in range, else the
                                         table's own; --dry-run prints it all and changes nothing

The settings live in wifi.json beside the history database (--db). firmware/install.sh runs
`setup` and `apply`; the rollscribe-wifi units run `apply` at boot and after each change.
Exit codes: 0 done, 1 refused (bad name or password, not root, NetworkManager failed).
"""

from __future__ import annotations

import argparse
import getpass
import tempfile
from pathlib import Path
from typing import Any

from companion.commands import documented_parser
from companion.network import (
    Network,
    NetworkError,
    WifiSettings,
    load_settings,
    new_access_point,
    save_settings,
    settings_path,
    wifi_qr_payload,
)

DB = "var/rollscribe.db"  # the same default as `rollscribe serve`


def register(sub: Any) -> None:
    parser = documented_parser(sub, "wifi", "the table's own Wi-Fi and known networks", __doc__)
    parser.add_argument("action", choices=("show", "setup", "join", "forget", "apply"))
    parser.add_argument("ssid", nargs="?", help="the network, for join and forget")
    parser.add_argument("--db", default=DB, metavar="PATH",
                        help="history database; wifi.json lies beside it (default %(default)s)")
    parser.add_argument("--password", help="for join (asked when missing)")
    parser.add_argument("--open", action="store_true", help="join: a network with no password")
    parser.add_argument("--new-password", action="store_true",
                        help="setup: a new name and password for the table's own network")
    parser.add_argument("--nm-dir", type=Path, metavar="DIR",
                        help="apply: NetworkManager's keyfile folder (default its own)")
    parser.add_argument("--dry-run", action="store_true", help="apply: print, change nothing")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = settings_path(args.db)
    try:
        settings = load_settings(path)
        if args.action == "show":
            return show(settings)
        if args.action == "apply":
            return apply(settings, args)
        changed = change(settings, args)
    except (NetworkError, OSError, RuntimeError) as exc:
        print(f"rollscribe wifi: {exc}")
        return 1
    save_settings(path, changed)
    print(f"saved {path}; `sudo rollscribe wifi apply` (or a reboot) puts it in use")
    return 0


def change(settings: WifiSettings, args: argparse.Namespace) -> WifiSettings:
    if args.action == "setup":
        if settings.access_point and not args.new_password:
            print(f"keeping the table's network {settings.access_point.ssid}")
            return settings
        return WifiSettings(new_access_point(), settings.known, settings.interface)
    if not args.ssid:
        raise NetworkError(f"say which network to {args.action}")
    if args.action == "forget":
        return settings.forgetting(args.ssid)
    password = "" if args.open else args.password
    if password is None:
        password = getpass.getpass(f"password of {args.ssid}: ")
    return settings.joining(Network(args.ssid, password))


def show(settings: WifiSettings) -> int:
    from companion.web.qr import qr_text

    for i, network in enumerate(settings.known, 1):
        print(f"known network {i}: {network.ssid}")
    ap = settings.access_point
    if ap is None:
        print("the table has no Wi-Fi of its own: `sudo rollscribe wifi setup`")
        return 0
    print(f"the table's own network: {ap.ssid}   password: {ap.password}")
    print(qr_text(wifi_qr_payload(ap), level="L"))
    return 0


def apply(settings: WifiSettings, args: argparse.Namespace) -> int:
    from firmware import wifi

    if not args.dry_run:
        choice = wifi.apply(settings, nm_dir=args.nm_dir or wifi.NM_DIR)
    else:  # the same steps, with the files kept aside and the commands printed, not run
        def echo(argv: list[str]) -> str:
            print("would run:", " ".join(argv))
            return ""

        with tempfile.TemporaryDirectory() as aside:
            choice = wifi.apply(settings, run=echo, nm_dir=Path(aside))
            for keyfile in sorted(Path(aside).iterdir()):
                print(f"# would write {wifi.NM_DIR / keyfile.name}\n{keyfile.read_text()}")
    print(f"up: {choice.mode} {choice.ssid}" if choice else "no network configured")
    return 0
