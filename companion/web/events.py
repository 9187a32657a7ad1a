"""Live updates: one server-sent-events stream per phone, pushing the snapshot on each change.

The browser's EventSource reconnects by itself (`retry:` sets it to one second); the stream also
sends a comment every few seconds so a dead connection is noticed and its thread freed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, stream_with_context

from companion.web.access import services

bp = Blueprint("events", __name__)


@bp.get("/events")
def stream() -> Response:
    table = services().table
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])

    def generate() -> Iterator[str]:
        yield "retry: 1000\n\n"
        version = None
        while True:
            current = table.version if version is None else table.wait_for_change(
                version, heartbeat)
            if current == version:
                yield ": still here\n\n"
                continue
            version = current
            snap = table.snapshot()
            yield f"id: {snap['version']}\nevent: state\ndata: {json.dumps(snap)}\n\n"

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
