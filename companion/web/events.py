"""Live updates: one server-sent-events stream per phone, pushing the snapshot on each change.

The browser's EventSource reconnects by itself (`retry:` sets it to one second) and gets the
current snapshot first thing, so nothing is missed. The stream sends a comment every few seconds
so a dead connection is noticed, and ends after SSE_MAX_SECONDS so that no thread is held forever
by a phone that went to sleep without closing its socket.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, stream_with_context

from companion.web.access import services

bp = Blueprint("events", __name__)


@bp.get("/events")
def stream() -> Response:
    table = services().table
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    ends = time.monotonic() + float(current_app.config["SSE_MAX_SECONDS"])

    def generate() -> Iterator[str]:
        yield "retry: 1000\n\n"
        version = None
        while time.monotonic() < ends:
            current = table.version if version is None else table.wait_for_change(
                version, min(heartbeat, max(0.0, ends - time.monotonic())))
            if current == version:
                yield ": still here\n\n"
                continue
            # the version sent may be newer than `current`: sent once, not again
            version, text = table.snapshot_text()
            yield f"id: {version}\nevent: state\ndata: {text}\n\n"

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
