"""How many live streams the panel holds at once, per client address and in all.

Each open `GET /events` holds one of the server's worker threads for as long as it lasts, so an
unbounded number of them lets one client take every worker and freeze the pages and the API.
The gate admits at most PER_CLIENT streams from one address and STREAMS in all (the server
keeps more threads than that, companion.web.server); a stream over either bound is refused at
once (429 or 503, holding no worker), and the page's script tries again a second later.
"""

from __future__ import annotations

import threading
from collections import Counter

from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

STREAMS = 50  # a full table of phones, each with its stream (measured in bench/panel_bench.py)
PER_CLIENT = 4  # a phone's page, a second tab, a page being left while the next one opens


class StreamGate:
    """Counts the streams open per client address; `enter` before a stream, `leave` after."""

    def __init__(self, per_client: int = PER_CLIENT, total: int = STREAMS) -> None:
        self.per_client = per_client
        self.total = total
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def enter(self, client: str) -> None:
        """Admit one more stream from `client`, or refuse it (nothing is counted then)."""
        with self._lock:
            if self._open[client] >= self.per_client:
                raise TooManyRequests(f"this device has {self.per_client} live streams open"
                                      " already: close a tab of the panel")
            if self._open.total() >= self.total:
                raise ServiceUnavailable(f"the table serves {self.total} live streams at most"
                                         " and all are open: try again in a moment")
            self._open[client] += 1

    def leave(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]

    def open_streams(self) -> int:
        with self._lock:
            return self._open.total()
