"""The pages: start a game, the table, a game's history, past games, and the Pi's own screen.

Pages are thin shells; their scripts fetch JSON from the API and follow the live stream.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from companion.web.access import can_act, is_local, join_url, services
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


@bp.get("/games/<int:game_id>")
def history(game_id: int) -> str:
    services().table.history.game(game_id)  # 404-like error for an unknown game
    return render_template("history.html", can_act=can_act(), game_id=game_id, page="games")


@bp.get("/join")
def join() -> Response | tuple[str, int]:
    """The QR code's target: remember the PIN for this phone and go to the table."""
    if not services().try_pin(request.args.get("pin", "")):
        return render_template("error.html", status=403,
                               message="that PIN is not this table's: scan the code again"), 403
    session["pin"] = services().pin
    session.permanent = True
    return redirect(url_for("pages.table"))


@bp.get("/panel")
def panel() -> str:
    """The Pi's own screen: the PIN and the QR code that carries it (never shown to phones)."""
    if not is_local():
        abort(403, "the table PIN is shown only on the table's own screen")
    url = join_url()
    return render_template("panel.html", pin=services().pin, url=url, qr=qr_svg(url),
                           can_act=True, page="panel")
