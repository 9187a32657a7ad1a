"""The table's network on the panel: how phones reach it now, and the known networks it joins
instead of making its own (chosen here by a player with the PIN). Saving wifi.json is all the
panel does; root's `rollscribe wifi apply` (started by the rollscribe-wifi.path unit when the
file changes) hands it to NetworkManager."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from companion.network import (
    Network,
    NetworkError,
    WifiSettings,
    load_settings,
    network_status,
    save_settings,
)
from companion.web.access import can_act, needs_pin, services
from companion.web.api import body, field

bp = Blueprint("network", __name__)


def settings() -> WifiSettings:
    path = services().wifi_path
    return load_settings(path) if path is not None else WifiSettings()


def view() -> dict[str, Any]:
    """What any phone may see: never a password (the table's own screen shows its own)."""
    saved = settings()
    status = network_status(saved)
    mdns = services().mdns
    return {"mode": status.mode, "ssid": status.ssid, "why": status.why,
            "addresses": list(status.addresses),
            "mdns": {"name": mdns.name, "up": mdns.up()} if mdns else None,
            "access_point": saved.access_point.ssid if saved.access_point else None,
            "known": [n.ssid for n in saved.known]}


def own_wifi() -> tuple[Network | None, str]:
    """The network to show on the table's screen for phones to join, and why there is none:
    the table's own, unless it has joined a known one instead."""
    try:
        saved = settings()
    except NetworkError as exc:
        return None, f"the Wi-Fi settings cannot be read: {exc}"
    if saved.access_point is None:
        return None, ""
    if network_status(saved).mode == "client":
        return None, "the table has joined a known network: phones join that one"
    return saved.access_point, ""


@bp.get("/network")
def page() -> str:
    return render_template("network.html", can_act=can_act(), page="games")


@bp.get("/api/network")
def state() -> Response:
    return jsonify(view())


@bp.post("/api/network/known")
@needs_pin
def join() -> Response:
    """Join this network instead of the table's own whenever it is in range (first choice)."""
    data = body()
    save(settings().joining(Network(field(data, "ssid", str).strip(), data.get("password") or "")))
    return jsonify(view())


@bp.post("/api/network/forget")
@needs_pin
def forget() -> Response:
    save(settings().forgetting(field(body(), "ssid", str)))
    return jsonify(view())


def save(changed: WifiSettings) -> None:
    path = services().wifi_path
    if path is None:
        raise NetworkError("this table keeps no Wi-Fi settings")
    save_settings(path, changed)
