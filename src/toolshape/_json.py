"""JSON values: the type, deep copies, and equality as JSON Schema has it (S6.1, S9.1, S11.1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

Json: TypeAlias = Any
"""A JSON value as `json.loads` returns it (dict, list, str, int, float, bool, None)."""

_TRUE, _FALSE = object(), object()


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _empty(value: Json) -> Json:
    """A fresh container to copy `value` into, or None for a scalar (dict and list subclasses
    copy into plain ones)."""
    kind = value.__class__
    if kind is dict or (kind not in _SCALARS and isinstance(value, dict)):
        return {}
    if kind is list or (kind not in _SCALARS and isinstance(value, list)):
        return []
    return None


def thaw(value: Json) -> Json:
    """A deep copy of plain JSON data (dicts and lists copied, scalars shared).

    Iterative, so any depth copies from any depth of the caller's stack (S14.4)."""
    root = _empty(value)
    if root is None:
        return value
    scalars = _SCALARS
    stack: list[tuple[Json, Json]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        if target.__class__ is dict:
            for key, item in source.items():
                kind = item.__class__
                if kind in scalars:
                    target[key] = item
                    continue
                copy = {} if kind is dict else [] if kind is list else _empty(item)
                if copy is None:
                    target[key] = item
                else:
                    target[key] = copy
                    stack.append((item, copy))
        else:
            for item in source:
                kind = item.__class__
                if kind in scalars:
                    target.append(item)
                    continue
                copy = {} if kind is dict else [] if kind is list else _empty(item)
                if copy is None:
                    target.append(item)
                else:
                    target.append(copy)
                    stack.append((item, copy))
    return root


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
