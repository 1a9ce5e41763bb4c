"""JSON values: the type, deep copies, and equality as JSON Schema has it (S6.1, S9.1, S11.1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

Json: TypeAlias = Any
"""A JSON value as `json.loads` returns it (dict, list, str, int, float, bool, None)."""

_TRUE, _FALSE = object(), object()


def thaw(value: Json) -> Json:
    """A deep copy of plain JSON data (dicts and lists copied, scalars shared)."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [thaw(v) for v in value]
    return value


def _unbool(value: Any) -> Any:
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return value


def equal(one: Any, two: Any) -> bool:
    """JSON equality as jsonschema has it: `true` is not `1`, `1` is `1.0`, containers deep.

    Schemas are compared this way everywhere they are merged (S6.1, S9.1, S11.1)."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(equal(one[k], two[k]) for k in one)
    return bool(_unbool(one) == _unbool(two))
