"""The Dice page: the table's symbol dice, defined, taught from the tray, exported and imported;
and what the table has learnt of all its dice, from the shots taught here and the rolls players
confirmed (companion.dice_memory), exported, imported or forgotten together.

Teaching needs the camera and the models, which the web layer does not import: `rollscribe
serve` hands over a factory of a teacher (vision.taught_dice.Teacher over the table's camera),
made on the first shot so a missing camera is an answer on the page, not a server that will not
start. Without a camera, dice can still be defined, imported and exported.
"""

from __future__ import annotations

import json
import threading
from base64 import b64encode
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import ServiceUnavailable

from companion import memory_file
from companion.dice_store import MAX_SHOTS, DiceStore, DiceStoreError, open_store
from companion.memory_file import DiceMemoryError
from companion.rules.errors import RulesError
from companion.rules.symbol_dice import SHIPPED
from companion.web.access import can_act, needs_pin
from companion.web.api import BadRequest, body
from companion.web.api import field as body_field

bp = Blueprint("dice", __name__)
MAX_DIE_FILE = 2 * 1024 * 1024  # bytes: a die of 40 faces, 5 shots each, about 10 kB a shot
# bytes: the standard dice alone fill 1,680 crops (24 of each value of each kind), a crop 4-6 kB
# (5-8 in base64): about 13 MB; symbol dice add 24 crops a face
MAX_MEMORY_FILE = 48 * 1024 * 1024


class Shot(Protocol):
    """A teaching shot as vision.taught_dice.TakenShot gives it."""

    token: str
    problem: str | None
    guess: str | None

    def jpeg(self) -> bytes: ...


class Teacher(Protocol):
    def take(self, store: DiceStore, die: str) -> Shot: ...

    def keep(self, store: DiceStore, token: str, face: str) -> str | None: ...


@dataclass
class DiceDesk:
    """The table's dice store (None, with the reason, when it cannot be opened) and teacher."""

    store: DiceStore | None
    problem: str | None
    make_teacher: Callable[[], Teacher] | None
    teacher: Teacher | None = None
    _opening: threading.Lock = field(default_factory=threading.Lock)

    def need_store(self) -> DiceStore:
        if self.store is None:
            raise ServiceUnavailable(f"the table's dice cannot be kept: {self.problem}")
        return self.store

    def need_teacher(self) -> Teacher:
        if self.make_teacher is None:
            raise ServiceUnavailable("this table has no camera to teach with "
                                     "(start it with --camera or --demo)")
        with self._opening:
            if self.teacher is None:
                try:
                    self.teacher = self.make_teacher()
                except Exception as exc:  # a camera or model that will not open: say which
                    raise ServiceUnavailable(
                        f"the camera or the models cannot be used: {exc}") from exc
            return self.teacher


def init_app(app: Flask, db_path: Path) -> None:
    """Hang the table's dice on the app (config DICE_STORE, else the store beside the history
    at `db_path`; TEACHER: a factory of the teacher) and register the page and its API."""
    store, problem = app.config.get("DICE_STORE"), None
    if store is None:
        store, problem = open_store(db_path)
    app.extensions["rollscribe-dice"] = DiceDesk(store, problem, app.config.get("TEACHER"))
    app.register_blueprint(bp)


def desk() -> DiceDesk:
    return current_app.extensions["rollscribe-dice"]


def die_json(store: DiceStore, name: str) -> dict[str, Any]:
    """A die as the page shows it: its definition, shots per face, and the faces that still
    need shots first."""
    die = store.definition(name).to_json()
    counts = store.shot_counts(name)
    faces = [{**f, "shots": counts[f["name"]]} for f in die["faces"]]
    return {**die, "faces": faces, "shipped": name in SHIPPED,
            "taught": all(counts.values()), "order": sorted(counts, key=counts.__getitem__)}


@bp.get("/dice")
def page() -> str:
    return render_template("dice.html", can_act=can_act(), page="games", max_shots=MAX_SHOTS)


@bp.get("/api/dice")
def listing() -> Response:
    store = desk().need_store()
    return jsonify({"dice": [die_json(store, name) for name in store.definitions()],
                    "max_shots": MAX_SHOTS, "camera": desk().make_teacher is not None})


@bp.get("/api/dice/<name>")
def one(name: str) -> Response:
    return jsonify(die_json(desk().need_store(), name))


@bp.post("/api/dice")
@needs_pin
def define() -> Response:
    """Add or edit a definition: {"name", "title", "faces": [{"name", "count", "value"}]}."""
    die = desk().need_store().define(body())
    return jsonify(die_json(desk().need_store(), die.name))


@bp.post("/api/dice/<name>/rename")
@needs_pin
def rename(name: str) -> Response:
    die = desk().need_store().rename(name, body_field(body(), "to", str))
    return jsonify(die_json(desk().need_store(), die.name))


@bp.post("/api/dice/<name>/delete")
@needs_pin
def delete(name: str) -> Response:
    desk().need_store().delete(name)
    return jsonify({"deleted": name})


@bp.get("/api/dice/<name>/history-name")
def describe(name: str) -> Response:
    """What a die name in an old game is: known, renamed (and to what) or deleted."""
    return jsonify(desk().need_store().describe(name))


@bp.get("/api/dice/<name>/export")
def export(name: str) -> Response:
    data = json.dumps(desk().need_store().export(name))
    return Response(data, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{name}.die.json"'})


@bp.post("/api/dice/import")
@needs_pin
def import_die() -> Response:
    """A die file exported by any table (optionally ?name= to load it under another name)."""
    raw = request.get_data(cache=False)  # at most max_body bytes are read (create_app)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"the die file is not JSON: {exc}") from exc
    die = desk().need_store().import_die(data, request.args.get("name") or None)
    return jsonify(die_json(desk().need_store(), die.name))


import_die.max_body = MAX_DIE_FILE  # type: ignore[attr-defined]


@bp.post("/api/dice/<name>/shot")
@needs_pin
def take_shot(name: str) -> Response:
    """Read the tray for a shot of this die: its crop, whether it can be kept (and if not, why),
    and the face it looks like among those taught."""
    store = desk().need_store()
    shot = desk().need_teacher().take(store, name)
    return jsonify({"token": shot.token, "problem": shot.problem, "guess": shot.guess,
                    "crop": "data:image/jpeg;base64," + b64encode(shot.jpeg()).decode("ascii"),
                    "die": die_json(store, name)})


@bp.post("/api/dice/<name>/shot/<token>")
@needs_pin
def keep_shot(name: str, token: str) -> Response:
    """Keep the shot as the face the player named, unless it looks like another face."""
    store = desk().need_store()
    problem = desk().need_teacher().keep(store, token, body_field(body(), "face", str))
    return jsonify({"kept": problem is None, "problem": problem, "die": die_json(store, name)})


def learnt_line(kinds: list[dict[str, Any]]) -> str:
    """What the table has learnt, in a line: "Knows 2 of your 3 dice well; the d12 is still
    new." """
    if not kinds:
        return ("Nothing learnt yet: every shot taught here and every roll a player checks or "
                "corrects teaches the camera this table's dice.")
    new = [k["kind"] for k in kinds if not k["well"]]
    line = f"Knows {len(kinds) - len(new)} of your {len(kinds)} dice well"
    if new:
        line += f"; the {' and the '.join(new)} {'is' if len(new) == 1 else 'are'} still new"
    return line + "."


@bp.get("/api/memory")
def memory() -> Response:
    """What the table has learnt: per kind, the crops kept, how many were corrections, how many
    taught shots and how many values; and that in a line."""
    kinds = desk().need_store().summary()
    return jsonify({"kinds": kinds, "line": learnt_line(kinds)})


@bp.post("/api/memory/forget")
@needs_pin
def forget() -> Response:
    """Forget what this table learnt, taught shots too (the rolls played so far do not teach it
    again)."""
    return jsonify({"forgotten": desk().need_store().forget()})


@bp.get("/api/memory/export")
def export_memory() -> Response:
    data = json.dumps(memory_file.export_memory(desk().need_store()))
    return Response(data, mimetype="application/json", headers={
        "Content-Disposition": 'attachment; filename="table-memory.json"'})


@bp.post("/api/memory/import")
@needs_pin
def import_memory() -> Response:
    """A memory file exported by any table: its crops (and symbol dice this table lacks) are
    added to what this one knows."""
    try:
        data = json.loads(request.get_data(cache=False))
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"the memory file is not JSON: {exc}") from exc
    added = memory_file.import_memory(desk().need_store(), data)
    kinds = desk().need_store().summary()
    return jsonify({"imported": added, "kinds": kinds, "line": learnt_line(kinds)})


import_memory.max_body = MAX_MEMORY_FILE  # type: ignore[attr-defined]


@bp.errorhandler(DiceStoreError)
@bp.errorhandler(DiceMemoryError)
@bp.errorhandler(RulesError)
def refused(exc: Exception) -> tuple[Response, int]:
    return jsonify({"error": str(exc)}), 400
