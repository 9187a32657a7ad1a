"""The phone panel: a Flask app over one table session.

`create_app()` follows Flask's tutorial shape: configuration in, one blueprint per area (pages,
JSON API, server-sent events), and the services (the table session, the table PIN) hung on
`app.extensions["rollscribe"]` so that views stay thin: parse, call the table, answer.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter

from companion.dice_store import open_store
from companion.history import History
from companion.network import MdnsName, settings_path
from companion.table import TableSession
from companion.web.access import Services, check_origin, kept_pin
from companion.web.errors import register_errors
from companion.web.limits import MAX_BODY, refuse_big_bodies
from companion.web.streams import PER_CLIENT, STREAMS


class IdConverter(IntegerConverter):
    """`<id:name>`: a row id SQLite can hold; a bigger number is no page (404), not an error."""

    def __init__(self, map: Any) -> None:
        super().__init__(map, max=2**63 - 1)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the panel. Config keys: TABLE (a ready session) or DB_PATH (+ DICE_SOURCE),
    PIN (else a random one of PIN_DIGITS digits kept in the database), PUBLIC_URL (what the QR
    code points phones at), HOST (the address the server listens on, when only one), WIFI_PATH (the Wi-Fi settings; default beside the database), MDNS
    (offer this machine's .local name when it resolves: True, False, or a MdnsName),
    DICE_STORE (the table's dice; default beside the database) and TEACHER (a factory of the
    teacher of dice shots, given by `rollscribe serve` when there is a camera); SSE_PER_CLIENT and
    SSE_STREAMS bound the live streams open at once (companion.web.streams)."""
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY=None,
        DB_PATH="var/rollscribe.db",
        DICE_SOURCE=None,
        PIN=None,
        PIN_DIGITS=4,  # of a PIN made by the table; 6 or more make guessing far slower
        PUBLIC_URL=None,
        HOST="",
        WIFI_PATH=None,
        MDNS=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=MAX_BODY,  # Werkzeug stops reading there, whatever the server
        SSE_HEARTBEAT=15.0,
        SSE_MAX_SECONDS=300.0,
        SSE_PER_CLIENT=PER_CLIENT,  # live streams open at once from one address
        SSE_STREAMS=STREAMS,  # and from all together (companion.web.streams)
    )
    if test_config:
        app.config.from_mapping(test_config)
    table = app.config.get("TABLE")
    if table is None:  # the session learns into the dice file the Dice page keeps
        if app.config.get("DICE_STORE") is None:
            app.config["DICE_STORE"] = open_store(app.config["DB_PATH"])[0]
        table = TableSession(History(app.config["DB_PATH"], fallback=True),
                             app.config["DICE_SOURCE"], app.config["DICE_STORE"])
    # Kept in the history database, so that phones stay unlocked across a restart of the table.
    history = table.history
    app.secret_key = app.config["SECRET_KEY"] or history.setting("secret_key", secrets.token_hex)
    pin = str(app.config["PIN"] or kept_pin(history, int(app.config["PIN_DIGITS"])))
    key = hashlib.sha256(f"session grants:{app.secret_key}".encode()).digest()
    mdns = app.config["MDNS"]
    app.extensions["rollscribe"] = Services(
        table, pin, app.config["PUBLIC_URL"],
        Path(app.config["WIFI_PATH"] or settings_path(history.path)),
        mdns if isinstance(mdns, MdnsName) else MdnsName() if mdns else None,
        listen=str(app.config["HOST"] or ""), key=key)

    from companion.web import api, dice, events, network, pages

    app.url_map.converters["id"] = IdConverter

    @app.context_processor
    def faults() -> dict[str, Any]:
        """Every page shows the table's faults from the start (live pages keep them current)."""
        return {"faults": table.faults()}  # not the snapshot: its ranked moves are not needed

    app.before_request(check_origin)

    app.before_request(refuse_big_bodies)

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    events.init_app(app)
    app.register_blueprint(network.bp)
    dice.init_app(app, history.path)
    register_errors(app)
    return app
