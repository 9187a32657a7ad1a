"""Live updates: one server-sent-events stream per phone, pushing the snapshot on each change.

The browser's EventSource reconnects by itself (`retry:` sets it to one second) and gets the
current snapshot first thing, so nothing is missed. The stream sends a comment every few seconds
so a dead connection is noticed, and ends after SSE_MAX_SECONDS so that no thread is held forever
by a phone that went to sleep without closing its socket. How many streams are open at once is
bounded by companion.web.streams (config SSE_PER_CLIENT and SSE_STREAMS).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Blueprint, Flask, Response, current_app, request, stream_with_context

from companion.web.access import services
from companion.web.plain_words import players_text
from companion.web.streams import StreamGate

bp = Blueprint("events", __name__)
LOOK_SECONDS = 1.0  # how often a quiet stream looks whether its phone has gone


def init_app(app: Flask) -> None:
    """Hang the gate of the live streams on the app and register the stream."""
    app.extensions["rollscribe-streams"] = StreamGate(int(app.config["SSE_PER_CLIENT"]),
                                                      int(app.config["SSE_STREAMS"]))
    app.register_blueprint(bp)


@bp.get("/events")
def stream() -> Response:
    table = services().table
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    ends = time.monotonic() + float(current_app.config["SSE_MAX_SECONDS"])
    gate: StreamGate = current_app.extensions["rollscribe-streams"]
    client = request.remote_addr or "?"
    # waitress says when the phone has closed the socket (server.py reads ahead for it), so a
    # page left frees its stream within LOOK_SECONDS, not at the next heartbeat's failed write
    gone = request.environ.get("waitress.client_disconnected", lambda: False)
    gate.enter(client)

    def generate() -> Iterator[str]:
        yield "retry: 1000\n\n"
        version, spoke = None, time.monotonic()
        while time.monotonic() < ends and not gone():
            now = time.monotonic()
            current = table.version if version is None else table.wait_for_change(
                version, max(0.0, min(LOOK_SECONDS, spoke + heartbeat - now, ends - now)))
            if current != version:
                # the version sent may be newer than `current`: sent once, not again
                version, text = table.snapshot_text()
                yield f"id: {version}\nevent: state\ndata: {players_text(text)}\n\n"
                spoke = time.monotonic()
            elif time.monotonic() - spoke >= heartbeat:
                yield ": still here\n\n"
                spoke = time.monotonic()

    response = Response(stream_with_context(generate()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    # closed by the server when the stream ends or its client is gone, iterated or not
    response.call_on_close(lambda: gate.leave(client))
    return response
