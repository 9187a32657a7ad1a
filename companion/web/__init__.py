"""The phone panel: a Flask app over one table session.

`create_app()` follows Flask's tutorial shape: configuration in, one blueprint per area (pages,
JSON API, server-sent events), and the services (the table session, the table PIN) hung on
`app.extensions["rollscribe"]` so that views stay thin: parse, call the table, answer.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from companion.history import History
from companion.network import MdnsName, settings_path
from companion.table import TableSession
from companion.web.access import Services
from companion.web.errors import register_errors


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the panel. Config keys: TABLE (a ready session) or DB_PATH (+ DICE_SOURCE),
    PIN (else a random 4-digit one kept in the database), PUBLIC_URL (what the QR code
    points phones at), WIFI_PATH (the Wi-Fi settings; default beside the database), MDNS
    (offer this machine's .local name when it resolves: True, False, or a MdnsName)."""
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY=None,
        DB_PATH="var/rollscribe.db",
        DICE_SOURCE=None,
        PIN=None,
        PUBLIC_URL=None,
        WIFI_PATH=None,
        MDNS=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SSE_HEARTBEAT=15.0,
        SSE_MAX_SECONDS=300.0,
    )
    if test_config:
        app.config.from_mapping(test_config)
    table = app.config.get("TABLE") or TableSession(
        History(app.config["DB_PATH"]), app.config["DICE_SOURCE"]
    )
    # Kept in the history database, so that phones stay unlocked across a restart of the table.
    history = table.history
    app.secret_key = app.config["SECRET_KEY"] or history.setting("secret_key", secrets.token_hex)
    pin = str(app.config["PIN"] or history.setting(
        "pin", lambda: f"{secrets.randbelow(10_000):04d}"))
    app.extensions["rollscribe"] = Services(
        table, pin, app.config["PUBLIC_URL"],
        Path(app.config["WIFI_PATH"] or settings_path(history.path)),
        mdns if isinstance(mdns := app.config["MDNS"], MdnsName) else MdnsName() if mdns else None)

    from companion.web import api, events, network, pages

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(network.bp)
    register_errors(app)
    return app
