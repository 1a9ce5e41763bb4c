"""How a reading fails: a `Problem` (a planning error before the tool's name is known), and how
a message names a JSON value's kind."""

from __future__ import annotations

from typing import NoReturn

from toolshape.model._errors import PlanErrorKind
from toolshape.model._json import is_map


class Problem(Exception):
    """A reading failure, before the tool's name is known; `_plan` turns it into a PlanError."""

    def __init__(self, kind: PlanErrorKind, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.rule = rule


def fail(kind: PlanErrorKind, reason: str, rule: str | None = None) -> NoReturn:
    """Raise the `Problem` of kind `kind`."""
    raise Problem(kind, reason, rule)


def kind_of(value: object) -> str:
    """How a message names a JSON value's kind (`a list`, `a number`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if is_map(value):
        return "mapping"
    return type(value).__name__
