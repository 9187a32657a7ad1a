"""Every failure becomes JSON (API) or a short page with a clear message: bad input is 400,
a conflict with the rules or the table is 409, a missing PIN 403; nothing is ever changed."""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.history import HistoryError, NoSuchGame
from companion.rules.errors import IllegalMove, RulesError
from companion.table import TableError


def status_for(exc: Exception) -> int:
    if isinstance(exc, NoSuchGame):
        return 404
    if isinstance(exc, IllegalMove):
        return 409
    if isinstance(exc, ValueError | KeyError | TypeError):
        return 400  # bad text, unknown game, bad players or options
    if isinstance(exc, TableError | RulesError):
        return 409
    if isinstance(exc, HistoryError):
        return 503
    return 500


def message(exc: Exception) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return text or type(exc).__name__


def register_errors(app: Flask) -> None:
    def answer(status: int, text: str):  # type: ignore[no-untyped-def]
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return jsonify({"error": text, "status": status}), status
        return render_template("error.html", status=status, message=text), status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
        if isinstance(exc, RequestEntityTooLarge):
            limit = (request.max_content_length or 0) // 1024  # this route's (limits.py)
            return answer(413, f"the request body is too big (at most {limit} KB)")
        return answer(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(Exception)
    def any_error(exc: Exception):  # type: ignore[no-untyped-def]
        status = status_for(exc)
        if isinstance(exc, HistoryError) and not isinstance(exc, NoSuchGame):
            current_app.extensions["rollscribe"].table.check_database()  # damaged? say so
        if status == 500:
            app.logger.exception("unexpected error on %s", request.path)
            return answer(500, "something went wrong on the table; the game is safe")
        return answer(status, message(exc))
