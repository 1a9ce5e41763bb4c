"""S22.3: reading a call made in a view's shape back into the plan's own shape.

A view changes the shape of a few values only; its `Read` tree says which, and `read_back`
undoes exactly that: `null` for a property the document makes optional is dropped, `{key,
value}` pairs become the map, JSON text becomes its object. Everything else passes unchanged,
and the document's schema judges the result (S6.3: never looser).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from toolshape.model._errors import ArgumentIssue
from toolshape.model._json import Unchecked

ReadKind = Literal["same", "object", "array", "pairs", "json", "value", "ref", "nullable", "kinds"]
"""How a view's value reads back; `json`: the JSON text of an object (a free-form object);
`value`: the JSON text of any value (a recursive reference cut, S22.5)."""


@dataclass(frozen=True, slots=True)
class Read:
    """How one value of a view reads back (`same`: as it is)."""

    kind: ReadKind = "same"
    properties: Mapping[str, Read] = field(default_factory=dict)
    """`object`: how each property reads back (the others as they are)."""
    drop_null: frozenset[str] = frozenset()
    """`object`: the optional properties whose `null` means "absent"."""
    inner: Read | None = None
    """`array`: each item; `pairs`: each value; `nullable`: a value that is not null."""
    ref: str = ""
    """`ref`: the definition whose reading applies."""
    kinds: Mapping[str, Read] = field(default_factory=dict)
    """`kinds`: a union's reading, by the JSON kind of the value (`object`, `array`, `string`,
    ...); a kind not listed reads as it is."""

    @property
    def changes(self) -> bool:
        """Whether reading back can change a value."""
        return self.kind != "same"


SAME = Read()


class Unreadable(Exception):
    """A value the view's shape can't be read back from (its issue says where and why)."""

    def __init__(self, issue: ArgumentIssue) -> None:
        self.issue = issue
        super().__init__(issue.message)


def read_back(
    value: Unchecked, reader: Read, defs: Mapping[str, Read], path: str = ""
) -> Unchecked:
    """`value`, made in a view's shape, in the plan's own shape (S22.3).

    Raises:
        Unreadable: pairs that name one key twice, or JSON text that is not a JSON object.
    """
    kind = reader.kind
    if kind == "same":
        return value
    if kind == "ref":
        return read_back(value, defs[reader.ref], defs, path)
    if kind == "nullable":
        assert reader.inner is not None
        return value if value is None else read_back(value, reader.inner, defs, path)
    if kind == "kinds":
        inner = reader.kinds.get(kind_of(value))
        return value if inner is None else read_back(value, inner, defs, path)
    if kind == "object":
        return _object(value, reader, defs, path) if isinstance(value, dict) else value
    if kind == "array":
        assert reader.inner is not None
        inner = reader.inner
        if not isinstance(value, list):
            return value
        return [read_back(item, inner, defs, _at(path, i)) for i, item in enumerate(value)]
    if kind == "pairs":
        assert reader.inner is not None
        return _pairs(value, reader.inner, defs, path)
    return _json_text(value, path, kind == "value")


def _object(
    value: dict[str, Unchecked], reader: Read, defs: Mapping[str, Read], path: str
) -> dict[str, Unchecked]:
    out: dict[str, Unchecked] = {}
    for name, item in value.items():
        if item is None and name in reader.drop_null:
            continue  # `null` for an optional property: absent
        inner = reader.properties.get(name)
        out[name] = item if inner is None else read_back(item, inner, defs, _at(path, name))
    return out


def _pairs(value: Unchecked, inner: Read, defs: Mapping[str, Read], path: str) -> Unchecked:
    """`[{"key": k, "value": v}, ...]` as `{k: v, ...}` (anything else as it is: the document
    refuses it)."""
    if not isinstance(value, list) or not all(
        isinstance(pair, dict) and set(pair) == {"key", "value"} and isinstance(pair["key"], str)
        for pair in value
    ):
        return value
    out: dict[str, Unchecked] = {}
    for i, pair in enumerate(value):
        key = pair["key"]
        if key in out:
            raise Unreadable(
                ArgumentIssue(_at(_at(path, i), "key"), "view", f"the key {key!r} is given twice")
            )
        out[key] = read_back(pair["value"], inner, defs, _at(_at(path, i), "value"))
    return out


def _json_text(value: Unchecked, path: str, any_kind: bool) -> Unchecked:
    """JSON text as its object (`any_kind`: as its value, of any kind); anything but text as it
    is: the document refuses it."""
    if not isinstance(value, str):
        return value
    try:
        parsed, ok = json.loads(value), True
    except (ValueError, RecursionError):
        parsed, ok = None, False
    if isinstance(parsed, dict) or (any_kind and ok):
        return parsed
    what = "JSON text" if any_kind else "a JSON object"
    raise Unreadable(
        ArgumentIssue(path, "view", f"the text is not {what} (its JSON text is asked)")
    )


def kind_of(value: Unchecked) -> str:
    """The JSON kind of a value: `object`, `array`, `string`, `number`, `boolean`, `null`."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    return "null" if value is None else "number"


def _at(path: str, part: str | int) -> str:
    return f"{path}.{part}" if path else str(part)
