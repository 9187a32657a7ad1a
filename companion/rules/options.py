"""A game's house rules and variants: a frozen dataclass checked against the schema the panel
offers, so what a phone sends is refused with a reason rather than half-applied."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self, TypeVar, dataclass_transform

from .errors import RulesError

Schema = list[dict[str, Any]]
O = TypeVar("O", bound="type[SchemaOptions]")


class OptionError(RulesError, ValueError):
    """An option's value that cannot be read at all (a 400 that names the option)."""


def json_option(name: str, text: str) -> Any:
    """Option `name`'s JSON text, parsed. json.loads raises RecursionError (no ValueError) on
    text nested too deep, which would otherwise escape every handler as a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise OptionError(f"option '{name}' nests too deep to be read as JSON") from None
    except ValueError as exc:
        raise OptionError(f"option '{name}' is not JSON: {exc}") from None


class SchemaOptions:
    """Base of each game's `Options` dataclass; the subclass sets `SCHEMA` (the panel's list of
    {name, type, default, choices?, help}) and may extend `check()` with its own limits."""

    __slots__ = ()
    SCHEMA: ClassVar[Schema] = []

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Self:
        data = dict(data or {})
        known = {item["name"] for item in cls.SCHEMA}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown option(s) {', '.join(unknown)}; known: {sorted(known)}")
        options = cls(**data)
        options.check()
        return options

    def check(self) -> None:
        for item in self.SCHEMA:
            name, kind = item["name"], item["type"]
            value = getattr(self, name)
            if "choices" in item and value not in item["choices"]:
                raise RulesError(f"{name} must be one of {item['choices']}, not {value!r}")
            if kind == "bool" and not isinstance(value, bool):
                raise RulesError(f"{name} is true or false, not {value!r}")
            if kind == "int" and type(value) is not int:
                raise RulesError(f"{name} is a whole number, not {value!r}")
            low, high = item.get("min"), item.get("max")
            if kind == "int" and ((low is not None and value < low)
                                  or (high is not None and value > high)):
                bounds = (f"from {low} to {high}" if low is not None and high is not None
                          else f"of at least {low}" if low is not None else f"of at most {high}")
                raise RulesError(f"{name} is a whole number {bounds}, not {value!r}")
            if kind == "str" and not isinstance(value, str):
                raise RulesError(f"{name} is text, not {value!r}")

    def to_json(self) -> dict[str, Any]:
        return {item["name"]: getattr(self, item["name"]) for item in self.SCHEMA}


@dataclass_transform(frozen_default=True)
def schema_options(schema: Schema) -> Callable[[O], O]:
    """The decorator of a game's `Options(SchemaOptions)`: a frozen slots dataclass whose
    `SCHEMA` is `schema`. Each field's default is checked against the schema's, so what the
    panel offers and what a game gets when nothing is set cannot drift apart."""
    def options_class(cls: O) -> O:
        made = dataclass(frozen=True, slots=True)(cls)
        made.SCHEMA = schema
        defaults = {f.name: f.default for f in fields(made)}
        offered = {item["name"]: item["default"] for item in schema}
        if defaults != offered:
            raise TypeError(f"{cls.__module__}.{cls.__name__}: fields {defaults} differ from the "
                            f"schema's defaults {offered}")
        return made
    return options_class
