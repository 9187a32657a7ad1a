"""Reading the records players enter for a table (cards, dashboards): the field readers that
every game's table data needs alike, whatever its records' fields are."""

from __future__ import annotations

import re
from typing import Any

from .errors import RulesError

_SLUG = re.compile(r"^[a-z0-9][a-z0-9_]*$")


def slug(text: Any) -> str:
    """An id as the records use them ('Fire Bolt' -> 'fire_bolt'); '' where none can be made."""
    made = re.sub(r"[^a-z0-9_]", "", str(text or "").strip().lower().replace(" ", "_"))
    return made if _SLUG.match(made) else ""


def whole_number(record: dict[str, Any], key: str, who: str, error: type[RulesError],
                 default: int | None = None, low: int = 0) -> int:
    """Field `key` as a whole number of at least `low`, `default` when left empty; else `error`
    saying what is wrong, starting with `who` (the record, as the game names it)."""
    value = record.get(key, default)
    if value in ("", None):
        if default is None:
            raise error(f"{who} needs {key}")
        value = default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise error(f"{who}: {key} is a whole number, not {value!r}") from None
    if number < low:
        raise error(f"{who}: {key} is at least {low}, not {number}")
    return number
