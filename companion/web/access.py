"""Who may act at the table: anyone may watch, only a phone that knows the table PIN may act.

The PIN is shown on the Pi's own panel page (loopback only) and carried by its QR code. A phone
proves it once (form or QR link) and keeps a session cookie; scripts send the X-Table-Pin header.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, request, session
from werkzeug.exceptions import Forbidden, TooManyRequests

from companion.history import History
from companion.network import MdnsName, panel_base
from companion.table import TableSession

LOOPBACK = frozenset({"127.0.0.1", "::1"})


class PinGuard:
    """Makes guessing the PIN slow, from one address and from all of them together.

    After `max_wrong` wrong tries in a row from one address, that address waits `lock_seconds`.
    Once the table has seen `table_wrong` wrong tries within `table_window` seconds (from any
    addresses), an address that guessed wrong in that window may not try again until its wrong
    try leaves the window; an address that has not guessed wrong may still try, so a phone
    that scans the code (the right PIN) still gets in while guessing from many addresses
    stalls at about one try per address per window.
    """

    def __init__(self, max_wrong: int = 5, lock_seconds: float = 30.0, table_wrong: int = 30,
                 table_window: float = 600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_wrong = max_wrong
        self.lock_seconds = lock_seconds
        self.table_wrong = table_wrong
        self.table_window = table_window
        self.clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float]] = {}  # address -> (wrong tries, locked until)
        self._recent: deque[tuple[float, str]] = deque()  # the table's wrong tries: (when, who)

    def attempt(self, address: str, correct: bool) -> bool:
        """Record one try; raises TooManyRequests (429) while the address may not try."""
        with self._lock:
            now = self.clock()
            while self._recent and now - self._recent[0][0] >= self.table_window:
                self._recent.popleft()
            count, until = self._wrong.get(address, (0, 0.0))
            wait = until - now
            if wait > 0:
                raise TooManyRequests(f"too many wrong PINs: try again in {wait:.0f} s")
            if len(self._recent) >= self.table_wrong:
                mine = [when for when, who in self._recent if who == address]
                if mine:
                    wait = mine[-1] + self.table_window - now
                    raise TooManyRequests(
                        f"too many wrong PINs at this table: try again in {wait / 60:.0f} min,"
                        " or scan the code on the table's screen")
            if correct:
                self._wrong.pop(address, None)
                return True
            self._recent.append((now, address))
            if count + 1 >= self.max_wrong:
                self._wrong[address] = (0, now + self.lock_seconds)
            else:
                self._wrong[address] = (count + 1, 0.0)
            return False


@dataclass(frozen=True)
class Services:
    """What every view needs, hung on app.extensions["rollscribe"]."""

    table: TableSession
    pin: str
    public_url: str | None = None
    wifi_path: Path | None = None  # the table's Wi-Fi settings (companion.network)
    mdns: MdnsName | None = None  # None: never offer a .local name
    listen: str = ""  # the address the server listens on ("": every one)
    guard: PinGuard = field(default_factory=PinGuard)
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    def pin_ok(self, given: object) -> bool:
        return isinstance(given, str) and hmac.compare_digest(given.strip().encode(),
                                                              self.pin.encode())

    def try_pin(self, given: object) -> bool:
        """A PIN typed or scanned by a phone: checked, and counted against guessing."""
        return self.guard.attempt(request.remote_addr or "?", self.pin_ok(given))

    def _grant(self, sid: str) -> str:
        """Proof that session `sid` was given this table's current PIN (not the PIN itself)."""
        return hmac.new(self.key, f"{sid}:{self.pin}".encode(), hashlib.sha256).hexdigest()

    def admit(self) -> None:
        """Remember in this phone's cookie that it gave the PIN: a session id and its grant.
        The cookie is signed, not secret, so it never holds the PIN; a new PIN ends it."""
        sid = secrets.token_urlsafe(16)
        session.clear()
        session.update(sid=sid, grant=self._grant(sid))
        session.permanent = True

    def admitted(self) -> bool:
        sid, grant = session.get("sid"), session.get("grant")
        return (isinstance(sid, str) and isinstance(grant, str)
                and hmac.compare_digest(grant.encode(), self._grant(sid).encode()))


def kept_pin(history: History, digits: int) -> str:
    """The table's random PIN of `digits` (4-12) digits, made once and kept in the history
    database: phones stay unlocked across restarts, and `rollscribe pin` reads the same one."""
    if not 4 <= digits <= 12:
        raise ValueError(f"a table PIN has 4 to 12 digits, not {digits}")
    return history.setting("pin" if digits == 4 else f"pin-{digits}",
                           lambda: f"{secrets.randbelow(10**digits):0{digits}d}")


def services() -> Services:
    return current_app.extensions["rollscribe"]


def can_act() -> bool:
    svc = services()
    if svc.admitted():
        return True
    header = request.headers.get("X-Table-Pin")
    return header is not None and svc.try_pin(header)


def needs_pin(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse an action (403, nothing changed) from a phone that has not given the PIN."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not can_act():
            raise Forbidden("enter the table PIN (shown on the table's screen) to play")
        return view(*args, **kwargs)

    return wrapper


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def check_origin() -> None:
    """Refuse (403) a request that changes something when a page of another origin made the
    browser send it (another port of this host included): the cookie alone proves nothing.
    Browsers name the page's origin on every POST; a script sends none and needs the PIN."""
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    if origin is None:
        if request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none"):
            return
    else:
        allowed = {request.host}
        if services().public_url:
            allowed.add(urlsplit(services().public_url).netloc)
        if origin != "null" and urlsplit(origin).netloc in allowed:
            return
    raise Forbidden("this action came from another site's page: play from the table's own page")


def is_local() -> bool:
    """True for the Pi's own screen: the only place the PIN itself is shown."""
    return request.remote_addr in LOOPBACK


def join_url() -> str:
    """The link the join QR code carries (see companion.network.panel_base)."""
    svc = services()
    port = int(request.environ.get("SERVER_PORT", 80))
    return join_link(panel_base(svc.public_url, port, svc.mdns, svc.listen), svc.pin)


def join_link(base: str, pin: str) -> str:
    """The QR code's link: the PIN rides in the fragment, which browsers never send to the
    server, so it is in no request line and no log; the join page's script hands it over."""
    return f"{base.rstrip('/')}/join#pin={pin}"
