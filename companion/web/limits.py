"""How big a body each route reads. A JSON action needs a few hundred bytes, so every route is
held to MAX_BODY unless its view says otherwise in `max_body` (the taught-die import takes a
file of up to MAX_DIE_FILE). The server in front reads no body bigger than the largest of these,
and each route refuses anything over its own limit on the declared length, before reading it.
"""

from __future__ import annotations

from flask import Flask, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

MAX_BODY = 64 * 1024  # bytes: the biggest body an action needs (a new game) is well under 1 KB


def body_limit(app: Flask, endpoint: str | None) -> int | None:
    """The most bytes the route `endpoint` reads (None: no limit)."""
    view = app.view_functions.get(endpoint or "")
    return getattr(view, "max_body", app.config["MAX_CONTENT_LENGTH"])


def largest_body(app: Flask) -> int:
    """The biggest body any route of `app` takes: what the server in front may read at all."""
    limits = [body_limit(app, endpoint) for endpoint in app.view_functions]
    return max(limit for limit in limits if limit is not None)


def refuse_big_bodies() -> None:
    """Before each request: refused on the declared length, before a byte of the body is
    read; a chunked body is cut off at the same limit by Werkzeug as it is read."""
    limit = body_limit(current_app, request.endpoint)
    request.max_content_length = limit
    if limit is not None and (request.content_length or 0) > limit:
        raise RequestEntityTooLarge()
