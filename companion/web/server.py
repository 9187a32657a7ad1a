"""The panel's production server: waitress (pure Python, runs on the Pi), not Werkzeug's
development server, which Flask's documentation says never to run for real.

Every phone keeps one server-sent-events stream open, and waitress gives each open stream a
thread of its pool for as long as it lasts (SSE_MAX_SECONDS, then the phone reconnects). The
streams are bounded (companion.web.streams: STREAMS in all, a few per address) and the pool has
RESERVED threads more, so page loads and actions always find a worker, whatever the streams do;
past that, requests wait their turn rather than the Pi running out of memory.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.web.limits import largest_body
from companion.web.streams import STREAMS

PHONES = STREAMS  # streams that must all get every change (measured in bench/panel_bench.py)
RESERVED = 14  # threads no stream can take: page loads, API calls, the table's own screen
THREADS = STREAMS + RESERVED
CONNECTIONS = 200  # open sockets before new ones are refused (idle keep-alives included)
IDLE_SECONDS = 60  # a connection silent this long is closed (streams speak every 15 s)
MAX_HEADERS = 16 * 1024


def make_server(app: Flask, host: str, port: int) -> Any:
    """A waitress server for `app` on host:port (0: any free port; `.effective_port` says
    which), with bounded threads, connections, idle time and request sizes (a body up to the
    largest any route takes; each route refuses past its own, companion.web.limits). `.run()`
    serves until the process ends; `stop` ends it from another thread."""
    from waitress import create_server

    return create_server(app, host=host, port=port, threads=THREADS,
                         connection_limit=CONNECTIONS, channel_timeout=IDLE_SECONDS,
                         max_request_body_size=largest_body(app),
                         max_request_header_size=MAX_HEADERS,
                         ident="rollscribe", clear_untrusted_proxy_headers=True,
                         channel_request_lookahead=1)  # notices a phone gone mid-stream


def stop(server: Any) -> None:
    """End a server that runs in another thread: every socket it holds (kept in its `_map`) is
    closed, so its loop returns, and its worker threads are let go. Closing the listening socket
    alone leaves the loop polling the numbers of closed sockets, which the next server in the
    same process is handed again."""
    from waitress import wasyncore

    # done by the loop's own thread (its trigger runs the closing there), never under its select
    try:
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    except OSError:  # the trigger's pipe is gone already (seen once in a test run): close here
        wasyncore.close_all(server._map)
    server.task_dispatcher.shutdown(timeout=5)
