"""The JSON API: everything the pages do, documented in docs/api.md.

Views only parse the request, call the table session or the history, and answer JSON; the error
handlers turn refusals into 400/409/403 with a message. Every action answers the new snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from companion import bgstats
from companion.die_photos import export_zip
from companion.history import effective_steps, undone
from companion.table import TableSession
from companion.web.access import can_act, needs_pin, services
from companion.web.plain_words import for_players

bp = Blueprint("api", __name__, url_prefix="/api")


MAX_TEXT = 2000  # characters of a typed roll or move: a tray of dice is a few dozen


class BadRequest(ValueError):
    """A request body that is not what the endpoint takes."""


def body() -> dict[str, Any]:
    """The JSON object sent ({} for none); anything else, however broken or deep, is a 400."""
    # At most the route's limit is read, a chunked body too (Werkzeug stops there).
    raw = request.get_data(cache=True)
    limit = request.max_content_length
    if limit is not None and len(raw) >= limit:
        raise RequestEntityTooLarge()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested too deep for the parser
        data = None
    if not isinstance(data, dict):
        raise BadRequest("send a JSON object as the request body")
    return data


def field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise BadRequest(f"'{name}' must be a {want}")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise BadRequest(f"'{name}' is too long (at most {MAX_TEXT} characters)")
    return value


def snapshot() -> Response:
    return jsonify(for_players(services().table.snapshot()))


# -- reading --------------------------------------------------------------------------------


@bp.get("/state")
def state() -> Response:
    return snapshot()


@bp.get("/access")
def access() -> Response:
    return jsonify({"can_act": can_act()})


@bp.post("/pin")
def pin() -> Response:
    given = body().get("pin")
    if not services().try_pin(given if isinstance(given, str) else str(given)):
        abort(403, "wrong PIN: read it off the table's screen")
    services().admit()
    return jsonify({"can_act": True})


@bp.get("/catalog")
def catalog() -> Response:
    registry = services().table.history.games_registry
    games = []
    for name in registry.game_names():
        cls = registry.get_game(name)
        games.append({"name": name, "title": cls.title, "min_players": cls.min_players,
                      "max_players": cls.max_players, "options": cls.options_schema(),
                      "table_data": cls.table_data,
                      "table_data_form": cls.table_data_form(),
                      "readings": list(cls.assumptions().values())})
    return jsonify({"games": games})


@bp.get("/games")
def games() -> Response:
    """Past games; a game's entered table data (its cards, kilobytes each) is left out of the
    list: the game's own page and its export carry it."""
    registry = services().table.history.games_registry
    listed = []
    for record in services().table.history.games():
        cls = registry.get_game(record.game)
        item = {**record.to_json(), "title": cls.title}  # the game as players call it
        name = cls.table_data
        if name and item["options"].get(name):
            item["options"] = {**item["options"], name: "(entered)"}
        listed.append(item)
    return jsonify({"games": listed})


@bp.get("/games/<id:game_id>")
def game(game_id: int) -> Response:
    history = services().table.history
    record = history.game(game_id)
    events = history.events(game_id)
    live = effective_steps(events)
    timeline = []
    for e in events:
        image = e.id if e.has_image else e.data.get("reading")
        timeline.append({
            **e.to_json(),
            "player": record.players[e.seat] if e.seat is not None else None,
            "undone": undone(e, live),
            "image": f"/api/images/{image}.jpg" if image else None,
        })
    cls = history.games_registry.get_game(record.game)
    return jsonify({"game": {**record.to_json(), "title": cls.title,
                             "teams": list(cls.teams[:len(record.players)])}, "events": timeline})


@bp.get("/games/<id:game_id>/export.json")
def export_json(game_id: int) -> Response:
    out = jsonify(services().table.history.export_json(game_id))
    out.headers["Content-Disposition"] = f"attachment; filename=game-{game_id}.json"
    return out


@bp.get("/games/<id:game_id>/export.csv")
def export_csv(game_id: int) -> Response:
    text = services().table.history.export_csv(game_id)
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename=game-{game_id}.csv"})


@bp.get("/games/<id:game_id>/export.bgstats.json")
def export_bgstats(game_id: int) -> Response:
    """A finished game as the play BG Stats imports (409 before the end)."""
    out = jsonify(bgstats.play(services().table.history, game_id))
    out.headers["Content-Disposition"] = f"attachment; filename=game-{game_id}.bgstats.json"
    return out


@bp.get("/dice-photos.zip")
def dice_photos() -> Response:
    """The table's own dice photos labelled by the players (what `rollscribe photos` writes)."""
    chunks = export_zip(services().table.history)
    return Response(chunks, mimetype="application/zip", headers={
        "Content-Disposition": "attachment; filename=rollscribe-dice-photos.zip"})


@bp.get("/stats")
def stats() -> Response:
    return jsonify({"players": services().table.history.player_stats()})


def picture(jpeg: bytes | None, missing: str) -> Response:
    """A kept JPEG (it never changes: phones cache it for a day), or 404 saying what is missing."""
    if jpeg is None:
        abort(404, missing)
    return Response(jpeg, mimetype="image/jpeg",
                    headers={"Cache-Control": "public, max-age=86400, immutable"})


@bp.get("/images/<id:event_id>.jpg")
def image(event_id: int) -> Response:
    return picture(services().table.history.image(event_id), f"no tray image for event {event_id}")


@bp.get("/crops/<id:event_id>/<int:die>.jpg")
def crop(event_id: int, die: int) -> Response:
    """A die's close-up, cut by the reader from the full-resolution frame (the tray picture is
    a thumbnail on which a d20's number cannot be read)."""
    return picture(services().table.history.crop(event_id, die),
                   f"no close-up of die {die + 1} in event {event_id}")


# -- acting (PIN needed) --------------------------------------------------------------------


def shown_version(data: dict[str, Any]) -> int | None:
    """The table version the phone showed when the action was tapped; scripts may leave it out."""
    return None if data.get("version") is None else field(data, "version", int)


def act(data: dict[str, Any], action: Callable[[TableSession], object], status: int = 200
        ) -> tuple[Response, int]:
    """Run an action if the table is still at the version the phone showed (else 409)."""
    table = services().table
    with table.expect(shown_version(data)):
        action(table)
    return snapshot(), status


@bp.post("/games")
@needs_pin
def new_game() -> tuple[Response, int]:
    data = body()
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise BadRequest("'options' must be an object")
    game, players = field(data, "game", str), field(data, "players", list)
    return act(data, lambda table: table.new_game(game, players, options), 201)


@bp.post("/games/<id:game_id>/resume")
@needs_pin
def resume(game_id: int) -> tuple[Response, int]:
    return act(body(), lambda table: table.resume(game_id))


@bp.post("/roll")
@needs_pin
def roll() -> tuple[Response, int]:
    data = body()
    text = field(data, "roll", str)
    return act(data, lambda table: table.type_roll(text))


@bp.post("/correct")
@needs_pin
def correct() -> tuple[Response, int]:
    """A die's value, and with "kind" its kind too (a d8 the camera took for a d6)."""
    data = body()
    index, value = field(data, "index", int), field(data, "value", (int, str))
    kind = field(data, "kind", str) if "kind" in data else None
    return act(data, lambda table: table.correct_die(index, value, kind))


@bp.post("/drop")
@needs_pin
def drop() -> tuple[Response, int]:
    """A box of the waiting reading that holds no die, left out ("dropped": false takes it
    back)."""
    data = body()
    index = field(data, "index", int)
    dropped = field(data, "dropped", bool) if "dropped" in data else True
    return act(data, lambda table: table.drop_die(index, dropped))


@bp.post("/add")
@needs_pin
def add() -> tuple[Response, int]:
    """A die the camera missed, added to the waiting reading."""
    data = body()
    kind, value = field(data, "die", str), field(data, "value", (int, str))
    return act(data, lambda table: table.add_die(kind, value))


@bp.post("/move")
@needs_pin
def move() -> tuple[Response, int]:
    data = body()
    text = field(data, "move", str)
    return act(data, lambda table: table.choose_move(text))


def _plain_action(method: str) -> Callable[[], tuple[Response, int]]:
    def view() -> tuple[Response, int]:
        data = body()  # no fields but the version; a malformed body is still refused
        if method == "read_dice":  # checks the version itself: the camera is read unlocked
            services().table.read_dice(shown_version(data))
            return snapshot(), 200
        return act(data, lambda table: getattr(table, method)())

    view.__name__ = method
    return needs_pin(view)


# Actions without a body: path -> the TableSession method it calls.
PLAIN_ACTIONS = {
    "read": "read_dice", "confirm": "confirm", "discard": "discard_reading",
    "end-turn": "end_turn", "undo": "undo", "undo-turn": "undo_turn",
}
for _path, _method in PLAIN_ACTIONS.items():
    bp.add_url_rule(f"/{_path}", view_func=_plain_action(_method), methods=["POST"])


# -- what the players enter once per table (a game's cards) ------------------------------------


@bp.get("/table-data/<game>")
def table_data(game: str) -> Response:
    return jsonify(services().table.table_data(game))


@bp.put("/table-data/<game>")
@needs_pin
def set_table_data(game: str) -> Response:
    """A JSON body {"data": {...}} or {"csv": "kind,name,..."}; the whole set is replaced."""
    data = body()
    if "csv" in data:
        return jsonify(services().table.set_table_data(game, field(data, "csv", str), "csv"))
    return jsonify(services().table.set_table_data(game, field(data, "data", dict)))


@bp.delete("/table-data/<game>")
@needs_pin
def forget_table_data(game: str) -> Response:
    return jsonify(services().table.set_table_data(game, None))
