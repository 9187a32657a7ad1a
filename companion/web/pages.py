"""The pages: start a game, the table, a game's history, past games, and the Pi's own screen.

Pages are thin shells; their scripts fetch JSON from the API and follow the live stream.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template
from werkzeug.wrappers import Response

from companion import bgstats
from companion.network import wifi_qr_payload
from companion.web.access import can_act, is_local, join_url, services
from companion.web.network import own_wifi
from companion.web.qr import qr_svg

bp = Blueprint("pages", __name__)


@bp.get("/")
def table() -> str:
    return render_template("table.html", can_act=can_act(), page="table")


@bp.get("/new")
def new_game() -> str:
    return render_template("new.html", can_act=can_act(), page="new")


@bp.get("/cards")
def cards() -> str:
    """The cards a game plays with at this table: entered once, by form or file."""
    return render_template("cards.html", can_act=can_act(), page="cards")


@bp.get("/games")
def games() -> str:
    return render_template("games.html", can_act=can_act(), page="games")


@bp.get("/games/<id:game_id>")
def history(game_id: int) -> str:
    record = services().table.history.game(game_id)  # 404-like error for an unknown game
    finished = record.outcome is not None and not record.abandoned
    title = services().table.history.games_registry.get_game(record.game).title
    return render_template("history.html", can_act=can_act(), game_id=game_id, page="games",
                           finished=finished, title=title)


@bp.get("/games/<id:game_id>/bgstats")
def send_to_bgstats(game_id: int) -> Response:
    """"Send to BG Stats": the phone follows this to the app, which offers to save the play."""
    return redirect(bgstats.link(bgstats.play(services().table.history, game_id)))


@bp.get("/join")
def join() -> str:
    """The QR code's target (/join#pin=NNNN): its script gives the PIN to /api/pin and goes on
    to the table. The PIN is never in the address the server sees."""
    return render_template("join.html", can_act=can_act(), page="join")


@bp.get("/panel")
def panel() -> str:
    """The Pi's own screen: the QR code of the table's own Wi-Fi (when it makes one), and the PIN
    with the QR code that carries it (never shown to phones)."""
    if not is_local():
        abort(403, "the table PIN is shown only on the table's own screen")
    url = join_url()
    wifi, no_wifi = own_wifi()
    wifi_qr = qr_svg(wifi_qr_payload(wifi), "L") if wifi else ""
    return render_template("panel.html", pin=services().pin, url=url, qr=qr_svg(url),
                           wifi=wifi, wifi_qr=wifi_qr, no_wifi=no_wifi, can_act=True,
                           page="panel")
