"""What a table learnt of its dice as a file, for another table (or this one, later) to import.

The file carries every crop with its kind, value and how it is known (companion.dice_memory:
taught shots and confirmed dice alike), and the definitions of the symbol dice they are of, so
that a new table gets the dice with their crops. Embeddings are left out: the other table may
run another model. Files of the first format (standard dice only) still import.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from typing import Any

from companion.dice_memory import HOW, Row
from companion.dice_store import DiceStore
from companion.rules.errors import RulesError
from companion.rules.symbol_dice import SymbolDie

FILE_FORMAT = "rollscribe-memory/2"
FIRST_FORMAT = "rollscribe-memory/1"  # standard dice only, each with 'corrected' and 'jpeg'


class DiceMemoryError(ValueError):
    """A memory file that cannot be imported: the message says what is wrong in it."""


def export_memory(store: DiceStore) -> dict[str, Any]:
    """Every crop the table keeps, with the definitions of the symbol dice among them."""
    crops = store.dice()
    kinds = {c.kind for c in crops}
    return {"format": FILE_FORMAT,
            "symbol_dice": [d.to_json() for name, d in store.definitions().items()
                            if name in kinds],
            "dice": [{"kind": c.kind, "value": c.value, "how": c.how,
                      "image": base64.b64encode(c.image).decode("ascii")} for c in crops]}


def import_memory(store: DiceStore, data: object) -> int:
    """Add a memory file's crops (kept within the bound, like learnt ones) and the symbol dice
    of it this table lacks; DiceMemoryError naming what is wrong, and then nothing is added.
    A crop the table holds already (the same die, value and image: a file imported twice) is
    not added again. Returns how many crops were added."""
    if not isinstance(data, dict) or data.get("format") not in (FILE_FORMAT, FIRST_FORMAT):
        raise DiceMemoryError(f"not a Rollscribe memory file (its 'format' is not "
                              f"{FILE_FORMAT})")
    dice, crops = data.get("symbol_dice", []), data.get("dice")
    if not isinstance(crops, list) or not isinstance(dice, list):
        raise DiceMemoryError("the memory file's 'dice' and 'symbol_dice' must be lists")
    known = store.definitions()
    new = {}
    for n, raw in enumerate(dice, start=1):
        try:
            die = SymbolDie.from_json(raw)
        except RulesError as exc:
            raise DiceMemoryError(f"symbol die {n} of the memory file: {exc}") from exc
        if die.name not in known:
            new[die.name] = die
    kinds = {c.get("kind") for c in crops if isinstance(c, dict)}
    faces = {k: new[k].face_names if k in new else store.faces(k) for k in kinds
             if isinstance(k, str)}
    rows = [_row(faces, n, crop, data["format"] == FIRST_FORMAT)
            for n, crop in enumerate(crops, start=1)]
    held = {_same(d.kind, json.dumps(d.value), d.image or b"")
            for d in store.dice(list(faces))}
    fresh = []
    for row in rows:
        if _same(row[0], row[1], row[3]) not in held:
            held.add(_same(row[0], row[1], row[3]))
            fresh.append(row)
    store.add_learnt(list(new.values()), fresh)
    return len(fresh)


def _same(kind: str, value: str, image: bytes) -> tuple[str, str, bytes]:
    """What makes two crops one: the die, its value (as stored) and the image's digest."""
    return kind, value, hashlib.sha256(image).digest()


def _row(faces: dict[str, tuple[int | str, ...] | None], n: int, crop: object, first: bool
         ) -> Row:
    """One crop of the file as the store keeps it (`faces`: the values of each kind it names,
    None for no die known); DiceMemoryError naming it if it is wrong."""
    image_key = "jpeg" if first else "image"
    if not isinstance(crop, dict) or not isinstance(crop.get(image_key), str):
        raise DiceMemoryError(f"die {n} of the memory file needs a 'kind', a 'value' and its "
                              f"'{image_key}' in base64")
    kind, value = crop.get("kind"), crop.get("value")
    how = ("corrected" if crop.get("corrected") else "checked") if first else crop.get("how")
    values = faces.get(kind) if isinstance(kind, str) else None
    if values is None or json.dumps(value) not in {json.dumps(f) for f in values}:
        raise DiceMemoryError(f"die {n} of the memory file: {kind!r} {value!r} is not a face "
                              "of a die of this table or of the file")
    if how not in HOW:
        raise DiceMemoryError(f"die {n} of the memory file: its 'how' must be one of "
                              + ", ".join(HOW))
    try:
        image = base64.b64decode(crop[image_key], validate=True)
    except ValueError as exc:
        raise DiceMemoryError(f"die {n} of the memory file is not base64: {exc}") from exc
    return (kind, json.dumps(value), how, image, None, None, None, time.time())
