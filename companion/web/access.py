"""Who may act at the table: anyone may watch, only a phone that knows the table PIN may act.

The PIN is shown on the Pi's own panel page (loopback only) and carried by its QR code. A phone
proves it once (form or QR link) and keeps a session cookie; scripts send the X-Table-Pin header.
"""

from __future__ import annotations

import hmac
import socket
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import current_app, request, session
from werkzeug.exceptions import Forbidden

from companion.table import TableSession

LOOPBACK = frozenset({"127.0.0.1", "::1"})


@dataclass(frozen=True)
class Services:
    """What every view needs, hung on app.extensions["rollscribe"]."""

    table: TableSession
    pin: str
    public_url: str | None = None

    def pin_ok(self, given: object) -> bool:
        return isinstance(given, str) and hmac.compare_digest(given.strip(), self.pin)


def services() -> Services:
    return current_app.extensions["rollscribe"]


def can_act() -> bool:
    svc = services()
    return svc.pin_ok(session.get("pin")) or svc.pin_ok(request.headers.get("X-Table-Pin"))


def needs_pin(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse an action (403, nothing changed) from a phone that has not given the PIN."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not can_act():
            raise Forbidden("enter the table PIN (shown on the table's screen) to play")
        return view(*args, **kwargs)

    return wrapper


def is_local() -> bool:
    """True for the Pi's own screen: the only place the PIN itself is shown."""
    return request.remote_addr in LOOPBACK


def join_url() -> str:
    """The address phones should open: configured, else this machine's LAN address."""
    svc = services()
    base = svc.public_url or f"http://{lan_address()}:{request.environ.get('SERVER_PORT', 80)}"
    return f"{base.rstrip('/')}/join?pin={svc.pin}"


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent: UDP connect only)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
